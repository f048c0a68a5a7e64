"""The board page of a long game: its size, and the time ``pbem show`` takes to make it.

In one run, as whole processes taking turns (CPU time of each child, min and median):
- ``pbem verify`` of the Africanus example: the baseline (a page must verify the file it
  draws, so it cannot cost less);
- ``pbem show`` of the same file, the whole history in the page;
- ``python -c pass``, to set the figures against the interpreter alone.
Then the sizes: the file, the page, and the page's packed history against the frames it
holds unpacked. Issue 33's goals: the page ≤ 250 KB and ``pbem show`` ≤ 1 s. Nothing here
asserts a time.
Run: ``.venv/bin/python benchmarks/show.py [runs]``.
"""

from __future__ import annotations

import base64
import gzip
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.verify import PBEM, africanus_file, children, ratio_line


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["PBEM_HOME"] = str(Path(tmp) / "home")
        game = africanus_file(Path(tmp))
        times = children(
            runs,
            python=[sys.executable, "-c", "pass"],
            verify=[PBEM, "verify", str(game)],
            show=[PBEM, "show", str(game), "-o", "-"],
        )
        shown = subprocess.run([PBEM, "show", str(game), "-o", "-"], capture_output=True)
        html = shown.stdout.decode()
    packed = re.search(r'id="frames">([^<]*)<', html)
    assert packed is not None, "the page holds no packed history"
    unpacked = gzip.decompress(base64.b64decode(packed.group(1)))
    print(f"file: {game.stat().st_size / 1000:.0f} KB; page: {len(html.encode()) / 1000:.0f} KB")
    print(
        f"  packed history: {len(packed.group(1)) / 1000:.0f} KB in the page "
        f"({len(unpacked) / 1000:.0f} KB of JSON unpacked)"
    )
    print(ratio_line("pbem show / pbem verify (same file)", times["show"], times["verify"]))
    print(ratio_line("pbem show / python -c pass", times["show"], times["python"]))


if __name__ == "__main__":
    main()
