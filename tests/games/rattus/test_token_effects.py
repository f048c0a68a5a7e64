"""Issue 32 item 4: a revealed token says what it does where it is shown (the log's
consequences, the status text), from the data and the rules text; ``pbem rules rattus
tokens`` lists every face of both sets."""

from __future__ import annotations

from pbem.games.rattus import data
from tests.helpers import ok

from .harness import RULES, africa_table
from .test_africanus_protection import MAGIC


def test_rules_tokens_lists_every_face_with_its_effect() -> None:
    # T-1.5: every face of the data, e.g. X14 (threshold 2, islam), with what it hits (T-7.2).
    out = ok("rules", "rattus", "tokens").stdout
    for africanus in (False, True):
        for face in data.tokens(africanus).tokens:
            assert f"- {face.id} (T-7): {face.id}, threshold {face.threshold}" in out
    assert "X14, threshold 2, islam: breaks out with 2 or more cubes" in out
    assert "the Astronomer, the Explorer, the Sultan or the Caravan" in out


def test_a_revealed_token_explains_itself_in_the_log_and_the_status() -> None:
    # T-7.1, T-7.2: a magic icon hits the Witch's holder; the lines say what the face does.
    t = africa_table(
        tokens={"Italia": ["tokens/0"]},
        cubes={"Italia": [2, 0, 0]},
        cards={"Witch": 0},
        hands={0: []},
        supply=[],
        faces={"tokens/0": MAGIC},
    )
    t.state.progress.placed = True
    before = t.state
    after = t.act("plague Italia")
    effect = (
        "X05, threshold 1, magic: breaks out with 1 or more cubes in the region; "
        "magic: hits the holder of the Witch, once per such card"
    )
    names = ["ann", "ben", "cal"]
    log = RULES.consequences(before, after, names)
    assert f"rat token in Italia: breaks out; lost: ann 1 ({effect})" in log
    assert effect in RULES.render_text(after, names)
