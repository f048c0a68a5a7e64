"""The genesis as the replay checks it before the first step (architecture §3, §11)."""

from __future__ import annotations

from pbem.crypto.signatures import verify_signature
from pbem.format.errors import Rejected
from pbem.format.gamefile import Genesis
from pbem.format.i18n import N_
from pbem.ruleset.rules import RulesError, Ruleset


def check_genesis(g: Genesis, rules: Ruleset) -> None:
    """Refuse a genesis the replay cannot start from: other rules (id, version, hash),
    options the ruleset could not have made, a seat count it does not take, one identity at
    two seats, an escrow that does not fit its mode, or a creator's signature that does
    not verify."""
    pin = g.ruleset
    if pin.id != rules.id:
        raise Rejected(
            N_("genesis: the game is {id!r}, not {id2!r}").format(id=pin.id, id2=rules.id)
        )
    if pin.version != rules.version or pin.hash != rules.content_hash():
        raise Rejected(
            N_(
                "genesis: the game was made under {id} {version} (rules hash "
                "{hash}), but this pbem has {id2} {version2} (rules hash "
                "{content_hash}); use the pbem release the game was created with"
            ).format(
                id=pin.id,
                version=pin.version,
                hash=pin.hash[:12],
                id2=rules.id,
                version2=rules.version,
                content_hash=rules.content_hash()[:12],
            )
        )
    try:
        rules.check_options(g.options)
    except RulesError as exc:
        raise Rejected(N_("genesis: options: {exc}").format(exc=exc)) from exc
    n = len(g.seats)
    if not rules.min_seats <= n <= rules.max_seats:
        raise Rejected(
            N_("genesis: {id} takes {min_seats} to {max_seats} seats, not {n}").format(
                id=pin.id, min_seats=rules.min_seats, max_seats=rules.max_seats, n=n
            )
        )
    if len({card.sign_key for card in g.seats}) != n:
        raise Rejected(N_("genesis: two seats share one identity"))
    if not 0 <= g.creator < n:
        raise Rejected(
            N_("genesis: creator seat {creator} does not exist").format(creator=g.creator)
        )
    escrow = g.escrow
    if (escrow.mode == "referees") != bool(escrow.referees):
        raise Rejected(N_("genesis: escrow referees are named exactly when the mode is referees"))
    if (escrow.mode == "none") != (escrow.deal is None):
        raise Rejected(N_("genesis: the creator escrows its secret exactly when escrow is on"))
    if escrow.mode == "others" and n < 3:
        raise Rejected(N_("genesis: with 2 seats, escrow by the other seat would hand it all"))
    keys = {c.sign_key for c in g.seats}
    if any(r.sign_key in keys for r in escrow.referees):
        raise Rejected(N_("genesis: a referee of the escrow holds a seat"))
    try:
        verify_signature(g.seats[g.creator].sign_key, g)
    except Rejected as exc:
        raise Rejected(N_("genesis: the creator's signature does not verify")) from exc
