"""Groups of things linked to one another, for the reader's layout steps."""

from __future__ import annotations

import numpy as np


def connected_labels(linked: np.ndarray) -> tuple[int, np.ndarray]:
    """The groups of an undirected graph (`linked[i, j]`: i and j are linked, either way
    round): how many there are, and each node's group, numbered in the order of each group's
    first node."""
    neighbours = np.asarray(linked, dtype=bool)
    neighbours = neighbours | neighbours.T
    labels = np.full(len(neighbours), -1, dtype=int)
    count = 0
    for start in range(len(neighbours)):
        if labels[start] >= 0:
            continue
        labels[start] = count
        frontier = [start]
        while frontier:
            reached = np.flatnonzero(neighbours[frontier].any(axis=0) & (labels < 0))
            labels[reached] = count
            frontier = reached.tolist()
        count += 1
    return count, labels
