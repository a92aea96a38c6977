"""The command line the workshop's measures on `blackcat synth` output share: the scenes folder
and the models to read them with."""

from __future__ import annotations

import argparse
from pathlib import Path

from blackcat.vision.reader import MODELS_DIR


def scenes_parser(doc: str) -> argparse.ArgumentParser:
    """A parser described by `doc`'s first line, taking SYNTH_DIR and `--models DIR`."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("scenes", type=Path, help="a `blackcat synth` output folder")
    parser.add_argument("--models", type=Path, default=MODELS_DIR, help="folder with the weights")
    return parser
