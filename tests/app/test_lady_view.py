"""The Black Lady page's HTML (`app/lady_view.py`): the score sheet and a player's tricks."""

from __future__ import annotations

import lady_view

from blackcat.games.black_lady import Rules, score_game
from blackcat.games.cards import parse_pile
from blackcat.i18n import translator


def test_the_sheet_has_a_row_a_player_their_total_first_and_the_leader() -> None:
    game = score_game(["Ann", "Ben", "Cat"], [(-68, -67, 50), (50, -999, -67)])
    html = lady_view.sheet_html(game, current=1, flagged={1})
    deal = '<span class="sr">Deal </span>'
    assert (
        f'<th class="tot">Total</th><th class="">{deal}1</th><th class="cur">{deal}2 ⚠️</th>' in html
    )
    assert (
        '<th scope="row" class="name">Ann</th><td class="tot">−18</td><td class="">−68</td>'
        '<td class="cur">+50</td></tr>'
    ) in html
    assert 'class="lead"' not in html and " win" not in html  # no leader while deal 2 fails
    unflagged = lady_view.sheet_html(game, current=1)
    leads = '<span class="sr"> (leads)</span>'  # said, not shown by shading alone
    assert (
        f'<tr class="lead"><th scope="row" class="name">Cat</th><td class="tot win">−17{leads}</td>'
    ) in unflagged
    assert '<td class="tot">−1066</td>' in html
    open_deal = score_game(["Ann", "Ben", "Cat"], [(None, -67, 50)])
    assert '<td class="tot">0</td><td class="">…</td>' in lady_view.sheet_html(open_deal)
    assert lady_view.leader_line(game) == "🏆 Cat leads with −17 after 2 deals."
    assert lady_view.leader_line(game, flagged={1}) == (
        "⚠️ No leader yet: deal 2 must pass its checks first."
    )


def test_nine_players_fit_a_phone_with_every_total_in_view() -> None:
    """Names and totals stay in place (sticky) while the deals scroll sideways."""
    names = [f"Player {n}" for n in range(1, 10)]
    game = score_game(names, [(0,) * 9] * 12)
    html = lady_view.sheet_html(game)
    assert html.count('<td class="tot') == 9 and html.count('<th scope="row" class="name">') == 9
    assert "position: sticky" in lady_view.CSS and "overflow-x: auto" in lady_view.CSS


def test_a_shared_lead_and_a_sheet_with_nothing_in() -> None:
    tie = score_game(["Ann", "Ben", "Cat"], [(50, -95, 50)])
    assert lady_view.leader_line(tie) == "🤝 Ann and Cat share the lead with +50 after 1 deal."
    empty = score_game(["Ann", "Ben", "Cat"], [(-68, None, None)])
    assert lady_view.leader_line(empty).startswith("No deal complete yet")
    open_deal = score_game(["Ann", "Ben", "Cat"], [(50, -95, 50), (-40, None, None)])
    assert lady_view.leader_line(open_deal) == (
        "🏆 Cat leads with +50 after 1 deal (1 still open)."  # the deals complete
    )


def test_names_are_escaped() -> None:
    game = score_game(["<b>Ann</b>", "Ben", "Cat"], [(0, 0, 0)])
    html = lady_view.sheet_html(game)
    assert "<b>Ann</b>" not in html and "&lt;b&gt;Ann&lt;/b&gt;" in html  # shown as typed


def test_tricks_show_each_scoring_cards_points_and_the_marks() -> None:
    cards = parse_pile("QS 3C AH 5H")
    html = lady_view.tricks_html(cards, doubtful={3}, duplicated={1})
    assert html.count('class="bc-card') == 4
    assert '<span class="q">−40</span>' in html and '<span class="q">−11</span>' in html
    assert '<span class="q">−5</span>' in html and "bc-doubtful" in html and "bc-dup" in html
    assert '<span class="n">4</span>' in html  # tricks have no rows: no "1." before it
    assert '<span class="q">−10</span>' in lady_view.tricks_html(cards, Rules(ace_hearts=10))
    assert "No cards yet" in lady_view.tricks_html(())
    assert "Aún no hay cartas." in lady_view.tricks_html((), tr=translator("es"))


def test_a_game_of_a_set_number_of_deals_is_won_once_they_are_all_in() -> None:
    names = ["Ann", "Ben", "Cat"]
    two = score_game(names, [(50, -95, 50), (-40, -45, -50)])
    assert lady_view.leader_line(two, deals_to_play=3) == (
        "🏆 Ann leads with +10 after 2 deals of 3."
    )
    assert lady_view.leader_line(two, deals_to_play=2, over=True) == (
        "🏆 Game over: Ann wins with +10 after 2 deals."
    )
    tied = score_game(names, [(50, -95, 50)])
    assert lady_view.leader_line(tied, deals_to_play=1, over=True) == (
        "🤝 Game over: Ann and Cat share the win with +50 after 1 deal."
    )
    still_open = score_game(names, [(50, -95, 50), (-40, None, None)])
    assert lady_view.leader_line(still_open, deals_to_play=2) == (
        "🏆 Cat leads with +50 after 1 deal of 2 (1 still open)."
    )
    # over, the winner's total says "(won)" to a screen reader, not "(leads)"
    html = lady_view.sheet_html(two, over=True)
    assert '<span class="sr"> (won)</span>' in html and "(leads)" not in html
    assert "(leads)" in lady_view.sheet_html(two)
    flagged = lady_view.leader_line(two, flagged={1}, deals_to_play=2, over=True)
    assert flagged.startswith("⚠️ No leader yet")
    spanish = lady_view.leader_line(two, tr=translator("es"), deals_to_play=2, over=True)
    assert spanish.startswith("🏆 Fin de la partida: gana Ann")


def test_no_leader_names_the_deals_that_fail_as_a_list_in_each_language() -> None:
    """ "deals 1 and 3", "las manos 1 y 3": not "1, 3" (the Spanish page said "las manos 1, 2
    tienen que cuadrar primero")."""
    game = score_game(["Ann", "Ben", "Cat"], [(0, 0, 0)] * 3)
    assert lady_view.leader_line(game, flagged={0, 2}) == (
        "⚠️ No leader yet: deals 1 and 3 must pass their checks first."
    )
    spanish = lady_view.leader_line(game, flagged={2, 0, 1}, tr=translator("es"))
    assert spanish == "⚠️ Aún no hay líder: las manos 1, 2 y 3 tienen que cuadrar primero."


def test_a_players_tricks_are_one_stop_for_tab_their_picked_card() -> None:
    html = lady_view.tricks_html(parse_pile("QS 3C AH"), pile_id=5, selected=2)
    assert html.count('tabindex="-1"') == 2
    assert html.index('tabindex="0"') > html.index('data-bc-position="2"')
