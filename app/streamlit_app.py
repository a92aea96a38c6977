"""Black Cat score counter: the Streamlit app (`streamlit run app/streamlit_app.py`).

UI only. The table (players, piles, corrections, pins, variants), its scores and the exports are
`blackcat.tables.black_cat_table`; scoring is `blackcat.games.black_cat`; reading photos is
`blackcat.vision`.
State lives in `st.session_state.night`, a frozen night of games (`night_panel`: the game in play
and the night's finished games, each a `Table`) that every action replaces (so undo is a list of
earlier nights); the page shows and edits the game on screen (`night_panel.table()`). Actions run
as widget callbacks, before the page is drawn, so the page always shows the table after the change.

A photo of the whole table (`table_photo`) gives each side's piles to its player, in the same
per-player piles as a photo of one player's piles.
The photo reader (`reader_access`, `photo_store`), photo input (`photo_input`, `photo_view`), the
game's undo (`game_state`) and card corrections (`card_widgets`, `card_taps`) are shared with the
other game on the same reader, Black Lady (`black_lady_page`), which the choice at the top of the
page opens.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import partial
from html import escape
from pathlib import Path
from typing import Any

import black_lady_page
import card_taps
import card_widgets
import downloads
import dropped_pages
import game_state
import language
import live_table
import night_panel
import panels
import photo_input
import photo_store
import photo_view
import pile_view
import reader_access
import sharing
import streamlit as st
import table_photo
import this_tab
from card_widgets import chip, select
from game_state import refuse
from language import _, ngettext, pgettext
from photo_store import EXAMPLE_PHOTO_NAME, PhotoRecord
from reader_access import (
    EXAMPLE_PHOTO,
    READS_BACK,
    PhotoError,
    PhotoOutcome,
    Words,
    get_reader,
    photo_key,
    read_example,
    read_upload,
)

from blackcat.games.black_cat import FEATURE_KINDS, DuplicateCard, PileScore, Variants
from blackcat.games.cards import Card
from blackcat.i18n import N_, and_list
from blackcat.tables import black_cat_night as nt
from blackcat.tables import black_cat_table as ts
from blackcat.tables import table_link
from blackcat.vision.drawing import PILE_COLOURS
from blackcat.vision.image_io import HOW_TO_PHOTOGRAPH

log = logging.getLogger("blackcat.app")

APP_DIR = Path(__file__).resolve().parent
HOW_WE_SCORE = APP_DIR / "how_we_score.md"
NAME_FIELD_REM = 8.75  # the player's name field (`pile_view.field_width_css`)
CARDS_ACROSS_A_PHONE = 7  # a strip's cards are at least 44 px wide (a tap): 7 fit in 390 px
# both games' pages: what pile_view's styles and Streamlit's own leave out
PAGE_CSS = """
<style>
/* the game switch clear of Streamlit's top bar */
[data-testid="stMainBlockContainer"] { padding-top: 3.6rem; }
/* a page's sections (h3 under its h2 title, in order for a screen reader) at the size they had */
[data-testid="stMarkdownContainer"] h3 { font-size: 1.5rem; }
/* small grey text as dark as WCAG AA asks (4.5:1): Streamlit's captions (faded to 0.6, 3.9:1;
   their grey text now 6:1, a red card in them as red as elsewhere) and the uploader's limit */
[data-testid="stCaptionContainer"] { opacity: 1; color: rgba(47, 45, 43, .75); }
[data-testid="stFileUploaderDropzoneInstructions"] > div { color: rgba(47, 45, 43, .8); }
/* on a 320 px phone at twice the text size (WCAG's reflow), words wrap where Streamlit cut them
   with "…": the uploader's limit, a choice in a row ("One player's piles", a long name and the
   mark after it in "Whose tricks"), the choice growing with its lines (unpadded above and below:
   a line's stays 2rem tall, as Streamlit drew it) */
[data-testid="stFileUploaderDropzoneInstructions"] > div { white-space: normal; }
[data-testid="stButtonGroup"] button, [data-testid="stButtonGroup"] button * {
  white-space: normal; overflow-wrap: break-word; }
[data-testid="stButtonGroup"] button { height: auto; padding-top: 0; padding-bottom: 0; }
/* a toast within the screen (its 21rem ran off a 320 px phone's left edge at twice the text size,
   its words cut), its sides narrower there; as they were on a 390 px phone */
[data-testid="stToastContainer"], [data-testid="stToast"] {
  max-width: calc(100vw - 2 * min(1rem, 5vw)); }
[data-testid="stToastContainer"] { margin-left: min(1rem, 5vw); margin-right: min(1rem, 5vw); }
[data-testid="stToast"] { padding-left: min(1.5rem, 7vw); padding-right: min(1.5rem, 7vw); }
/* a toast's words whole: Streamlit cut a long one after 3 lines behind an English "view more"
   (a refusal's "what to do" is at its end) */
[data-testid="stToastText"] { display: block; -webkit-line-clamp: unset; overflow: visible; }
[data-testid="stToastViewButton"] { display: none; }
/* no English "Stop" beside the running figure: a run is short, and one stopped halfway leaves
   the page half drawn */
[data-testid="stStatusWidget"] button { display: none; }
/* no ⋮ menu: its Print (the browser's own does it), Record screen and "Made with Streamlit" are
   in English on a Spanish page, and nothing a player needs (`blackcat app` says why it stays) */
[data-testid="stMainMenu"] { display: none; }
/* upload notes: small, each note whole (a long file name wraps at its underscores) */
[class*="upload-notes"] [data-testid="stAlert"] > div { padding: .3rem .6rem; }
[class*="upload-notes"] [data-testid="stAlert"] p { font-size: .8rem; line-height: 1.3; }
[class*="upload-notes"] { gap: .25rem; }
/* what hears of the files an uploader refuses (photo_input.REFUSALS_JS) takes no room under it */
[data-testid="stElementContainer"][class*="refusals"] { display: none; }
/* a pile brought into view ("↓ 2 cards to check"), or the notes on a photo of the whole table
   just given out, shows its head below Streamlit's top bar */
[class*="st-key-pile-"], [class*="upload-notes"] { scroll-margin-top: 3.75rem; }
/* a switch with the keyboard's focus ringed as a card is: Streamlit's own mark of it, a grey
   tint behind its words (1.1:1 on white), could not be seen */
[data-testid="stCheckbox"] label:has(input:focus-visible) {
  outline: 3px solid #1e88e5; outline-offset: 2px; border-radius: .25rem;
}
/* a red card on a primary button in the button's own white (red on its blue read at 1.1:1) */
[data-testid="stBaseButton-primary"] .stMarkdownColoredText { color: inherit !important; }
/* on a touch screen a choice in a row (a player, a rank, a Queen's value) is at least 40 px a
   side: Streamlit's were 32 px tall, a rank 33 px wide */
