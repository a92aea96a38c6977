"""What a player installs reads and scores without PyTorch, Ultralytics or SciPy (the workshop's
`[train]` extra): the app's read path and the `app`, `scan`, `score` and `lady` commands never
import them."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "app" / "example.jpg"
HEAVY = ("torch", "ultralytics", "torchvision", "scipy")


def modules_after(code: str) -> set[str]:
    """The heavy modules imported by `code`, run in a fresh interpreter."""
    probe = textwrap.dedent(code) + textwrap.dedent(f"""
        import sys
        print("HEAVY=" + ",".join(m for m in {HEAVY!r} if m in sys.modules))
        """)
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert result.returncode == 0, result.stderr
    line = next(line for line in result.stdout.splitlines() if line.startswith("HEAVY="))
    return {name for name in line.removeprefix("HEAVY=").split(",") if name}


@pytest.mark.parametrize(
    "argv",
    [
        ["scan", "--json", str(EXAMPLE)],
        ["scan", "--game", "black-lady", "--json", str(EXAMPLE), str(EXAMPLE), str(EXAMPLE)],
        ["score", "--json", "QS 2C"],
        ["lady", "--json", "QS", "2H", ""],
        ["app", "--help"],
    ],
    ids=lambda argv: " ".join(argv[:3]),
)
def test_the_players_commands_never_import_the_workshops_modules(argv: list[str]) -> None:
    code = f"""
        import contextlib, io, json
        from blackcat.cli import main
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            try:
                status = main({argv!r})
            except SystemExit as exit:  # --help
                status = exit.code
        assert status == 0, status
        assert "--help" in {argv!r} or json.loads(out.getvalue())  # the command did its work
        """
    assert modules_after(code) == set()


def test_the_apps_read_path_never_imports_the_workshops_modules() -> None:
    """The app opens on the example photo, read by the bundled models, and scores it."""
    code = f"""
        from streamlit.testing.v1 import AppTest
        app = AppTest.from_file({str(ROOT / "app" / "streamlit_app.py")!r}, default_timeout=120)
        app.run()
        assert not app.exception, app.exception
        assert any("36" in element.value for element in app.markdown), "the example's 36 points"
        """
    assert modules_after(code) == set()
