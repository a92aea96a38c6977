"""The Black Lady page: the second game on the same reader (UI only), at its own path
(`/black-lady`) of the app's pages; the game switch at the top of both pages is `choose_game`.

A Hearts relative scored from the cards in each player's tricks (`blackcat.games.black_lady`). The
game, deal after deal, is a frozen `blackcat.tables.black_lady_table.LadyGame` in
`st.session_state.lady` that every action replaces (undo is a list of earlier games); the page's
address holds it (`?lady=`, `blackcat.tables.table_link`), so a reload or a shared link opens the
same game. Each deal is a `black_cat_table.Table` with one pile per player, so photos and card
corrections are Black Cat's own (`photo_input`, `card_widgets`, `card_taps`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from html import escape
from pathlib import Path
from typing import Any

import card_taps
import card_widgets
import downloads
import game_state
import lady_view
import language
import live_table
import panels
import photo_input
import photo_store
import photo_view
import pile_view
import reader_access
import sharing
import sheet_view
import streamlit as st
from card_widgets import chip
from language import _, ngettext, pgettext
from photo_store import PhotoRecord
from reader_access import PhotoOutcome, Words

from blackcat.games.black_lady import MAX_PLAYERS, MIN_PLAYERS, Rules, cards_each, set_aside
from blackcat.i18n import N_, Translator, and_list
from blackcat.tables import black_cat_table as ts
from blackcat.tables import black_lady_table as lt
from blackcat.tables import changes, table_link

GAMES = (N_("Black Cat"), N_("Black Lady"))  # shown in the page's language (Gato negro)
BLACK_CAT, BLACK_LADY = GAMES
PAGE_PATH = "black-lady"
LINK_PARAM = "lady"
HOW_WE_SCORE = Path(__file__).resolve().parent / "how_black_lady_scores.md"
IN_ALREADY = N_("{name} is already in this deal ({owner}'s tricks).")
IN_ANOTHERS = N_(
    "{name} is already in this deal ({owner}'s tricks). If it shows {player}'s tricks: under "
    "{owner}'s tricks, tap *Take this photo's cards off*, then upload it again for {player}."
)
NOTHING_TO_PHOTOGRAPH = N_(
    "{name} took no trick: nothing to photograph. To undo it, switch off *{name} took no trick "
    "(+50)* below."
)
HOW_TO_PHOTOGRAPH = N_(
    "Spread the cards of the player's tricks out on the table, in rows or any way, with every "
    "card's corner showing, photograph from straight above in good light"
)


def how_we_score() -> Path:
    """The page's language's copy of the how-we-score panel (`how_black_lady_scores.es.md`),
    else the English one."""
    translated = HOW_WE_SCORE.with_suffix(f".{language.current()}.md")
    return translated if translated.is_file() else HOW_WE_SCORE


def choose_game(current: str, pages: dict[str, Any]) -> None:
    """The game switch at the top of every page: each game is a page of its own (its own path
    in the address); switching keeps the key and both games' tables in the address."""
    state = st.session_state
    wanted = state.pop("game_wanted", None)
    if wanted in pages and wanted != current:
        st.switch_page(pages[wanted], query_params=sharing.kept_params())
    state.game = current
    st.segmented_control(
        _("Game"),
        GAMES,
        default=current,  # as set (card_widgets.field_value says why)
        format_func=_,
        key="game",
        wrap=True,  # rows at a large text size, where Streamlit scrolled a choice out of sight
        required=True,
        label_visibility="collapsed",
        width="stretch",
        on_change=_on_game,
    )


def _on_game() -> None:
    st.session_state.game_wanted = st.session_state.game


# ---------------------------------------------------------------------------------------------
# State and actions


def init_state() -> None:
    """The game in the address (a reload, a shared link), or a new one."""
    state = st.session_state
    if "lady" in state:
        return
    state.lady, state.lady_history, state.lady_photos = (
        lt.opening_game(black_cat_names(), language.tr(), black_cat_unnamed()),
        [],
        {},
    )
    state.lady_text_errors = {}
    text = st.query_params.get(LINK_PARAM)
    if text is None:
        return
    try:
        state.lady = table_link.decode_lady(text, photo_store.read_at)
    except table_link.LinkError as error:
        note = table_link.link_error_text(error, language.tr())
        state.lady_link_note = f"{note[:1].upper()}{note[1:]}. " + _("Here is a new game instead.")
        return
    keys = [key for deal in state.lady.deals for p in deal.table.players for key in ts.photos_of(p)]
    state.lady_photos = photo_store.photos_on_server(keys)
    state.lady_history = sharing.recall_history(LINK_PARAM, text)


