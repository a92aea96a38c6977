"""How many photos the server reads at once, whichever pages sent them.

Streamlit runs each page's script in a thread of its own, off the server's event loop. A photo
read takes every core ONNX Runtime gives it, and Python's lock for its decoding and layout: a
table of phones uploading at once would share the CPU among all their reads, and a tap on
another page (a short run of its script) would wait behind them. So reads take turns, a few at
once (half the cores; `BLACKCAT_PARALLEL_READS` sets another number), and the rest of the CPU
stays free for taps. The reads in turn share one reader and so one ONNX Runtime thread pool per
model: more reads at once do not make more threads.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Iterator

log = logging.getLogger("blackcat.app")

READS_SETTING = "BLACKCAT_PARALLEL_READS"


def reads_at_once(setting: str | None, cores: int | None) -> int:
    """The setting when it is a whole number above 0, else half the cores (at least one)."""
    if setting:
        if setting.strip().isdigit() and int(setting) > 0:
            return int(setting)
        log.warning("%s=%r is not a whole number above 0: ignored", READS_SETTING, setting)
    return max(1, (cores or 1) // 2)


class ReaderPool:
    """At most `size` reads at once; the others wait for a turn."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._turns = threading.BoundedSemaphore(size)

    @contextlib.contextmanager
    def turn(self) -> Iterator[None]:
        with self._turns:
            yield


READERS = ReaderPool(reads_at_once(os.environ.get(READS_SETTING), os.cpu_count()))
