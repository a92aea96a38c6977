"""A photo of the whole table, on the Black Cat page (UI only): who takes it, the upload, its
piles shared among the players (`blackcat.tables.seating`: the photographer's side first, the
others clockwise in the table's order), the photo with each player's name by their piles, and one
tap to give a pile to another player.

Each player's piles from the photo go to the same per-player piles as a photo of one player's
piles (`black_cat_table.place_table_photo`), so every correction, the scoreboard and the link
work on them as on any other pile.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial

import card_taps
import game_state
import language
import night_panel
import panels
import photo_input
import photo_store
import photo_view
import reader_access
import streamlit as st
from card_widgets import chip, field_value
from game_state import Act, undoable
from language import _, ngettext
from photo_store import PhotoRecord
from reader_access import PhotoOutcome, Words, photo_key, read_upload

from blackcat.i18n import N_, and_list
from blackcat.tables import black_cat_night as nt
from blackcat.tables import black_cat_table as ts
from blackcat.tables.seating import (
    TooManySides,
    clockwise_from,
    moves_for_new_photographer,
    players_for_sides,
    seat_players,
)
from blackcat.vision.types import SIDES

MODE = "photo_mode"  # the choice of photo: one player's piles, or the whole table
ONE_PLAYER = "player"
WHOLE_TABLE = "table"
PREFIX = "table:"  # the whole table's uploader, camera and notes
PHOTOGRAPHER = "photographer"  # the id of the player who photographs the whole table
PHOTOGRAPHER_NAME = "photographer-name"  # finds them again in another game of the night
GIVE = "give:"  # the keys of the buttons that give a pile to another player
ON_TABLE_ALREADY = N_("{name} is already on the table.")
ONE_SIDE_FOUND = N_(
    "Piles were found on one side of the table only: if the photo shows other players' piles "
    "too, take it again from closer, in good light."
)
READ_AS_CHANGED = N_(
    "{name} was read as the night changed on another phone: upload it again to give out its "
    "cards (it reads at once now)."
)
TABLE_HELP = N_(
    "Every player's piles on the table in front of them, each pile a row with every card's "
    "corner showing; photograph the whole table from your seat, from above, in good light."
)
TABLE_RETAKE = N_(
    "Lay every player's piles in front of them, each pile a row with every card's corner "
    "showing, and photograph the whole table from your seat, from above, in good light"
)
"""How to take a photo of the whole table again: said where one shows no card."""
ONE_PLAYERS_PILES = N_("One player's piles")


def names_key(table: ts.Table) -> str:
    """A short digest of the players' names: a list of names is a new widget when they change
    (the browser names a choice by its text, which a rename would leave pointing at nobody)."""
    names = "|".join(player.name for player in table.players)
    return hashlib.sha256(names.encode()).hexdigest()[:8]


# ---------------------------------------------------------------------------------------------
# Who takes the photo


def remembered_photographer(table: ts.Table, player_id: int | None, name: str | None) -> int | None:
    """The photographer at this table: the player with the remembered id, else (another game of
    the night) the one with the remembered name; None when nobody said."""
    if player_id in [player.id for player in table.players]:
        return player_id
    return next((p.id for p in table.players if name and ts.same_name(p.name, name)), None)


def photographer(table: ts.Table) -> int | None:
    """Who said they photograph the whole table (None: nobody yet)."""
    state = st.session_state
    return remembered_photographer(table, state.get(PHOTOGRAPHER), state.get(PHOTOGRAPHER_NAME))


def remember_photographer(table: ts.Table, player_id: int | None) -> None:
    state = st.session_state
    state[PHOTOGRAPHER] = player_id
    state[PHOTOGRAPHER_NAME] = None if player_id is None else table.player(player_id).name


def follow_names(before: ts.Table, after: ts.Table) -> None:
    """The photographer renamed (or a rename undone: `before` -> `after`, the game on screen) is
    still the photographer: another game of the night finds them by the name they have now
    (the old one named nobody, or another player)."""
    state = st.session_state
    remembered = state.get(PHOTOGRAPHER_NAME)
    names = {player.id: player.name for player in after.players}
    for player in before.players:
        now = names.get(player.id)
        if now is not None and remembered and ts.same_name(player.name, remembered):
            state[PHOTOGRAPHER_NAME] = now


def on_photographer(key: str) -> None:
    """Who takes the next photo; a tap on the one chosen keeps them chosen."""
    table = night_panel.table()
    chosen = st.session_state[key]
    if chosen is None:
        st.session_state[key] = photographer(table)
    elif chosen in [player.id for player in table.players]:
        remember_photographer(table, chosen)


def taker(table: ts.Table) -> int | None:
    """Who takes the next photo of the whole table: the photographer, at a table of one player
    that player; None until someone said."""
    chosen = photographer(table)
    if chosen is None and len(table.players) == 1:
        return table.players[0].id
    return chosen


def choose_photographer(table: ts.Table) -> int | None:
    """One tap says who takes the photo (remembered); the one chosen, None until then (at a
    table of one player, that player)."""
    chosen = taker(table)
    names = {player.id: player.name for player in table.players}
    key = f"{PHOTOGRAPHER}:{names_key(table)}"
    st.segmented_control(
        _("Who is taking the photo?"),
        list(names),
        default=field_value(key, chosen),
        format_func=lambda player_id: names.get(player_id, "?"),
        key=key,
        on_change=on_photographer,
        args=(key,),
    )
    return chosen


def clockwise_words(table: ts.Table, photographer_id: int) -> str:
    """Who the photo's other sides are, as the app will give them."""
    order = clockwise_from([player.id for player in table.players], photographer_id)
    others = " → ".join(table.player(player_id).name for player_id in order[1:])
    if len(order) == 2:  # not "the others follow clockwise round the table: Ann."
        return _(
            "Your piles are the ones on your side of the photo; the others are {other}'s."
        ).format(other=others)
    return _(
        "Your piles are the ones on your side of the photo; the others follow clockwise round "
        "the table: {others}."
    ).format(others=others)