def black_cat_names() -> tuple[str, ...]:
    """The players of the night's Black Cat game on screen (none while it is the example, or
    before the page has one)."""
    night = st.session_state.get("night")
    if night is None or night.table.example:
        return ()
    return tuple(player.name for player in night.table.players)


def black_cat_unnamed() -> list[int]:
    """The places of `black_cat_names`' players the app named ("Player 2")."""
    night = st.session_state.get("night")
    return [] if night is None or night.table.example else ts.unnamed_places(night.table)


def link_text(now: lt.LadyGame) -> str | None:
    """The game as a link's text; None for the untouched new game (the plain address)."""
    if lt.untouched(now, language.tr()):
        return None
    return table_link.encode_lady(now, photo_store.read_index_in(st.session_state.lady_photos))


def game() -> lt.LadyGame:
    return st.session_state.lady


def _from_another_phone(before: lt.LadyGame, after: lt.LadyGame) -> None:
    tables = (deal.table for deal in after.deals)
    photo_store.bring(st.session_state.lady_photos, ts.photos_on(tables))
    card_taps.let_go_of_cards_on(ts.piles_changed(before.deal.table, after.deal.table))


GAME: game_state.Undoable[lt.LadyGame] = game_state.Undoable(
    "lady",
    "lady_history",
    changes.lady_undone,
    arrived=_from_another_phone,
    changed_words=changes.lady_changed,
    seen_from=lt.seen_from,
    moved_on=lt.moved_on,
    started_anew=changes.lady_started_anew,
    local=lt.named_in,
)
commit = GAME.commit
do = GAME.apply  # a game operation (black_lady_table)
undo = GAME.undo


def act(
    operation: Callable[..., ts.Table], *args: Any, after: Callable[[], None] | None = None
) -> None:
    """A card correction (a `black_cat_table` operation) on the deal on screen: `game_state.Act`."""
    do(lt.on_deal, operation, *args, after=after)


def on_tricks_text(seat: int, pile_id: int, key: str) -> None:
    """Typed tricks: the first cards typed for a seat move the page on to the next seat whose
    tricks aren't in, as a photo's do (helper-56: the phone's keyboard left the player under
    the typed box, "Whose tricks" scrolled away)."""
    cards = card_widgets.typed_cards(key, pile_id, st.session_state.lady_text_errors)
    # the deal the field was drawn in: another phone's next deal may be on screen since
    if cards is None or cards == lt.tricks_of(game(), pile_id):
        return
    before = game()
    typed = partial(do, lt.set_tricks_of, pile_id, cards, after=card_taps.let_go_of_every_card)
    game_state.typed_in(typed, cards)
    now = game()
    following = next_to_photograph(now, seat)
    first = before.deal.cards(seat) is None
    # put in, in the deal on screen: not another phone's taken in instead, nor an earlier deal
    made_here = lt.deal_holding(now, pile_id) == now.current and lt.tricks_of(now, pile_id) == cards
    if made_here and first and cards and following != seat:
        st.session_state.lady_seat = following
        # typed by keys, the next player's are typed next: the focus goes to their field
        language.focus_on(f"lady-text:{now.deal.tricks(following).id}")
        st.toast(
            _("{name}'s tricks are in. Next: {next}'s tricks.").format(
                name=now.names[seat], next=now.names[following]
            ),
            icon="✅",
        )


def on_no_tricks(seat: int, key: str) -> None:
    do(lt.mark_no_tricks, seat, bool(st.session_state[key]))


def on_rename(seat: int, key: str) -> None:
    """A seat renamed. In a shared game the seat may be one another phone took away: its field,
    sent back as it was shown, then asks nothing (its name typed there showed an error page)."""
    GAME.catch_up_and_say()  # a shared game: the names as another phone left them
    names, typed = game().names, st.session_state[key]
    if seat >= len(names) and card_widgets.sent_back_unchanged(key):
        return
    try:
        commit(lt.rename(game(), seat, typed))
    except ts.TableError as error:
        game_state.refuse(error)
        if seat < len(names):
            st.session_state[key] = names[seat]


def on_pick_deal(key: str) -> None:
    chosen = st.session_state[key]
    if chosen is not None:
        do(lt.choose_deal, chosen)


