"""Whole games played only through mail: three keyrings, three IMAP mailboxes, one SMTP
server. Robots (``pbem watch --once``) make every automatic step; when a robot's notify
command says a decision is awaited, a bot chooses and the player runs ``pbem play`` and
``pbem send``, as a person would. Prints the measures the issue asks for (run with -s)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pbem.crypto.keyring import Keyring
from pbem.crypto.randomness import Rng
from pbem.format import gamefile
from pbem.ledger.awaiting import decides, describe_awaiting
from pbem.ledger.replay import Replay, replay_file
from pbem.play.author import knowledge
from pbem.ruleset import registry
from tests.mail.conftest import Player, new_game
from tests.mail.servers import Smtp


@dataclass
class Decision:
    """A decision a player made, in the leg (the wave of mail) it was made in."""

    wave: int
    round: int
    phase: str


class Table:
    """Drives the players in waves: every message sent in one wave arrives at the start of
    the next (the SMTP server holds it until then), so a wave is one sequential mail leg.
    In a wave, each player with new mail runs the robot, then makes the decisions its
    notifications asked for, each with one command (``pbem play ... --send``)."""

    def __init__(
        self,
        players: list[Player],
        smtp: Smtp,
        ruleset: str,
        bot: str,
        seed: int,
        robots: dict[str, list[str]] | None = None,
    ) -> None:
        self.players = players
        self.robots = robots or {}  # more options of a player's pbem watch (say, --bot)
        self.events: dict[str, list[str]] = {p.name: [] for p in players}
        self.smtp = smtp
        self.rules = registry.get(ruleset)
        self.bot = self.rules.bot(bot)
        self.rng = Rng(seed.to_bytes(32, "big"))
        self.read = {p.name: 0 for p in players}
        self.decisions: list[Decision] = []
        self.human_commands = 0
        self.problems: list[str] = []
        self.wave = 0
        self.sent = {"robot": 0, "human": 0}
        self.final_text = ""

    def count(self, who: str, before: int) -> None:
        self.sent[who] += len(self.smtp.delivery.messages) - before

    def watch(self, player: Player) -> None:
        before = len(self.smtp.delivery.messages)
        more = self.robots.get(player.name, [])
        result = player.run("watch", "--once", "--as", player.name, *more, code=None)
        self.count("robot", before)
        assert result.exit_code in (0, 1), result.output
        self.problems += result.stderr.splitlines()
        self.events[player.name] += result.stdout.splitlines()

    def decide(self, player: Player) -> None:
        notes = player.notes.read_text().splitlines() if player.notes.exists() else []
        for short in dict.fromkeys(notes[self.read[player.name] :]):
            while (seat := self.awaits_decision(player, short)) is not None:
                self.move(player, seat, short)
        self.read[player.name] = len(notes)

    def awaits_decision(self, player: Player, short: str) -> int | None:
        store = player.store()
        replay = store.head(store.resolve(short)).position
        me = Keyring(player.home).card(player.name)
        seat = [c.sign_key for c in replay.cards].index(me.sign_key)
        return seat if decides(replay, seat) else None

    def move(self, player: Player, seat: int, short: str) -> None:
        store = player.store()
        replay = store.head(store.resolve(short)).position
        state = replay.state
        me = Keyring(player.home).load(player.name, None)
        action = self.bot(self.rules, state, seat, knowledge(replay, me), self.rng)
        text = self.rules.format_action(state, seat, action)
        phase = str(getattr(state, "phase", ""))
        self.decisions.append(Decision(self.wave, getattr(state, "round", 1), phase))
        self.human_commands += 1
        # One command per decision; when the next decision is the player's own again there
        # is nobody to mail, and the loop in ``decide`` goes on with it.
        before = len(self.smtp.delivery.messages)
        player.run("play", "--as", player.name, "--send", "--", short, text)  # ids may start "-"
        self.count("human", before)

    def next_wave(self) -> list[Player]:
        """Deliver the mail of the last wave; the players who got some."""
        self.wave += 1
        got = self.smtp.delivery.release()
        return [p for p in self.players if p.email in got]

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

    def morning_legs(self) -> dict[int, int]:
        """Per round: the legs from the last sealed placement (each player places as soon
        as the morning reaches them) to the next decision anyone can make: the placements'
        leg and the robots' reveals, 2 at best."""
        out = {}
        for r in sorted({d.round for d in self.decisions}):
            commits = [d.wave for d in self.decisions if (d.round, d.phase) == (r, "morning")]
            if not commits:
                continue
            later = [d.wave for d in self.decisions if d.wave > max(commits)]
            if later:
                out[r] = min(later) - max(commits)
        return out