@media (pointer: coarse) {
  [data-testid="stButtonGroup"] button { min-height: 40px; min-width: 40px; }
}
</style>
"""


def how_we_score(english: Path) -> Path:
    """The page's language's copy of a how-we-score panel (`how_we_score.es.md`), else the
    English one."""
    translated = english.with_suffix(f".{language.current()}.md")
    return translated if translated.is_file() else english


def keep_photo(key: str, record: PhotoRecord) -> None:
    photo_store.keep(st.session_state.photos, key, record)


SEVERAL_SIDES = N_(
    "Its piles lie on several sides of the table: to give each player theirs, take this "
    "photo's cards off (under the photo) and upload it again with Photo of: The whole table."
)
OWNER = photo_input.NAME_MARK  # in a note: where the photo's owner's name goes


@dataclass(frozen=True)
class UploadNote:
    """What became of an uploaded photo, for the page. A photo given to a player follows its
    piles: its note shows on its owner's page, with the owner's name as it is now; a photo read
    (`read`) says its cards and piles, and whose they are, as the table holds them now."""

    kind: str  # the Streamlit call: success, info, warning or error (a read's: `kind_now`)
    words: Words | None  # OWNER marks the place of the owner's current name; None: a read's
    page: int | None  # the player whose page shows it; None: the photo's owner's
    photo: str | None = None  # the photo given to a player, or found already on the table
    check: bool = False  # ends with what to check, as the photo's cards are now
    several_sides: bool = False  # the reader saw several players' piles in it
    read: photo_input.ReadSummary | None = None  # what the reader read in it (and warns of)
    name: str = ""  # the file's

    def split_among_sides(self, table: ts.Table) -> bool:
        """Whether to say that its piles lie on several sides of the table: while they are
        still apart and all one player's (joined, or given out, the advice to upload it again
        as the whole table was stale)."""
        if not self.several_sides or self.photo is None:
            return False
        piles = ts.photo_piles(table, self.photo)
        return len(piles) > 1 and len({player.id for player, _index, _pile in piles}) == 1

    def taken_twice(self, table: ts.Table) -> str | None:
        """What to say while another photo holds this one's piles: the same piles photographed
        again (a retake, as a blurred photo's note asks), each card counted twice."""
        if not self.check or self.photo is None:
            return None
        return photo_input.taken_twice_words(table, self.photo, table_photo.photos_on_top(table))

    def kind_now(self, table: ts.Table) -> str:
        if self.split_among_sides(table) or self.taken_twice(table) is not None:
            return "warning"
        return self.read.note(self.kind, "")[0] if self.read is not None else self.kind

    def placed_words(self, table: ts.Table, photo: str) -> str:
        """`piles.jpg: 5 cards in 2 piles, given to Ann.`, as the table holds them now (a pile
        given to another player, a card that was no card taken off), with what the read warns
        of."""
        holders = dict.fromkeys(player.name for player, _i, _pile in ts.photo_piles(table, photo))
        text = _("{name}: {cards} in {piles}, given to {players}.").format(
            name=self.name,
            **photo_input.cards_and_piles(table, photo),
            players=and_list(list(holders), language.tr()),
        )
        return text if self.read is None else self.read.note(self.kind, text)[1]

    def message(self, table: ts.Table, shown: int) -> str | None:
        """The note for the page of player `shown`, in the page's language, or None when it
        belongs elsewhere."""
        owner = photo_owner_id(table, self.photo) if self.photo else None
        if (self.page if self.page is not None else owner) != shown:
            return None
        if self.words is not None:
            text = self.words()
        elif self.read is not None and self.photo is not None:
            text = self.placed_words(table, self.photo)
        else:
            return None
        if self.split_among_sides(table):
            text = f"{text} {_(SEVERAL_SIDES)}"
        twice = self.taken_twice(table)
        if twice is not None:
            text = f"{text} {twice}"
        if self.check and self.photo is not None:
            text = f"{text} {photo_input.check_words(ts.doubtful_from(table, self.photo))}"
        if OWNER not in text:
            return text
        if owner is None:  # the photo's cards were taken off the table since
            return None
        return text.replace(OWNER, table.player(owner).name)


def photo_owner_id(table: ts.Table, photo: str) -> int | None:
    return next((p.id for p in table.players if photo in ts.photos_of(p)), None)


def add_photo(data: bytes, name: str, player_id: int) -> UploadNote:
    """Read a photo and give its rows to the player; a note for the page says what happened.
    Whatever happens, what is already on the table stays."""
    key = photo_key(data)
    table: ts.Table = night_panel.table()
    if ts.reads_lost(table, key):  # a photo the app lost (restarted): its cards come from a link
        return read_back(data, name, key, player_id)
    if ts.photo_owner(table, key) is not None:
        text = N_("{name} is already on the table ({owner}'s piles).")
        return UploadNote("info", lambda: _(text).format(name=name, owner=OWNER), player_id, key)
    outcome = read_upload(data, name, table.variants.decks, HOW_TO_PHOTOGRAPH)
    if not isinstance(outcome, PhotoOutcome):
        kind, refusal = outcome
        return UploadNote(kind, refusal, player_id)
    record = PhotoRecord.of(name, outcome)
    keep_photo(key, record)  # first: a shared night's other phones show its cards from it
    night_panel.act_on_latest_of(
        player_id, ts.place_photo, player_id, key, outcome.rows, outcome.gaps, language.tr()
    )
    if table.example and not night_panel.table().example:
        # the example made way: its name and piles, still in their fields, sent back with the
        # next run (a tap, a note said after the photos) were typed over the new player's
        game_state.fields_afresh()
    table = night_panel.table()
    owner = photo_owner_id(table, key)
    if owner is None:
        return not_given_here(name, key, shown_player(table).id)
    st.session_state.player = owner
    return UploadNote(
        "success",
        None,  # its words are written from the table as it is (`placed_words`)
        None,
        key,
        check=True,
        several_sides=record.whole_table,
        read=outcome.summary(),
        name=name,
    )


# a photo given to a player of an earlier game, read as another phone's next game came
PHOTO_GIVEN_IN = N_(
    "{name} was read as the game changed on another phone: its cards went to game {number}, "
    "the game it was uploaded in."
)


def not_given_here(name: str, key: str, shown: int) -> UploadNote:
    """The note, on the page of player `shown`, of a photo whose cards the game on screen does
    not hold: given in the game it was uploaded in, where another phone's next game came as it
    was read; else not given (another phone's change came first: its toast says what)."""
    given_in = nt.game_with_photo(night_panel.night(), key)
    if given_in is None:
        words = game_state.PHOTO_NOT_GIVEN
        return UploadNote("warning", lambda: _(words).format(name=name), shown)
    number = given_in + 1
    return UploadNote("info", lambda: _(PHOTO_GIVEN_IN).format(name=name, number=number), shown)


def read_back(data: bytes, name: str, key: str, player_id: int) -> UploadNote:
    """A photo whose cards are on the table without their reads, read again: they get them
    back, and the photo shows again on its owner's page."""
    table: ts.Table = night_panel.table()
    record = photo_store.read_record(data, name, table.variants.decks, HOW_TO_PHOTOGRAPH)
    if not isinstance(record, PhotoRecord):
        kind, refusal = record
        return UploadNote(kind, refusal, player_id)
    keep_photo(key, record)
    night_panel.act_on_latest(ts.restore_reads, key, record.reads)
    st.session_state.player = photo_owner_id(night_panel.table(), key)
    return UploadNote("info", lambda: _(READS_BACK).format(name=name), None, key, check=True)


# ---------------------------------------------------------------------------------------------
# State and actions


def initial_table() -> tuple[ts.Table, dict[str, PhotoRecord], str]:
    """The example the app opens with: the example photo read, or its piles typed in."""
    reader, _status = get_reader()
    if reader is not None and EXAMPLE_PHOTO.is_file():
        try:
            with st.spinner(_("Reading the example photo…")):
                key, outcome = read_example()
        except PhotoError:
            log.exception("the example photo could not be read")
        else:
            if any(outcome.rows):
                table = ts.new_table((_(ts.EXAMPLE_PLAYER),))
                table = ts.place_photo(table, table.players[0].id, key, outcome.rows, outcome.gaps)
                table = replace(table, example=True)
                record = PhotoRecord.of(EXAMPLE_PHOTO_NAME, outcome)
                photo_store.photo_store().put(key, record)
                return table, {key: record}, N_("read from the example photo")
    return ts.example_table(tr=language.tr()), {}, N_("typed in by hand")


# ---------------------------------------------------------------------------------------------
# The table in the page's address: a reload, a reconnect or the link on another phone finds it


LINK_PARAM = "table"
PAGE_PATH = ""  # Black Cat is the app's first page


def night_from_link(
    text: str,
) -> tuple[nt.Night, dict[str, PhotoRecord], int, int | None] | None:
    """The night a link holds (an older link: a night of its table), its photos the server still
    has, whose piles are shown and who photographs the whole table (None: nobody said); None
    (and a note for the page) when the link can't be read."""
    try:
        link = table_link.decode_night(text, photo_store.read_at)
    except table_link.LinkError as error:
        note = table_link.link_error_text(error, language.tr())
        st.session_state.link_note = f"{note[:1].upper()}{note[1:]}. " + _(
            "Here is the example game instead."
        )
        return None
    keys = [
        key for game in link.night.games for player in game.players for key in ts.photos_of(player)
    ]
    photos = photo_store.photos_on_server(keys)
    players = link.night.table.players
    photographer = None if link.photographer is None else players[link.photographer].id
    return link.night, photos, players[link.selected].id, photographer


def link_text(night: nt.Night, player_id: int) -> str | None:
    """The night as a link's text; None for the untouched example (the plain address)."""
    if night.table.example:
        return None
    ids = [player.id for player in night.table.players]
    selected = ids.index(player_id) if player_id in ids else 0
    read_index = photo_store.read_index_in(st.session_state.get("photos", {}))
    photographer = table_photo.photographer(night.table)
    return table_link.encode_night(
        night, selected, read_index, ids.index(photographer) if photographer in ids else None
    )


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
        state.night, state.photos, state.player, photographer = restored
        if photographer is not None:  # the whole table was photographed: its panel again
            table_photo.remember_photographer(state.night.table, photographer)
            state[table_photo.MODE] = table_photo.WHOLE_TABLE
        state.example_source = ""
        state.history = sharing.recall_history(LINK_PARAM, text)  # a reload keeps its undo
    if st.query_params.get(sharing.PHOTO_MODE_PARAM) in PHOTO_MODES:  # the choice made, kept
        state[table_photo.MODE] = st.query_params[sharing.PHOTO_MODE_PARAM]
    state.text_errors = {}


act: game_state.Act = night_panel.act


def undo() -> None:
    """Undo, and the photographer found again by the name Undo gives back (a rename undone)."""
    before = night_panel.table()
    night_panel.undo()
    table_photo.follow_names(before, night_panel.table())


def on_text(pile_id: int, key: str) -> None:
    cards = card_widgets.typed_cards(key, pile_id, st.session_state.text_errors)
    held = night_panel.pile(pile_id)  # in game 1, where game 2 came on screen meanwhile
    if cards is not None and (held is None or cards != held.cards):
        typed = partial(act, ts.set_cards, pile_id, cards, after=card_taps.let_go_of_every_card)
        game_state.typed_in(typed, cards)


def on_rename(player_id: int, key: str) -> None:
    """A rename renames the player in every game of the night. In a shared night the field may
    be a game's that another phone moved on from ("Next game"), or a player's it took off the
    table: sent back as it was shown, the field then asks nothing (it showed an error page)."""
    night_panel.NIGHT.catch_up_and_say()  # a shared night: the names as another phone left them
    night = night_panel.night()
    typed = st.session_state[key]
    player = nt.find_player(night, player_id)
    if player is None and card_widgets.sent_back_unchanged(key):
        return
    try:
        night_panel.NIGHT.commit(nt.rename_player(night, player_id, typed))
    except ts.TableError as error:
        refuse(error)
        if player is not None:
            st.session_state[key] = player.name
        return
    table_photo.follow_names(night.table, night_panel.table())


def on_pin(pile_id: int, position: int, key: str) -> None:
    choice = st.session_state[key]
    act(ts.pin_queen, pile_id, position, None if choice in (None, BEST) else int(choice))


def on_variants() -> None:
    state = st.session_state
    variants = Variants(
        decks=2 if state.two_decks else 1,
        lucky_tom=state.lucky_tom,
        music_of_the_night=state.music_of_the_night,
    )
    act(ts.set_variants, variants)


def on_photo_owner(photo: str, key: str) -> None:
    player_id = st.session_state[key]
    if player_id not in [player.id for player in night_panel.table().players]:
        return  # not a choice the player made (a list of names out of date): nothing to do
    act(ts.reassign_photo, photo, player_id, after=select("player", player_id))


def add_player() -> None:
    """One more player, shown; the keyboard's focus goes to their name (it stayed on
    ➕ Player: helper-63)."""
    night_panel.add_player()
    added = night_panel.table().players[-1].id
    st.session_state.player = added
    language.focus_on(name_key(added))


def name_key(player_id: int) -> str:
    return f"name:{game_state.started()}:{player_id}"


# ---------------------------------------------------------------------------------------------
# Drawing the page


def show_scoreboard(table: ts.Table, result: ts.TableResult) -> None:
    st.markdown(pile_view.scoreboard_html(result, language.tr()), unsafe_allow_html=True)
    line = ts.result_line(result, language.tr())
    with st.container(key="spoken-result"):  # a screen reader hears who wins as it changes
        if result.has_cards and len(result.players) > 1:  # a winner, or who leads so far
            icon = "⏳" if result.waiting_for else "🤝" if result.decided_tie else "🏆"
            icon = "⚠️" if result.duplicates and not result.waiting_for else icon  # not final
            line_html = f'<div class="bc-result">{icon} {escape(line)}</div>'
            st.markdown(line_html, unsafe_allow_html=True)
    on = [
        name
        for name, active in (
            (_("two decks"), table.variants.decks == 2),
            (_("Lucky Tom"), table.variants.lucky_tom),
            (_("Music of the Night"), table.variants.music_of_the_night),
        )
        if active
    ]
    st.caption(_("Variants: ") + (", ".join(on) if on else _("none (switch them on below)")))
    if result.duplicates:
        st.warning(duplicates_words(table, result), icon="⚠️")


def duplicates_words(table: ts.Table, result: ts.TableResult) -> str:
    """The warning of cards on the table too often, as their cause asks: the same piles
    photographed twice, one photo's cards to take off (no card misread, and *Two decks* would
    hide the doubling); otherwise one of each misread, or a second deck to switch on."""
    photos = st.session_state.get("photos", {})
    causes = ts.duplicate_causes(table, result.duplicates, photos.keys())
    on_top = table_photo.photos_on_top(table)
    parts = [
        photo_input.photographed_twice_words(twice, table, on_top)
        for twice in causes.photographed_twice
    ]
    if causes.others:
        parts.append(misread_words(table, causes.others))
    return "\n\n".join(parts)


def misread_words(table: ts.Table, duplicates: tuple[DuplicateCard, ...]) -> str:
    """Cards on the table too often, one of each probably misread, and where each lies."""
    places = "\n".join(f"- {ts.describe_duplicate(d, language.tr())}" for d in duplicates)
    count = len(duplicates)
    if table.variants.decks == 1:
        why = ngettext(
            "**A card is on the table twice.** With one deck that can't be: one of them is "
            "probably misread. Fix it, or switch on *Two decks* below.",
            "**{count} cards are on the table twice.** With one deck that can't be: one of "
            "each is probably misread. Fix them, or switch on *Two decks* below.",
            count,
        ).format(count=count)
    else:
        why = ngettext(
            "**A card is on the table more than twice.** With two decks that can't be: "
            "one of them is probably misread.",
            "**{count} cards are on the table more than twice.** With two decks that can't "
            "be: one of each is probably misread.",
            count,
        ).format(count=count)
    return f"{why}\n{places}"


def shown_player(table: ts.Table) -> ts.Player:
    """The player whose piles the page shows (`player`); the first where that one is no longer
    at the table (another phone's change, taken in at the page's run or as a photo was given)."""
    state = st.session_state
    if state.get("player") not in [player.id for player in table.players]:
        state.player = table.players[0].id
    return table.player(state.player)


def show_players(table: ts.Table) -> ts.Player:
    ids = [player.id for player in table.players]
    shown_player(table)
    names = {player.id: player.name for player in table.players}
    st.segmented_control(
        _("Whose piles"),
        ids,
        default=st.session_state.player,  # as set (card_widgets.field_value says why)
        format_func=lambda player_id: names.get(player_id, "?"),
        key="player",
        required=True,
    )
    player = table.player(st.session_state.player)
    with st.container(horizontal=True, vertical_alignment="bottom"):
        name_field = name_key(player.id)
        st.text_input(
            _("Name"),
            card_widgets.field_value(name_field, player.name),
            key=name_field,
            on_change=on_rename,
            args=(player.id, name_field),
            max_chars=ts.MAX_NAME_LENGTH,  # the typing stops there, rather than the name refused
            width=round(NAME_FIELD_REM * pile_view.REM_PX),
        )
        most_players = _("Up to {count} players").format(count=ts.MAX_PLAYERS)
        st.button(
            _("➕ Player"),
            key="add-player",
            wrap=True,
            on_click=add_player,
            disabled=len(table.players) >= ts.MAX_PLAYERS,
            help=most_players,
        )
        name = photo_input.as_written(player.name)  # in Markdown: "Ann*" no emphasis
        gone = _("{name} and their piles are off the table.").format(name=name)
        # asked first: the next player's Remove took its place, for a second tap to remove them
        game_state.confirm(
            _("Remove"),
            _("**Take {name} off the table?** Their piles go too (Undo brings them back).").format(
                name=name
            ),
            _("Yes, remove {name}").format(name=name),
            partial(act, ts.remove_player, player.id, after=game_state.undoable(gone)),
            key=f"remove-player:{player.id}",
            disabled=len(table.players) == 1,
            help=_("Take {name} off the table (Undo brings them back)").format(name=player.name),
        )
        if len(table.players) >= ts.MAX_PLAYERS:  # said: a touch screen shows no tooltip
            st.caption(most_players)
    return player


PHOTO_HELP = N_(
    "Lay each pile out as a row, left to right as it was built, with every card's corner "
    "showing, and photograph it from above in good light. One photo may hold one or two piles. "
    "On a phone, *Upload* also offers the camera."
)


PHOTO_MODES = (table_photo.ONE_PLAYER, table_photo.WHOLE_TABLE)


def choose_photo() -> str:
    """A photo of the piles of one player (the one shown) or of the whole table; the choice,
    once made, is kept in the page's address."""
    state = st.session_state
    if state.get(table_photo.MODE) not in PHOTO_MODES:
        state[table_photo.MODE] = table_photo.ONE_PLAYER
    words = {
        table_photo.ONE_PLAYER: _(table_photo.ONE_PLAYERS_PILES),
        table_photo.WHOLE_TABLE: _("The whole table"),
    }
    st.segmented_control(
        _("Photo of"),
        list(words),
        default=state[table_photo.MODE],  # as set (card_widgets.field_value says why)
        format_func=lambda mode: words.get(mode, mode),
        key=table_photo.MODE,
        required=True,
        on_change=keep_photo_mode,
    )
    return state[table_photo.MODE]


def keep_photo_mode() -> None:
    """The choice kept in the address; the notes on the other panel's last photos go (they
    spoke of what that panel did)."""
    state = st.session_state
    st.query_params[sharing.PHOTO_MODE_PARAM] = state[table_photo.MODE]
    for prefix in ("", table_photo.PREFIX):
        photo_input.forget_notes(prefix)


def to_check_words(checks: ts.Checks) -> str | None:
    """What the checks ask a look at, named as the legend names them and as the note counts
    them ("2 cards in orange and 1 card that may be missing"); None: nothing."""
    parts = []
    if checks.doubtful:
        orange = ngettext("{count} card in orange", "{count} cards in orange", checks.doubtful)
        parts.append(orange.format(count=checks.doubtful))
    if checks.gaps:
        maybe = ngettext(
            "{count} card that may be missing", "{count} cards that may be missing", checks.gaps
        )
        parts.append(maybe.format(count=checks.gaps))
    if checks.too_often:
        often = ngettext(
            "{count} card on the table too often",
            "{count} cards on the table too often",
            checks.too_often,
        )
        parts.append(often.format(count=checks.too_often))
    return and_list(parts, language.tr()) if parts else None


def to_check_button(player: ts.Player) -> None:
    """Under a photo's note, while the player's piles hold cards of a photo: one tap brings the
    first pile with something to check into view (a screen and more below the note on a phone:
    every fix of helper-55's 45 began with a scroll), named as the legend names them, as the
    note counts them; with nothing left to check it stays, disabled, so that the last fix moves
    nothing under the finger."""
    checks = ts.checks_of(player, night_panel.scored(night_panel.table()))
    words = to_check_words(checks)
    if words is None and not ts.photos_of(player):
        return
    first = checks.pile_ids[0] if checks.pile_ids else None
    st.button(
        "↓ " + words if words else _("✓ No card to check"),
        key="to-check",
        disabled=first is None,
        on_click=card_taps.jump_to_check,
        args=(card_taps.pile_key(first) if first is not None else "",),
    )


def table_to_check_buttons(table: ts.Table) -> None:
    """Under the whole table's photo notes: for each player with something to check, one tap shows
    their piles and brings the first with something to check into view (the note counts every
    player's orange cards, and the page shows one player's piles: helper-63 found Bob's orange
    card named nowhere); with nothing left anywhere, one greyed button keeps the place."""
    if not any(ts.photos_of(player) for player in table.players):
        return
    result = night_panel.scored(table)
    with st.container(horizontal=True, gap="small"):
        checked = True
        for player in table.players:
            checks = ts.checks_of(player, result)
            words = to_check_words(checks)
            if words is None:
                continue
            checked = False
            st.button(
                "↓ " + _("{name}: {what}").format(name=player.name, what=words),
                key=f"to-check:{player.id}",
                on_click=show_pile_of,
                args=(player.id, checks.pile_ids[0]),
                wrap=True,  # whole on a 320 px phone, as Streamlit would cut it in a row
            )
        if checked:
            st.button(_("✓ No card to check"), key="to-check", disabled=True)


def show_pile_of(player_id: int, pile_id: int) -> None:
    """The player's piles shown, and the pile brought into view."""
    st.session_state.player = player_id
    card_taps.jump_to_check(card_taps.pile_key(pile_id))


def show_photo_inputs(player: ts.Player) -> None:
    """The first thing on the page: upload (or take) photos for the player shown, or of the
    whole table."""
    heading = st.empty()  # filled last: a photo may hand the table to a new player
    now = night_panel.night()
    # a photo goes into the game on screen: said where that is a finished one (a photo meant
    # for the game in play changed game 1's scores)
    finished = (
        " · " + _("game {number}, finished").format(number=now.current + 1)
        if now.current != now.in_play
        else ""
    )
    photos_lost_note(night_panel.table(), player)
    if choose_photo() == table_photo.WHOLE_TABLE:
        # photos given as this player's piles just before the switch: read as that
        left = player_uploads(photo_input.left_behind(), player)
        if left:
            show_upload_notes(left)
        table_photo.show_panel(act, under_notes=table_to_check_buttons)
        heading.markdown("### " + _("📷 The whole table in one photo") + finished)
        return
    table_photo.take_left_behind(act)  # photos of the whole table given just before the switch
    files = photo_input.photo_inputs(_(PHOTO_HELP), _("Photo of the piles"))
    show_upload_notes(player_uploads(files, player))
    table: ts.Table = night_panel.table()
    shown = shown_player(table).id  # another phone's change taken in with a photo: still here?
    to_check_button(table.player(shown))
    reader_access.reader_note()
    if table.example or not any(pile.slots for pile in table.player(shown).piles):
        st.caption(_(PHOTO_HELP))
    if table.example:
        heading.markdown("### " + _("📷 Add your piles"))
    else:
        name = table.player(shown).name
        heading.markdown("### " + _("📷 Add {name}'s piles").format(name=name) + finished)


def player_uploads(files: list[Any], player: ts.Player) -> list[tuple[str, UploadNote]]:
    """The files given as one player's piles read (`photo_input.take_uploads`), each as the
    piles of the player shown when it was given (`photo_input.given_for`: a tap on another
    player just after a photo came in its run, and the photo went to them)."""
    ids = [p.id for p in night_panel.table().players]
    given = photo_input.given_for(files, player.id, ids)
    return photo_input.take_uploads(files, partial(add_photo, player_id=given))


def show_upload_notes(uploads: list[tuple[str, UploadNote]]) -> None:
    """The notes on the last photos of one player's piles that belong on the page shown, each
    with a choice of whose piles it holds where several were given at once."""
    table: ts.Table = night_panel.table()
    shown: int = st.session_state.player
    placed = [n for _name, n in uploads if n.kind == "success" and n.photo is not None]
    ask = len(placed) > 1 and len(table.players) > 1  # several photos at once: whose is each?
    with photo_input.notes_box():
        for name, note in uploads:
            message = note.message(table, shown)
            if message is None:
                continue
            photo_input.show_note(note.kind_now(table), message, name)
            if ask and note in placed and note.photo is not None:
                owner_select(table, note.photo, shown, f"upload-owner:{note.photo}", name)


def photos_lost_note(table: ts.Table, player: ts.Player) -> None:
    """Said where the player's cards come from photos the app no longer has (it restarted, or
    a link was opened on another computer): the cards stay, their photo and flags went with
    nothing said (helper-52); the same photo uploaded again brings them back."""
    lost = [key for key in ts.photos_of(player) if ts.reads_lost(table, key)]
    if lost:
        st.info(
            ngettext(
                "The photo of {name}'s piles is gone from the app (it was restarted, or the link "
                "was opened elsewhere): its cards stay, without the reader's doubts. Upload the "
                "same photo again to bring both back.",
                "{count} photos of {name}'s piles are gone from the app (it was restarted, or the "
                "link was opened elsewhere): their cards stay, without the reader's doubts. "
                "Upload the same photos again to bring both back.",
                len(lost),
            ).format(name=player.name, count=len(lost)),
            icon="🖼️",
        )


def owner_select(table: ts.Table, photo: str, owner: int, key: str, name: str) -> None:
    """Whose piles a photo holds: choosing another player moves its piles to them. The list
    is a new widget whenever the names change: the browser names a selectbox's choice by its
    text, which a rename would otherwise leave pointing at nobody."""
    names = {p.id: p.name for p in table.players}
    key = f"{key}:{hashlib.sha256('|'.join(names.values()).encode()).hexdigest()[:8]}"
    ids = [p.id for p in table.players]
    st.selectbox(
        _("Whose piles are in {name}?").format(name=name),
        ids,
        card_widgets.choice_index(key, owner, ids),
        format_func=lambda player_id: names.get(player_id, "?"),
        key=key,
        placeholder=_("Choose a player"),
        on_change=on_photo_owner,
        args=(photo, key),
    )


def show_photos(table: ts.Table, player: ts.Player) -> None:
    """The player's photos, each with their cards numbered. A photo of the whole table shows
    above instead while the whole table is photographed; here its piles are given one by one,
    other photos all at once."""
    photos: dict[str, PhotoRecord] = st.session_state.photos
    whole = table_photo.table_photos(table, photos)
    on_top = st.session_state.get(table_photo.MODE) == table_photo.WHOLE_TABLE
    for key in ts.photos_of(player):
        record = photos.get(key)
        if record is None or (key in whole and on_top):
            continue
        also = ts.others_with_photo(table, player, key)
        photo_view.show_photo(key, record, ts.photo_marks(player, key), act, also=also)
        if len(table.players) == 1:
            continue
        if key in whole:
            table_photo.give_piles(table, key, act, only=player.id)
        else:
            owner_select(table, key, player.id, f"owner:{key}", record.shown_name(language.tr()))


def show_pile(
    player: ts.Player,
    pile_index: int,
    pile: ts.Pile,
    score: PileScore,
    duplicated: set[tuple[int, int]],
    checks: ts.Checks,
    lying: Mapping[Card, str] | None = None,
) -> None:
    """One pile (`lying`: where each card on the table lies, once a deck has only one;
    `checks`: what the player's piles ask a look at). Its
    parts are always the same elements in the same places, so a fix above (a doubtful card
    confirmed, a Queen's value) never shifts, closes or reopens what follows; its editors are
    keyed by the pile, so they stay with it when another pile goes."""
    colour = PILE_COLOURS[pile_index % len(PILE_COLOURS)]
    st.markdown(
        pile_view.pile_head_html(pile_index, score.points, colour, len(pile.slots), language.tr()),
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
            # while a card is picked, room for every kind's bar: a fix that made a feature
            # pushed its rank and suit rows down under the finger (helper-53)
            lanes_at_least=len(FEATURE_KINDS) if picked is not None else 0,
            tr=language.tr(),
        ),
        unsafe_allow_html=True,
    )
    if not pile.slots:
        st.caption(
            _(
                "📷 Pile {number} is still empty: photograph it above (a photo's piles fill "
                "the empty ones first), or type its cards below."
            ).format(number=pile_index + 1)
        )
    if len(pile.slots) > CARDS_ACROSS_A_PHONE:
        with st.container(key=f"swipe-{pile.id}"):
            st.caption(
                _("⇆ Swipe the cards sideways: {count} cards are wider than a phone.").format(
                    count=len(pile.slots)
                )
            )
        # not said where the window is wide enough for them all (a computer's: helper-63)
        if (fits_from := pile_view.strip_fits_from(len(pile.slots))) is not None:
            st.html(
                f"<style>@media (min-width: {fits_from}px) "
                f"{{ .{language.key_class(f'swipe-{pile.id}')} {{ display: none; }} }}</style>"
            )
    if picked is not None and picked < len(pile.slots):
        picked_words = _(
            "**Card {number} ({card})** picked: tap the card whose place it "
            "takes (tap it again to let go), or change it above."
        )
        number = ts.card_number(pile_index, picked)
        more = partial(put_beside, pile, picked)
        card_widgets.picked_card_rows(act, pile, picked, number, picked_words, more=more)
    inserting = st.session_state.get(card_taps.inserting_key(pile.id))
    if inserting is not None and inserting not in pile.gaps and inserting <= len(pile.slots):
        insert_at_gap(pile, inserting, gap_place(pile, pile_index, inserting))
    if pile.gaps:
        with st.container(key=f"gaps-{pile.id}"):
            for position in pile.gaps:
                gap_prompt(pile, pile_index, position)
    with st.container(key=f"doubts-{pile.id}"):
        for position in doubtful:
            card_widgets.doubtful_prompt(
                act,
                pile,
                position,
                ts.card_number(pile_index, position),
                not_a_card=True,
                other=partial(pick_for_fixing, pile.id, position),
                lying=lying,
            )
    next_to_check(player, pile, checks)
    st.markdown(
        pile_view.features_html(pile_index, score, language.tr()) if pile.slots else "",
        unsafe_allow_html=True,
    )
    with st.container(key=f"queens-{pile.id}"):
        if score.queens:
            show_queens(pile, pile_index, score)
    text_key = f"text:{game_state.started()}:{pile.id}"
    st.text_input(
        _("Pile {number}, left to right").format(number=pile_index + 1),
        card_widgets.field_value(text_key, ts.pile_text(pile)),
        key=text_key,
        on_change=on_text,
        args=(pile.id, text_key),
        placeholder=_(card_widgets.TYPING_HINT),
    )
    with st.container(key=f"typo-{pile.id}"):
        error = st.session_state.text_errors.get(pile.id)
        if error:
            st.error(error)
    with panels.panel(
        _("✏️ Fix, add or move cards of pile {number}").format(number=pile_index + 1),
        key=f"fix:{pile.id}",
        on_change="rerun",
    ) as tools:
        # drawn only while open (its pills are a third of the page's elements: helper-104),
        # or while they hold a choice, which a widget not drawn would lose
        if tools.open or editor_holds_a_choice(pile.id):
            show_editor(player, pile_index, pile)