def on_player_count(key: str) -> None:
    count = st.session_state[key]
    if count is not None:
        do(lt.with_players, count, language.tr())


def on_ace(key: str) -> None:
    do(lt.set_rules, Rules(ace_hearts=10 if st.session_state[key] else 11))


@dataclass(frozen=True)
class PhotoNote:
    """What became of an uploaded photo of tricks, for the page."""

    kind: str  # the Streamlit call: success, info, warning or error
    words: Words  # photo_input.NAME_MARK marks the place of the seat's current name
    photo: str | None = None  # a photo read: the note ends with what to check in its cards
    then: int | None = None  # the seat whose tricks are next
    seat: int | None = None  # the seat the note names

    def message(self, now: lt.LadyGame) -> str | None:
        """The note as the game is now: its players' names as they are, the orange cards it
        asks about those left in the deal on screen, in the page's language; None once the
        photo's cards were taken off the table (as Black Cat's notes)."""
        text = self.words()
        if self.seat is not None and self.seat < len(now.names):
            text = text.replace(photo_input.NAME_MARK, now.names[self.seat])
        if self.photo is None:
            return text
        deal = now.deal.table
        if ts.photo_owner(deal, self.photo) is None:
            return None
        doubtful = ts.doubtful_from(deal, self.photo)
        text = f"{text} {photo_input.check_words(doubtful)}"
        nobody_next = self.then is None or self.then >= len(now.names)
        if nobody_next or now.deal.cards(self.then) is not None:  # or their tricks are in since
            return text
        then = _("Then {name}'s tricks.") if doubtful else _("Next: {name}'s tricks.")
        return f"{text} {then.format(name=now.names[self.then])}"


def add_photo(data: bytes, name: str, seat: int) -> PhotoNote:
    """Read a photo and add every card in it to the seat's tricks in the deal on screen, and
    say so; whatever happens, what is already in stays."""
    key = reader_access.photo_key(data)
    now = game()
    if ts.reads_lost(now.deal.table, key):  # the app lost the photo (restarted): a link's cards
        return read_back(data, name, key)
    owner = ts.photo_owner(now.deal.table, key)
    if owner is not None:
        seat_named = now.names.index(owner) if owner in now.names else None
        named = photo_input.NAME_MARK if seat_named is not None else owner
        if seat_named in (None, seat):
            return PhotoNote(
                "info", lambda: _(IN_ALREADY).format(name=name, owner=named), seat=seat_named
            )
        # given to the wrong player before: say how it goes to this one
        return PhotoNote(
            "info",
            lambda: _(IN_ANOTHERS).format(name=name, owner=named, player=game().names[seat]),
            seat=seat_named,
        )
    outcome = reader_access.read_upload(data, name, 1, HOW_TO_PHOTOGRAPH)
    if not isinstance(outcome, PhotoOutcome):
        return PhotoNote(*outcome)
    record = PhotoRecord.of(name, outcome)
    photo_store.keep(st.session_state.lady_photos, key, record)  # first: for a shared game
    do(lt.add_photo, seat, key, outcome.rows, to_latest=True)
    if ts.photo_owner(game().deal.table, key) is None:  # another phone's change came first
        return PhotoNote("warning", lambda: _(game_state.PHOTO_NOT_GIVEN).format(name=name))
    read = replace(outcome.summary(), grid=False, no_row=False)  # tricks: rows don't matter

    def note() -> tuple[str, str]:  # written when shown, in the page's language then
        cards = ngettext("{count} card", "{count} cards", read.cards).format(count=read.cards)
        text = _("{name}: {cards}, given to {player}.").format(
            name=name, cards=cards, player=photo_input.NAME_MARK
        )
        return read.note("success", text)

    return PhotoNote(note()[0], lambda: note()[1], key, then=move_on(seat, key), seat=seat)


def read_back(data: bytes, name: str, key: str) -> PhotoNote:
    """A photo whose tricks are in the deal without their reads, read again: they get them
    back, and the photo shows again."""
    record = photo_store.read_record(data, name, 1, HOW_TO_PHOTOGRAPH)
    if not isinstance(record, PhotoRecord):
        return PhotoNote(*record)
    photo_store.keep(st.session_state.lady_photos, key, record)
    do(lt.on_deal, ts.restore_reads, key, record.reads, to_latest=True)
    owner = ts.photo_owner(game().deal.table, key)
    if owner in game().names:  # the page shows whose tricks they are, as after a first upload
        st.session_state.lady_seat = game().names.index(owner)
    return PhotoNote("info", lambda: _(reader_access.READS_BACK).format(name=name), key)


