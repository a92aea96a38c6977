"""Black Cat score counter: the Streamlit app (`streamlit run app/streamlit_app.py`).

UI only. The table (players, piles, corrections, pins, variants), its scores and the exports are
`blackcat.table_state`; scoring is `blackcat.scoring`; reading photos is `blackcat.vision`.
State lives in `st.session_state.table`, a frozen `Table` that every action replaces (so undo is a
list of earlier tables). Actions run as widget callbacks, before the page is drawn, so the page
always shows the table after the change.

The photo reader, photo input and card corrections are `card_tools`, shared with the other game
on the same reader, Black Lady (`black_lady_page`), which the choice at the top of the page opens.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import black_lady_page
import card_tools
import pile_view
import streamlit as st
from card_tools import (
    PhotoError,
    PhotoOutcome,
    PhotoRecord,
    chip,
    get_reader,
    models_dir,
    photo_key,
    read_photo,
    read_upload,
    refuse,
    select,
    set_widget,
)

from blackcat import table_state as ts
from blackcat.scoring import PileScore, Variants
from blackcat.vision.drawing import PILE_COLOURS

log = logging.getLogger("blackcat.app")

APP_DIR = Path(__file__).resolve().parent
EXAMPLE_PHOTO = APP_DIR / "example.jpg"
HOW_WE_SCORE = APP_DIR / "how_we_score.md"
UNDO_DEPTH = 50
HOW_TO_PHOTOGRAPH = (
    "Lay each pile out in a row with every card's corner showing, photograph from straight "
    "above in good light"
)


def add_photo(data: bytes, name: str, player_id: int) -> tuple[str, str]:
    """Read a photo and give its rows to the player. Returns (kind, message) for the page;
    whatever happens, what is already on the table stays."""
    key = photo_key(data)
    table: ts.Table = st.session_state.table
    owner = ts.photo_owner(table, key)
    if owner is not None:
        return "info", f"{name} is already on the table ({owner}'s piles)."
    outcome = read_upload(data, name, table.variants.decks, HOW_TO_PHOTOGRAPH)
    if not isinstance(outcome, PhotoOutcome):
        return outcome
    commit(ts.place_photo(table, player_id, key, outcome.rows))
    st.session_state.photos[key] = PhotoRecord(name, outcome.display, outcome.factor)
    new_table: ts.Table = st.session_state.table
    owner_name = ts.photo_owner(new_table, key)
    owner_id = next(p.id for p in new_table.players if p.name == owner_name)
    st.session_state.player = owner_id
    cards = sum(len(row) for row in outcome.rows)
    rows = sum(1 for row in outcome.rows if row)
    pile_word = "pile" if rows == 1 else "piles"
    return "success", (
        f"{name}: {cards} cards in {rows} {pile_word}, given to {owner_name}. Check the "
        "numbers on the photo against the cards, and fix any card in orange."
    )


# ---------------------------------------------------------------------------------------------
# State and actions


def initial_table() -> tuple[ts.Table, dict[str, PhotoRecord], str]:
    """The example the app opens with: the example photo read, or its piles typed in."""
    reader, _ = get_reader()
    if reader is not None and EXAMPLE_PHOTO.is_file():
        data = EXAMPLE_PHOTO.read_bytes()
        key = photo_key(data)
        try:
            with st.spinner("Reading the example photo…"):
                outcome = read_photo(key, 1, str(models_dir()), data, EXAMPLE_PHOTO.name)
        except PhotoError:
            log.exception("the example photo could not be read")
        else:
            if any(outcome.rows):
                table = ts.new_table((ts.EXAMPLE_PLAYER,))
                table = ts.place_photo(table, table.players[0].id, key, outcome.rows)
                record = PhotoRecord("the example photo", outcome.display, outcome.factor)
                table = replace(table, example=True)
                return table, {key: record}, "read from the example photo"
    return ts.example_table(), {}, "typed in by hand"


def init_state() -> None:
    state = st.session_state
    if "table" not in state:
        state.table, state.photos, state.example_source = initial_table()
        state.history = []
        state.upload_notes = {}
        state.text_errors = {}


def commit(table: ts.Table) -> None:
    state = st.session_state
    if table is state.table:
        return
    state.history = [*state.history[-(UNDO_DEPTH - 1) :], state.table]
    state.table = table


def act(
    operation: Callable[..., ts.Table], *args: Any, after: Callable[[], None] | None = None
) -> None:
    """A widget callback: apply a table operation; a refusal becomes a toast, never an error
    page. `after` runs when it worked (e.g. to move a selection)."""
    try:
        table = operation(st.session_state.table, *args)
    except ts.TableError as error:
        refuse(error)
        return
    commit(table)
    if after is not None:
        after()


def undo() -> None:
    state = st.session_state
    if state.history:
        state.table = state.history[-1]
        state.history = state.history[:-1]


def on_text(pile_id: int, key: str) -> None:
    errors = st.session_state.text_errors
    try:
        cards = ts.parse_cards(st.session_state[key])
    except ts.TableError as error:
        errors[pile_id] = str(error)
        return
    errors.pop(pile_id, None)
    if cards != st.session_state.table.pile(pile_id).cards:
        act(ts.set_cards, pile_id, cards)


def on_rename(player_id: int, key: str) -> None:
    table: ts.Table = st.session_state.table
    try:
        commit(ts.rename_player(table, player_id, st.session_state[key]))
    except ts.TableError as error:
        refuse(error)
        st.session_state[key] = table.player(player_id).name


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
    commit(ts.set_variants(state.table, variants))


def on_photo_owner(photo: str, key: str) -> None:
    player_id = st.session_state[key]
    act(ts.reassign_photo, photo, player_id, after=select("player", player_id))


def new_game() -> None:
    act(ts.new_game)
    st.session_state.player = st.session_state.table.players[0].id


def add_player() -> None:
    act(ts.add_player)
    st.session_state.player = st.session_state.table.players[-1].id


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


def show_photo_inputs(player: ts.Player) -> None:
    heading = st.empty()  # filled last: a photo may hand the table to a new player
    card_tools.reader_note()
    how = (
        "Lay each pile out as a row, left to right as it was built, with every card's corner "
        "showing. One photo may hold one or two piles. On a phone, *Upload* can also take "
        "the photo."
    )
    if st.session_state.table.example or not any(pile.slots for pile in player.piles):
        st.caption(how)
    files = card_tools.photo_inputs(how, "Photo of the piles")
    card_tools.take_uploads(
        files,
        st.session_state.upload_notes,
        lambda data, name: add_photo(data, name, player.id),
    )
    table: ts.Table = st.session_state.table
    whose = "your" if table.example else f"{table.player(st.session_state.player).name}'s"
    heading.markdown(f"#### 📷 Add {whose} piles")


def show_photos(table: ts.Table, player: ts.Player) -> None:
    photos: dict[str, PhotoRecord] = st.session_state.photos
    for key in ts.photos_of(player):
        record = photos.get(key)
        if record is None:
            continue
        card_tools.show_photo(key, record, ts.photo_marks(player, key), act)
        if len(table.players) > 1:
            owner_key = f"owner:{key}"
            set_widget(owner_key, player.id)
            names = {p.id: p.name for p in table.players}
            st.selectbox(
                "This photo belongs to",
                [p.id for p in table.players],
                format_func=lambda player_id, names=names: names.get(player_id, "?"),
                key=owner_key,
                on_change=on_photo_owner,
                args=(key, owner_key),
            )


def show_pile(
    player: ts.Player,
    pile_index: int,
    pile: ts.Pile,
    score: PileScore,
    duplicated: set[tuple[int, int]],
) -> None:
    colour = PILE_COLOURS[pile_index % len(PILE_COLOURS)]
    st.markdown(
        pile_view.pile_head_html(pile_index, score.points, colour, len(pile.slots)),
        unsafe_allow_html=True,
    )
    doubtful = [position for position, slot in enumerate(pile.slots) if slot.doubtful]
    st.markdown(
        pile_view.strip_html(
            pile_index,
            score,
            doubtful=doubtful,
            duplicated={pos for index, pos in duplicated if index == pile_index},
        ),
        unsafe_allow_html=True,
    )
    for position in doubtful:
        card_tools.doubtful_prompt(act, pile, position, ts.card_number(pile_index, position))
    if pile.slots:
        st.markdown(pile_view.features_html(pile_index, score), unsafe_allow_html=True)
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
    error = st.session_state.text_errors.get(pile.id)
    if error:
        st.error(error)
    with st.expander(f"✏️ Fix, add or move cards of pile {pile_index + 1}"):
        show_editor(player, pile_index, pile)


def show_queens(pile: ts.Pile, pile_index: int, score: PileScore) -> None:
    summary = " · ".join(
        f"{queen.card.label}={queen.value}{'📌' if queen.pinned else ''}" for queen in score.queens
    )
    with st.expander(f"👑 Queens: {summary}", key=f"queens:{pile.id}"):
        for queen in score.queens:
            number = ts.card_number(pile_index, queen.position)
            if queen.pinned:
                why = f"pinned to {queen.value}"
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


def show_editor(player: ts.Player, pile_index: int, pile: ts.Pile) -> None:
    sel_key = f"sel:{pile.id}"
    selected = st.session_state.get(sel_key)
    if selected is not None and selected >= len(pile.slots):
        st.session_state[sel_key] = selected = None
    if pile.slots:
        st.pills(
            "Tap a card to change, move or delete it",
            list(range(len(pile.slots))),
            format_func=lambda p: f"{ts.card_number(pile_index, p)} {chip(pile.slots[p].card)}",
            key=sel_key,
        )
    if selected is not None:
        slot = pile.slots[selected]
        number = ts.card_number(pile_index, selected)
        card_tools.change_card(act, pile.id, selected, f"Card {number} is", slot.card)
        with st.container(horizontal=True, gap="small"):
            st.button(
                "◀ Left",
                key=f"left:{pile.id}",
                disabled=selected == 0,
                on_click=act,
                args=(ts.move_card, pile.id, selected, -1),
                kwargs={"after": select(sel_key, selected - 1)},
            )
            st.button(
                "Right ▶",
                key=f"right:{pile.id}",
                disabled=selected == len(pile.slots) - 1,
                on_click=act,
                args=(ts.move_card, pile.id, selected, 1),
                kwargs={"after": select(sel_key, selected + 1)},
            )
            st.button(
                "🗑 Delete",
                key=f"delete:{pile.id}",
                on_click=act,
                args=(ts.delete_card, pile.id, selected),
                kwargs={"after": select(sel_key, None)},
            )
            for other_index, other in enumerate(player.piles):
                if other_index == pile_index:
                    continue
                end = "start" if other_index > pile_index else "end"
                st.button(
                    f"To pile {other_index + 1} ({end})",
                    key=f"to:{pile.id}:{other.id}",
                    on_click=act,
                    args=(ts.move_card_to_pile, pile.id, selected, other.id),
                    kwargs={"after": select(sel_key, None)},
                )
            st.button(
                f"✂ New pile from {number}",
                key=f"split:{pile.id}",
                disabled=selected == 0,
                on_click=act,
                args=(ts.split_pile, pile.id, selected),
                kwargs={"after": select(sel_key, None)},
                help="The reader joined two piles: this card and the ones after it become a pile",
            )
    st.markdown("**Add a card**")
    card = card_tools.card_picker(pile.id)
    with st.container(horizontal=True, gap="small"):
        st.button(
            f"➕ Add {chip(card)} at the end" if card else "➕ Add at the end",
            key=f"add:{pile.id}",
            type="primary",
            disabled=card is None,
            on_click=card_tools.add_picked,
            args=(act, pile, None),
        )
        if selected is not None and card is not None:
            st.button(
                f"Insert {chip(card)} before {ts.card_number(pile_index, selected)}",
                key=f"insert:{pile.id}",
                on_click=card_tools.add_picked,
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
        downloads = (
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


def main() -> None:
    st.set_page_config(
        page_title="Black Cat score",
        page_icon="🐈‍⬛",
        layout="centered",
        initial_sidebar_state="collapsed",
    )
    st.markdown(pile_view.CSS, unsafe_allow_html=True)
    if black_lady_page.choose_game() == black_lady_page.BLACK_LADY:
        black_lady_page.main()
        return
    init_state()
    state = st.session_state
    st.markdown("## 🐈‍⬛ Black Cat score")

    top = st.container()
    inputs = st.container()
    table: ts.Table = state.table
    ids = [player.id for player in table.players]
    if state.get("player") not in ids:
        state.player = ids[0]
    with inputs:
        show_photo_inputs(table.player(state.player))
    table = state.table  # a new photo may have changed it
    result = ts.score_table(table)

    with top:
        if table.example:
            st.info(
                f"👋 **An example game**, its piles {state.example_source}. Photograph your "
                "own piles below, or type your cards, and see your score.",
            )
        show_scoreboard(table, result)
        with st.container(horizontal=True, gap="small"):
            st.button("↶ Undo", on_click=undo, disabled=not state.history)
            st.button(
                "New game",
                on_click=new_game,
                help="Empty piles for every player (Undo brings them back)",
            )
        player = show_players(table)

    player_index = table.players.index(player)
    player_score = result.players[player_index]
    show_photos(table, player)
    duplicated = result.duplicated_at(player.name)
    st.markdown(f"#### {player.name}: {player_score.total} points")
    for pile_index, pile in enumerate(player.piles):
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


main()
