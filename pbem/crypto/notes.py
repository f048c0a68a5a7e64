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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from pbem.crypto import hpke
from pbem.crypto.group import frame
from pbem.format.canonical import b64d, b64e
from pbem.format.errors import Rejected

if TYPE_CHECKING:
    from pbem.crypto.keys import Identity

Signed = Any  # an Entry or Envelope (``pbem.format.gamefile``, which imports this module)

MAX_NOTES = 4
MAX_TEXT_BYTES = 300
#: The bytes a sealed note may hold: a text and HPKE's overhead (``enc`` and the tag).
MAX_SEALED_BYTES = MAX_TEXT_BYTES + hpke.OVERHEAD
INFO = b"pbem/1/note"
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")
_B64 = re.compile(r"[A-Za-z0-9_-]+")


def check_text(text: str) -> str:
    """A note's text as the format allows it, or ``ValueError`` saying why not."""
    size = len(text.encode("utf-8", errors="replace"))
    if not 1 <= size <= MAX_TEXT_BYTES:
        raise ValueError(f"a note holds 1 to {MAX_TEXT_BYTES} bytes of UTF-8, not {size}")
    if _CONTROL.search(text):
        raise ValueError("a note holds no control character but the line feed")
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        raise ValueError("a note holds no lone surrogate")
    return text


def _check_sealed(value: str) -> str:
    if not _B64.fullmatch(value):
        raise ValueError("must be canonical base64url without padding")
    try:
        size = len(b64d(value))
    except Rejected as exc:
        raise ValueError(str(exc)) from None
    if not hpke.OVERHEAD < size <= MAX_SEALED_BYTES:
        raise ValueError(f"a sealed note holds {hpke.OVERHEAD + 1} to {MAX_SEALED_BYTES} bytes")
    return value


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


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


def context(game: str, parent: str, seat: int, to: int) -> bytes:
    """What a sealed note is bound to (the HPKE aad): game, parent step, author, reader."""
    return frame(b64d(game), bytes.fromhex(parent), bytes([seat]), bytes([to]))


def seal_note(box_key: str, text: str, game: str, parent: str, seat: int, to: int) -> dict:
    """A sealed note's JSON, for the player whose card has ``box_key``."""
    check_text(text)
    sealed = hpke.seal(
        b64d(box_key, size=32), text.encode(), INFO, context(game, parent, seat, to), what="note"
    )
    return {"kind": "sealed", "to": to, "sealed": b64e(sealed)}


def check_notes(notes: list[PublicNote | SealedNote], seat: int, seats: int) -> None:
    """What the replay checks beyond the shape: a sealed note is for a real seat, and not
    its own author."""
    for note in notes:
        if isinstance(note, SealedNote) and not (0 <= note.to < seats and note.to != seat):
            raise Rejected(f"a sealed note is addressed to seat {note.to}, not another seat")


def open_note(reader: Identity, note: SealedNote, game: str, parent: str, seat: int) -> str | None:
    """The text of a sealed note for its reader (decrypted here, with the reader's own
    key), or None when it does not open (altered, copied, or sealed to another key)."""
    try:
        data = hpke.open(
            reader, b64d(note.sealed), INFO, context(game, parent, seat, note.to), what="note"
        )
        return check_text(data.decode("utf-8"))
    except (Rejected, UnicodeDecodeError, ValueError):
        return None


@dataclass(frozen=True)
class Shown:
    """A note as one reader may see it: ``text`` None for a sealed note that is not theirs
    (or does not open)."""

    author: int
    to: int | None
    text: str | None

    def line(self, names: list[str], reader: int | None = None) -> str:
        who = names[self.author]
        if self.to is None:
            return f"{who}: {self.text!r}" if self.text is not None else ""
        to = "you" if self.to == reader else names[self.to]
        if self.text is None:
            return f"{who} to {to}: (a sealed note)"
        return f"{who} to {to} (sealed, only you can read it): {self.text!r}"


def read_notes(
    item: Signed, reader: Identity | None = None, reader_seat: int | None = None
) -> list[Shown]:
    """The notes an entry or envelope carries, as ``reader`` (sitting at ``reader_seat``)
    may see them: public ones always, sealed ones to the reader decrypted, others not."""
    out = []
    for note in getattr(item, "notes", []):
        if isinstance(note, PublicNote):
            out.append(Shown(item.seat, None, note.text))
            continue
        text = None
        if reader is not None and note.to == reader_seat:
            text = open_note(reader, note, item.game, item.parent, item.seat)
        out.append(Shown(item.seat, note.to, text))
    return out


def step_notes(step: Any, reader: Identity | None = None, seat: int | None = None) -> list[Shown]:
    """The notes of a whole step (an entry, or every envelope of a batch), for a reader."""
    items = getattr(step, "envelopes", None) or [step]
    return [shown for item in items for shown in read_notes(item, reader, seat)]
