"""HTML for the Black Lady page: a player's tricks as cards with their points, and the score
sheet (a row a player with their total, a column a deal: `sheet_view`'s, shared with a night of
Black Cat). Pure functions of the engine's values, like `pile_view` (whose card cells and CSS they
share)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import sheet_view
from pile_view import (
    CARD_WIDTH,
    card_cell_html,
    empty_strip_html,
    field_width_css,
    strip_tab_stop,
)
from sheet_view import SheetRow

from blackcat.games.black_lady import DEFAULT_RULES, GameScore, Rules, card_points
from blackcat.games.cards import Card
from blackcat.i18n import ENGLISH, Translator, and_list

SEAT_FIELD_REM = 6.25  # a seat's name field, its key "lady-name:{seat}" (`field_width_css`)

CSS = (
    f"""
<style>
.bl-tricks {{ display: grid; gap: 3px 2px; padding: 2px 0 6px 0;
  grid-template-columns: repeat(auto-fill, minmax({CARD_WIDTH}, 1fr)); }}
{field_width_css("st-key-lady-name-", SEAT_FIELD_REM)}
</style>
"""
    + sheet_view.CSS
)


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
    pile_id: int | None = None,
    selected: int | None = None,
    tr: Translator = ENGLISH,
) -> str:
    """A player's tricks, numbered 1, 2, ..., each scoring card with its points under it;
    doubtful cards in orange, cards read twice in red. With `pile_id` its cards answer taps;
    the `selected` position is outlined."""
    if not cards:
        return empty_strip_html(tr)
    cells = [
        card_cell_html(
            card,
            str(position + 1),
            None,
            note=points_text(card_points(card, rules)) if card_points(card, rules) else "",
            duplicated=position in duplicated,
            doubtful=position in doubtful,
            tap=None if pile_id is None else (pile_id, position),
            selected=position == selected,
            tab_stop=position == strip_tab_stop(len(cards), selected),
            tr=tr,
        )
        for position, card in enumerate(cards)
    ]
    return '<div class="bl-tricks">' + "".join(cells) + "</div>"


def sheet_html(
    game: GameScore,
    *,
    current: int | None = None,
    flagged: Collection[int] = (),
    tr: Translator = ENGLISH,
    over: bool = False,
) -> str:
    """The score sheet: a row a player, their total first (it stays in view while the deals
    scroll sideways), then a column a deal (⚠️ on a deal whose checks fail, the deal on screen
    shaded), `…` for tricks not in yet; the leader's total (or the tied leaders') marked, unless
    a deal fails its checks (as `leader_line` names no leader then), said as the winner's once
    the game is `over`."""
    heads = [f"{index + 1}{' ⚠️' if index in flagged else ''}" for index in range(len(game.deals))]
    winners = set(game.winners)
    rows = [
        SheetRow(
            name,
            points_text(total),
            tuple("…" if deal[seat] is None else points_text(deal[seat]) for deal in game.deals),
            lead=not flagged and name in winners and any(None not in deal for deal in game.deals),
        )
        for seat, (name, total) in enumerate(zip(game.names, game.totals, strict=True))
    ]
    deal = tr.pgettext("a column of the score sheet", "Deal")
    won = (tr.gettext("(tie)") if len(winners) > 1 else tr.gettext("(won)")) if over else None
    return sheet_view.sheet_html(
        heads, rows, current=current, column_word=deal, lead_word=won, tr=tr
    )


def leader_line(
    game: GameScore,
    flagged: Collection[int] = (),
    tr: Translator = ENGLISH,
    deals_to_play: int | None = None,
    over: bool = False,
) -> str:
    """Who is ahead, in words (after so many of the game's `deals_to_play`), or who won once
    the game is `over` (`black_lady_table.over`); nobody while a deal fails its checks (its
    points may be wrong)."""
    if flagged:
        numbers = and_list([str(index + 1) for index in sorted(flagged)], tr)  # "1 and 3"
        line = tr.ngettext(
            "⚠️ No leader yet: deal {numbers} must pass its checks first.",
            "⚠️ No leader yet: deals {numbers} must pass their checks first.",
            len(flagged),
        )
        return line.format(numbers=numbers)
    complete = sum(1 for deal in game.deals if None not in deal)
    if not complete:
        return tr.gettext("No deal complete yet: photograph or type each player's tricks below.")
    best = points_text(max(game.totals))
    played = len(game.deals)
    if over:
        deals = tr.ngettext("after {count} deal", "after {count} deals", played)
        deals = deals.format(count=played)
        if game.is_tie:
            line = tr.gettext("🤝 Game over: {names} share the win with {points} {deals}.")
            return line.format(names=and_list(game.winners, tr), points=best, deals=deals)
        line = tr.gettext("🏆 Game over: {winner} wins with {points} {deals}.")
        return line.format(winner=game.winner, points=best, deals=deals)
    if deals_to_play is None:
        deals = tr.ngettext("after {count} deal", "after {count} deals", complete)
    else:
        deals = tr.ngettext(
            "after {count} deal of {planned}", "after {count} deals of {planned}", complete
        )
    # the deals complete: "after 2 deals" said so right after "Next deal", one deal in
    deals = deals.format(count=complete, planned=deals_to_play)
    if complete < played:
        deals += " " + tr.gettext("({count} still open)").format(count=played - complete)
    if game.is_tie:
        tied = and_list(game.winners, tr)
        line = tr.gettext("🤝 {names} share the lead with {points} {deals}.")
        return line.format(names=tied, points=best, deals=deals)
    line = tr.gettext("🏆 {winner} leads with {points} {deals}.")
    return line.format(winner=game.winner, points=best, deals=deals)
