"""The sealed decks of one game as the file records them (architecture §7).

``pbem.crypto.deck`` has the mental-poker primitives; this module keeps what a replay needs
around them: every seat's published deck key (accepted only with its proof), the decks
after each seat's shuffle pass (accepted only with its proof of a shuffle,
``pbem.crypto.shuffleproof``), the decryption shares of every reveal, and the end-of-game
audit once the deck secrets are disclosed (a review: the proofs already made the shuffles
sound). Handles ``"<deck>/<i>"`` name the i-th ciphertext of a deck after the setup
shuffles; the rules move handles, never ciphertexts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.crypto import deck, passes, shuffleproof
from pbem.crypto.deck import Ciphertext
from pbem.crypto.group import DeckError, Point, stored_point
from pbem.format.canonical import b64d, b64e, canonical
from pbem.format.errors import Rejected
from pbem.format.i18n import N_
from pbem.ruleset.rules import Reveal


def key_context(game: str, seat: int) -> bytes:
    """What a seat's proof of its deck key is bound to: this game, this seat."""
    return b"pbem/1/deck-key\0" + canonical([game, seat])


def share_context(game: str, parent: str, handle: str) -> bytes:
    """What a decryption share's proof is bound to: game, step, deck and position."""
    return b"pbem/1/deck-share\0" + canonical([game, parent, handle])


def shuffle_context(game: str, name: str, seat: int, parent: str) -> bytes:
    """What a shuffle pass's proof is bound to: game, deck, pass id, seat and parent step,
    so that a proof copied from any other pass, deck, game, seat or step fails."""
    return b"pbem/1/deck-shuffle\0" + canonical([game, name, pass_id(name, seat), seat, parent])


def pass_id(name: str, seat: int) -> str:
    """The shuffle pass of ``seat`` on deck ``name`` (its permutation is derived from it);
    decks are never re-shuffled under the same name, so a pass id is never reused."""
    return f"{name}/{seat}"


def encode_deck(cts: list[Ciphertext]) -> list[list[str]]:
    return [[b64e(ct.c1), b64e(ct.c2)] for ct in cts]


def decode_deck(data: Any, size: int, what: str, *, proven: bool = False) -> list[Ciphertext]:
    """A deck as a step carries it; its points validated, unless ``proven`` (the store
    validated these very bytes when it took the step: ``Tabletop.proven``)."""
    if not isinstance(data, list) or len(data) != size:
        raise Rejected(N_("{what} must list {size} ciphertexts").format(what=what, size=size))
    try:
        if proven:
            return [Ciphertext(*(stored_point(b64d(c, size=32)) for c in pair)) for pair in data]
        return [
            deck.check_ciphertext([b64d(c, size=32) for c in pair], f"{what}[{i}]")
            for i, pair in enumerate(data)
        ]
    except (DeckError, TypeError) as exc:
        raise Rejected(str(exc)) from exc


@dataclass
class PrivateReveal:
    """Items opened to one seat: the others' shares are public; the receiver adds its own."""

    to: int
    handles: list[str]
    cts: list[Ciphertext]
    shares: list[list[bytes]]
    opened: dict[bytes, dict[str, str]] = field(default_factory=dict, repr=False, compare=False)
    """The faces as opened with a secret, kept in memory only: a bot asks what its seat
    knows at every decision, and a reveal, once made, never changes."""


