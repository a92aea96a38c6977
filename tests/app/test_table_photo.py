"""A photo of the whole table, through `AppTest` with the stand-in reader (`fakes.FakeReader`,
whose photo of width `WHOLE_TABLE` shows piles on all four sides), and the panel's pure parts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import language
import live_table
import numpy as np
import pytest
import table_photo
from fakes import ACROSS_ONLY, DOUBTED_TABLE, WHOLE_TABLE, read_card
from photo_store import PhotoRecord
from reader_access import DisplayCopy
from streamlit.testing.v1 import AppTest
from test_streamlit_app import (  # noqa: F401  (fixtures: no weights, the stand-in reader)
    assert_clean,
    button,
    fresh_caches,
    png,
    reader,
    reload,
    restart,
    shared_link,
    start,
    uploader,
)

from blackcat.games.cards import parse_card as card
from blackcat.tables import black_cat_night as nt
from blackcat.tables import black_cat_table as ts

NAMES = ("Ann", "Ben", "Cat", "Dan")
# the players with their points, clockwise from Cat
FROM_CAT = "Cat (9 points), Dan (12 points), Ann (9 points) and Ben (11 points)"


@pytest.fixture
def app(request: pytest.FixtureRequest, tmp_path: Path) -> AppTest:
    """The app with the stand-in reader."""
    request.getfixturevalue("reader")
    return start(tmp_path)


def seated(at: AppTest, names: tuple[str, ...] = NAMES) -> AppTest:
    """The table of `names`, no cards yet, and the photo of the whole table chosen."""
    at.session_state["night"] = nt.Night((ts.new_table(names),))
    at.segmented_control(key=table_photo.MODE).set_value(table_photo.WHOLE_TABLE)
    at.run()
    assert_clean(at)
    return at


def player_id(at: AppTest, name: str) -> int:
    return next(p.id for p in at.session_state["night"].table.players if p.name == name)


def photographer_choice(at: AppTest):
    return next(c for c in at.segmented_control if str(c.key).startswith("photographer:"))


def choose_photographer(at: AppTest, name: str) -> AppTest:
    photographer_choice(at).set_value(player_id(at, name))
    at.run()
    assert_clean(at)
    return at


def table_uploader(at: AppTest):
    found = [u for u in at.file_uploader if str(u.key).startswith(table_photo.PREFIX)]
    assert len(found) == 1, [u.key for u in at.file_uploader]
    return found[0]


def upload_table(at: AppTest, width: int = WHOLE_TABLE, name: str = "table.png") -> AppTest:
    table_uploader(at).set_value((name, png(width, width), "image/png"))
    at.run()
    assert_clean(at)
    return at


def totals_by_name(at: AppTest) -> dict[str, int]:
    result = ts.score_table(at.session_state["night"].table)
    return {player.name: player.total for player in result.players}


def piles_by_name(at: AppTest) -> dict[str, list[str]]:
    table = at.session_state["night"].table
    return {p.name: [ts.pile_text(pile) for pile in p.piles if pile.slots] for p in table.players}


def notes(at: AppTest) -> str:
    return "\n".join(e.value for kind in (at.success, at.warning, at.info) for e in kind)


def change_table(at: AppTest, change, *args) -> ts.Table:
    """The game on screen changed by a table operation (`change(table, *args)`), as a run of
    the page sees it; the table it became."""
    night = at.session_state["night"]
    changed = change(night.table, *args)
    at.session_state["night"] = replace(night, games=(changed,))
    at.run()
    assert_clean(at)
    return changed


def give(at: AppTest, giver: str, pile: int, receiver: str) -> None:
    """One tap gives the giver's pile (its place among their piles) to the receiver."""
    held = at.session_state["night"].table.player(player_id(at, giver)).piles[pile]
    at.button(key=f"{give_key(at, held.id)}:{player_id(at, receiver)}").click()
    at.run()
    assert_clean(at)


def give_key(at: AppTest, pile_id: int) -> str:
    """The key of the buttons that give the pile away under the table's only photo."""
    table = at.session_state["night"].table
    (photo,) = {slot.photo for p in table.players for pile in p.piles for slot in pile.slots}
    return table_photo.give_key(table, photo, pile_id)


def test_one_photo_fills_every_players_piles_from_the_photographer_clockwise(app: AppTest) -> None:
    seated(app)
    assert table_uploader(app).disabled  # who takes it comes first
    choose_photographer(app, "Cat")
    assert "Dan → Ann → Ben" in "\n".join(c.value for c in app.caption)
    upload_table(app)
    assert piles_by_name(app) == {
        "Cat": ["QS 2C 3H 7H"],  # the photographer's side
        "Dan": ["KS 9C 4S"],  # on their left
        "Ann": ["8D 2H 8H", "5H 5D"],  # across the table
        "Ben": ["10S 10H KD 10C"],  # on their right
    }
    assert totals_by_name(app) == {"Ann": 9, "Ben": 11, "Cat": 9, "Dan": 12}
    assert "16 cards in 5 piles, given to " + FROM_CAT in notes(app)
    # a player of one pile is allowed, and said: a pile split or joined looks so (issue 28)
    said = "\n".join(w.value for w in app.warning)
    assert "Cat has 1 pile, where a player has two: check that none was split" in said
    assert "Ann has 2 piles" not in said and "Ben has 1 pile" in said
    assert len(app.image) == 1  # the photo, each player's name by their piles
    board = next(m.value for m in app.markdown if 'class="bc-board"' in m.value)
    assert all(name in board for name in NAMES)


