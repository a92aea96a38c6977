"""The `blackcat` entry point: subcommands, and what a player's install lacks for the workshop."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

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


def test_calibrate_without_scipy_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A player's install has no SciPy (the read path doesn't need it); calibrating fits with it."""
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name: None if name == "scipy" else real(name)
    )
    assert cli.main(["calibrate"]) == 2
    err = capsys.readouterr().err
    assert 'pip install -e ".[train]"' in err and "scipy" in err


def test_every_subcommand_has_help() -> None:
    parser = cli.build_parser()
    assert set(cli.SUBCOMMANDS) >= {"score", "lady", "scan", "app", "export", "train"}
    assert parser.prog == "blackcat"


def test_the_help_says_what_each_exit_status_means(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["--help"])
    assert stopped.value.code == 0
    said = " ".join(capsys.readouterr().out.split())  # the help's lines joined again
    assert "exit status: 0 done; 1 failed partway" in said
    assert "2 refused before starting" in said and "130 stopped with Ctrl-C" in said


def test_a_bare_blackcat_shows_what_it_can_do(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 2
    said = capsys.readouterr()
    assert said.out == "" and "score piles of cards given as text" in said.err
    assert "required" not in said.err


def test_output_cut_short_by_its_reader_ends_quietly(tmp_path) -> None:
    # `blackcat score --json ... | head -c 1`: the pipe closes while we still write. 2,000 empty
    # piles make about 250 KB of JSON, far more than a pipe holds, so the write meets the close.
    errors = tmp_path / "stderr.txt"
    with (
        errors.open("wb") as stderr,
        subprocess.Popen(
            [sys.executable, "-m", "blackcat", "score", "--json", *[""] * 2000],
            stdout=subprocess.PIPE,
            stderr=stderr,
        ) as process,
    ):
        assert process.stdout is not None
        assert process.stdout.read(1) == b"{"
        process.stdout.close()
        assert process.wait(timeout=60) == 1
    err = errors.read_text()
    assert "Traceback" not in err and "BrokenPipe" not in err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux) to fill")
@pytest.mark.parametrize("command", [["score", "--json", "QS", "KH"], ["lady", "QS", "", ""]])
def test_output_to_a_full_disk_says_so_without_a_traceback(command: list[str]) -> None:
    with open("/dev/full", "w") as full_disk:
        result = subprocess.run(
            [sys.executable, "-m", "blackcat", *command, "--lang", "en"],
            stdout=full_disk,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert result.returncode == 1
    assert result.stderr == (
        f"blackcat {command[0]}: could not write the output: No space left on device\n"
    )


@pytest.mark.skipif(sys.platform == "win32", reason="closes stdout with a POSIX shell")
def test_a_command_with_no_stdout_at_all_still_runs() -> None:
    # stdout closed (`>&-`, or Windows' pythonw): Python's sys.stdout is None
    command = f"{shlex.quote(sys.executable)} -m blackcat score QS KH >&-"
    result = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stderr) == (0, "")


@pytest.mark.skipif(sys.platform == "win32", reason="closes stderr with a POSIX shell")
@pytest.mark.parametrize(
    ("command", "status"),
    [
        ("score --json 'QS XX'", 2),  # refused: its one line goes nowhere
        ("score --json QS 6C QH", 0),  # a note on stderr beside the JSON
    ],
)
def test_a_command_with_no_stderr_keeps_its_stdout_json_alone(command: str, status: int) -> None:
    # stderr closed (`2>&-`): Python's sys.stderr is None, and print(file=None) writes to stdout
    shell = f"{shlex.quote(sys.executable)} -m blackcat {command} 2>&-"
    result = subprocess.run(["sh", "-c", shell], capture_output=True, text=True, timeout=60)
    assert result.returncode == status
    if status == 0:
        assert len(json.loads(result.stdout)["piles"]) == 3
    else:
        assert result.stdout == ""


def test_the_version_is_the_packages(capsys: pytest.CaptureFixture[str]) -> None:
    from blackcat import __version__

    with pytest.raises(SystemExit) as stopped:
        cli.main(["--version"])
    assert stopped.value.code == 0
    assert capsys.readouterr().out == f"blackcat {__version__}\n"


def test_a_console_that_cannot_show_accents_gets_the_help_escaped_not_a_traceback() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    helped = subprocess.run(
        [sys.executable, "-m", "blackcat", "--lang", "es", "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert helped.returncode == 0 and helped.stderr == ""
    assert "Contador de puntos de Gato negro" in helped.stdout
    assert "versi\\xf3n" in helped.stdout  # "versión", escaped


def test_an_unknown_option_is_said_with_its_subcommands_usage(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["score", "QS", "--bogus"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: blackcat score ")
    assert err.endswith("blackcat score: error: unrecognized arguments: --bogus\n")


def test_a_narrow_console_gets_suits_as_letters_and_other_characters_escaped() -> None:
    raw = io.BytesIO()
    console = io.TextIOWrapper(raw, encoding="ascii")
    cli.tolerate_narrow_consoles(console)
    console.write("Q♠ 10♥ K♦ A♣ versión 🂡")
    console.flush()
    assert raw.getvalue() == b"QS 10H KD AC versi\\xf3n \\U0001f0a1"


def test_argparse_speaks_the_chosen_language_only_while_blackcat_parses() -> None:
    import argparse

    with pytest.raises(SystemExit):
        cli.main(["--lang", "es", "score"])  # a missing argument, said in Spanish
    other = argparse.ArgumentParser(prog="other")
    assert other.format_usage().startswith("usage: other")  # not "uso:"


@pytest.mark.parametrize(("lang", "said"), [("en", "stopped."), ("es", "interrumpido.")])
def test_ctrl_c_is_one_line_and_the_shells_status_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str, said: str
) -> None:
    from blackcat.cli import score

    def interrupted(args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(score, "run", interrupted)
    assert cli.main(["score", "--json", "--lang", lang, "QS"]) == 130
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", f"blackcat: {said}\n")


@pytest.mark.parametrize(
    ("command", "json"), [("score", True), ("scan", True), ("app", False), ("train", False)]
)
def test_the_languages_help_speaks_of_json_only_where_there_is_json(
    capsys: pytest.CaptureFixture[str], command: str, json: bool
) -> None:
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert ("JSON is the same in every language" in said) == json
