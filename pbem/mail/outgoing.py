"""The send flow: what ``pbem send`` and the board page (``pbem ui``) both do to mail the
newest copy of a game. First the automatic steps the sender owes (a join, a beacon, a
reveal, shares), signed on the store's head, then the message for the seats awaited now,
composed from that head; mailing it is ``pbem.mail.transport``'s job."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Literal

from pbem.crypto.keys import Identity
from pbem.format.card import IdentityCard
from pbem.format.errors import UsageError
from pbem.ledger.awaiting import needs_decision
from pbem.mail.compose import messages_for
from pbem.mail.config import Smtp
from pbem.play.author import automatic
from pbem.store.journal import Journal
from pbem.store.store import Store


@dataclass
class Outgoing:
    """The messages to send, one for each language the recipients read (none when nobody
    else is awaited: the next decision is the sender's own), and how many automatic steps
    were made before them."""

    messages: list[EmailMessage]
    made: int
    called: str

    @property
    def message(self) -> EmailMessage | None:
        """The first message (in the sender's language when anyone reads it), or None."""
        return self.messages[0] if self.messages else None

    def required(self) -> EmailMessage:
        """The message, or the refusal ``pbem send`` gives when there is none to send."""
        if self.message is None:
            raise UsageError(
                f"nobody else is awaited: the decision is yours (pbem moves {self.called})"
            )
        return self.message


def prepare(
    store: Store,
    game: str,
    me: IdentityCard,
    signer: Callable[[], Identity],
    smtp: Smtp,
    to: Literal["awaited", "all"] = "awaited",
    *,
    called: str,
    full: bool = False,
) -> Outgoing:
    """Make the automatic steps ``me`` owes (``signer`` unseals the identity, and is
    called only then), then compose the message of the store's newest head; none when
    nobody else is awaited, for then the decision is ``me``'s own (``called``: the game as
    the player names it, for the hint of ``Outgoing.required``)."""
    pos = store.head(game).position
    keys = [card.sign_key for card in pos.cards]
    if me.sign_key not in keys:
        raise UsageError("say which of your identities holds a seat in this game with --as NAME")
    made = 0
    if keys.index(me.sign_key) in pos.remaining() and not needs_decision(pos):
        identity = signer()
        with store.writing():
            head = store.head(game)
            made = automatic(head.position, identity, journal=Journal(store))
            store.save(head, "made by pbem send")
    with store.reading():
        messages = messages_for(store.head(game), me, smtp, to, full=full)
    return Outgoing(messages, made, called)
