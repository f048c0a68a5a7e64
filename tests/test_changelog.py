"""The version policy (docs/reference/versions.md) tied to what files pin: the changelog's
``Unreleased`` section names the file format pbem writes and every shipped game's id,
version and rules hash. A change to a game's code or data changes its hash, and this fails
until the changelog says so (and so until someone decides the version it needs)."""

from __future__ import annotations

import re
from pathlib import Path

import pbem
from pbem.format.gamefile import FORMAT
from pbem.ruleset import registry

CHANGELOG = Path(__file__).resolve().parents[1] / "CHANGELOG.md"


def unreleased() -> str:
    text = CHANGELOG.read_text(encoding="utf-8")
    section = text.split("\n## [Unreleased]\n", 1)[1].split("\n## [", 1)[0]
    return " ".join(section.split())


def test_the_unreleased_section_names_the_format_and_every_rules_hash() -> None:
    section = unreleased()
    assert f"File format: `{FORMAT}`." in section
    for target in sorted(registry.installed().values()):
        rules = registry.instance(target)
        line = f"`{rules.id} {rules.version}`, rules hash `{rules.content_hash()}`"
        assert line in section, f"CHANGELOG.md, [Unreleased], should say: {line}"


def test_releases_are_in_keep_a_changelog_form_and_name_this_version() -> None:
    text = CHANGELOG.read_text(encoding="utf-8")
    releases = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", text, re.M)
    assert releases and f"## [{pbem.__version__}]" in text
    versions = [tuple(map(int, r.split("."))) for r in releases]
    assert versions == sorted(versions, reverse=True)  # newest first
    kinds = set(re.findall(r"^### (\w+)$", text, re.M))
    assert kinds <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}