def editor_holds_a_choice(pile_id: int) -> bool:
    """A card of the pile picked, or a rank or suit picked to add (`show_editor`'s widgets)."""
    keys = (f"sel:{pile_id}", f"rank:{pile_id}", f"suit:{pile_id}")
    return any(st.session_state.get(key) is not None for key in keys)


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


BEST = N_("Best")  # a Queen's choice: the value that scores most (shown translated)
GAP_PICKER = "gap-"  # the keys of the card picker at a gap: a pile's editor has its own


def next_to_check(player: ts.Player, pile: ts.Pile, checks: ts.Checks) -> None:
    """Under a pile with something to check, a jump to the next one below that has (the one
    under the note lies far above by then), else to the next player's round the table who has
    something to check (helper-66: after one player's piles of a whole table, the next
    player's jump lay 2,000 px up). Once shown it stays while something is left to check, the
    pile's own last fix done too (helper-62: it went with that fix, just as it was wanted), and
    then stays in place, greyed, so nothing below moves up under the finger."""
    following = checks.after(pile.id, player)
    wanted = card_taps.next_shown(pile.id) or pile.id in checks.pile_ids
    table = night_panel.table()
    other = (
        None
        if following is not None or not wanted
        else ts.next_to_check(table, night_panel.scored(table), player.id)
    )
    if following is not None and wanted:
        card_taps.mark_next_shown(pile.id)
        number = [p.id for p in player.piles].index(following) + 1
        st.button(
            _("↓ Next to check: pile {number}").format(number=number),
            key=f"next-check:{pile.id}",
            on_click=card_taps.jump_to_check,
            args=(card_taps.pile_key(following),),
        )
    elif other is not None:
        card_taps.mark_next_shown(pile.id)
        other_player, other_pile = other
        number = [p.id for p in other_player.piles].index(other_pile) + 1
        st.button(
            _("↓ Next to check: {name}'s pile {number}").format(
                name=other_player.name, number=number
            ),
            key=f"next-check:{pile.id}",
            on_click=show_pile_of,
            args=(other_player.id, other_pile),
        )
    elif card_taps.next_shown(pile.id):
        st.button(_("✓ Nothing below to check"), key=f"next-check:{pile.id}", disabled=True)


