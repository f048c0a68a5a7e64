"""pbem: play board games by email, with every rule enforced and every move signed.

``import pbem`` costs nothing but this file (the command line imports it for its version):
the public API (``pbem.api``) is loaded on first use of one of its names, and a game's
author who uses only ``pbem.Ruleset`` and the decisions loads only the rules' module."""

__version__ = "0.1.0"

#: Each public name and the module that defines it (``pbem.api`` gathers them all).
_WHERE = {
    **dict.fromkeys(["Game", "Seat", "Status"], "pbem.api.game"),
    **dict.fromkeys(["Verdict", "verify"], "pbem.api.audit"),
    "Identity": "pbem.crypto.keys",
    "IdentityCard": "pbem.format.card",
    "Keyring": "pbem.crypto.keyring",
    "Store": "pbem.store.store",
    "Rng": "pbem.crypto.randomness",
    "Knowledge": "pbem.ruleset.knowledge",
    **dict.fromkeys(["PbemError", "Rejected", "UsageError"], "pbem.format.errors"),
    **dict.fromkeys(
        [
            "Bot",
            "Chance",
            "Decision",
            "Model",
            "OptionHelp",
            "Over",
            "Parallel",
            "Reshuffle",
            "Result",
            "Reveal",
            "RulesError",
            "Ruleset",
            "Turn",
        ],
        "pbem.ruleset.rules",
    ),
}

__all__ = ["__version__", "api", "bots", *_WHERE]

TYPE_CHECKING = False  # typing's own costs an import: type checkers read this name alike
if TYPE_CHECKING:  # what type checkers and editors see; nothing is imported at run time
    from pbem import api as api
    from pbem import bots as bots
    from pbem.api import *  # noqa: F403


def __getattr__(name: str) -> object:
    """Load a public name (or the ``api`` and ``bots`` packages) when it is first used."""
    from importlib import import_module

    if name in ("api", "bots"):
        return import_module(f"pbem.{name}")
    if name not in _WHERE:
        raise AttributeError(f"module 'pbem' has no attribute {name!r}")
    value = getattr(import_module(_WHERE[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
