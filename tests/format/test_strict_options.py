"""Genesis options are checked like every other signed member (issue 11): of the ruleset's
types with no coercion, nothing unknown, in the normal form ``pbem new`` writes. A creator
who signs options pbem would never write (``1`` for ``true``, a default left out) makes a
game nobody's pbem accepts: the rules would otherwise read what the bytes do not say."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.format.errors import Rejected
from pbem.play.author import new_game
from pbem.play.selfplay import bot_identities
from pbem.ruleset import registry
from tests.helpers import Seeded, fixed_clock


def created(ruleset: str, options: dict[str, Any], seats: int = 3) -> None:
    """Sign a genesis with exactly ``options`` (no parsing) and start its replay."""
    ids = bot_identities(1, seats)
    rules = registry.get(ruleset)
    new_game(rules, options, [i.card for i in ids], ids[0], entropy=Seeded(), clock=fixed_clock)


@pytest.mark.parametrize(
    ("ruleset", "options", "reason"),
    [
        ("guess", {"rounds": True, "open": False}, "rounds: Input should be a valid integer"),
        ("guess", {"rounds": "3", "open": False}, "rounds: Input should be a valid integer"),
        ("guess", {"rounds": 3, "open": 0}, "open: Input should be a valid boolean"),
        ("guess", {"rounds": 3}, "open: Field required"),
        ("guess", {"rounds": 3, "open": False, "colour": "red"}, "colour: Extra inputs"),
        ("guess", {"rounds": 0, "open": False}, "rounds: Input should be greater than"),
        ("rattus", {"africanus": 1}, "africanus: Input should be a valid boolean"),
        ("rattus", {}, "not in the normal form"),
        ("rattus", {"africanus": False, "classes": None}, "not in the normal form"),
        ("rattaneer", {"treasures": "false", "tavern_keep": 3}, "treasures: Input should be"),
        ("rattaneer", {"tavern_keep": 3}, "not in the normal form"),
        ("peek", {"cards": 2}, "peek takes no options"),
    ],
)
def test_options_pbem_would_not_write_are_refused(
    ruleset: str, options: dict[str, Any], reason: str
) -> None:
    with pytest.raises(Rejected, match=rf"^genesis: options: {reason}"):
        created(ruleset, options)


@pytest.mark.parametrize("ruleset", ["guess", "rattus", "rattaneer", "peek"])
def test_the_options_pbem_new_writes_are_accepted(ruleset: str) -> None:
    created(ruleset, registry.get(ruleset).parse_options({}))
