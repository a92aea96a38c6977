"""The night's sheet (`app/night_view.py`): a row a player with their total and games won, a
column a game, each game's winner marked."""

from __future__ import annotations

import night_view
import sheet_view

from blackcat.i18n import translator
from blackcat.tables.black_cat_night import NightScore

SCORE = NightScore(
    names=("Ann", "Ben", "<i>Cy</i>"),
    games=((21, 6, None), (3, 11, 14), (3, 3, 0)),
    winners=(("Ann",), ("<i>Cy</i>",), ("Ann", "Ben")),
    finished=(True, True, True),
)


def test_a_row_a_player_with_total_and_games_won_then_a_column_a_game() -> None:
    html = night_view.night_sheet_html(SCORE, current=1)
    assert (
        '<tr><th class="name">Player</th><th class="tot">Total</th><th class="won">Won</th>'
        '<th class=""><span class="sr">Game </span>1</th>'
        '<th class="cur"><span class="sr">Game </span>2</th>'
        '<th class=""><span class="sr">Game </span>3</th></tr>'
    ) in html
    # who won a game is said to a screen reader, not shown by colour alone
    won, tie = '<span class="sr"> (won)</span>', '<span class="sr"> (tie)</span>'
    assert (
        '<tr class="lead"><th scope="row" class="name">Ann</th>'
        '<td class="tot win">27<span class="sr"> (leads)</span></td>'
        f'<td class="won">1</td><td class="win">21{won}</td><td class="cur">3</td>'
        f'<td class="tie">3{tie}</td></tr>'
    ) in html
    assert (
        '<th scope="row" class="name">Ben</th><td class="tot">20</td><td class="won">0</td>'
        f'<td class="">6</td><td class="cur">11</td><td class="tie">3{tie}</td>'
    ) in html
    # a player who wasn't at game 1's table; names are escaped
    assert (
        '<th scope="row" class="name">&lt;i&gt;Cy&lt;/i&gt;</th><td class="tot">14</td>'
        '<td class="won">1</td>'
        f'<td class="">–</td><td class="cur win">14{won}</td><td class="">0</td>'
    ) in html
    assert '<table class="bl-sheet with-won">' in html


def test_total_and_games_won_stay_in_view_while_the_games_scroll() -> None:
    css = sheet_view.CSS
    assert ".bl-sheet .won { position: sticky;" in css and "overflow-x: auto" in css
    assert f"left: calc({sheet_view.NAME_WIDTH} + {sheet_view.TOTAL_WIDTH})" in css


def test_a_screen_reader_hears_the_sheet_in_spanish() -> None:
    html = night_view.night_sheet_html(SCORE, current=1, tr=translator("es"))
    assert '<span class="sr">Partida </span>1' in html
    assert '<span class="sr"> (ganó)</span>' in html and '<span class="sr"> (empate)</span>' in html
