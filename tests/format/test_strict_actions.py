"""Actions are the ruleset's part of a signed body: validated strictly and required to
dump back to the bytes signed, even when the rightful seat signed them (issue 11)."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.crypto.sealing import seal
from pbem.format import gamefile
from pbem.format.errors import Rejected
from pbem.ledger.replay import replay_file
from pbem.play.author import automatic
from pbem.play.signer import seal_key_for
from tests.helpers import Seeded, fixed_clock, forged_envelope, guess_game


def sealed_commit(action: Any) -> None:
    """Seat 0 commits to ``action`` (raw JSON, signed properly); everyone reveals."""
    replay, ids = guess_game(2, seed=6)
    aw = replay.awaiting
    key = seal_key_for(replay, ids[0], 0, aw.parent, aw.decision)
    body = seal(key, replay.genesis.game, aw.parent, 0, aw.decision, action, Seeded(1))
    replay.add_envelope(forged_envelope(replay, ids[0], 0, body))
    replay.add_envelope(
        forged_envelope(
            replay,
            ids[1],
            1,
            seal(
                seal_key_for(replay, ids[1], 1, aw.parent, aw.decision),
                replay.genesis.game,
                aw.parent,
                1,
                aw.decision,
                {"type": "guess", "value": 4},
                Seeded(2),
            ),
        )
    )
    for ident in ids:
        automatic(replay, ident, clock=fixed_clock)


@pytest.mark.parametrize(
    ("action", "fragment"),
    [
        ({"type": "guess", "value": "3"}, "valid integer"),
        ({"type": "guess", "value": True}, "valid integer"),
        ({"value": 3}, "type"),  # the default "guess" would be filled in
    ],
)
def test_a_revealed_action_with_a_coerced_or_missing_field_is_refused(
    action: dict[str, Any], fragment: str
) -> None:
    with pytest.raises(Rejected, match=rf"step 4, seat 0 \(bot1\): .*{fragment}"):
        sealed_commit(action)


def test_an_open_action_with_a_coerced_field_is_refused() -> None:
    replay, ids = guess_game(2, seed=6, open="true")
    env = forged_envelope(replay, ids[0], 0, {"action": {"type": "guess", "value": "5"}})
    with pytest.raises(Rejected, match=r"step 3, seat 0 \(bot1\): .*valid integer"):
        replay.add_envelope(env)
    assert replay_file(gamefile.decode(gamefile.encode(replay.to_file())), replay.rules)