def move_on(seat: int, photo: str) -> int | None:
    """After a photo of the seat's tricks: the next seat whose tricks aren't in takes the page,
    unless the photo left cards in orange to fix at the seat first (or every other seat's are
    in): then the seat takes it. The seat whose tricks come next, if any."""
    now = game()
    following = next_to_photograph(now, seat)
    doubtful = any(slot.doubtful and slot.photo == photo for slot in now.deal.tricks(seat).slots)
    # from the photo's seat: another tapped just after the photo (`photo_input.given_for`) too
    st.session_state.lady_seat = seat if doubtful or following == seat else following
    return None if following == seat else following


def next_to_photograph(now: lt.LadyGame, seat: int) -> int:
    """The next seat after `seat`, round the table, whose tricks aren't in yet; `seat` when
    every other seat's are."""
    seats = len(now.names)
    for step in range(1, seats):
        if now.deal.cards((seat + step) % seats) is None:
            return (seat + step) % seats
    return seat


# ---------------------------------------------------------------------------------------------
# Drawing the page


NOT_IN_YET = N_("not in yet")
TRICKS_IN = "✓"
NO_TRICK = N_("✓ no trick")


def tricks_to_come(tr: Translator) -> str:
    """The mark of a seat whose tricks are still to come, in words: a "…" after the name
    ("Ben …") looked like a name cut off."""
    return f"({tr.gettext(NOT_IN_YET)})"


def status(now: lt.LadyGame, seat: int) -> str:
    """The mark after a seat's name in "Whose tricks": its tricks to come, in, or none taken."""
    cards = now.deal.cards(seat)
    if cards is None:
        return tricks_to_come(language.tr())
    return TRICKS_IN if cards else _(NO_TRICK)


def seat_marks_said(tr: Translator) -> list[list[str]]:
    """The words a screen reader says for each seat's mark ("Ana (not in yet)" is "Ana, tricks
    still to come"): `language.show_switch`'s `marks_said`."""
    seats = ".st-key-lady_seat [role=radio]"
    return [
        [seats, tr.gettext(NO_TRICK), tr.gettext(", no trick taken")],
        [seats, TRICKS_IN, tr.gettext(", tricks in")],
        [seats, tricks_to_come(tr), tr.gettext(", tricks still to come")],
    ]


def flagged_deals(now: lt.LadyGame) -> set[int]:
    return {index for index in range(len(now.deals)) if lt.problems(now, index, language.tr())}


def show_sheet(now: lt.LadyGame) -> None:
    sheet = lt.sheet(now)
    flagged = flagged_deals(now)
    st.markdown(
        lady_view.sheet_html(
            sheet, current=now.current, flagged=flagged, tr=language.tr(), over=lt.over(now)
        ),
        unsafe_allow_html=True,
    )
    line = lady_view.leader_line(sheet, flagged, language.tr(), now.deals_to_play, lt.over(now))
    with st.container(key="spoken-leader"):  # a screen reader hears who leads, who won
        st.markdown(f'<div class="bc-result">{escape(line)}</div>', unsafe_allow_html=True)
    with st.container(horizontal=True, gap="small"):
        st.button(
            _("↶ Undo"), key="lady-undo", on_click=undo, disabled=not st.session_state.lady_history
        )
        last = lt.at_last_deal(now)
        ends = ngettext(
            "The game ends after {count} deal: more in ⚙️ Rules, below",
            "The game ends after {count} deals: more in ⚙️ Rules, below",
            now.deals_to_play or 0,
        ).format(count=now.deals_to_play)
        st.button(
            _("➕ Next deal"),
            key="lady-next",
            wrap=True,
            on_click=next_deal,
            disabled=last,
            help=ends if last else _("A new column on the score sheet"),
        )
        game_state.confirm_new_game(
            new_game,
            _("The same players, an empty score sheet (Undo brings it back)."),
            key="lady-new",
        )
    if last and not lt.over(now):  # said: a touch screen shows no tooltip
        st.caption(ends)
    if len(now.deals) > 1:
        pick_key = "lady-deal"
        st.segmented_control(
            _("Deal on screen"),
            list(range(len(now.deals))),
            default=card_widgets.field_value(pick_key, now.current),
            format_func=partial(deal_choice, len(now.deals)),
            key=pick_key,
            on_change=on_pick_deal,
            args=(pick_key,),
        )
        number = now.current + 1
        deal_id = now.deal.table.players[0].id  # distinct per deal
        gone = _("Deal {number} is off the score sheet.").format(number=number)
        # asked first, and a button of its own a deal: the next deal's took its place, for a
        # second tap (or Enter) to remove that one too
        game_state.confirm(
            _("🗑 Remove deal {number}").format(number=number),
            _("**Remove deal {number}?** Its tricks go (Undo brings them back).").format(
                number=number
            ),
            _("Yes, remove deal {number}").format(number=number),
            partial(do, lt.remove_deal, now.current, after=game_state.undoable(gone)),
            key=f"lady-remove-deal:{deal_id}",
            help=_("Takes deal {number} off the score sheet (Undo brings it back)").format(
                number=number
            ),
        )