def gap_prompt(pile: ts.Pile, pile_index: int, position: int) -> None:
    """Where the reader thinks a card may be missing: one tap opens, right here, the picker of
    the card that goes in there; another says nothing is missing."""
    where = gap_place(pile, pile_index, position)
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        st.markdown(_("A card may be missing {where}.").format(where=where))
        st.button(
            _("➕ Add a card here"),
            key=f"gap-add:{pile.id}:{position}",
            wrap=True,
            on_click=open_insert,
            args=(pile, position),
        )
        st.button(
            _("✗ Nothing missing"),
            key=f"gap-none:{pile.id}:{position}",
            wrap=True,
            on_click=act,
            args=(ts.dismiss_gap, pile.id, position),
            # its picker, open, would stay: asking which card is missing where none is
            kwargs={"after": select(card_taps.inserting_key(pile.id), None)},
        )
    if st.session_state.get(card_taps.inserting_key(pile.id)) == position:
        insert_at_gap(pile, position, where)


def put_beside(pile: ts.Pile, picked: int) -> None:
    """A picked card's buttons that open, in its place, the picker of a card to put in before
    or after it: a card lost with no teal mark beside it went in through the pile's editor,
    3-5 taps with its Add button a screen below (session 83's audit)."""
    card = chip(pile.slots[picked].card)
    with st.container(horizontal=True, gap="small"):
        st.button(
            _("➕ A card before {card}").format(card=card),
            key=f"put-before:{pile.id}",
            wrap=True,
            on_click=open_insert,
            args=(pile, picked),
        )
        st.button(
            _("➕ A card after {card}").format(card=card),
            key=f"put-after:{pile.id}",
            wrap=True,
            on_click=open_insert,
            args=(pile, picked + 1),
        )


