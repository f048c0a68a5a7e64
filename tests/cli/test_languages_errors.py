"""Refusals in the reader's language (issue 30): a rule's refusal of a move keeps its
section id (T-3.8, R-5.1) inside the translated sentence, and ``--json`` of the same
refusal is byte-identical to English whatever ``--lang`` says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import new_keys, ok, pbem, report

JAPANESE = "ja"
TRADITIONAL = "zh-Hant"
SIMPLIFIED = "zh-Hans"


def settled(ruleset: str, *names: str) -> Path:
    """A new game of ``ruleset`` between ``names``, every automatic step made: the
    players are to decide."""
    new_keys(*names)
    seats = [a for name in names for a in ("--seat", name)]
    ok("new", ruleset, *seats, "--as", names[0], "-o", "g.json")
    f = Path("g.json")
    while any(w in (awaiting := report("status", f)["next"]) for w in ("automatic", "to join")):
        f = Path(report("play", f, "--as", awaiting.split()[0].rstrip(","))["file"])
    return f


def refused(lang: str, *args: str | Path) -> str:
    """The one error line a refused command prints in ``lang``."""
    result = pbem("--lang", lang, *args)
    assert result.exit_code == 1, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


def same_json(*args: str | Path) -> None:
    """``--json`` of a refusal is the same bytes in every language."""
    english = pbem(*args, "--json")
    assert english.exit_code == 1 and json.loads(english.stdout)["ok"] is False
    for lang in (JAPANESE, TRADITIONAL, SIMPLIFIED):
        assert pbem("--lang", lang, *args, "--json").stdout == english.stdout


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "pbem: error: T-3.8: place your starting cubes: place <region> (not plague)"),
        (JAPANESE, "T-3.8: 初期配置の駒を置いてください: place <region>（plague ではありません）"),
        (TRADITIONAL, "T-3.8: 放置你的起始方塊：place <region>（不是 plague）"),
        (SIMPLIFIED, "T-3.8: 放置你的起始方块：place <region>（不是 plague）"),
    ],
)
def test_a_rattus_refusal_is_translated_around_its_rule_id(lang: str, expected: str) -> None:
    f = settled("rattus", "ann", "ben")
    (first,) = report("status", f)["awaiting"]  # T-3.8: the start player places cubes
    line = refused(lang, "play", f, "plague Gallia", "--as", first)
    assert line.endswith(expected), line
    same_json("play", f, "plague Gallia", "--as", first)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "pbem: error: R-5.1: your two pirates must be on different areas"),
        (JAPANESE, "R-5.1: 2人の海賊は別々のエリアに置かなければなりません"),
        (TRADITIONAL, "R-5.1: 你的兩個海盜必須放在不同的區域"),
        (SIMPLIFIED, "R-5.1: 你的两个海盗必须放在不同的区域"),
    ],
)
def test_a_rattaneer_refusal_is_translated_around_its_rule_id(lang: str, expected: str) -> None:
    f = settled("rattaneer", "anne", "bart")
    move = "pirates 3 3, henchmen X"
    line = refused(lang, "play", f, move, "--as", "anne")
    assert line.endswith(expected), line
    same_json("play", f, move, "--as", "anne")


def forged(f: Path) -> Path:
    """A copy of ``f`` whose last signature is changed by one letter."""
    data = json.loads(f.read_bytes())
    step = data["steps"][-1]
    signed = step if "signature" in step else step["envelopes"][-1]
    first = "B" if signed["signature"][0] != "B" else "C"
    signed["signature"] = first + signed["signature"][1:]
    out = Path("forged.json")
    out.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True))
    return out


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "pbem: error: step {n}, seat {seat} ({name}): bad signature"),
        (JAPANESE, "ステップ {n}、席 {seat}（{name}）: 署名が不正です"),
        (TRADITIONAL, "第 {n} 步，座位 {seat}（{name}）：簽章無效"),
        (SIMPLIFIED, "第 {n} 步，座位 {seat}（{name}）：签名无效"),
    ],
)
def test_a_forged_signature_is_refused_in_the_auditors_language(lang: str, expected: str) -> None:
    f = forged(settled("rattus", "ann", "ben"))
    english = json.loads(pbem("verify", f, "--json").stdout)
    assert english["error"].endswith("bad signature"), english
    seat = english["seat"]
    name = ("ann", "ben")[seat]
    line = refused(lang, "verify", f)
    assert line.endswith(expected.format(n=english["step"], seat=seat, name=name)), line
    same_json("verify", f)


@pytest.mark.parametrize(
    ("content", "english", "simplified"),
    [
        (None, "nothing.json: no such file", "nothing.json：没有这个文件"),
        (b'{"a":1,"a":2}', "nothing.json: duplicate key 'a' in JSON", "JSON 中的键 'a' 重复"),
        (b'{"format":"pbem/1","x":1}', "nothing.json: unknown field 'x'", "未知的字段 'x'"),
    ],
)
def test_a_bad_game_file_is_refused_in_the_readers_language(
    content: bytes | None, english: str, simplified: str
) -> None:
    if content is not None:
        Path("nothing.json").write_bytes(content)
    result = pbem("verify", "nothing.json")
    assert result.stderr == f"pbem: error: {english}\n"
    line = pbem("--lang", SIMPLIFIED, "verify", "nothing.json").stderr.strip()
    assert line.startswith("pbem：错误：nothing.json") and line.endswith(simplified), line
    english_json = pbem("verify", "nothing.json", "--json").stdout
    assert pbem("--lang", SIMPLIFIED, "verify", "nothing.json", "--json").stdout == english_json
