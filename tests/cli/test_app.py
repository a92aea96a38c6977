"""`blackcat app`: the command line it builds and runs, and the warm-up beside the server (the
browser test runs it for real)."""

from __future__ import annotations

import argparse
import logging
import os
import socket
import subprocess
import sys
import threading
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest

from blackcat.cli import app as app_cli
from blackcat.cli import build_parser, main

real_port_problem = app_cli.port_problem


def parse(*argv: str) -> argparse.Namespace:
    return build_parser(only="app").parse_args(["app", *argv])


def test_command_runs_the_app_script_with_the_watcher_off() -> None:
    command = app_cli.streamlit_command(parse())
    assert command[:2] == ["run", str(app_cli.APP_SCRIPT)]
    assert app_cli.APP_SCRIPT.is_file()
    assert "--server.fileWatcherType=none" in command
    assert "--server.port=8501" in command
    assert "--server.address=127.0.0.1" in command  # this machine alone
    assert not any(part.startswith(("--server.headless", "--server.ssl")) for part in command)
    assert "--logger.hideWelcomeMessage=true" not in command  # its URL line is the right one


def test_streamlit_run_from_the_repository_has_the_same_settings() -> None:
    """`.streamlit/config.toml` (read by `streamlit run app/streamlit_app.py` from the
    repository) holds every setting `blackcat app` passes on its command line."""
    config = tomllib.loads((app_cli.REPO_ROOT / ".streamlit" / "config.toml").read_text())
    for setting in app_cli.SETTINGS:
        name, value = setting.removeprefix("--").split("=")
        section, key = name.split(".")
        assert str(config[section][key]).lower() == value, setting


def test_port_address_and_headless() -> None:
    command = app_cli.streamlit_command(
        parse("--port", "8601", "--address", "0.0.0.0", "--headless")
    )
    assert "--server.port=8601" in command
    assert "--server.address=0.0.0.0" in command
    assert "--server.headless=true" in command


class Replaced(Exception):
    """Stands for the server, which runs until stopped."""


def fake_serve(monkeypatch: pytest.MonkeyPatch) -> list[tuple[list[str], dict[str, str]]]:
    calls: list[tuple[list[str], dict[str, str]]] = []

    def serve(command: list[str], env: dict[str, str], open_at: str | None = None) -> int:
        calls.append((command, env))
        raise Replaced

    monkeypatch.setattr(app_cli, "serve", serve)
    # the ports these tests name may be busy on the machine that runs them: taken ports are
    # tested on their own (test_a_taken_port_is_said_before_anything_is_printed)
    monkeypatch.setattr(app_cli, "port_problem", lambda address, port, tr: None)
    return calls


def test_run_serves_streamlit_with_the_models_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    calls = fake_serve(monkeypatch)
    for name in ("index_detector.onnx", "card_classifier.onnx"):
        (tmp_path / name).write_bytes(b"")
    with pytest.raises(Replaced):
        main(["app", "--headless", "--models", str(tmp_path)])
    command, env = calls[0]
    assert env["BLACKCAT_MODELS_DIR"] == str(tmp_path.resolve())
    assert "--server.headless=true" in command


def test_run_limits_the_allocators_pools_with_the_servers_environment_before_it_serves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = fake_serve(monkeypatch)
    limited: list[dict[str, str]] = []

    def limit_arenas(env: dict[str, str], libc: object) -> bool:
        limited.append(dict(env))
        return True

    monkeypatch.setattr(app_cli.allocator, "limit_arenas", limit_arenas)
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    with pytest.raises(Replaced):
        main(["app", "--headless"])
    assert len(limited) == 1 and limited[0] == calls[0][1]  # what the server runs with
    assert limited[0]["MALLOC_ARENA_MAX"] == "4"  # the player's own, there for it to keep