def new_game() -> None:
    do(lt.restart, after=select_first_seat)
    language.focus_on(PLAYER_COUNT_KEY)  # the keyboard starts where a new game does


def deal_choice(deals: int, index: int) -> str:
    """How the choice of deal on screen names deal `index` of `deals` (`column_choice`)."""
    return sheet_view.column_choice(deals, index, _("Deal {number}"))


def show_checks(now: lt.LadyGame) -> None:
    players = len(now.names)
    aside = " ".join(card.label for card in set_aside(players))
    out = _("{cards} set aside").format(cards=aside) if aside else _("no card set aside")
    st.markdown("### " + _("Deal {number}").format(number=now.current + 1))
    each = _("{players} players: {aside}, {count} cards each.")
    st.caption(each.format(players=players, aside=out, count=cards_each(players)))
    problems = lt.problems(now, now.current, language.tr())
    waiting = lt.waiting_for(now, now.current)
    if problems:
        lines = "\n".join(f"- {p.message[:1].upper()}{p.message[1:]}." for p in problems)
        check = _("**Check these.** The deal scores as it stands until they are fixed.")
        st.warning(f"{check}\n{lines}")
    elif waiting:
        names = and_list(waiting, language.tr())
        st.info(
            _(
                "Waiting for the tricks of {names}. Someone who took no trick: choose them below "
                "and switch on *took no trick*."
            ).format(names=names)
        )
    else:
        st.success(
            _(
                "✅ Every check passes: each heart and the Q♠ once, no card twice, every card "
                "in play in whole tricks."
            )
        )


def next_deal() -> None:
    """A new deal, its first player's tricks on screen (the last seat shown stayed)."""
    do(lt.next_deal, after=select_first_seat)


def select_first_seat() -> None:
    st.session_state.lady_seat = 0


def seat_in_address(seats: int) -> int:
    """The seat whose tricks the page's address shows (`?seat=`), 0 where it names none."""
    text = st.query_params.get(sharing.SEAT_PARAM, "")
    return int(text) if text.isdigit() and int(text) < seats else 0


def show_seat_choice(now: lt.LadyGame) -> int:
    # the words as this run says them (AppTest formats a value it chooses outside any run)
    shown = {seat: f"{name} {status(now, seat)}" for seat, name in enumerate(now.names)}
    st.segmented_control(
        _("Whose tricks"),
        list(shown),
        default=st.session_state.lady_seat,  # as set (card_widgets.field_value says why)
        format_func=shown.__getitem__,
        key="lady_seat",
        required=True,
    )
    return st.session_state.lady_seat


def show_photo_inputs(now: lt.LadyGame, seat: int) -> None:
    name = now.names[seat]
    st.markdown("### " + _("📷 {name}'s tricks").format(name=name))
    deal_id = now.deal.table.players[0].id  # distinct per deal
    prefix = f"lady:{deal_id}:"  # one uploader a deal: its notes stay as the page moves on
    if now.deal.cards(seat) == ():  # marked as having taken no trick: nothing to photograph
        st.caption(_(NOTHING_TO_PHOTOGRAPH).format(name=name))
        # photos given just before the switch to this seat: read as the seat's they were for
        files = photo_input.left_behind(prefix)
    else:
        reader_access.reader_note()
        if not now.deal.tricks(seat).slots:
            on_a_phone = _("On a phone, *Upload* also offers the camera.")
            st.caption(f"{_(HOW_TO_PHOTOGRAPH)}. {on_a_phone}")
        camera_label = _("Photo of {name}'s tricks").format(name=name)
        files = photo_input.photo_inputs(_(HOW_TO_PHOTOGRAPH), camera_label, prefix=prefix)
    # a tap on another seat just after a photo came in its run: the photo is the seat's shown
    given = photo_input.given_for(files, seat, range(len(now.names)), prefix)
    notes = photo_input.take_uploads(files, lambda data, file: add_photo(data, file, given), prefix)
    with photo_input.notes_box(prefix):
        for file, note in notes:
            message = note.message(game())
            if message is not None:
                photo_input.show_note(note.kind, message, file)


