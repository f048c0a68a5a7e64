"""`pbem X --help` in Japanese and Chinese: the help of the command and of its options is
translated at display, and English comes back in the same process (helptexts keeps it)."""

from pathlib import Path

from click.testing import CliRunner

from pbem.cli.main import main


def _help(*args: str) -> str:
    result = CliRunner().invoke(main, [*args, "--help"])
    assert result.exit_code == 0, result.output
    return result.output


def test_help_in_japanese_then_english_again() -> None:
    ja = _help("--lang", "ja", "play")
    assert "手をルールに照らして確認し、署名して新しいファイルを書きます。" in ja
    assert "JSON のレポートを出力します。" in ja
    assert "--json" in ja and "--as NAME" in ja
    en = _help("--lang", "en", "play")
    assert "Check your move against the rules, sign it and write the new file." in en
    assert "Print a JSON report." in en
    assert "手をルール" not in en


def test_help_in_traditional_chinese() -> None:
    out = _help("--lang", "zh-Hant", "key", "new")
    assert "建立身分 NAME 並存入金鑰圈。" in out
    assert "以未加密方式儲存金鑰" in out


def test_help_in_simplified_chinese() -> None:
    out = _help("--lang", "zh-Hans", "watch")
    assert "这个主目录的邮件机器人" in out
    assert "每个事件输出一个 JSON 对象。" in out


def test_json_is_english_whatever_the_language(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.pbem")
    outs = [
        CliRunner().invoke(main, ["--lang", lang, "status", missing, "--json"])
        for lang in ("ja", "zh-Hant", "en")
    ]
    assert {r.exit_code for r in outs} == {2}
    assert outs[0].output == outs[1].output == outs[2].output
    assert "no such file" in outs[0].output
