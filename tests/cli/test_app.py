"""`blackcat app`: the command line it builds and runs (the browser test runs it for real)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from blackcat.cli import app as app_cli
from blackcat.cli import build_parser, main


def parse(*argv: str) -> argparse.Namespace:
    return build_parser(only="app").parse_args(["app", *argv])


def test_command_runs_the_app_script_with_the_watcher_off() -> None:
    command = app_cli.streamlit_command(parse())
    assert command[:5] == [sys.executable, "-m", "streamlit", "run", str(app_cli.APP_SCRIPT)]
    assert app_cli.APP_SCRIPT.is_file()
    assert "--server.fileWatcherType=none" in command
    assert "--server.port=8501" in command
    assert "--server.address=127.0.0.1" in command  # this machine alone
    assert not any(part.startswith(("--server.headless", "--server.ssl")) for part in command)


def test_port_address_and_headless() -> None:
    command = app_cli.streamlit_command(
        parse("--port", "8601", "--address", "0.0.0.0", "--headless")
    )
    assert "--server.port=8601" in command
    assert "--server.address=0.0.0.0" in command
    assert "--server.headless=true" in command


class Replaced(Exception):
    """Stands for os.execve, which never returns."""


def test_run_becomes_streamlit_with_the_models_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    calls = []

    def execve(path: str, command: list[str], env: dict[str, str]) -> None:
        calls.append((path, command, env, Path.cwd()))
        raise Replaced

    monkeypatch.setattr(os, "name", "posix")
    monkeypatch.setattr(os, "execve", execve)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(Replaced):
        main(["app", "--headless", "--models", str(tmp_path)])
    path, command, env, cwd = calls[0]
    assert path == sys.executable == command[0]
    assert cwd == app_cli.REPO_ROOT
    assert env["BLACKCAT_MODELS_DIR"] == str(tmp_path.resolve())
    assert "--server.headless=true" in command


def test_elsewhere_run_waits_for_streamlit_and_returns_its_status(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = []

    def call(command: list[str], cwd: Path, env: dict[str, str]) -> int:
        calls.append((command, cwd))
        return 3

    monkeypatch.setattr(os, "name", "nt")
    monkeypatch.setattr(subprocess, "call", call)
    assert main(["app"]) == 3
    assert calls[0][1] == app_cli.REPO_ROOT


def test_a_missing_app_script_is_explained(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(app_cli, "APP_SCRIPT", tmp_path / "nowhere.py")
    assert main(["app"]) == 2
    assert "nowhere.py not found" in capsys.readouterr().err


def test_lan_hands_the_key_and_the_phones_address_to_the_app(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    calls = []

    def execve(path: str, command: list[str], env: dict[str, str]) -> None:
        calls.append(env)
        raise Replaced

    monkeypatch.setattr(os, "name", "posix")
    monkeypatch.setattr(os, "execve", execve)
    monkeypatch.setenv("BLACKCAT_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("BLACKCAT_ACCESS_KEY", "left-over-from-elsewhere")
    monkeypatch.setattr(app_cli.lan, "lan_address", lambda: "10.0.0.7")
    with pytest.raises(Replaced):
        main(["app", "--lan", "--port", "8700"])
    key = (tmp_path / "lan-table-key.txt").read_text()
    assert calls[0]["BLACKCAT_ACCESS_KEY"] == key
    assert calls[0]["BLACKCAT_PUBLIC_URL"] == "https://10.0.0.7:8700"
    with pytest.raises(Replaced):
        main(["app"])  # this machine alone: no key asked for
    assert "BLACKCAT_ACCESS_KEY" not in calls[1] and "BLACKCAT_PUBLIC_URL" not in calls[1]


def fake_execve(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    commands: list[list[str]] = []

    def execve(path: str, command: list[str], env: dict[str, str]) -> None:
        commands.append(command)
        raise Replaced

    monkeypatch.setattr(os, "name", "posix")
    monkeypatch.setattr(os, "execve", execve)
    return commands


def test_lan_serves_https_on_every_interface_and_prints_the_phones_address(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    commands = fake_execve(monkeypatch)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BLACKCAT_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setattr(app_cli.lan, "lan_address", lambda: "192.168.1.23")
    with pytest.raises(Replaced):
        main(["app", "--lan", "--port", "8601"])
    out = capsys.readouterr().out
    key = (tmp_path / "config" / "lan-table-key.txt").read_text()
    assert f"open  https://192.168.1.23:8601/?key={key}" in out
    assert "▄" in out and "█" in out  # the QR code of that address (tests/test_lan.py reads it)
    assert "made now" in out and "Proceed" in out
    command = commands[0]
    assert "--server.address=0.0.0.0" in command
    assert f"--server.sslCertFile={tmp_path / 'config' / 'lan-cert.pem'}" in command
    assert f"--server.sslKeyFile={tmp_path / 'config' / 'lan-key.pem'}" in command
    assert "--browser.serverAddress=192.168.1.23" in command
    with pytest.raises(Replaced):
        main(["app", "--lan", "--address", "192.168.1.23"])
    out = capsys.readouterr().out
    assert "made on an earlier run" in out  # kept: no second warning
    assert f"?key={key}" in out  # and the same key
    assert "--server.address=192.168.1.23" in commands[1]
    with pytest.raises(Replaced):
        main(["app", "--lan", "--new-key"])
    assert f"?key={key}" not in capsys.readouterr().out


def test_lan_without_a_network_says_where_to_open_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_execve(monkeypatch)
    monkeypatch.setenv("BLACKCAT_CONFIG_DIR", str(tmp_path))
    monkeypatch.setattr(app_cli.lan, "lan_address", lambda: None)
    with pytest.raises(Replaced):
        main(["app", "--lan"])
    assert "No network found: on this machine, open  https://localhost:8501" in (
        capsys.readouterr().out
    )


def test_a_certificate_that_cant_be_kept_is_one_clear_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_execve(monkeypatch)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("BLACKCAT_CONFIG_DIR", str(blocker / "config"))
    assert main(["app", "--lan"]) == 2
    assert "can't keep the HTTPS certificate" in capsys.readouterr().err
