"""Whole games with players who drop out, through the real file format: bots play, some
seats fall silent, the others call them, escrow holders open what is owed, seats resign
or are handed over. Everything is signed by the real author code; at the end the file is
written, read back and verified from its genesis, and scanned for secrets that must not
be in it."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pbem.crypto.keys import Identity
from pbem.crypto.randomness import Rng
from pbem.format import gamefile
from pbem.format.canonical import b64e
from pbem.ledger.replay import Replay, replay_file
from pbem.play.author import act, automatic, new_game
from pbem.play.rescue import call, callers
from pbem.play.selfplay import bot_identities
from pbem.play.signer import beacon_chain, deck_secret, seat_secret
from pbem.ruleset import registry
from tests.conformance import verifier as independent
from tests.helpers import Seeded

START = 1_767_225_600
HOUR = 3600


@dataclass
class Table:
    """A game, its players and referees, a clock everyone reads, and silent seats."""

    ruleset: str
    players: int
    options: dict[str, str] = field(default_factory=dict)
    escrow: str = "others"
    referees: int = 0
    seed: int = 1
    deadline: int = HOUR
    silent: set[int] = field(default_factory=set)
    now: int = START

    def __post_init__(self) -> None:
        self.rules = registry.get(self.ruleset)
        people = bot_identities(self.seed, self.players + self.referees + 1)
        self.ids = people[: self.players]
        self.refs = people[self.players : self.players + self.referees]
        self.spare = people[-1]  # a substitute, for handovers
        self.rng = Rng(hashlib.sha256(b"dropouts %d" % self.seed).digest())
        self.replay: Replay = new_game(
            self.rules,
            self.rules.parse_options(self.options),
            [i.card for i in self.ids],
            self.ids[0],
            deadline=self.deadline,
            escrow=self.escrow,
            referees=[r.card for r in self.refs],
            entropy=Seeded(self.seed),
            clock=self.clock,
        )
        self.holders: dict[int, Identity] = dict(enumerate(self.ids))

    def clock(self) -> int:
        self.now += 1
        return self.now

    def who(self, seat: int) -> Identity:
        """The identity in force at ``seat`` (a substitute after a handover)."""
        key = self.replay.cards[seat].sign_key
        return next(i for i in [*self.ids, self.spare] if i.card.sign_key == key)

    def play(self, until: Callable[[Replay], bool] | None = None, limit: int = 3000) -> None:
        """Everyone but the silent seats does what it owes, bots decide, until ``until``
        holds, the game waits only for silent seats, or it is over."""
        r = self.replay
        for _ in range(limit):
            if r.result is not None or (until is not None and until(r)):
                return
            moved = False
            for person in [*self.refs]:
                moved |= automatic(r, person, clock=self.clock) > 0
            for seat in range(self.players):
                if seat in self.silent:
                    continue
                moved |= automatic(r, self.who(seat), clock=self.clock) > 0
            aw = r.awaiting
            assert aw is not None
            deciders = [s for s in r.remaining() if s not in self.silent]
            if (
                not moved
                and deciders
                and r.interrupt is None
                and r.demand is None
                and aw.is_decision
            ):
                seat = deciders[0]
                action = self.rules.random_action(r.state, seat, self.rng)
                act(r, self.who(seat), action, clock=self.clock, entropy=Seeded(self.now))
                moved = True
            if not moved:
                return
        raise AssertionError("the game did not settle")

    def alone(self, seat: int) -> None:
        """Play on until the game waits for ``seat`` alone (the others answer first): when
        pbem lets a seat resign or hand itself over."""
        silent, self.silent = self.silent, {*self.silent, seat}
        self.play()
        self.silent = silent
        assert self.replay.remaining() == (seat,), self.replay.remaining()

    def call_late(self, *, end: bool = False) -> list[int]:
        """The deadline passes; every seat that may call signs the call."""
        self.now += self.deadline + 1
        called: list[int] = []
        for seat in callers(self.replay):
            called = call(self.replay, self.who(seat), end=end, clock=self.clock)
        return called

    def finish(self) -> Replay:
        """The whole file, read back and verified from its genesis, and scanned (all but
        the end-of-game disclosure, where every seat publishes its secret by design)."""
        game = self.replay.to_file()
        text = gamefile.encode(game)
        verified = replay_file(gamefile.decode(text), self.rules)
        assert verified.cached() == self.replay.cached()
        assert independent.verify(text.encode()) == len(game.steps)  # format.md alone
        steps = list(game.steps)
        if steps and getattr(steps[-1], "decision", "") == "disclose":
            steps = steps[:-1]
        self.scan(gamefile.encode(game.model_copy(update={"steps": steps})))
        return verified

    def scan(self, text: str) -> None:
        """No secret of a seat whose secret was never made public is in the file: not its
        seat secret, not its beacon seed, not the shares its escrow holders keep."""
        r = self.replay
        for seat in range(self.players):
            if seat in r.published:
                continue
            x = seat_secret(r, self.who(seat), seat)
            assert x == deck_secret(self.ids[seat], r.genesis.game) or seat in r.handed
            chain = beacon_chain(x, r.genesis.game, r.genesis.chain)
            for secret in (x, chain[-1]):
                for form in (b64e(secret), secret.hex()):
                    assert form not in text, f"seat {seat}'s secret is in the file"


def silent_at(decision: str) -> Callable[[Replay], bool]:
    """Stop when ``decision`` is awaited (``commit:``, ``reveal:``, ``share`` …)."""
    return lambda r: r.awaiting is not None and r.awaiting.decision.startswith(decision)


def awaiting(r: Replay) -> Any:
    return r.awaiting
