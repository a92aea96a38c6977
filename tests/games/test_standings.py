"""The highest-total rule both games share."""

from blackcat.games.standings import leaders


def test_the_highest_total_leads() -> None:
    assert leaders(["Ann", "Ben", "Cat"], [3, 9, -2]) == ("Ben",)


def test_equal_highest_totals_share_the_lead_in_seat_order() -> None:
    assert leaders(["Ann", "Ben", "Cat"], [-18, -134, -18]) == ("Ann", "Cat")


def test_no_players_no_leader() -> None:
    assert leaders([], []) == ()
