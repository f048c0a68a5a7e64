"""The public Python API of pbem, in one place: what ``import pbem`` offers (lazily: ``pbem``
itself imports nothing until a name is used, so the command line starts as fast as before).

Playing (through the store and the journal, as the commands do): ``Game``, ``Status``,
``verify`` and ``Verdict``; who plays: ``Identity``, ``IdentityCard``, ``Keyring``, and the
``Store`` games live in; bots: ``pbem.bots.get``. Writing a game: the ``Ruleset`` base class
and what its methods return or take (``Model``, the decisions ``Turn``, ``Parallel``,
``Chance``, ``Reveal``, ``Reshuffle``, ``Over`` with its ``Result``, ``RulesError``,
``OptionHelp``, ``Knowledge``, ``Rng``). Errors: ``PbemError`` and its kinds ``Rejected``
(refused input: a bad move, a bad file) and ``UsageError`` (a missing file, a bad
argument).

Everything else under ``pbem`` stays importable, but is not the API: it may change in any
release (docs/versioning.md).
"""

from pbem.api.audit import Verdict, verify
from pbem.api.game import Game, Seat, Status
from pbem.crypto.keyring import Keyring
from pbem.crypto.keys import Identity
from pbem.crypto.randomness import Rng
from pbem.format.card import IdentityCard
from pbem.format.errors import PbemError, Rejected, UsageError
from pbem.ruleset.knowledge import Knowledge
from pbem.ruleset.rules import (
    Bot,
    Chance,
    Decision,
    Model,
    OptionHelp,
    Over,
    Parallel,
    Reshuffle,
    Result,
    Reveal,
    RulesError,
    Ruleset,
    Turn,
)
from pbem.store.store import Store

__all__ = [
    "Bot",
    "Chance",
    "Decision",
    "Game",
    "Identity",
    "IdentityCard",
    "Keyring",
    "Knowledge",
    "Model",
    "OptionHelp",
    "Over",
    "Parallel",
    "PbemError",
    "Rejected",
    "Reshuffle",
    "Result",
    "Reveal",
    "Rng",
    "RulesError",
    "Ruleset",
    "Seat",
    "Status",
    "Store",
    "Turn",
    "UsageError",
    "Verdict",
    "verify",
]
