"""The built wheel ships templates/ and schemas/ inside the package (architecture §1), and each
game's rules text."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_wheel_ships_templates_schemas_and_game_data(tmp_path: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("pbem-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    schemas = {p.name for p in (ROOT / "schemas").glob("*.json")}
    assert schemas and {f"pbem/schemas/{name}" for name in schemas} <= names
    templates = {
        p.relative_to(ROOT / "templates").as_posix()
        for p in (ROOT / "templates").rglob("*")
        if p.is_file()
    }
    assert {f"pbem/templates/{name}" for name in templates} <= names
    assert any(name.startswith("pbem/games/") and name.endswith(".json") for name in names)
    for game in ("rattus", "rattaneer"):  # the rules at hand (pbem rules) ship too
        assert {f"pbem/games/{game}/rules.md", f"pbem/games/{game}/RULINGS.md"} <= names
    assert any(name.endswith("entry_points.txt") for name in names)
    for catalog in ("ja", "zh_Hant", "zh_Hans"):  # the compiled translations (issue 30)
        assert f"pbem/locale/{catalog}/LC_MESSAGES/pbem.mo" in names
    assert "pbem/py.typed" in names  # the API's type hints are for type checkers too
    assert not any("goofspiel" in name for name in names)  # an example, not shipped
