"""How a decision is made by clicking: a picker turns the words a player clicked (an area,
a region, a class card, a token, a button) into an action in the game's notation, and asks
the rules what they say of it.

A picker never judges a move itself. What is legal is what the ruleset's ``parse_action``
and ``check`` accept, and a refusal is shown in the rule's own words; the ruleset's
``legal_actions`` only say which clicks could come next (to highlight them) and, where a
click cannot finish a move yet, which whole moves to try it with. Each game may bring its
own picker (``PICKERS``); any other ruleset gets its legal actions as buttons.
"""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from pydantic import BaseModel

from pbem.format.i18n import N_
from pbem.ruleset.rules import RulesError, Ruleset

Status = Literal["refused", "partial", "legal"]

PICKERS = {"rattaneer": "pbem.ui.rattaneer", "rattus": "pbem.ui.rattus"}
"""Each game's module of pickers (imported on first use, like the views): its ``picker``
function, and optionally ``labels``, the words for the reader's own sealed items."""

PROBES = 12
"""At most this many whole moves are tried to judge a click that does not finish one."""


@dataclass(frozen=True)
class Verb:
    """A kind of move made by clicking several things: its notation verb and its words."""

    verb: str
    label: str
    usage: str = ""


@dataclass
class Judged:
    """What the rules say of the clicks so far."""

    status: Status
    verb: str | None
    picks: list[str]
    """The clicks accepted (a refused last click is dropped)."""
    message: str = ""
    """Why the last click was refused, in the rule's words."""
    text: str = ""
    """The move in the game's notation, when the clicks make a legal one."""
    more: bool = False
    """Whether further clicks can still extend it (a Knight's second step)."""
    next: list[str] = field(default_factory=list)
    """The words a click may add next."""
    prompt: str = ""
    sealed: Any = None
    """A move to draw on the board as the reader's own, while it is being made."""


@dataclass(frozen=True)
class Attempt:
    """One move put to the rules: None for a legal one, else why not; ``parsed`` says
    whether its words were understood at all (an unfinished move is not)."""

    refusal: str | None
    parsed: bool
    text: str = ""


class Picker:
    """The fallback: every legal action is a button, and the typed notation is judged."""

    def __init__(self, rules: Ruleset, state: BaseModel, seat: int) -> None:
        self.rules, self.state, self.seat = rules, state, seat

    def verbs(self) -> list[Verb]:
        """Kinds of move made by clicking, to choose before the first click."""
        return []

    def buttons(self) -> list[str]:
        """Whole moves, one button each."""
        return [self.rules.format_action(self.state, self.seat, a) for a in self._legal()]

    def describe(self, text: str) -> str:
        """A button's move in words (its hover title)."""
        return ""

    def names(self, words: list[str]) -> dict[str, str]:
        """What the words a click may add are called, where a word is an id (a token by
        the region it lies in): for the word buttons and the clicks so far. Only public
        names: the reader's own items are named by ``labels``, which need its keys."""
        return {}

    def heading(self, verb: str) -> str:
        """A kind of move as a prompt begins, e.g. ``Monk: move a token``."""
        return verb

    def judge(self, verb: str | None, picks: list[str]) -> Judged:
        """What the clicks ``picks`` make, for the kind of move ``verb`` (None: any)."""
        if picks:
            return self.typed(" ".join(picks))
        return Judged("partial", None, [], prompt=N_("choose one of the moves below"))

    def typed(self, text: str) -> Judged:
        """A whole move in the notation, from a button or typed."""
        tried = self.attempt(text)
        if tried.refusal is not None:
            return Judged("refused", None, [], message=tried.refusal)
        return Judged("legal", None, [], text=tried.text)

    def attempt(self, text: str) -> Attempt:
        """``text`` as ``pbem play`` would take it: read, then checked by the rules."""
        try:
            action = self.rules.parse_action(self.state, self.seat, text)
        except RulesError as exc:
            return Attempt(str(exc), False)
        try:
            self.rules.check(self.state, self.seat, action)
        except RulesError as exc:
            return Attempt(str(exc), True)
        return Attempt(None, True, self.rules.format_action(self.state, self.seat, action))

    def _legal(self) -> list[Any]:
        return self.rules.legal_actions(self.state, self.seat)


