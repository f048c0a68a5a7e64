"""Sealed notes (``pbem.format.notes``): a note for one other player is encrypted to the
X25519 box key of their identity card with HPKE (RFC 9180 base mode, ``pbem.crypto.hpke``),
bound to the game, the step's parent, the author's seat and the recipient's seat, so that
only that player can read it, on a machine holding their keyring, and a note copied into
another step, or re-addressed, opens for nobody. Here notes are sealed, opened and shown
to one reader."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pbem.crypto import hpke
from pbem.crypto.group import frame
from pbem.format.canonical import b64d, b64e
from pbem.format.errors import Rejected
from pbem.format.notes import PublicNote, SealedNote, check_text

if TYPE_CHECKING:
    from pbem.crypto.keys import Identity

Signed = Any  # an Entry or Envelope (``pbem.format.gamefile``)

INFO = b"pbem/1/note"


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
