"""Verified replay of a whole file: a position that also keeps every step, for the
auditor's ``pbem verify``, for self-play, and for the viewer's walk through a game.

``Position`` (``pbem.ledger.position``) decides whether each step is valid; a ``Replay`` is a
position started at the genesis that keeps the steps it took, so it can compare copies
(``extend``) and write the file back (``to_file``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pbem.format.canonical import canonical, format_path
from pbem.format.errors import Rejected
from pbem.format.gamefile import FORMAT, Batch, CachedState, Entry, Envelope, GameFile, Genesis
from pbem.format.i18n import N_
from pbem.ledger.position import Position
from pbem.ledger.terms import Awaiting, Record, StepRejected
from pbem.ruleset.rules import Ruleset

Progress = Callable[[int, int], None]
"""Told ``(k, n)`` after step k of n is verified: a command's progress line (no global)."""

__all__ = ["Awaiting", "Record", "Replay", "StepRejected", "first_difference", "replay_file"]


@dataclass
class Replay(Position):
    """A position from the genesis that keeps every step it verified."""

    steps: list[Entry | Batch] = field(default_factory=list)

    def add(self, step: Entry | Batch) -> None:
        super().add(step)
        if isinstance(step, Entry):
            self.steps.append(step)

    def add_envelope(self, env: Envelope) -> None:
        before = self.count
        super().add_envelope(env)
        assert self.last is not None
        if self.count > before:  # it opened a step: a batch, or an interruption after one
            self.steps.append(self.last)
        else:
            self.steps[-1] = self.last

    def extend(self, game: GameFile, progress: Progress | None = None) -> None:
        """Verify a newer copy of this game and take its new steps and envelopes, as a
        recipient does who already verified the copy before: the prefix must be the same.
        Then its cached state must be the replay's. ``progress(k, n)`` is told each step."""
        self.take(game.genesis, game.steps, progress)
        self.check_cached(game.state)

    def take(
        self, genesis: Genesis, steps: list[Entry | Batch], progress: Progress | None = None
    ) -> None:
        """Verify and take the steps and envelopes that ``steps`` holds beyond this replay's
        (``extend`` without a cached state: for merges, which make a version nobody sent)."""
        if genesis != self.genesis:
            raise Rejected(N_("the file holds another game (different genesis)"))
        known = len(self.steps)
        if len(steps) < known:
            raise Rejected(
                N_(
                    "the file has {count} steps, fewer than the {known} already verified (rollback)"
                ).format(count=len(steps), known=known)
            )
        open_batch = self.batch
        for i in range(known):
            mine, theirs = self.steps[i], steps[i]
            if mine == theirs:
                continue
            if i == known - 1 and open_batch is not None and isinstance(theirs, Batch):
                missing = [e for e in theirs.envelopes if e not in open_batch.envelopes]
                if theirs.parent != open_batch.parent or len(missing) + len(
                    open_batch.envelopes
                ) != len(theirs.envelopes):
                    raise StepRejected(
                        i, None, self.names, N_("differs from the copy verified before (fork)")
                    )
                seats = [e.seat for e in theirs.envelopes]
                if seats != sorted(set(seats)):
                    raise StepRejected(
                        i, None, self.names, N_("envelopes are not sorted by seat, or a seat twice")
                    )
                for env in missing:
                    self.add_envelope(env)
                continue
            raise StepRejected(
                i, None, self.names, N_("differs from the copy verified before (fork)")
            )
        for k, step in enumerate(steps[known:], known + 1):
            self.add(step)
            if progress is not None:
                progress(k, len(steps))

    def check_cached(self, state: CachedState | None) -> None:
        """The file's cached state must be the replay's, byte for byte (``false`` is not
        ``0``): compared by canonical bytes, never by Python's ``==``."""
        check_cached(self, state)

    def to_file(self) -> GameFile:
        return GameFile.model_construct(
            format=FORMAT, genesis=self.genesis, steps=list(self.steps), state=self.cached()
        )


def check_cached(position: Position, state: CachedState | None) -> None:
    """A file's cached state against a position's, by canonical bytes (a step bundle, which
    carries none, has nothing to compare: ``None``)."""
    if state is None:
        return
    mine = position.cached()
    if state.steps != mine.steps or state.hash != mine.hash:
        raise Rejected(
            N_(
                "cached state (after {steps} steps, hash {hash}) does not match the "
                "replay (after {steps2} steps, hash {hash2})"
            ).format(
                steps=state.steps, hash=state.hash[:12], steps2=mine.steps, hash2=mine.hash[:12]
            )
        )
    if canonical(state.public) != canonical(mine.public):
        path, theirs, ours = first_difference(state.public, mine.public)
        raise Rejected(
            N_(
                "cached state: field {field}: the file has {theirs} where the "
                "replay computes {ours}"
            ).format(
                field=format_path(["public", *path]),
                theirs=_short(theirs),
                ours=_short(ours),
            )
        )


def first_difference(a: Any, b: Any, path: list[str | int] | None = None) -> tuple:
    """Where two JSON values first differ, by JSON type and value (``false`` is not ``0``),
    as (path, value in ``a``, value in ``b``); None values stand for a missing member."""
    path = path or []
    if type(a) is dict and type(b) is dict:
        for key in sorted(a.keys() | b.keys()):
            if key not in a or key not in b or canonical(a[key]) != canonical(b[key]):
                return first_difference(a.get(key), b.get(key), [*path, key])
    elif type(a) is list and type(b) is list and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if canonical(x) != canonical(y):
                return first_difference(x, y, [*path, i])
    return path, a, b


def _short(value: Any) -> str:
    text = canonical(value).decode()
    return text if len(text) <= 40 else text[:37] + "..."


def replay_file(game: GameFile, rules: Ruleset, progress: Progress | None = None) -> Replay:
    """Verify a whole file: every step, then the cached state against the replay."""
    replay = Replay.start(game.genesis, rules)
    replay.extend(game, progress)
    return replay