def test_a_players_card_to_check_is_one_tap_away_under_the_photo(app: AppTest) -> None:
    # the note counted Ann's orange card, and the page showed Cat's piles only (helper-63)
    seated(app)
    choose_photographer(app, "Cat")
    upload_table(app, DOUBTED_TABLE)
    assert app.session_state["player"] == player_id(app, "Cat")
    jumps = [b.label for b in app.button if b.label.startswith("↓")]
    assert jumps == ["↓ Ann: 1 card in orange"]
    button(app, "↓ Ann: 1 card in orange").click()
    app.run()
    assert_clean(app)
    assert app.session_state["player"] == player_id(app, "Ann")
    first = app.session_state["night"].table.player(player_id(app, "Ann")).piles[0].id
    assert any(f".st-key-pile-{first}" in h.proto.body for h in app.get("html"))
    button(app, "✓ :red[2♥] is right").click()
    app.run()
    assert button(app, "✓ No card to check").disabled  # in its place: nothing moves up


def test_the_photos_note_is_brought_into_view_once_its_piles_are_given_out(
    app: AppTest,
) -> None:
    seated(app)
    choose_photographer(app, "Cat")
    upload_table(app)
    scrolled = ".st-key-table-upload-notes"  # the page stayed at the top, the note a screen down
    assert any(scrolled in h.proto.body for h in app.get("html"))
    app.run()
    assert not any(scrolled in h.proto.body for h in app.get("html"))  # once, not at each tap


def test_one_tap_gives_a_pile_to_another_player(app: AppTest) -> None:
    seated(app)
    choose_photographer(app, "Cat")
    upload_table(app)
    ann = app.session_state["night"].table.player(player_id(app, "Ann"))
    key = give_key(app, ann.piles[1].id)
    assert "Ann's pile 2 (:red[5♥] :red[5♦]): give it to" in [m.value for m in app.markdown]
    gives = [b for b in app.button if b.key.startswith(f"{key}:")]
    assert [b.label for b in gives] == ["→ Cat", "→ Dan", "→ Ben"]  # round from Cat, its taker
    gives[-1].click()
    app.run()
    assert_clean(app)
    assert piles_by_name(app)["Ann"] == ["8D 2H 8H"]
    assert piles_by_name(app)["Ben"] == ["10S 10H KD 10C", "5H 5D"]
    assert [t.value for t in app.toast] == ["Ann's pile 2 is Ben's now. ↶ Undo takes it back."]
    assert totals_by_name(app) == {"Ann": 6, "Ben": 14, "Cat": 9, "Dan": 12}


def test_the_piles_to_give_follow_the_seats_and_fold_away_once_each_player_has_two(
    app: AppTest,
) -> None:
    seated(app)
    choose_photographer(app, "Cat")
    upload_table(app)
    photo = next(iter(app.session_state["photos"]))
    labels = [m.value.split("'s pile")[0] for m in app.markdown if "give it to" in m.value]
    assert labels == ["Cat", "Dan", "Ann", "Ann", "Ben"]  # round the table from Cat
    # Ann holds both piles across, the others one each: the piles to give are open
    assert app.expander(key=f"giving:{photo}").proto.expanded


def test_piles_look_given_out_once_each_player_holds_two_with_cards() -> None:
    two_each = ts.new_table(("Ann", "Ben"), piles=[[(card("QS"),), (card("2C"),)]] * 2)
    assert table_photo.piles_look_given_out(two_each)
    one_short = ts.new_table(("Ann", "Ben"), piles=[[(card("QS"),), ()], [(card("2C"),)] * 2])
    assert not table_photo.piles_look_given_out(one_short)


def test_a_pile_holding_cards_of_two_photos_can_be_given_under_each(app: AppTest) -> None:
    seated(app)
    choose_photographer(app, "Cat")
    upload_table(app)
    table_uploader(app).set_value(("again.png", png(WHOLE_TABLE, WHOLE_TABLE + 2), "image/png"))
    app.run()  # another photo of the table: each player gets its piles again
    cat = app.session_state["night"].table.player(player_id(app, "Cat"))
    assert [len(pile.slots) for pile in cat.piles] == [4, 4]
    # the pile's buttons under both photos, each with a key of its own (`change_table`'s check)
    moved = change_table(app, ts.move_card_to_pile, cat.piles[1].id, 0, cat.piles[0].id)
    pile = moved.player(player_id(app, "Cat")).piles[0]
    photos = sorted({slot.photo for slot in pile.slots})
    assert len(photos) == 2
    for photo in photos:
        key = table_photo.give_key(moved, photo, pile.id)
        assert [b.label for b in app.button if b.key.startswith(f"{key}:")] == [
            "→ Dan",
            "→ Ann",
            "→ Ben",
        ]