def play_by_mail(
    players: list[Player],
    root: Path,
    smtp: Smtp,
    ruleset: str,
    bot: str,
    *options: str,
    robots: dict[str, list[str]] | None = None,
) -> tuple[Replay, Table]:
    table = Table(players, smtp, ruleset, bot, seed=11, robots=robots)
    smtp.delivery.hold = True
    players[0].run("send", new_game(players, root, ruleset, *options), "--as", players[0].name)
    while not table.over():
        due = table.next_wave()
        assert due, f"stalled: {table.where()} {table.problems[-5:]}"
        for player in due:
            table.watch(player)
        for player in due:
            table.decide(player)
    texts = [p.store().head(p.store().ids()[0]).text() for p in players]
    assert len(set(texts)) == 1  # every mailbox ends with the same game
    table.final_text = texts[0]
    assert table.problems == [], table.problems  # nothing is ever refused
    first = players[0].store()
    game = gamefile.decode(first.head(first.ids()[0]).text())
    final = replay_file(game, registry.get(game.genesis.ruleset.id))
    assert final.result is not None
    assert table.human_commands == len(table.decisions)  # one command per decision
    report(final, smtp, players, table)
    return final, table


def report(final: Replay, smtp: Smtp, players: list[Player], table: Table) -> None:
    messages = len(smtp.delivery.messages)
    rounds = getattr(final.state, "round", 1)
    seconds = sum(p.seconds for p in players)
    legs = table.morning_legs()
    print(
        f"\n{final.rules.id}, {len(players)} players by mail: {len(final.steps)} steps, "
        f"{final.signatures} signatures, {messages} messages ({messages / rounds:.1f} per "
        f"round over {rounds} rounds), {table.wave} legs in all, "
        f"{len(table.decisions)} decisions each one command ({table.sent['human']} "
        f"messages), {table.sent['robot']} messages from robots; sequential legs per morning "
        f"{sorted(legs.values()) if legs else '-'}; time in pbem {seconds:.1f} s, "
        f"{1000 * seconds / len(final.steps):.0f} ms per step"
    )


def test_a_guess_game_played_only_through_mail(
    trio: list[Player], tmp_path: Path, smtp: Smtp
) -> None:
    final, _ = play_by_mail(trio, tmp_path, smtp, "guess", "random", "rounds=1")
    assert final.state.round == 1  # type: ignore[union-attr]


def test_a_rattaneer_game_played_only_through_mail(
    trio: list[Player], tmp_path: Path, smtp: Smtp
) -> None:
    """Issue 17: one decision, one mail per player per round; a morning takes two legs
    (the sealed placements, then every robot's reveal), and nobody types anything but
    the decision."""
    final, table = play_by_mail(trio, tmp_path, smtp, "rattaneer", "greedy")
    legs = table.morning_legs()
    assert len(legs) >= final.state.round - 1  # type: ignore[union-attr]
    assert max(legs.values()) <= 2, legs
    rounds, seats = final.state.round, len(trio)  # type: ignore[union-attr]
    assert table.sent["human"] <= len(table.decisions)  # at most one mail per decision
    # The robots: the joins and the setup draw once, then per round a reveal each and at
    # most one beacon link for the night.
    assert table.sent["robot"] <= seats + 1 + rounds * (seats + 1), table.sent
    assert len(smtp.delivery.messages) <= 1 + table.sent["human"] + table.sent["robot"]
