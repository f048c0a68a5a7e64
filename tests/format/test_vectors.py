"""The spec's test vectors (``schemas/format.md`` §9) are what pbem makes, and the
independent verifier computes the same bytes and hashes from the file alone."""

from __future__ import annotations

import hashlib
import json

from tests.conformance.verifier import jcs, verify
from tests.format.vectors import FILES, SHOWN_STEPS, SPEC, VECTORS, expected


def test_stored_vectors_are_current() -> None:
    made = expected()
    for name in FILES:
        assert (VECTORS / name).read_text() == made[name], (
            f"regenerate: python -m {__package__}.vectors"
        )
    assert made["block"] in SPEC.read_text()


def test_the_independent_verifier_computes_the_same_vectors() -> None:
    game = json.loads((VECTORS / "guess.json").read_text())
    assert verify((VECTORS / "guess.json").read_bytes()) == len(game["steps"])
    kinds = {(s["kind"], s.get("decision", "").partition(":")[0]) for s in game["steps"]}
    assert kinds >= {("batch", "join"), ("beacon", ""), ("batch", "commit"), ("turn", "")}
    vectors = json.loads((VECTORS / "guess-steps.json").read_text())
    objects = [("genesis", game["genesis"])]
    for step in game["steps"][:SHOWN_STEPS]:
        if step["kind"] == "batch":
            objects += [("envelope", env) for env in step["envelopes"]]
        objects.append((step["kind"], step))
    assert len(objects) == len(vectors)
    for (kind, obj), vector in zip(objects, vectors, strict=True):
        assert jcs(obj).decode() == vector["canonical"], vector["what"]
        assert hashlib.sha256(jcs(obj)).hexdigest() == vector["hash"], vector["what"]
        if kind != "batch":
            unsigned = {k: v for k, v in obj.items() if k != "signature"}
            message = b"pbem/1/" + kind.encode() + b"\0" + jcs(unsigned)
            assert message.hex() == vector["signing_message"], vector["what"]
