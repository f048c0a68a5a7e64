"""Sealed decks in the engine (architecture §7), proven with the ``peek`` test ruleset."""

from __future__ import annotations

import copy
import itertools
import json
from typing import Any

import pytest
from click.testing import CliRunner
from nacl import bindings as nb

from pbem.cli.main import main
from pbem.crypto import deck, passes, shuffleproof
from pbem.crypto.group import L
from pbem.crypto.keys import Identity
from pbem.format import gamefile
from pbem.format.canonical import b64e, canonical
from pbem.format.errors import Rejected
from pbem.ledger.audit import merge_files
from pbem.ledger.replay import Replay, StepRejected, replay_file
from pbem.ledger.tabletop import encode_deck, pass_id, share_context, shuffle_context
from pbem.play.author import act, automatic, new_game, private_knowledge
from pbem.play.selfplay import bot_identities, play_game
from pbem.play.signer import deck_secret
from pbem.ruleset import registry
from tests.core.test_deck import TORSION
from tests.core.test_shuffle_proof import FIELDS, cheats, mutated
from tests.helpers import Seeded, forged_entry, forged_envelope, play_until
from tests.rulesets.peek import CARDS, Draw, Peek, Play

RULES = registry.get("peek")


def started(players: int, seed: int = 1) -> tuple[Replay, list[Identity]]:
    """Joined, shuffled, dealt: the first seat's turn."""
    ids = bot_identities(seed, players)
    replay = new_game(
        RULES, RULES.parse_options({}), [i.card for i in ids], ids[0], entropy=Seeded(seed)
    )
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


# --- shuffle passes are proven when they are made (issue 15) -----------------------------


@pytest.fixture(scope="module")
def _before_seat_1() -> tuple[Replay, list[Identity]]:
    ids = bot_identities(8, 3)
    replay = new_game(
        RULES, RULES.parse_options({}), [i.card for i in ids], ids[0], entropy=Seeded(8)
    )
    for ident in ids:
        automatic(replay, ident)
    automatic(replay, ids[0])  # seat 0's honest shuffle
    assert replay.awaiting.kind == "shuffle" and replay.awaiting.seats == (1,)
    return replay, ids


@pytest.fixture
def seat_1(_before_seat_1) -> SeatPass:
    """A 3-seat game awaiting seat 1's shuffle pass, and what an honest pass would be."""
    replay, ids = _before_seat_1
    return SeatPass(copy.deepcopy(replay), ids)


class SeatPass:
    """Seat 1's pass over deck 'cards', and helpers to publish a forged one."""

    def __init__(self, replay: Replay, ids: list[Identity]) -> None:
        self.replay, self.ids = replay, ids
        table = replay.table
        self.before, self.joint = table.decks["cards"], table.joint
        secret = deck_secret(ids[1], replay.genesis.game)
        self.witness = passes.shuffle_witness(secret, "cards", pass_id("cards", 1), len(CARDS))
        self.honest = passes.reencrypt(self.before, self.joint, self.witness)
        self.parent = replay.awaiting.parent
        self.context = shuffle_context(replay.genesis.game, "cards", 1, self.parent)

    def prove(self, after: list[deck.Ciphertext], context: bytes | None = None) -> bytes:
        return shuffleproof.prove(
            self.before, after, self.joint, self.witness, context or self.context
        )

    def made_here(self) -> dict[str, Any]:
        """Seat 1's pass as its own table makes it (what ``automatic`` signs)."""
        secret = deck_secret(self.ids[1], self.replay.genesis.game)
        return self.replay.table.shuffle_body(1, secret, self.parent)

    def publish(self, after: Any, proof: bytes | str) -> None:
        decks = encode_deck(after) if after and isinstance(after[0], deck.Ciphertext) else after
        body = {
            "decks": {"cards": decks},
            "proofs": {"cards": proof if isinstance(proof, str) else b64e(proof)},
        }
        self.replay.add(forged_entry(self.replay, self.ids[1], 1, "shuffle", body))

    def refused(self, after: Any, proof: bytes | str, reason: str) -> None:
        """Publishing is refused at this step, naming seat 1 and the deck; nothing is taken."""
        index = len(self.replay.steps)
        with pytest.raises(  # steps as people count them, from 1
            StepRejected, match=rf"^step {index + 1}, seat 1 \(bot2\): deck 'cards'.*{reason}"
        ):
            self.publish(after, proof)
        assert len(self.replay.steps) == index and len(self.replay.table.passes["cards"]) == 1


