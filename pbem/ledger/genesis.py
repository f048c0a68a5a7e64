"""The genesis as the replay checks it before the first step (architecture §3, §11)."""

from __future__ import annotations

from pbem.crypto.signatures import verify_signature
from pbem.format.errors import Rejected
from pbem.format.gamefile import Genesis
from pbem.ruleset.rules import RulesError, Ruleset


def check_genesis(g: Genesis, rules: Ruleset) -> None:
    """Refuse a genesis the replay cannot start from: other rules (id, version, hash),
    options the ruleset could not have made, a seat count it does not take, one identity at
    two seats, an escrow that does not fit its mode, or a creator's signature that does
    not verify."""
    pin = g.ruleset
    if pin.id != rules.id:
        raise Rejected(f"genesis: the game is {pin.id!r}, not {rules.id!r}")
    if pin.version != rules.version or pin.hash != rules.content_hash():
        raise Rejected(
            f"genesis: the game was made under {pin.id} {pin.version} (rules hash "
            f"{pin.hash[:12]}), but this pbem has {rules.id} {rules.version} "
            f"(rules hash {rules.content_hash()[:12]}); use the pbem release the "
            "game was created with"
        )
    try:
        rules.check_options(g.options)
    except RulesError as exc:
        raise Rejected(f"genesis: options: {exc}") from exc
    n = len(g.seats)
    if not rules.min_seats <= n <= rules.max_seats:
        raise Rejected(
            f"genesis: {pin.id} takes {rules.min_seats} to {rules.max_seats} seats, not {n}"
        )
    if len({card.sign_key for card in g.seats}) != n:
        raise Rejected("genesis: two seats share one identity")
    if not 0 <= g.creator < n:
        raise Rejected(f"genesis: creator seat {g.creator} does not exist")
    escrow = g.escrow
    if (escrow.mode == "referees") != bool(escrow.referees):
        raise Rejected("genesis: escrow referees are named exactly when the mode is referees")
    if (escrow.mode == "none") != (escrow.deal is None):
        raise Rejected("genesis: the creator escrows its secret exactly when escrow is on")
    if escrow.mode == "others" and n < 3:
        raise Rejected("genesis: with 2 seats, escrow by the other seat would hand it all")
    keys = {c.sign_key for c in g.seats}
    if any(r.sign_key in keys for r in escrow.referees):
        raise Rejected("genesis: a referee of the escrow holds a seat")
    try:
        verify_signature(g.seats[g.creator].sign_key, g)
    except Rejected as exc:
        raise Rejected("genesis: the creator's signature does not verify") from exc