def test_the_photos_note_names_the_players_as_they_are_now(app: AppTest) -> None:
    seated(app)
    choose_photographer(app, "Cat")
    upload_table(app)
    assert f"given to {FROM_CAT}." in notes(app)
    renamed = change_table(app, ts.rename_player, player_id(app, "Dan"), "Dave")
    assert (
        "given to Cat (9 points), Dave (12 points), Ann (9 points) and Ben (11 points)."
        in notes(app)
    )
    ann = renamed.player(player_id(app, "Ann"))
    for pile in ann.piles:  # Ann's piles go to Ben: Ann has none, as the table is now
        app.button(key=f"{give_key(app, pile.id)}:{player_id(app, 'Ben')}").click()
        app.run()
        assert_clean(app)
    assert (
        "to Cat (9 points), Dave (12 points) and Ben (20 points). No piles for Ann: give"
        in notes(app)
    )
    app.segmented_control(key=language.KEY).set_value("es")
    app.run()
    assert_clean(app)
    assert "Cat (9 puntos), Dave (12 puntos) y Ben (20 puntos). No hay pilas para Ann" in notes(app)
    give(app, "Dave", 0, "Ann")
    assert "Cat (9 puntos), Ann (12 puntos) y Ben (20 puntos). No hay pilas para Dave" in notes(app)


def test_a_reload_keeps_who_took_the_photo_and_the_piles_given(app: AppTest) -> None:
    seated(app)
    choose_photographer(app, "Cat")
    upload_table(app)
    give(app, "Ann", 1, "Ben")
    again = reload(app)
    assert totals_by_name(again) == {"Ann": 6, "Ben": 14, "Cat": 9, "Dan": 12}
    assert again.segmented_control(key=table_photo.MODE).value == table_photo.WHOLE_TABLE
    assert photographer_choice(again).value == player_id(again, "Cat")
    assert len(again.image) == 1  # the photo of the whole table, from the server's store
    # both set by the page, not tapped: what a browser that missed the run that set them shows
    again.run()
    assert_clean(again)
    for choice in (photographer_choice(again), again.segmented_control(key=table_photo.MODE)):
        assert list(choice.proto.default) == list(choice.indices)


def test_a_tables_photo_lost_in_a_restart_and_uploaded_again_gives_each_card_once(
    app: AppTest,
) -> None:
    seated(app)
    choose_photographer(app, "Cat")
    upload_table(app)
    before = piles_by_name(app)
    restart()
    again = reload(app)
    assert len(again.image) == 0  # the photo gone, its cards kept
    upload_table(again)
    assert piles_by_name(again) == before  # each card once, not twice
    assert len(again.image) == 1
    assert "table.png is back" in notes(again)


def test_the_photographer_renamed_still_takes_the_next_games_photo(app: AppTest) -> None:
    seated(app)
    choose_photographer(app, "Cat")
    upload_table(app)
    assert app.session_state["player"] == player_id(app, "Cat")  # the photographer's page
    next(t for t in app.text_input if str(t.key).startswith("name:")).set_value("Kat").run()
    assert_clean(app)
    next(b for b in app.button if b.label == "➕ Next game").click().run()
    assert_clean(app)
    # found again by the new name in game 2 (the old name named nobody: "say who you are")
    assert photographer_choice(app).value == player_id(app, "Kat")
    # the rename undone in game 2: still the photographer, by the name given back
    next(t for t in app.text_input if str(t.key).startswith("name:")).set_value("Kit").run()
    next(b for b in app.button if b.label == "↶ Undo").click().run()
    assert_clean(app)
    next(b for b in app.button if b.label == "↶ Undo").click().run()  # game 2 goes
    next(b for b in app.button if b.label == "↶ Undo").click().run()  # "Kat" is Cat again
    assert_clean(app)
    next(b for b in app.button if b.label == "➕ Next game").click().run()
    assert photographer_choice(app).value == player_id(app, "Cat")


