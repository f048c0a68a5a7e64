"""Ruleset options as documented: ``--option K=V`` is refused unless ``K`` is an option the
ruleset lists (``Ruleset.options_help``) and ``V`` one of the values it lists there.

The list is the promise made in ``pbem new --help`` and ``pbem rules``, so it is also the
check: ``on|off`` takes ``on`` or ``off`` (not ``yes``), ``1-5`` a whole number from 1 to 5.
Values described in words (a path, "6 or 8 of ...") are left to the ruleset's own
``parse_options``, which reads every value in any case. A ruleset that documents no option
is left to ``parse_options`` alone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pbem.format.i18n import N_
from pbem.format.limits import check_digits
from pbem.ruleset.rules import OptionHelp, RulesError, Ruleset

_RANGE = re.compile(r"^(\d+)-(\d+)$")
_CHOICES = re.compile(r"^[A-Za-z0-9_.]+(\|[A-Za-z0-9_.]+)+$")


def allowed(option: OptionHelp) -> list[str] | range | None:
    """The values ``option`` takes, when its help lists them: a list of words, a range of
    whole numbers, or None (described in words)."""
    if _CHOICES.match(option.values):
        return option.values.split("|")
    found = _RANGE.match(option.values)
    if found:
        return range(int(found[1]), int(found[2]) + 1)
    return None


def check_options(rules: Ruleset, raw: Mapping[str, str]) -> None:
    """Refuse, citing what is allowed, an option or a value the ruleset does not list."""
    documented = {o.name: o for o in rules.options_help()}
    if not documented:
        return
    for name, value in raw.items():
        option = documented.get(name)
        if option is None:
            known = ", ".join(documented)
            raise RulesError(
                N_("{id} has no option {name!r} (its options: {known})").format(
                    id=rules.id, name=name, known=known
                )
            )
        values = allowed(option)
        if isinstance(values, list) and value not in values:
            raise RulesError(
                N_("option {name} takes {values}, not {value} ({help})").format(
                    name=name, values=" or ".join(values), value=_shown(value), help=option.help
                )
            )
        if isinstance(values, range) and not (
            value.isascii() and value.isdigit() and int(value) in values
        ):
            raise RulesError(
                N_(
                    "option {name} takes a whole number from {low} to {high}, not {value} ({help})"
                ).format(
                    name=name,
                    low=values.start,
                    high=values.stop - 1,
                    value=_shown(value),
                    help=option.help,
                )
            )


def normal_options(rules: Ruleset, raw: Mapping[str, str]) -> dict[str, Any]:
    """``--option K=V`` values checked against what ``rules`` documents (``check_options``)
    and normalized by it (``Ruleset.parse_options``): the options a genesis holds."""
    for name, value in raw.items():  # before anything converts it, a ruleset's int() too
        _short_numbers(name, value)
    check_options(rules, raw)
    return rules.parse_options(raw)


def _short_numbers(name: str, value: str) -> None:
    """A value written as a number is held to the integer limit before anything converts
    it (``pbem.format.limits``): an ``OverLimit``, exit 1, like any input over a limit."""
    if value.strip().lstrip("+-").isdigit():
        check_digits(value, f"option {name}")


def _shown(value: str) -> str:
    """A refused value as a message quotes it: whole when short."""
    return repr(value) if len(value) <= 40 else f"{value[:20]!r}… ({len(value)} characters)"
