"""Black Cat score counter: the Streamlit app (`streamlit run app/streamlit_app.py`).

UI only. The table (players, piles, corrections, pins, variants), its scores and the exports are
`blackcat.tables.black_cat_table`; scoring is `blackcat.games.black_cat`; reading photos is
`blackcat.vision`.
State lives in `st.session_state.night`, a frozen night of games (`night_panel`: the game in play
and the night's finished games, each a `Table`) that every action replaces (so undo is a list of
earlier nights); the page shows and edits the game on screen (`night_panel.table()`). Actions run
as widget callbacks, before the page is drawn, so the page always shows the table after the change.

The photo reader (`reader_access`, `photo_store`), photo input (`photo_input`, `photo_view`), the
game's undo (`game_state`) and card corrections (`card_widgets`, `card_taps`) are shared with the
other game on the same reader, Black Lady (`black_lady_page`), which the choice at the top of the
page opens.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

import black_lady_page
import card_taps
import card_widgets
import game_state
import night_panel
import photo_input
import photo_store
import photo_view
import pile_view
import reader_access
import sharing
import streamlit as st
from card_widgets import chip, select, set_widget
from game_state import refuse
from photo_store import PhotoRecord
from reader_access import (
    EXAMPLE_PHOTO,
    PhotoError,
    PhotoOutcome,
    get_reader,
    photo_key,
    read_example,
    read_upload,
)

from blackcat.games.black_cat import PileScore, Variants
from blackcat.games.report import plural
from blackcat.tables import black_cat_night as nt
from blackcat.tables import black_cat_table as ts
from blackcat.tables import table_link
from blackcat.vision.drawing import PILE_COLOURS

log = logging.getLogger("blackcat.app")

APP_DIR = Path(__file__).resolve().parent
HOW_WE_SCORE = APP_DIR / "how_we_score.md"
CARDS_ACROSS_A_PHONE = 7  # a strip's cards are at least 44 px wide (a tap): 7 fit in 390 px
HOW_TO_PHOTOGRAPH = (
    "Lay each pile out in a row with every card's corner showing, photograph from straight "
    "above in good light"
)
# both games' pages: what pile_view's styles and Streamlit's own leave out
PAGE_CSS = """
<style>
/* the game switch clear of Streamlit's top bar */
[data-testid="stMainBlockContainer"] { padding-top: 3.6rem; }
/* upload notes: small, each note whole (a long file name wraps at its underscores) */
[class*="upload-notes"] [data-testid="stAlert"] > div { padding: .3rem .6rem; }
[class*="upload-notes"] [data-testid="stAlert"] p { font-size: .8rem; line-height: 1.3; }
[class*="upload-notes"] { gap: .25rem; }
</style>
"""


def keep_photo(key: str, record: PhotoRecord) -> None:
    st.session_state.photos[key] = record
    photo_store.photo_store().put(key, record)


OWNER = "\N{OBJECT REPLACEMENT CHARACTER}"  # in a note: where the photo's owner's name goes


@dataclass(frozen=True)
class UploadNote:
    """What became of an uploaded photo, for the page. A photo given to a player follows its
    piles: its note shows on its owner's page, with the owner's name as it is now."""

    kind: str  # the Streamlit call: success, info, warning or error
    text: str  # OWNER marks the place of the owner's current name
    page: int | None  # the player whose page shows it; None: the photo's owner's
    photo: str | None = None  # the photo given to a player, or found already on the table
    check: bool = False  # ends with what to check, as the photo's cards are now

    def message(self, table: ts.Table, shown: int) -> str | None:
        """The note for the page of player `shown`, or None when it belongs elsewhere."""
        owner = photo_owner_id(table, self.photo) if self.photo else None
        if (self.page if self.page is not None else owner) != shown:
            return None
        text = self.text
        if self.check and self.photo is not None:
            text = f"{text} {photo_input.check_words(doubtful_from(table, self.photo))}"
        if OWNER not in text:
            return text
        if owner is None:  # the photo's cards were taken off the table since
            return None
        return text.replace(OWNER, table.player(owner).name)


def photo_owner_id(table: ts.Table, photo: str) -> int | None:
    return next((p.id for p in table.players if photo in ts.photos_of(p)), None)


def doubtful_from(table: ts.Table, photo: str) -> int:
    """How many cards read from `photo` are still marked doubtful (orange)."""
    slots = (slot for p in table.players for pile in p.piles for slot in pile.slots)
    return sum(1 for slot in slots if slot.photo == photo and slot.doubtful)


def add_photo(data: bytes, name: str, player_id: int) -> UploadNote:
    """Read a photo and give its rows to the player; a note for the page says what happened.
    Whatever happens, what is already on the table stays."""
    key = photo_key(data)
    table: ts.Table = night_panel.table()
    if ts.photo_owner(table, key) is not None:
        return UploadNote(
            "info", f"{name} is already on the table ({OWNER}'s piles).", player_id, key
        )
    outcome = read_upload(data, name, table.variants.decks, HOW_TO_PHOTOGRAPH)
    if not isinstance(outcome, PhotoOutcome):
        kind, message = outcome
        return UploadNote(kind, message, player_id)
    commit(ts.place_photo(table, player_id, key, outcome.rows, outcome.gaps))
    keep_photo(key, PhotoRecord.of(name, outcome))
    owner = photo_owner_id(night_panel.table(), key)
    st.session_state.player = owner
    cards = sum(len(row) for row in outcome.rows)
    rows = sum(1 for row in outcome.rows if row)
    return UploadNote(
        "success",
        f"{name}: {plural(cards, 'card')} in {plural(rows, 'pile')}, given to {OWNER}.",
        None,
        key,
        check=True,
    )


# ---------------------------------------------------------------------------------------------
# State and actions


def initial_table() -> tuple[ts.Table, dict[str, PhotoRecord], str]:
    """The example the app opens with: the example photo read, or its piles typed in."""
    reader, _ = get_reader()
    if reader is not None and EXAMPLE_PHOTO.is_file():
        try:
            with st.spinner("Reading the example photo…"):
                key, outcome = read_example()
        except PhotoError:
            log.exception("the example photo could not be read")
        else:
            if any(outcome.rows):
                table = ts.new_table((ts.EXAMPLE_PLAYER,))
                table = ts.place_photo(table, table.players[0].id, key, outcome.rows, outcome.gaps)
                table = replace(table, example=True)
                record = PhotoRecord.of("the example photo", outcome)
                photo_store.photo_store().put(key, record)
                return table, {key: record}, "read from the example photo"
    return ts.example_table(), {}, "typed in by hand"


# ---------------------------------------------------------------------------------------------
# The table in the page's address: a reload, a reconnect or the link on another phone finds it


LINK_PARAM = "table"
PAGE_PATH = ""  # Black Cat is the app's first page


def night_from_link(text: str) -> tuple[nt.Night, dict[str, PhotoRecord], int] | None:
    """The night a link holds (an older link: a night of its table), its photos the server still
    has, and whose piles are shown; None (and a note for the page) when the link can't be read."""
    try:
        link = table_link.decode_night(text, photo_store.read_at)
    except table_link.LinkError as error:
        st.session_state.link_note = (
            f"{str(error)[:1].upper()}{str(error)[1:]}. Here is the example game instead."
        )
        return None
    keys = [
        key for game in link.night.games for player in game.players for key in ts.photos_of(player)
    ]
    photos = photo_store.photos_on_server(keys)
    return link.night, photos, link.night.table.players[link.selected].id


