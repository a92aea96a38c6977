"""A shared game (`app/live_table.py`): every page that opened the shared link shows the same
game, each page's change shows on the others, and what each looks at stays its own."""

from __future__ import annotations

import html
import re
import time
from collections.abc import Sequence
from urllib.parse import parse_qs, urlsplit

import card_taps
import game_state
import language
import live_table
import pytest
import sharing
import table_photo
import this_tab
from fakes import WHOLE_TABLE, FakeReader
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import ButtonGroup, Selectbox, TextInput
from test_night_panel import choose_game, next_game, play, show_player, two_players
from test_streamlit_app import (  # noqa: F401  (fixtures)
    APP_SCRIPT,
    TIMEOUT,
    assert_clean,
    button,
    fresh_caches,
    new_game,
    open_tools,
    page_text,
    pile_cards,
    pile_id,
    player_ids,
    png,
    reader,
    start,
    text_input,
    totals,
    type_pile,
    uploader,
)

from blackcat.games.cards import parse_pile
from blackcat.tables import black_cat_night as nt
from blackcat.tables import black_cat_table as ts
from blackcat.tables import black_lady_table as lt

# ---------------------------------------------------------------------------------------------
# The rooms


def test_a_change_is_the_rooms_next_version_only_from_the_latest_one() -> None:
    rooms = live_table.Rooms()
    assert rooms.latest("room-1", "night") is None
    first = rooms.post("room-1", "night", "first", seen=0)
    assert first == live_table.Posted(1, "first")
    assert rooms.post("room-1", "night", "from-nothing", seen=0) is None  # too late
    second = rooms.post("room-1", "night", "second", seen=1)
    assert second is not None and second.version == 2
    assert rooms.post("room-1", "night", "stale", seen=1) is None
    assert rooms.latest("room-1", "night") == second
    assert rooms.latest("room-1", "lady") is None  # each game of a room on its own
    assert rooms.latest("room-2", "night") is None


def test_the_oldest_rooms_are_let_go_of_and_a_page_of_one_starts_it_again() -> None:
    rooms = live_table.Rooms(size=2)
    for room in ("room-1", "room-2", "room-3"):
        rooms.post(room, "night", room, seen=0)
    assert rooms.latest("room-1", "night") is None
    assert rooms.latest("room-3", "night") is not None
    again = rooms.post("room-1", "night", "still here", seen=7)  # the page saw 7
    assert again == live_table.Posted(8, "still here")


def test_each_tabs_undo_history_is_kept_beside_the_game_and_let_go_of_with_it() -> None:
    rooms = live_table.Rooms(size=2)
    rooms.keep_history("room-1", "night", "tab-a", ["a"])
    assert rooms.history("room-1", "night", "tab-a") == []  # no game there: nothing kept
    rooms.post("room-1", "night", "game", seen=0)
    rooms.keep_history("room-1", "night", "tab-a", ["a"])
    rooms.keep_history("room-1", "night", "tab-b", ["b1", "b2"])
    assert rooms.history("room-1", "night", "tab-a") == ["a"]
    assert rooms.history("room-1", "night", "tab-b") == ["b1", "b2"]
    assert rooms.history("room-1", "lady", "tab-a") == []  # each game its own
    assert rooms.history("room-2", "night", "tab-a") == []
    rooms.keep_history("room-1", "night", "tab-a", [])  # everything undone
    assert rooms.history("room-1", "night", "tab-a") == []
    for room in ("room-2", "room-3"):
        rooms.post(room, "night", room, seen=0)
    assert rooms.history("room-1", "night", "tab-b") == []  # the game let go of, and its Undo
    rooms.post("room-1", "night", "again", seen=1)
    assert rooms.history("room-1", "night", "tab-b") == []


def test_the_undo_of_the_pages_written_last_is_kept() -> None:
    rooms = live_table.Rooms(histories=2)
    rooms.post("room", "night", "game", seen=0)
    for tab in ("tab-a", "tab-b", "tab-c"):
        rooms.keep_history("room", "night", tab, [tab])
    assert [rooms.history("room", "night", tab) for tab in ("tab-a", "tab-b", "tab-c")] == [
        [],
        ["tab-b"],
        ["tab-c"],
    ]
    rooms.keep_history("room", "night", "tab-b", ["tab-b"])  # tab-b's page ran again
    rooms.keep_history("room", "night", "tab-d", ["tab-d"])
    assert rooms.history("room", "night", "tab-b") == ["tab-b"]
    assert rooms.history("room", "night", "tab-c") == []


# ---------------------------------------------------------------------------------------------
# Pages sharing a game


def run(at: AppTest) -> AppTest:
    at.run()
    assert_clean(at)
    return at


def shared_link(at: AppTest) -> str:
    """The share panel opened, and the link it shows."""
    at.session_state[sharing.share_panel_key("table")] = True
    run(at)
    share = next(e for e in at.expander if "Open on another phone" in e.label)
    shown = [re.search(r'<p class="bc-link">(.*?)</p>', part.value) for part in share.html]
    return html.unescape(next(found for found in shown if found)[1])


def opened(link: str) -> AppTest:
    """Another phone opening `link`: a new session on the same server."""
    other = AppTest.from_file(str(APP_SCRIPT), default_timeout=TIMEOUT)
    for name, values in parse_qs(urlsplit(link).query).items():
        other.query_params[name] = values[0]
    return run(other)


@pytest.fixture
def two_phones(tmp_path) -> tuple[AppTest, AppTest]:
    ann = start(tmp_path)
    type_pile(ann, 1, "QS 2C")
    ben = opened(shared_link(ann))
    return ann, ben


def test_the_share_panel_makes_the_game_a_shared_one(tmp_path) -> None:
    ann = start(tmp_path)
    assert live_table.LIVE_PARAM not in ann.query_params
    link = shared_link(ann)
    room = parse_qs(urlsplit(link).query)[live_table.LIVE_PARAM][0]
    assert ann.query_params[live_table.LIVE_PARAM] == room  # this page is in it too
    assert "a change made on one shows on the others" in page_text(ann)
    assert shared_link(ann) == link  # the same room while the page is in it


def test_a_change_on_one_phone_shows_on_the_other(two_phones: tuple[AppTest, AppTest]) -> None:
    ann, ben = two_phones
    assert pile_cards(ben, 1) == "QS 2C"
    type_pile(ben, 2, "7D 3C")
    assert pile_cards(run(ann), 2) == "7D 3C"  # Ann's page, run again (it looks every 2 s)
    type_pile(ann, 1, "QS 2C 8H")
    assert pile_cards(run(ben), 1) == "QS 2C 8H"
    assert totals(ben) == totals(ann)


