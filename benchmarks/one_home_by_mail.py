"""Issue 25's show case: a whole game by real SMTP and IMAP (the tests' aiosmtpd and
Dovecot, on loopback) between one person and three bots that share one home and one robot
(``pbem watch``), with every check of ``tests/mail/test_one_robot.py``: no message sent
twice, every file and bundle mailed verifies, no store refused anything, no robot crashed.
Prints the counts.

Run: ``.venv/bin/python benchmarks/one_home_by_mail.py [RULESET] [OPTION ...]`` (default:
rattus africanus=on; a 4-player Africanus game takes several minutes).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("PBEM_TEST_FAST_KDF", "1")
os.environ.setdefault("PBEM_TEST_CLOCK", "1767225600")

from tests.mail.servers import dovecot, make_certs, smtp_server  # noqa: E402
from tests.mail.test_one_robot import play_with_a_home_of_bots  # noqa: E402


def main() -> None:
    ruleset = sys.argv[1] if len(sys.argv) > 1 else "rattus"
    options = tuple(sys.argv[2:]) if len(sys.argv) > 2 else ("africanus=on",)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        certs = make_certs(root / "certs")
        with dovecot(certs) as imap, smtp_server(certs, imap) as smtp:
            done = play_with_a_home_of_bots(
                root / "game", smtp, imap, certs, ruleset, options, bot="greedy"
            )
    print(
        f"{ruleset} {' '.join(options)}, one person and three bots of one home, by mail: "
        f"{done.messages} messages, each sent once; {done.files} files and bundles mailed, "
        f"all verified; {done.decisions} decisions of the person; 0 refused, 0 crashes; "
        f"robot problems: {len(done.problems)}; {time.perf_counter() - start:.0f} s"
    )
    for line in done.problems:
        print("  " + line)


if __name__ == "__main__":
    main()