# ---------------------------------------------------------------------------------------------
# The photo read and shared out


@dataclass(frozen=True)
class Placed:
    """What a photo of the whole table gave out (its note is written from it as the table is
    now: the players' names, who holds its piles, the page's language)."""

    name: str  # the file's
    read: photo_input.ReadSummary
    added: tuple[int, ...]  # the players the photo brought to a table of one, named by seat
    # (side, player given its piles, the other player they may be of): `Seat.or_else`
    doubted: tuple[tuple[str, int, int], ...] = ()
    one_side: bool = False  # piles found on one side of the table only


@dataclass(frozen=True)
class TableNote:
    """What became of an uploaded photo of the whole table, for the page: while the photo's
    cards are on the table (`photo`; None: a note on a photo nothing was taken from), a note
    of one kind (`kind`, `words`), or for a photo given out its note written from what it gave
    out (`placed`) and what is left to check, as they are now; always in the page's language."""

    kind: str = ""  # the Streamlit call: success, info, warning or error
    words: Words | None = None
    photo: str | None = None
    placed: Placed | None = None

    def shown(self, table: ts.Table) -> tuple[str, str] | None:
        """(kind, text) as the table is now; None once the photo's cards are off the table
        (taken off, undone, a new game)."""
        if self.photo is not None and ts.photo_owner(table, self.photo) is None:
            return None
        if self.placed is None or self.photo is None:
            return self.kind, self.words() if self.words is not None else ""
        kind, text = placed_note(self.placed, table, self.photo)
        return kind, f"{text} {photo_input.check_words(ts.doubtful_from(table, self.photo))}"


