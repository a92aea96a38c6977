"""Ultralytics, imported the way this project needs it: quiet on stdout, and sending nothing.

On a machine's first run Ultralytics creates its settings file and announces it with a log line
on stdout, which would break `blackcat scan --json`; and its settings switch on usage analytics
(`sync`) by default. `prepare_ultralytics()` imports it with stdout pointed at stderr (its log
handler keeps that stream, so its later log lines go to stderr too), then turns `sync` off, in
its settings file (as `yolo settings sync=False` would) and in the running process. Everything
that loads a model calls it first: the photo reader, training and the `blackcat` command line.
"""

from __future__ import annotations

import contextlib
import sys
from types import ModuleType

_prepared: list[ModuleType] = []


def prepare_ultralytics() -> ModuleType:
    """The `ultralytics` module, imported quietly with its analytics off (idempotent)."""
    if _prepared:
        return _prepared[0]
    with contextlib.redirect_stdout(sys.stderr):
        import ultralytics
        from ultralytics.utils import SETTINGS

        if SETTINGS.get("sync", True):
            SETTINGS.update(sync=False)
        with contextlib.suppress(ImportError):  # where the events module lives varies by version
            from ultralytics.utils import events

            events.events.enabled = False
    _prepared.append(ultralytics)
    return ultralytics


def analytics_off() -> bool:
    """Whether Ultralytics' usage analytics are off (in its settings and in this process)."""
    from ultralytics.utils import SETTINGS

    enabled = False
    with contextlib.suppress(ImportError):
        from ultralytics.utils import events

        enabled = events.events.enabled
    return not SETTINGS["sync"] and not enabled
