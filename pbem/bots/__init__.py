"""What the games' bots are built from: a simulated world in which a bot may guess what its
seat cannot see (``simulate``), and a tree search over such guesses (``mcts``). A game's own
bots (its rules of thumb, its evaluation) live in the game's package; ``get`` names one for
whatever game it plays (``pbem.bots.get("mcts:16")``). It uses only ``pbem.ruleset`` and
what that uses.

``get`` is loaded on first use, so that a game importing ``pbem.bots.mcts`` loads no more
than before."""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pbem.bots.named import NamedBot as NamedBot
    from pbem.bots.named import get as get

__all__ = ["NamedBot", "get"]


def __getattr__(name: str) -> object:
    if name not in __all__:
        raise AttributeError(f"module 'pbem.bots' has no attribute {name!r}")
    from pbem.bots import named

    return getattr(named, name)
