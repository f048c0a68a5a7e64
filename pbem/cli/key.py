"""``pbem key``: make, list, export and import identities (architecture §4, §8).

The commands are thin: they read arguments and passphrases, call :mod:`pbem.crypto.keyring`
and say what happened and what to do next. Errors from the core become one line on stderr
and the exit code the error carries (1 rejected, 2 usage or I/O), never a traceback.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

import click

from pbem.cli.common import read_passphrase, reports_errors
from pbem.crypto.keyring import Keyring
from pbem.format.canonical import pretty
from pbem.format.card import IdentityCard
from pbem.format.errors import UsageError
from pbem.format.files import write_new
from pbem.format.i18n import N_, _

#: What ``--lang`` of ``pbem key new`` and ``pbem key lang`` take (``pbem.format.card``).
CARD_LANGS = click.Choice(["en", "ja", "zh-Hant", "zh-Hans"])


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
@click.option(
    "--lang",
    "card_lang",
    type=CARD_LANGS,
    help="The language you read pbem's mail in, written on your card (signed with it).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@reports_errors
def new_command(
    name: str, email: str, no_passphrase: bool, card_lang: str | None, as_json: bool
) -> None:
    """Create the identity NAME and store it in the keyring. NAME may be written in any
    script (one at a time); it is kept in Unicode normal form NFC."""
    name = unicodedata.normalize("NFC", name)
    keyring = Keyring()
    # Check what can be checked before asking for a passphrase twice.
    keyring.check_new(name, email, card_lang)
    passphrase = None if no_passphrase else read_passphrase(name, new=True)
    identity = keyring.create(name, email, passphrase, card_lang)
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


@key.command("lang")
@click.argument("name")
@click.argument("language", type=CARD_LANGS, required=False)
@click.option("--clear", is_flag=True, help="Take the language off the card.")
@click.option("--json", "as_json", is_flag=True, help="Print the new card as JSON.")
@reports_errors
def lang_command(name: str, language: str | None, clear: bool, as_json: bool) -> None:
    """Write on the card of your identity NAME the LANGUAGE you read pbem's mail in (en,
    ja, zh-Hant or zh-Hans), signed again with the card. Games already begun keep the
    card they began with: export the card again and send it to the other players."""
    if (language is None) == (not clear):
        raise UsageError(N_("give a LANGUAGE, or --clear to take it off the card"))
    keyring = Keyring()
    if not keyring.has_identity(name):
        keyring.load(name, None)  # the refusal that says what NAME is
    passphrase = read_passphrase(name) if keyring.needs_passphrase(name) else None
    card = keyring.set_lang(name, language, passphrase).card
    if as_json:
        _emit_json(_card_json(card))
        return
    if card.lang is None:
        click.echo(_("the card of {name} names no language now").format(name=card.name))
    else:
        click.echo(
            _("the card of {name} asks for mail in {lang} now").format(
                name=card.name, lang=card.lang
            )
        )
    click.echo(
        _(
            "next: 'pbem key export {name} -o {name}.card.json' and send the card to the "
            "other players again"
        ).format(name=card.name)
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
    from pbem.cli.progress import columns  # names in CJK take two columns a character

    width = max(columns(card.label()) for card, _ in entries)
    for card, own in entries:
        mark = "*" if own else " "
        kind = "yours" if own else "card"
        pad = " " * (width - columns(card.label()))
        click.echo(f"{mark} {card.label()}{pad}  {card.fingerprint}  ({kind})")


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
