"""Issue 30: the looking commands (status, moves, log, verify), pbem config and the
progress line speak the reader's language (ja, zh-Hant, zh-Hans); errors are shown in it on
stderr, while ``--json`` stays the same bytes as in English (the machine interface never
changes with the language)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from pbem.cli.progress import Progress, columns
from pbem.format import i18n
from tests.helpers import new_keys, pbem


def test_status_speaks_each_language_and_its_json_does_not(guess_file: Path) -> None:
    english = pbem("status", guess_file).stdout
    assert "game over: bot1 won; scores bot1 8, bot2 0, bot3 0" in english
    japanese = pbem("--lang", "ja", "status", guess_file).stdout
    assert "guess ゲーム " in japanese and "、ステップ 10\n" in japanese
    assert "  席 0: bot1 <bot1@example.org> [" in japanese
    assert "ゲーム終了: bot1 の勝ち。得点 bot1 8, bot2 0, bot3 0" in japanese
    traditional = pbem("--lang", "zh-Hant", "status", guess_file).stdout
    assert "  座位 0：bot1 <bot1@example.org> [" in traditional
    assert "遊戲結束：bot1 獲勝；分數 bot1 8, bot2 0, bot3 0" in traditional
    simplified = pbem("--lang", "zh-Hans", "status", guess_file).stdout
    assert "游戏结束：bot1 获胜；得分 bot1 8, bot2 0, bot3 0" in simplified
    as_json = pbem("status", guess_file, "--json").stdout
    for lang in ("ja", "zh-Hant", "zh-Hans"):
        assert pbem("--lang", lang, "status", guess_file, "--json").stdout == as_json


def test_an_error_is_in_japanese_on_stderr_and_english_in_json(guess_file: Path) -> None:
    new_keys("carol")
    english = pbem("moves", guess_file, "--as", "carol")
    assert english.stderr == "pbem: error: 'carol' holds no seat in this game\n"
    japanese = pbem("--lang", "ja", "moves", guess_file, "--as", "carol")
    assert japanese.exit_code == english.exit_code == 2
    assert japanese.stderr == "pbem: エラー: 'carol' はこのゲームに席がありません\n"
    as_json = pbem("moves", guess_file, "--as", "carol", "--json").stdout
    assert json.loads(as_json)["error"] == "'carol' holds no seat in this game"
    assert pbem("--lang", "ja", "moves", guess_file, "--as", "carol", "--json").stdout == as_json


def test_a_config_error_in_traditional_chinese() -> None:
    refused = pbem("--lang", "zh-Hant", "config", "set", "smtp.bogus", "x")
    assert refused.exit_code == 2
    assert refused.stderr == "pbem：錯誤：未知的設定 'smtp.bogus'（參見：pbem config show）\n"
    english = pbem("config", "set", "smtp.bogus", "x", "--json").stdout
    assert json.loads(english)["error"] == "unknown setting 'smtp.bogus' (see: pbem config show)"
    assert pbem("--lang", "zh-Hant", "config", "set", "smtp.bogus", "x", "--json").stdout == english


def test_a_providers_advice_in_simplified_chinese() -> None:
    lines = pbem("--lang", "zh-Hans", "config", "provider", "gmail").stdout.splitlines()
    assert lines[0].startswith("Gmail：smtp smtp.gmail.com:465 tls，imap imap.gmail.com:993 tls")
    assert lines[1].startswith("下一步：Google 已于 2022 年取消密码登录：请开启两步验证")
    assert "下一步：应用专用密码：https://myaccount.google.com/apppasswords" in lines
    steps = json.loads(pbem("--lang", "zh-Hans", "config", "provider", "gmail", "--json").stdout)
    assert steps["next"][0].startswith("Google took password logins away in 2022")
    assert steps["next"][-1] == "then: pbem config test"


def test_verify_of_a_good_file_in_japanese(guess_file: Path) -> None:
    assert f"{guess_file}: OK, 10 steps verified; " in pbem("verify", guess_file).stdout
    said = pbem("--lang", "ja", "verify", guess_file)
    assert said.exit_code == 0
    assert said.stdout.startswith(f"{guess_file}: OK、10 ステップを検証しました。")


class Terminal(io.StringIO):
    """A stream that says it is a terminal, as stderr is when a person watches."""

    def isatty(self) -> bool:
        return True


def test_the_progress_line_is_wiped_by_its_width_in_columns() -> None:
    """A Japanese progress line takes two columns a character: wiping it by its length
    in characters would leave half of it on the screen."""
    assert columns("pbem: ステップ") == 6 + 8
    stream = Terminal()
    i18n.use("ja")
    try:
        progress = Progress(stream, delay=0.0, clock=lambda: 0.0)
        progress(3, 10)
        progress.clear()
    finally:
        i18n.use(i18n.ENGLISH)
    line = "pbem: ステップ 3/10 を検証中"
    assert stream.getvalue() == f"\r{line}\r{' ' * columns(line)}\r"


def test_config_test_says_each_stage_in_japanese() -> None:
    """``pbem config test`` against a port where nothing listens, and no IMAP server set:
    each line and the error in Japanese, the JSON in English."""
    pbem("config", "set", "smtp.host", "127.0.0.1")
    pbem("config", "set", "smtp.port", "1")
    said = pbem("--lang", "ja", "config", "test")
    assert said.exit_code == 2
    lines = said.stdout.splitlines()
    assert lines[0].startswith("smtp: TCP で失敗しました: 127.0.0.1:1 に接続できません (")
    assert lines[1] == (
        "imap: settings で失敗しました: imap サーバーが設定されていません: "
        "pbem config set imap.host HOST"
    )
    assert said.stderr == "pbem: エラー: ログインできませんでした: smtp (TCP), imap (settings)\n"
    english = pbem("config", "test", "--json").stdout
    assert json.loads(english)["imap"]["said"].startswith("no imap server configured")
    assert pbem("--lang", "ja", "config", "test", "--json").stdout == english
