"""Rattaneer's Morning: placements sealed by every seat and not yet revealed appear on the
page of their own seat only (R-5.1, architecture §6)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from pbem.games.rattaneer.actions import Place
from pbem.ledger.replay import Replay
from pbem.play.author import act, new_game
from pbem.play.selfplay import bot_identities
from pbem.ruleset import registry
from pbem.view.history import walk
from pbem.view.render import page_html
from pbem.view.seats import seats_of
from tests.helpers import Seeded, play_until
from tests.view.games import readable

PLAYERS = 3


def test_only_the_sealer_sees_its_placement() -> None:
    rules = registry.get("rattaneer")
    ids = bot_identities(40, PLAYERS)
    replay = new_game(
        rules, rules.parse_options({}), [i.card for i in ids], ids[0], entropy=Seeded(40)
    )

    def second_morning(r: Replay) -> bool:
        """Round 2's placements awaited, none sealed yet."""
        morning = r.awaiting.decision == "commit:place" and r.open_batch is None
        return morning and r.state.round == 2

    play_until(replay, ids, second_morning)
    said = " ".join(r.summary for r in replay.records)
    texts = []
    for seat, ident in enumerate(ids):
        options = rules.legal_actions(replay.state, seat)
        place = next(p for p in options if rules.format_action(replay.state, seat, p) not in said)
        assert isinstance(place, Place)
        texts.append(rules.format_action(replay.state, seat, place))
        said += " " + texts[-1]
        act(replay, ident, place, entropy=Seeded(seat))
    assert replay.awaiting.decision == "reveal:place"
    game = replay.to_file()
    seats = seats_of(game.genesis)

    public = walk(game)
    html = page_html(public, public.position(None), source="g.json", reader=None)
    ET.fromstring(html)
    text = readable(html)
    assert not [t for t in texts if t in text]
    assert "yours:" not in text

    for seat, ident in enumerate(ids):
        own = walk(game, ident)
        html = page_html(own, own.position(None), source="g.json", reader=seats[seat])
        text = readable(html)
        assert f"Your sealed choice, not yet revealed to anyone: <strong>{texts[seat]}" in text
        assert "yours:" in text, "drawn on the board, dashed"
        assert not [t for k, t in enumerate(texts) if k != seat and t in text]