def link_text(night: nt.Night, player_id: int) -> str | None:
    """The night as a link's text; None for the untouched example (the plain address)."""
    if night.table.example:
        return None
    ids = [player.id for player in night.table.players]
    selected = ids.index(player_id) if player_id in ids else 0
    read_index = photo_store.read_index_in(st.session_state.get("photos", {}))
    return table_link.encode_night(night, selected, read_index)


def init_state() -> None:
    state = st.session_state
    if "night" in state:
        return
    restored = None
    text = st.query_params.get(LINK_PARAM)
    if text is not None:
        restored = night_from_link(text)
    state.history = []
    if restored is None:
        first, state.photos, state.example_source = initial_table()
        state.night = nt.Night((first,))
    else:
        state.night, state.photos, state.player = restored
        state.example_source = ""
        state.history = sharing.recall_history(LINK_PARAM, text)  # a reload keeps its undo
    state.text_errors = {}


commit = night_panel.commit_table
act: game_state.Act = night_panel.act
undo = night_panel.undo


def on_text(pile_id: int, key: str) -> None:
    errors = st.session_state.text_errors
    try:
        cards = ts.parse_cards(st.session_state[key])
    except ts.TableError as error:
        errors[pile_id] = str(error)
        return
    errors.pop(pile_id, None)
    if cards != night_panel.table().pile(pile_id).cards:
        act(ts.set_cards, pile_id, cards)