def test_the_photographer_renamed_on_another_phone_as_the_photo_went_in_keeps_that_name(
    app: AppTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a shared night, another phone renamed the photographer just as the photo's piles
    were given out (beaten to the room): the page remembers the name the room's game has (it
    remembered the old one, which names nobody in another game of the night)."""
    seated(app)
    choose_photographer(app, "Cat")
    shared_link(app)
    room, cat = app.query_params[live_table.LIVE_PARAM], player_id(app, "Cat")
    place = ts.place_table_photo

    def renamed_meanwhile(*args: object, **kwargs: object) -> ts.Table:
        latest = live_table.rooms().latest(room, "night")
        assert latest is not None
        renamed = nt.rename_player(latest.game, cat, "Cath")  # another phone's, posted first
        assert live_table.rooms().post(room, "night", renamed, latest.version) is not None
        return place(*args, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(ts, "place_table_photo", renamed_meanwhile)
        upload_table(app)
    assert "Cath (9 points)" in notes(app)  # the photo's piles given beside the rename
    assert app.session_state[table_photo.PHOTOGRAPHER] == cat
    assert app.session_state[table_photo.PHOTOGRAPHER_NAME] == "Cath"


def test_the_photographer_renamed_on_another_phone_still_takes_the_next_games_photo(
    app: AppTest,
) -> None:
    """Another phone renamed the photographer, then started the next game: this page took the
    rename in at its run and finds the photographer in game 2 by the new name (it remembered
    the old one, which named nobody there: "say who you are" again)."""
    seated(app)
    choose_photographer(app, "Cat")
    upload_table(app)
    shared_link(app)
    room, cat = app.query_params[live_table.LIVE_PARAM], player_id(app, "Cat")

    def another_phone(change: Callable[[nt.Night], nt.Night]) -> None:
        latest = live_table.rooms().latest(room, "night")
        assert latest is not None
        assert live_table.rooms().post(room, "night", change(latest.game), latest.version)

    another_phone(lambda night: nt.rename_player(night, cat, "Kat"))
    app.run()
    assert_clean(app)
    another_phone(nt.next_game)
    app.run()
    assert_clean(app)
    assert app.session_state["night"].current == 1
    assert photographer_choice(app).value == player_id(app, "Kat")


def test_a_reload_keeps_the_choice_of_photo_made_after_a_photo_of_the_table(app: AppTest) -> None:
    seated(app)
    choose_photographer(app, "Cat")
    upload_table(app)
    assert reload(app).segmented_control(key=table_photo.MODE).value == table_photo.WHOLE_TABLE
    app.segmented_control(key=table_photo.MODE).set_value(table_photo.ONE_PLAYER)
    app.run()
    assert app.query_params["photo"] == table_photo.ONE_PLAYER
    again = reload(app)
    assert again.segmented_control(key=table_photo.MODE).value == table_photo.ONE_PLAYER
    assert again.session_state[table_photo.PHOTOGRAPHER] == player_id(again, "Cat")


def test_more_sides_than_players_says_what_to_do_and_changes_nothing(app: AppTest) -> None:
    seated(app, NAMES[:3])
    choose_photographer(app, "Ann")
    before = app.session_state["night"]
    upload_table(app)
    text = "\n".join(w.value for w in app.warning)
    assert "shows piles on 4 sides of the table, but the table has 3 players" in text
    assert "Add the missing players first" in text
    assert app.session_state["night"] is before


def test_the_notes_on_the_last_photos_follow_a_switch_of_language(app: AppTest) -> None:
    seated(app, NAMES[:3])
    choose_photographer(app, "Ann")
    upload_table(app)
    app.segmented_control(key=language.KEY).set_value("es")
    app.run()
    assert_clean(app)
    text = "\n".join(w.value for w in app.warning)
    assert "table.png muestra pilas en 4 lados de la mesa, pero en la mesa hay 3 jugadores" in text


def test_switching_the_choice_of_photo_clears_the_notes_on_the_last_photos(app: AppTest) -> None:
    seated(app, NAMES[:3])
    choose_photographer(app, "Ann")
    upload_table(app)
    assert "shows piles on 4 sides of the table" in "\n".join(w.value for w in app.warning)
    for mode in (table_photo.ONE_PLAYER, table_photo.WHOLE_TABLE):
        app.segmented_control(key=table_photo.MODE).set_value(mode)
        app.run()
        assert_clean(app)
    assert "shows piles on 4 sides" not in "\n".join(w.value for w in app.warning)


def test_a_players_photo_given_just_before_switching_to_the_whole_table_is_read_as_given(
    app: AppTest,
) -> None:
    # the upload's run cut short by the switch (or never begun): its uploader is gone from the
    # page, and the photo went with it, unread, with nothing said
    seated(app, ("Ann", "Ben"))
    app.segmented_control(key=table_photo.MODE).set_value(table_photo.ONE_PLAYER).run()
    uploader(app).set_value(("piles.png", png(200), "image/png"))
    app.segmented_control(key=table_photo.MODE).set_value(table_photo.WHOLE_TABLE)
    app.run()
    assert_clean(app)
    assert piles_by_name(app) == {"Ann": ["8D 2H 8H", "KS 9C 4S"], "Ben": []}
    assert "piles.png: 6 cards in 2 piles, given to Ann." in notes(app)
    assert app.segmented_control(key=table_photo.MODE).value == table_photo.WHOLE_TABLE
    table_uploader(app)  # the panel chosen shows, its uploader ready
    app.run()
    assert piles_by_name(app)["Ann"] == ["8D 2H 8H", "KS 9C 4S"]  # read once


def table_photo_given_then_switched(app: AppTest) -> None:
    """Cat's photo of the whole table given, and one player's piles chosen before the next run."""
    seated(app)
    choose_photographer(app, "Cat")
    table_uploader(app).set_value(("table.png", png(WHOLE_TABLE), "image/png"))
    app.segmented_control(key=table_photo.MODE).set_value(table_photo.ONE_PLAYER)


def test_a_photo_of_the_table_given_just_before_switching_to_one_player_is_read_as_given(
    app: AppTest,
) -> None:
    table_photo_given_then_switched(app)
    app.run()
    assert_clean(app)
    assert piles_by_name(app)["Cat"] == ["QS 2C 3H 7H"]  # shared out from the photographer
    assert piles_by_name(app)["Ann"] == ["8D 2H 8H", "5H 5D"]
    assert "16 cards in 5 piles, given to " + FROM_CAT in notes(app)
    assert app.segmented_control(key=table_photo.MODE).value == table_photo.ONE_PLAYER
    uploader(app)


def test_a_photo_of_the_table_left_without_a_photographer_says_it_was_not_read(
    app: AppTest,
) -> None:
    table_photo_given_then_switched(app)
    app.session_state[table_photo.PHOTOGRAPHER] = None  # nobody said who takes it, after all
    app.session_state[table_photo.PHOTOGRAPHER_NAME] = None
    app.run()
    assert_clean(app)
    assert piles_by_name(app) == {name: [] for name in NAMES}
    said = "\n".join(w.value for w in app.warning)
    assert "table.png was not read: nobody said who took it." in said


def test_a_table_of_one_gets_a_player_for_each_other_side_named_by_it(app: AppTest) -> None:
    seated(app, ("Cat",))
    assert "the players of the other sides are added" in "\n".join(i.value for i in app.info)
    upload_table(app)  # the only player takes it: nobody to choose
    assert piles_by_name(app) == {
        "Cat": ["QS 2C 3H 7H"],
        "Left": ["KS 9C 4S"],
        "Across": ["8D 2H 8H", "5H 5D"],
        "Right": ["10S 10H KD 10C"],
    }
    text = notes(app)
    assert (
        "given to Cat (9 points), Left (12 points), Across (9 points) and Right (11 points)" in text
    )
    assert "The 3 players on the other sides were added, named by where they sit" in text
    assert photographer_choice(app).value == player_id(app, "Cat")
    # renamed, they no longer need to be: the note stops asking (it stayed, helper-49)
    for seat, name in (("Left", "Lu"), ("Across", "Al")):
        change_table(app, ts.rename_player, player_id(app, seat), name)
        assert "named by where they sit" in notes(app)  # Right still is
    change_table(app, ts.rename_player, player_id(app, "Right"), "Ro")
    assert "named by where they sit" not in notes(app)
    assert "given to Cat (9 points), Lu (12 points), Al (9 points) and Ro (11 points)" in notes(app)


def test_the_example_makes_way_for_a_table_photos_players(app: AppTest) -> None:
    app.segmented_control(key=table_photo.MODE).set_value(table_photo.WHOLE_TABLE)
    app.run()
    assert_clean(app)
    upload_table(app)
    assert list(piles_by_name(app)) == ["Player 1", "Left", "Across", "Right"]
    assert totals_by_name(app) == {"Across": 9, "Left": 12, "Player 1": 9, "Right": 11}
    assert not app.session_state["night"].table.example


def test_a_photo_with_piles_on_one_side_only_says_so_at_a_table_of_one(app: AppTest) -> None:
    app.segmented_control(key=table_photo.MODE).set_value(table_photo.WHOLE_TABLE)
    app.run()
    upload_table(app, width=200)  # one player's piles, or a whole table read on one side only
    assert list(piles_by_name(app)) == ["Player 1"]  # nobody added
    assert "found on one side of the table only" in notes(app)
    upload_table(app, name="table.png")  # every side: the players come with it, and no such word
    assert "found on one side of the table only" not in notes(app)


def test_fewer_sides_than_players_names_who_got_nothing(app: AppTest) -> None:
    seated(app)
    choose_photographer(app, "Ben")
    upload_table(app, width=200)  # one player's piles: every pile on the photographer's side
    assert piles_by_name(app)["Ben"] == ["8D 2H 8H", "KS 9C 4S"]
    text = "\n".join(w.value for w in app.warning)
    assert "given to Ben (18 points). No piles for Ann, Cat and Dan: the photo shows one" in text


def test_piles_across_at_a_table_of_three_say_whose_else_they_may_be(app: AppTest) -> None:
    # Ben photographs, Cat sits next clockwise, then Ann: Cat left and Ann across, or Cat
    # across and Ann right; the photo can't tell (helper-57: the note named the wrong player)
    seated(app, ("Ann", "Ben", "Cat"))
    choose_photographer(app, "Ben")
    upload_table(app, width=ACROSS_ONLY)
    assert piles_by_name(app) == {"Ann": ["8D 2H 8H"], "Ben": ["QS 2C 3H 7H"], "Cat": []}
    said = "The piles across went to Ann, but they may be Cat's (who sits where, only the players"
    assert said in "\n".join(w.value for w in app.warning)
    assert "No piles for Cat" not in "\n".join(w.value for w in app.warning)  # said as above
    give(app, "Ann", 0, "Cat")
    assert piles_by_name(app)["Cat"] == ["8D 2H 8H"]
    assert said not in "\n".join(w.value for w in app.warning)
    assert not [b for b in app.button if b.label.startswith("🔀 Give the piles across")]
    button(app, "↶ Undo").click()
    app.run()
    assert said in "\n".join(w.value for w in app.warning)
    button(app, "🔀 Give the piles across to Cat").click()  # one tap, right under the note
    app.run()
    assert_clean(app)
    assert piles_by_name(app) == {"Ann": [], "Ben": ["QS 2C 3H 7H"], "Cat": ["8D 2H 8H"]}
    assert [t.value for t in app.toast] == [
        "The piles across are Cat's now, not Ann's. ↶ Undo takes it back."
    ]
    button(app, "↶ Undo").click()
    app.run()
    # shared out again from Ann's seat, Ann holds the near piles: the piles across are not hers
    choose_photographer(app, "Ann")
    button(app, "Taken from Ann's seat? Share its piles out again from there").click()
    app.run()
    assert piles_by_name(app)["Ann"] == ["QS 2C 3H 7H"]
    assert "The piles across went to" not in "\n".join(w.value for w in app.warning)


def test_another_photographer_shares_the_photo_out_again_from_their_seat(app: AppTest) -> None:
    seated(app)
    choose_photographer(app, "Ann")
    upload_table(app)
    from_ann = piles_by_name(app)
    assert from_ann["Ann"] == ["QS 2C 3H 7H"]  # the near side's
    assert not [b for b in app.button if "seat?" in b.label]  # shared out from Ann's: as said
    said_from_ann = notes(app)
    assert "given to Ann (9 points), Ben (12 points), Cat (9 points) and Dan (11 points)" in (
        said_from_ann
    )
    choose_photographer(app, "Cat")  # it was Cat who took it
    assert piles_by_name(app) == from_ann  # the choice alone moves nothing (the next photo's)
    assert notes(app) == said_from_ann  # nor reads as if it had (helper-66)
    offer = "Taken from Cat's seat? Share its piles out again from there"
    # right under the choice, above what the note asks to check (it lay below the photo, a
    # screen down)
    labels = [b.label for b in app.button]
    assert labels.index(offer) < labels.index("✓ No card to check")
    button(app, "Taken from Cat's seat? Share its piles out again from there").click()
    app.run()
    assert_clean(app)
    assert piles_by_name(app) == {  # every side two seats on
        "Cat": from_ann["Ann"],
        "Dan": from_ann["Ben"],
        "Ann": from_ann["Cat"],
        "Ben": from_ann["Dan"],
    }
    assert f"given to {FROM_CAT}" in notes(app)
    assert not [b for b in app.button if "seat?" in b.label]
    photographer_choice(app).set_value(None)  # a tap on the one chosen: still Cat
    app.run()
    assert_clean(app)
    assert photographer_choice(app).value == player_id(app, "Cat")
    button(app, "↶ Undo").click()  # the piles as shared out from Ann's seat, and the offer again
    app.run()
    assert_clean(app)
    assert piles_by_name(app) == from_ann
    assert [b for b in app.button if "seat?" in b.label]


def test_the_right_photographer_chosen_after_a_reload_still_shares_the_photo_out_again(
    app: AppTest,
) -> None:
    """The seats a photo was shared out from are the session's: after a reload, the right
    photographer chosen offered nothing (helper-93), though its piles lay as shared out."""
    seated(app)
    choose_photographer(app, "Ann")  # wrong: Cat took it
    upload_table(app)
    from_ann = piles_by_name(app)
    again = choose_photographer(reload(app), "Cat")
    button(again, "Taken from Cat's seat? Share its piles out again from there").click()
    again.run()
    assert_clean(again)
    assert piles_by_name(again) == {  # every side two seats on
        "Cat": from_ann["Ann"],
        "Dan": from_ann["Ben"],
        "Ann": from_ann["Cat"],
        "Ben": from_ann["Dan"],
    }
    give(again, "Dan", 0, "Ben")  # a pile given by hand: the players' word, shared out no more
    after_all = choose_photographer(reload(again), "Ann")
    assert not [b for b in after_all.button if "seat?" in b.label]


def test_at_a_table_of_two_the_other_piles_are_the_other_players(app: AppTest) -> None:
    seated(app, ("Ann", "Ben"))
    choose_photographer(app, "Ben")
    assert [c.value for c in app.caption if c.value.startswith("Your piles")] == [
        "Your piles are the ones on your side of the photo; the others are Ann's."
    ]  # not "the others follow clockwise round the table: Ann."


def test_the_photo_uploaded_again_for_the_right_photographer_says_which_tap_shares_it_out(
    app: AppTest,
) -> None:
    """It said "table.png is already on the table." and no more (helper-93)."""
    seated(app)
    choose_photographer(app, "Ann")
    upload_table(app)
    choose_photographer(app, "Cat")
    upload_table(app)  # the same photo, for Cat
    said = (
        "table.png is already on the table, its piles shared out from Ann's seat: to share "
        "them out from Cat's, tap *Taken from Cat's seat?* above."
    )
    assert said in notes(app)
    button(app, "Taken from Cat's seat? Share its piles out again from there").click()
    app.run()
    assert_clean(app)
    assert "table.png is already on the table." in notes(app)  # shared out from Cat's now
    assert said not in notes(app)


def test_a_bad_upload_loses_nothing(app: AppTest) -> None:
    seated(app)
    choose_photographer(app, "Cat")
    upload_table(app)
    before = app.session_state["night"]
    table_uploader(app).set_value(("notes.jpg", b"not a photo", "image/jpeg"))
    app.run()
    assert_clean(app)
    assert any("notes.jpg is not an image we can read" in e.value for e in app.error)
    assert app.session_state["night"] is before
    upload_table(app, name="again.png")  # the same photo again
    assert "again.png is already on the table" in notes(app)
    assert app.session_state["night"] is before


def test_piles_given_by_hand_are_not_shared_out_again(app: AppTest) -> None:
    seated(app)
    choose_photographer(app, "Ann")
    upload_table(app)
    give(app, "Ann", 0, "Dan")
    assert piles_by_name(app)["Dan"][-1] == "QS 2C 3H 7H"  # the near side's, Dan's by hand
    assert not [b for b in app.button if "seat?" in b.label]  # not taken for a change of seat
    choose_photographer(app, "Cat")
    assert not [b for b in app.button if "seat?" in b.label]  # the players' word stands


def test_the_photos_note_counts_its_cards_as_the_table_is_now(app: AppTest) -> None:
    seated(app)
    choose_photographer(app, "Cat")
    upload_table(app)
    change_table(app, ts.remove_player, player_id(app, "Ann"))  # her two piles go too
    assert "11 cards in 3 piles, given to Cat (9 points), Dan (12 points) and Ben" in notes(app)


def test_the_same_piles_photographed_twice_say_to_take_one_photos_cards_off(
    app: AppTest,
) -> None:
    """The whole table photographed again after a photo that showed the piles across and near
    alone (its note asked for one of the whole table): every card of the first twice, and the
    page said they were "probably misread", to fix or to count with two decks (helper-93)."""
    seated(app)
    choose_photographer(app, "Cat")
    upload_table(app, width=ACROSS_ONLY, name="across.png")
    assert "on the table already" not in notes(app)
    upload_table(app)
    assert (
        "7 of its cards are on the table already, read from across.png: the same piles "
        "photographed twice? Take one photo's cards off (the button under each photo)."
    ) in notes(app)
    (take_off,) = [b for b in app.button if b.key == f"remove-photo:{photo_of(app, 'across.png')}"]
    take_off.click()
    app.run()
    assert_clean(app)
    assert totals_by_name(app) == {"Ann": 9, "Ben": 11, "Cat": 9, "Dan": 12}  # each card once
    assert "on the table already" not in notes(app)


def test_the_whole_table_after_a_players_photo_is_not_called_misread(app: AppTest) -> None:
    """Ann's piles photographed alone, then the whole table: her six cards twice, and the
    page's warning called them "probably misread", to fix or to count with *Two decks*; it
    names the two photos, as their notes do, and says to take one's cards off."""
    seated(app)
    app.segmented_control(key=table_photo.MODE).set_value(table_photo.ONE_PLAYER).run()
    uploader(app).set_value(("ann_piles.png", png(200), "image/png"))
    app.run()
    app.segmented_control(key=table_photo.MODE).set_value(table_photo.WHOLE_TABLE).run()
    choose_photographer(app, "Cat")
    upload_table(app)
    assert [w.value for w in app.warning if w.icon == "⚠️"] == [
        "**The same piles are photographed twice, in ann\\_\u200bpiles.png and table.png:** the "
        "cards in both count twice. Take one photo's cards off (the button under each photo). "
        "To see ann\\_\u200bpiles.png and its button, choose Ann under *Whose piles*."
    ]  # Cat's piles are shown: Ann's photo is not on the screen
    # Ann's photo shows, with its button under it, among her piles
    app.segmented_control(key=table_photo.MODE).set_value(table_photo.ONE_PLAYER).run()
    app.segmented_control(key="player").set_value(player_id(app, "Ann")).run()
    (take_off,) = [
        b for b in app.button if b.key == f"remove-photo:{photo_of(app, 'ann_piles.png')}"
    ]
    take_off.click()
    app.run()
    assert_clean(app)
    assert not [w for w in app.warning if w.icon == "⚠️"]
    assert totals_by_name(app) == {"Ann": 9, "Ben": 11, "Cat": 9, "Dan": 12}


