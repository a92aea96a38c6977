"""The README's example commands work as written."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
PREFIX = ".venv/bin/blackcat "


def example_commands(text: str, subcommand: str) -> list[str]:
    """The README's command lines that run `.venv/bin/blackcat <subcommand>`."""
    return [
        line.strip()
        for line in text.splitlines()
        if line.strip().startswith(f"{PREFIX}{subcommand} ")
    ]


SCORE_EXAMPLES = example_commands(README.read_text(encoding="utf-8"), "score")


def test_the_readme_has_score_examples() -> None:
    assert len(SCORE_EXAMPLES) >= 2


@pytest.mark.parametrize("line", SCORE_EXAMPLES)
def test_a_score_example_runs_as_written(line: str) -> None:
    arguments = shlex.split(line.removeprefix(PREFIX))
    result = subprocess.run(
        [sys.executable, "-m", "blackcat", *arguments],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "Total:" in result.stdout


def test_the_app_options_the_readme_names_exist() -> None:
    from blackcat.cli import build_parser

    args = build_parser(only="app").parse_args(
        ["app", "--lan", "--port", "8601", "--address", "0.0.0.0"]
    )
    assert (args.lan, args.port, args.address) == (True, 8601, "0.0.0.0")
