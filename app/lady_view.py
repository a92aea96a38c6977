"""HTML for the Black Lady page: a player's tricks as cards with their points, and the score
sheet (a row a deal, a column a player, running totals). Pure functions of the engine's values,
like `pile_view` (whose card cells and CSS they share)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from html import escape

from pile_view import card_cell_html

from blackcat.games.black_lady import DEFAULT_RULES, GameScore, Rules, card_points
from blackcat.games.cards import Card
from blackcat.tables.black_cat_table import card_number

CSS = """
<style>
.bl-tricks { display: grid; gap: 3px 2px; padding: 2px 0 6px 0;
  grid-template-columns: repeat(auto-fill, minmax(2.2rem, 1fr)); }
.bl-sheet-wrap { overflow-x: auto; }
.bl-sheet { width: 100%; border-collapse: collapse; font-size: .95rem; }
.bl-sheet td, .bl-sheet th { padding: .25rem .3rem; border-bottom: 1px solid #e4e4e4;
  text-align: right; white-space: nowrap; }
.bl-sheet th { font-size: .8rem; color: #555; font-weight: 600; max-width: 5.5rem;
  overflow: hidden; text-overflow: ellipsis; }
.bl-sheet td:first-child, .bl-sheet th:first-child { text-align: left; }
.bl-sheet .run { display: block; font-size: .7rem; color: #888; }
.bl-sheet tr.cur td { background: #eef5ff; }
.bl-sheet tr.tot td { font-weight: 700; font-size: 1.05rem; border-top: 2px solid #bbb; }
.bl-sheet td.win { background: #fff7d6; }
</style>
"""


def points_text(points: int) -> str:
    """`−40`, `+50`, `0`: with a real minus sign, as on a score sheet."""
    if points > 0:
        return f"+{points}"
    return f"−{-points}" if points < 0 else "0"


def tricks_html(
    cards: Sequence[Card],
    rules: Rules = DEFAULT_RULES,
    *,
    doubtful: Collection[int] = (),
    duplicated: Collection[int] = (),
) -> str:
    """A player's tricks, numbered as on the photo (1.1, 1.2, ...), each scoring card with its
    points under it; doubtful cards in orange, cards read twice in red."""
    if not cards:
        return '<div class="bc-strip"><em>No cards yet.</em></div>'
    cells = [
        card_cell_html(
            card,
            card_number(0, position),
            None,
            note=points_text(card_points(card, rules)) if card_points(card, rules) else "",
            duplicated=position in duplicated,
            doubtful=position in doubtful,
        )
        for position, card in enumerate(cards)
    ]
    return '<div class="bl-tricks">' + "".join(cells) + "</div>"


def sheet_html(
    game: GameScore, *, current: int | None = None, flagged: Collection[int] = ()
) -> str:
    """The score sheet: a row a deal (⚠️ on a deal whose checks fail, the deal on screen
    shaded), each cell the deal's points over the running total, `…` for tricks not in yet; a
    total row with the leader (or the tied leaders) marked."""
    head = "".join(f"<th>{escape(name)}</th>" for name in game.names)
    rows = []
    several = len(game.deals) > 1
    for index, (deal, running) in enumerate(zip(game.deals, game.running, strict=True)):
        cells = []
        for points, total in zip(deal, running, strict=True):
            shown = "…" if points is None else points_text(points)
            run = f'<span class="run">{points_text(total)}</span>' if several and index else ""
            cells.append(f"<td>{shown}{run}</td>")
        mark = " ⚠️" if index in flagged else ""
        row_class = ' class="cur"' if index == current else ""
        rows.append(f"<tr{row_class}><td>{index + 1}{mark}</td>{''.join(cells)}</tr>")
    winners = set(game.winners)
    totals = "".join(
        f'<td class="{"win" if name in winners else ""}">{points_text(total)}</td>'
        for name, total in zip(game.names, game.totals, strict=True)
    )
    return (
        '<div class="bl-sheet-wrap"><table class="bl-sheet">'
        f"<tr><th>Deal</th>{head}</tr>{''.join(rows)}"
        f'<tr class="tot"><td>Total</td>{totals}</tr></table></div>'
    )


def leader_line(game: GameScore) -> str:
    """Who is ahead (or won, when the table stops here), in words."""
    complete = sum(1 for deal in game.deals if None not in deal)
    if not complete:
        return "No deal complete yet: photograph or type each player's tricks below."
    best = points_text(max(game.totals))
    deals = f"after {len(game.deals)} deal" + ("" if len(game.deals) == 1 else "s")
    if complete < len(game.deals):
        deals += f" ({len(game.deals) - complete} still open)"
    if game.is_tie:
        names = ", ".join(game.winners[:-1]) + " and " + game.winners[-1]
        return f"🤝 {names} share the lead with {best} {deals}."
    return f"🏆 {game.winner} leads with {best} {deals}."
