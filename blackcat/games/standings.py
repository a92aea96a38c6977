"""Who leads a table of totals: the rule both games' engines share (highest total wins)."""

from __future__ import annotations

from collections.abc import Sequence


def leaders(names: Sequence[str], totals: Sequence[int]) -> tuple[str, ...]:
    """Every name with the highest total: one, several on a tie, none without names."""
    if not names:
        return ()
    best = max(totals)
    return tuple(name for name, total in zip(names, totals, strict=True) if total == best)
