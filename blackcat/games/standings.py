"""Who leads a table of totals: the rule both games' engines share (highest total wins)."""

from __future__ import annotations

from collections.abc import Sequence


def leaders(names: Sequence[str], totals: Sequence[int]) -> tuple[str, ...]:
    """Every name with the highest total: one, several on a tie, none without names."""
    if not names:
        return ()
    best = max(totals)
    return tuple(name for name, total in zip(names, totals, strict=True) if total == best)


class Standings:
    """The single winner and whether it is a tie, for a game's score that knows its `winners`
    (both games' score sheets)."""

    @property
    def winners(self) -> tuple[str, ...]:
        raise NotImplementedError

    @property
    def winner(self) -> str | None:
        """The single winner, or None on a tie (or without players)."""
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def is_tie(self) -> bool:
        return len(self.winners) > 1
