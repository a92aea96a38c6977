"""Imported first in a process under test (`python -c "import outbound_log; ..."`, this folder
on PYTHONPATH): from then on every address the process looks up, connects or sends to that is
not this machine's own is written down, one line each, in the file OUTBOUND_LOG names. The
tests that nothing leaves the player's machine read that file (`addresses_asked`). Python's
audit events see every socket and HTTP library built on the standard library's sockets; a
native library's own sockets (none of ours opens any) would go unseen."""

from __future__ import annotations

import ipaddress
import os
import sys
from pathlib import Path
from typing import Any

OUTBOUND_LOG = "BLACKCAT_TEST_OUTBOUND_LOG"
LOCAL_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def is_this_machine(host: object) -> bool:
    """Whether `host` (a name, an address, a Unix socket's path, None) is this machine."""
    if isinstance(host, bytes | bytearray):
        host = host.decode(errors="replace")
    if not isinstance(host, str) or not host or host.startswith(("/", "\0")):
        return True  # a Unix socket (a path, or Linux's abstract names)
    if host.lower() in LOCAL_NAMES:
        return True
    try:
        address = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return False  # a name to look up elsewhere
    return address.is_loopback or address.is_unspecified


def asked_of(event: str, args: tuple[Any, ...]) -> str | None:
    """The other machine an audit event asks something of, or None (urllib's requests are seen
    as their connections)."""
    if event in ("socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyname_ex"):
        host = args[0]
    elif event in ("socket.connect", "socket.sendto"):
        address = args[1]
        host = address[0] if isinstance(address, tuple) else address
    elif event == "http.client.connect":
        host = args[1]
    else:
        return None
    return None if is_this_machine(host) else f"{event} {host!r}"


def blackcat_watched(args: list[str], log: Path) -> tuple[list[str], dict[str, str]]:
    """The command and environment that run `blackcat ARGS` with this module watching it,
    writing to `log`."""
    command = [
        sys.executable,
        "-c",
        "import outbound_log, runpy; runpy.run_module('blackcat', run_name='__main__')",
        *args,
    ]
    path = [str(Path(__file__).parent), *filter(None, [os.environ.get("PYTHONPATH")])]
    return command, {**os.environ, "PYTHONPATH": os.pathsep.join(path), OUTBOUND_LOG: str(log)}


def addresses_asked(log: Path) -> list[str]:
    """The lines a process under test wrote down, or none if it wrote none."""
    return log.read_text().splitlines() if log.is_file() else []


def _note(event: str, args: tuple[Any, ...]) -> None:
    asked = asked_of(event, args)
    if asked is not None:
        with open(os.environ[OUTBOUND_LOG], "a", encoding="utf-8") as log:
            log.write(asked + "\n")


if OUTBOUND_LOG in os.environ:
    sys.addaudithook(_note)
