"""The Black Lady page's HTML (`app/lady_view.py`): the score sheet and a player's tricks."""

from __future__ import annotations

import lady_view

from blackcat.games.black_lady import Rules, score_game
from blackcat.games.cards import parse_pile


def test_the_sheet_has_a_row_a_deal_running_totals_and_the_leader() -> None:
    game = score_game(["Ann", "Ben", "Cat"], [(-68, -67, 50), (50, -999, -67)])
    html = lady_view.sheet_html(game, current=1, flagged={1})
    assert "<tr><th>Deal</th><th>Ann</th><th>Ben</th><th>Cat</th></tr>" in html
    assert "<tr><td>1</td><td>−68</td><td>−67</td><td>+50</td></tr>" in html
    assert '<tr class="cur"><td>2 ⚠️</td><td>+50<span class="run">−18</span></td>' in html
    assert '<td>−999<span class="run">−1066</span></td>' in html
    assert '<td class="">−18</td><td class="">−1066</td><td class="win">−17</td>' in html
    open_deal = score_game(["Ann", "Ben", "Cat"], [(None, -67, 50)])
    assert "<tr><td>1</td><td>…</td><td>−67</td><td>+50</td></tr>" in lady_view.sheet_html(
        open_deal
    )
    assert lady_view.leader_line(game) == "🏆 Cat leads with −17 after 2 deals."


def test_a_shared_lead_and_a_sheet_with_nothing_in() -> None:
    tie = score_game(["Ann", "Ben", "Cat"], [(50, -95, 50)])
    assert lady_view.leader_line(tie) == "🤝 Ann and Cat share the lead with +50 after 1 deal."
    empty = score_game(["Ann", "Ben", "Cat"], [(-68, None, None)])
    assert lady_view.leader_line(empty).startswith("No deal complete yet")
    open_deal = score_game(["Ann", "Ben", "Cat"], [(50, -95, 50), (-40, None, None)])
    assert lady_view.leader_line(open_deal) == (
        "🏆 Cat leads with +50 after 2 deals (1 still open)."
    )


def test_names_are_escaped() -> None:
    game = score_game(["<b>Ann</b>", "Ben", "Cat"], [(0, 0, 0)])
    assert "<b>Ann</b>" not in lady_view.sheet_html(game)


def test_tricks_show_each_scoring_cards_points_and_the_marks() -> None:
    cards = parse_pile("QS 3C AH 5H")
    html = lady_view.tricks_html(cards, doubtful={3}, duplicated={1})
    assert html.count('class="bc-card') == 4
    assert '<span class="q">−40</span>' in html and '<span class="q">−11</span>' in html
    assert '<span class="q">−5</span>' in html and "bc-doubtful" in html and "bc-dup" in html
    assert '<span class="n">1.4</span>' in html
    assert '<span class="q">−10</span>' in lady_view.tricks_html(cards, Rules(ace_hearts=10))
    assert "No cards yet" in lady_view.tricks_html(())