def test_an_honest_pass_with_its_proof_is_taken(seat_1: SeatPass) -> None:
    seat_1.publish(seat_1.honest, seat_1.prove(seat_1.honest))
    assert seat_1.replay.table.decks["cards"] == seat_1.honest
    assert seat_1.replay.awaiting.seats == (2,)


def test_a_dropped_item_is_refused_at_the_step(seat_1: SeatPass) -> None:
    seat_1.refused(seat_1.honest[:-1], seat_1.prove(seat_1.honest), "must list 16 ciphertexts")


@pytest.mark.parametrize(
    "cheat",
    ["duplicated item", "item re-encrypted to another", "wrong permutation of the right set"],
)
def test_a_cheating_pass_is_refused_at_the_step(seat_1: SeatPass, cheat: str) -> None:
    forged = cheats(seat_1.before, seat_1.joint, seat_1.honest)[cheat]
    seat_1.refused(forged, seat_1.prove(forged), "shuffle proof does not verify")
    seat_1.refused(forged, seat_1.prove(seat_1.honest), "shuffle proof does not verify")


def test_a_proof_copied_from_the_previous_pass_is_refused(seat_1: SeatPass) -> None:
    seat_0 = seat_1.replay.steps[-1]
    assert seat_0.kind == "shuffle" and seat_0.seat == 0
    seat_1.refused(seat_1.honest, seat_0.body["proofs"]["cards"], "does not verify")


@pytest.mark.parametrize("other", ["game", "deck", "pass", "seat", "parent"])
def test_a_proof_made_for_another_context_is_refused(seat_1: SeatPass, other: str) -> None:
    fields = {
        "game": seat_1.replay.genesis.game,
        "deck": "cards",
        "pass": pass_id("cards", 1),
        "seat": 1,
        "parent": seat_1.parent,
    }
    fields[other] = {
        "game": b64e(bytes(16)),
        "deck": "cards2",
        "pass": "cards/9",
        "seat": 2,
        "parent": "0" * 64,
    }[other]
    context = b"pbem/1/deck-shuffle\0" + canonical(list(fields.values()))
    assert context != seat_1.context
    seat_1.refused(seat_1.honest, seat_1.prove(seat_1.honest, context), "does not verify")


@pytest.mark.parametrize("field", FIELDS)
def test_each_field_of_the_proof_mutated_is_refused_at_the_step(
    seat_1: SeatPass, field: str
) -> None:
    proof = mutated(seat_1.prove(seat_1.honest), field, len(CARDS), 5)
    seat_1.refused(seat_1.honest, proof, "does not verify")


@pytest.mark.parametrize(
    ("proof", "reason"),
    [
        (lambda p: p[:-1], "the shuffle proof must be 2208 bytes, not 2207"),
        (lambda p: b64e(p) + "!", "the shuffle proof is not base64url"),
        (lambda p: p[:32] + (L + 1).to_bytes(32, "little") + p[64:], "s1 is not a canonical"),
        (lambda p: p[:160] + TORSION[2] + p[192:], "commitment 0 is not a valid point"),
    ],
)
def test_a_malformed_proof_is_refused_naming_what(seat_1: SeatPass, proof, reason: str) -> None:
    seat_1.refused(seat_1.honest, proof(seat_1.prove(seat_1.honest)), reason)


def test_a_shuffle_body_without_proofs_is_refused(seat_1: SeatPass) -> None:
    entry = forged_entry(
        seat_1.replay, seat_1.ids[1], 1, "shuffle", {"decks": {"cards": encode_deck(seat_1.honest)}}
    )
    with pytest.raises(StepRejected, match=r"seat 1 \(bot2\): a shuffle body holds exactly"):
        seat_1.replay.add(entry)


def test_a_point_reused_from_a_validated_ciphertext_does_not_vouch_for_its_partner(
    seat_1: SeatPass,
) -> None:
    # Issue 13: the output reuses an input's validated c1 next to a c2 with a small-order
    # component; the pair arrived unvalidated, so its c2 is validated, and refused.
    pairs = encode_deck(seat_1.honest)
    tainted = nb.crypto_core_ed25519_add(seat_1.honest[3].c2, TORSION[5])
    pairs[3] = [b64e(seat_1.before[0].c1), b64e(tainted)]
    seat_1.refused(pairs, seat_1.prove(seat_1.honest), r"\[3\] c2 is not a valid point")