def add_table_photo(data: bytes, name: str, photographer_id: int) -> TableNote:
    """Read a photo of the whole table and give each side's piles to its player; a note for the
    page says what happened. Whatever happens, what is already on the table stays."""
    key = photo_key(data)
    table = night_panel.table()
    if ts.reads_lost(table, key):  # a photo the app lost (restarted): its cards come from a link
        return read_back(data, name, key)
    if ts.photo_owner(table, key) is not None:
        return TableNote("info", partial(already_on_table, name, key), key)
    outcome = read_upload(data, name, table.variants.decks, TABLE_RETAKE)
    if not isinstance(outcome, PhotoOutcome):
        return TableNote(*outcome)
    seats = outcome.seats()
    # a table of one player: the players of the other sides come with the photo
    added = [_(side_name) for side_name in players_for_sides(seats, len(table.players))]
    if added:
        names = nt.names_played(night_panel.night())
        table = ts.add_players(table, added, language.tr(), names, by_seat=True)
        photographer_id = table.players[0].id
    ids = [player.id for player in table.players]
    try:
        seating = seat_players(seats, ids, photographer_id)
    except TooManySides as error:
        return TableNote("warning", partial(too_many_sides, name, error))
    seats_given = [(seat.player_id, seat.piles) for seat in seating]
    placed = ts.place_table_photo(
        table, key, seats_given, outcome.rows, outcome.gaps, language.tr()
    )
    record = PhotoRecord.of(name, outcome)
    photo_store.keep(st.session_state.photos, key, record)  # first: a shared night's phones
    at = night_panel.night().current
    example = night_panel.table().example
    if not night_panel.commit_table(placed):
        return TableNote("warning", lambda: _(READ_AS_CHANGED).format(name=name))
    if example:  # made way: its fields under new keys (`streamlit_app.add_photo` says why)
        game_state.fields_afresh()
    # by place: the untouched example made way for a new game, of new ids
    now = {player_id: placed.players[index].id for index, player_id in enumerate(ids)}
    remember_photographer(
        given_in(night_panel.night(), at, placed, now[photographer_id]), now[photographer_id]
    )
    shared_from(key).add(now[photographer_id])
    st.session_state.player = now[photographer_id]
    # the page stays where it was, at the top: the note and its jumps to the cards to check lay
    # just under a phone's screen, the scoreboard two screens down (helper-66)
    card_taps.bring_into_view(photo_input.notes_box_key(PREFIX), "start")
    given = Placed(
        name=name,
        read=outcome.summary(),
        added=tuple(player.id for player in placed.players[len(ids) - len(added) :]),
        doubted=tuple(
            (seat.side, now[seat.player_id], now[seat.or_else[0]])
            for seat in seating
            if seat.or_else
        ),
        one_side=len(set(outcome.sides)) <= 1,
    )
    return TableNote(photo=key, placed=given)


def already_on_table(name: str, photo: str) -> str:
    """What the page says of a photo of the whole table uploaded again, as the table is now:
    where it was shared out from another seat than the photographer's, the tap that shares it
    out again from theirs (the photographer corrected, then the photo uploaded again for it)."""
    table = night_panel.table()
    record = st.session_state.photos.get(photo)
    seats = None if record is None else reseat_seats(table, photo, record)
    if seats is None:
        return _(ON_TABLE_ALREADY).format(name=name)
    holder, taker = (table.player(player_id).name for player_id in seats)
    return _(SHARED_FROM_ANOTHER_SEAT).format(name=name, holder=holder, taker=taker)


SHARED_FROM_ANOTHER_SEAT = N_(
    "{name} is already on the table, its piles shared out from {holder}'s seat: to share them "
    "out from {taker}'s, tap *Taken from {taker}'s seat?* above."
)


def given_in(night: nt.Night, at: int, placed: ts.Table, player_id: int) -> ts.Table:
    """The game a photo was just given out in (`placed`, game `at` of the night) as the room
    has it: in a shared night, merged with another phone's change made meanwhile (a player
    renamed), and not always the game on screen (another phone went on to the next game);
    `placed` where the player is not in it (removed there)."""
    game = night.games[at] if at < len(night.games) else placed
    return game if any(player.id == player_id for player in game.players) else placed


def add_if_taken(photographer_id: int | None, data: bytes, name: str) -> TableNote:
    """`add_table_photo`, once someone said who takes the photo; else a note that says so."""
    if photographer_id is None:
        return TableNote("warning", lambda: _(NO_PHOTOGRAPHER).format(name=name))
    return add_table_photo(data, name, photographer_id)


NO_PHOTOGRAPHER = N_(
    "{name} was not read: nobody said who took it. Say who is taking the photo under Photo of: "
    "The whole table, and upload it again."
)


def take_left_behind(act: Act) -> None:
    """Photos of the whole table given just before the player switched to one player's piles
    (`photo_input.left_behind`): read as photos of the whole table, as they were given, and
    their notes shown here (the notes of this panel's own photos went with the switch)."""
    table = night_panel.table()
    given = photo_input.left_behind(PREFIX)
    uploads = photo_input.take_uploads(given, partial(add_if_taken, taker(table)), PREFIX)
    if uploads:
        show_notes(uploads, act)


def show_notes(uploads: list[tuple[str, TableNote]], act: Act) -> None:
    """The notes on the last photos of the whole table, and under them the taps they offer."""
    table = night_panel.table()
    with photo_input.notes_box(PREFIX):
        for name, note in uploads:
            shown = note.shown(table)
            if shown is not None:
                photo_input.show_note(*shown, name)
    for _name, note in uploads:
        offer_doubted_piles(table, note, act)


