"""Points turned as cards lie tilted in a photo, for the tests that draw such cards."""

from __future__ import annotations

import numpy as np


def turned_points(centre: tuple[float, float], points: np.ndarray, tilt: float) -> np.ndarray:
    """Points (N x 2, relative to `centre`) turned `tilt` degrees anticlockwise as seen."""
    radians = np.radians(tilt)
    # image y points down: anticlockwise as seen turns x towards -y
    rotation = np.array([[np.cos(radians), np.sin(radians)], [-np.sin(radians), np.cos(radians)]])
    return points @ rotation.T + np.array(centre)
