"""The C allocator of a long-running server kept to fewer memory pools (glibc's malloc alone).

glibc gives threads memory pools of their own ("arenas"), a new one for each new thread up to
eight per core, and a pool keeps the memory its freed blocks leave between live ones. Streamlit
runs each page's script in a thread of its own, and a 12 MP photo's reading allocates some
hundred megabytes in short-lived blocks: over a night of games each pool kept its share, and the
server grew by hundreds of megabytes it no longer used. Two pools (`MALLOC_ARENA_MAX=2`) keep
that down (`benchmarks/bench_night.py`); taps on a page while photos are read were measured no
slower (`benchmarks/bench_load.py`).

The setting must hold before the threads start: `blackcat app` sets it in its own process as it
starts (`mallopt`), as the environment variable would; a player's own `MALLOC_ARENA_MAX` wins.
Elsewhere (macOS, Windows, musl) nothing is done.
"""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Mapping
from typing import Any

ARENA_MAX_ENV = "MALLOC_ARENA_MAX"
M_ARENA_MAX = -8  # glibc's malloc.h
ARENAS = 2


def glibc() -> Any | None:
    """This process's C library where it is glibc (it has `mallopt`), else None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)
        libc.gnu_get_libc_version  # noqa: B018 - glibc's own: musl has mallopt too
        return libc if hasattr(libc, "mallopt") else None
    except (OSError, AttributeError):
        return None


def settings(env: Mapping[str, str]) -> dict[int, int]:
    """The `mallopt` settings to make: none that the environment already sets."""
    return {} if ARENA_MAX_ENV in env else {M_ARENA_MAX: ARENAS}


def limit_arenas(env: Mapping[str, str], libc: Any | None) -> bool:
    """The allocator's pools limited (`settings`) where `libc` is glibc's; whether it took."""
    wanted = settings(env)
    if libc is None or not wanted:
        return False
    return all(
        libc.mallopt(ctypes.c_int(option), ctypes.c_int(value)) == 1
        for option, value in wanted.items()
    )
