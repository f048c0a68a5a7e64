"""What the games' bots are built from: a simulated world in which a bot may guess what its
seat cannot see (``simulate``), and a tree search over such guesses (``mcts``). A game's own
bots (its rules of thumb, its evaluation) live in the game's package; ``get`` names one for
whatever game it plays (``pbem.bots.get("mcts:16")``). It uses only ``pbem.ruleset`` and
what that uses."""

from pbem.bots.named import NamedBot, get

__all__ = ["NamedBot", "get"]