def on_rename(player_id: int, key: str) -> None:
    """A rename renames the player in every game of the night."""
    night = night_panel.night()
    try:
        night_panel.NIGHT.commit(nt.rename_player(night, player_id, st.session_state[key]))
    except ts.TableError as error:
        refuse(error)
        st.session_state[key] = night.table.player(player_id).name


def on_pin(pile_id: int, position: int, key: str) -> None:
    choice = st.session_state[key]
    act(ts.pin_queen, pile_id, position, None if choice in (None, "Best") else int(choice))


def on_variants() -> None:
    state = st.session_state
    variants = Variants(
        decks=2 if state.two_decks else 1,
        lucky_tom=state.lucky_tom,
        music_of_the_night=state.music_of_the_night,
    )
    commit(ts.set_variants(night_panel.table(), variants))


def on_photo_owner(photo: str, key: str) -> None:
    player_id = st.session_state[key]
    if player_id not in [player.id for player in night_panel.table().players]:
        return  # not a choice the player made (a list of names out of date): nothing to do
    act(ts.reassign_photo, photo, player_id, after=select("player", player_id))


def add_player() -> None:
    act(ts.add_player)
    st.session_state.player = night_panel.table().players[-1].id


# ---------------------------------------------------------------------------------------------
# Drawing the page


def show_scoreboard(table: ts.Table, result: ts.TableResult) -> None:
    st.markdown(pile_view.scoreboard_html(result), unsafe_allow_html=True)
    line = ts.result_line(result)
    if len(result.players) > 1:
        icon = "🤝" if result.score.is_tie else "🏆"
        st.markdown(f'<div class="bc-result">{icon} {line}</div>', unsafe_allow_html=True)
    on = [
        name
        for name, active in (
            ("two decks", table.variants.decks == 2),
            ("Lucky Tom", table.variants.lucky_tom),
            ("Music of the Night", table.variants.music_of_the_night),
        )
        if active
    ]
    st.caption("Variants: " + (", ".join(on) if on else "none (switch them on below)"))
    if result.duplicates:
        places = "\n".join(f"- {ts.describe_duplicate(d)}" for d in result.duplicates)
        if table.variants.decks == 1:
            why = (
                "**A card is on the table twice.** With one deck that can't be: one of them is "
                "probably misread. Fix it, or switch on *Two decks* below."
            )
        else:
            why = (
                "**A card is on the table more than twice.** With two decks that can't be: "
                "one of them is probably misread."
            )
        st.warning(f"{why}\n{places}", icon="⚠️")


def show_players(table: ts.Table) -> ts.Player:
    ids = [player.id for player in table.players]
    if st.session_state.get("player") not in ids:
        st.session_state.player = ids[0]
    names = {player.id: player.name for player in table.players}
    st.segmented_control(
        "Whose piles",
        ids,
        format_func=lambda player_id: names.get(player_id, "?"),
        key="player",
        required=True,
    )
    player = table.player(st.session_state.player)
    with st.container(horizontal=True, vertical_alignment="bottom"):
        name_key = f"name:{player.id}"
        set_widget(name_key, player.name)
        st.text_input(
            "Name", key=name_key, on_change=on_rename, args=(player.id, name_key), width=140
        )
        st.button(
            "➕ Player",
            on_click=add_player,
            disabled=len(table.players) >= ts.MAX_PLAYERS,
            help=f"Up to {ts.MAX_PLAYERS} players",
        )
        st.button(
            "Remove",
            key=f"remove-player:{player.id}",
            on_click=act,
            args=(ts.remove_player, player.id),
            disabled=len(table.players) == 1,
            help=f"Take {player.name} off the table (Undo brings them back)",
        )
    return player


PHOTO_HELP = (
    "Lay each pile out as a row, left to right as it was built, with every card's corner "
    "showing, and photograph it from above in good light. One photo may hold one or two piles. "
    "On a phone, *Upload* also offers the camera."
)


