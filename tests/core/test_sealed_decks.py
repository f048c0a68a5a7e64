"""Sealed decks in the engine (DESIGN §7), proven with the ``peek`` test ruleset."""

from __future__ import annotations

import itertools
import json

import pytest
from click.testing import CliRunner

from pbem.cli.main import main
from pbem.core import deck, gamefile, registry
from pbem.core.audit import merge_files
from pbem.core.author import act, automatic, deck_secret, new_game, private_knowledge
from pbem.core.canonical import b64e
from pbem.core.errors import Rejected
from pbem.core.keys import Identity
from pbem.core.replay import Replay, replay_file
from pbem.core.selfplay import bot_identities, play_game
from pbem.core.tabletop import encode_deck, pass_id, share_context
from tests.helpers import Seeded, forged_entry, forged_envelope, play_until
from tests.rulesets.peek import CARDS, Draw, Peek, Play

RULES = registry.get("peek")


def started(players: int, seed: int = 1) -> tuple[Replay, list[Identity]]:
    """Joined, shuffled, dealt: the first seat's turn."""
    ids = bot_identities(seed, players)
    replay = new_game(RULES, {}, [i.card for i in ids], ids[0], entropy=Seeded(seed))
    settle(replay, ids)
    return replay, ids


def settle(replay: Replay, ids: list[Identity]) -> None:
    """Every automatic step anyone owes."""
    while any(automatic(replay, ident) for ident in ids):
        pass


def leaks(text: str, secret_items: set[str]) -> list[str]:
    """Every encoding of a not-publicly-revealed item that a reader could search for."""
    found = []
    for item in secret_items:
        point = deck.item_point("cards", item)
        for form in (item, b64e(point), point.hex(), item.removeprefix("secretcard")):
            if len(form) > 2 and form in text:
                found.append(f"{item} as {form}")
    return found


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_selfplay_with_sealed_decks_verifies(players: int, tmp_path) -> None:
    for seed in range(2):
        report = play_game(RULES, players, seed, {}, ["random"], tmp_path)
        text = report.path.read_text()
        replay = replay_file(gamefile.decode(text), RULES)
        assert replay.result is not None
        assert replay.records[-1].kind == "disclose"
        public = set(replay.state.faces.values())
        assert not leaks(text.split('"public"')[0], set(CARDS) - public)


def test_no_unrevealed_item_in_any_file_along_the_way() -> None:
    replay, ids = started(3, seed=4)
    seen = []

    def scan(r: Replay) -> bool:
        text = gamefile.encode(r.to_file())
        assert not leaks(text, set(CARDS) - set(r.state.faces.values())), r.records[-1]
        seen.append(len(r.steps))
        return r.result is not None

    play_until(replay, ids, scan)
    assert len(seen) > 10


def test_each_seat_knows_its_own_hand_only() -> None:
    replay, ids = started(3, seed=5)
    hands = [private_knowledge(replay, ident) for ident in ids]
    for seat, known in enumerate(hands):
        assert set(known) == set(replay.state.hands[seat])
        assert all(item in CARDS for item in known.values())
    assert len({item for known in hands for item in known.values()}) == 6


def test_a_private_reveal_cannot_be_opened_by_a_third_seat() -> None:
    replay, ids = started(3, seed=6)
    private = replay.table.private[0]
    assert private.to == 0
    table = deck.item_table("cards", CARDS)
    eve_secret = deck_secret(ids[2], replay.genesis.game)
    for ct, others in zip(private.cts, private.shares, strict=True):
        with pytest.raises(deck.DeckError):
            deck.identify(deck.open_private(ct, others, eve_secret), table)
        with pytest.raises(deck.DeckError):
            deck.identify(deck.open_with_shares(ct, others), table)
    mine = deck_secret(ids[0], replay.genesis.game)
    assert deck.identify(deck.open_private(private.cts[0], private.shares[0], mine), table) in CARDS


def test_a_forged_share_is_rejected_naming_the_seat() -> None:
    replay, ids = started(3, seed=7)
    card = replay.state.hands[0][0]
    act(replay, ids[0], Play(card=card))
    automatic(replay, ids[0])  # seat 0 shares; seat 1 will forge
    aw = replay.awaiting
    assert aw.decision == "share" and 1 in replay.remaining()
    wrong = deck_secret(ids[2], replay.genesis.game)  # not seat 1's key
    point, proof = deck.share(
        replay.table.ciphertext(card), wrong, share_context(replay.genesis.game, aw.parent, card)
    )
    forged = forged_envelope(replay, ids[1], 1, {"shares": [[b64e(point), b64e(proof)]]})
    with pytest.raises(Rejected, match=r"seat 1 \(bot2\): bad decryption share for cards/\d+"):
        replay.add_envelope(forged)


