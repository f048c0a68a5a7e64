"""``pbem schema``: write (or check) the JSON Schemas generated from the models."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from pbem.cli.common import emit, json_option, reports_errors
from pbem.format.card import IdentityCard
from pbem.format.errors import Rejected, UsageError
from pbem.format.files import atomic_write
from pbem.format.gamefile import GameFile
from pbem.format.i18n import N_, _
from pbem.format.resources import resource_dir
from pbem.ruleset import registry

DIALECT = "https://json-schema.org/draft/2020-12/schema"
ID_PREFIX = "urn:pbem:schema:"


def all_schemas() -> dict[str, dict[str, Any]]:
    """Every published schema by file stem: the file format, identity cards, and what each
    installed ruleset publishes (its state, actions and data files)."""
    out: dict[str, dict[str, Any]] = {
        "game-file": GameFile.model_json_schema(),
        "identity-card": IdentityCard.model_json_schema(),
    }
    for target in sorted(registry.installed().values()):
        out.update(registry.instance(target).schemas())
    return {stem: publish(stem, schema) for stem, schema in out.items()}


INTEGER_NOTE = (
    "written as an integer literal, without fraction or exponent: pbem refuses 0.0 and 1e0 "
    "(format.md §1), which JSON Schema's integer type cannot tell from 0 and 1"
)


def publish(stem: str, schema: dict[str, Any]) -> dict[str, Any]:
    """A pydantic schema as plain JSON Schema 2020-12 that any validator reads the same:
    ``$schema`` and ``$id`` added, unions as ``oneOf`` (every union the models use is
    disjoint: by ``const`` kinds, or by JSON type), and OpenAPI's ``discriminator``, which
    JSON Schema validators ignore, removed. Every integer says that it is written without
    a fraction (``INTEGER_NOTE``): JSON Schema counts ``0.0`` as an integer, pbem does not,
    and a schema cannot say so otherwise."""

    def plain(node: Any) -> Any:
        if isinstance(node, dict):
            out = {
                ("oneOf" if key == "anyOf" else key): plain(value)
                for key, value in node.items()
                if key != "discriminator"
            }
            if out.get("type") == "integer":
                out["$comment"] = INTEGER_NOTE
            return out
        if isinstance(node, list):
            return [plain(item) for item in node]
        return node

    return {"$schema": DIALECT, "$id": f"{ID_PREFIX}{stem}", **plain(schema)}


def _is_schema(path: Path) -> bool:
    """Whether ``path`` is a schema this command wrote (its ``$id`` says so): the only
    files it replaces or removes; any other file in the folder is left as it is."""
    try:
        value = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return False
    return isinstance(value, dict) and str(value.get("$id", "")).startswith(ID_PREFIX)


def _text(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=1, sort_keys=True) + "\n"


@click.command()
@click.option(
    "--dir",
    "directory",
    type=click.Path(path_type=Path),
    help="Where to write them (default: the working folder) or, with --check, the ones to "
    "check (default: those pbem ships).",
)
@click.option("--check", is_flag=True, help="Fail if the files differ from the models.")
@json_option
@reports_errors
def schema(directory: Path | None, check: bool, as_json: bool) -> None:
    """Write the JSON Schemas of the file format, identity cards and rulesets. Never into
    pbem's own installation: without --dir they go to the working folder."""
    if directory is None:
        directory = resource_dir("schemas") if check else Path.cwd()
    wanted = {f"{stem}.json": _text(s) for stem, s in all_schemas().items()}
    if check:
        stale = sorted(
            name
            for name, text in wanted.items()
            if not (directory / name).is_file() or (directory / name).read_text() != text
        )
        extra = sorted(
            p.name for p in directory.glob("*.json") if p.name not in wanted and _is_schema(p)
        )
        if stale or extra:
            raise Rejected(
                N_(
                    "schemas in {dir} are out of date: {names}; run 'pbem schema --dir {dir}'"
                ).format(dir=directory, names=", ".join(stale + extra))
            )
        report = {"dir": str(directory), "schemas": sorted(wanted), "up_to_date": True}
        said = _("{n} schemas in {dir} are up to date").format(n=len(wanted), dir=directory)
        emit(as_json, report, [said])
        return
    foreign = [n for n in wanted if (directory / n).exists() and not _is_schema(directory / n)]
    if foreign:
        raise UsageError(
            N_(
                "{path} exists and is not a pbem schema: pbem never writes over it "
                "(name another --dir)"
            ).format(path=directory / foreign[0])
        )
    directory.mkdir(parents=True, exist_ok=True)
    for name, text in wanted.items():
        atomic_write(directory / name, text.encode())
    for path in directory.glob("*.json"):
        if path.name not in wanted and _is_schema(path):  # one a model no longer makes
            path.unlink()
    report = {"dir": str(directory), "schemas": sorted(wanted), "wrote": len(wanted)}
    said = _("wrote {n} schemas to {dir}").format(n=len(wanted), dir=directory)
    emit(as_json, report, [said])