def show_photo_inputs(player: ts.Player) -> None:
    """The first thing on the page: upload (or take) photos for the player shown."""
    heading = st.empty()  # filled last: a photo may hand the table to a new player
    files = photo_input.photo_inputs(PHOTO_HELP, "Photo of the piles")
    uploads = photo_input.take_uploads(files, lambda data, name: add_photo(data, name, player.id))
    table: ts.Table = night_panel.table()
    shown: int = st.session_state.player
    placed = [n for _, n in uploads if n.kind == "success" and n.photo is not None]
    ask = len(placed) > 1 and len(table.players) > 1  # several photos at once: whose is each?
    with photo_input.notes_box():
        for name, note in uploads:
            message = note.message(table, shown)
            if message is None:
                continue
            photo_input.show_note(note.kind, message, name)
            if ask and note in placed and note.photo is not None:
                owner_select(table, note.photo, shown, f"upload-owner:{note.photo}", name)
    reader_access.reader_note()
    if table.example or not any(pile.slots for pile in table.player(shown).piles):
        st.caption(PHOTO_HELP)
    whose = "your" if table.example else f"{table.player(shown).name}'s"
    heading.markdown(f"#### 📷 Add {whose} piles")


def owner_select(table: ts.Table, photo: str, owner: int, key: str, name: str) -> None:
    """Whose piles a photo holds: choosing another player moves its piles to them. The list
    is a new widget whenever the names change: the browser names a selectbox's choice by its
    text, which a rename would otherwise leave pointing at nobody."""
    names = {p.id: p.name for p in table.players}
    key = f"{key}:{hashlib.sha256('|'.join(names.values()).encode()).hexdigest()[:8]}"
    set_widget(key, owner)
    st.selectbox(
        f"Whose piles are in {name}?",
        [p.id for p in table.players],
        format_func=lambda player_id: names.get(player_id, "?"),
        key=key,
        on_change=on_photo_owner,
        args=(photo, key),
    )


def show_photos(table: ts.Table, player: ts.Player) -> None:
    photos: dict[str, PhotoRecord] = st.session_state.photos
    for key in ts.photos_of(player):
        record = photos.get(key)
        if record is None:
            continue
        photo_view.show_photo(key, record, ts.photo_marks(player, key), act)
        if len(table.players) > 1:
            owner_select(table, key, player.id, f"owner:{key}", record.name)


def show_pile(
    player: ts.Player,
    pile_index: int,
    pile: ts.Pile,
    score: PileScore,
    duplicated: set[tuple[int, int]],
) -> None:
    """One pile. Its parts are always the same elements in the same places, so a fix above
    (a doubtful card confirmed, a Queen's value) never shifts, closes or reopens what follows;
    its editors are keyed by the pile, so they stay with it when another pile goes."""
    colour = PILE_COLOURS[pile_index % len(PILE_COLOURS)]
    st.markdown(
        pile_view.pile_head_html(pile_index, score.points, colour, len(pile.slots)),
        unsafe_allow_html=True,
    )
    doubtful = [position for position, slot in enumerate(pile.slots) if slot.doubtful]
    picked = st.session_state.get(f"sel:{pile.id}")
    st.markdown(
        pile_view.strip_html(
            pile_index,
            score,
            doubtful=doubtful,
            duplicated={pos for index, pos in duplicated if index == pile_index},
            gaps=pile.gaps,
            pile_id=pile.id,
            selected=picked,
        ),
        unsafe_allow_html=True,
    )
    if not pile.slots:
        st.caption(
            f"📷 Pile {pile_index + 1} is still empty: photograph it above (a photo's piles fill "
            "the empty ones first), or type its cards below."
        )
    if picked is not None and picked < len(pile.slots):
        number = ts.card_number(pile_index, picked)
        st.caption(
            f"**{number} {chip(pile.slots[picked].card)}** picked: tap the card whose place it "
            "takes (tap it again to let go), or change it below."
        )
    if len(pile.slots) > CARDS_ACROSS_A_PHONE:
        st.caption(f"⇆ Swipe the cards sideways: {len(pile.slots)} cards are wider than a phone.")
    if pile.gaps:
        with st.container(key=f"gaps-{pile.id}"):
            for position in pile.gaps:
                gap_prompt(pile, pile_index, position)
    with st.container(key=f"doubts-{pile.id}"):
        for position in doubtful:
            card_widgets.doubtful_prompt(
                act, pile, position, ts.card_number(pile_index, position), not_a_card=True
            )
    st.markdown(
        pile_view.features_html(pile_index, score) if pile.slots else "",
        unsafe_allow_html=True,
    )
    with st.container(key=f"queens-{pile.id}"):
        if score.queens:
            show_queens(pile, pile_index, score)
    text_key = f"text:{pile.id}"
    set_widget(text_key, ts.pile_text(pile))
    st.text_input(
        f"Pile {pile_index + 1}, left to right",
        key=text_key,
        on_change=on_text,
        args=(pile.id, text_key),
        placeholder="Type the cards, e.g. QS 10H 4S KD",
    )
    with st.container(key=f"typo-{pile.id}"):
        error = st.session_state.text_errors.get(pile.id)
        if error:
            st.error(error)
    with st.expander(
        f"✏️ Fix, add or move cards of pile {pile_index + 1}",
        key=f"fix:{pile.id}",
        on_change="rerun",
    ):
        show_editor(player, pile_index, pile)


