"""Everything a seat's automatic steps need, derived from its per-game secret alone.

A seat's per-game secret is its deck secret ``x`` (``pbem.crypto.deck.deck_secret``), whose
public key ``X = x·B`` is in the genesis or the seat's join. Whoever holds ``x`` can act for
the seat in this game: the seat itself; the escrow holders once they have combined their
shares (``pbem.crypto.escrow``); a substitute the seat was handed to. So the seat's other
per-game secrets are derived from ``x``, not from the identity's root secret:

    derive(x, game id, purpose, extra) = HKDF-SHA256(IKM = x (32 bytes, little-endian),
        salt = game id (16 bytes), info = "pbem/1/seat/" ‖ purpose ‖ 0x00 ‖ extra)

``purpose`` is one of ``PURPOSES`` (ASCII, no NUL, so (purpose, extra) reads back one way):

- ``beacon``: the seed of the seat's beacon chain (extra empty, 32 bytes);
- ``seal``: the key of a sealed action, extra = JCS([parent, seat, decision]) as
  ``pbem.crypto.sealing`` frames it (32 bytes);
- ``escrow``: the coefficients of the seat's escrow polynomial (``pbem.crypto.escrow``);
- ``bot``: the random stream of a bot holding the seat (``pbem.mail.botseat``), extra =
  the step count as 8 bytes big-endian (32 bytes).

Game ids have a fixed length because HMAC pads a short key (HKDF's salt) with zeros. This
has the shape of ``Identity.game_secret`` on purpose, so that a caller switches from one to
the other by passing ``lambda label, extra: derive(x, game_id, label, extra)``.

Security: ``x`` is the seat's whole private knowledge of the game; whoever learns it can
read the seat's hidden cards and unrevealed sealed actions and predict its beacon links.
It is disclosed only at the end of the game, on resignation, or to the escrow holders
together (by their design); the HKDF labels keep every derived value independent of the
others and of the uses of ``x`` in proofs (which hash it with their own domain tags).
"""

from __future__ import annotations

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.crypto.group import check_scalar
from pbem.format.errors import Rejected
from pbem.format.i18n import N_

GAME_ID_BYTES = 16
PURPOSES = frozenset({"beacon", "seal", "escrow", "bot"})
_DOMAIN = b"pbem/1/seat/"


def derive(
    x: bytes, game_id: bytes, purpose: str, extra: bytes = b"", *, length: int = 32
) -> bytes:
    """``length`` bytes (32 or 64) for ``purpose`` in one game, from the seat secret ``x``."""
    check_scalar(x, "seat secret")
    if not isinstance(game_id, bytes) or len(game_id) != GAME_ID_BYTES:
        raise Rejected(
            N_("a game id must be {game_id_bytes} bytes").format(game_id_bytes=GAME_ID_BYTES)
        )
    if purpose not in PURPOSES:
        raise ValueError(f"unknown seat secret purpose {purpose!r}; one of {sorted(PURPOSES)}")
    if not isinstance(extra, bytes) or length not in (32, 64):
        raise ValueError("extra must be bytes and length 32 or 64")
    info = _DOMAIN + purpose.encode("ascii") + b"\0" + extra
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=game_id, info=info).derive(x)