def gap_place(pile: ts.Pile, pile_index: int, position: int) -> str:
    if position < len(pile.slots):
        number, card = ts.card_number(pile_index, position), chip(pile.slots[position].card)
        return _("before {number} {card}").format(number=number, card=card)
    return _("after the last card")


def insert_at_gap(pile: ts.Pile, position: int, where: str) -> None:
    """The card that goes in at the gap: its rank and suit, the second of them tapped puts it
    there (a missing card took four taps: helper-55), and a toast says so, with Undo."""
    with st.container(key=f"insert-{pile.id}", border=True):
        st.markdown(_("**Which card is missing {where}?**").format(where=where))
        card_widgets.card_picker(pile.id, GAP_PICKER, on_both=partial(put_at_gap, pile, position))
        st.button(_("Cancel"), key=f"gap-cancel:{pile.id}", on_click=open_insert, args=(pile, None))


def open_insert(pile: ts.Pile, position: int | None) -> None:
    """The card picker at the gap before `position` (the pile's length: after its last card)
    opened, or (None) closed; the pile's picked card is let go, so nothing speaks of moving."""
    st.session_state[card_taps.inserting_key(pile.id)] = position
    st.session_state[f"sel:{pile.id}"] = None
    if position is not None:  # opened low on the screen, its picker lies below it
        card_taps.bring_into_view(f"insert-{pile.id}")