def marks_on(player: ts.Player, duplicated: set[tuple[int, int]]) -> set[str]:
    """The marks the player's piles show (pile_view.MARKS), for the legend."""
    marks = set()
    if any(slot.doubtful for pile in player.piles for slot in pile.slots):
        marks.add("bc-doubtful")
    if duplicated:
        marks.add("bc-dup")
    if any(pile.gaps for pile in player.piles):
        marks.add("bc-gap")
    return marks


GAP_PICKER = "gap-"  # the keys of the card picker at a gap: a pile's editor has its own


def gap_prompt(pile: ts.Pile, pile_index: int, position: int) -> None:
    """Where the reader thinks a card may be missing: one tap opens, right here, the picker of
    the card that goes in there; another says nothing is missing."""
    where = gap_place(pile, pile_index, position)
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        st.markdown(f"A card may be missing {where}.")
        st.button(
            "➕ Add a card here",
            key=f"gap-add:{pile.id}:{position}",
            on_click=open_insert,
            args=(pile, position),
        )
        st.button(
            "✗ Nothing missing",
            key=f"gap-none:{pile.id}:{position}",
            on_click=act,
            args=(ts.dismiss_gap, pile.id, position),
        )
    if st.session_state.get(f"ins:{pile.id}") == position:
        insert_at_gap(pile, position, where)


def gap_place(pile: ts.Pile, pile_index: int, position: int) -> str:
    if position < len(pile.slots):
        return f"before {ts.card_number(pile_index, position)} {chip(pile.slots[position].card)}"
    return "after the last card"


def insert_at_gap(pile: ts.Pile, position: int, where: str) -> None:
    """The card that goes in at the gap: its rank and suit, then one tap puts it there."""
    with st.container(key=f"insert-{pile.id}", border=True):
        st.markdown(f"**Which card is missing {where}?**")
        card = card_widgets.card_picker(pile.id, GAP_PICKER)
        with st.container(horizontal=True, gap="small"):
            st.button(
                f"➕ Put {chip(card)} {where}" if card else f"➕ Put it {where}",
                key=f"gap-put:{pile.id}",
                type="primary",
                disabled=card is None,
                on_click=put_at_gap,
                args=(pile, position),
            )
            st.button(
                "Cancel", key=f"gap-cancel:{pile.id}", on_click=open_insert, args=(pile, None)
            )


def open_insert(pile: ts.Pile, position: int | None) -> None:
    """The card picker at the gap before `position` (the pile's length: after its last card)
    opened, or (None) closed; the pile's picked card is let go, so nothing speaks of moving."""
    st.session_state[f"ins:{pile.id}"] = position
    st.session_state[f"sel:{pile.id}"] = None


def put_at_gap(pile: ts.Pile, position: int) -> None:
    card_widgets.add_picked(act, pile, position, GAP_PICKER)
    st.session_state[f"ins:{pile.id}"] = None


def on_card_tap(pile_id: int, position: int) -> None:
    """A card of a strip tapped: picked, let go, or (another card of the picked card's pile)
    the place the picked card moves to, taking that card's place (card_taps.tap_card)."""
    piles = [pile for player in night_panel.table().players for pile in player.piles]
    card_taps.tap_card(piles, pile_id, position, lambda pid: f"fix:{pid}", move_picked)


def move_picked(pile: ts.Pile, picked: int, target: int) -> None:
    act(ts.move_card, pile.id, picked, target - picked, after=select(f"sel:{pile.id}", None))