@dataclass
class Tabletop:
    game: str
    keys: list[bytes]
    items: dict[str, list[str]] = field(default_factory=dict)
    decks: dict[str, list[Ciphertext]] = field(default_factory=dict)
    passes: dict[str, list[tuple[int, list[Ciphertext]]]] = field(default_factory=dict)
    unshuffled: list[str] = field(default_factory=list)
    """Decks added and not yet passed through every seat's shuffle."""
    private: list[PrivateReveal] = field(default_factory=list)
    proven: bool = False
    """The passes and shares were checked before (``Position.proven``): their proofs are
    not checked again; their forms and points are."""
    _tables: dict[str, dict[bytes, str]] = field(default_factory=dict)
    _joint: tuple[list[bytes], Point] | None = None
    _made: dict[tuple[str, int, str], tuple[dict[str, Any], Any]] = field(
        default_factory=dict, repr=False, compare=False
    )
    """Bodies this table made itself (a shuffle pass, shares), by kind, seat and parent,
    with what checking them would give. A body equal to one made here is taken without
    checking its proofs again: they were computed here a moment ago, from the witness. Any
    other body, and every body on every other table (a recipient's, a verifier's), is
    checked in full. Memory only: a table read back from a file or a store made nothing."""

    @staticmethod
    def check_key(game: str, seat: int, key: str, proof: str) -> Point:
        """A seat's deck key, accepted only with a proof that the seat knows its secret (a
        seat choosing its key after seeing the others' could otherwise open every item)."""
        raw = b64d(key, size=32, what="deck key")
        try:
            point = deck.check_point(raw, "deck key")
        except DeckError as exc:
            raise Rejected(str(exc)) from exc
        if not deck.verify_key(
            point, b64d(proof, size=64, what="deck key proof"), key_context(game, seat)
        ):
            raise Rejected(N_("the deck key's proof does not verify"))
        return point

    @property
    def joint(self) -> Point:
        """``J``, summed (and the keys validated) once for each set of keys."""
        if self._joint is None or self._joint[0] != self.keys:
            self._joint = (list(self.keys), deck.joint_key(self.keys))
        return self._joint[1]

    def add_decks(self, items: dict[str, list[str]]) -> None:
        """Seal new decks openly (anyone can check them); every seat's shuffle pass then
        hides them. A deck name is used once per game."""
        joint = self.joint
        for name, ids in items.items():
            if name in self.items or "/" in name or not name:
                raise Rejected(
                    N_("deck name {name!r} is used already or is not a name").format(name=name)
                )
            self.items[name] = sorted(ids)
            self.decks[name] = deck.seal(name, self.items[name], joint)
            self.passes[name] = []
            self.unshuffled.append(name)

    def shuffle_body(self, seat: int, secret: bytes, parent: str) -> dict[str, Any]:
        """The seat's pass over every deck awaiting it, each with its proof of a shuffle
        (base64url, ``shuffleproof`` encoding) bound to this game, deck, seat and step."""
        joint = self.joint
        decks, proofs, taken = {}, {}, {}
        for name in self.unshuffled:
            before = self.decks[name]
            witness = passes.shuffle_witness(secret, name, pass_id(name, seat), len(before))
            after = taken[name] = passes.reencrypt(before, joint, witness)
            context = shuffle_context(self.game, name, seat, parent)
            decks[name] = encode_deck(after)
            proofs[name] = b64e(shuffleproof.prove(before, after, joint, witness, context))
        body = {"decks": decks, "proofs": proofs}
        self._made[("shuffle", seat, parent)] = (body, taken)
        return body

    def _made_here(self, kind: str, seat: int, parent: str, body: dict[str, Any]) -> Any:
        """What checking ``body`` would give, if this table made exactly this body; else
        None. A record serves once."""
        made = self._made.pop((kind, seat, parent), None)
        return made[1] if made is not None and made[0] == body else None

    def apply_shuffle(self, seat: int, body: dict[str, Any], parent: str) -> None:
        """Take a seat's shuffle pass once every deck's proof shows that its output is a
        re-encryption and permutation of its input; refuse the pass, naming the deck,
        otherwise (nothing is taken then)."""
        if set(body) != {"decks", "proofs"} or not all(
            isinstance(body[k], dict) for k in ("decks", "proofs")
        ):
            raise Rejected(N_("a shuffle body holds exactly 'decks' and 'proofs'"))
        for part in ("decks", "proofs"):
            if set(body[part]) != set(self.unshuffled):
                raise Rejected(
                    N_("a shuffle's {part} must be for exactly: {items}").format(
                        part=part, items=", ".join(sorted(self.unshuffled))
                    )
                )
        taken = self._made_here("shuffle", seat, parent, body) or self._checked_pass(
            seat, body, parent
        )
        for name, after in taken.items():
            self.passes[name].append((seat, after))
            self.decks[name] = after

    def _checked_pass(
        self, seat: int, body: dict[str, Any], parent: str
    ) -> dict[str, list[Ciphertext]]:
        """Every deck's output of a received pass, once its proof checks."""
        joint = self.joint
        taken = {}
        for name in self.unshuffled:
            before = self.decks[name]
            after = decode_deck(
                body["decks"][name], len(before), f"deck {name!r}", proven=self.proven
            )
            proof = b64d(
                body["proofs"][name],
                size=shuffleproof.proof_size(len(before)),
                what=f"deck {name!r}: the shuffle proof",
            )
            context = shuffle_context(self.game, name, seat, parent)
            try:
                if not self.proven:
                    shuffleproof.check(before, after, joint, proof, context)
            except DeckError as exc:
                raise Rejected(N_("deck {name!r}: {exc}").format(name=name, exc=exc)) from exc
            taken[name] = after
        return taken

    def table_of(self, name: str) -> dict[bytes, str]:
        """Item point -> item id for deck ``name``; hashing every item to a point is costly,
        and a deck's items never change, so each table is made once."""
        if name not in self._tables:
            self._tables[name] = deck.item_table(name, self.items[name])
        return self._tables[name]

    def ciphertext(self, handle: str) -> Ciphertext:
        name, _, index = handle.partition("/")
        cts = self.decks.get(name)
        if cts is None or not index.isdigit() or int(index) >= len(cts):
            raise Rejected(N_("no sealed item {handle!r}").format(handle=handle))
        return cts[int(index)]

    def share_body(self, seat: int, reveal: Reveal, parent: str, secret: bytes) -> dict[str, Any]:
        """The seat's decryption share of every item of ``reveal``, each with its proof."""
        shares, points = [], []
        pubkey = deck.public_key(secret)
        for handle in reveal.items:
            point, proof = deck.share(
                self.ciphertext(handle), secret, share_context(self.game, parent, handle), pubkey
            )
            shares.append([b64e(point), b64e(proof)])
            points.append(point)
        body = {"shares": shares}
        if pubkey == self.keys[seat]:
            self._made[("share", seat, parent)] = (body, points)
        return body

    def check_shares(
        self, seat: int, body: dict[str, Any], reveal: Reveal, parent: str
    ) -> list[Point]:
        """Every share must carry a proof that it was made with the seat's published key."""
        made = self._made_here("share", seat, parent, body)
        if made is not None:
            return made
        if set(body) != {"shares"} or not isinstance(body["shares"], list):
            raise Rejected(N_("a share body holds exactly 'shares'"))
        if len(body["shares"]) != len(reveal.items):
            raise Rejected(
                N_("{count} shares are needed, not {count2}").format(
                    count=len(reveal.items), count2=len(body["shares"])
                )
            )
        points = []
        for handle, pair in zip(reveal.items, body["shares"], strict=True):
            if not isinstance(pair, list) or len(pair) != 2:
                raise Rejected(N_("the share for {handle} is malformed").format(handle=handle))
            point = b64d(pair[0], size=32, what="share")
            proof = b64d(pair[1], size=64, what="share proof")
            context = share_context(self.game, parent, handle)
            try:
                points.append(
                    stored_point(point)
                    if self.proven
                    else deck.checked_share(
                        self.ciphertext(handle), self.keys[seat], point, proof, context
                    )
                )
            except DeckError as exc:
                raise Rejected(
                    N_("bad decryption share for {handle}: its proof does not verify").format(
                        handle=handle
                    )
                ) from exc
        return points

    def open_public(self, reveal: Reveal, shares: dict[int, list[bytes]]) -> dict[str, str]:
        """Faces of publicly revealed items, from every seat's share."""
        faces = {}
        for k, handle in enumerate(reveal.items):
            point = deck.open_with_shares(self.ciphertext(handle), [s[k] for s in shares.values()])
            name = handle.partition("/")[0]
            try:
                faces[handle] = deck.identify(point, self.table_of(name))
            except DeckError as exc:
                raise Rejected(
                    N_(
                        "{handle} opens to no item of deck {name!r}: a shuffle was dishonest"
                    ).format(handle=handle, name=name)
                ) from exc
        return faces

    def record_private(self, reveal: Reveal, shares: dict[int, list[bytes]]) -> None:
        assert reveal.to is not None
        cts = [self.ciphertext(h) for h in reveal.items]
        per_item = [[s[k] for s in shares.values()] for k in range(len(reveal.items))]
        self.private.append(PrivateReveal(reveal.to, list(reveal.items), cts, per_item))

    def known_to(self, seat: int, secret: bytes) -> dict[str, str]:
        """What ``seat`` privately saw, opened with its own secret on its own machine."""
        known = {}
        for rev in self.private:
            if rev.to != seat:
                continue
            if secret not in rev.opened:
                rev.opened[secret] = {
                    handle: deck.identify(
                        deck.open_private(ct, others, secret),
                        self.table_of(handle.partition("/")[0]),
                    )
                    for handle, ct, others in zip(rev.handles, rev.cts, rev.shares, strict=True)
                }
            known |= rev.opened[secret]
        return known

    def check_disclosure(self, seat: int, body: dict[str, Any]) -> bytes:
        if set(body) != {"deck_secret"}:
            raise Rejected(N_("a disclosure body holds exactly 'deck_secret'"))
        secret = b64d(body["deck_secret"], size=32, what="deck secret")
        try:
            matches = deck.public_key(secret) == self.keys[seat]
        except DeckError as exc:
            raise Rejected(
                N_("the disclosed deck secret is malformed: {exc}").format(exc=exc)
            ) from exc
        if not matches:
            raise Rejected(N_("the disclosed deck secret does not match the seat's deck key"))
        return secret

    def audit(self, secrets: dict[int, bytes], names: list[str]) -> None:
        """Re-run every shuffle pass with the disclosed secrets; name the first seat whose
        output is not what its secret gives. A review for players: every pass was already
        proven a shuffle when it arrived, so this can only find a seat that shuffled
        validly but not as its secret dictates (which cannot have rigged the deck). A
        ``proven`` table was audited when its store took the steps."""
        if self.proven:
            return
        joint = self.joint
        for name, ids in self.items.items():
            made = [
                passes.ShufflePass(
                    pass_id(name, seat),
                    self.keys[seat],
                    secrets[seat],
                    after,
                    f"seat {seat} ({names[seat]})",
                )
                for seat, after in self.passes[name]
            ]
            try:
                passes.audit_shuffles(name, ids, joint, made)
            except DeckError as exc:
                raise Rejected(N_("shuffle audit failed: {exc}").format(exc=exc)) from exc
