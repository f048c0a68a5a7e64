"""What one seat may know beyond the public state: the only private input a bot gets.

The public state holds handles of sealed items, never their faces (architecture §7), and never a
sealed action before its reveal (architecture §6). A seat's own ``pbem`` can open more: the items
opened to it alone (its hand of region cards, the tokens its Witch looked at, the cards its
Astronomer drew) and its own committed action. ``Knowledge`` carries exactly that, so a bot
can play its hand without ever being handed another seat's secret. The engine builds it by
decryption on the seat's machine (``pbem.play.author.knowledge``); a rules-only driver
(``pbem.bots.simulate``) builds it from the faces it deals.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class Knowledge:
    """``opened``: handle -> item id of every sealed item opened to ``seat`` alone;
    ``sealed``: the seat's own committed action while it is still sealed, else None."""

    seat: int
    opened: Mapping[str, str] = field(default_factory=dict)
    sealed: Any | None = None

    def __post_init__(self) -> None:
        # A read-only copy: a bot cannot change what the engine handed it, nor see later
        # changes to the mapping it was built from.
        object.__setattr__(self, "opened", MappingProxyType(dict(self.opened)))