def read_back(data: bytes, name: str, key: str) -> TableNote:
    """A photo of the whole table whose cards are on it without their reads, read again: they
    get them back, and the photo shows again."""
    table = night_panel.table()
    record = photo_store.read_record(data, name, table.variants.decks, TABLE_RETAKE)
    if not isinstance(record, PhotoRecord):
        return TableNote(*record)
    photo_store.keep(st.session_state.photos, key, record)
    night_panel.act_on_latest(ts.restore_reads, key, record.reads)
    return TableNote("info", lambda: _(reader_access.READS_BACK).format(name=name), key)


def added_words(count: int) -> str:
    """What the page says of the players a photo of the whole table brought to a table of one."""
    return ngettext(
        "The player on the other side was added, named by where they sit: rename them below.",
        "The {count} players on the other sides were added, named by where they sit: rename "
        "them below.",
        count,
    ).format(count=count)


def with_points(table: ts.Table, player_ids: list[int]) -> list[str]:
    """Each player's name and total as the scoreboard, far below the photo, shows it now."""
    totals = {player.name: player.total for player in ts.score_table(table).players}
    named = [table.player(player_id).name for player_id in player_ids]
    return [
        _("{name} ({points})").format(
            name=name,
            points=ngettext("{count} point", "{count} points", totals[name]).format(
                count=totals[name]
            ),
        )
        for name in named
    ]


def placed_note(placed: Placed, table: ts.Table, photo: str) -> tuple[str, str]:
    """What the page says of a photo of the whole table given out, as the table is now: its
    cards and piles on the table, to whom (the players holding its piles, clockwise from the
    photographer: a pile given on since counts, with their totals), who of them came with it
    (`added_words`) and who has no piles at all (given all theirs away, say); what to check
    follows it (`TableNote.shown`)."""
    piles = ts.photo_piles(table, photo)
    holders = {player.id for player, _index, _pile in piles}
    seated = [player_id for player_id in photo_seat_order(table, photo) if player_id in holders]
    doubts = [
        (other_id, words)
        for side, given_id, other_id in placed.doubted
        if (words := doubted_words(table, photo, side, given_id, other_id))
    ]
    # a player the piles across may be of is named there: "No piles for Cat" before "they may
    # be Cat's" told them to photograph theirs on their own (helper-58)
    doubted_of = {other_id for other_id, _words in doubts}
    missing = [
        player.id
        for player in table.players
        if player.id not in holders | doubted_of and not any(pile.slots for pile in player.piles)
    ]
    read = placed.read
    words = {
        "name": placed.name,
        **photo_input.cards_and_piles(table, photo),
        "players": and_list(with_points(table, seated), language.tr()),
    }
    kind, text = "success", _("{name}: {cards} in {piles}, given to {players}.").format(**words)
    if missing:
        names = and_list([table.player(player_id).name for player_id in missing], language.tr())
        if photo in table_photos(table, st.session_state.photos):  # its piles to give below
            template = _(
                "{name}: {cards} in {piles}, given to {players}. No piles for {missing}: give "
                "them theirs below if the photo has them, or photograph their piles on their own."
            )
        else:
            template = _(
                "{name}: {cards} in {piles}, given to {players}. No piles for {missing}: the "
                "photo shows one player's piles; photograph theirs on their own, or the whole "
                "table with every player's piles in front of them."
            )
        text = template.format(**words, missing=names)
        kind = "warning"
    for player_id in seated:
        held = table.player(player_id).piles_with_cards
        if held != ts.PILES_PER_PLAYER:  # allowed, and said: a split or joined pile looks so
            odd = ngettext(
                "{name} has {count} pile, where a player has two: check that none was split, "
                "joined or missed.",
                "{name} has {count} piles, where a player has two: check that none was split, "
                "joined or missed.",
                held,
            )
            kind, text = (
                "warning",
                f"{text} {odd.format(name=table.player(player_id).name, count=held)}",
            )
    for _other_id, doubt in doubts:
        kind, text = "warning", f"{text} {doubt}"
    # said while one of them still has their seat's name, in any language ("rename them below"
    # done, it goes)
    if any(player.id in placed.added and player.unnamed for player in table.players):
        text = f"{text} {added_words(len(placed.added))}"
    if placed.one_side and len(table.players) == 1:  # no player added: nobody else was found
        text = f"{text} {_(ONE_SIDE_FOUND)}"
    twice = photo_input.taken_twice_words(table, photo, photos_on_top(table))
    if twice is not None:
        kind, text = "warning", f"{text} {twice}"
    return read.note(kind, text)