def photo_of(at: AppTest, name: str) -> str:
    return next(key for key, record in at.session_state["photos"].items() if record.name == name)


def test_a_photo_without_cards_says_how_to_photograph_the_whole_table(app: AppTest) -> None:
    seated(app)
    choose_photographer(app, "Cat")
    upload_table(app, width=150, name="blank.png")  # the stand-in reader finds no card in it
    assert (
        "No cards found in blank.png. Lay every player's piles in front of them, each pile a "
        "row with every card's corner showing, and photograph the whole table from your seat, "
        "from above, in good light and try again; or type the cards." in notes(app)
    )
    assert piles_by_name(app) == {name: [] for name in NAMES}


def test_a_photos_note_goes_with_its_cards(app: AppTest) -> None:
    """Undone, or its cards taken off, a photo has nothing left to say (as a photo of one
    player's piles)."""
    seated(app)
    choose_photographer(app, "Cat")
    upload_table(app)
    assert "16 cards in 5 piles, given to Cat" in notes(app)
    button(app, "↶ Undo").click()
    app.run()
    assert_clean(app)
    assert "given to" not in notes(app)
    assert piles_by_name(app) == {name: [] for name in NAMES}


def test_a_players_photo_note_follows_its_piles_given_to_another_player(app: AppTest) -> None:
    seated(app, ("Ann", "Ben"))
    app.segmented_control(key=table_photo.MODE).set_value(table_photo.ONE_PLAYER).run()
    uploader(app).set_value(("piles.png", png(WHOLE_TABLE), "image/png"))
    app.run()
    assert_clean(app)
    assert "Its piles lie on several sides of the table" in "\n".join(w.value for w in app.warning)
    ann = app.session_state["night"].table.player(player_id(app, "Ann"))
    change_table(app, ts.give_pile, ann.piles[-1].id, player_id(app, "Ben"))
    # given out, the advice to upload it again as the whole table is stale; the note says whose
    assert not app.warning
    assert "16 cards in 5 piles, given to Ann and Ben." in notes(app)


