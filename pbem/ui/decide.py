"""The decision the page is making: the moves of this turn so far, and the clicks of the
next one, judged by the rules at every click.

A turn of several moves (Rattus: take a card, place, move the plague) is made move by
move: each legal move is queued, and the next one is judged on the state the queued moves
lead to, computed by the ruleset's own ``apply``, as long as the game then still awaits
this seat's turn and nothing else (no draw, no reveal). Nothing here signs: the queue is
signed as a whole by ``play_moves``, which checks every move again on the store's head.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from pbem.format.errors import UsageError
from pbem.format.i18n import localize
from pbem.ledger.awaiting import decides
from pbem.ledger.position import Position
from pbem.ruleset.rules import RulesError, Turn
from pbem.ui.pickers import Judged, Verb, picker_for
from pbem.view.history import Private
from pbem.view.render import draw_board

MAX_QUEUE = 20


@dataclass
class Ask:
    """What the page sends: the queued moves, the kind of move being clicked (or None),
    the clicks so far, or a whole move typed or chosen with a button."""

    queue: list[str] = field(default_factory=list)
    verb: str | None = None
    picks: list[str] = field(default_factory=list)
    typed: str = ""


@dataclass
class Answer:
    """What the page shows: the judgement of the last click, what may come next, the
    moves ready to sign and the board they lead to."""

    judged: Judged
    refused: str
    """Why the last click or move was refused, in the rule's words; empty if it was not."""
    asked: str
    """What the game asks now, after the queued moves (the ruleset's prompt)."""
    queue: list[str]
    verbs: list[Verb]
    buttons: list[dict[str, str]]
    ready: list[str]
    board: str | None
    goes_on: bool
    """Whether the turn goes on after the legal move clicked so far, which more clicks
    could still extend (a Knight's one step may be followed by the spreading)."""
    names: dict[str, str]
    """What the words clicked or to click are called, where they are ids."""

    def to_json(self) -> dict[str, Any]:
        j = self.judged
        return {
            "status": j.status,
            "refused": localize(self.refused),
            "asked": localize(self.asked),
            "verb": j.verb,
            "picks": j.picks,
            "text": j.text,
            "more": j.more,
            "next": j.next,
            "prompt": localize(j.prompt) if j.prompt else j.prompt,
            "queue": self.queue,
            "verbs": [
                {"verb": v.verb, "label": localize(v.label), "usage": v.usage} for v in self.verbs
            ],
            "buttons": self.buttons,
            "ready": self.ready,
            "board": self.board,
            "goes_on": self.goes_on,
            "names": {word: localize(name) for word, name in self.names.items()},
        }


def decide(position: Position, seat: int, ask: Ask) -> Answer:
    """Judge ``ask`` on ``position`` for ``seat``; a queue that no longer fits the
    position (the game moved on) is a usage error."""
    if not decides(position, seat):
        raise UsageError("no decision of yours is awaited in this game now")
    if len(ask.queue) > MAX_QUEUE:
        raise UsageError(f"at most {MAX_QUEUE} moves at once")
    rules = position.rules
    state = position.state
    assert state is not None
    queue: list[str] = []
    for text in ask.queue:
        state = _after(position, state, seat, text)
        queue.append(text)
    picker = picker_for(rules, state, seat)
    judged = picker.typed(ask.typed) if ask.typed else picker.judge(ask.verb, ask.picks)
    refused = judged.message if judged.status == "refused" else ""
    if refused:  # what the accepted clicks still make, for the page to go on from
        judged = picker.judge(judged.verb, judged.picks)
    goes_on = judged.status == "legal" and _goes_on(position, state, seat, judged)
    if goes_on and not judged.more:  # nothing more to click: on to the turn's next move
        state = _after(position, state, seat, judged.text)
        queue.append(judged.text)
        picker = picker_for(rules, state, seat)
        judged = picker.judge(None, [])
        goes_on = False
    board = None
    if queue or judged.sealed is not None:
        private = Private(seat, {}, "", judged.sealed, "")
        board = draw_board(rules, position.genesis, state, private)
    buttons = [{"text": t, "title": picker.describe(t)} for t in picker.buttons()]
    names = picker.names([*judged.next, *judged.picks])
    ready = [*queue, judged.text] if judged.status == "legal" else queue
    asked = getattr(rules.pending(state), "prompt", "")
    verbs = picker.verbs()
    return Answer(judged, refused, asked, queue, verbs, buttons, ready, board, goes_on, names)


def _goes_on(position: Position, state: BaseModel, seat: int, judged: Judged) -> bool:
    """Whether the turn still awaits this seat after the move, with nothing between."""
    aw = position.awaiting
    if aw is None or aw.kind != "turn":
        return False
    rules = position.rules
    after = rules.apply(state, seat, rules.parse_action(state, seat, judged.text))
    pending = rules.pending(after)
    return isinstance(pending, Turn) and pending.seat == seat


def _after(position: Position, state: BaseModel, seat: int, text: str) -> BaseModel:
    """The state after a queued move, which must still leave this seat's turn going."""
    rules = position.rules
    try:
        action = rules.parse_action(state, seat, text)
        rules.check(state, seat, action)
    except RulesError as exc:
        raise UsageError(f"the moves of this page no longer fit the game ({exc}): reload") from exc
    if position.awaiting is None or position.awaiting.kind != "turn":
        raise UsageError("only the moves of a turn are queued: reload the page")
    after = rules.apply(state, seat, action)
    pending = rules.pending(after)
    if not (isinstance(pending, Turn) and pending.seat == seat):
        raise UsageError("the game awaits others after these moves: sign them first")
    return after