def doubted_words(
    table: ts.Table, photo: str, side: str, given_id: int, other_id: int
) -> str | None:
    """What the page says of a side whose player the photo can't tell (`Seat.or_else`: piles
    across alone at a table of three): to whom they went and who else they may be of; None
    once the player given them holds none of that side's cards (given on, or the photo shared
    out again from another seat: helper-59), or either player left the table."""
    record = st.session_state.photos.get(photo)
    on_table = {player.id for player in table.players}
    if record is None or not {given_id, other_id} <= on_table:
        return None
    held = ts.photo_marks(table.player(given_id), photo)
    if not any(slot.read and record.side_of(slot.read) == side for _, _, slot in held):
        return None
    line = _(
        "The piles across went to {name}, but they may be {other}'s (who sits where, only "
        "the players know): if so, give them to {other} in one tap, below."
    )
    return line.format(name=table.player(given_id).name, other=table.player(other_id).name)


def offer_doubted_piles(table: ts.Table, note: TableNote, act: Act) -> None:
    """Under the note that says piles across may be another player's: one tap gives them to
    that player (under 🔀 Give, a screen below, it took a tap a pile: helper-66)."""
    if note.placed is None or note.photo is None:
        return
    for side, given_id, other_id in note.placed.doubted:
        if doubted_words(table, note.photo, side, given_id, other_id) is None:
            continue
        name, other = table.player(given_id).name, table.player(other_id).name
        given = _("The piles across are {other}'s now, not {name}'s.").format(
            other=other, name=name
        )
        st.button(
            _("🔀 Give the piles across to {other}").format(other=other),
            key=f"doubted:{note.photo}:{given_id}:{other_id}",
            on_click=act,
            args=(ts.reseat_photos, [note.photo], {given_id: other_id}),
            kwargs={"after": undoable(given)},
        )


def too_many_sides(name: str, error: TooManySides) -> str:
    sides = ngettext("{count} side", "{count} sides", error.sides).format(count=error.sides)
    players = ngettext("{count} player", "{count} players", error.players).format(
        count=error.players
    )
    return _(
        "{name} shows piles on {sides} of the table, but the table has {players}. Add the "
        "missing players first (➕ Player, below, in the order they sit round the table) and "
        "upload it again, or photograph each player's piles on their own. Nothing was changed."
    ).format(name=name, sides=sides, players=players)


# ---------------------------------------------------------------------------------------------
# The photos of the whole table on the page, and giving a pile to another player


def table_photos(table: ts.Table, photos: Mapping[str, PhotoRecord]) -> list[str]:
    """The photos on the table that show more than one player's piles (by the reader's sides,
    or by whose piles their cards are in now), in the order they first appear."""
    owners: dict[str, set[int]] = {}
    for player in table.players:
        for key in ts.photos_of(player):
            owners.setdefault(key, set()).add(player.id)
    return [
        key
        for key, who in owners.items()
        if key in photos and (photos[key].whole_table or len(who) > 1)
    ]


def photos_on_top(table: ts.Table) -> list[str]:
    """The photos the page shows above every player's piles: those of the whole table, while
    their panel is open (`table_photos`); none on the panel of one player's piles."""
    if st.session_state.get(MODE) != WHOLE_TABLE:
        return []
    return table_photos(table, st.session_state.photos)


def on_give(act: Act, pile_id: int, chosen: int) -> None:
    table = night_panel.table()
    if chosen not in [player.id for player in table.players]:
        return  # not a choice the player made (a list of names out of date): nothing to do
    player_index, pile_index = table.locate(pile_id)
    given = _("{name}'s pile {number} is {other}'s now.").format(
        name=table.players[player_index].name,
        number=pile_index + 1,
        other=table.player(chosen).name,
    )
    act(ts.give_pile, pile_id, chosen, after=undoable(given))


def give_key(table: ts.Table, photo: str, pile_id: int) -> str:
    """The key of the buttons that give pile `pile_id` to another player under `photo`: a pile
    holding cards of two photos (a card moved into it) has them under each."""
    return f"{GIVE}{photo}:{pile_id}:{names_key(table)}"