def test_the_per_player_photo_is_still_the_first_choice(app: AppTest) -> None:
    assert app.segmented_control(key=table_photo.MODE).value == table_photo.ONE_PLAYER
    uploader(app).set_value(("piles.png", png(WHOLE_TABLE), "image/png"))
    app.run()
    assert_clean(app)
    assert piles_by_name(app) == {
        "Player 1": ["8D 2H 8H", "5H 5D", "KS 9C 4S", "10S 10H KD 10C", "QS 2C 3H 7H"]
    }
    # they lie on four sides: the note says how to give each player theirs
    assert "Its piles lie on several sides of the table" in "\n".join(w.value for w in app.warning)
    assert not [b for b in app.button if str(b.key).startswith(table_photo.GIVE)]  # to nobody
    # its piles joined into one, the advice to upload it again is stale: it goes
    first = app.session_state["night"].table.players[0].piles[0].id
    for _join in range(4):
        change_table(app, ts.join_with_next, first)
    assert not app.warning
    # and the note counts the piles as the table holds them now
    assert notes(app).startswith("piles.png: 16 cards in 1 pile, given to Player 1.")
    again = reload(app)  # nobody photographed the whole table: the address doesn't say so
    assert again.segmented_control(key=table_photo.MODE).value == table_photo.ONE_PLAYER