def test_each_phone_shows_the_player_it_chose(two_phones: tuple[AppTest, AppTest]) -> None:
    ann, ben = two_phones
    button(ben, "➕ Player").click()
    run(ben)
    text_input(ben, "Name").input("Ben")
    run(ben)
    assert totals(ben)[0].startswith("### Ben")
    run(ann)
    assert len(player_ids(ann)) == 2  # Ben is at Ann's table too
    assert not totals(ann)[0].startswith("### Ben")  # and Ann's page still shows hers


def test_undo_takes_back_this_phones_own_change_and_keeps_the_others(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    ann, ben = two_phones
    type_pile(ann, 2, "7D 3C")
    run(ben)
    assert button(ben, "↶ Undo").disabled  # Ben has changed nothing: nothing of his to undo
    type_pile(ben, 1, "QS 2C 9S")
    run(ann)
    button(ann, "↶ Undo").click()  # Ann's 7♦ 3♣ go; Ben's 9♠, made since, stays
    run(ann)
    assert pile_cards(ann, 1) == "QS 2C 9S"
    assert pile_cards(ann, 2) == "10S 10H KD 10C 9H"
    run(ben)
    assert pile_cards(ben, 2) == "10S 10H KD 10C 9H"
    button(ben, "↶ Undo").click()  # and Ben's Undo takes back his own
    run(ben)
    assert pile_cards(ben, 1) == "QS 2C"
    assert pile_cards(run(ann), 1) == "QS 2C"


def test_undo_after_a_change_refused_takes_back_none_of_the_other_phones(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    ann, ben = two_phones
    type_pile(ben, 2, "KD")
    run(ann)
    type_pile(ann, 1, "QS 2C 9S")
    type_pile(ben, 1, "QS 2C 4H")  # on Ben's page as it was: not made (Ann's 9♠ shows)
    button(ben, "↶ Undo").click()  # Ben means his 4♥, never made: his own K♦ is what goes
    run(ben)
    assert pile_cards(ben, 1) == "QS 2C 9S"  # Ann's work stays
    assert pile_cards(ben, 2) == "10S 10H KD 10C 9H"
    assert [t.value for t in ben.toast] == ["The piles of Example are as they were."]
    assert pile_cards(run(ann), 1) == "QS 2C 9S"


CHANGED_SINCE = "This phone's last change stays: another phone changed it since."


def test_undo_leaves_a_card_another_phone_changed_since_and_says_so(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    ann, ben = two_phones
    type_pile(ben, 1, "QS 2C 4H")
    run(ann)
    type_pile(ann, 1, "QS 2C 4D")  # Ann makes Ben's 4♥ a 4♦
    run(ben)
    button(ben, "↶ Undo").click()
    run(ben)
    assert pile_cards(ben, 1) == "QS 2C 4D"
    assert [t.value for t in ben.toast] == [CHANGED_SINCE]
    assert pile_cards(run(ann), 1) == "QS 2C 4D"
    button(ann, "↶ Undo").click()  # Ann takes her 4♦ back: Ben's 4♥ can go now
    run(ann)
    run(ben)
    button(ben, "↶ Undo").click()
    run(ben)
    assert pile_cards(ben, 1) == "QS 2C"


def test_undo_takes_back_this_phones_card_beside_the_others_in_the_same_pile(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    ann, ben = two_phones
    type_pile(ben, 1, "QS 2C 4H")
    run(ann)
    type_pile(ann, 1, "QS 2C 4H 9S")  # Ann's 9♠ after Ben's 4♥, in the same pile
    run(ben)
    button(ben, "↶ Undo").click()  # Ben's 4♥ goes, Ann's 9♠ stays (helper-73)
    run(ben)
    assert pile_cards(ben, 1) == "QS 2C 9S"
    assert [t.value for t in ben.toast] == ["4♥ is taken out again (it was card 1.3 of Example)."]
    type_pile(ben, 2, "10S 9D KD 10C 9H")  # Ben's card 2 of the other pile
    run(ann)
    type_pile(ann, 2, "10S 9D KD 10C 9H 2H")  # Ann's card at its end
    run(ben)
    button(ben, "↶ Undo").click()
    run(ben)
    assert pile_cards(ben, 2) == "10S 10H KD 10C 9H 2H"
    assert pile_cards(run(ann), 2) == "10S 10H KD 10C 9H 2H"
    assert pile_cards(ann, 1) == "QS 2C 9S"


MEANWHILE = "Another phone changed the game just now: here it is. Make your change again if needed."


def test_a_change_on_a_page_behind_the_game_to_what_the_other_phone_changed_is_not_made(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    ann, ben = two_phones
    type_pile(ann, 1, "QS 2C 9S")
    # Ben's page still shows "QS 2C": what he typed (or tapped) named the pile as he saw it,
    # and made on Ann's it would wipe her 9♠ (helper-68)
    type_pile(ben, 1, "QS 2C 4H")
    assert pile_cards(ben, 1) == "QS 2C 9S"  # Ann's, for him to look at again
    # and what he typed, not lost unseen: said, to type again
    assert [t.value for t in ben.toast] == [MEANWHILE, "What you typed, not put in: QS 2C 4H"]
    assert pile_cards(run(ann), 1) == "QS 2C 9S"
    type_pile(ben, 1, "QS 2C 9S 4H")  # made again on the game as it is: it is made
    assert pile_cards(run(ann), 1) == "QS 2C 9S 4H"
    assert [t.value for t in ann.toast] == ["Another phone put 4♥ in as card 1.4 of Example."]


def test_a_change_on_a_page_behind_the_game_is_made_beside_the_other_phones(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    ann, ben = two_phones
    type_pile(ann, 1, "QS 2C 9S")
    type_pile(ben, 2, "7D 3C")  # another pile, on Ben's page as it was
    # Ann's 9♠ and Ben's pile both, and Ben's page says what Ann's phone changed
    assert (pile_cards(ben, 1), pile_cards(ben, 2)) == ("QS 2C 9S", "7D 3C")
    assert [t.value for t in ben.toast] == ["Another phone put 9♠ in as card 1.3 of Example."]
    assert (pile_cards(run(ann), 1), pile_cards(ann, 2)) == ("QS 2C 9S", "7D 3C")
    assert totals(ben) == totals(ann)
    button(ben, "↶ Undo").click()  # Ben's Undo takes back his pile, not Ann's card
    run(ben)
    assert (pile_cards(ben, 1), pile_cards(ben, 2)) == ("QS 2C 9S", "10S 10H KD 10C 9H")
    assert pile_cards(run(ann), 2) == "10S 10H KD 10C 9H"


def test_a_player_added_and_a_switch_on_a_page_behind_the_game_keep_the_other_phones(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    ann, ben = two_phones
    button(ann, "➕ Player").click()
    run(ann)
    ben.toggle(key="lucky_tom").set_value(True)  # Ben's page hasn't seen Ann's player yet
    run(ben)
    assert len(player_ids(ben)) == 2 and ben.session_state["night"].table.variants.lucky_tom
    run(ann)
    assert len(player_ids(ann)) == 2 and ann.session_state["night"].table.variants.lucky_tom


def test_a_name_given_on_a_page_behind_the_game_says_the_other_phones_change(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    ann, ben = two_phones
    type_pile(ann, 1, "QS 2C 9S")
    text_input(ben, "Name").input("Ben")  # Ben's page hasn't seen Ann's 9♠ yet
    run(ben)
    assert totals(ben)[0].startswith("### Ben") and pile_cards(ben, 1) == "QS 2C 9S"
    assert [t.value for t in ben.toast] == ["Another phone put 9♠ in as card 1.3 of Example."]
    assert totals(run(ann))[0].startswith("### Ben") and pile_cards(ann, 1) == "QS 2C 9S"


def test_a_name_given_on_a_page_behind_the_next_game_names_the_player_in_both_games(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    """Ben names the player of game 1 as Ann starts game 2: his page's field is game 1's, its
    player's id not in game 2 (the name's refusal showed Streamlit's error page)."""
    ann, ben = two_phones
    button(ann, "➕ Next game").click()
    run(ann)
    text_input(ben, "Name").input("Ben")  # Ben's page hasn't seen game 2 yet
    run(ben)
    assert ben.session_state.night.current == 1
    assert [g.players[0].name for g in ben.session_state.night.games] == ["Ben", "Ben"]
    assert totals(ben)[0].startswith("### Ben")
    assert totals(run(ann))[0].startswith("### Ben")


def test_another_phones_next_game_keeps_the_player_this_phone_shows(tmp_path) -> None:
    """Ann's next game has players of new ids: Ben's page, showing Ben, shows Ben's piles in
    it, not the first player's (a pile typed there went into Ann's, unseen: helper-99)."""
    ann = new_game(start(tmp_path))
    button(ann, "➕ Player").click()
    run(ann)
    type_pile(ann, 1, "QS 2C")
    ben = opened(shared_link(ann))
    ben.segmented_control(key="player").set_value(player_ids(ben)[1])
    text_input(run(ben), "Name").input("Ben")
    type_pile(run(ben), 1, "7C 3D")
    button(run(ann), "➕ Next game").click()
    run(ann)
    assert totals(run(ben))[0].startswith("### Ben")


def test_a_name_field_sent_back_unchanged_from_a_game_gone_from_the_page_does_nothing(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    """A page sent its name field's value back under a player's id gone from the night (another
    phone removed them): nothing typed, nothing to say."""
    ann, ben = two_phones
    button(ann, "➕ Player").click()
    run(ann)
    run(ben)
    ben.segmented_control(key="player").set_value(player_ids(ben)[1])
    run(ben)
    name = text_input(ben, "Name").value
    ann.segmented_control(key="player").set_value(player_ids(ann)[1])
    run(ann)
    button(ann, f"Yes, remove {name}").click()
    run(ann)
    text_input(ben, "Name").input(name + " ")  # sent as changed, the same name
    run(ben)
    assert len(player_ids(ben)) == 1
    assert not [t.value for t in ben.toast if "no longer" in t.value]


def lady_phones(tmp_path) -> tuple[AppTest, AppTest]:
    """Two phones in one shared Black Lady game."""
    ann = start(tmp_path)
    ann.segmented_control(key="game").set_value("Black Lady")
    run(ann)
    ann.session_state[sharing.share_panel_key("lady")] = True
    run(ann)
    ben = AppTest.from_file(str(APP_SCRIPT), default_timeout=TIMEOUT)
    ben.query_params.update(ann.query_params)
    run(ben)
    ben.segmented_control(key="game").set_value("Black Lady")
    return ann, run(ben)


def tricks(at: AppTest) -> list[str]:
    return [ts.pile_text(pile) for pile in lady_piles(at)]


def lady_piles(at: AppTest) -> list[ts.Pile]:
    deal = at.session_state["lady"].deal
    return [deal.tricks(seat) for seat in range(len(deal.table.players))]


def test_tricks_typed_on_a_page_behind_a_black_lady_game_keep_the_other_phones(
    tmp_path,
) -> None:
    ann, ben = lady_phones(tmp_path)
    ben.segmented_control(key="lady_seat").set_value(1)
    run(ben)
    text_input(ann, "Player 1's tricks, any order").input("KH 2S 4S")
    run(ann)
    text_input(ben, "Player 2's tricks, any order").input("QS 3D")  # Ben's page is behind
    run(ben)
    assert tricks(ben)[:2] == ["KH 2S 4S", "QS 3D"]
    assert tricks(run(ann))[:2] == ["KH 2S 4S", "QS 3D"]


def test_tricks_typed_in_deal_1_as_another_phones_next_deal_comes_stay_in_deal_1(
    tmp_path,
) -> None:
    """Ben typed Player 2's tricks of deal 1 as Ann started deal 2: his page had taken deal 2
    in when his field was sent, and the tricks, typed by seat, went into deal 2."""
    ann, ben = lady_phones(tmp_path)
    text_input(ann, "Player 1's tricks, any order").input("KH 2S 4S")
    run(ann)
    ben.segmented_control(key="lady_seat").set_value(1)
    field = text_input(run(ben), "Player 2's tricks, any order")
    button(ann, "➕ Next deal").click()
    run(ann)
    as_a_run_broken_off_after_taking_in(ben, ann, "lady")
    field.input("QS 3D")
    run(ben)
    game = ben.session_state.lady
    assert game.current == 1  # deal 2 on screen, as on Ann's phone
    assert ts.pile_text(game.deals[0].tricks(1)) == "QS 3D"  # the old code: in deal 2
    assert game.deals[1].empty
    assert ts.pile_text(run(ann).session_state.lady.deals[0].tricks(1)) == "QS 3D"


def test_tricks_typed_at_one_seat_on_two_phones_at_once_say_what_was_not_put_in(
    tmp_path,
) -> None:
    """Ann's came first: Ben's field shows hers, and says what he typed (it was gone, unseen
    but for "Make your change again")."""
    ann, ben = lady_phones(tmp_path)
    text_input(ann, "Player 1's tricks, any order").input("KH 2S")
    run(ann)
    text_input(ben, "Player 1's tricks, any order").input("KH 3S")  # Ben's page is behind
    run(ben)
    assert tricks(ben)[0] == "KH 2S"
    assert [t.value for t in ben.toast] == [MEANWHILE, "What you typed, not put in: KH 3S"]


def test_a_name_given_on_a_black_lady_page_behind_a_seat_gone_says_so(tmp_path) -> None:
    """Ben names seat 4 as Ann makes the game one of three: his page's field is a seat gone (an
    index past the names showed Streamlit's error page); sent back unchanged, it asks nothing."""
    ann, ben = lady_phones(tmp_path)
    count = len(ann.session_state["lady"].names) + 1
    seat = f"Seat {count}"
    ann.segmented_control(key="lady-count").set_value(count)
    run(ann)
    run(ben)
    ann.segmented_control(key="lady-count").set_value(count - 1)
    run(ann)
    shown = text_input(ben, seat).value
    text_input(ben, seat).input(shown + " ")  # Ben's page hasn't seen it: sent as changed
    run(ben)
    assert len(ben.session_state["lady"].names) == count - 1
    assert not [t.value for t in ben.toast if "no longer" in t.value]
    ann.segmented_control(key="lady-count").set_value(count)
    run(ann)
    run(ben)
    ann.segmented_control(key="lady-count").set_value(count - 1)
    run(ann)
    text_input(ben, seat).input("Dee")
    run(ben)
    assert "Dee" not in ben.session_state["lady"].names
    assert [t.value for t in ben.toast if "no longer" in t.value] == [
        "That player is no longer at the table."
    ]


def test_undo_on_a_page_behind_the_game_says_the_other_phones_change_and_undoes(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    ann, ben = two_phones
    type_pile(ann, 1, "QS 2C 9S")
    run(ben)
    type_pile(ben, 2, "4H")
    button(ann, "↶ Undo").click()  # Ann meant her 9♠; her page hadn't seen Ben's 4♥ yet
    run(ann)
    # one tap: Ben's 4♥ taken in and said, Ann's 9♠ gone (it only showed Ben's change before)
    assert pile_cards(ann, 1) == "QS 2C" and pile_cards(ann, 2) == "4H"
    assert [t.value for t in ann.toast] == [
        "Another phone changed the piles of Example.",
        "9♠ is taken out again (it was card 1.3 of Example).",
    ]
    assert (pile_cards(run(ben), 1), pile_cards(ben, 2)) == ("QS 2C", "4H")


def test_a_phone_that_stops_sharing_keeps_its_own_copy(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    ann, ben = two_phones
    ben.session_state[sharing.share_panel_key("table")] = True
    run(ben)
    button(ben, "Stop sharing on this phone").click()
    run(ben)
    assert live_table.LIVE_PARAM not in ben.query_params
    assert not ben.session_state[sharing.share_panel_key("table")]
    type_pile(ben, 2, "KD")
    assert pile_cards(run(ann), 2) != "KD"
    type_pile(ann, 1, "QS")
    assert pile_cards(run(ben), 1) == "QS 2C"


def told(at: AppTest, tab: str) -> AppTest:
    """The page's tab said its id (in the browser: from its sessionStorage, `this_tab`)."""
    at.session_state[this_tab.HELD] = tab
    return run(at)


def reloaded(at: AppTest) -> AppTest:
    """The page loaded again from its address: a new session, its tab's id not said yet."""
    again = AppTest.from_file(str(APP_SCRIPT), default_timeout=TIMEOUT)
    again.query_params.update(at.query_params)
    return run(again)


ANN, BEN = "tab-of-anns-phone", "tab-of-bens-phone"


def test_a_phones_undo_in_a_shared_game_survives_a_reload(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    ann, ben = (told(page, tab) for page, tab in zip(two_phones, (ANN, BEN), strict=True))
    type_pile(ann, 2, "7D 3C")
    run(ben)
    type_pile(ben, 1, "QS 2C 9S")
    ann = reloaded(ann)
    assert button(ann, "↶ Undo").disabled  # its tab hasn't said which it is yet
    told(ann, ANN)
    button(ann, "↶ Undo").click()  # Ann's 7♦ 3♣ go; Ben's 9♠, made since, stays
    run(ann)
    assert pile_cards(ann, 2) == "10S 10H KD 10C 9H"
    assert pile_cards(ann, 1) == "QS 2C 9S"
    ben = told(reloaded(ben), BEN)
    assert pile_cards(ben, 2) == "10S 10H KD 10C 9H"
    button(ben, "↶ Undo").click()  # and Ben's reloaded Undo takes back his own
    run(ben)
    assert pile_cards(ben, 1) == "QS 2C"
    assert pile_cards(ben, 2) == "10S 10H KD 10C 9H"


def test_a_phone_reloaded_while_its_old_page_seemed_connected_takes_its_undo_back_later(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    """A reload within a minute of the connection dropping unseen: the old page still held the
    tab's id, so the page got a fresh one; once that page is gone it takes the tab's id back."""
    ann, _ = two_phones
    ann = told(ann, ANN)
    type_pile(ann, 2, "7D 3C")
    ann = reloaded(ann)
    ann.session_state[this_tab.WANTED] = (ANN, time.monotonic())  # ANN's page still held it
    ann = told(ann, "a-fresh-id-of-the-reloaded-page")  # its run finds that page gone
    assert ann.session_state[this_tab.HELD] == ANN
    button(ann, "↶ Undo").click()
    run(ann)
    assert pile_cards(ann, 2) == "10S 10H KD 10C 9H"


def test_a_reloaded_phones_undo_still_leaves_a_card_another_phone_changed_since(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    ann, ben = two_phones
    ben = told(ben, BEN)
    type_pile(ben, 1, "QS 2C 4H")
    run(ann)
    type_pile(ann, 1, "QS 2C 4D")  # Ann makes Ben's 4♥ a 4♦
    ben = told(reloaded(ben), BEN)
    button(ben, "↶ Undo").click()
    run(ben)
    assert pile_cards(ben, 1) == "QS 2C 4D"
    assert [t.value for t in ben.toast] == [CHANGED_SINCE]


def test_the_games_address_opened_elsewhere_takes_back_none_of_this_phones_changes(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    ann, _ = two_phones
    ann = told(ann, ANN)
    type_pile(ann, 2, "7D 3C")
    elsewhere = told(reloaded(ann), "tab-of-another-phone")  # the same address, another tab
    assert button(elsewhere, "↶ Undo").disabled
    assert not button(run(ann), "↶ Undo").disabled  # Ann's page still has hers


def test_a_page_that_stops_sharing_keeps_its_undo_in_the_room_no_longer(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    ann, _ = two_phones
    ann = told(ann, ANN)
    room = ann.query_params[live_table.LIVE_PARAM]
    kept = live_table.rooms().history(room, "night", ANN)
    assert kept  # Ann's QS 2C
    ann.session_state[sharing.share_panel_key("table")] = True
    run(ann)
    button(ann, "Stop sharing on this phone").click()
    run(ann)
    type_pile(ann, 2, "KD")  # its own copy's change: no other phone's to keep apart from
    assert live_table.rooms().history(room, "night", ANN) == kept


def board_names(at: AppTest) -> list[str]:
    board = next(m.value for m in at.markdown if 'class="bc-board"' in m.value)
    return re.findall(r"<tr[^>]*><td>(.*?)</td>", board)


def test_each_phone_says_the_players_the_app_named_in_its_own_language(tmp_path) -> None:
    ann = start(tmp_path)
    button(ann, "➕ Player").click()  # the example makes way: Player 1 and Player 2
    run(ann)
    type_pile(ann, 1, "QS 2C")  # Player 2's piles, on screen
    link = shared_link(ann)
    ben = AppTest.from_file(str(APP_SCRIPT), default_timeout=TIMEOUT)
    for name, values in parse_qs(urlsplit(link).query).items():
        ben.query_params[name] = values[0]
    ben.query_params[language.PARAM] = "es"
    run(ben)
    assert board_names(ben) == ["Jugador 1", "Jugador 2"]
    text_input(ben, "Pila 2, de izquierda a derecha").input("7D 3C")
    run(ben)
    run(ann)
    assert board_names(ann) == ["Player 1", "Player 2"]  # the cards came, not Ben's Spanish
    assert pile_cards(ann, 2) == "7D 3C"
    assert "Jugador" not in "\n".join(t.value for t in ann.toast)
    button(ann, "↶ Undo").click()  # Ann's own change taken back, Ben's kept
    run(ann)
    assert pile_cards(ann, 1) == "" and pile_cards(ann, 2) == "7D 3C"
    text_input(run(ben), "Nombre").input("Bea")  # a name typed is everyone's as typed
    run(ben)
    assert board_names(run(ann)) == ["Player 1", "Bea"]


def seat_names(at: AppTest) -> list[str]:
    """The board's names, without the leader's trophy."""
    return [name.removeprefix("🏆 ") for name in board_names(at)]


def test_each_phone_says_the_players_a_photo_named_by_seat_in_its_own_language(
    request: pytest.FixtureRequest, tmp_path
) -> None:
    request.getfixturevalue("reader")  # before the pages load the reader
    ann = start(tmp_path)
    ann.segmented_control(key=table_photo.MODE).set_value(table_photo.WHOLE_TABLE)
    run(ann)
    found = [u for u in ann.file_uploader if str(u.key).startswith(table_photo.PREFIX)]
    found[0].set_value(("table.png", png(WHOLE_TABLE), "image/png"))  # Ann's, a table of one
    run(ann)
    assert seat_names(ann) == ["Player 1", "Left", "Across", "Right"]
    ben = AppTest.from_file(str(APP_SCRIPT), default_timeout=TIMEOUT)
    for name, values in parse_qs(urlsplit(shared_link(ann)).query).items():
        ben.query_params[name] = values[0]
    ben.query_params[language.PARAM] = "es"
    run(ben)
    assert seat_names(ben) == ["Jugador 1", "Izquierda", "Enfrente", "Derecha"]
    ann.segmented_control(key=language.KEY).set_value("es")
    run(ann)  # the photographer's phone in Spanish: the note still asks to rename them
    assert seat_names(ann) == ["Jugador 1", "Izquierda", "Enfrente", "Derecha"]
    assert "con el nombre de su sitio: cámbialos abajo" in page_text(ann)
    ann.segmented_control(key=language.KEY).set_value("en")
    run(ann)
    left = next(p.id for p in ben.session_state["night"].table.players if p.name == "Izquierda")
    ben.segmented_control(key="player").set_value(left)
    run(ben)
    text_input(ben, "Nombre").input("Lu")  # a name typed is everyone's as typed
    run(ben)
    assert seat_names(run(ann)) == ["Player 1", "Lu", "Across", "Right"]


def test_a_shared_black_lady_game_shows_on_both_phones(tmp_path) -> None:
    ann = start(tmp_path)
    ann.segmented_control(key="game").set_value("Black Lady")
    run(ann)
    ann.session_state[sharing.share_panel_key("lady")] = True
    run(ann)
    room = ann.query_params[live_table.LIVE_PARAM]
    ben = AppTest.from_file(str(APP_SCRIPT), default_timeout=TIMEOUT)
    ben.query_params.update(ann.query_params)
    run(ben)
    ben.segmented_control(key="game").set_value("Black Lady")
    run(ben)
    assert ben.query_params[live_table.LIVE_PARAM] == room
    text_input(ben, "Player 1's tricks, any order").input("KH 2S 4S")
    run(ben)
    run(ann)
    assert text_input(ann, "Player 1's tricks, any order").value == "KH 2S 4S"


def test_a_phones_undo_in_a_shared_black_lady_game_survives_a_reload(tmp_path) -> None:
    ann = start(tmp_path)
    ann.segmented_control(key="game").set_value("Black Lady")
    run(ann)
    ann.session_state[sharing.share_panel_key("lady")] = True
    ann = told(run(ann), ANN)
    text_input(ann, "Player 1's tricks, any order").input("KH 2S 4S")
    run(ann)
    again = told(reloaded(ann), ANN)
    again.segmented_control(key="game").set_value("Black Lady")
    run(again)
    again.segmented_control(key="lady_seat").set_value(0)  # on screen: Player 2, next to type
    run(again)
    assert text_input(again, "Player 1's tricks, any order").value == "KH 2S 4S"
    again.button(key="lady-undo").click()
    run(again)
    assert text_input(again, "Player 1's tricks, any order").value == ""


def test_a_card_picked_on_a_pile_another_phone_left_alone_stays_picked(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    ann, ben = two_phones
    type_pile(ann, 2, "7D 3C")
    run(ben)
    first, second = open_tools(ben, 1), open_tools(ben, 2)
    ben.pills(key=f"sel:{second}").set_value(1)  # 3♣ picked
    run(ben)
    type_pile(ann, 1, "QS 2C 8H")
    run(ben)
    assert ben.session_state[f"sel:{second}"] == 1  # still picked: its pile is as it was
    ben.pills(key=f"sel:{first}").set_value(0)
    run(ben)
    type_pile(ann, 1, "8H QS 2C")
    run(ben)
    assert ben.session_state[f"sel:{first}"] is None  # its place may hold another card now


def test_a_photo_read_on_one_phone_shows_on_the_other_with_its_card_to_check(
    request: pytest.FixtureRequest, tmp_path
) -> None:
    fake: FakeReader = request.getfixturevalue("reader")  # before the pages load the reader
    ann = start(tmp_path)
    ben = opened(shared_link(ann))
    uploader(ann).set_value(("piles.png", png(200), "image/png"))
    run(ann)
    reads = fake.reads
    run(ben)
    assert [pile_cards(ben, n) for n in (1, 2)] == ["8D 2H 8H", "KS 9C 4S"]
    assert len(ben.image) == 1  # the photo with its numbered boxes, from the server
    assert any("looks like" in m.value for m in ben.markdown)  # 1.2 to check there too
    assert fake.reads == reads  # read once, on Ann's phone


def test_a_phone_looking_back_at_an_earlier_game_takes_no_other_phone_there(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    ann, ben = two_phones
    button(ann, "➕ Next game").click()
    run(ann)
    run(ben)
    assert ben.session_state.night.current == 1  # the next game: every phone goes there
    ben.segmented_control(key="night-game").set_value(0)  # Ben looks back at game 1
    run(ben)
    run(ann)
    assert ann.session_state.night.current == 1  # Ann stays on the game in play
    assert not [t for t in ann.toast]  # nothing changed for her
    type_pile(ann, 1, "7D 3C")
    run(ben)
    assert ben.session_state.night.current == 0  # and Ben still on game 1
    assert ben.session_state.night.games[1].players[0].piles[0].cards == parse_pile("7D 3C")


def test_a_phone_that_slept_or_opened_an_old_link_shows_the_game_in_play_and_its_player(
    tmp_path,
) -> None:
    """Ann played games 2 and 3, then corrected game 1, the last change posted: Ben's phone,
    asleep since game 1, and Cy's, opening the link Ben had then, landed on game 1 (the game Ann
    was correcting), not on game 3; each still shows Ben, the player its link showed."""
    ann = two_players(start(tmp_path))
    play(ann, "QS 2C 3H 7H", "8D 2H 8H")
    old_link = shared_link(ann)  # Ben's piles of game 1 on screen
    ben = opened(old_link)
    for ann_cards, ben_cards in (("5H 5D", "10S 10H KD 10C"), ("KS 9C 4S", "7C 3D")):
        play(next_game(ann), ann_cards, ben_cards)
    show_player(choose_game(ann, 1), 0)
    type_pile(ann, 1, "QS 2C 3H 7H 4D")  # posted with game 1 on Ann's screen
    for late in (run(ben), opened(old_link)):
        assert late.session_state.night.current == 2  # the old code: 0, Ann's game 1
        assert late.session_state.night.games[0].players[0].piles[0].cards[-1].label == "4♦"
        assert totals(late)[0].startswith("### Ben")
    cy = opened(shared_link(ben))  # Ben's link now: game 3 on screen
    assert cy.session_state.night.current == 2  # the old code: 0, Ann's game 1


def as_a_run_broken_off_after_taking_in(at: AppTest, other: AppTest, key: str = "night") -> None:
    """What a page holds where its run, started by its poll (`live_table.listen`), took in
    another phone's change, and a tap on what the browser still showed broke it off: the other
    phone's game (under `key`), seen, under the fields of the one drawn before."""
    at.session_state[key] = other.session_state[key]
    seen = live_table.SEEN_PREFIX + key
    at.session_state[seen] = other.session_state[seen]


def test_a_card_typed_in_game_1_as_another_phones_next_game_comes_stays_in_game_1(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    """Ben typed a card in game 1 as Ann started game 2: his page had taken game 2 in when his
    field was sent, and it looked for game 1's pile in game 2 (Streamlit's error page; a
    tapped card was refused, "that pile is no longer on the table", and lost)."""
    ann, ben = two_phones
    field = text_input(ben, "Pile 1, left to right")
    pile = pile_id(ben, 1)
    button(ann, "➕ Next game").click()
    run(ann)
    as_a_run_broken_off_after_taking_in(ben, ann)
    field.input("QS 2C 8H")
    run(ben)
    night = ben.session_state.night
    assert night.current == 1  # game 2 on screen, as on Ann's phone
    assert night.games[0].pile(pile).cards == parse_pile("QS 2C 8H")
    assert pile_cards(ben, 1) == ""  # game 2's pile
    assert [t.value for t in ben.toast] == [
        "Made in game 1, the game it was typed or tapped in; game 2 is on screen."
    ]
    assert run(ann).session_state.night.games[0].pile(pile).cards == parse_pile("QS 2C 8H")


def popover_id(at: AppTest, label: str) -> str:
    """The id of the popover `label`: a popover drawn under the same id stays as the player left
    it (open), one under a new id is drawn closed."""
    return next(p.proto.id for p in at.get("popover") if p.proto.popover.label == label)


def test_another_phones_change_leaves_a_question_open(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    ann, ben = two_phones
    asked = popover_id(ben, "New game")  # Ben opens "New game": is he sure?
    type_pile(ann, 2, "7D 3C")
    run(ben)
    assert pile_cards(ben, 2) == "7D 3C"
    assert popover_id(ben, "New game") == asked  # Ann's change: Ben's question stays open
    type_pile(ben, 1, "QS 2C 5H")
    assert popover_id(ben, "New game") != asked  # his own change closes it (helper-52)


def test_a_new_game_started_on_another_phone_closes_the_question_of_one(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    ann, ben = two_phones
    asked = popover_id(ben, "New game")  # Ben opens "New game"; Ann starts one, types a pile
    button(ann, "Yes, a new game").click()
    run(ann)
    type_pile(ann, 1, "7D")
    run(ben)
    assert pile_cards(ben, 1) == "7D"
    # left open, its "Yes" would start a second new game, Ann's 7♦ gone with it
    assert popover_id(ben, "New game") != asked


def test_a_new_black_lady_game_started_on_another_phone_closes_the_question_of_one(
    tmp_path,
) -> None:
    ann = start(tmp_path)
    ann.segmented_control(key="game").set_value("Black Lady")
    run(ann)
    text_input(ann, "Player 1's tricks, any order").input("KH 2S 4S")
    run(ann)
    ann.session_state[sharing.share_panel_key("lady")] = True
    run(ann)
    ben = AppTest.from_file(str(APP_SCRIPT), default_timeout=TIMEOUT)
    ben.query_params.update(ann.query_params)
    run(ben)
    ben.segmented_control(key="game").set_value("Black Lady")
    run(ben)
    asked = popover_id(ben, "New game")
    button(ann, "➕ Next deal").click()
    run(ann)
    run(ben)
    assert popover_id(ben, "New game") == asked  # a next deal: the question stays open
    button(ann, "Yes, a new game").click()
    run(ann)
    run(ben)
    assert len(ben.session_state.lady.deals) == 1
    assert popover_id(ben, "New game") != asked


NEW_GAME_STAYS = "The new game stays: another phone changed it since."


def test_new_game_undone_keeps_a_name_given_since_and_refuses_a_player_added(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    ann, ben = two_phones
    button(ann, "Yes, a new game").click()
    run(ann)
    run(ben)
    text_input(ben, "Name").input("Ben")  # Ben names the player of the new game
    run(ben)
    run(ann)
    button(ann, "↶ Undo").click()  # Ann's "New game" goes; the name Ben gave stays
    run(ann)
    assert [t.value for t in ann.toast] == ["The game's cards are back."]
    assert pile_cards(ann, 1) == "QS 2C"
    assert totals(ann)[0].startswith("### Ben")
    assert pile_cards(run(ben), 1) == "QS 2C"
    button(ann, "Yes, a new game").click()
    run(ann)
    run(ben)
    button(ben, "➕ Player").click()  # a player of the new game, not of the old one
    run(ben)
    run(ann)
    button(ann, "↶ Undo").click()
    run(ann)
    assert [t.value for t in ann.toast] == [NEW_GAME_STAYS]
    assert len(player_ids(ann)) == 2 and pile_cards(ann, 1) == ""


def toast_placing(at: AppTest) -> list[str]:
    return [part.value for part in at.html if "stToastContainer" in part.value]


def test_an_arriving_changes_toast_is_kept_off_the_cards(
    two_phones: tuple[AppTest, AppTest],
) -> None:
    ann, ben = two_phones
    assert not toast_placing(run(ben))
    type_pile(ann, 1, "QS 2C 5H")
    run(ben)
    assert [t.value for t in ben.toast] == ["Another phone put 5♥ in as card 1.3 of Example."]
    assert toast_placing(ben) == [game_state.TOAST_OFF_THE_CARDS_HTML]
    assert not toast_placing(run(ben))  # once, with the toast


def pile_place(at: AppTest, number: int) -> int:
    """Where pile `number` of the player shown lies among the page's own elements: an element
    that takes another's place is drawn anew (a field typed in lost its focus, and the view
    kept by the browser moved)."""
    key = card_taps.pile_key(pile_id(at, number))
    return next(
        i
        for i, node in at.main.children.items()
        if getattr(node.proto, "id", "").endswith(f"-{key}")
    )


def test_a_pile_keeps_its_place_in_the_page_when_another_phones_photo_comes(
    request: pytest.FixtureRequest, tmp_path
) -> None:
    request.getfixturevalue("reader")  # before the pages load the reader
    ann = start(tmp_path)
    type_pile(ann, 1, "QS 2C")
    ben = opened(shared_link(ann))
    places = [pile_place(ben, n) for n in (1, 2)]
    uploader(ann).set_value(("piles.png", png(200), "image/png"))
    run(ann)
    run(ben)
    assert pile_cards(ben, 3) == "8D 2H 8H"  # the photo, its notes and its cards above pile 1
    assert [pile_place(ben, n) for n in (1, 2)] == places


def as_a_browser_that_missed_the_run_that_set_it(field: TextInput) -> None:
    """What a browser holds in `field` where the run that set its value in Session State was
    drawn over by the next run before it was drawn (a busy machine): the field's default."""
    field.set_value(field.proto.default)


def test_a_pile_another_phone_typed_stays_as_this_phones_photo_comes(
    request: pytest.FixtureRequest, tmp_path
) -> None:
    """Ann typed pile 1 and shared the game; Ben's browser drew his field from his page's second
    run, which set no value: the field showed its default (empty), his photo's run sent that
    back as typed, and Ann's pile was emptied, then filled with his photo's cards (helper-83)."""
    request.getfixturevalue("reader")  # before the pages load the reader
    ann = start(tmp_path)
    new_game(ann)
    type_pile(ann, 1, "KH 2S")
    ben = run(opened(shared_link(ann)))  # his page's second run: the field's value not set again
    as_a_browser_that_missed_the_run_that_set_it(text_input(ben, "Pile 1, left to right"))
    uploader(ben).set_value(("piles.png", png(200), "image/png"))
    run(ben)
    assert pile_cards(ben, 1) == "KH 2S"  # the old code: "8D 2H 8H", the photo's first row
    assert [pile_cards(ben, n) for n in (2, 3)] == ["8D 2H 8H", "KS 9C 4S"]
    assert pile_cards(run(ann), 1) == "KH 2S"


def test_a_browser_that_missed_the_run_that_set_a_field_still_shows_the_game(tmp_path) -> None:
    """Each field and toggle drawn in a run that set no value holds the game's as its default,
    what a browser that missed the run that set it shows (and sends back with the next tap)."""
    ann = start(tmp_path)
    new_game(ann)
    type_pile(ann, 1, "KH 2S")
    ann.toggle(key="two_decks").set_value(True)
    run(ann)
    ben = run(opened(shared_link(ann)))
    fields = [*ben.text_input, *ben.toggle]
    assert [field.proto.default for field in fields] == [field.value for field in fields]
    assert ben.toggle(key="two_decks").proto.default is True


def as_a_browser_that_missed_the_run_that_set_its_choice(
    widget: ButtonGroup | Selectbox, options: Sequence[object]
) -> None:
    """`as_a_browser_that_missed_the_run_that_set_it` for a choice of `options` (a segmented
    control's, a list's): the browser holds the choice its default names, or none."""
    if isinstance(widget, Selectbox):
        shown = [widget.proto.default] if widget.proto.HasField("default") else []
    else:
        shown = list(widget.proto.default)
    widget.set_value(options[shown[0]] if shown else None)


def test_a_queen_another_phone_pinned_stays_pinned_as_this_phone_plays_on(tmp_path) -> None:
    """Ann pinned her queen to 7; Ben's browser drew the queen's choice from a run that set no
    value: it showed its default (none chosen), and his next tap sent that back as his choice,
    unpinning Ann's queen."""
    ann = start(tmp_path)
    new_game(ann)
    type_pile(ann, 1, "QS 2C 3H 7H")
    pile = open_tools(ann, 1)
    ann.segmented_control(key=f"pin:{pile}:0").set_value("7")
    run(ann)
    assert totals(ann) == ["### Player 1: 3 points"]
    ben = run(opened(shared_link(ann)))  # his page's second run: the choice not set again
    pile = open_tools(ben, 1)  # his Queens' panel opened: its choice drawn, set
    run(ben)  # and drawn again by a run that set no value
    pin = ben.segmented_control(key=f"pin:{pile}:0")
    as_a_browser_that_missed_the_run_that_set_its_choice(pin, ["Best", "7", "11"])
    type_pile(ben, 2, "KH")
    assert totals(ben) == ["### Player 1: 3 points"]  # the old code: 9 points, unpinned
    assert "pinned to 7" in ben.segmented_control(key=f"pin:{pile_id(ben, 1)}:0").label
    assert totals(run(ann)) == ["### Player 1: 3 points"]


def lady_page(at: AppTest) -> AppTest:
    at.segmented_control(key="game").set_value("Black Lady")
    return run(at)


def test_a_black_lady_game_of_set_deals_keeps_them_as_another_phone_plays(tmp_path) -> None:
    """Ann set five deals to play and five players in a shared Black Lady game; Ben's browser
    drew the rules' list from a run that set no value: it showed its default (no set number of
    deals), and his next change sent that back, undoing Ann's five deals."""
    ann = lady_page(start(tmp_path))
    ann.session_state[sharing.share_panel_key("lady")] = True
    run(ann)
    ann.segmented_control(key="lady-count").set_value(5)
    run(ann)
    ann.selectbox(key="lady-deals-to-play:en").set_value(5)
    run(ann)
    ben = AppTest.from_file(str(APP_SCRIPT), default_timeout=TIMEOUT)
    ben.query_params.update(ann.query_params)
    ben = run(lady_page(run(ben)))  # his Black Lady page's second run: no value set again
    deals = ben.selectbox(key="lady-deals-to-play:en")
    as_a_browser_that_missed_the_run_that_set_its_choice(deals, list(range(lt.MAX_DEALS + 1)))
    count = ben.segmented_control(key="lady-count")
    as_a_browser_that_missed_the_run_that_set_its_choice(count, list(range(3, 10)))
    ben.toggle(key="lady-ace10").set_value(True)
    run(ben)
    for page in (ben, run(ann)):
        game = page.session_state["lady"]
        assert (game.deals_to_play, len(game.names)) == (5, 5)  # the old code: (None, 5)
        assert game.rules.ace_hearts == 10  # his change made
        assert page.segmented_control(key="lady-count").value == 5


def choices_and_defaults(at: AppTest) -> dict[str, tuple[list[int], list[int]]]:
    """Each choice on the page (segmented controls, pills, lists): the places its value and its
    default name among its options."""
    shown = {}
    for widget in at.selectbox:
        default = [widget.proto.default] if widget.proto.HasField("default") else []
        shown[widget.key] = ([] if widget.index is None else [widget.index], default)
    for widget in at.get("button_group"):
        shown[widget.key] = (list(widget.indices), list(widget.proto.default))
    return shown


def test_a_browser_that_missed_the_run_that_set_a_choice_still_shows_the_game(
    request: pytest.FixtureRequest, tmp_path
) -> None:
    """Each choice drawn in a run that set no value holds the game's as its default: a queen's
    value, the player shown, whose a photo is, the game of the night on screen."""
    request.getfixturevalue("reader")  # before the pages load the reader
    ann = start(tmp_path)
    new_game(ann)
    type_pile(ann, 1, "KH")
    button(ann, "➕ Next game").click()
    run(ann)
    button(ann, "➕ Player").click()
    run(ann)
    type_pile(ann, 1, "QS 2C 3H 7H")
    pile = open_tools(ann, 1)
    ann.segmented_control(key=f"pin:{pile}:0").set_value("11")
    run(ann)
    uploader(ann).set_value(("piles.png", png(200), "image/png"))
    ben = run(opened(shared_link(run(ann))))
    open_tools(ben, 1)  # his Queens' panel opened: its choice drawn, set
    run(ben)  # and drawn again by a run that set no value
    shown = choices_and_defaults(ben)
    assert {"night-game", "player", f"pin:{pile_id(ben, 1)}:0"} <= set(shown)
    assert any(key.startswith("owner:") for key in shown)
    assert {key: value for key, (value, _) in shown.items()} == {
        key: default for key, (_, default) in shown.items()
    }


def test_a_browser_that_missed_the_run_that_set_a_black_lady_choice_still_shows_the_game(
    tmp_path,
) -> None:
    """The same on Black Lady's page: the deal on screen, the seat shown, the deals to play, a
    seat's "took no trick"."""
    ann = lady_page(start(tmp_path))
    ann.session_state[sharing.share_panel_key("lady")] = True
    run(ann)
    ann.selectbox(key="lady-deals-to-play:en").set_value(5)
    run(ann)
    text_input(ann, "Player 1's tricks, any order").input("KH 2S 4S")
    run(ann)
    button(ann, "➕ Next deal").click()
    run(ann)
    no_trick = next(t.key for t in ann.toggle if "took no trick" in t.label)
    ann.toggle(key=no_trick).set_value(True)
    run(ann)
    ben = AppTest.from_file(str(APP_SCRIPT), default_timeout=TIMEOUT)
    ben.query_params.update(ann.query_params)
    ben = run(lady_page(run(ben)))
    shown = choices_and_defaults(ben)
    assert {"lady-deal", "lady_seat", "lady-deals-to-play:en"} <= set(shown)
    assert {key: value for key, (value, _) in shown.items()} == {
        key: default for key, (_, default) in shown.items()
    }
    assert ben.toggle(key=no_trick).value is True
    assert ben.toggle(key=no_trick).proto.default is True


def test_a_photo_read_as_another_phones_next_game_comes_goes_to_its_game(
    request: pytest.FixtureRequest, tmp_path
) -> None:
    """Ben's photo of game 1 was still being read when Ann started game 2: it was refused
    ("upload it again", which put it in game 2)."""
    fake: FakeReader = request.getfixturevalue("reader")  # before the pages load the reader
    ann = start(tmp_path)
    type_pile(ann, 1, "QS 2C")
    ben = opened(shared_link(ann))
    player = ben.session_state.night.games[0].players[0].id
    read = fake.read

    def read_as_ann_starts_game_2(image, *, decks: int = 1):
        rooms, room = live_table.rooms(), live_table.room()
        latest = rooms.latest(room, "night")
        rooms.post(room, "night", nt.next_game(latest.game), latest.version)
        return read(image, decks=decks)

    fake.read = read_as_ann_starts_game_2
    uploader(ben).set_value(("piles.png", png(200), "image/png"))
    run(ben)
    night = ben.session_state.night
    assert night.current == 1  # game 2 on screen, as on Ann's phone
    cards = [pile.cards for pile in night.games[0].player(player).piles]
    assert cards[-2:] == [parse_pile(c) for c in ("8D 2H 8H", "KS 9C 4S")]
    assert not nt.has_cards(night.games[1])  # the old code: refused, in neither game
    assert "upload it again" not in page_text(ben)
    assert (
        "piles.png was read as the game changed on another phone: its cards went to game 1, "
        "the game it was uploaded in."
    ) in page_text(ben)
    assert run(ann).session_state.night.games[0].player(player).piles[1].cards