def put_at_gap(pile: ts.Pile, position: int) -> None:
    _player_index, pile_index = night_panel.table().locate(pile.id)
    number = ts.card_number(pile_index, position)

    def said(card: Card) -> str:
        return _("{card} put in as card {number}.").format(card=card.label, number=number)

    card_widgets.add_picked(act, pile, position, GAP_PICKER, said=said)
    st.session_state[card_taps.inserting_key(pile.id)] = None


def on_card_tap(pile_id: int, position: int) -> None:
    """A card of a strip tapped: picked, let go, or (another card of the picked card's pile)
    the place the picked card moves to, taking that card's place (card_taps.tap_card)."""
    card_taps.tap_card(table_piles(), pile_id, position, lambda pid: f"fix:{pid}", move_picked)


def table_piles() -> list[ts.Pile]:
    return [pile for player in night_panel.table().players for pile in player.piles]


def pick_for_fixing(pile_id: int, position: int) -> None:
    """The card picked and its pile's editor opened, where the list of every card is."""
    card_taps.pick_card(table_piles(), pile_id, position, f"fix:{pile_id}")


def move_picked(pile: ts.Pile, picked: int, target: int) -> None:
    """The picked card takes the place of the card tapped after it, which is said: a tap meant
    to look at another card moved the picked one silently."""
    _player_index, pile_index = night_panel.table().locate(pile.id)
    number = ts.card_number(pile_index, target)
    said = game_state.undoable(
        _("{card} moved to {number}.").format(card=pile.slots[picked].card.label, number=number)
    )

    def moved() -> None:
        st.session_state[f"sel:{pile.id}"] = None
        said()

    act(ts.move_card, pile.id, picked, target - picked, after=moved)


