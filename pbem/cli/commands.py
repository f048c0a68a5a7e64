"""The table of ``pbem``'s commands, apart from ``main`` so that both the command line and
the extraction of their help texts (``pbem.cli.helptexts``) read it without importing
each other."""

from __future__ import annotations

from pbem.format.i18n import N_

#: Every command, by name: the module and attribute that define it, and the line that
#: ``pbem --help`` and shell completion show for it, given here so that listing the commands
#: imports none of them (a TAB costs what the command completed needs, not all of pbem).
COMMANDS = {
    "new": ("pbem.cli.game:new", N_("Create a game of a ruleset and sign its genesis.")),
    "play": ("pbem.cli.game:play", N_("Check your move, sign it and write the new file.")),
    "merge": ("pbem.cli.game:merge", N_("Combine copies of one game that arrived apart.")),
    "export": ("pbem.cli.game:export", N_("Write your newest copy of a game as a file.")),
    "call": ("pbem.cli.rescue:call", N_("Call seats awaited past their deadline.")),
    "resign": ("pbem.cli.rescue:resign", N_("Give up your seat to a stand-in.")),
    "handover": ("pbem.cli.rescue:handover", N_("Hand your seat to a substitute, or co-sign it.")),
    "status": ("pbem.cli.look:status", N_("Show the table and what is awaited from whom.")),
    "moves": ("pbem.cli.look:moves", N_("List your legal moves now, with their notation.")),
    "log": ("pbem.cli.look:log", N_("The verified history, one line per step.")),
    "verify": ("pbem.cli.verify:verify", N_("Re-check every signature, proof and rule of files.")),
    "show": ("pbem.cli.show:show", N_("Draw the game as a page: board, players, history.")),
    "key": ("pbem.cli.key:key", N_("Identities: your keys and the other players' cards.")),
    "send": ("pbem.cli.mail:send", N_("Mail your newest copy of a game to the players.")),
    "receive": ("pbem.cli.mail:receive", N_("Import the game files in mail.")),
    "games": ("pbem.cli.mail:games", N_("The games in your store and whose move it is.")),
    "watch": ("pbem.cli.mail:watch", N_("The mail robot: import, answer and send by IMAP.")),
    "config": ("pbem.cli.mailconfig:config", N_("Mail settings: SMTP, IMAP, the notify command.")),
    "rules": ("pbem.cli.rules:rules", N_("The rules of a game, or one section of them.")),
    "selfplay": ("pbem.cli.selfplay:selfplay", N_("Play complete games with bots.")),
    "schema": ("pbem.cli.schema:schema", N_("Write the JSON Schemas of the file format.")),
    "ui": ("pbem.cli.ui:ui", N_("Show your games in the browser and play them there.")),
}