class WordPicker(Picker):
    """For rules whose legal actions are listed in full: a move is its verb and then its
    words, clicked one at a time (``take Witch``, ``plague Gallia Italia``). Moves without
    words after the verb (or only ``none``) are buttons.

    ``CHUNKS`` groups a verb's words (a card and the class it protects), ``UNORDERED``
    names verbs whose groups may be clicked in any order (the rules sort them), and
    ``EXPLICIT`` verbs are chosen first, so that a click on a region is not taken for a
    class ability nobody asked for."""

    CHUNKS: ClassVar[dict[str, int]] = {}
    UNORDERED: ClassVar[frozenset[str]] = frozenset()
    EXPLICIT: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, rules: Ruleset, state: BaseModel, seat: int) -> None:
        super().__init__(rules, state, seat)
        self.moves: dict[str, list[list[str]]] = {}
        self.whole: list[str] = []
        for action in self._legal():
            text = rules.format_action(state, seat, action)
            verb, *words = text.split()
            if words in ([], ["none"]):
                self.whole.append(text)
            else:
                self.moves.setdefault(verb, []).append(words)

    def usage(self, verb: str) -> str:
        """The verb's notation, e.g. ``merchant <from> <to> <1-3> [diplomat]``."""
        return verb

    def slot(self, verb: str, index: int) -> str:
        """What the click at ``index`` (from 0) after the verb names."""
        return N_("the next word")

    def verbs(self) -> list[Verb]:
        return [Verb(v, self.describe(v), self.usage(v)) for v in self.moves]

    def buttons(self) -> list[str]:
        return self.whole

    def _inferable(self) -> list[str]:
        """The verbs a first click may start without choosing one."""
        plain = [v for v in self.moves if v not in self.EXPLICIT]
        return plain or list(self.moves)

    def judge(self, verb: str | None, picks: list[str]) -> Judged:
        if verb is not None and verb not in self.moves:
            return Judged(
                "refused",
                None,
                [],
                message=N_("{verb!r} is not a move you can make now").format(verb=verb),
            )
        if not picks:
            verbs = [verb] if verb else self._inferable()
            nexts = [w for v in verbs for m in self.moves.get(v, []) for w in self._next(v, m, [])]
            one = verbs[0] if len(verbs) == 1 else None
            prompt = (
                f"{self.heading(one)}: " + N_("click {what}").format(what=self.slot(one, 0))
                if one
                else N_("click on the board (what you may pick is outlined), or choose below")
            )
            return Judged("partial", verb, [], next=_unique(nexts), prompt=prompt)
        if verb is None:
            found = [v for v in self._inferable() if self._matches(v, picks)]
            if not found:
                return self._refused(None, picks, self._inferable())
            verb = found[0]
        matches = self._matches(verb, picks)
        if not matches:
            return self._refused(verb, picks, [verb])
        done = [m for m in matches if self._same(verb, m, picks)]
        more = any(len(m) > len(picks) for m in matches)
        nexts = _unique(w for m in matches for w in self._next(verb, m, picks))
        prompt = f"{self.heading(verb)}: " + (
            N_("click {what}").format(what=self.slot(verb, len(picks)))
            if more
            else N_("the move is complete (sign it, or keep it and make another)")
        )
        if done:
            text = " ".join([verb, *done[0]])
            return Judged("legal", verb, picks, text=text, more=more, next=nexts, prompt=prompt)
        return Judged("partial", verb, picks, next=nexts, prompt=prompt)

    def _refused(self, verb: str | None, picks: list[str], verbs: list[str]) -> Judged:
        """The rules' words for the last click: the clicks as a move if they read as one,
        else completed by the rest of a legal move of the same kind; the last click is
        dropped. A try the rules accept stands (``check`` is the judge, not the list)."""
        messages: list[str] = []
        for v in verbs:
            for text in self._probes(v, picks):
                tried = self.attempt(text)
                if tried.refusal is None:
                    status: Status = "legal" if text == " ".join([v, *picks]) else "partial"
                    return Judged(status, v, picks, text=tried.text if status == "legal" else "")
                if tried.parsed:
                    messages.append(tried.refusal)
                    break
        message = messages[0] if messages else f"{' '.join(picks)!r} is no move you can make now"
        return Judged("refused", verb, picks[:-1], message=message)

    def _probes(self, verb: str, picks: list[str]) -> list[str]:
        tails = _unique(" ".join(m[len(picks) :]) for m in self.moves[verb] if len(m) > len(picks))
        exact = " ".join([verb, *picks])
        return [exact, *(f"{exact} {t}" for t in tails[: PROBES - 1])]

    # ----- the words of a move as groups ----------------------------------------------------

    def _groups(self, verb: str, words: list[str]) -> list[tuple[str, ...]]:
        n = self.CHUNKS.get(verb, 1)
        return [tuple(words[i : i + n]) for i in range(0, len(words), n)]

    def _split(self, verb: str, picks: list[str]) -> tuple[list[tuple[str, ...]], list[str]]:
        """The picks as whole groups, and the start of the next group."""
        n = self.CHUNKS.get(verb, 1)
        whole = len(picks) - len(picks) % n
        return self._groups(verb, picks[:whole]), picks[whole:]

    def _left(self, verb: str, move: list[str], picks: list[str]) -> list[tuple[str, ...]] | None:
        """The groups of ``move`` the picks have not named, or None if they do not fit it."""
        groups, start = self._split(verb, picks)
        theirs = self._groups(verb, move)
        if verb not in self.UNORDERED:
            fits = move[: len(picks)] == picks
            return theirs[len(groups) :] if fits else None
        left = Counter(theirs) - Counter(groups)
        if sum(left.values()) != len(theirs) - len(groups):
            return None
        rest = list(left.elements())
        if start and not any(list(g[: len(start)]) == start for g in rest):
            return None
        return rest

    def _matches(self, verb: str, picks: list[str]) -> list[list[str]]:
        return [m for m in self.moves.get(verb, []) if self._left(verb, m, picks) is not None]

    def _same(self, verb: str, move: list[str], picks: list[str]) -> bool:
        return len(move) == len(picks) and self._left(verb, move, picks) == []

    def _next(self, verb: str, move: list[str], picks: list[str]) -> list[str]:
        left = self._left(verb, move, picks) or []
        _, start = self._split(verb, picks)
        if verb not in self.UNORDERED:
            return move[len(picks) : len(picks) + 1]
        return [g[len(start)] for g in left if list(g[: len(start)]) == start]


def _unique(words: Any) -> list[str]:
    return list(dict.fromkeys(words))


def picker_for(rules: Ruleset, state: BaseModel, seat: int) -> Picker:
    """The game's picker for the decision in ``state``, or the buttons of its legal
    actions."""
    module = _module(rules)
    if module is None:
        return Picker(rules, state, seat)
    picker: Picker = module.picker(rules, state, seat)
    return picker


def labels_for(rules: Ruleset, state: BaseModel | None, known: Mapping[str, str]) -> dict[str, str]:
    """What the reader's own items are (``known``: handles opened to the reader alone), in
    the game's words, for the buttons that name them: none where the game says nothing."""
    module = _module(rules)
    if module is None or state is None or not hasattr(module, "labels"):
        return {}
    found: dict[str, str] = module.labels(state, known)
    return found


def _module(rules: Ruleset) -> Any:
    target = PICKERS.get(rules.id)
    return importlib.import_module(target) if target is not None else None
