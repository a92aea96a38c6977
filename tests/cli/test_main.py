"""The `blackcat` entry point: subcommands, and what a player's install lacks for the workshop."""

from __future__ import annotations

import importlib.util

import pytest

from blackcat import cli


@pytest.mark.parametrize("command", ["synth", "train", "export", "evaluate", "calibrate"])
def test_a_workshop_command_without_the_train_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name: None if name == "ultralytics" else real(name)
    )
    argv = [command, "detector"] if command == "train" else [command]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert 'pip install -e ".[train]"' in err and "ultralytics" in err
    assert len(err.strip().splitlines()) == 1


def test_every_subcommand_has_help() -> None:
    parser = cli.build_parser()
    assert set(cli.SUBCOMMANDS) >= {"score", "lady", "scan", "app", "export", "train"}
    assert parser.prog == "blackcat"
