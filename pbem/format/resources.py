"""Where the shipped ``templates/`` and ``schemas/`` are: inside the installed package, or
at the top of a source checkout (an editable install), where they are kept."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # the pbem package


def resource_dir(name: str) -> Path:
    inside = _PACKAGE / name
    return inside if inside.is_dir() else _PACKAGE.parent / name
