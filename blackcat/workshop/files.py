"""Files the workshop writes into a models folder, written whole or not at all.

The reader loads whatever is in models/ when the app starts: a file cut off midway (Ctrl-C, a
full disk) would break it, so each is written beside its place and moved there (`os.replace`,
atomic within a folder) once complete.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """A temporary path beside `path` to write; moved onto `path` when the block ends without
    error, removed when it does not."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        yield temporary
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def write_text_atomically(path: Path, text: str) -> None:
    with replacing(path) as temporary:
        temporary.write_text(text)


def write_problem(path: Path, text: str) -> str | None:
    """`text` written to `path` whole (`write_text_atomically`); why it could not be (a folder
    that can't be written in, a full disk: the system's words), None when it was."""
    try:
        write_text_atomically(path, text)
    except OSError as error:
        return error.strerror or str(error)
    return None


def copy_atomically(source: Path, target: Path) -> None:
    with replacing(target) as temporary:
        shutil.copyfile(source, temporary)
