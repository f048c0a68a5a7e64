"""Notes and press: words a player signs into a step (``pbem play FILE ACTION --note TEXT``),
in the clear for everyone, or sealed to one other player (``--note-to NAME``).

Every signed entry and envelope carries ``notes``, a list (usually empty) of at most
``MAX_NOTES`` notes, each one of (``schemas/format.md``, "Notes"):

- ``{"kind": "public", "text": TEXT}``: the text as typed;
- ``{"kind": "sealed", "to": SEAT, "sealed": B64}``: the text encrypted to the X25519 box
  key of seat ``SEAT``'s identity card with HPKE (RFC 9180 base mode, ``pbem.crypto.hpke``),
  bound to the game, the step's parent, the author's seat and the recipient's seat, so
  that only that player can read it, on a machine holding their keyring, and a note copied
  into another step, or re-addressed, opens for nobody.

A text is 1 to ``MAX_TEXT_BYTES`` bytes of UTF-8 with no control character but the line
feed: short enough that a file keeps every line under 998 characters even when every
character is written as an ASCII escape. The replay checks the shape and that a sealed
note names a real seat other than its author; only the recipient can check that it opens.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from pbem.format.canonical import b64d
from pbem.format.errors import Rejected
from pbem.format.i18n import N_

MAX_NOTES = 4
MAX_TEXT_BYTES = 300
#: What HPKE adds to a sealed note's text (``pbem.crypto.hpke``): the 32-byte ``enc`` and
#: the 16-byte AEAD tag.
SEALED_OVERHEAD = 32 + 16
#: The bytes a sealed note may hold: a text and HPKE's overhead.
MAX_SEALED_BYTES = MAX_TEXT_BYTES + SEALED_OVERHEAD
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")
_B64 = re.compile(r"[A-Za-z0-9_-]+")


def check_text(text: str) -> str:
    """A note's text as the format allows it, or ``ValueError`` saying why not."""
    size = len(text.encode("utf-8", errors="replace"))
    if not 1 <= size <= MAX_TEXT_BYTES:
        raise ValueError(
            N_("a note holds 1 to {max_text_bytes} bytes of UTF-8, not {size}").format(
                max_text_bytes=MAX_TEXT_BYTES, size=size
            )
        )
    if _CONTROL.search(text):
        raise ValueError(N_("a note holds no control character but the line feed"))
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        raise ValueError(N_("a note holds no lone surrogate"))
    return text


def _check_sealed(value: str) -> str:
    if not _B64.fullmatch(value):
        raise ValueError(N_("must be canonical base64url without padding"))
    try:
        size = len(b64d(value))
    except Rejected as exc:
        raise ValueError(str(exc)) from None
    if not SEALED_OVERHEAD < size <= MAX_SEALED_BYTES:
        raise ValueError(
            N_("a sealed note holds {number} to {max_sealed_bytes} bytes").format(
                number=SEALED_OVERHEAD + 1, max_sealed_bytes=MAX_SEALED_BYTES
            )
        )
    return value


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True)


class PublicNote(_Strict):
    """Words for everyone, signed by the step's author."""

    kind: Literal["public"]
    text: Annotated[str, AfterValidator(check_text)]


class SealedNote(_Strict):
    """Words for seat ``to`` alone: HPKE ``enc ‖ ct`` in base64url."""

    kind: Literal["sealed"]
    to: Annotated[int, Field(ge=0, le=254)]
    sealed: Annotated[str, AfterValidator(_check_sealed)]


Note = Annotated[PublicNote | SealedNote, Field(discriminator="kind")]
Notes = Annotated[list[Note], Field(max_length=MAX_NOTES)]


def check_notes(notes: list[PublicNote | SealedNote], seat: int, seats: int) -> None:
    """What the replay checks beyond the shape: a sealed note is for a real seat, and not
    its own author."""
    for note in notes:
        if isinstance(note, SealedNote) and not (0 <= note.to < seats and note.to != seat):
            raise Rejected(
                N_("a sealed note is addressed to seat {to}, not another seat").format(to=note.to)
            )
