"""Rattus (base game, 2–4 players) as pure rules: ``rules/rattus.md`` T-1..T-7 and T-9.

The ruleset class lives in this file so that ``Ruleset.source_files`` hashes the whole
package (code and data). Rulings the spec left open are in ``RULINGS.md``. Africanus (the
``africanus`` option) is not implemented yet: the option is refused with a clear message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.randomness import Rng
from pbem.core.rules import Bot, Decision, Reveal, RulesError, Ruleset
from pbem.games.rattus import bots, data, flow, notation, setup, text
from pbem.games.rattus.actions import Action
from pbem.games.rattus.state import Options, State

__all__ = ["Action", "Rattus", "State"]

_SWITCH = {"on": True, "yes": True, "true": True, "off": False, "no": False, "false": False}


def _supported(options: Options) -> Options:
    """Refuse what is not built yet, also from a genesis made by other code."""
    if options.africanus:
        raise RulesError("T-2: the Africanus expansion is not implemented yet")
    return options


class Rattus(Ruleset):
    id = "rattus"
    version = "1.0"
    title = "Rattus"
    min_seats = 2
    max_seats = 4
    State = State
    Action = Action

    def parse_options(self, raw: Mapping[str, str]) -> dict[str, Any]:
        options = Options()
        for key, value in raw.items():
            if key != "africanus":
                raise RulesError(f"T-2: unknown option {key!r} (known: africanus)")
            if value.lower() not in _SWITCH:
                raise RulesError(f"T-2: africanus takes on or off, not {value!r}")
            options.africanus = _SWITCH[value.lower()]
        return _supported(options).model_dump(mode="json")

    def setup(self, options: Mapping[str, Any], seats: int) -> State:
        if not self.min_seats <= seats <= self.max_seats:
            raise RulesError(f"T-2: the base game takes 2 to 4 players, not {seats}")
        return setup.initial_state(_supported(Options.model_validate(dict(options))), seats)

    def sealed_decks(self, options: Mapping[str, Any], seats: int) -> dict[str, list[str]]:
        return setup.sealed_decks()

    def pending(self, state: State) -> Decision:
        return flow.decision(state)

    def legal_actions(self, state: State, seat: int) -> list[Any]:
        return list(flow.actions(state, seat))

    def check(self, state: State, seat: int, action: Any) -> None:
        flow.play(state.model_copy(deep=True), seat, action)

    def apply(self, state: State, seat: int, action: Any) -> State:
        new = state.model_copy(deep=True)
        flow.play(new, seat, action)
        flow.advance(new)
        return new

    def resolve_chance(self, state: State, rng: Rng) -> State:
        if flow.stage(state) != "setup":
            raise RulesError("T-3.7: the only chance step is the setup draw")
        new = state.model_copy(deep=True)
        setup.draw_setup(new, rng)
        flow.advance(new)
        return new

    def apply_reveal(self, state: State, reveal: Reveal, faces: Mapping[str, str] | None) -> State:
        new = state.model_copy(deep=True)
        flow.reveal(new, reveal, faces)
        flow.advance(new)
        return new

    def parse_action(self, state: State, seat: int, text: str) -> Any:
        return notation.parse(state, text)

    def format_action(self, state: State, seat: int, action: Any) -> str:
        return notation.format_action(action)

    def notation_help(self, state: State, seat: int) -> str:
        return notation.help_text(state, seat)

    def render_text(self, state: State, names: list[str]) -> str:
        return text.render(state, names, flow.decision(state))

    def render_private(self, state: State, seat: int, known: Mapping[str, str]) -> str:
        return text.private(state, known)

    def bots(self) -> dict[str, Bot]:
        return {**super().bots(), "greedy": bots.greedy}

    def schemas(self) -> dict[str, dict[str, Any]]:
        """State and actions, and the data files' schemas, so that a corrected data file
        (T-10) can be checked before it replaces a reconstruction."""
        return {
            **super().schemas(),
            "rattus.board": data.BoardFile.model_json_schema(),
            "rattus.tokens": data.TokenFile.model_json_schema(),
            "rattus.classes": data.ClassFile.model_json_schema(),
        }
