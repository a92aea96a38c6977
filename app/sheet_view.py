"""A score sheet as HTML, shared by Black Lady's deals and a night of Black Cat games: a row a
player, their name and total stuck at the left (and games won, where the sheet counts them) while
the columns (deals, games) scroll sideways, so every total stays in view on a phone. Pure
functions, like `pile_view`; the classes are `bl-` (Black Lady's sheet came first)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from blackcat.i18n import ENGLISH, Translator

NAME_WIDTH = "6.2rem"  # the name column; the total column sticks right after it
TOTAL_WIDTH = "3.4rem"  # the total column where games won stick after it

CSS = f"""
<style>
/* scrolled to its end at first (right to left): the latest deals and games, where play is */
.bl-sheet-wrap {{ overflow-x: auto; direction: rtl; }}
.bl-sheet-wrap table.bl-sheet {{ direction: ltr; }}
/* each cell draws its own borders (Streamlit's tables collapse them, and a collapsed border
   stays behind when its sticky cell moves: the columns scrolled under showed beside the total);
   a rule for some cells is as specific as the one for all cells, or loses to it */
.bl-sheet-wrap table.bl-sheet {{ border-collapse: separate; border-spacing: 0; font-size: .95rem;
  min-width: 100%; }}
.bl-sheet-wrap .bl-sheet td, .bl-sheet-wrap .bl-sheet th {{ padding: .25rem .35rem; border: 0;
  border-bottom: 1px solid #e4e4e4; text-align: right; white-space: nowrap; background: #fff;
  position: relative; }}
.bl-sheet th {{ font-size: .8rem; color: #555; font-weight: 600; }}
.bl-sheet-wrap .bl-sheet .name {{ position: sticky; left: 0; z-index: 1; text-align: left;
  width: {NAME_WIDTH}; max-width: {NAME_WIDTH}; min-width: {NAME_WIDTH}; overflow: hidden;
  text-overflow: ellipsis; }}
.bl-sheet-wrap .bl-sheet .tot {{ position: sticky; left: {NAME_WIDTH}; z-index: 1;
  font-weight: 700; font-size: 1.05rem; border-right: 2px solid #bbb; min-width: 3.2rem; }}
.bl-sheet-wrap .bl-sheet.with-won .tot {{ box-sizing: border-box; width: {TOTAL_WIDTH};
  min-width: {TOTAL_WIDTH}; max-width: {TOTAL_WIDTH}; border-right: none; }}
/* the columns that stick cast a shadow on those scrolled under them: a number half under them
   ("13" showing "3") is seen to be cut */
.bl-sheet-wrap .bl-sheet:not(.with-won) .tot, .bl-sheet-wrap .bl-sheet .won {{
  box-shadow: 4px 0 4px -2px rgba(0, 0, 0, .3); }}
/* as narrow as its heading ("Won"): a sheet of a game or two, stretched to the screen's width,
   gave the rest to the games, not 130 px to this column */
.bl-sheet-wrap .bl-sheet .won {{ position: sticky; left: calc({NAME_WIDTH} + {TOTAL_WIDTH});
  z-index: 1; border-right: 2px solid #bbb; width: 1%; }}
.bl-sheet-wrap .bl-sheet .cur {{ background: #eef5ff; }}
/* a game's winner shaded and bold, the tied players lighter and slanted: not by colour alone */
.bl-sheet-wrap .bl-sheet td.win {{ background: #fff7d6; font-weight: 700; }}
.bl-sheet-wrap .bl-sheet td.tie {{ background: #f3f1e6; font-style: italic; }}
/* words for a screen reader alone: which game a column is, who won it */
.bl-sheet .sr {{ position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip-path: inset(50%); white-space: nowrap; }}
/* a row's player is its header for a screen reader, drawn as the other cells of the row */
.bl-sheet-wrap .bl-sheet th[scope="row"] {{ font-size: inherit; color: inherit; font-weight: 400; }}
.bl-sheet-wrap .bl-sheet tr.lead th[scope="row"] {{ font-weight: 700; }}
</style>
"""


NAMED_IN_FULL = 6  # more columns, and the choice of one shows their numbers alone


def column_choice(columns: int, index: int, named: str) -> str:
    """How the choice of the sheet's column on screen names column `index` of `columns`:
    `named` with its number ("Game 3", "Deal 3"), or the number alone in a long night (at 32
    games "Game N" took eight rows of a phone's screen)."""
    if columns > NAMED_IN_FULL:
        return str(index + 1)
    return named.format(number=index + 1)


@dataclass(frozen=True)
class SheetRow:
    name: str  # as the player typed it (escaped here)
    total: str
    cells: tuple[str, ...]  # a column each (HTML)
    lead: bool = False  # the leader's row: name in bold, total shaded
    won: str | None = None  # games won, where the sheet counts them
    marks: tuple[str, ...] = ()  # a class a column ("win", "tie"), where there are any


def _classes(*names: str) -> str:
    return " ".join(name for name in names if name)


def sheet_html(
    heads: Sequence[str],
    rows: Sequence[SheetRow],
    *,
    current: int | None = None,
    won: str | None = None,
    column_word: str = "",
    lead_word: str | None = None,
    tr: Translator = ENGLISH,
) -> str:
    """The sheet: a header of `heads` (a column each, `current` shaded; `column_word`, "Game",
    said before each to a screen reader), then a row a player; with `won`, a column of that
    heading for each row's games won sticks after the total. Each row's name is its header,
    and a cell marked "win" or "tie", or the leader's total, says so to a screen reader too
    ("(leads)", or `lead_word`: "(won)" once the game is over)."""
    wins = won is not None
    said = f'<span class="sr">{escape(column_word)} </span>' if column_word else ""
    head = "".join(
        f'<th class="{"cur" if index == current else ""}">{said}{text}</th>'
        for index, text in enumerate(heads)
    )
    # gettext outside the f-strings: Babel finds no text to translate inside one
    won_word, tie_word = escape(tr.gettext("(won)")), escape(tr.gettext("(tie)"))
    leads = escape(tr.gettext("(leads)") if lead_word is None else lead_word)
    mark_words = {
        "win": f'<span class="sr"> {won_word}</span>',
        "tie": f'<span class="sr"> {tie_word}</span>',
    }
    body = []
    for row in rows:
        marks = row.marks or ("",) * len(row.cells)
        cells = "".join(
            f'<td class="{_classes("cur" if index == current else "", mark)}">'
            f"{text}{mark_words.get(mark, '')}</td>"
            for index, (text, mark) in enumerate(zip(row.cells, marks, strict=True))
        )
        won_cell = f'<td class="won">{row.won or ""}</td>' if wins else ""
        name = f'<th scope="row" class="name">{escape(row.name)}</th>'
        total = f'{row.total}<span class="sr"> {leads}</span>' if row.lead else row.total
        body.append(
            f'<tr class="{"lead" if row.lead else ""}">{name}'
            f'<td class="tot{" win" if row.lead else ""}">{total}</td>{won_cell}{cells}</tr>'
        )
    won_head = f'<th class="won">{won}</th>' if wins else ""
    table = _classes("bl-sheet", "with-won" if wins else "")
    player, total = tr.gettext("Player"), tr.gettext("Total")
    return (
        f'<div class="bl-sheet-wrap"><table class="{table}">'
        f'<tr><th class="name">{player}</th><th class="tot">{total}</th>{won_head}{head}</tr>'
        f"{''.join(body)}</table></div>"
    )
