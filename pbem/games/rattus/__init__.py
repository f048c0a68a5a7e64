"""Rattus with the Africanus expansion as pure rules: T-1..T-10 of ``rules.md`` (shipped).

The ruleset class lives in this file so that ``Ruleset.source_files`` hashes the whole
package (code and data). Rulings the spec left open are in ``RULINGS.md``. Rat tokens and
region cards are sealed items: the rules see a face only when the engine reveals it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pbem.bots.mcts import Mcts
from pbem.crypto.randomness import Rng
from pbem.games.rattus import (
    bots,
    consequences,
    data,
    flow,
    notation,
    protection,
    scoring,
    setup,
    text,
    topics,
    turn,
)
from pbem.games.rattus.actions import Action, Protect
from pbem.games.rattus.search import RattusSearch
from pbem.games.rattus.state import Options, State, copy
from pbem.ruleset.rulebook import Topic
from pbem.ruleset.rules import (
    Bot,
    Decision,
    OptionHelp,
    Reshuffle,
    Result,
    Reveal,
    RulesError,
    Ruleset,
)

__all__ = ["Action", "Rattus", "State"]

_SWITCH = {"on": True, "yes": True, "true": True, "off": False, "no": False, "false": False}
BASE_SEATS, AFRICANUS_SEATS = (2, 4), (2, 6)


def _options(raw: Mapping[str, str]) -> Options:
    options = Options()
    for key, value in raw.items():
        if key == "africanus":
            if value.lower() not in _SWITCH:
                raise RulesError(f"T-2: africanus takes on or off, not {value!r}")
            options.africanus = _SWITCH[value.lower()]
        elif key == "classes":
            options.classes = setup.class_names(value.split(","))
        else:
            raise RulesError(f"T-2: unknown option {key!r} (known: africanus, classes)")
    if options.classes is not None and not options.africanus:
        raise RulesError("T-2: classes are chosen only with the Africanus expansion")
    return options


class Rattus(Ruleset):
    id = "rattus"
    options_model = Options
    version = "1.2"
    title = "Rattus (with Africanus)"
    min_seats = 2
    max_seats = 6
    State = State
    Action = Action

    def source_files(self) -> list[Path]:
        """The package's modules and the data files the rules read (``data.FILES``). Other
        files under ``data/``, such as a map for drawing the board, change no rule, so they
        do not change the content hash that every game file pins."""
        modules = [p for p in super().source_files() if p.suffix == ".py"]
        return sorted(modules + [data.DATA / name for name in data.FILES])

    def parse_options(self, raw: Mapping[str, str]) -> dict[str, Any]:
        """``africanus=on|off`` and, with it, ``classes=Peasant,Monk,...`` (T-2); the
        number of classes is checked against the players when the game is set up."""
        return _options(raw).model_dump(mode="json", exclude_none=True)

    def setup(self, options: Mapping[str, Any], seats: int) -> State:
        parsed = Options.model_validate(dict(options))
        low, high = AFRICANUS_SEATS if parsed.africanus else BASE_SEATS
        if not low <= seats <= high:
            game = "Africanus" if parsed.africanus else "the base game"
            raise RulesError(f"T-2: {game} takes {low} to {high} players, not {seats}")
        return setup.initial_state(parsed, seats)

    def sealed_decks(self, options: Mapping[str, Any], seats: int) -> dict[str, list[str]]:
        return setup.sealed_decks(Options.model_validate(dict(options)), seats)

    def pending(self, state: State) -> Decision:
        return flow.decision(state)

    def legal_actions(self, state: State, seat: int) -> list[Any]:
        return list(flow.actions(state, seat))

    def required_kinds(self, state: State, seat: int) -> frozenset[str]:
        """T-5: on a turn, the cubes must be placed (B) when a region takes them, then the
        plague moved (C); taking a class card and the abilities may come in any order."""
        return turn.required_kinds(state, seat) if flow.stage(state) == "turn" else frozenset()

    def check(self, state: State, seat: int, action: Any) -> None:
        flow.check(state, seat, action)

    def check_private(self, state: State, seat: int, action: Any, known: Mapping[str, str]) -> None:
        """T-7.3: a region card played must show the protected class's icon or "?"."""
        if isinstance(action, Protect):
            protection.check_known(action, known)

    def apply(self, state: State, seat: int, action: Any) -> State:
        new = copy(state)
        flow.play(new, seat, action)
        flow.advance(new)
        return new

    def apply_parallel(self, state: State, actions: Mapping[int, Any]) -> State:
        new = copy(state)
        flow.parallel(new, actions)
        flow.advance(new)
        return new

    def resolve_chance(self, state: State, rng: Rng) -> State:
        if flow.stage(state) != "setup":
            raise RulesError("T-3.7: the only chance step is the setup draw")
        new = copy(state)
        setup.draw_setup(new, rng)
        flow.advance(new)
        return new

    def apply_reveal(self, state: State, reveal: Reveal, faces: Mapping[str, str] | None) -> State:
        new = copy(state)
        flow.reveal(new, reveal, faces)
        flow.advance(new)
        return new

    def apply_reshuffle(self, state: State, reshuffle: Reshuffle) -> State:
        new = copy(state)
        flow.reshuffled(new, reshuffle)
        flow.advance(new)
        return new

    def parse_action(self, state: State, seat: int, text: str) -> Any:
        return notation.parse(state, text)

    def format_action(self, state: State, seat: int, action: Any) -> str:
        return notation.format_action(action)

    def name_action(self, state: State, seat: int, action: Any, known: Mapping[str, str]) -> str:
        return notation.named(state, seat, action, known)

    def consequences(self, before: State, after: State, names: list[str]) -> list[str]:
        return consequences.consequences(before, after, names)

    def notation_help(self, state: State, seat: int) -> str:
        return notation.help_text(state, seat)

    def topics(self, options: Mapping[str, Any] | None) -> list[Topic]:
        """``classes`` (all ten, whatever the options) and ``tokens`` (both sets)."""
        book = self.rulebook()
        assert book is not None, "the rattus package ships rules.md"
        return [topics.classes(book), topics.tokens(book)]

    def options_help(self) -> list[OptionHelp]:
        names = ",".join(c.name for c in data.class_cards())
        return [
            OptionHelp(
                name="africanus",
                values="on|off",
                default="off",
                help="T-2: play with the Africanus expansion (2-6 players; 2-4 without)",
            ),
            OptionHelp(
                name="classes",
                values=f"6 or 8 of {names}",
                default="drawn at random",
                help="T-2: with Africanus, the class cards in play: 6 with 2-4 players, 8 with 5-6",
            ),
        ]

    def render_text(self, state: State, names: list[str]) -> str:
        return text.render(state, names, flow.decision(state), flow.stage(state))

    def render_private(self, state: State, seat: int, known: Mapping[str, str]) -> str:
        return text.private(state, seat, known)

    def random_action(
        self, state: State, seat: int, rng: Rng, known: Mapping[str, str] | None = None
    ) -> Any:
        """A random legal action; region cards only if the seat's hand is ``known``: without
        it a bot could not tell which card it may sign (``bots.no_cards``)."""
        none = bots.no_cards(state)
        if none is not None and not known:
            return none
        return super().random_action(state, seat, rng, known)

    def bots(self) -> dict[str, Bot]:
        return {**super().bots(), "greedy": bots.greedy, "mcts": Mcts(RattusSearch())}

    can_end_early = True

    def result_now(self, state: State) -> Result:
        """A game ended by a call (no escrow to open): T-9.4 as it stands, ties broken as
        if the seat to move now had triggered the end (a ruling: RULINGS.md)."""
        ended = state.model_copy(deep=True)
        if ended.trigger is None:
            ended.trigger = flow.awaited(ended)
        return scoring.result(ended)

    def schemas(self) -> dict[str, dict[str, Any]]:
        """State and actions, and the data files' schemas, so that a corrected data file
        (T-10) can be checked before it replaces a reconstruction."""
        return {
            **super().schemas(),
            "rattus.board": data.BoardFile.model_json_schema(),
            "rattus.tokens": data.TokenFile.model_json_schema(),
            "rattus.classes": data.ClassFile.model_json_schema(),
            "rattus.region-cards": data.RegionCardFile.model_json_schema(),
        }