def seat_order(table: ts.Table) -> list[int]:
    """The players round the table from its photographer (the table's order without one)."""
    on_table = [player.id for player in table.players]
    taker = photographer(table)
    return on_table if taker is None else list(clockwise_from(on_table, taker))


def photo_seat_order(table: ts.Table, photo: str) -> list[int]:
    """The players round the table from the seat a photo of the whole table was shared out
    from (who holds its near side), else from the photographer: a photographer chosen since
    shares nothing out again by itself, and the photo's note must not read as if it had
    (helper-66)."""
    record = st.session_state.photos.get(photo)
    holder = None if record is None else near_holder(table, photo, record)
    on_table = [player.id for player in table.players]
    return seat_order(table) if holder is None else list(clockwise_from(on_table, holder))


def give_piles(table: ts.Table, photo: str, act: Act, only: int | None = None) -> None:
    """Under a photo of the whole table, for each of its piles (`only` one player's), in seat
    order from the photographer: one tap gives it to another player."""
    names = {player.id: player.name for player in table.players}
    order = seat_order(table)
    piles = sorted(ts.photo_piles(table, photo), key=lambda held: order.index(held[0].id))
    for player, pile_index, pile in piles:
        if only is not None and player.id != only:
            continue
        key = give_key(table, photo, pile.id)
        words = _("{name}'s pile {number} ({cards}): give it to").format(
            name=player.name, number=pile_index + 1, cards=" ".join(chip(c) for c in pile.cards)
        )
        # buttons, not a row of choices: Tab went round the rows of choices, never out of them
        # (helper-63), and a choice, once tapped, had to be unmade for the next
        with st.container(key=key, gap="small"):
            st.markdown(words)
            with st.container(horizontal=True, gap="small"):
                for other in order:
                    if other == player.id:
                        continue
                    st.button(
                        # an arrow, as every move has: the names alone read as whose piles
                        f"→ {names.get(other, '?')}",
                        key=f"{key}:{other}",
                        wrap=True,
                        on_click=on_give,
                        args=(act, pile.id, other),
                        help=_("Give {name}'s pile {number} to {other}").format(
                            name=player.name, number=pile_index + 1, other=names.get(other, "?")
                        ),
                    )


def piles_look_given_out(table: ts.Table) -> bool:
    """Whether every player holds two piles with cards, as a game ends: nothing then asks for
    a pile to be given on."""
    return all(player.piles_with_cards == ts.PILES_PER_PLAYER for player in table.players)


def near_holder(table: ts.Table, photo: str, record: PhotoRecord) -> int | None:
    """Who holds the photo's near side, its photographer's own piles, as the table is now: the
    seat it was shared out from (None: no card of that side on the table)."""
    held = {
        player.id: sum(
            1 for _, _, slot in marks if slot.read and record.side_of(slot.read) == "near"
        )
        for player in table.players
        if (marks := ts.photo_marks(player, photo))
    }
    most = max(held, key=held.__getitem__, default=None)
    return most if most is not None and held[most] else None


SHARED_FROM = "shared-from"  # per photo of the whole table, the seats it was shared out from


def shared_from(photo: str) -> set[int]:
    """The seats (player ids) a photo of the whole table was shared out from in this session:
    its photographer's at the upload, and each one it was shared out from again."""
    seats: dict[str, set[int]] = st.session_state.setdefault(SHARED_FROM, {})
    return seats.setdefault(photo, set())


def lies_as_shared_out(table: ts.Table, photo: str, record: PhotoRecord, holder: int) -> bool:
    """Whether every card read from a photo of the whole table is with the player that a sharing
    out from `holder`'s seat gives its side: as shared out from there, though a reload forgot
    the seats it was shared out from (`shared_from`: the photographer chosen wrong, the page
    reloaded, the right one chosen then offered nothing)."""
    with_cards = {side for side, size in zip(record.sides, record.row_sizes, strict=False) if size}
    try:
        seating = seat_players(
            [(side, ()) for side in SIDES if side in with_cards],
            [player.id for player in table.players],
            holder,
        )
    except TooManySides:
        return False
    given = {seat.side: seat.player_id for seat in seating}
    return all(
        given.get(record.side_of(slot.read)) == player.id
        for player in table.players
        for _, _, slot in ts.photo_marks(player, photo)
        if slot.read
    )


