"""Models folders with one model damaged, and photos that need the models only some photos need
(loaded on first use: `CardReader.load`), for the tests of how a damaged one is told."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from blackcat.vision.image_io import load_image
from blackcat.vision.reader import MODELS_DIR


def models_with_one_cut_short(folder: Path, name: str) -> Path:
    """`folder` made a models folder as the bundled one (its files linked), but for the model
    `name`, cut to half its size (a copy or download stopped partway)."""
    folder.mkdir()
    for bundled in MODELS_DIR.iterdir():
        if bundled.name == name:
            data = bundled.read_bytes()
            (folder / name).write_bytes(data[: len(data) // 2])
        elif bundled.is_file():
            (folder / bundled.name).symlink_to(bundled)
    return folder


def save_light_on_dark(photo: Path, path: Path) -> Path:
    """The photo's grey negative saved to `path`: a deck printed in one light ink on dark faces,
    whose suits only the suit classifier reads (by their shapes)."""
    grey = load_image(photo).astype(np.float32).mean(axis=2)
    negative = np.repeat((255 - grey).astype(np.uint8)[..., None], 3, axis=2)
    Image.fromarray(negative).save(path, quality=92)
    return path