def test_a_shuffle_that_duplicates_an_item_is_caught_at_the_end() -> None:
    ids = bot_identities(8, 3)
    replay = new_game(RULES, {}, [i.card for i in ids], ids[0], entropy=Seeded(8))
    for ident in ids:
        automatic(replay, ident)
    automatic(replay, ids[0])  # seat 0's honest shuffle
    assert replay.awaiting.kind == "shuffle" and replay.awaiting.seats == (1,)
    table = replay.table
    secret = deck_secret(ids[1], replay.genesis.game)
    honest = deck.shuffle(table.decks["cards"], table.joint, secret, "cards", pass_id("cards", 1))
    cheat = list(honest)
    cheat[-1] = deck.rerandomize(
        cheat[0], table.joint, (5).to_bytes(32, "little")
    )  # a copy of another item
    entry = forged_entry(replay, ids[1], 1, "shuffle", {"decks": {"cards": encode_deck(cheat)}})
    replay.add(entry)  # accepted now: it can only be checked at the end
    with pytest.raises(
        Rejected,
        match=r"shuffle audit failed: deck 'cards', shuffle pass 'cards/1' by seat 1 \(bot2\): "
        "output is not the shuffle",
    ):
        play_until(replay, ids, lambda r: r.result is not None)


def test_a_wrong_disclosed_secret_is_rejected() -> None:
    replay, ids = started(2, seed=9)
    play_until(replay, ids, lambda r: r.awaiting.decision == "disclose")
    wrong = deck_secret(ids[1], replay.genesis.game)
    bad = forged_envelope(replay, ids[0], 0, {"deck_secret": b64e(wrong)})
    with pytest.raises(
        Rejected, match=r"seat 0 \(bot1\): the disclosed deck secret does not match"
    ):
        replay.add_envelope(bad)


def test_shares_merged_in_any_order_give_the_same_file() -> None:
    replay, ids = started(4, seed=10)
    act(replay, ids[0], Play(card=replay.state.hands[0][0]))
    base = replay.to_file()
    copies = []
    for seat in range(4):
        copy = replay_file(base, RULES)
        automatic(copy, ids[seat])
        copies.append(copy.to_file())
    names = [f"c{i}" for i in range(4)]
    results = {
        gamefile.encode(merge_files([copies[i] for i in perm], [names[i] for i in perm]).to_file())
        for perm in itertools.islice(itertools.permutations(range(4)), 0, 24, 4)
    }
    assert len(results) == 1
    merged = replay_file(gamefile.decode(results.pop()), RULES)
    assert merged.records[-1].summary.startswith("revealed cards/")


def test_a_peek_moves_nothing_and_is_known_to_the_peeker_only() -> None:
    replay, ids = started(2, seed=11)
    top = replay.state.pile[0]
    act(replay, ids[0], Peek())
    settle(replay, ids)
    assert replay.state.pile[0] == top
    assert top in private_knowledge(replay, ids[0])
    assert top not in private_knowledge(replay, ids[1])
    act(replay, ids[0], Draw())
    settle(replay, ids)
    assert top in replay.state.hands[0]


def test_status_as_shows_the_players_own_hand(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    for name in ("ann", "ben"):
        assert (
            runner.invoke(
                main, ["key", "new", name, "--email", f"{name}@example.org", "--no-passphrase"]
            ).exit_code
            == 0
        )
    assert (
        runner.invoke(
            main, ["new", "peek", "--seat", "ann", "--seat", "ben", "--as", "ann", "-o", "p.json"]
        ).exit_code
        == 0
    )
    f = "p.json"
    for _ in range(6):
        for name in ("ann", "ben"):
            result = runner.invoke(main, ["play", f, "--as", name, "--json"])
            if result.exit_code == 0:
                f = json.loads(result.stdout)["file"]
    result = runner.invoke(main, ["status", f, "--as", "ben"])
    assert result.exit_code == 0, result.output
    assert "only you know (decrypted here):" in result.stdout
    shown = [line for line in result.stdout.splitlines() if line.startswith("cards/")]
    assert len(shown) == 2 and all("secretcard" in line for line in shown)
    public = runner.invoke(main, ["status", f])
    assert "secretcard" not in public.stdout


def test_a_face_up_pile_is_sealed_and_shuffled_anew() -> None:
    replay, ids = started(2, seed=12)
    played = replay.state.hands[0][0]
    act(replay, ids[0], Play(card=played))
    settle(replay, ids)
    item = replay.state.faces[played]
    while replay.state.pile:
        act(replay, ids[1], Draw())
        settle(replay, ids)
    act(replay, ids[1], Draw())  # the pile is empty: the played card becomes a new deck
    assert replay.awaiting.kind == "shuffle" and replay.table.unshuffled == ["cards2"]
    settle(replay, ids)
    assert [r.kind for r in replay.records[-4:]] == ["turn", "shuffle", "shuffle", "share"]
    assert private_knowledge(replay, ids[1])["cards2/0"] == item
    assert "cards2/0" not in private_knowledge(replay, ids[0])
    play_until(replay, ids, lambda r: r.result is not None)
    assert replay.records[-1].summary == "deck secrets disclosed; every shuffle audited"