def show_queens(pile: ts.Pile, pile_index: int, score: PileScore) -> None:
    with st.expander(
        f"👑 Queens of pile {pile_index + 1}: 7 or 11",
        key=f"queens:{pile.id}",
        on_change="rerun",
    ):
        for queen in score.queens:
            number = ts.card_number(pile_index, queen.position)
            if queen.pinned:
                why = f"pinned to {queen.value} 📌"
            elif queen.indifferent:
                why = "7 or 11 score the same"
            else:
                why = f"{queen.value} scores most"
            key = f"pin:{pile.id}:{queen.position}"
            set_widget(key, str(queen.value) if queen.pinned else "Best")
            st.segmented_control(
                f"{chip(queen.card)} card {number}: {why}",
                ["Best", "7", "11"],
                key=key,
                required=True,
                on_change=on_pin,
                args=(pile.id, queen.position, key),
            )


def move_places(player: ts.Player, pile_index: int, pile: ts.Pile, selected: int) -> list:
    """Where a tapped card can go in one tap: any place in its pile (it becomes that card),
    or the near end of the player's other piles."""
    places = [
        card_widgets.Place(
            f"→ {ts.card_number(pile_index, target)}",
            ts.move_card,
            (pile.id, selected, target - selected),
        )
        for target in range(len(pile.slots))
        if target != selected
    ]
    for other_index, other in enumerate(player.piles):
        if other_index != pile_index:
            end = "start" if other_index > pile_index else "end"
            places.append(
                card_widgets.Place(
                    f"→ pile {other_index + 1} {end}",
                    ts.move_card_to_pile,
                    (pile.id, selected, other.id),
                )
            )
    return places


def show_editor(player: ts.Player, pile_index: int, pile: ts.Pile) -> None:
    """A pile's tools: a tapped card's (its actions always in one place, so a second tap lands
    on the same button, disabled, never on what was below), adding a card, the pile's own."""
    sel_key = f"sel:{pile.id}"
    number = partial(ts.card_number, pile_index)
    selected = card_widgets.pick_slot(pile, "Tap a card to change, move or delete it", number)
    with st.container(horizontal=True, gap="small"):
        card_widgets.delete_button(act, pile, selected)
        st.button(
            f"✂ New pile from {number(selected)}" if selected is not None else "✂ New pile",
            key=f"split:{pile.id}",
            disabled=not selected,  # none tapped, or the first: nothing to split off
            on_click=act,
            args=(ts.split_pile, pile.id, selected),
            kwargs={"after": select(sel_key, None)},
            help="The reader joined two piles: this card and the ones after it become a pile",
        )
    if selected is not None:
        slot = pile.slots[selected]
        card_widgets.change_card(act, pile.id, selected, f"Card {number(selected)} is", slot)
        card_widgets.move_pills(
            act,
            pile,
            selected,
            f"Tap where {number(selected)} goes",
            move_places(player, pile_index, pile, selected),
        )
    st.markdown("**Add a card**")
    card = card_widgets.card_picker(pile.id)
    with st.container(horizontal=True, gap="small"):
        st.button(
            f"➕ Add {chip(card)} at the end" if card else "➕ Add at the end",
            key=f"add:{pile.id}",
            type="primary",
            disabled=card is None,
            on_click=card_widgets.add_picked,
            args=(act, pile, None),
        )
        if selected is not None and card is not None:
            st.button(
                f"Insert {chip(card)} before {number(selected)}",
                key=f"insert:{pile.id}",
                on_click=card_widgets.add_picked,
                args=(act, pile, selected),
            )
    with st.container(horizontal=True, gap="small"):
        if pile_index + 1 < len(player.piles):
            st.button(
                f"Join with pile {pile_index + 2}",
                key=f"join:{pile.id}",
                on_click=act,
                args=(ts.join_with_next, pile.id),
                help="The reader split one pile in two: put them back together",
            )
        st.button(
            f"Remove pile {pile_index + 1}",
            key=f"remove-pile:{pile.id}",
            disabled=len(player.piles) == 1,
            on_click=act,
            args=(ts.remove_pile, pile.id),
        )


