"""Ultralytics, imported the way this project needs it: quiet on stdout, and sending nothing.

On a machine's first run Ultralytics creates its settings file and announces it with a log line
on stdout, which would break `blackcat scan --json`; and its settings switch on usage analytics
(`sync`) by default. `prepare_ultralytics()` imports it with stdout pointed at stderr (its log
handler keeps that stream, so its later log lines go to stderr too), then turns `sync` off, in
its settings file (as `yolo settings sync=False` would) and in the running process. Everything
that loads a model calls it first: the photo reader, training and the `blackcat` command line.

It also keeps Ultralytics off the network, which nothing here needs: when imported, Ultralytics
looks up two hosts to decide whether it is online (not with YOLO_OFFLINE set, which this sets
first), and its dataset check asks GitHub for a font to draw plots with, online or not
(`check_font`, which is given one that only looks on this machine).
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from types import ModuleType

_prepared: list[ModuleType] = []


def prepare_ultralytics() -> ModuleType:
    """The `ultralytics` module, imported quietly with its analytics off (idempotent)."""
    if _prepared:
        return _prepared[0]
    os.environ["YOLO_OFFLINE"] = "1"  # read once, when Ultralytics is first imported
    with contextlib.redirect_stdout(sys.stderr):
        import ultralytics
        import ultralytics.data.utils
        import ultralytics.utils.plotting
        from ultralytics.utils import SETTINGS

        if SETTINGS.get("sync", True):
            SETTINGS.update(sync=False)
        with contextlib.suppress(ImportError):  # where the events module lives varies by version
            from ultralytics.utils import events

            events.events.enabled = False
    # each module holds its own name for the function
    ultralytics.data.utils.check_font = font_on_this_machine
    ultralytics.utils.plotting.check_font = font_on_this_machine
    _prepared.append(ultralytics)
    return ultralytics


def font_on_this_machine(font: str = "Arial.ttf") -> Path | None:
    """Ultralytics' `check_font` without its download: the font where Ultralytics keeps the ones
    it downloads, else None (its plots then use PIL's own font; training makes none here)."""
    from ultralytics.utils import USER_CONFIG_DIR

    file = USER_CONFIG_DIR / Path(font).name
    return file if file.is_file() else None


def analytics_off() -> bool:
    """Whether Ultralytics' usage analytics are off (in its settings and in this process)."""
    from ultralytics.utils import SETTINGS

    enabled = False
    with contextlib.suppress(ImportError):
        from ultralytics.utils import events

        enabled = events.events.enabled
    return not SETTINGS["sync"] and not enabled