card_number = lt.trick_number  # a card of a player's tricks: 1, 2, ... (no rows)


def on_card_tap(pile_id: int, position: int) -> None:
    """A card of the tricks on screen tapped: picked (the editor opens at it, with whose tricks
    it may go to) or let go (card_taps.tap_card)."""
    card_taps.tap_card(every_tricks(), pile_id, position, lambda pid: f"lady-fix:{pid}")


def every_tricks() -> list[ts.Pile]:
    now = game()
    return [now.deal.tricks(seat) for seat in range(len(now.names))]


def pick_for_fixing(pile_id: int, position: int) -> None:
    """The card picked and its tricks' editor opened, where the list of every card is."""
    card_taps.pick_card(every_tricks(), pile_id, position, f"lady-fix:{pile_id}")


def show_tricks(now: lt.LadyGame, seat: int) -> None:
    deal = now.deal
    player = deal.table.players[seat]
    pile = deal.tricks(seat)
    photos: dict[str, PhotoRecord] = st.session_state.lady_photos
    for key in ts.photos_of(player):
        record = photos.get(key)
        if record is not None:
            marks = ts.photo_marks(player, key)
            also = ts.others_with_photo(deal.table, player, key)
            photo_view.show_photo(key, record, marks, act, where="tricks", also=also)
    cards = deal.cards(seat)
    if cards is None:
        points = _(NOT_IN_YET)
    else:
        points = lady_view.points_text(lt.deal_points(now, now.current)[seat])
        points = _("{points} (took no trick)").format(points=points) if not cards else points
    count = len(pile.slots)
    cards_text = ngettext("{count} card", "{count} cards", count).format(count=count)
    with st.container(key=language.SPOKEN_KEY):  # a screen reader hears it change
        st.markdown(f"**{player.name}: {points}** · {cards_text}")
    doubtful = [position for position, slot in enumerate(pile.slots) if slot.doubtful]
    twice = {  # read twice, or set aside: in red, "on the table too often"
        c
        for p in lt.problems(now, now.current, language.tr())
        if p.kind in ("doubled", "set_aside")
        for c in p.cards
    }
    if cards != ():  # else "+50 (took no trick)" above: "No cards yet." would wait for some
        st.markdown(
            lady_view.tricks_html(
                pile.cards,
                now.rules,
                doubtful=doubtful,
                duplicated={i for i, card in enumerate(pile.cards) if card in twice},
                pile_id=pile.id,
                selected=st.session_state.get(f"sel:{pile.id}"),
                tr=language.tr(),
            ),
            unsafe_allow_html=True,
        )
    picked = st.session_state.get(f"sel:{pile.id}")
    if picked is not None and picked < len(pile.slots):
        picked_words = _(
            "**Card {number} ({card})** picked: change it, or give it to another player's "
            "tricks, above (tap it again to let go)."
        )
        card_widgets.picked_card_rows(
            act,
            pile,
            picked,
            card_number(picked),
            picked_words,
            more=partial(move_to_another, now, seat, pile, picked),
        )
    marks = {"bc-doubtful"} if doubtful else set()
    marks |= {"bc-dup"} if any(card in twice for card in pile.cards) else set()
    st.markdown(pile_view.legend_html(marks, language.tr()), unsafe_allow_html=True)
    if len(doubtful) > 1:
        st.button(
            _("✓ All {count} cards in orange are right").format(count=len(doubtful)),
            key=f"lady-all-right:{pile.id}",
            on_click=do,
            args=(lt.confirm_all, seat),
            help=_("Checked them against the photo? Confirm them all at once"),
        )
    out_of_play = set_aside(len(now.names))  # never a guess worth offering
    lying = card_widgets.where_cards_lie(
        deal.table, player, lambda _pile, position: card_number(position)
    )
    for position in doubtful:
        card_widgets.doubtful_prompt(
            act,
            pile,
            position,
            card_number(position),
            not_a_card=True,
            out_of_play=out_of_play,
            other=partial(pick_for_fixing, pile.id, position),
            lying=lying,
        )
    text_key = f"lady-text:{pile.id}"
    st.text_input(
        _("{name}'s tricks, any order").format(name=player.name),
        card_widgets.field_value(text_key, ts.pile_text(pile)),
        key=text_key,
        on_change=on_tricks_text,
        args=(seat, pile.id, text_key),
        placeholder=_(card_widgets.TYPING_HINT),
    )
    error = st.session_state.lady_text_errors.get(pile.id)
    if error:
        st.error(error)
    if not pile.slots:
        none_key = f"lady-none:{pile.id}"
        st.toggle(
            _("{name} took no trick (+50)").format(name=player.name),
            card_widgets.field_value(none_key, player.id in deal.no_tricks),
            key=none_key,
            on_change=on_no_tricks,
            args=(seat, none_key),
        )
    with panels.panel(
        _("✏️ Fix, add or move {name}'s cards").format(name=player.name),
        key=f"lady-fix:{pile.id}",
        on_change="rerun",
    ):
        show_editor(now, seat, pile)