def show_variants(table: ts.Table) -> None:
    with st.expander("⚙️ Variants", key="variants"):
        variants = table.variants
        set_widget("two_decks", variants.decks == 2)
        set_widget("lucky_tom", variants.lucky_tom)
        set_widget("music_of_the_night", variants.music_of_the_night)
        st.toggle(
            "Two decks (Long Night on the Fence)",
            key="two_decks",
            on_change=on_variants,
            help="The same card may appear twice",
        )
        st.toggle(
            "Lucky Tom", key="lucky_tom", on_change=on_variants, help="A Tomcat of two 5s is 5"
        )
        st.toggle(
            "Music of the Night",
            key="music_of_the_night",
            on_change=on_variants,
            help="Each Yowler is worth the number of Yowlers in its pile",
        )


def show_exports(table: ts.Table, result: ts.TableResult) -> None:
    with (
        st.expander("⬇️ Download the scores", key="exports"),
        st.container(horizontal=True, gap="small"),
    ):
        night = night_panel.download()
        downloads = (
            *((night,) if night else ()),
            ("Scoreboard CSV", ts.scoreboard_csv(result), "scoreboard.csv", "text/csv"),
            (
                "Scoreboard JSON",
                ts.scoreboard_json(table, result),
                "scoreboard.json",
                "application/json",
            ),
            ("Piles CSV", ts.piles_csv(result), "piles.csv", "text/csv"),
            ("Piles JSON", ts.piles_json(table, result), "piles.json", "application/json"),
        )
        for label, data, file_name, mime in downloads:
            st.download_button(
                label, data, file_name=file_name, mime=mime, on_click="ignore", key=file_name
            )


def black_cat_page() -> None:
    init_state()
    state = st.session_state
    st.markdown("## 🐈‍⬛ Black Cat score")
    if state.get("link_note"):
        st.warning(state.pop("link_note"), icon="🔗")

    table: ts.Table = night_panel.table()
    ids = [player.id for player in table.players]
    if state.get("player") not in ids:
        state.player = ids[0]
    show_photo_inputs(table.player(state.player))
    table = night_panel.table()  # a new photo may have changed it
    result = ts.score_table(table)

    if table.example:
        st.info(
            f"👋 **An example game**, its piles {state.example_source}. Photograph your "
            "own piles above, or type your cards below, and see your score.",
        )
    night_panel.show_night()
    show_scoreboard(table, result)
    with st.container(horizontal=True, gap="small"):
        st.button("↶ Undo", on_click=undo, disabled=not state.history)
        night_panel.buttons()
    player = show_players(table)

    player_index = table.players.index(player)
    player_score = result.players[player_index]
    show_photos(table, player)
    duplicated = result.duplicated_at(player.name)
    st.markdown(f"#### {player.name}: {plural(player_score.total, 'point')}")
    st.markdown(pile_view.legend_html(marks_on(player, duplicated)), unsafe_allow_html=True)
    for pile_index, pile in enumerate(player.piles):
        with st.container(key=f"pile-{pile.id}"):
            show_pile(player, pile_index, pile, player_score.piles[pile_index], duplicated)
    st.button(
        f"➕ Another pile for {player.name}",
        key=f"add-pile:{player.id}",
        on_click=act,
        args=(ts.add_pile, player.id),
    )
    st.divider()
    show_variants(table)
    with st.expander("📖 How we score", key="how"):
        st.markdown(HOW_WE_SCORE.read_text(encoding="utf-8"))
    show_exports(table, result)
    text = link_text(night_panel.night(), state.player)
    sharing.show_share(PAGE_PATH, LINK_PARAM, text, "Change something first to share a game.")
    sharing.keep_in_address(LINK_PARAM, text, state.history)
    card_taps.listen_for_card_taps(on_card_tap)  # last: the score shows before it loads


def main() -> None:
    st.set_page_config(
        page_title="Black Cat score",
        page_icon="🐈‍⬛",
        layout="centered",
        initial_sidebar_state="collapsed",
    )
    st.markdown(pile_view.CSS + PAGE_CSS, unsafe_allow_html=True)
    pages = {
        black_lady_page.BLACK_CAT: st.Page(
            black_cat_page, title=black_lady_page.BLACK_CAT, icon="🐈‍⬛", default=True
        ),
        black_lady_page.BLACK_LADY: st.Page(
            black_lady_page.main,
            title=black_lady_page.BLACK_LADY,
            icon="♠️",
            url_path=black_lady_page.PAGE_PATH,
        ),
    }
    current = st.navigation(list(pages.values()), position="hidden")
    if not sharing.admitted():
        sharing.show_private()
        return
    black_lady_page.choose_game(current.title, pages)
    current.run()


main()
