"""Whole games played only through mail: three keyrings, three IMAP mailboxes, one SMTP
server. Robots (``pbem watch --once``) make every automatic step; when a robot's notify
command says a decision is awaited, a bot chooses and the player runs ``pbem play`` and
``pbem send``, as a person would. Prints the measures the issue asks for (run with -s)."""

from __future__ import annotations

from pathlib import Path

from pbem.core import gamefile, registry
from pbem.core.author import describe_awaiting, knowledge
from pbem.core.keys import Keyring
from pbem.core.position import Position
from pbem.core.randomness import Rng
from pbem.core.replay import Replay, replay_file
from pbem.mail.compose import needs_decision
from tests.mail.conftest import Player, new_game
from tests.mail.servers import Smtp


class Table:
    """Drives the players: robots first, then the decisions the notifications asked for."""

    def __init__(
        self, players: list[Player], smtp: Smtp, ruleset: str, bot: str, seed: int
    ) -> None:
        self.players = players
        self.smtp = smtp
        self.delivered = {p.email: 0 for p in players}
        self.again: set[str] = set()
        self.rules = registry.get(ruleset)
        self.bot = self.rules.bot(bot)
        self.rng = Rng(seed.to_bytes(32, "big"))
        self.read = {p.name: 0 for p in players}
        self.moves = 0
        self.problems: list[str] = []

    def watch(self, player: Player) -> None:
        result = player.run("watch", "--once", "--as", player.name, code=None)
        assert result.exit_code in (0, 1), result.output
        self.problems += result.stderr.splitlines()

    def decide(self, player: Player) -> None:
        notes = player.notes.read_text().splitlines() if player.notes.exists() else []
        for short in notes[self.read[player.name] :]:
            store = player.store()
            replay = store.head(store.resolve(short)).position
            me = Keyring(player.home).card(player.name)
            seat = [c.sign_key for c in replay.genesis.seats].index(me.sign_key)
            if seat in replay.remaining() and needs_decision(replay):
                self.move(player, replay, seat, short)
        self.read[player.name] = len(notes)

    def move(self, player: Player, replay: Position, seat: int, short: str) -> None:
        me = Keyring(player.home).load(player.name, None)
        action = self.bot(self.rules, replay.state, seat, knowledge(replay, me), self.rng)
        text = self.rules.format_action(replay.state, seat, action)
        self.moves += 1
        target = player.work / f"move-{self.moves:04d}.json"
        player.run("play", short, text, "--as", player.name, "-o", target)
        result = player.run("send", target, "--as", player.name, code=None)
        # When the next decision is the player's own again, there is nobody to mail: the
        # store has the new version and the robot's next pass notifies the player.
        assert result.exit_code == 0 or "the decision is yours" in result.stderr, result.output
        if result.exit_code:
            self.again.add(player.name)

    def due(self) -> list[Player]:
        """The players a robot pass would find something for: new mail, or their own move
        that nobody else was mailed about. (A real robot just looks every few minutes.)"""
        out = []
        for p in self.players:
            mail = sum(p.email in rcpt for _, rcpt, _ in self.smtp.delivery.messages)
            if mail > self.delivered[p.email] or p.name in self.again:
                self.delivered[p.email] = mail
                self.again.discard(p.name)
                out.append(p)
        return out

    def where(self) -> list[str]:
        out = []
        for p in self.players:
            store = p.store()
            for game in store.ids():
                head = store.head(game)
                out.append(f"{p.name}: {head.label}, {describe_awaiting(head.position)}")
        return out

    def over(self) -> bool:
        def done(p: Player) -> bool:
            store = p.store()
            ids = store.ids()
            return bool(ids) and all(store.head(g).position.result is not None for g in ids)

        return all(done(p) for p in self.players)


def play_by_mail(
    players: list[Player], root: Path, smtp: Smtp, ruleset: str, bot: str, *options: str
) -> Replay:
    table = Table(players, smtp, ruleset, bot, seed=11)
    players[0].run("send", new_game(players, root, ruleset, *options), "--as", players[0].name)
    passes = 0
    while not table.over():
        due = table.due()
        assert due, f"stalled: {table.where()} {table.problems[-5:]}"
        passes += 1
        for player in due:
            table.watch(player)
            table.decide(player)
    texts = [p.store().head(p.store().ids()[0]).text() for p in players]
    assert texts[0] == texts[1] == texts[2]  # every mailbox ends with the same game
    assert table.problems == [], table.problems  # nothing is ever refused
    first = players[0].store()
    game = gamefile.decode(first.head(first.ids()[0]).text())
    final = replay_file(game, registry.get(game.genesis.ruleset.id))
    assert final.result is not None
    report(final, smtp, players, passes)
    return final


def report(final: Replay, smtp: Smtp, players: list[Player], passes: int) -> None:
    messages = len(smtp.delivery.messages)
    rounds = getattr(final.state, "round", 1)
    seconds = sum(p.seconds for p in players)
    print(
        f"\n{final.rules.id}, {len(players)} players by mail: {len(final.steps)} steps, "
        f"{final.signatures} signatures, {messages} messages ({messages / rounds:.1f} per "
        f"round over {rounds} rounds), {passes} rounds of robot passes; time in pbem "
        f"{seconds:.1f} s, {1000 * seconds / len(final.steps):.0f} ms per step"
    )


def test_a_guess_game_played_only_through_mail(
    trio: list[Player], tmp_path: Path, smtp: Smtp
) -> None:
    final = play_by_mail(trio, tmp_path, smtp, "guess", "random", "rounds=1")
    assert final.state.round == 1  # type: ignore[union-attr]


def test_a_rattaneer_game_played_only_through_mail(
    trio: list[Player], tmp_path: Path, smtp: Smtp
) -> None:
    play_by_mail(trio, tmp_path, smtp, "rattaneer", "greedy")