def show_editor(now: lt.LadyGame, seat: int, pile: ts.Pile) -> None:
    pick = _("Tap a card to change, move or delete it")
    selected = card_widgets.pick_slot(pile, pick, card_number)
    card_widgets.delete_button(act, pile, selected)
    if selected is not None:
        # its rank and suit, and whose tricks it may go to, are under the tricks
        # (`show_tricks`), where the tap was
        card_widgets.change_card(
            act, pile.id, selected, card_number(selected), pile.slots[selected]
        )
    st.markdown(_("**Add a card**"))
    card = card_widgets.card_picker(pile.id)
    st.button(
        _("➕ Add {card}").format(card=chip(card)) if card else _("➕ Add"),
        key=f"add:{pile.id}",
        type="primary",
        disabled=card is None,
        on_click=card_widgets.add_picked,
        args=(act, pile, None),
    )


def move_to_another(now: lt.LadyGame, seat: int, pile: ts.Pile, picked: int) -> None:
    """Whose tricks the picked card goes to instead, one tap, said in a toast (it leaves the
    screen)."""
    moved = _("{card} moved to {name}'s tricks.")
    card = pile.slots[picked].card.label
    places = [
        card_widgets.Place(
            f"→ {name}",
            lt.move_to_seat,
            (seat, picked, other),
            said=moved.format(card=card, name=name),
        )
        for other, name in enumerate(now.names)
        if other != seat
    ]
    where = _("Tap whose tricks {number} is in").format(number=card_number(picked))
    card_widgets.move_pills(do, pile, picked, where, places)


PLAYER_COUNT_KEY = "lady-count"


def show_player_setup(now: lt.LadyGame) -> None:
    """A new game starts here: how many play, and their names."""
    st.markdown("### " + _("👥 Who plays?"))
    count_key = PLAYER_COUNT_KEY
    st.segmented_control(
        _("How many players?"),
        list(range(MIN_PLAYERS, MAX_PLAYERS + 1)),
        default=card_widgets.field_value(count_key, len(now.names)),
        key=count_key,
        required=True,
        on_change=on_player_count,
        args=(count_key,),
        width="stretch",
    )
    show_names(now)
    st.caption(_("The number of players is fixed once a deal has cards; names can change later."))


def show_names(now: lt.LadyGame) -> None:
    with st.container(key="lady-names", horizontal=True, gap="small"):
        for seat, name in enumerate(now.names):
            key = f"lady-name:{seat}"
            st.text_input(
                _("Seat {number}").format(number=seat + 1),
                card_widgets.field_value(key, name),
                key=key,
                on_change=on_rename,
                args=(seat, key),
                width=round(lady_view.SEAT_FIELD_REM * pile_view.REM_PX),
            )


def show_players(now: lt.LadyGame) -> None:
    """Once a deal has cards: the names, behind a panel at the bottom."""
    with st.expander(_("👥 Players ({count})").format(count=len(now.names)), key="lady-players"):
        st.caption(
            _(
                "Names can change at any time; the number of players is fixed once a deal has "
                "cards (start a new game to change it)."
            )
        )
        show_names(now)


