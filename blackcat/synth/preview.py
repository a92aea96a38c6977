"""Draw a written scene with its ground truth, to look at (and for datasets/examples/)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

LABELLED = (40, 220, 40)
UNLABELLED = (40, 40, 230)


def draw_scene(
    detect_dir: Path, meta_path: Path, scale: float = 1.0, unlabelled: bool = True
) -> np.ndarray:
    """The scene picture with every labelled index box (green), the indices left without a box
    (red, with their visibility), and each card's pile and position (row.position)."""
    meta = json.loads(meta_path.read_text())
    image = cv2.imread(str(detect_dir / meta["image"]))
    if image is None:
        raise FileNotFoundError(detect_dir / meta["image"])
    if scale != 1.0:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    for card in meta["cards"]:
        for index in card["indices"]:
            if not index["labelled"] and not unlabelled:
                continue
            colour = LABELLED if index["labelled"] else UNLABELLED
            x0, y0, x1, y1 = (round(v * scale) for v in index["box"])
            cv2.rectangle(image, (x0, y0), (x1, y1), colour, 1)
            if index["corner"] == "top_left" and index["labelled"]:
                text = f"{card['row']}.{card['position']}"
                cv2.putText(
                    image,
                    text,
                    (x0, max(8, y0 - 2)),
                    cv2.FONT_HERSHEY_SIMPLEX,
                    0.3 * max(scale, 1),
                    (255, 255, 0),
                    1,
                    cv2.LINE_AA,
                )
            elif not index["labelled"] and index["visibility"] > 0.05:
                text = f"{index['visibility']:.2f}"
                cv2.putText(
                    image,
                    text,
                    (x0, y1 + 8),
                    cv2.FONT_HERSHEY_SIMPLEX,
                    0.28 * max(scale, 1),
                    colour,
                    1,
                    cv2.LINE_AA,
                )
    return image
