"""Comparing and merging copies of one game.

Copies of a game file travel by mail and come back out of order. Two copies either agree
step by step (one may be behind: a rollback if offered as new), or differ only in which
envelopes of the last parallel batch they hold (they merge, in any order, to the same
file), or they truly diverge: a fork, and, when one seat signed two different steps on
the same parent, equivocation, for which both signed steps are the proof.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Literal

from pbem.format.canonical import canonical
from pbem.format.errors import Rejected
from pbem.format.gamefile import Batch, Entry, GameFile
from pbem.format.i18n import N_
from pbem.ledger.replay import Replay, replay_file
from pbem.ruleset import registry

Relation = Literal[
    "identical", "behind", "ahead", "mergeable", "fork", "equivocation", "other-game"
]


@dataclass
class Comparison:
    """How copy ``a`` stands to copy ``b``; ``index`` is the first step where they part."""

    relation: Relation
    index: int = 0
    proof: list[dict[str, Any]] = field(default_factory=list)
    merged: list[Entry | Batch] = field(default_factory=list)


def compare(a: list[Entry | Batch], b: list[Entry | Batch]) -> Comparison:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x == y:
            continue
        if (
            isinstance(x, Batch)
            and isinstance(y, Batch)
            and (x.parent, x.decision) == (y.parent, y.decision)
        ):
            return _compare_batches(a, b, i, x, y)
        if (
            isinstance(x, Entry)
            and isinstance(y, Entry)
            and x.seat == y.seat
            and x.parent == y.parent
        ):
            return Comparison("equivocation", i, [x.model_dump(), y.model_dump()])
        return Comparison("fork", i)
    if len(a) == len(b):
        return Comparison("identical", len(a), merged=list(a))
    return Comparison(
        "behind" if len(a) < len(b) else "ahead",
        min(len(a), len(b)),
        merged=list(a if len(a) > len(b) else b),
    )


def _compare_batches(
    a: list[Entry | Batch], b: list[Entry | Batch], i: int, x: Batch, y: Batch
) -> Comparison:
    xs = {e.seat: e for e in x.envelopes}
    ys = {e.seat: e for e in y.envelopes}
    for seat in sorted(xs.keys() & ys.keys()):
        if xs[seat] != ys[seat]:
            return Comparison("equivocation", i, [xs[seat].model_dump(), ys[seat].model_dump()])
    union = Batch.model_construct(
        kind="batch",
        parent=x.parent,
        decision=x.decision,
        envelopes=[{**xs, **ys}[s] for s in sorted(xs.keys() | ys.keys())],
    )
    a_last, b_last = i == len(a) - 1, i == len(b) - 1
    if union == y and a_last:
        return Comparison("behind", i, merged=list(b))
    if union == x and b_last:
        return Comparison("ahead", i, merged=list(a))
    if a_last and b_last:
        return Comparison("mergeable", i, merged=[*a[:i], union])
    return Comparison("fork", i)


def _same_game(games: list[GameFile], names: list[str]) -> None:
    first = games[0].genesis
    for game, name in zip(games[1:], names[1:], strict=True):
        if game.genesis != first:
            raise Rejected(
                N_("{name} is another game than {names} (different genesis)").format(
                    name=name, names=names[0]
                )
            )


def _describe(c: Comparison, name_a: str, name_b: str) -> str:
    if c.relation == "identical":
        return N_("{a} and {b}: same game, same steps").format(a=name_a, b=name_b)
    if c.relation in {"behind", "ahead"}:
        old, new = (name_a, name_b) if c.relation == "behind" else (name_b, name_a)
        return N_(
            "rollback: {old} is a strict prefix of {new} (they agree up to step {step})"
        ).format(old=old, new=new, step=c.index)
    if c.relation == "mergeable":
        return N_("{a} and {b}: same game, envelopes of step {step} to merge").format(
            a=name_a, b=name_b, step=c.index
        )
    if c.relation == "equivocation":
        seat = c.proof[0]["seat"]
        return N_(
            "equivocation: seat {seat} signed two different steps on the same parent "
            "at step {step} ({a} vs {b})"
        ).format(seat=seat, step=c.index, a=name_a, b=name_b)
    return N_("fork: {a} and {b} part at step {step}").format(a=name_a, b=name_b, step=c.index)


@dataclass
class Finding:
    relation: Relation
    message: str
    proof: str | None = None


def compare_files(games: list[GameFile], names: list[str]) -> list[Finding]:
    """Every pair of copies: how they stand, in a sentence, with proof of equivocation."""
    out = []
    for i in range(len(games)):
        for j in range(i + 1, len(games)):
            if games[i].genesis != games[j].genesis:
                out.append(Finding("other-game", f"{names[i]} and {names[j]} are different games"))
                continue
            c = compare(games[i].steps, games[j].steps)
            out.append(Finding(c.relation, _describe(c, names[i], names[j]), proof_text(c.proof)))
    return out


def merge_files(games: list[GameFile], names: list[str]) -> Replay:
    """One verified file holding everything the copies hold; refuses forks and
    equivocation (with both signed steps as proof)."""
    _same_game(games, names)
    for game in games:
        replay_file(game, registry.get(game.genesis.ruleset.id))
    steps = games[0].steps
    label = names[0]
    for game, name in zip(games[1:], names[1:], strict=True):
        c = compare(steps, game.steps)
        if c.relation in {"fork", "equivocation"}:
            raise Rejected(_describe(c, label, name), detail=proof_text(c.proof))
        steps = c.merged
        label = f"{label}+{name}"
    genesis = games[0].genesis
    replay = Replay.start(genesis, registry.get(genesis.ruleset.id))
    replay.take(genesis, steps)
    return replay


def proof_text(proof: list[dict[str, Any]]) -> str | None:
    """Both signed steps, and their hashes, as JSON anyone can re-verify."""
    if not proof:
        return None
    hashes = [hashlib.sha256(canonical(p)).hexdigest() for p in proof]
    return json.dumps({"equivocation": proof, "hashes": hashes}, indent=1, sort_keys=True)