def reseat(act: Act, photo: str, moves: dict[int, int], taker: int) -> None:
    act(ts.reseat_photos, [photo], moves)
    shared_from(photo).add(taker)


def reseat_seats(table: ts.Table, photo: str, record: PhotoRecord) -> tuple[int, int] | None:
    """(the seat it was shared out from, the photographer's) where `offer_reseat` offers to
    share a photo of the whole table out again; None where it offers nothing."""
    taker, holder = photographer(table), near_holder(table, photo, record)
    if taker is None or holder is None or taker == holder or not record.whole_table:
        return None
    if holder not in shared_from(photo) and not lies_as_shared_out(table, photo, record, holder):
        return None
    return holder, taker


def offer_reseat(table: ts.Table, photo: str, record: PhotoRecord, act: Act) -> None:
    """A photo of the whole table shared out from another seat than the photographer's chosen
    since: one tap shares its piles out again from theirs (the player n seats from one gives
    theirs to the player n seats from the other; Undo puts them back). Only while its near side
    is still where a sharing out put it (in this session, or every card as one puts it): piles
    given by hand since are the players' word."""
    seats = reseat_seats(table, photo, record)
    if seats is None:
        return
    holder, taker = seats
    ids = [player.id for player in table.players]
    moves = moves_for_new_photographer(ids, holder, taker)
    st.button(
        _("Taken from {name}'s seat? Share its piles out again from there").format(
            name=table.player(taker).name
        ),
        key=f"reseat:{photo}:{taker}",
        on_click=reseat,
        args=(act, photo, moves, taker),
        help=_("Its piles are shared out from {name}'s seat now").format(
            name=table.player(holder).name
        ),
    )


def show_table_photo(table: ts.Table, photo: str, record: PhotoRecord, act: Act) -> None:
    """The photo with every player's cards and name, and the piles to give."""
    players = tuple(
        (player.name, marks) for player in table.players if (marks := ts.photo_marks(player, photo))
    )
    photo_view.show_table_photo(photo, record, players, act)
    if len(table.players) > 1:
        # closed while every player holds two piles: a row a pile, at four players, pushed
        # the scoreboard two screens down (helper-57); open where a pile may be someone else's
        key = f"giving:{photo}"
        st.session_state.setdefault(key, not piles_look_given_out(table))
        count = len(ts.photo_piles(table, photo))
        label = ngettext(
            "🔀 Give the photo's pile to another player",
            "🔀 Give one of the photo's {count} piles to another player",
            count,
        ).format(count=count)
        with panels.panel(label, key=key):
            give_piles(table, photo, act)


def show_panel(act: Act, under_notes: Callable[[ts.Table], None] | None = None) -> None:
    """Photographing the whole table: who takes it (and where a photo was shared out from
    another seat, the offer to share it out again from theirs), the upload, its notes and what
    the page puts under them (`under_notes`: the cards to check; below the photo they lay a
    screen and more under the note that asks for them: helper-64), then each photo of the
    whole table with its piles to give."""
    table = night_panel.table()
    chosen = choose_photographer(table)
    if len(table.players) == 1:
        st.info(
            _(
                "Photograph the whole table from your seat: the players of the other sides "
                "are added, named by where they sit. Or add them first (➕ Player, below), in "
                "the order they sit round the table."
            ),
            icon="👥",
        )
    elif chosen is None:
        st.caption(_("Say who you are: the others follow clockwise from your seat."))
    else:
        st.caption(clockwise_words(table, chosen))
        # right under the choice that asks for it: below the photo, a screen down, the choice
        # alone looked as if it had shared the piles out again (helper-66)
        for photo in table_photos(table, st.session_state.photos):
            offer_reseat(table, photo, st.session_state.photos[photo], act)
    files = photo_input.photo_inputs(
        _(TABLE_HELP), _("Photo of the whole table"), PREFIX, disabled=chosen is None
    )
    uploads = photo_input.take_uploads(files, partial(add_if_taken, chosen), PREFIX)
    show_notes(uploads, act)
    table = night_panel.table()  # with the photos just given
    reader_access.reader_note()
    if under_notes is not None:
        under_notes(table)
    photos: dict[str, PhotoRecord] = st.session_state.photos
    for photo in table_photos(table, photos):
        show_table_photo(table, photo, photos[photo], act)
