"""The local game store: every version of every game this player received or produced.

Mail delivers copies of a game late, twice, out of order, or not at all, so nothing here
trusts arrival order: each incoming copy is compared with the stored head (the newest
verified file of that game) step by step. A copy that extends the head, or that holds
envelopes of the open parallel step that the head lacks, becomes the new head (merged).
A copy seen before changes nothing. A copy that is older than the head (rollback), that
diverges from it (fork) or that shows one seat signing two different steps (equivocation)
is refused with both heads and the step where they part; it is kept under ``refused/`` as
evidence. Email addresses play no part: a copy is accepted on its signatures alone.

Layout under ``PBEM_HOME/games/<game id>/``::

    head.json       the current head: verified, every envelope merged in
    summary.json    what ``pbem games`` lists, rewritten with the head (a cache)
    versions/       every accepted version, ``<signatures>-<sha256 prefix>.json``
    refused/        every refused version, same naming

Only local files are touched here, never the network.
"""

from __future__ import annotations

import contextlib
import copy
import fcntl
import hashlib
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pbem.core import gamefile, registry
from pbem.core.audit import Comparison, compare, proof_text
from pbem.core.author import describe_awaiting
from pbem.core.canonical import parse, pretty
from pbem.core.errors import Rejected, UsageError
from pbem.core.files import atomic_write
from pbem.core.gamefile import Batch, GameFile, step_hash
from pbem.core.keys import default_home
from pbem.core.replay import Record, Replay, replay_file

Status = Literal["new", "updated", "merged", "duplicate"]


@dataclass
class Imported:
    """What one import did. ``new_steps``: history lines the store did not have before
    (a merged envelope shows as its step once the step is complete)."""

    status: Status
    replay: Replay
    new_steps: list[Record]
    head: Path
    envelopes_added: int = 0


def short_id(game: str) -> str:
    """The first 8 characters of a game id: enough to tell one's games apart."""
    return game[:8]


def head_label(steps: list[gamefile.Entry | Batch]) -> str:
    """A head as people can compare it: step count, envelopes of an open batch, hash."""
    if not steps:
        return "0 steps (genesis only)"
    last = steps[-1]
    extra = f", last with {len(last.envelopes)} envelope(s)" if isinstance(last, Batch) else ""
    return f"{len(steps)} steps{extra}, head {step_hash(last)[:12]}"


def signatures(game: GameFile) -> int:
    """How many signatures a file holds: it orders versions of one game in a listing."""
    return 1 + sum(len(s.envelopes) if isinstance(s, Batch) else 1 for s in game.steps)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


#: Verified heads by the SHA-256 of their file, most recently used last.
_VERIFIED: OrderedDict[str, Replay] = OrderedDict()
VERIFIED_CACHE = 32


def _copy(replay: Replay) -> Replay:
    """A copy that callers may extend. What is never changed in place is shared: the
    ruleset, and the frozen genesis, steps and history records (five times faster)."""
    memo: dict[int, Any] = {id(replay.rules): replay.rules, id(replay.genesis): replay.genesis}
    memo.update((id(item), item) for item in (*replay.steps, *replay.records))
    return copy.deepcopy(replay, memo)


def _remember(key: str, replay: Replay) -> None:
    _VERIFIED[key] = replay
    while len(_VERIFIED) > VERIFIED_CACHE:
        _VERIFIED.popitem(last=False)


