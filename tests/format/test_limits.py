"""The input limits (``pbem.format.limits``, ``schemas/format.md`` §11): checked before
parsing, each refusal one line; stated once, and the documents say what the module says."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.format.canonical import parse, value_end
from pbem.format.errors import Rejected, UsageError
from pbem.format.limits import (
    MAX_DEPTH,
    STATED,
    OverLimit,
    check_digits,
    check_json,
    read_input,
)
from pbem.mail.extract import find_games, message_key
from tests.conftest import ROOT


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_the_depth_is_measured_on_the_text_not_its_strings() -> None:
    check_json(nested(MAX_DEPTH), "x")
    with pytest.raises(OverLimit, match="nested deeper than 64 levels"):
        check_json(nested(MAX_DEPTH + 1), "x")
    tricky = '["[[[[", "\\"[[[", "\\\\", {"a\\\\": ' + nested(MAX_DEPTH - 2) + "}]"
    check_json(tricky, "x")
    assert parse(tricky)[0] == "[[[["


@pytest.mark.parametrize("text", [nested(100_000), "[" * 100_000, '{"a": ' * 100_000])
def test_deep_or_unbalanced_text_is_one_line(text: str) -> None:
    with pytest.raises(Rejected, match=r"nested deeper than 64 levels|not valid JSON"):
        parse(text)


def test_a_pasted_value_ends_where_it_ends_whatever_its_numbers() -> None:
    text = '{"a": [' + "9" * 5000 + "]} and then a signature {"
    assert text[: value_end(text, "pasted")].endswith("]}")
    with pytest.raises(OverLimit, match="nested deeper"):
        value_end(nested(1000) + " tail", "pasted")


def test_digits_are_counted_before_conversion() -> None:
    check_digits("9" * 16, "n")
    with pytest.raises(OverLimit, match="a number of 5000 digits"):
        check_digits("-" + "9" * 5000, "n")


def test_a_file_over_the_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 11)
    assert read_input(path, limit=11) == b" " * 11
    with pytest.raises(OverLimit, match=r"big\.json is larger than"):
        read_input(path, limit=10)
    with pytest.raises(UsageError, match="no such file"):
        read_input(tmp_path / "missing.json")


def mail(body: str = "hi", **headers: str) -> EmailMessage:
    message = EmailMessage()
    message["Message-ID"] = "<m@example.org>"
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content(body)
    return message


def test_a_mail_is_remembered_by_its_message_id_and_its_body() -> None:
    raw = mail().as_bytes()
    relayed = b"Received: from somewhere\n" + raw
    assert message_key(raw) == message_key(relayed)
    assert message_key(raw).startswith("<m@example.org> sha256:")
    assert message_key(raw) != message_key(mail("hi again").as_bytes())


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b"From: " + b"(" * 1000 + b"a <a@example.org>\n\nhi\n", "cannot be read as mail"),
        (b"From: " + b"(a)" * 5000 + b" <a@example.org>\n\nhi\n", "a From header of 15016"),
        (b"X-Any: " + b"a" * 17000 + b"\n\nhi\n", "a X-Any header of 17000 bytes (at most 16"),
        (b"Content-Type: text/plain" + b"; a=b" * 33 + b"\n\nhi\n", "more than 32 parameters"),
        (b"Content-Type: multipart/mixed\n" * 65 + b"\nhi\n", "more than 64 MIME parts"),
    ],
)
def test_a_mail_the_parser_would_choke_on_is_quarantined(raw: bytes, reason: str) -> None:
    found = find_games(raw, "test")
    assert found.hostile and reason in found.hostile[0], found.problems


def test_too_many_attachments_are_quarantined() -> None:
    message = mail()
    for n in range(17):
        message.add_attachment(b"{}", "application", "json", filename=f"{n}.json")
    found = find_games(message.as_bytes(), "test")
    assert found.hostile == ["more than 16 attachments (17)"]


def test_the_limits_are_stated_once_and_the_documents_say_so() -> None:
    spec = (ROOT / "schemas" / "format.md").read_text()
    readme = (ROOT / "README.md").read_text()
    for name, value in STATED.items():
        assert f"| {name} | {value} |" in spec, name
        assert value.split()[0] in readme
