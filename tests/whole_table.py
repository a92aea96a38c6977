"""Photos of a whole table made from photos of one player's piles, for the reader's tests."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from blackcat.vision.image_io import load_image


def a_whole_table(players: dict[str, Path]) -> np.ndarray:
    """A 4000×3000 photo of a table with each given side's photo laid where that player sits,
    turned so that their piles stand upright for them."""
    canvas = np.full((3000, 4000, 3), (70, 100, 75), dtype=np.uint8)
    turns = {"near": 0, "left": -1, "far": 2, "right": 1}  # np.rot90's anticlockwise turns
    for side, meta_path in players.items():
        image = load_image(meta_path.with_suffix(".jpg"))
        scale = 1200 / max(image.shape[:2])
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        image = np.rot90(image, turns[side])
        height, width = image.shape[:2]
        top, left = {
            "near": (3000 - height - 40, (4000 - width) // 2),
            "far": (40, (4000 - width) // 2),
            "left": ((3000 - height) // 2, 40),
            "right": ((3000 - height) // 2, 4000 - width - 40),
        }[side]
        canvas[top : top + height, left : left + width] = image
    return canvas