class Store:
    """The games under ``home/games``; one lock serializes writers (a robot and a person
    may import at the same moment)."""

    def __init__(self, home: Path | None = None) -> None:
        self.root = (home if home is not None else default_home()) / "games"

    def game_dir(self, game: str) -> Path:
        if not game or "/" in game or game.startswith("."):
            raise UsageError(f"bad game id {game!r}")
        return self.root / game

    def head_path(self, game: str) -> Path:
        return self.game_dir(game) / "head.json"

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        try:
            self.root.mkdir(mode=0o700, parents=True, exist_ok=True)
            handle = (self.root / ".lock").open("a")
        except OSError as exc:
            raise UsageError(f"cannot open the game store at {self.root}: {exc.strerror}") from None
        with handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            yield

    # ----- reading ---------------------------------------------------------------------------

    def head(self, game: str) -> GameFile | None:
        path = self.head_path(game)
        return gamefile.read(path) if path.exists() else None

    def load(self, game: str) -> Replay:
        """The verified head of a stored game (a short id prefix is enough)."""
        replay = self._verified_head(self.resolve(game))
        assert replay is not None
        return replay

    def _verified_head(self, game: str) -> Replay | None:
        """The head, verified once per content: the robot reads every head on every pass,
        and a long game takes a while to replay. Keyed by the file's bytes, so a head that
        changed on disk, by whatever means, is verified afresh."""
        path = self.head_path(game)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise UsageError(f"{path}: cannot read ({exc.strerror})") from exc
        key = hashlib.sha256(data).hexdigest()
        if key not in _VERIFIED:
            head = gamefile.decode(data, what=str(path))
            _remember(key, replay_file(head, registry.get(head.genesis.ruleset.id)))
        _VERIFIED.move_to_end(key)
        return _copy(_VERIFIED[key])

    def resolve(self, prefix: str) -> str:
        """The full id of the one stored game whose id starts with ``prefix``."""
        matches = [g for g in self.ids() if g.startswith(prefix)]
        if len(matches) != 1:
            what = "no stored game" if not matches else f"{len(matches)} stored games"
            raise UsageError(f"{what} with an id starting {prefix!r} (see: pbem games)")
        return matches[0]

    def ids(self) -> list[str]:
        if not self.root.is_dir():
            return []
        return sorted(p.name for p in self.root.iterdir() if (p / "head.json").is_file())

    def summaries(self) -> list[dict[str, Any]]:
        """What ``pbem games`` shows, from the cached summaries (newest first)."""
        out = []
        for game in self.ids():
            path = self.game_dir(game) / "summary.json"
            try:
                out.append(parse(path.read_bytes(), what=str(path)))
            except (OSError, Rejected):
                out.append(self._write_summary(self.load(game)))
        return sorted(out, key=lambda s: s["updated"], reverse=True)

    # ----- importing -------------------------------------------------------------------------

    def import_game(self, game: GameFile, label: str) -> Imported:
        """Verify ``game`` against the stored head and keep it; see the module doc for what
        is accepted. ``label`` names the copy in messages (a file, an attachment)."""
        with self.locked():
            text = gamefile.encode(game)
            game_id = game.genesis.game
            directory = self.game_dir(game_id)
            replay = self._verified_head(game_id)
            if replay is None:
                replay = replay_file(game, registry.get(game.genesis.ruleset.id))
                self._keep(directory / "versions", text, game)
                return self._set_head(replay, "new", replay.records, 0)
            if replay.genesis != game.genesis:
                raise Rejected(
                    f"{label}: claims game {short_id(game_id)} but its genesis differs from the "
                    "stored one (a forgery or a damaged file)"
                )
            c = compare(replay.steps, game.steps)
            if c.relation == "identical" or self._known(directory, text):
                return Imported("duplicate", replay, [], self.head_path(game_id))
            if c.relation in {"ahead", "fork", "equivocation"}:
                self._keep(directory / "refused", text, game)
                raise Rejected(_refusal(c, label, game, replay), detail=proof_text(c.proof))
            return self._advance(replay, game, c, text)

    def _advance(self, replay: Replay, game: GameFile, c: Comparison, text: str) -> Imported:
        """Take a copy that is newer than the head (``behind``) or that merges with it."""
        before = len(replay.records)
        envelopes = replay.signatures
        if c.relation == "mergeable":
            replay_file(game, replay.rules)  # the copy must be valid by itself too
            replay.take(game.genesis, c.merged)
        else:
            replay.extend(game)
        self._keep(self.game_dir(game.genesis.game) / "versions", text, game)
        status: Status = "merged" if c.relation == "mergeable" else "updated"
        added = replay.signatures - envelopes
        return self._set_head(replay, status, replay.records[before:], added)

    def save_produced(self, replay: Replay) -> Imported:
        """Keep a version made here (automatic steps, a move): it goes through the same
        checks as a received copy, so a local mistake cannot overwrite a newer head."""
        return self.import_game(replay.to_file(), "the new version")

    def _set_head(self, replay: Replay, status: Status, new: list[Record], added: int) -> Imported:
        """Write the head (kept as a version too: a merge makes a version nobody sent)."""
        game = replay.genesis.game
        head = replay.to_file()
        text = gamefile.encode(head)
        self._keep(self.game_dir(game) / "versions", text, head)
        atomic_write(self.head_path(game), text.encode())
        _remember(hashlib.sha256(text.encode()).hexdigest(), _copy(replay))
        self._write_summary(replay)
        return Imported(status, replay, list(new), self.head_path(game), added)

    @staticmethod
    def _keep(folder: Path, text: str, game: GameFile) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"{signatures(game):05d}-{_digest(text)}.json"
        if not target.exists():
            atomic_write(target, text.encode())

    @staticmethod
    def _known(directory: Path, text: str) -> bool:
        return any((directory / "versions").glob(f"*-{_digest(text)}.json"))

    def _write_summary(self, replay: Replay) -> dict[str, Any]:
        game = replay.genesis.game
        head = self.head_path(game)
        summary = {
            "game": game,
            "ruleset": replay.rules.id,
            "steps": len(replay.steps),
            "head": head_label(replay.steps),
            "awaiting": [replay.names[s] for s in replay.remaining()],
            "awaiting_keys": [replay.genesis.seats[s].sign_key for s in replay.remaining()],
            "next": describe_awaiting(replay),
            "over": replay.result is not None,
            "seats": [f"{c.name} <{c.email}>" for c in replay.genesis.seats],
            "seat_keys": [c.sign_key for c in replay.genesis.seats],
            "file": str(head),
            "updated": head.stat().st_mtime_ns if head.exists() else 0,
        }
        atomic_write(self.game_dir(game) / "summary.json", pretty(summary).encode())
        return summary


def _refusal(c: Comparison, label: str, game: GameFile, stored: Replay) -> str:
    names = stored.names
    theirs = f"{label} ({head_label(game.steps)})"
    ours = f"the stored head ({head_label(stored.steps)})"
    where = f"game {short_id(game.genesis.game)}"
    if c.relation == "ahead":
        return (
            f"{where}: stale copy refused: {theirs} is older than {ours}; they agree up to "
            f"step {c.index}"
        )
    if c.relation == "equivocation":
        seat = c.proof[0]["seat"]
        return (
            f"{where}: equivocation refused: seat {seat} ({names[seat]}) signed two different "
            f"steps at step {c.index}: {theirs} vs {ours}"
        )
    return f"{where}: fork refused: {theirs} and {ours} part at step {c.index}"
