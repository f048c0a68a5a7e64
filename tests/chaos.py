"""Whole games played the hard way, checked at every write (issue 25, architecture §10).

A ``Chaos`` table plays one game of any ruleset as its players would by mail: each player
in a home of their own, or several in one home, every step made by a ``pbem`` command (in
this process, through click) or by the store's own functions (the path the robot and the
board page take), the files carried between homes by a simulated mail that delivers late,
out of order and twice. At random moments it injects what goes wrong in correspondence
games: a player falls silent and the others call it after the deadline (a stand-in decides,
or the escrow holders open the seat's secret), a player resigns, a seat is handed over to
a substitute, two players act on copies that crossed in the mail, a home reads an old
file, and a ``pbem play`` process is killed with SIGKILL in the middle of its work.

After every command it checks what the issue promises:

- every file ever written verifies from nothing (``Verifier``: a replay from the genesis,
  or from a verified prefix of the same steps);
- no command ever ends in a bug (exit 3) or a traceback;
- every store's chain is a prefix of every other's, or the other way round (no store has
  refused a copy as a fork: honest players never fork);
- nothing was signed twice for one decision: over all homes' journals, one item per
  (game, parent, seat, decision).

``ChaosReport`` counts the games, steps, faults injected and files verified.
"""

from __future__ import annotations

import hashlib
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from pbem.cli.main import main
from pbem.crypto.keyring import Keyring
from pbem.crypto.randomness import Rng
from pbem.format import gamefile
from pbem.format.errors import PbemError
from pbem.ledger.awaiting import decides, owes_automatic, waits_for
from pbem.ledger.checkpoint import restore, snapshot
from pbem.ledger.interruptions import still_to_sign
from pbem.ledger.position import Position
from pbem.ledger.replay import check_cached
from pbem.play.author import knowledge
from pbem.play.playing import play_moves
from pbem.ruleset import registry
from pbem.store.store import Store

ROOT = Path(__file__).resolve().parents[1]
RULESETS = "tests.rulesets.guess:GuessGame,tests.rulesets.peek:PeekGame"
START = 1_767_225_600
DEADLINE = 3600


@dataclass
class ChaosReport:
    """What a run of tables survived."""

    games: int = 0
    steps: int = 0
    commands: int = 0
    files: int = 0
    faults: Counter[str] = field(default_factory=Counter)

    def add(self, other: ChaosReport) -> None:
        self.games += other.games
        self.steps += other.steps
        self.commands += other.commands
        self.files += other.files
        self.faults.update(other.faults)

    def line(self) -> str:
        faults = ", ".join(f"{n} {k}" for k, n in sorted(self.faults.items())) or "none"
        return (
            f"{self.games} games, {self.steps} steps, {self.commands} commands, "
            f"{self.files} files written and verified from nothing; faults injected: {faults}"
        )


class Verifier:
    """Every file verifies from nothing: a replay from the genesis of the file alone. A
    file whose steps extend a prefix verified before may continue from that prefix's
    position (kept as a checkpoint: the replay of the prefix is the same computation), so
    that a game of hundreds of files costs about one replay, not one each; every ``full``-th
    file is replayed from its genesis all the same (1: every one)."""

    def __init__(self, full: int = 10) -> None:
        self.known: dict[bytes, bytes] = {}
        """The position after a prefix of complete steps, by the hash of their hashes."""
        self.full = full
        self.count = 0

    def check(self, data: bytes) -> Position:
        """Verify ``data``; ``AssertionError`` naming the problem when it does not."""
        self.count += 1
        game = gamefile.decode(data)
        rules = registry.get(game.genesis.ruleset.id)
        keys, key = [], hashlib.sha256(game.genesis.canonical_bytes())
        for step in game.steps[:-1]:
            key.update(hashlib.sha256(step.canonical_bytes()).digest())
            keys.append(key.digest())
        start, pos = 0, None
        if self.count % self.full:
            for k in range(len(keys), 0, -1):
                if keys[k - 1] in self.known:
                    blob = self.known[keys[k - 1]]
                    pos = restore(blob, game.genesis, gamefile.step_hash(game.genesis), rules)
                    start = k
                    break
        if pos is None:
            pos = Position.start(game.genesis, rules)
        for k, step in enumerate(game.steps[start:], start):
            pos.add(step)
            if k < len(keys) and keys[k] not in self.known:
                self.known[keys[k]] = snapshot(pos)
        check_cached(pos, game.state)
        return pos


