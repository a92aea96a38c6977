"""The watch that the privacy tests rely on (`outbound_log`) sees a process ask another machine,
and lets this machine's own addresses be."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from outbound_log import OUTBOUND_LOG, addresses_asked, blackcat_watched, is_this_machine


@pytest.mark.parametrize(
    "host", ["localhost", "127.0.0.1", "127.3.4.5", "::1", "0.0.0.0", "", None, "/tmp/x.sock"]
)
def test_this_machines_addresses_are_its_own(host: object) -> None:
    assert is_this_machine(host)


@pytest.mark.parametrize("host", ["example.com", "8.8.8.8", "192.168.1.23", "2001:db8::1"])
def test_other_machines_are_not(host: str) -> None:
    assert not is_this_machine(host)


def run_watched(code: str, log: Path) -> subprocess.CompletedProcess[str]:
    command, env = blackcat_watched([], log)
    command[2] = f"import outbound_log\n{code}"
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)


def test_a_lookup_and_a_connection_elsewhere_are_written_down(tmp_path: Path) -> None:
    log = tmp_path / "asked.txt"
    code = (
        "import socket, contextlib\n"
        "with contextlib.suppress(OSError):\n"
        "    socket.getaddrinfo('example.com', 443)\n"
        "with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:\n"
        "    probe.connect(('192.0.2.1', 9))\n"  # UDP: connecting sends nothing
    )
    result = run_watched(code, log)
    assert result.returncode == 0, result.stderr
    assert addresses_asked(log) == [
        "socket.getaddrinfo 'example.com'",
        "socket.connect '192.0.2.1'",
    ]


def test_this_machine_alone_writes_nothing(tmp_path: Path) -> None:
    log = tmp_path / "asked.txt"
    code = (
        "import socket\n"
        "with socket.socket() as server, socket.socket() as client:\n"
        "    server.bind(('127.0.0.1', 0)); server.listen()\n"
        "    client.connect(server.getsockname())\n"
        "socket.getaddrinfo('localhost', 80)\n"
    )
    result = run_watched(code, log)
    assert result.returncode == 0, result.stderr
    assert addresses_asked(log) == []


def test_the_watch_needs_its_log_named(tmp_path: Path) -> None:
    """Imported without OUTBOUND_LOG (as any test run imports this folder's modules), it
    watches nothing."""
    command, env = blackcat_watched(["--help"], tmp_path / "asked.txt")
    del env[OUTBOUND_LOG]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "score" in result.stdout
    assert not (tmp_path / "asked.txt").exists()