def counting_checks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the shuffle proofs that are checked from now on (the real check runs)."""
    calls: list[int] = []
    real = shuffleproof.check

    def check(*args: Any) -> None:
        calls.append(1)
        real(*args)

    monkeypatch.setattr(shuffleproof, "check", check)
    return calls


def test_a_pass_the_table_made_is_taken_unchecked_only_exactly_as_made(
    seat_1: SeatPass, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 13: the author's own table does not check again the proof it has just made;
    # a body that differs from it in anything is checked in full, and so is every body on
    # any other table (a recipient's: tests/core/test_attacks.py, and the cases above).
    checks = counting_checks(monkeypatch)
    body = seat_1.made_here()
    swapped = copy.deepcopy(body)
    pairs = swapped["decks"]["cards"]
    pairs[0], pairs[1] = pairs[1], pairs[0]  # the proof no longer fits the order
    seat_1.refused(pairs, body["proofs"]["cards"], "shuffle proof does not verify")
    assert len(checks) == 1  # the record does not vouch for another body...
    seat_1.publish(body["decks"]["cards"], body["proofs"]["cards"])
    assert len(checks) == 2  # ...and it served once: the same body now is checked too
    assert seat_1.replay.table.decks["cards"] == seat_1.honest


def test_the_table_takes_its_own_pass_without_checking_it_again(
    seat_1: SeatPass, monkeypatch: pytest.MonkeyPatch
) -> None:
    checks = counting_checks(monkeypatch)
    body = seat_1.made_here()
    seat_1.publish(body["decks"]["cards"], body["proofs"]["cards"])
    assert not checks and seat_1.replay.table.decks["cards"] == seat_1.honest
    received = replay_file(gamefile.decode(gamefile.encode(seat_1.replay.to_file())), RULES)
    assert received.table.decks["cards"] == seat_1.honest and len(checks) == 2  # both passes


def test_shares_the_table_made_are_taken_unchecked_only_exactly_as_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    replay, ids = started(3, seed=7)
    card = replay.state.hands[0][0]
    act(replay, ids[0], Play(card=card))
    automatic(replay, ids[0])
    aw, game, table = replay.awaiting, replay.genesis.game, replay.table
    assert aw.decision == "share" and 1 in replay.remaining()
    checks: list[int] = []
    real = deck.checked_share
    monkeypatch.setattr(deck, "checked_share", lambda *a: checks.append(1) or real(*a))
    refused = r"seat 1 \(bot2\): bad decryption share for cards/"
    # made here, but with another seat's secret: no record of seat 1's, so checked
    wrong = table.share_body(1, replay.reveal, aw.parent, deck_secret(ids[2], game))
    with pytest.raises(Rejected, match=refused):
        replay.add_envelope(forged_envelope(replay, ids[1], 1, wrong))
    # made here with seat 1's secret, then altered: checked
    mine = table.share_body(1, replay.reveal, aw.parent, deck_secret(ids[1], game))
    altered = {"shares": [[wrong["shares"][0][0], mine["shares"][0][1]]]}
    with pytest.raises(Rejected, match=refused):
        replay.add_envelope(forged_envelope(replay, ids[1], 1, altered))
    assert len(checks) == 2
    # made here with seat 1's secret and sent as made: taken without checking again
    mine = table.share_body(1, replay.reveal, aw.parent, deck_secret(ids[1], game))
    replay.add_envelope(forged_envelope(replay, ids[1], 1, mine))
    assert len(checks) == 2 and 1 not in replay.remaining()


def test_a_valid_pass_off_its_derivation_is_taken_and_reported_by_the_audit(
    seat_1: SeatPass,
) -> None:
    # The proof makes every pass a shuffle; the end-of-game audit, kept for players to
    # review, still reports a seat that shuffled otherwise than its secret dictates.
    other = passes.ShuffleWitness(
        seat_1.witness.permutation[::-1], seat_1.witness.rerandomizers, seat_1.witness.key
    )
    after = passes.reencrypt(seat_1.before, seat_1.joint, other)
    seat_1.publish(
        after, shuffleproof.prove(seat_1.before, after, seat_1.joint, other, seat_1.context)
    )
    replay, ids = seat_1.replay, seat_1.ids
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