def show_queens(pile: ts.Pile, pile_index: int, score: PileScore) -> None:
    with panels.panel(
        _("👑 Queens of pile {number}: 7 or 11").format(number=pile_index + 1),
        key=f"queens:{pile.id}",
        on_change="rerun",
    ) as panel:
        # drawn only while open: their values are the game's, drawn afresh (field_value)
        for queen in score.queens if panel.open else ():
            number = ts.card_number(pile_index, queen.position)
            if queen.pinned:
                why = _("pinned to {value} 📌").format(value=queen.value)
            elif queen.indifferent:
                why = _("7 or 11 score the same")
            else:
                why = _("{value} scores most").format(value=queen.value)
            key = f"pin:{pile.id}:{queen.position}"
            st.segmented_control(
                # plain text: a widget's label is also its name for screen readers, markup and all
                _("{card} card {number}: {why}").format(
                    card=queen.card.label, number=number, why=why
                ),
                [BEST, "7", "11"],
                default=card_widgets.field_value(key, str(queen.value) if queen.pinned else BEST),
                format_func=lambda choice: _(choice) if choice == BEST else choice,
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
            end = (
                _("→ pile {number} start") if other_index > pile_index else _("→ pile {number} end")
            )
            places.append(
                card_widgets.Place(
                    end.format(number=other_index + 1),
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
    selected = card_widgets.pick_slot(pile, _("Tap a card to change, move or delete it"), number)
    with st.container(horizontal=True, gap="small"):
        card_widgets.delete_button(act, pile, selected)
        st.button(
            _("✂ New pile from {number}").format(number=number(selected))
            if selected is not None
            else _("✂ New pile"),
            key=f"split:{pile.id}",
            wrap=True,
            disabled=not selected,  # none tapped, or the first: nothing to split off
            on_click=act,
            args=(ts.split_pile, pile.id, selected),
            kwargs={"after": select(sel_key, None)},
            help=_("The reader joined two piles: this card and the ones after it become a pile"),
        )
    if selected is not None:
        slot = pile.slots[selected]
        # its rank and suit are under the strip (`show_pile`), where the tap was
        card_widgets.change_card(act, pile.id, selected, number(selected), slot)
        card_widgets.move_pills(
            act,
            pile,
            selected,
            _("Tap where {number} goes").format(number=number(selected)),
            move_places(player, pile_index, pile, selected),
        )
    st.markdown(_("**Add a card**"))
    # its buttons lay just under a phone's screen once the suit was tapped (helper-62)
    in_view = partial(card_taps.bring_into_view, f"add:{pile.id}")
    card = card_widgets.card_picker(pile.id, on_both=in_view)
    with st.container(horizontal=True, gap="small"):
        st.button(
            _("➕ Add {card} at the end").format(card=chip(card))
            if card
            else _("➕ Add at the end"),
            key=f"add:{pile.id}",
            wrap=True,
            type="primary",
            disabled=card is None,
            on_click=card_widgets.add_picked,
            args=(act, pile, None),
        )
        if selected is not None and card is not None:
            st.button(
                _("Insert {card} before {number}").format(card=chip(card), number=number(selected)),
                key=f"insert:{pile.id}",
                wrap=True,
                on_click=card_widgets.add_picked,
                args=(act, pile, selected),
            )
    with st.container(horizontal=True, gap="small"):
        if pile_index + 1 < len(player.piles):
            st.button(
                _("Join with pile {number}").format(number=pile_index + 2),
                key=f"join:{pile.id}",
                wrap=True,
                on_click=act,
                args=(ts.join_with_next, pile.id),
                help=_("The reader split one pile in two: put them back together"),
            )
        removed = _("Pile {number} of {name} is off the table.").format(
            number=pile_index + 1, name=player.name
        )
        st.button(
            _("Remove pile {number}").format(number=pile_index + 1),
            key=f"remove-pile:{pile.id}",
            wrap=True,
            disabled=len(player.piles) == 1,
            on_click=act,
            args=(ts.remove_pile, pile.id),
            kwargs={"after": game_state.undoable(removed)},
        )


def show_variants(table: ts.Table) -> None:
    with st.expander(_("⚙️ Variants"), key="variants"):
        variants = table.variants
        st.toggle(
            _("Two decks (Long Night on the Fence)"),
            card_widgets.field_value("two_decks", variants.decks == 2),
            key="two_decks",
            on_change=on_variants,
            help=_("The same card may appear twice"),
        )
        st.toggle(
            _("Lucky Tom"),
            card_widgets.field_value("lucky_tom", variants.lucky_tom),
            key="lucky_tom",
            on_change=on_variants,
            help=_("A Tomcat of two 5s is 5"),
        )
        st.toggle(
            _("Music of the Night"),
            card_widgets.field_value("music_of_the_night", variants.music_of_the_night),
            key="music_of_the_night",
            on_change=on_variants,
            help=_("Each Yowler is worth the number of Yowlers in its pile"),
        )


def export_names(night: nt.Night) -> tuple[str, str]:
    """The file names of the game on screen's scoreboard and piles (without extension): with
    its number in a night of several games."""
    if len(night.games) < 2:
        return pgettext("a file name", "scoreboard"), pgettext("a file name", "piles")
    number = night.current + 1
    return (
        pgettext("a file name", "scoreboard-game-{number}").format(number=number),
        pgettext("a file name", "piles-game-{number}").format(number=number),
    )


def show_exports(table: ts.Table, result: ts.TableResult) -> None:
    """The downloads: the night's CSV (several games), the game on screen's scoreboard and
    piles as CSV (in the page's language, for a spreadsheet) and JSON (English, for tools)."""
    with (
        st.expander(_("⬇️ Download the scores"), key="exports"),
        st.container(horizontal=True, gap="small"),
    ):
        night_panel.show_download()
        scoreboard, piles = export_names(night_panel.night())
        tr = language.tr()  # the files are written later, outside the page's run
        scoreboard_csv = partial(ts.scoreboard_csv, result, tr)
        downloads.csv_button("scoreboard-csv", _("Scoreboard CSV"), scoreboard_csv, scoreboard)
        scoreboard_json = partial(ts.scoreboard_json, table, result)
        downloads.json_button("scoreboard-json", _("Scoreboard JSON"), scoreboard_json, scoreboard)
        downloads.csv_button("piles-csv", _("Piles CSV"), partial(ts.piles_csv, result, tr), piles)
        piles_json = partial(ts.piles_json, table, result)
        downloads.json_button("piles-json", _("Piles JSON"), piles_json, piles)


def black_cat_page() -> None:
    init_state()
    before = night_panel.table()
    night_panel.NIGHT.take_in_change()  # a shared night another phone changed
    night_panel.name_the_example()
    # "Player 2" took a photo: "Jugador 2"; another phone renamed the photographer (by id: a
    # game another phone moved on from holds none of the next game's)
    table_photo.follow_names(before, night_panel.table())
    state = st.session_state
    # everything above the piles in one container: however many notes and photos it shows,
    # a pile stays the same element of the page, and a field typed in stays in place and
    # focused while another phone's photo comes in (helper-71)
    with st.container():
        st.markdown(_("## 🐈‍⬛ Black Cat score"))
        if state.get("link_note"):
            st.warning(state.pop("link_note"), icon="🔗")

        show_photo_inputs(shown_player(night_panel.table()))
        table = night_panel.table()  # a new photo may have changed it
        nights = [state.night, *game_state.games_before(state.history)]
        games = [game for night in nights for game in night.games]
        in_use = ts.photos_on(games)
        game_state.forget_unused_photos(state.photos, in_use)
        night_panel.forget_old_scores()
        result = night_panel.scored(table)

        if table.example:
            text = _(
                "👋 **An example game**, its piles {source}. Photograph your "
                "own piles above, or type your cards below, and see your score."
            )
            st.info(text.format(source=_(state.example_source)))
        night_panel.show_night()
        show_scoreboard(table, result)
        with st.container(horizontal=True, gap="small"):
            st.button(_("↶ Undo"), key="undo", on_click=undo, disabled=not state.history)
            night_panel.buttons()
        player = show_players(table)

        player_index = table.players.index(player)
        player_score = result.players[player_index]
        show_photos(table, player)
        duplicated = result.duplicated_at(player.name)
        points = ngettext("{count} point", "{count} points", player_score.total)
        with st.container(key=language.SPOKEN_KEY):  # a screen reader hears it change
            st.markdown(f"### {player.name}: {points.format(count=player_score.total)}")
        st.markdown(
            pile_view.legend_html(marks_on(player, duplicated), language.tr()),
            unsafe_allow_html=True,
        )
    lying = card_widgets.where_cards_lie(table, player) if table.variants.decks == 1 else None
    checks = ts.checks_of(player, result)
    for pile_index, pile in enumerate(player.piles):
        with st.container(key=card_taps.pile_key(pile.id)):
            score = player_score.piles[pile_index]
            show_pile(player, pile_index, pile, score, duplicated, checks, lying)
    st.button(
        _("➕ Another pile for {name}").format(name=player.name),
        key=f"add-pile:{player.id}",
        on_click=act,
        args=(ts.add_pile, player.id),
    )
    st.divider()
    show_variants(table)
    with st.expander(_("📖 How we score"), key="how"):
        st.markdown(how_we_score(HOW_WE_SCORE).read_text(encoding="utf-8"))
    show_exports(table, result)
    text = link_text(night_panel.night(), state.player)
    sharing.show_share(PAGE_PATH, LINK_PARAM, text, night_panel.NIGHT.key)
    sharing.keep_in_address(LINK_PARAM, text, state.history, night_panel.NIGHT.key)
    card_widgets.scroll_as_asked()
    card_taps.listen_for_card_taps(on_card_tap)  # last: the score shows before it loads
    live_table.listen(night_panel.NIGHT.key, night_panel.NIGHT.moves_on)
    game_state.keep_toast_off_the_cards()  # last: an element now and then moves none after it
    card_taps.forget_keys_of_gone_things(ts.pile_ids_on(games))


def main() -> None:
    st.set_page_config(
        page_title=_("Black Cat score"),
        page_icon="🐈‍⬛",
        layout="centered",
        initial_sidebar_state="collapsed",
    )
    dropped_pages.tidy()  # the photos of tabs gone for good let go of
    words = photo_input.streamlit_words_css(language.tr())  # Streamlit's own, in the language
    # a field typed in stays in place as the page grows above it (language.FIELD_KEPT_CSS)
    name_field = pile_view.field_width_css(language.key_class("name:"), NAME_FIELD_REM)  # name_key
    css = (
        pile_view.CSS + PAGE_CSS + f"<style>{name_field}</style>" + words + language.FIELD_KEPT_CSS
    )
    st.markdown(css, unsafe_allow_html=True)
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
        language.show_switch()
        sharing.show_private()
        return
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        black_lady_page.choose_game(current.title, pages)
        tr = language.tr()
        names = photo_input.button_names(tr) + card_widgets.suit_choice_names(tr)
        language.show_switch(names, black_lady_page.seat_marks_said(tr))
    current.run()
    this_tab.keep(wanted=live_table.room() is not None)  # Undo kept for a reload


main()
