"""The spec's test vectors (``schemas/format.md`` §9): a small complete game and, for its
genesis and first steps, canonical bytes, signing messages and hashes.

Everything is derived from a seed, so the vectors are reproducible; ``python -m
tests.format.vectors`` writes them (after a format change), and ``test_vectors.py`` checks
that the stored ones are what pbem makes and what the independent verifier computes.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from pbem.format import gamefile
from pbem.format.bundle import encode_bundle
from pbem.format.canonical import pretty
from pbem.format.gamefile import Batch, GameFile, Signed, signing_message, step_hash
from pbem.format.resources import resource_dir
from pbem.play.selfplay import play_game
from pbem.ruleset import registry

VECTORS = resource_dir("schemas") / "vectors"  # in a checkout, and in an installed wheel
SPEC = resource_dir("schemas") / "format.md"
SHOWN_STEPS = 3
FILES = ("guess.json", "guess-steps.json", "guess-bundle.json")
BLOCK = re.compile(r"(```vectors\n).*?(```)", re.S)


def game_text() -> str:
    """A complete 2-seat ``guess`` game of one round, seed 2: a join, a beacon, sealed
    guesses and their reveal, a turn."""
    rules = registry.get("guess")
    report = play_game(rules, 2, 2, rules.parse_options({"rounds": "1"}), ["random"], None)
    assert report.text is not None
    return report.text


def _signed(what: str, item: Signed) -> dict[str, Any]:
    return {
        "what": what,
        "canonical": item.canonical_bytes().decode(),
        "signing_message": signing_message(item).hex(),
        "hash": step_hash(item),  # type: ignore[arg-type]
    }


def step_vectors(game: GameFile) -> list[dict[str, Any]]:
    """The genesis and the first steps: every signed object with its bytes and hash."""
    out = [_signed("genesis", game.genesis)]
    for index, step in enumerate(game.steps[:SHOWN_STEPS]):
        if isinstance(step, Batch):
            for env in step.envelopes:
                out.append(_signed(f"step {index}, envelope of seat {env.seat}", env))
            out.append(
                {
                    "what": f"step {index} (batch)",
                    "canonical": step.canonical_bytes().decode(),
                    "hash": step_hash(step),
                }
            )
        else:
            out.append(_signed(f"step {index} ({step.kind})", step))
    return out


def spec_block(vectors: list[dict[str, Any]]) -> str:
    """What ``format.md`` quotes: every object's hash, and the genesis in full."""
    genesis = vectors[0]
    message = bytes.fromhex(genesis["signing_message"])
    lines = [
        f"genesis canonical bytes: {len(genesis['canonical'].encode())} bytes, beginning "
        f"{genesis['canonical'][:40]}",
        f"genesis signing message: {len(message)} bytes, beginning {message[:24].hex()}",
        "  (that is 'pbem/1/genesis', a zero byte, the canonical bytes)",
        f"  SHA-256 of the signing message: {hashlib.sha256(message).hexdigest()}",
    ]
    lines += [f"{v['what']}: hash {v['hash']}" for v in vectors]
    return "\n".join(lines) + "\n"


def bundle_text(text: str, last: int = 2) -> str:
    """A step bundle of the game's last ``last`` steps (``format.md`` §10)."""
    raw = json.loads(text)
    index = len(raw["steps"]) - last
    game = gamefile.decode(text)
    after = step_hash(game.steps[index - 1])  # type: ignore[arg-type]
    return encode_bundle(raw["genesis"]["game"], after, index, raw["steps"][index:])


def expected() -> dict[str, str]:
    """The vector files and the spec's quoted block, as pbem makes them now."""
    text = game_text()
    vectors = step_vectors(gamefile.decode(text))
    return {
        "guess.json": text,
        "guess-steps.json": pretty(vectors),
        "guess-bundle.json": bundle_text(text),
        "block": spec_block(vectors),
    }


def write() -> None:
    made = expected()
    VECTORS.mkdir(exist_ok=True)
    for name in FILES:
        (VECTORS / name).write_text(made[name])
    spec = SPEC.read_text()
    if "```vectors" not in spec:
        spec = spec.replace("VECTORS\n", "```vectors\n```\n")
    SPEC.write_text(BLOCK.sub(lambda m: m.group(1) + made["block"] + m.group(2), spec))


if __name__ == "__main__":
    write()
    print(json.dumps(sorted(p.name for p in VECTORS.iterdir())))
