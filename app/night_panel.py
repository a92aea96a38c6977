"""A night of Black Cat on the Black Cat page (UI only): the night's games in Session State, the
night's sheet with who leads, the game on screen, "Next game" and the night's CSV.

The night is a frozen `blackcat.tables.black_cat_night.Night` in `st.session_state.night` that
every action replaces (undo, "history", is a list of earlier nights: it covers "Next game" too).
The page edits the game on screen (`table`): a `black_cat_table` operation goes through `act`,
a whole new table through `commit_table`, so a finished game is opened and corrected with the
same tools as the game in play, and the night's sheet follows.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from html import escape
from typing import Any

import card_taps
import downloads
import game_state
import language
import night_view
import photo_store
import sheet_view
import streamlit as st
from card_widgets import field_value
from language import _, pgettext

from blackcat.i18n import N_
from blackcat.tables import black_cat_night as nt
from blackcat.tables import black_cat_table as ts
from blackcat.tables import changes


def _from_another_phone(before: nt.Night, after: nt.Night) -> None:
    photo_store.bring(st.session_state.photos, ts.photos_on(after.games))
    card_taps.let_go_of_cards_on(ts.piles_changed(before.table, after.table))
    # another phone's next game (or new night) has players of new ids
    keep_player_shown(before.table, after.table)


NIGHT: game_state.Undoable[nt.Night] = game_state.Undoable(
    "night",
    "history",
    changes.night_undone,
    arrived=_from_another_phone,
    changed_words=changes.night_changed,
    seen_from=nt.seen_from,
    moved_on=nt.moved_on,
    started_anew=changes.night_started_anew,
    local=nt.named_in,
)
GAME_KEY = "night-game"  # the choice of the game on screen
SCORES_KEY = "night-scores"


def scored(game: ts.Table) -> ts.TableResult:
    """The game's score, kept while the game is unchanged: a game is frozen, so an unchanged
    one is the same object from run to run, and a long night scores only the game changed (at
    50 games scoring them all was the page run's largest cost)."""
    kept: dict[int, tuple[ts.Table, ts.TableResult]] = st.session_state.setdefault(SCORES_KEY, {})
    hit = kept.get(id(game))
    if hit is not None and hit[0] is game:
        return hit[1]
    result = ts.score_table(game)
    kept[id(game)] = (game, result)  # the game kept with it: its id is not reused meanwhile
    return result


def forget_old_scores() -> None:
    """Only the night's games keep their scores (a changed game's old score goes)."""
    kept = st.session_state.get(SCORES_KEY, {})
    games = {id(game) for game in night().games}
    st.session_state[SCORES_KEY] = {key: hit for key, hit in kept.items() if key in games}


def night() -> nt.Night:
    return st.session_state.night


def table() -> ts.Table:
    """The game on screen."""
    return night().table


def name_the_example() -> None:
    """The untouched example's player named in the page's language, as if the example had been
    made in it, and at the page's first run or after a switch of language, the players the app
    named ("Player 2" now "Jugador 2", in every game and in Undo's): no change to undo."""
    state = st.session_state
    named = nt.with_table(night(), ts.example_named(table(), language.tr()))
    if named is not night():
        state.night = named
    if state.get("black_cat_language") != language.current():
        NIGHT.say_in_language()
        state.black_cat_language = language.current()


def commit_table(new: ts.Table) -> bool:
    """`new` becomes the game on screen (False: not, in a shared night another phone had just
    changed: `game_state.Undoable.commit`)."""
    return NIGHT.commit(nt.with_table(night(), new))


def act(
    operation: Callable[..., ts.Table], *args: Any, after: Callable[[], None] | None = None
) -> None:
    """A `black_cat_table` operation (`game_state.Act`) on the game on screen, or on the game
    of the player or pile it names first, where that is another (`nt.on_game_of`): a field of
    game 1 sent as another phone's next game came on screen (its run broken off by the tap),
    whose card went nowhere; the page says where it went."""
    named = named_id(args)
    elsewhere = None if named is None else nt.game_holding(night(), named)
    if elsewhere is not None and elsewhere != night().current:
        after = _said_made_in(elsewhere, after)
    NIGHT.apply(nt.on_game_of, named, operation, *args, after=after)


def act_on_latest(operation: Callable[..., ts.Table], *args: Any) -> None:
    """A `black_cat_table` operation that holds for the game on screen as another phone of a
    shared night may just have left it (a photo's cards given to a player)."""
    NIGHT.apply(nt.on_table, operation, *args, to_latest=True)


def act_on_latest_of(item_id: int, operation: Callable[..., ts.Table], *args: Any) -> None:
    """`act_on_latest` on the game that holds the player or pile `item_id` (`nt.on_game_of`): a
    photo given to a player of game 1, read as another phone's next game came, goes to game 1
    (the game on screen had no such player: it was refused, and its cards went nowhere)."""
    NIGHT.apply(nt.on_game_of, item_id, operation, *args, to_latest=True)


def named_id(args: tuple[Any, ...]) -> int | None:
    """The id of the player or pile an operation's arguments name first (a table operation's
    first argument, where it is an id); None for one on the whole game (its variants)."""
    return args[0] if args and type(args[0]) is int else None


MADE_IN = N_(
    "Made in game {number}, the game it was typed or tapped in; game {shown} is on screen."
)


def _said_made_in(index: int, after: Callable[[], None] | None) -> Callable[[], None]:
    def said() -> None:
        if after is not None:
            after()
        shown = night().current + 1
        st.toast(_(MADE_IN).format(number=index + 1, shown=shown), icon="✏️")

    return said


def pile(pile_id: int) -> ts.Pile | None:
    """The pile of this id in whichever game of the night holds it (`nt.game_holding`)."""
    index = nt.game_holding(night(), pile_id)
    return None if index is None else night().games[index].pile(pile_id)


def player_kept(before: ts.Table, now: ts.Table, shown: int | None) -> int:
    """The player `now` shows where `before` showed `shown`: the player of the same name (a
    game's players have ids of their own: another game's may be another player's), else the
    same id (renamed), else the first."""
    name = next((p.name for p in before.players if p.id == shown), None)
    named = next((p.id for p in now.players if name and ts.same_name(p.name, name)), None)
    if named is not None:
        return named
    return shown if shown in {p.id for p in now.players} else now.players[0].id


def keep_player_shown(before: ts.Table, now: ts.Table) -> None:
    """The same player's piles stay shown as `now` replaces `before` on screen (in another
    game, where they played it; the first player's where they didn't)."""
    state = st.session_state
    if now is not before:
        state.player = player_kept(before, now, state.get("player"))


def _same_player_shown(change: Callable[[], None]) -> None:
    """`change` may put another game on screen; the same player's piles stay shown."""
    before = table()
    change()
    keep_player_shown(before, table())


def add_player() -> None:
    """A newcomer at the game on screen, with a name no game of the night has."""
    NIGHT.apply(nt.add_player, language.tr())


def undo() -> None:
    _same_player_shown(NIGHT.undo)


def next_game() -> None:
    _same_player_shown(lambda: NIGHT.apply(nt.next_game, language.tr()))


def on_choose_game() -> None:
    chosen = st.session_state[GAME_KEY]
    _same_player_shown(lambda: NIGHT.apply(nt.choose_game, chosen))


def new_night() -> None:
    NIGHT.apply(nt.restart, language.tr())
    st.session_state.player = table().players[0].id


def buttons() -> None:
    """ "Next game" and "New game" (with several games: "New night"), for the page's row of
    buttons."""
    now = night()
    st.button(
        _("➕ Next game"),
        key="next-game",
        wrap=True,
        on_click=next_game,
        help=(
            _("The first game of your own: the example makes way (Undo brings it back)")
            if now.table.example  # the example is no game of the night's sheet
            else _("The same players, a new table: this game stays on the night's sheet")
        ),
    )
    several = len(now.games) > 1
    if several:
        what = _("All {count} games of the night go; the same names (Undo brings them back).")
    elif now.table.example:  # the example's player is no player of this table's
        what = _("Empty piles for a player of your own (Undo brings the example back).")
    else:
        what = _("Empty piles for every player, the same names (Undo brings them back).")
    game_state.confirm_new_game(
        new_night, what.format(count=len(now.games)), thing="night" if several else "game"
    )


def show_night() -> None:
    """With several games: the night's sheet, who leads, and the game on screen to choose."""
    now = night()
    if len(now.games) < 2:
        return
    score = nt.score_night(now, scored)
    st.markdown(sheet_view.CSS, unsafe_allow_html=True)
    st.markdown("### " + _("🌙 The night: {count} games").format(count=len(now.games)))
    sheet = night_view.night_sheet_html(score, current=now.current, tr=language.tr())
    st.markdown(sheet, unsafe_allow_html=True)
    icon = "🤝" if len(score.leaders) > 1 else "🏆"
    line = nt.night_line(score, language.tr())
    st.markdown(f'<div class="bc-result">{icon} {escape(line)}</div>', unsafe_allow_html=True)
    st.caption(
        _(
            "Points per game, the night's total and the games won (a tie wins nobody). Choose a "
            "finished game to correct it: the totals follow."
        )
    )
    st.segmented_control(
        _("Game on screen"),
        list(range(len(now.games))),
        default=field_value(GAME_KEY, now.current),
        format_func=partial(game_choice, len(now.games)),
        key=GAME_KEY,
        required=True,
        on_change=on_choose_game,
    )
    if now.current != now.in_play:
        text = _(
            "✏️ **Game {number}, finished**, on screen: a fix here re-scores it and "
            "the night's totals follow. Game {in_play} is the game in play."
        )
        st.info(text.format(number=now.current + 1, in_play=now.in_play + 1))


def game_choice(games: int, index: int) -> str:
    """How the choice of game on screen names game `index` of `games` (`column_choice`)."""
    return sheet_view.column_choice(games, index, _("Game {number}"))


def show_download() -> None:
    """The night's CSV among the page's downloads; none for a night of one game (the
    scoreboard's CSV says it all)."""
    now = night()
    if len(now.games) > 1:
        name = pgettext("a file name", "black-cat-night")
        night_csv = partial(nt.night_csv, now, language.tr())
        downloads.csv_button("night-csv", _("Night CSV"), night_csv, name)
