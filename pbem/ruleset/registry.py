"""Rulesets by id.

Games are found through the ``pbem.rulesets`` entry point group, so a third party adds a
game by shipping a package that declares one. ``PBEM_RULESETS`` (``module:Class`` items,
comma-separated) adds rulesets that are not installed as packages, such as the test
ruleset under ``tests/``.
"""

from __future__ import annotations

import importlib
import os
from functools import cache
from importlib.metadata import entry_points

from pbem.format.errors import Rejected, UsageError
from pbem.format.i18n import N_
from pbem.ruleset.rules import Ruleset

GROUP = "pbem.rulesets"


def _load(target: str) -> type[Ruleset]:
    module_name, _, attr = target.partition(":")
    try:
        cls = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise UsageError(
            N_("cannot load ruleset {target!r}: {exc}").format(target=target, exc=exc)
        ) from exc
    if not (isinstance(cls, type) and issubclass(cls, Ruleset)):
        raise UsageError(N_("{target!r} is not a pbem Ruleset").format(target=target))
    return cls


@cache
def installed() -> dict[str, str]:
    """Ruleset id -> ``module:Class`` for the rulesets installed as packages: read once a
    process (scanning every installed package's metadata is what it costs)."""
    return {ep.name: ep.value for ep in entry_points(group=GROUP)}


def available() -> dict[str, str]:
    """``installed()`` plus the rulesets named in ``PBEM_RULESETS``."""
    found = dict(installed())
    for item in os.environ.get("PBEM_RULESETS", "").split(","):
        item = item.strip()
        if item:
            found[_load(item).id] = item
    return found


@cache
def instance(target: str) -> Ruleset:
    return _load(target)()


def get(ruleset_id: str) -> Ruleset:
    """The ruleset registered under ``ruleset_id``; an unknown id is a one-line error."""
    targets = available()
    if ruleset_id not in targets:
        known = ", ".join(sorted(targets)) or "none"
        raise Rejected(
            N_("unknown ruleset {ruleset_id!r} (installed: {known})").format(
                ruleset_id=ruleset_id, known=known
            )
        )
    return instance(targets[ruleset_id])