# ---------------------------------------------------------------------------------------------
# The panel's pure parts


def record(sides: tuple[str, ...]) -> PhotoRecord:
    return PhotoRecord("p.png", DisplayCopy.of(np.zeros((2, 2, 3), np.uint8)), 1.0, (), sides)


@pytest.mark.parametrize(
    ("sides", "whole"),
    [((), False), (("near", "near"), False), (("near", "far"), True), (("left", "left"), False)],
)
def test_a_photo_of_the_whole_table_has_piles_on_more_than_one_side(
    sides: tuple[str, ...], whole: bool
) -> None:
    assert record(sides).whole_table is whole


def test_the_photos_of_the_whole_table_are_those_of_several_sides_or_players() -> None:
    table = ts.new_table(("Ann", "Ben"))
    ann, ben = (p.id for p in table.players)
    rows = [(read_card("AS"),), (read_card("2C"),)]
    table = ts.place_table_photo(table, "spread", [(ann, (0,)), (ben, (1,))], rows)
    table = ts.place_photo(table, ann, "sides", [(read_card("3D"),)])
    table = ts.place_photo(table, ben, "own", [(read_card("4H"),)])
    photos = {"spread": record(()), "sides": record(("near", "left")), "own": record(())}
    assert table_photo.table_photos(table, photos) == ["spread", "sides"]
    assert table_photo.table_photos(table, {"own": record(())}) == []  # unknown: not shown


def test_the_photographer_is_found_again_by_name_in_another_game() -> None:
    table = ts.new_table(NAMES)
    ben = table.players[1].id
    assert table_photo.remembered_photographer(table, ben, "Ben") == ben
    assert table_photo.remembered_photographer(table, 999, "Ben") == ben  # another game's id
    assert table_photo.remembered_photographer(table, 999, "Zoe") is None
    assert table_photo.remembered_photographer(table, None, None) is None
