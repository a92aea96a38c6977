"""HTML for a night of Black Cat: the night's sheet (a row a player with their total and games
won, a column a game) in `sheet_view`'s form, shared with Black Lady's score sheet. A pure
function of the night's scores, like `pile_view`."""

from __future__ import annotations

from sheet_view import SheetRow, sheet_html

from blackcat.i18n import ENGLISH, Translator
from blackcat.tables.black_cat_night import NightScore

ABSENT = "–"  # a player who wasn't at that game's table


def night_sheet_html(
    score: NightScore, *, current: int | None = None, tr: Translator = ENGLISH
) -> str:
    """The night's sheet: each player's total and games won stay in view while the games scroll
    sideways; each game's winner shaded (the tied players lighter), the game on screen shaded
    blue, the night's leader (or tied leaders) marked."""
    rows = []
    for seat, (name, total, won) in enumerate(
        zip(score.names, score.totals, score.wins, strict=True)
    ):
        cells = tuple(ABSENT if game[seat] is None else str(game[seat]) for game in score.games)
        marks = tuple(
            ("win" if len(winners) == 1 else "tie") if name in winners else ""
            for winners in score.winners
        )
        rows.append(SheetRow(name, str(total), cells, name in score.leaders, str(won), marks))
    heads = [str(index + 1) for index in range(len(score.games))]
    game = tr.pgettext("a column of the night's sheet", "Game")
    return sheet_html(heads, rows, current=current, won=tr.gettext("Won"), column_word=game, tr=tr)