def test_a_models_folder_without_the_models_is_said_and_the_app_still_serves(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    calls = fake_serve(monkeypatch)
    (tmp_path / "index_detector.onnx").write_bytes(b"")
    with pytest.raises(Replaced):  # cards can still be typed: the page says photos can't be read
        main(["app", "--headless", "--models", str(tmp_path)])
    assert calls[0][1]["BLACKCAT_MODELS_DIR"] == str(tmp_path.resolve())
    error = capsys.readouterr().err
    assert error.startswith("blackcat app: trained models not found: ")
    assert "card_classifier.onnx" in error and "index_detector.onnx" not in error
    assert error.endswith("the app opens without its photo reader: cards are typed\n")


def test_run_keeps_numpy_to_one_blas_thread_unless_the_player_chose(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = fake_serve(monkeypatch)
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    with pytest.raises(Replaced):
        main(["app", "--headless"])
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
    with pytest.raises(Replaced):
        main(["app", "--headless"])
    assert [env["OPENBLAS_NUM_THREADS"] for _, env in calls] == ["1", "4"]


def test_the_app_command_imports_no_numpy_before_it_sets_the_environment() -> None:
    """OpenBLAS reads its thread count once, when NumPy is first imported."""
    code = "import sys, blackcat.cli, blackcat.cli.app; print('numpy' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


def test_serve_runs_streamlit_here_from_the_repository_and_warms_the_app_up(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from streamlit.web import cli as streamlit_cli

    seen = {}
    warmed = threading.Event()

    def streamlit_main(args: list[str], prog_name: str) -> None:
        seen.update(args=args, argv=list(sys.argv), cwd=Path.cwd(), env=dict(os.environ))
        raise SystemExit(3)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "environ", dict(os.environ))
    monkeypatch.setattr(sys, "argv", list(sys.argv))
    monkeypatch.setattr(streamlit_cli, "main", streamlit_main)
    monkeypatch.setattr(app_cli, "warm_up_app", warmed.set)
    command = ["run", str(app_cli.APP_SCRIPT), "--server.port=8601"]
    assert app_cli.serve(command, {"ONLY": "this"}) == 3  # Streamlit's exit status
    assert seen["args"] == command and seen["argv"] == ["streamlit", *command]
    assert seen["cwd"] == app_cli.REPO_ROOT
    assert seen["env"] == {"ONLY": "this"}
    assert warmed.wait(10)


def test_a_failing_warm_up_is_logged_and_leaves_the_server_alone(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.syspath_prepend(str(app_cli.APP_SCRIPT.parent))
    import warm_up

    def broken(*args: object) -> None:
        raise RuntimeError("damaged weights")

    monkeypatch.setattr(warm_up, "warm_up", broken)
    with caplog.at_level(logging.ERROR, logger="blackcat.app"):
        app_cli.warm_up_app(lambda: True)  # does not raise
    assert "warming the app up failed" in caplog.text


def test_the_warm_up_waits_for_the_server_and_does_nothing_if_it_never_serves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.syspath_prepend(str(app_cli.APP_SCRIPT.parent))
    import warm_up

    warmed: list[object] = []
    monkeypatch.setattr(warm_up, "warm_up", lambda *args: warmed.append(args))
    app_cli.warm_up_app(lambda: False)
    assert warmed == []
    app_cli.warm_up_app(lambda: True)
    assert len(warmed) == 1


class FakeRuntime:
    """Streamlit's runtime, in its initial state for the first `starts_after` looks at it, then
    started by the server."""

    def __init__(self, starts_after: int) -> None:
        self.looks = 0
        self.starts_after = starts_after

    @property
    def state(self) -> object:
        from streamlit.runtime.runtime import RuntimeState

        self.looks += 1
        if self.looks > self.starts_after:
            return RuntimeState.NO_SESSIONS_CONNECTED
        return RuntimeState.INITIAL


def test_the_server_counts_as_started_once_its_runtime_has_left_its_initial_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from streamlit import runtime

    fake = FakeRuntime(starts_after=3)
    monkeypatch.setattr(runtime, "exists", lambda: True)
    monkeypatch.setattr(runtime, "get_instance", lambda: fake)
    assert app_cli.server_started(timeout=10)
    assert fake.looks == 4


def test_a_server_that_never_starts_is_waited_for_only_so_long(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from streamlit import runtime

    monkeypatch.setattr(runtime, "exists", lambda: True)
    monkeypatch.setattr(runtime, "get_instance", lambda: FakeRuntime(starts_after=10**9))
    assert not app_cli.server_started(timeout=0.05)
    monkeypatch.setattr(runtime, "exists", lambda: False)
    assert not app_cli.server_started(timeout=0.05)


def test_a_missing_app_script_is_explained(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(app_cli, "APP_SCRIPT", tmp_path / "nowhere.py")
    assert main(["app"]) == 2
    assert "nowhere.py not found" in capsys.readouterr().err


def test_lan_hands_the_key_and_the_phones_address_to_the_app(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    served = fake_serve(monkeypatch)
    monkeypatch.setenv("BLACKCAT_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("BLACKCAT_ACCESS_KEY", "left-over-from-elsewhere")
    monkeypatch.setattr(app_cli.lan, "lan_address", lambda: "10.0.0.7")
    with pytest.raises(Replaced):
        main(["app", "--lan", "--port", "8700"])
    key = (tmp_path / "lan-table-key.txt").read_text()
    env = served[0][1]
    assert env["BLACKCAT_ACCESS_KEY"] == key
    assert env["BLACKCAT_PUBLIC_URL"] == "https://10.0.0.7:8700"
    with pytest.raises(Replaced):
        main(["app"])  # this machine alone: no key asked for
    assert "BLACKCAT_ACCESS_KEY" not in served[1][1] and "BLACKCAT_PUBLIC_URL" not in served[1][1]


def test_lan_serves_https_on_every_interface_and_prints_the_phones_address(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    calls = fake_serve(monkeypatch)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BLACKCAT_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setattr(app_cli.lan, "lan_address", lambda: "192.168.1.23")
    # this machine is not 192.168.1.23: the check that the server can listen there is skipped
    monkeypatch.setattr(app_cli, "address_problem", lambda address, tr: None)
    with pytest.raises(Replaced):
        main(["app", "--lan", "--port", "8601"])
    out = capsys.readouterr().out
    key = (tmp_path / "config" / "lan-table-key.txt").read_text()
    assert f"open  https://192.168.1.23:8601/?key={key}" in out
    assert "▄" in out and "█" in out  # the QR code of that address (tests/test_lan.py reads it)
    assert "made now" in out and "Proceed" in out
    command = calls[0][0]
    assert "--server.address=0.0.0.0" in command
    assert f"--server.sslCertFile={tmp_path / 'config' / 'lan-cert.pem'}" in command
    assert f"--server.sslKeyFile={tmp_path / 'config' / 'lan-key.pem'}" in command
    assert "--browser.serverAddress=192.168.1.23" in command
    # Streamlit's own "URL:" line would show the address without the key: only ours is printed
    assert "--logger.hideWelcomeMessage=true" in command
    with pytest.raises(Replaced):
        main(["app", "--lan", "--address", "192.168.1.23"])
    out = capsys.readouterr().out
    assert "made on an earlier run" in out  # kept: no second warning
    assert f"?key={key}" in out  # and the same key
    assert "--server.address=192.168.1.23" in calls[1][0]
    with pytest.raises(Replaced):
        main(["app", "--lan", "--new-key"])
    assert f"?key={key}" not in capsys.readouterr().out


def test_lan_says_how_the_phones_share_one_game(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Phones that scanned the terminal's code had a game each: the notice says how to share
    one (helper-99)."""
    fake_serve(monkeypatch)
    monkeypatch.setenv("BLACKCAT_CONFIG_DIR", str(tmp_path))
    monkeypatch.setattr(app_cli.lan, "lan_address", lambda: "10.0.0.7")
    monkeypatch.setattr(app_cli, "address_problem", lambda address, tr: None)
    with pytest.raises(Replaced):
        main(["app", "--lan"])
    out = capsys.readouterr().out
    assert "a game of its own" in out and 'tap "Open on another phone · share" on one phone' in out


def test_lan_without_a_network_says_where_to_open_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_serve(monkeypatch)
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
    fake_serve(monkeypatch)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("BLACKCAT_CONFIG_DIR", str(blocker / "config"))
    assert main(["app", "--lan"]) == 2
    assert "can't keep the HTTPS certificate" in capsys.readouterr().err


@pytest.mark.parametrize("port", ["99999", "0", "-1", "web"])
def test_a_port_out_of_range_is_refused_in_words(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], port: str
) -> None:
    calls = fake_serve(monkeypatch)
    with pytest.raises(SystemExit) as stopped:
        main(["app", f"--port={port}"])
    assert stopped.value.code == 2 and calls == []
    assert (
        f"argument --port: '{port}' is not a port: give a number from 1 to 65535, such as 8501"
        in capsys.readouterr().err
    )


@pytest.mark.parametrize("address", ["999.1.1.1", "192.0.2.1"])
def test_an_address_the_server_cannot_listen_on_is_refused_in_words(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], address: str
) -> None:
    """Not an address at all, and one of another machine (TEST-NET-1, no machine's own)."""
    calls = fake_serve(monkeypatch)
    assert main(["app", "--address", address]) == 2 and calls == []
    assert capsys.readouterr().err == (
        f"blackcat app: --address {address} is not an address to listen on: give one of this "
        "machine's addresses, such as 127.0.0.1 (this machine alone) or 0.0.0.0 (every "
        "interface)\n"
    )
    with pytest.raises(Replaced):
        main(["app", "--address", "127.0.0.1"])


@pytest.mark.parametrize("lan", [False, True])
def test_a_taken_port_is_said_before_anything_is_printed(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    lan: bool,
) -> None:
    calls = fake_serve(monkeypatch)
    monkeypatch.setattr(app_cli, "port_problem", real_port_problem)
    monkeypatch.setenv("BLACKCAT_CONFIG_DIR", str(tmp_path))
    with socket.socket() as other_server:
        other_server.bind(("127.0.0.1", 0))
        other_server.listen()
        port = other_server.getsockname()[1]
        argv = ["app", "--port", str(port), *(["--lan", "--address", "127.0.0.1"] if lan else [])]
        if lan:  # --lan on this machine alone is refused first, in words of its own
            assert main(argv) == 2 and "is this machine alone" in capsys.readouterr().err
            argv = ["app", "--port", str(port)]
        assert main(argv) == 2 and calls == []
    said = capsys.readouterr()
    assert said.out == ""  # no QR code of a server that won't start
    assert said.err.startswith(f"blackcat app: port {port} is taken (another app serves there")
    assert f"--port {port + 1}" in said.err


def test_lan_opens_this_computers_browser_with_the_key_once_it_serves(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    opened: list[tuple[list[str], str | None]] = []

    def serve(command: list[str], env: dict[str, str], open_at: str | None = None) -> int:
        opened.append((command, open_at))
        return 0

    monkeypatch.setattr(app_cli, "serve", serve)
    monkeypatch.setattr(app_cli, "port_problem", lambda address, port, tr: None)
    monkeypatch.setenv("BLACKCAT_CONFIG_DIR", str(tmp_path))
    monkeypatch.setattr(app_cli.lan, "lan_address", lambda: "10.0.0.7")
    assert main(["app", "--lan", "--port", "8702"]) == 0
    key = (tmp_path / "lan-table-key.txt").read_text()
    command, open_at = opened[0]
    # Streamlit opens no keyless page ("this table is private"); ours has the key
    assert "--server.headless=true" in command and open_at == f"https://localhost:8702/?key={key}"
    assert main(["app", "--lan", "--headless", "--port", "8702"]) == 0
    assert opened[1][1] is None
    assert main(["app", "--port", "8702"]) == 0
    assert "--server.headless=true" not in opened[2][0] and opened[2][1] is None
    # served on one address alone: the browser opens there, not at localhost
    monkeypatch.setattr(app_cli, "address_problem", lambda address, tr: None)
    assert main(["app", "--lan", "--address", "192.168.1.23", "--port", "8702"]) == 0
    assert opened[3][1] == f"https://192.168.1.23:8702/?key={key}"


def test_a_new_key_without_lan_is_refused_rather_than_ignored(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    calls = fake_serve(monkeypatch)
    monkeypatch.setenv("BLACKCAT_CONFIG_DIR", str(tmp_path))
    assert main(["app", "--new-key"]) == 2 and calls == []
    assert "add --lan" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_on_a_desktop_the_app_serves_at_once_and_writes_nothing_at_home(tmp_path: Path) -> None:
    """With a display and no --headless, Streamlit's first run asked for an email address in
    the terminal and served nothing until it was answered (then wrote ~/.streamlit). The
    browser it opens is a stand-in that notes the address."""
    home, tools = tmp_path / "home", tmp_path / "bin"
    home.mkdir()
    tools.mkdir()
    opened = tmp_path / "opened.txt"
    xdg_open = tools / "xdg-open"
    xdg_open.write_text(f'#!/bin/sh\necho "$1" >> {opened}\n')
    xdg_open.chmod(0o755)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {
        **os.environ,
        "HOME": str(home),
        "DISPLAY": ":99",
        "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}",
    }
    env.pop("BLACKCAT_ACCESS_KEY", None)
    command = [sys.executable, "-m", "blackcat", "app", "--port", str(port)]
    log = tmp_path / "app.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT, env=env
        )
    try:
        deadline = time.monotonic() + 60
        while not opened.is_file() and time.monotonic() < deadline and server.poll() is None:
            time.sleep(0.2)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=5) as ok:
            assert ok.read() == b"ok"
    finally:
        server.terminate()
        server.wait(timeout=20)
    said = log.read_text()
    assert opened.read_text().strip() == f"http://127.0.0.1:{port}", said
    assert "Email" not in said and "usage statistics" not in said, said
    assert list(home.rglob("*")) == []


def test_the_app_shows_a_players_view_of_streamlits_top_bar() -> None:
    """No developer's menu (Rerun, Clear cache, Settings: Streamlit's "auto" on this machine) in
    `blackcat app`, as in `.streamlit/config.toml`."""
    assert "--client.toolbarMode=viewer" in app_cli.SETTINGS
