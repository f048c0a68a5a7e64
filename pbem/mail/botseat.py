"""A seat held by a bot, for ``pbem watch --bot SPEC``: a person plays against the computer
by mail.

The bot decides on what the seat may know (``pbem.play.author.knowledge``: the public
state, its own hand and peeks, its own sealed action) and nothing else, exactly as in the
rules-only tournaments; its choice is then written in the game's notation and signed by
``pbem.play.playing.play_moves``, the code behind ``pbem play``, so the same checks,
journal and signing apply as to a person's move. The robot mails the result on.

The bot's random stream is fixed by the game, the step and the seat's per-game secret
(``pbem.crypto.seatsecret``, purpose ``bot``): the same position gives the same choice on a
restart, and an opponent, who does not hold the secret, cannot foresee it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pbem.crypto.keys import Identity
from pbem.crypto.randomness import Rng
from pbem.crypto.seatsecret import derive
from pbem.format.canonical import b64d
from pbem.format.errors import UsageError
from pbem.ledger.awaiting import decides
from pbem.ledger.position import Position
from pbem.play.author import knowledge
from pbem.play.playing import play_moves
from pbem.play.signer import seat_of, seat_secret
from pbem.ruleset import registry
from pbem.ruleset.rules import Bot, RulesError
from pbem.store.store import Store

USAGE = "--bot SPEC: random, greedy, mcts or mcts:N (N iterations a decision)"

#: A bot never plays more decisions in a row in one pass than this (a safety net: a game
#: whose rules hand one seat endless decisions must not hang the robot).
MOST_IN_A_ROW = 200


def check_spec(spec: str) -> str:
    """``spec`` if some installed ruleset has that bot, else the one-line usage error."""
    for target in registry.available().values():
        try:
            registry.instance(target).bot(spec)
        except RulesError:
            continue
        return spec
    raise UsageError(f"unknown bot {spec!r}; {USAGE}")


def bot_rng(pos: Position, me: Identity) -> Rng:
    """The bot's stream for the decision awaited in ``pos``: from the seat's secret, the
    game and the step, so a restart chooses the same and nobody else can predict it."""
    seat = seat_of(pos, me)
    x = seat_secret(pos, me, seat)
    return Rng(derive(x, b64d(pos.genesis.game), "bot", pos.count.to_bytes(8, "big")))


@dataclass
class BotSeat:
    """The bot named ``spec`` holding ``me``'s seat in every game of a store."""

    spec: str
    me: Identity

    def bot_for(self, pos: Position) -> Bot:
        try:
            return pos.rules.bot(self.spec)
        except RulesError as exc:
            raise UsageError(f"{exc}; {USAGE}") from exc

    def awaited(self, pos: Position) -> bool:
        """Whether a decision of this seat is awaited (not an automatic step)."""
        seat = seat_of(pos, self.me)
        return pos.result is None and decides(pos, seat)

    def play(self, store: Store, game: str) -> Iterator[str]:
        """Answer every decision of the seat now awaited in ``game``, one after the other,
        each signed and kept on the store's head as ``pbem play`` does it; yields each move
        once it is kept (so what was played before a refusal is known)."""
        head = store.head(game)
        for _ in range(MOST_IN_A_ROW):
            pos = head.position
            if not self.awaited(pos):
                return
            seat = seat_of(pos, self.me)
            bot = self.bot_for(pos)
            action = bot(pos.rules, pos.state, seat, knowledge(pos, self.me), bot_rng(pos, self.me))
            move = pos.rules.format_action(pos.state, seat, action)
            source = f"played by bot {self.spec}"
            head = play_moves(store, game, self.me, [move], source, read=head).head
            yield move