@dataclass
class Home:
    """A ``PBEM_HOME`` and the identities it holds; ``inbox`` the files mailed to it."""

    path: Path
    names: list[str]
    inbox: list[Path] = field(default_factory=list)

    def store(self) -> Store:
        return Store(self.path)


class Chaos:
    """One game, its players in their homes, the mail between them, and the faults."""

    def __init__(
        self,
        root: Path,
        ruleset: str,
        players: int,
        seed: int,
        *,
        options: tuple[str, ...] = (),
        layout: str = "separate",
        faults: float = 0.05,
        kills: bool = True,
        verifier: Verifier | None = None,
    ) -> None:
        self.root = root
        self.rng = random.Random(seed)
        self.seed = seed
        self.ruleset = ruleset
        self.rules = registry.get(ruleset)
        self.faults = faults
        self.kills = kills
        self.verifier = verifier or Verifier()
        self.report = ChaosReport(games=1)
        self.now = START
        self.names = [f"p{i}" for i in range(players)]
        self.spare = "sub"
        self.silent: set[str] = set()
        self.refusals: list[str] = []
        """What commands refused (a seat acting on an old copy, say): shown when a game
        stalls."""
        self.written: list[Path] = []
        self.files = 0
        self.homes = self._homes(layout)
        for home in self.homes:
            for name in home.names:
                self.cli(
                    home, "key", "new", name, "--email", f"{name}@example.org", "--no-passphrase"
                )
                self.cli(home, "key", "export", name, "-o", root / f"{name}.card.json")
        creator = self.home_of(self.names[0])
        seats = [a for n in self.names for a in ("--seat", self._card(creator, n))]
        opts = [a for o in options for a in ("--option", o)]
        escrow = ["--escrow", "none"] if players < 3 else []
        first = self.out(creator)
        self.cli(
            creator,
            "new",
            ruleset,
            *seats,
            *opts,
            "--deadline",
            "1h",
            *escrow,
            "--as",
            self.names[0],
            "-o",
            first,
        )
        self.game = gamefile.read(first).genesis.game
        self.mail(creator, first)

    # ----- homes, commands, mail ------------------------------------------------------------

    def _homes(self, layout: str) -> list[Home]:
        names = list(self.names)
        if layout == "one":
            groups = [names]
        elif layout == "separate":
            groups = [[n] for n in names]
        else:  # mixed: some share a home
            self.rng.shuffle(names)
            cut = self.rng.randint(1, len(names) - 1)
            groups = [names[:cut], *([n] for n in names[cut:])]
        homes = [Home(self.root / f"home{i}", g) for i, g in enumerate(groups)]
        homes.append(Home(self.root / "home-sub", [self.spare]))
        for home in homes:
            (home.path / "work").mkdir(parents=True)
        return homes

    def home_of(self, name: str) -> Home:
        return next(h for h in self.homes if name in h.names)

    def _card(self, creator: Home, name: str) -> str:
        return name if name in creator.names else str(self.root / f"{name}.card.json")

    def env(self, home: Home) -> dict[str, str]:
        return {
            "PBEM_HOME": str(home.path),
            "PBEM_TEST_CLOCK": str(self.now),
            "PBEM_TEST_FAST_KDF": "1",
            "PBEM_RULESETS": RULESETS,
        }

    def cli(self, home: Home, *args: Any) -> int:
        """A ``pbem`` command in ``home``: never a bug, never a traceback."""
        self.now += 1
        self.report.commands += 1
        result = CliRunner().invoke(main, [str(a) for a in args], env=self.env(home))
        assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            args,
            result.exception,
        )
        assert "Traceback" not in result.output, result.output
        if result.exit_code:
            self.refusals.append(f"{' '.join(map(str, args[:2]))}: {result.output.strip()}")
        return result.exit_code

    def out(self, home: Home) -> Path:
        self.files += 1
        return home.path / "work" / f"f{self.files:05d}.json"

    def mail(self, sender: Home, path: Path) -> None:
        """A file written: it must verify from nothing; then it goes to every other home."""
        if not path.exists():
            return  # the command refused, or nothing needed writing
        self.verifier.check(path.read_bytes())
        self.report.files += 1
        self.written.append(path)
        for home in self.homes:
            if home is not sender:
                home.inbox.append(path)

    def read_mail(self, home: Home) -> None:
        """Some of the mail, in any order; now and then an old file read again."""
        if not home.inbox:
            return
        k = self.rng.randint(1, len(home.inbox))
        batch = self.rng.sample(home.inbox, k)
        home.inbox = [p for p in home.inbox if p not in batch]
        if self.written and self.rng.random() < self.faults:
            batch.append(self.rng.choice(self.written))
            self.report.faults["old file read again"] += 1
        for path in batch:
            if self.rng.random() < 0.5:
                self.cli(home, "log", path, "--json")  # a reading command imports the file
            else:
                try:
                    home.store().import_file(path)
                except PbemError as exc:
                    raise AssertionError(f"{path}: {exc}") from exc

    # ----- what a seat does ---------------------------------------------------------------------

    def head(self, home: Home) -> Position | None:
        store = home.store()
        return store.head(self.game).position if self.game in store.ids() else None

    def act(self, home: Home, name: str) -> bool:
        """What ``name`` owes on its home's newest head: its automatic steps, a decision
        (a random legal move for what it knows), or its signature on a call or handover."""
        pos = self.head(home)
        if pos is None or pos.result is not None or name in self.silent:
            return False
        card = Keyring(home.path).card(name)
        keys = [c.sign_key for c in pos.cards]
        seat = keys.index(card.sign_key) if card.sign_key in keys else None
        if pos.interrupt is not None:
            if not waits_for(pos, card):
                return False
            first = pos.interrupt.envelopes[0]
            if first.decision == "unseal":
                return self.write(home, "play", self.game, "--as", name)
            if first.decision == "call":
                seats = [pos.names[s] for s in first.body["seats"]]
                return self.write(home, "call", self.game, *seats, "--as", name)
            if first.decision == "handover":
                to = str(self.root / f"{first.body['card']['name']}.card.json")
                return self.write(home, "handover", self.game, "--to", to, "--as", name)
            return False
        if pos.demand is not None:  # an escrow is being opened: only its holders sign
            return self._referee(home, name, pos)
        if seat is None or not (decides(pos, seat) or owes_automatic(pos, seat)):
            return False
        move = self._move(home, name, pos, seat) if decides(pos, seat) else None
        if self.kills and self.rng.random() < self.faults / 2:
            self.kill(home, name, move)
            return True  # the next look starts from what the killed command left
        if self.rng.random() < 0.5:  # the command line
            return self.write(home, "play", self.game, *([move] if move else []), "--as", name)
        me = Keyring(home.path).load(name, None)
        store = home.store()
        self.now += 1
        os.environ["PBEM_TEST_CLOCK"] = str(self.now)  # the claimed time of what it signs
        played = play_moves(store, self.game, me, [move] if move else [], "chaos")
        path = self.out(home)
        store.export_to(self.game, path, played.head)
        self.mail(home, path)
        return True

    def _referee(self, home: Home, name: str, pos: Position) -> bool:
        """An escrow holder owes its share when a call opens an escrow (``play`` makes it)."""
        key = Keyring(home.path).card(name).sign_key
        holders = [c.sign_key for c in [*pos.cards, *pos.genesis.escrow.referees]]
        if pos.demand is None or key not in holders:
            return False
        if holders.index(key) not in pos.demand.seats:
            return False
        return self.write(home, "play", self.game, "--as", name)

    def _move(self, home: Home, name: str, pos: Position, seat: int) -> str:
        me = Keyring(home.path).load(name, None)
        rng = Rng(self.rng.randbytes(32))
        action = self.rules.bot("random")(self.rules, pos.state, seat, knowledge(pos, me), rng)
        return self.rules.format_action(pos.state, seat, action)

    def write(self, home: Home, *args: Any) -> bool:
        """A signing command with a new file; the file, if any, is mailed."""
        path = self.out(home)
        code = self.cli(home, *args, "-o", path)
        self.mail(home, path)
        return code == 0

    def kill(self, home: Home, name: str, move: str | None) -> None:
        """``pbem play`` as a process of its own, killed with SIGKILL after a moment: the
        store must open afterwards and hold either all of the step or none of it."""
        self.report.faults["pbem play killed with SIGKILL"] += 1
        env = {**os.environ, **self.env(home), "PYTHONPATH": str(ROOT)}
        path = self.out(home)
        args = ["play", self.game, *([move] if move else []), "--as", name, "-o", path]
        code = "from pbem.cli.main import main; main()"
        proc = subprocess.Popen(
            [sys.executable, "-c", code, *map(str, args)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(self.rng.uniform(0.05, 0.6))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        self.head(home)  # the store opens and restores its head
        if path.exists():
            self.mail(home, path)  # written whole, or not at all
            return
        # No file: the player runs the command again, as one does after a crash. If the
        # killed one had kept its step, pbem refuses the move and says how to write the
        # file that carries the step (else the others would wait for it for ever).
        again = self.write(home, "play", self.game, *([move] if move else []), "--as", name)
        if not again and "in no file yet" in self.refusals[-1]:
            self.write(home, "play", self.game, "--as", name)

    # ----- faults ---------------------------------------------------------------------------------

    def inject(self) -> None:
        """Now and then: a seat falls silent, resigns, or is handed over. Not handed over
        where the other seats hold each one's escrow: the escrow shares a seat holds are
        sealed to its first player's key, which a handover does not pass on, so a
        substitute cannot open another seat's escrow (a known limit, architecture §11)."""
        pos = self.head(self.homes[0])
        if pos is None or pos.result is not None or pos.awaiting is None:
            return
        active = [n for n in self.names if n not in self.silent and self._seated(pos, n)]
        kind = self.rng.choice(["silence", "silence", "resign", "handover"])
        escrow = pos.genesis.escrow.mode != "none"  # else a call on a share ends the game
        # Keep two seats' secrets private: a draw needs a supplier whose links nobody
        # knows, so a game whose every secret is public cannot go on (architecture §5).
        private = [
            s for s in range(len(pos.cards)) if s not in pos.published and s not in pos.resigned
        ]
        room = len(private) > 2 and pos.state is not None  # and nobody is called at the join
        if kind == "silence" and len(active) > 1 and not self.silent and escrow and room:
            self.silent.add(self.rng.choice(active))
            self.report.faults["a seat fell silent"] += 1
        # pbem resigns and hands a seat over while the game waits for that seat alone
        alone = [pos.names[s] for s in pos.remaining()]
        name = alone[0] if len(alone) == 1 and alone[0] in active else None
        if kind == "resign" and name is not None and len(active) > 2 and room:
            if self.write(self.home_of(name), "resign", self.game, "--as", name):
                self.report.faults["a seat resigned"] += 1
        elif (
            kind == "handover"
            and name is not None
            and self.spare not in self.names
            and (
                pos.genesis.escrow.mode != "others"  # see ``Chaos.inject``
            )
        ):
            to = self.root / f"{self.spare}.card.json"
            if self.write(self.home_of(name), "handover", self.game, "--to", to, "--as", name):
                self.report.faults["a seat handed over"] += 1
                self.names = [self.spare if n == name else n for n in self.names]

    def _seated(self, pos: Position, name: str) -> bool:
        return any(c.name == name for c in pos.cards)

    def _active(self, pos: Position, name: str) -> bool:
        """Seated and not resigned: only such a seat signs a call (``ledger.seats.active``)."""
        return any(c.name == name and s not in pos.resigned for s, c in enumerate(pos.cards))

    def call_the_silent(self) -> bool:
        """The game waits only for silent seats: the deadline passes, the others call."""
        pos = self.head(self.homes[0])
        if pos is None or pos.result is not None:
            return False
        if pos.interrupt is not None:
            # A call or a handover waits for a silent seat's signature: nothing can move
            # until it signs (issue 34 makes a called seat's own answer void such a call),
            # so here the player comes back.
            back = {c.name for c in still_to_sign(pos)} & self.silent
            if back:
                self.silent -= back
                self.report.faults["a silent seat came back to sign"] += len(back)
            return bool(back)
        late = [pos.names[s] for s in pos.remaining()]
        if not late or not set(late) <= self.silent:
            return False
        self.now += DEADLINE + 1
        caller = next((n for n in self.names if n not in late and self._active(pos, n)), None)
        if caller is None:
            return False
        home = self.home_of(caller)
        if not self.write(home, "call", self.game, *late, "--as", caller):
            return False
        self.report.faults["a call after the deadline"] += 1
        self.silent -= set(late)  # they may come back: the store voids a call they answered
        return True

    # ----- the game ---------------------------------------------------------------------------

    def run(self, most: int = 20_000) -> ChaosReport:
        """Play until the game is over in every home, checking every file and store."""
        for _ in range(most):
            home = self.rng.choice(self.homes)
            self.read_mail(home)
            names = list(home.names)
            self.rng.shuffle(names)
            moved = any([self.act(home, name) for name in names])
            if self.rng.random() < self.faults:
                self.inject()
            idle = not moved and not any(h.inbox for h in self.homes)
            if idle and not self.call_the_silent() and not self._anyone_moves():
                break
        self.finish()
        return self.report

    def _anyone_moves(self) -> bool:
        return any(self.act(h, n) for h in self.homes for n in h.names)

    def finish(self) -> None:
        """Deliver the newest files everywhere: every home ends at the same verified head,
        no store refused a copy, and nothing was signed twice for one decision."""
        for home in self.homes:
            for path in dict.fromkeys([*home.inbox, *self.written[-12:]]):
                home.store().import_file(path)
            home.inbox = []
        heads = {}
        for home in self.homes:
            store = home.store()
            if self.game not in store.ids():
                continue
            heads[home.path.name] = store.head(self.game).text()
            refused = store.db.execute("SELECT label, reason FROM refused").fetchall()
            assert not refused, refused
        assert len(set(heads.values())) == 1, {k: len(v) for k, v in heads.items()}
        final = self.verifier.check(next(iter(heads.values())).encode())
        assert final.result is not None, f"the game did not end: {self.where()}"
        self.report.steps += final.count
        self._one_item_per_decision()

    def where(self) -> str:
        """Each home's head and what it awaits, and the silent seats: why a game stalled."""
        from pbem.ledger.awaiting import describe_awaiting

        parts = []
        for home in self.homes:
            store = home.store()
            if self.game in store.ids():
                head = store.head(self.game)
                parts.append(f"{home.path.name}: {head.label}: {describe_awaiting(head.position)}")
        last = " | ".join(self.refusals[-5:])
        return "; ".join(parts) + f"; silent: {sorted(self.silent)}; refused: {last}"

    def _one_item_per_decision(self) -> None:
        signed: dict[tuple[Any, ...], bytes] = {}
        for home in self.homes:
            rows = home.store().db.execute("SELECT game, parent, seat, decision, item FROM journal")
            for game, parent, seat, decision, item in rows:
                key = (game, parent, seat, decision)
                assert signed.setdefault(key, item) == item, f"two items signed for {key}"
