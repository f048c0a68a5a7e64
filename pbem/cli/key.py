"""``pbem key``: make, list, export and import identities (architecture §4, §8).

The commands are thin: they read arguments and passphrases, call :mod:`pbem.crypto.keyring`
and say what happened and what to do next. Errors from the core become one line on stderr
and the exit code the error carries (1 rejected, 2 usage or I/O), never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from pbem.cli.common import read_passphrase, reports_errors
from pbem.crypto.keyring import Keyring
from pbem.format.canonical import pretty
from pbem.format.card import IdentityCard
from pbem.format.errors import UsageError
from pbem.format.files import write_new


def _card_json(card: IdentityCard, **more: Any) -> dict[str, Any]:
    return {**card.model_dump(), **more}


def _emit_json(value: dict[str, Any]) -> None:
    click.echo(json.dumps({**value, "ok": True}, indent=1, sort_keys=True))


@click.group()
def key() -> None:
    """Identities: your keys and the cards of the other players."""


@key.command("new")
@click.argument("name")
@click.option("--email", required=True, help="Address where the other players reach you.")
@click.option(
    "--no-passphrase",
    is_flag=True,
    help="Store the key unsealed (for bots and tests): anyone who can read the file can sign.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@reports_errors
def new_command(name: str, email: str, no_passphrase: bool, as_json: bool) -> None:
    """Create the identity NAME and store it in the keyring."""
    keyring = Keyring()
    # Check what can be checked before asking for a passphrase twice.
    keyring.check_new(name, email)
    passphrase = None if no_passphrase else read_passphrase(name, new=True)
    identity = keyring.create(name, email, passphrase)
    card = identity.card
    if as_json:
        _emit_json(_card_json(card, sealed=passphrase is not None, keyring=str(keyring.home)))
        return
    click.echo(f"created identity {card.label()}")
    click.echo(f"fingerprint: {card.fingerprint}")
    if passphrase is None:
        click.echo("the key is stored WITHOUT a passphrase: keep the keyring private")
    click.echo(
        f"next: 'pbem key export {card.name} -o {card.name}.card.json', send that file to the "
        "other players and read them your fingerprint out of band"
    )


@key.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print the cards as JSON.")
@reports_errors
def list_command(as_json: bool) -> None:
    """List your identities (marked *) and the cards of other players."""
    keyring = Keyring()
    entries = keyring.list()
    if as_json:
        _emit_json({"cards": [_card_json(card, own=own) for card, own in entries]})
        return
    if not entries:
        click.echo(
            f"no identities or cards in the keyring at {keyring.home}; "
            "create one with 'pbem key new NAME --email ADDRESS'"
        )
        return
    width = max(len(card.label()) for card, _ in entries)
    for card, own in entries:
        mark = "*" if own else " "
        kind = "yours" if own else "card"
        click.echo(f"{mark} {card.label():<{width}}  {card.fingerprint}  ({kind})")


@key.command("export")
@click.argument("name")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the card to this file instead of stdout.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the card and where it went as JSON.")
@reports_errors
def export_command(name: str, output: Path | None, as_json: bool) -> None:
    """Write the public identity card of NAME (never the private key)."""
    card = Keyring().export(name)
    text = pretty(card.model_dump())
    if output is None:
        if as_json:
            _emit_json(_card_json(card, written=None))
        else:
            click.echo(text, nl=False)
        return
    data = text.encode("ascii")
    try:
        same = output.is_file() and output.read_bytes() == data  # exported before: done
        if not same and not write_new(output, data):
            raise UsageError(f"{output}: exists already; pbem never writes over a file")
    except OSError as exc:
        raise UsageError(f"cannot write {output}: {exc.strerror}") from None
    if as_json:
        _emit_json(_card_json(card, written=str(output)))
        return
    click.echo(f"wrote the card of {card.label()} to {output}")
    click.echo(f"fingerprint: {card.fingerprint}")
    click.echo("next: send that file to the other players and read them the fingerprint")


@key.command("import")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@reports_errors
def import_command(file: Path, as_json: bool) -> None:
    """Keep another player's identity card from FILE."""
    card, added = Keyring().import_card(file)
    if as_json:
        _emit_json(_card_json(card, imported=added))
        return
    if added:
        click.echo(f"imported the card of {card.label()}")
    else:
        click.echo(f"the card of {card.label()} is already in the keyring")
    click.echo(f"fingerprint: {card.fingerprint}")
    if added:
        click.echo(
            f"check this fingerprint with {card.name} out of band (in person, by phone) "
            "before playing"
        )
