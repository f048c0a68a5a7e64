"""The words of pbem's mail for the catalogs: the ``_()`` and ``ngettext()`` calls in the
templates of ``templates/mail`` (a person reads the subject and the body, in the language
of their card), for ``pybabel extract`` (``babel.cfg``) and for the test that every
message has its translations."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

from pbem.format.resources import resource_dir

KEYWORDS = ("_", "ngettext")


def texts() -> list[str | tuple[str, str]]:
    """Every message of the mail templates (a plural one as its two forms), in order."""
    from jinja2.ext import babel_extract

    found: list[str | tuple[str, str]] = []
    for path in sorted((resource_dir("templates") / "mail").glob("*.j2")):
        with path.open("rb") as f:
            for _line, _function, message, _comments in babel_extract(f, KEYWORDS, [], {}):
                text = (message[0], message[1]) if isinstance(message, tuple) else message
                if text not in found:
                    found.append(text)
    return found


def extract(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str | None, str | tuple[str, str], list[str]]]:
    """Babel's extraction method for ``pbem/mail/mailtexts.py`` (``babel.cfg``): this
    file's own messages, as the Python method finds them, then the templates'."""
    from babel.messages.extract import extract_python

    yield from extract_python(fileobj, keywords, comment_tags, options)
    for text in texts():
        yield 0, "ngettext" if isinstance(text, tuple) else None, text, []
