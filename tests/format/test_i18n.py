"""The languages (issue 30): every message extracted from pbem and click has a translation
in every catalog with the same placeholders, the compiled catalogs are those of the ``.po``
files, the language is chosen in the documented order, click's words and pbem's are
translated, and ``--json`` output is the same bytes in every language."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from pbem.cli import helptexts
from pbem.format.i18n import CATALOGS, DOMAIN, LOCALE_DIR, from_environment, normalize, resolve
from pbem.mail import mailtexts
from tests.conftest import ROOT

PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([a-z_]+\)[sdr]")


def po(catalog: str) -> Path:
    return LOCALE_DIR / catalog / "LC_MESSAGES" / f"{DOMAIN}.po"


def extracted() -> set[str]:
    """The singular msgids pbem's and click's sources and the pages' templates hold (what
    ``pybabel extract`` finds, as ``babel.cfg`` says)."""
    ids: set[str] = set()
    for root in (ROOT / "pbem", Path(click.__file__).parent):
        for _file, _line, message, _comments, _ctx in extract_from_dir(
            root, keywords={"_": None, "N_": None, "gettext": None, "ngettext": (1, 2)}
        ):
            ids.add(message[0] if isinstance(message, tuple) else message)
    ids |= {t[0] if isinstance(t, tuple) else t for t in mailtexts.texts()}  # the mail's
    jinja = {"extensions": "jinja2.ext.i18n", "trim_blocks": "True", "lstrip_blocks": "True"}
    for _file, _line, message, _comments, _ctx in extract_from_dir(  # the pages' templates
        ROOT / "templates",
        method_map=[("view/**.j2", "jinja2"), ("ui/**.j2", "jinja2")],
        options_map={"view/**.j2": jinja, "ui/**.j2": jinja},
    ):
        ids.add(message[0] if isinstance(message, tuple) else message)
    return ids | set(helptexts.texts())  # the commands' help, walked (babel.cfg's clihelp)


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


@pytest.mark.parametrize("catalog", sorted(CATALOGS.values()))
def test_every_message_is_translated_with_its_placeholders(catalog: str) -> None:
    messages = {
        m.id if isinstance(m.id, str) else m.id[0]: m
        for m in read_po(po(catalog).open("rb"))
        if m.id
    }
    missing = sorted(extracted() - messages.keys())
    assert not missing, f"{catalog} lacks {missing}: run pybabel extract and update (babel.cfg)"
    for key, message in messages.items():
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings) and not message.fuzzy, (catalog, key)
        if isinstance(message.id, tuple):  # one form for every number in ja and zh
            wanted = placeholders(message.id[0]) | placeholders(message.id[1])
            assert all(placeholders(s) <= wanted for s in strings), (catalog, key)
        else:
            assert all(placeholders(s) == placeholders(key) for s in strings), (catalog, key)


def test_a_placeholder_that_differs_is_caught() -> None:
    assert placeholders("{name} {filename!r} is a file.") != placeholders("{filename!r} 是檔案。")


@pytest.mark.parametrize("catalog", sorted(CATALOGS.values()))
def test_the_compiled_catalogs_are_those_of_the_po_files(catalog: str) -> None:
    """The ``.mo`` files are committed (built into the wheel as they are, no build hook
    and no Babel needed to build or install): they must be what ``pybabel compile`` makes."""
    made = io.BytesIO()
    write_mo(made, read_po(po(catalog).open("rb")))
    committed = po(catalog).with_suffix(".mo").read_bytes()
    assert made.getvalue() == committed, f"run: pybabel compile -D {DOMAIN} -d pbem/locale"


def test_the_language_comes_from_option_then_setting_then_locale(tmp_path: Path) -> None:
    env = {"LANG": "ja_JP.UTF-8"}
    assert resolve(None, {}, tmp_path) == "en"
    assert resolve(None, env, tmp_path) == "ja"
    (tmp_path / "mail.json").write_text(json.dumps({"lang": "zh-Hant"}))
    assert resolve(None, env, tmp_path) == "zh-Hant"
    assert resolve("zh-Hans", env, tmp_path) == "zh-Hans"
    (tmp_path / "mail.json").write_text("{not json")  # reported by the mail commands
    assert resolve(None, env, tmp_path) == "ja"


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({"LANG": "ja_JP.UTF-8"}, "ja"),
        ({"LANG": "zh_TW.UTF-8"}, "zh-Hant"),
        ({"LANG": "zh_HK.UTF-8"}, "zh-Hant"),
        ({"LANG": "zh_CN.UTF-8"}, "zh-Hans"),
        ({"LANG": "zh_SG.UTF-8"}, "zh-Hans"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LC_ALL": "C", "LANG": "ja_JP.UTF-8"}, "en"),  # the first one set decides
        ({"LC_MESSAGES": "zh_TW", "LANG": "ja_JP.UTF-8"}, "zh-Hant"),
        ({"LC_ALL": "zh_CN.UTF-8", "LC_MESSAGES": "ja_JP"}, "zh-Hans"),
    ],
)
def test_the_locale_names_the_language(environ: dict[str, str], lang: str) -> None:
    assert from_environment(environ) == lang


def test_lang_names() -> None:
    assert [normalize(v) for v in ("zh-Hant", "zh_Hans", "ja", "en_GB", "de")] == [
        "zh-Hant",
        "zh-Hans",
        "ja",
        "en",
        None,
    ]


def pbem(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``pbem ARGS`` in a fresh interpreter (the language is process-wide, as gettext's)."""
    return subprocess.run(
        [sys.executable, "-m", "pbem", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=False,
    )


@pytest.mark.parametrize(
    ("how", "env", "words"),
    [
        (
            ("--lang", "ja"),
            {},
            (
                "使い方:",
                "オプション:",
                "このメッセージを表示して終了します。",
                "コマンド:",
                "卓の様子",
            ),
        ),
        (
            (),
            {"LANG": "zh_TW.UTF-8", "LC_MESSAGES": ""},
            ("用法：", "選項:", "顯示此說明後結束。", "指令:", "牌桌"),
        ),
        (("--lang=zh-Hans",), {}, ("用法：", "选项:", "显示此说明后退出。", "命令:", "游戏")),
    ],
)
def test_help_speaks_the_language_for_clicks_words_and_pbems(
    how: tuple[str, ...], env: dict[str, str], words: tuple[str, ...]
) -> None:
    run = pbem(*how, "--help", **env)
    assert run.returncode == 0, run.stderr
    for word in words:
        assert word in run.stdout, (word, run.stdout)
    assert "Usage:" not in run.stdout


def test_the_setting_speaks_and_clicks_errors_are_translated(tmp_path: Path) -> None:
    home = tmp_path / "pbem-home"
    assert pbem("config", "set", "lang", "ja", PBEM_HOME=str(home)).returncode == 0
    refused = pbem("config", "set", "lang", "fr", PBEM_HOME=str(home))
    assert refused.returncode == 2
    assert "lang: Input should be '', 'en', 'ja', 'zh-Hant' or 'zh-Hans'" in refused.stderr
    run = pbem("status", PBEM_HOME=str(home))
    assert run.returncode == 2
    assert "エラー: 引数がありません 'GAME'" in run.stderr, run.stderr
    run = pbem("--lang", "en", "status", PBEM_HOME=str(home))  # the option wins
    assert "Error: Missing argument 'GAME'" in run.stderr
    assert pbem("config", "unset", "lang", PBEM_HOME=str(home)).returncode == 0
    assert "Error: Missing argument" in pbem("status", PBEM_HOME=str(home)).stderr
    run = pbem("--lang", "zh-Hant", "status", str(tmp_path / "missing.json"))
    assert run.stderr.startswith("pbem：錯誤："), run.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("nosuch", "--json"),
        ("status", "--json"),
        ("status", "missing.json", "--json"),
        ("games", "--json"),
    ],
)
def test_json_is_the_same_bytes_in_every_language(args: tuple[str, ...]) -> None:
    outputs = {
        pbem(*args, LANG="C").stdout,
        *(pbem("--lang", lang, *args).stdout for lang in ("ja", "zh-Hant", "zh-Hans")),
        pbem(*args, LANG="ja_JP.UTF-8", LC_MESSAGES="").stdout,
    }
    assert len(outputs) == 1, outputs
    assert json.loads(outputs.pop())["ok"] in (True, False)


def test_an_error_made_in_english_is_read_in_the_language_in_use() -> None:
    """Errors are made in English (``--json`` and logs keep it) and translated where shown:
    the message is found by its pattern, its values localized alike (an error quoted in
    another), a ``FILE: …`` prefix kept; what no message matches stays English."""
    from pbem.format import i18n

    try:
        i18n.use("ja")
        made = i18n.N_("Argument {name!r} takes {nargs} values.").format(name="x", nargs=2)
        assert made == "Argument 'x' takes 2 values."
        assert i18n.localize(made) == "引数 'x' には 2 個の値が必要です。"
        wrapped = i18n.localize(f"game.json: {made}")
        assert wrapped == "game.json: 引数 'x' には 2 個の値が必要です。"
        assert i18n.localize("Aborted!") == "中止しました。"
        assert i18n.localize("no such message here") == "no such message here"
        assert i18n.current() == "ja"
    finally:
        i18n.use("en")
    assert i18n.localize(made) == made and i18n.current() == "en"
