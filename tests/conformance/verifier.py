"""An independent verifier of pbem game files, written from ``schemas/format.md`` alone.

It imports nothing from pbem: plain ``json``, ``hashlib``, ``base64`` and ``cryptography``
(Ed25519, ChaCha20-Poly1305), with its own RFC 8785 encoder. It checks what the spec says a
verifier can check from the file alone: strict parsing (§1), the shape and exact types of
every value (§2–§6), fingerprints (§3), every signature and hash link (§4), the beacon
chains (§6.1), the sealed openings (§6.2), the shapes of escrows and interruptions, the
signers of interruptions and the key in force after a handover (§6.7, §6.9), and the
cached step count (§7).

It does not check the deck proofs of §6.4 or the escrow commitments of §6.7 (Schnorr key
proofs, decryption shares, shuffle proofs and Feldman commitments need ed25519 group
arithmetic, which ``cryptography`` does not offer), and nothing of §8: without the rules it
cannot say who was awaited, whether an action was legal, or which automatic steps the
replay made for a seat whose secret is public. For such a seat (resigned, or opened by its
escrow) it only checks that a later preimage lies on the seat's chain, some links on.
The tests compare its verdict with pbem's on every file they make or mutate.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import unicodedata
from typing import Any

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

SAFE = 2**53 - 1
L = 2**252 + 27742317777372353535851937790883648493  # the ed25519 group order (§6.4)


class Invalid(Exception):
    """The file is not a valid pbem/1 file; the message says where."""


# ----- §1 parsing and canonical bytes -------------------------------------------------------


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise Invalid(f"duplicate key {key!r}")
        out[key] = value
    return out


def _integer(text: str) -> int:
    if len(text) > 20 or abs(int(text)) > SAFE:
        raise Invalid("integer outside the exact range")
    return int(text)


def _refuse(text: str) -> Any:
    raise Invalid(f"not allowed: {text[:20]}")


def _depth(value: Any, level: int = 1) -> None:
    if isinstance(value, dict | list):
        if level > 64:
            raise Invalid("nested deeper than 64")
        for item in value.values() if isinstance(value, dict) else value:
            _depth(item, level + 1)


def load(data: bytes) -> Any:
    if len(data) > 64 * 1024 * 1024:
        raise Invalid("larger than 64 MiB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Invalid("not UTF-8") from exc
    text = text.removeprefix("\ufeff")
    try:
        value = json.loads(
            text,
            object_pairs_hook=_pairs,
            parse_float=_refuse,
            parse_int=_integer,
            parse_constant=_refuse,
        )
    except (ValueError, RecursionError) as exc:
        raise Invalid(f"not valid JSON: {exc}") from exc
    _depth(value)
    return value


def _string(text: str) -> str:
    out = ['"']
    for ch in text:
        code = ord(ch)
        if 0xD800 <= code <= 0xDFFF:
            raise Invalid("a string is not valid Unicode")
        short = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n"}
        short |= {"\f": "\\f", "\r": "\\r"}
        if ch in short:
            out.append(short[ch])
        elif code < 0x20:
            out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def jcs(value: Any) -> bytes:
    """RFC 8785 for the JSON values the format holds (no floats)."""

    def enc(v: Any) -> str:
        if v is None:
            return "null"
        if v is True:
            return "true"
        if v is False:
            return "false"
        if isinstance(v, int):
            return str(v)
        if isinstance(v, str):
            return _string(v)
        if isinstance(v, list):
            return "[" + ",".join(enc(x) for x in v) + "]"
        if isinstance(v, dict):
            keys = sorted(v, key=lambda k: k.encode("utf-16-be"))
            return "{" + ",".join(_string(k) + ":" + enc(v[k]) for k in keys) + "}"
        raise Invalid(f"not a JSON value: {type(v).__name__}")

    return enc(value).encode("utf-8")


# ----- shapes ------------------------------------------------------------------------------

B64 = {16: r"[A-Za-z0-9_-]{21}[AQgw]", 32: r"[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]"}
B64[64] = r"[A-Za-z0-9_-]{85}[AQgw]"
HEX = re.compile(r"[0-9a-f]{64}")
DECISION = re.compile(r"[a-z]+(:[A-Za-z0-9_.-]+)?")
EMAIL = re.compile(
    r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?"
)
FINGERPRINT = re.compile(r"[A-Z2-7]{4}(-[A-Z2-7]{4}){4}")
SEALED_SHARE = re.compile(r"[A-Za-z0-9_-]{106}[AEIMQUYcgkosw048]")


def members(obj: Any, names: set[str], where: str) -> dict[str, Any]:
    if type(obj) is not dict:
        raise Invalid(f"{where}: not an object")
    if set(obj) != names:
        raise Invalid(f"{where}: members {sorted(obj)} are not {sorted(names)}")
    return obj


def binary(value: Any, size: int, where: str) -> bytes:
    if type(value) is not str or not re.fullmatch(B64[size], value):
        raise Invalid(f"{where}: not {size} bytes of canonical base64url")
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


def any_binary(value: Any, where: str) -> bytes:
    if type(value) is not str or not re.fullmatch(r"[A-Za-z0-9_-]*", value):
        raise Invalid(f"{where}: not base64url")
    raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    if base64.urlsafe_b64encode(raw).rstrip(b"=").decode() != value:
        raise Invalid(f"{where}: not canonical base64url")
    return raw


def integer(value: Any, low: int, high: int, where: str) -> int:
    if type(value) is not int or not low <= value <= high:
        raise Invalid(f"{where}: not an integer from {low} to {high}")
    return value


def text(value: Any, pattern: re.Pattern[str] | None, where: str) -> str:
    if type(value) is not str or (pattern is not None and not pattern.fullmatch(value)):
        raise Invalid(f"{where}: not a valid string")
    return value


def scalar(value: Any, where: str) -> int:
    number = int.from_bytes(binary(value, 32, where), "little")
    if number >= L:
        raise Invalid(f"{where}: not a scalar below L")
    return number


def escrow(value: Any, holders: int, where: str) -> None:
    """§6.7: n − 1 commitments (points; their validity needs group arithmetic) and n
    sealed shares of 80 bytes."""
    e = members(value, {"commitments", "shares"}, where)
    if type(e["commitments"]) is not list or len(e["commitments"]) != holders - 1:
        raise Invalid(f"{where}: not {holders - 1} commitments")
    for k, point in enumerate(e["commitments"]):
        binary(point, 32, f"{where}.commitments[{k}]")
    if type(e["shares"]) is not list or len(e["shares"]) != holders:
        raise Invalid(f"{where}: not {holders} shares")
    for k, share in enumerate(e["shares"]):
        if type(share) is not str or not SEALED_SHARE.fullmatch(share):
            raise Invalid(f"{where}.shares[{k}]: not 80 bytes of canonical base64url")


CARD = {"name", "email", "sign_key", "box_key", "fingerprint"}
NAME_CHARS = {"Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Nd"}


def name_ok(name: Any, where: str) -> None:
    """§3's names, but for the script rule (UTS #39), which needs Unicode's Script data."""
    if type(name) is not str or not name or len(name) > 64 or len(name.encode()) > 192:
        raise Invalid(f"{where}: not a valid name")
    first = unicodedata.category(name[0])
    if (
        not (first[0] == "L" or first == "Nd")
        or any(c not in "._-" and unicodedata.category(c) not in NAME_CHARS for c in name)
        or unicodedata.normalize("NFC", name) != name
        or unicodedata.normalize("NFKC", name) != name
    ):
        raise Invalid(f"{where}: not a valid name")


def card(value: Any, where: str) -> bytes:
    signed = type(value) is dict and ("lang" in value or "signature" in value)
    c = members(value, CARD | ({"lang", "signature"} if signed else set()), where)
    name_ok(c["name"], f"{where}.name")
    email = text(c["email"], EMAIL, f"{where}.email")
    if len(email) > 254:
        raise Invalid(f"{where}.email: too long")
    sign = binary(c["sign_key"], 32, f"{where}.sign_key")
    box = binary(c["box_key"], 32, f"{where}.box_key")
    text(c["fingerprint"], FINGERPRINT, f"{where}.fingerprint")
    digest = hashlib.sha256(b"pbem/1/fingerprint\0" + sign + box).digest()
    expected = base64.b32encode(digest[:15]).decode()[:20]
    if c["fingerprint"].replace("-", "") != expected:
        raise Invalid(f"{where}: fingerprint does not match the keys")
    if signed:
        if c["lang"] not in ("en", "ja", "zh-Hant", "zh-Hans"):
            raise Invalid(f"{where}.lang: not a language")
        signature_ok(sign, "card", c, f"{where}.signature")
    return sign


# ----- §4 signatures -----------------------------------------------------------------------


def sha256(value: Any) -> str:
    return hashlib.sha256(jcs(value)).hexdigest()


def signature_ok(key: bytes, kind: str, obj: dict[str, Any], where: str) -> None:
    unsigned = {k: v for k, v in obj.items() if k != "signature"}
    message = b"pbem/1/" + kind.encode() + b"\0" + jcs(unsigned)
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(binary(obj["signature"], 64, where), message)
    except (InvalidSignature, ValueError) as exc:
        raise Invalid(f"{where}: bad signature") from exc


# ----- the whole file ----------------------------------------------------------------------

GENESIS = {"game", "ruleset", "options", "seats", "creator", "head", "deck_key"}
GENESIS |= {"deck_proof", "chain", "deadline", "escrow", "time", "signature"}
ENTRY = {"kind", "game", "parent", "seat", "time", "body", "preimage", "notes", "signature"}
ENVELOPE = ENTRY | {"decision"}
CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")


def notes(value: Any, seat: int, seats: int, where: str) -> None:
    """format.md, Notes: at most 4; public text of 1 to 300 UTF-8 bytes without control
    characters but the line feed, or sealed to another real seat in 49 to 348 bytes."""
    if type(value) is not list or len(value) > 4:
        raise Invalid(f"{where}.notes: not a list of at most 4 notes")
    for k, note in enumerate(value):
        at = f"{where}.notes[{k}]"
        if type(note) is dict and note.get("kind") == "public":
            words = text(members(note, {"kind", "text"}, at)["text"], None, f"{at}.text")
            size = len(words.encode("utf-8", "surrogatepass"))
            if not 1 <= size <= 300 or CONTROL.search(words):
                raise Invalid(f"{at}.text: not 1 to 300 bytes without control characters")
            if any(0xD800 <= ord(c) <= 0xDFFF for c in words):
                raise Invalid(f"{at}.text: a lone surrogate")
        elif type(note) is dict and note.get("kind") == "sealed":
            members(note, {"kind", "to", "sealed"}, at)
            to = integer(note["to"], 0, seats - 1, f"{at}.to")
            if to == seat:
                raise Invalid(f"{at}.to: sealed to its own author")
            if not 49 <= len(any_binary(note["sealed"], f"{at}.sealed")) <= 348:
                raise Invalid(f"{at}.sealed: not 49 to 348 bytes")
        else:
            raise Invalid(f"{at}: not a public or sealed note")


INTERRUPTIONS = {
    "call": {"seats", "decision", "awaited", "end"},
    "unseal": {"seat", "share"},
    "resign": {"seat", "secret"},
    "handover": {"seat", "card", "secret"},
}


def chain_step(value: bytes) -> bytes:
    return hashlib.sha256(b"pbem/1/chain\0" + value).digest()


class Verifier:
    def __init__(self, data: bytes) -> None:
        self.file = members(load(data), {"format", "genesis", "steps", "state"}, "file")
        if self.file["format"] != "pbem/1":
            raise Invalid("format is not pbem/1")

    def run(self) -> int:
        """Check everything; return the number of steps."""
        g = members(self.file["genesis"], GENESIS, "genesis")
        members(g["ruleset"], {"id", "version", "hash"}, "genesis.ruleset")
        text(g["ruleset"]["id"], None, "genesis.ruleset.id")
        text(g["ruleset"]["version"], None, "genesis.ruleset.version")
        text(g["ruleset"]["hash"], HEX, "genesis.ruleset.hash")
        if type(g["options"]) is not dict:
            raise Invalid("genesis.options: not an object")
        if type(g["seats"]) is not list or not 1 <= len(g["seats"]) <= 255:
            raise Invalid("genesis.seats: not a list of 1 to 255 cards")
        self.keys = [card(c, f"genesis.seats[{i}]") for i, c in enumerate(g["seats"])]
        if len(set(self.keys)) != len(self.keys):
            raise Invalid("genesis.seats: two seats share a key")
        integer(g["deadline"], 0, SAFE, "genesis.deadline")
        self.holders = self.escrow_setup(g["escrow"])
        self.public: set[int] = set()  # seats whose secret was published (§6.9)
        creator = integer(g["creator"], 0, len(self.keys) - 1, "genesis.creator")
        self.game = g["game"]
        binary(self.game, 16, "genesis.game")
        binary(g["deck_key"], 32, "genesis.deck_key")
        binary(g["deck_proof"], 64, "genesis.deck_proof")
        self.length = integer(g["chain"], 1, 1 << 20, "genesis.chain")
        integer(g["time"], 0, SAFE, "genesis.time")
        if self.holders:
            escrow(g["escrow"]["deal"], self.holders, "genesis.escrow.deal")
        self.links: dict[int, bytes] = {creator: binary(g["head"], 32, "genesis.head")}
        self.revealed = dict.fromkeys(range(len(self.keys)), 0)
        signature_ok(self.keys[creator], "genesis", g, "genesis")
        self.commits: dict[str, tuple[dict[str, Any], set[str]]] = {}
        self.sealing: str | None = None  # the commit batch the last steps follow
        self.creator = creator
        parent = sha256(g)
        steps = self.file["steps"]
        if type(steps) is not list:
            raise Invalid("steps: not a list")
        for index, step in enumerate(steps):
            where = f"step {index}"
            kind = step.get("kind") if type(step) is dict else None
            if type(kind) is not str or kind not in {"turn", "beacon", "shuffle", "batch"}:
                raise Invalid(f"{where}: not an entry or a batch")
            if step["kind"] == "batch":
                self.batch(step, parent, where, last=index == len(steps) - 1, first=index == 0)
            else:
                if index == 0:
                    raise Invalid(f"{where}: the join batch must come first")
                self.signed(members(step, ENTRY, where), step["kind"], parent, where)
            parent = sha256(step)
            self.follows_commit(step, parent)
        state = members(self.file["state"], {"steps", "hash", "public"}, "state")
        if integer(state["steps"], 0, SAFE, "state.steps") != len(steps):
            raise Invalid("state.steps: not the number of steps")
        text(state["hash"], HEX, "state.hash")
        if state["public"] is not None and type(state["public"]) is not dict:
            raise Invalid("state.public: not an object or null")
        return len(steps)

    def escrow_setup(self, value: Any) -> int:
        """§5, §6.7: the escrow mode and referees; returns the number of holders per seat
        (0 without escrow). Referees sign as signers n, n + 1, …"""
        e = members(value, {"mode", "referees", "deal"}, "genesis.escrow")
        mode, referees = e["mode"], e["referees"]
        if mode not in ("others", "referees", "none") or type(referees) is not list:
            raise Invalid("genesis.escrow: not a mode and a list of referees")
        if (mode == "referees") != bool(referees):
            raise Invalid("genesis.escrow: referees are listed exactly in mode referees")
        if mode == "others" and len(self.keys) < 3:
            raise Invalid("genesis.escrow: mode others needs 3 or more seats")
        self.referees = [card(c, f"genesis.escrow.referees[{i}]") for i, c in enumerate(referees)]
        if len(set(self.referees)) != len(self.referees):
            raise Invalid("genesis.escrow.referees: a card listed twice")
        if (e["deal"] is None) != (mode == "none"):
            raise Invalid("genesis.escrow.deal: null exactly in mode none")
        return {"others": len(self.keys) - 1, "referees": len(self.referees), "none": 0}[mode]

    def signed(self, obj: dict[str, Any], kind: str, parent: str, where: str) -> int:
        """Game, link, seat, time, body, signature and chain link of an entry or envelope."""
        if obj["game"] != self.game:
            raise Invalid(f"{where}: another game")
        if text(obj["parent"], HEX, f"{where}.parent") != parent:
            raise Invalid(f"{where}: broken hash link")
        n = len(self.keys)
        seat = integer(obj["seat"], 0, n + len(self.referees) - 1, f"{where}.seat")
        integer(obj["time"], 0, SAFE, f"{where}.time")
        if type(obj["body"]) is not dict:
            raise Invalid(f"{where}.body: not an object")
        notes(obj["notes"], seat, len(self.keys), where)
        if seat >= n:  # an escrow referee: signs only unseal, keeps no chain (§6.9)
            if obj.get("decision") != "unseal" or obj["preimage"] != "":
                raise Invalid(f"{where}: a referee signs only unseal, with no preimage")
            signature_ok(self.referees[seat - n], kind, obj, where)
            return seat
        signature_ok(self.keys[seat], kind, obj, where)
        if obj.get("decision") == "join":
            if obj["preimage"] != "":
                raise Invalid(f"{where}: a join envelope reveals no preimage")
            return seat
        preimage = binary(obj["preimage"], 32, f"{where}.preimage")
        self.follow(seat, preimage, where)
        return seat

    def follow(self, seat: int, preimage: bytes, where: str) -> None:
        """§6.1: the preimage is the seat's next link; for a public seat, whose links the
        replay also reveals unsigned, some next link."""
        if seat not in self.links:
            raise Invalid(f"{where}: preimage does not follow the seat's chain")
        value, steps = preimage, 0
        while True:
            value, steps = chain_step(value), steps + 1
            if value == self.links[seat]:
                break
            if seat not in self.public or self.revealed[seat] + steps >= self.length:
                raise Invalid(f"{where}: preimage does not follow the seat's chain")
        self.revealed[seat] += steps
        if self.revealed[seat] >= self.length:
            raise Invalid(f"{where}: the seat's chain is used up")
        self.links[seat] = preimage

    def batch(self, b: dict[str, Any], parent: str, where: str, *, last: bool, first: bool) -> None:
        members(b, {"kind", "parent", "decision", "envelopes"}, where)
        if text(b["parent"], HEX, f"{where}.parent") != parent:
            raise Invalid(f"{where}: broken hash link")
        decision = text(b["decision"], DECISION, f"{where}.decision")
        if (decision == "join") != first:
            raise Invalid(f"{where}: the join batch is step 0, and only it")
        envs = b["envelopes"]
        if type(envs) is not list or not envs:
            raise Invalid(f"{where}: no envelopes")
        seats = []
        heads = {}
        for k, env in enumerate(envs):
            at = f"{where}, envelope {k}"
            members(env, ENVELOPE, at)
            if env["kind"] != "envelope" or env["decision"] != decision:
                raise Invalid(f"{at}: not an envelope of this batch")
            seats.append(self.signed(env, "envelope", parent, at))
            if decision == "join":
                body = members(
                    env["body"], {"head", "deck_key", "deck_proof", "escrow"}, f"{at}.body"
                )
                binary(body["deck_key"], 32, f"{at}.body.deck_key")
                binary(body["deck_proof"], 64, f"{at}.body.deck_proof")
                heads[env["seat"]] = binary(body["head"], 32, f"{at}.body.head")
                if (body["escrow"] is None) != (self.holders == 0):
                    raise Invalid(f"{at}.body.escrow: null exactly when there is no escrow")
                if self.holders:
                    escrow(body["escrow"], self.holders, f"{at}.body.escrow")
            elif decision in INTERRUPTIONS:
                self.interruption(decision, env, at)
        if seats != sorted(set(seats)):
            raise Invalid(f"{where}: envelopes not sorted by seat, or a seat twice")
        if decision == "join":  # every seat but the creator; heads count once it is complete
            others = [s for s in range(len(self.keys)) if s != self.creator]
            if self.creator in seats or (not last and seats != others):
                raise Invalid(f"{where}: the join batch is every seat but the creator's")
            self.links.update(heads)
        if len({jcs(e["body"]) for e in envs}) != 1 and decision in ("call", "handover"):
            raise Invalid(f"{where}: the envelopes of a {decision} carry different bodies")
        if decision in ("resign", "unseal"):
            self.public.add(envs[0]["body"]["seat"])  # the secret is (being) published
        if decision == "handover" and not last:  # complete: the card signs from now on
            body = envs[0]["body"]
            self.keys[body["seat"]] = card(body["card"], f"{where}.body.card")
        kind, _, name = decision.partition(":")
        if kind == "commit":
            self.commits[name] = (b, set())
        elif kind == "reveal":
            self.reveal(b, name, where)

    def follows_commit(self, step: dict[str, Any], digest: str) -> None:
        """§6.2, §6.9: a reveal batch names the commit batch as parent, or the last of the
        interruptions that closed it."""
        decision = step.get("decision", "")
        if decision.startswith("commit:"):
            self.sealing = decision.partition(":")[2]
        elif decision not in INTERRUPTIONS:
            self.sealing = None
            return
        if self.sealing is not None:
            self.commits[self.sealing][1].add(digest)

    def interruption(self, decision: str, env: dict[str, Any], at: str) -> None:
        """§6.9: the body of a call, an unseal, a resignation or a handover."""
        n = len(self.keys)
        body = members(env["body"], INTERRUPTIONS[decision], f"{at}.body")
        if decision == "call":
            seats = body["seats"]
            if type(seats) is not list or not seats or seats != sorted(set(seats)):
                raise Invalid(f"{at}.body.seats: not a sorted list of seats")
            for k, seat in enumerate(seats):
                integer(seat, 0, n - 1, f"{at}.body.seats[{k}]")
            if env["seat"] in seats:
                raise Invalid(f"{at}: a seat calls itself")
            text(body["decision"], DECISION, f"{at}.body.decision")
            text(body["awaited"], HEX, f"{at}.body.awaited")
            if type(body["end"]) is not bool:
                raise Invalid(f"{at}.body.end: not a boolean")
            return
        integer(body["seat"], 0, n - 1, f"{at}.body.seat")
        if decision == "unseal":
            scalar(body["share"], f"{at}.body.share")
        elif decision == "resign":
            if env["seat"] != body["seat"]:
                raise Invalid(f"{at}: a seat resigns only itself")
            if scalar(body["secret"], f"{at}.body.secret") == 0:
                raise Invalid(f"{at}.body.secret: zero")
        else:
            key = card(body["card"], f"{at}.body.card")
            if key in self.keys:
                raise Invalid(f"{at}.body.card: the card holds a seat already")
            if body["secret"] != "":
                any_binary(body["secret"], f"{at}.body.secret")

    def reveal(self, b: dict[str, Any], name: str, where: str) -> None:
        """§6.2: every revealed key opens its seat's commitment."""
        commit, parents = self.commits.get(name, ({}, set()))
        if b["parent"] not in parents:
            raise Invalid(f"{where}: a reveal that follows no commit batch")
        committed = {e["seat"]: e for e in commit["envelopes"]}
        for env in b["envelopes"]:
            at = f"{where}, seat {env['seat']}"
            if env["seat"] not in committed:
                raise Invalid(f"{at}: reveals what it never committed")
            key = binary(members(env["body"], {"key"}, at)["key"], 32, f"{at}.key")
            body = members(
                committed[env["seat"]]["body"], {"commitment", "nonce", "ciphertext"}, at
            )
            aad = b"pbem/1/seal\0" + jcs(
                [self.game, commit["parent"], env["seat"], commit["decision"]]
            )
            try:
                plain = ChaCha20Poly1305(key).decrypt(
                    any_binary(body["nonce"], at), any_binary(body["ciphertext"], at), aad
                )
            except InvalidTag as exc:
                raise Invalid(f"{at}: the key does not open the commitment") from exc
            opened = members(load(plain), {"action", "salt"}, at)
            digest = hashlib.sha256(
                b"pbem/1/commit\0"
                + jcs([self.game, commit["parent"], env["seat"], opened["salt"], opened["action"]])
            ).digest()
            binary(opened["salt"], 32, f"{at}.salt")
            if digest != binary(body["commitment"], 32, f"{at}.commitment"):
                raise Invalid(f"{at}: the opened action does not match the commitment")


def verify(data: bytes) -> int:
    """Verify a file's bytes; return its number of steps or raise ``Invalid``."""
    return Verifier(data).run()
