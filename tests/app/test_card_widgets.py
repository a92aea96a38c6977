"""The card corrections both games share (`card_widgets`): what a guess's chance says."""

from __future__ import annotations

import card_widgets


def test_a_guess_below_half_a_percent_says_less_than_one_percent() -> None:
    # a "6♥ 0%" button read as noise: its chance is small, not none
    assert card_widgets.chance(0.004) == card_widgets.chance(0.0) == "<1%"
    assert card_widgets.chance(0.006) == "1%"
    assert card_widgets.chance(0.3) == "30%"