def show_rules(now: lt.LadyGame) -> None:
    with st.expander(_("⚙️ Rules"), key="lady-rules"):
        key = "lady-ace10"
        st.toggle(
            _("The A♥ is minus 10 (not 11)"),
            card_widgets.field_value(key, now.rules.ace_hearts == 10),
            key=key,
            on_change=on_ace,
            args=(key,),
            help=_("Some tables count the ace of hearts as minus 10: a deal is then -134"),
        )
        # a new list in each language: the browser names its choice by its text ("5 deals"),
        # which a switch of language would leave naming nothing
        key = f"lady-deals-to-play:{language.current()}"
        choices = [PLAYED_ON, *range(max(1, len(now.deals)), lt.MAX_DEALS + 1)]
        st.selectbox(
            _("The game ends after"),
            choices,
            card_widgets.choice_index(key, now.deals_to_play or PLAYED_ON, choices),
            format_func=partial(deals_to_play_words, language.tr()),
            key=key,
            # the list's field emptied to search it: not Streamlit's "Choose an option"
            placeholder=_("Choose a number of deals"),
            on_change=on_deals_to_play,
            args=(key,),
            help=_("After a set number of deals, usually five to ten, the fewest minus points win"),
        )


PLAYED_ON = 0  # the list's choice of no set number of deals (None would show as no choice)


def deals_to_play_words(tr: Translator, count: int) -> str:
    """A choice of the number of deals, in `tr`'s language (the page's as it was drawn: the
    list's words are its choices' names)."""
    if count == PLAYED_ON:
        return tr.gettext("no set number of deals: play on until you stop")
    return tr.ngettext("{count} deal", "{count} deals", count).format(count=count)


def on_deals_to_play(key: str) -> None:
    count = st.session_state[key]
    if type(count) is int:  # not text the list no longer offers
        do(lt.set_deals_to_play, count or None)


def show_download(now: lt.LadyGame) -> None:
    with st.expander(_("⬇️ Download the score sheet"), key="lady-exports"):
        sheet = partial(lt.sheet_csv, now, language.tr())
        name = pgettext("a file name", "black-lady")
        downloads.csv_button("lady-csv", _("Score sheet CSV"), sheet, name)


def main() -> None:
    st.markdown(lady_view.CSS, unsafe_allow_html=True)
    init_state()
    GAME.take_in_change()  # a shared game another phone changed
    state = st.session_state
    if state.get("lady_language") != language.current():  # "Player 2" now "Jugador 2"
        GAME.say_in_language()
        state.lady_language = language.current()
    heading = _("## ♠️ Black Lady score")
    # the browser's tab (a screen reader's list of tabs) says this game: the app's title, set
    # for the Black Cat page, named the other one
    st.set_page_config(page_title=heading.lstrip("#♠️ "))
    st.markdown(heading)
    if state.get("lady_link_note"):
        st.warning(state.pop("lady_link_note"), icon="🔗")
    now = game()
    if not now.has_cards:
        show_player_setup(now)
        now = game()
    top = st.container()
    inputs = st.container()
    if state.get("lady_seat") not in range(len(now.names)):
        state.lady_seat = seat_in_address(len(now.names))
    seat = state.lady_seat
    with inputs:
        show_photo_inputs(now, seat)
    now, seat = game(), state.lady_seat  # a photo may have changed them
    kept = [now, *game_state.games_before(state.lady_history)]
    in_use = ts.photos_on(deal.table for game in kept for deal in game.deals)
    game_state.forget_unused_photos(state.lady_photos, in_use)
    with top:
        show_sheet(now)
        show_checks(now)
        show_seat_choice(now)
    show_tricks(now, seat)
    if st.query_params.get(sharing.SEAT_PARAM, "0") != str(state.lady_seat):
        st.query_params[sharing.SEAT_PARAM] = str(state.lady_seat)  # a reload comes back here
    st.divider()
    if now.has_cards:
        show_players(now)
    show_rules(now)
    with st.expander(_("📖 How we score Black Lady"), key="lady-how"):
        st.markdown(how_we_score().read_text(encoding="utf-8"))
    show_download(now)
    text = link_text(now)
    sharing.show_share(PAGE_PATH, LINK_PARAM, text, GAME.key)
    sharing.keep_in_address(LINK_PARAM, text, state.lady_history, GAME.key)
    card_widgets.scroll_as_asked()
    card_taps.listen_for_card_taps(on_card_tap)  # last: the sheet shows before it loads
    live_table.listen(GAME.key, GAME.moves_on)
    game_state.keep_toast_off_the_cards()  # last: an element now and then moves none after it
