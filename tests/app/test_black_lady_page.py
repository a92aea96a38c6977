"""The Black Lady page through `AppTest`: a three-player game of two deals, tricks by photo (the
stand-in reader of `fakes`) and by typing, corrected with the shared tools, the
deal checks, the score sheet and the game choice at the top."""

from __future__ import annotations

import re

import language
import pytest
import test_streamlit_app as bc
from fakes import FAKE_ROWS, read_card
from streamlit.testing.v1 import AppTest
from test_streamlit_app import (  # noqa: F401  (fixtures)
    assert_clean,
    button,
    fresh_caches,
    page_text,
    png,
    reader,
    start,
    text_input,
)

from blackcat.games.cards import Rank, parse_pile
from blackcat.tables import black_cat_table as ts
from blackcat.tables import black_lady_table as lt

ANN = "QS AH KH 5H 2H AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS KS AD"  # -68, 18 cards
BEN = (
    "3H 4H 6H 7H 8H 9H 10H JH QH 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AC 3C 4C 5C 6C 7C 8C 9C "
    "10C JC QC KC"
)  # -67, 33 cards
PHOTO_WIDTH = 240  # the stand-in reader's answer for a photo this wide: Ann's tricks, misread


def ann_as_read() -> tuple[tuple, ...]:
    """Ann's 18 cards in two rows, her 5♥ read as a doubtful 5♦ (5♥ its next guess), and a
    doubtful 2♣ that isn't there at all (a phantom)."""
    codes = ANN.split()
    reads = [read_card(code) for code in codes]
    reads[codes.index("5H")] = read_card("5D", 0.41, "5H", "6D")
    reads.insert(6, read_card("2C", 0.3, "2S", "3C"))
    return tuple(reads[:10]), tuple(reads[10:])


@pytest.fixture
def lady(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, tmp_path) -> AppTest:
    request.getfixturevalue("reader")  # the stand-in photo reader of test_streamlit_app
    monkeypatch.setitem(FAKE_ROWS, PHOTO_WIDTH, ann_as_read())
    at = start(tmp_path)
    at.segmented_control(key="game").set_value("Black Lady")
    return run(at)


def run(at: AppTest) -> AppTest:
    at.run()
    assert_clean(at)
    return at


def sheet(at: AppTest) -> str:
    return next(m.value for m in at.markdown if 'class="bl-sheet"' in m.value)


def sheet_rows(at: AppTest) -> dict[str, list[str]]:
    """The score sheet, a row a player: their total, then their points in each deal."""
    rows = re.findall(
        r'<th scope="row" class="name">([^<]*)</th><td class="tot[^"]*">([^<]*)'
        r'(?:<span class="sr">[^<]*</span>)?</td>(.*?)</tr>',
        sheet(at),
    )
    return {
        name: [total, *re.findall(r"<td[^>]*>([^<]*)</td>", cells)] for name, total, cells in rows
    }


def leader(at: AppTest) -> str:
    return next(m.value for m in at.markdown if 'class="bc-result"' in m.value)


def choose(at: AppTest, seat: int) -> AppTest:
    at.segmented_control(key="lady_seat").set_value(seat)
    return run(at)


def type_tricks(at: AppTest, name: str, text: str) -> AppTest:
    text_input(at, f"{name}'s tricks, any order").input(text)
    return run(at)


def uploader(at: AppTest):
    found = [u for u in at.file_uploader if str(u.key).startswith("lady:")]
    assert len(found) == 1, [u.key for u in at.file_uploader]
    return found[0]


def rename(at: AppTest, seat: int, name: str) -> None:
    text_input(at, f"Seat {seat + 1}").input(name)
    run(at)


def test_the_game_is_chosen_at_the_top_and_black_cat_stays_as_it_was(tmp_path) -> None:
    at = start(tmp_path)
    assert at.segmented_control(key="game").value == "Black Cat"
    assert any("Black Cat score" in m.value for m in at.markdown)
    at.segmented_control(key="game").set_value("Black Lady")
    run(at)
    assert any("Black Lady score" in m.value for m in at.markdown)
    assert not any('class="bc-board"' in m.value for m in at.markdown)
    at.segmented_control(key="game").set_value("Black Cat")
    run(at)
    assert bc.totals(at) == ["### Example: 36 points"]  # the Black Cat table kept its state


def test_black_lady_opens_with_the_players_named_in_black_cat(tmp_path) -> None:
    at = start(tmp_path)
    bc.new_game(at)
    text_input(at, "Name").input("Ann")
    run(at)
    button(at, "➕ Player").click()
    run(at)
    text_input(at, "Name").input("Ben")
    run(at)
    at.segmented_control(key="game").set_value("Black Lady")
    run(at)
    assert at.session_state["lady"].names == ("Ann", "Ben", "Player 3")


def test_a_three_player_game_of_two_deals_by_photo_and_typing(lady: AppTest) -> None:
    for seat, name in enumerate(("Ann", "Ben", "Cat")):
        rename(lady, seat, name)
    assert list(sheet_rows(lady)) == ["Ann", "Ben", "Cat"]
    assert "2♣ set aside, 17 cards each" in page_text(lady)

    # Ann: a photo of her tricks, spread in two rows
    uploader(lady).set_value(("ann.png", png(PHOTO_WIDTH), "image/png"))
    run(lady)
    assert any("ann.png: 19 cards, given to Ann" in s.value for s in lady.success)
    assert any("Then Ben's tricks." in s.value for s in lady.success)
    assert text_input(lady, "Ann's tricks, any order").value.split()[:7] == [
        "QS", "AH", "KH", "5D", "2H", "AS", "2C"
    ]  # fmt: skip
    # Ben typed, Cat took no trick
    choose(lady, 1)
    type_tricks(lady, "Ben", BEN.lower().replace("10", "T"))
    assert any("ann.png: 19 cards" in s.value for s in lady.success)
    assert not any("Then Ben's" in s.value for s in lady.success)  # they are in now
    choose(lady, 2)
    lady.toggle(key=next(t.key for t in lady.toggle if "took no trick" in t.label)).set_value(True)
    run(lady)

    # the checks point at the misread cards and whose photo to look at
    warning = "\n".join(w.value for w in lady.warning)
    assert "5♦ is in the tricks of Ann and Ben" in warning
    assert "2♣ is set aside with 3 players but is in Ann's tricks" in warning
    assert "Ann has 19 cards" in warning
    assert "5♥ is in nobody's tricks" in warning
    assert ">1 ⚠️</th>" in sheet(lady)
    assert "No leader yet: deal 1 must pass its checks first" in leader(lady)

    # fix them with the reader's next guess and "not a card"
    choose(lady, 0)
    button(lady, ":red[5♥] 30%").click()
    run(lady)
    button(lady, "✗ Not a card").click()
    run(lady)
    assert not lady.warning
    assert any("Every check passes" in s.value for s in lady.success)
    assert sheet_rows(lady) == {"Ann": ["−68", "−68"], "Ben": ["−67", "−67"], "Cat": ["+50", "+50"]}

    # deal 2, all typed: Ann took no trick, Ben took Ann's cards of deal 1, Cat Ben's
    button(lady, "➕ Next deal").click()
    run(lady)
    assert "### Deal 2" in page_text(lady)
    lady.toggle(key=next(t.key for t in lady.toggle if "took no trick" in t.label)).set_value(True)
    run(lady)
    choose(lady, 1)
    type_tricks(lady, "Ben", ANN)
    choose(lady, 2)
    type_tricks(lady, "Cat", BEN)
    assert any("Every check passes" in s.value for s in lady.success)
    assert sheet_rows(lady) == {
        "Ann": ["−18", "−68", "+50"],
        "Ben": ["−135", "−67", "−68"],
        "Cat": ["−17", "+50", "−67"],
    }
    assert '<td class="tot win">−17<span class="sr"> (leads)</span></td>' in sheet(lady)
    assert "🏆 Cat leads with −17 after 2 deals." in leader(lady)

    # the first deal is still there to look at and fix
    lady.segmented_control(key="lady-deal").set_value(0)
    run(lady)
    assert "### Deal 1" in page_text(lady)


@pytest.fixture
def a_5d_in_doubt(lady: AppTest, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """Player 1's photo read, its first card a 5♦ in doubt (else 2♣, else 5♥)."""
    rows = ((read_card("5D", 0.41, "2C", "5H"), *ann_as_read()[0][1:]), ann_as_read()[1])
    monkeypatch.setitem(FAKE_ROWS, PHOTO_WIDTH, rows)
    uploader(lady).set_value(("ann.png", png(PHOTO_WIDTH), "image/png"))
    return run(lady)


def test_a_doubtful_cards_guesses_leave_out_the_cards_set_aside(a_5d_in_doubt: AppTest) -> None:
    """With three players the 2♣ is set aside: it is nobody's trick, so never a fix to offer."""
    lady = a_5d_in_doubt
    offered = [b.key for b in lady.button if str(b.key).startswith("alt:")]
    assert any(key.endswith(":0:5H") for key in offered), offered
    assert not any(key.endswith(":2C") for key in offered), offered


def test_a_guess_in_another_players_tricks_says_whose(a_5d_in_doubt: AppTest) -> None:
    """One deck has one 5♥: in Player 2's tricks, it is why a tap on it makes a duplicate."""
    lady = a_5d_in_doubt
    choose(lady, 1)
    type_tricks(lady, "Player 2", "KC 5H 7S")
    choose(lady, 0)
    offered = [b.label for b in lady.button if str(b.key).endswith(":0:5H")]
    assert offered == [":red[5♥] 30% (also Player 2 2)"]


def test_a_photos_note_names_the_player_as_now_named(lady: AppTest) -> None:
    for seat, name in enumerate(("Ann", "Ben", "Cat")):
        rename(lady, seat, name)
    uploader(lady).set_value(("ann.png", png(PHOTO_WIDTH), "image/png"))
    run(lady)
    assert any("ann.png: 19 cards, given to Ann" in s.value for s in lady.success)
    rename(lady, 0, "Anna")
    assert any("ann.png: 19 cards, given to Anna" in s.value for s in lady.success)


def tricks_by_name(at: AppTest) -> dict[str, str]:
    now = at.session_state["lady"]
    return {
        name: " ".join(card.code for card in now.deal.tricks(seat).cards)
        for seat, name in enumerate(now.names)
    }


def test_a_photo_given_just_before_another_seat_is_tapped_is_the_seat_showns(
    lady: AppTest,
) -> None:
    # the tap comes in the run that brings the photo (its own cut short, or never begun)
    for seat, name in enumerate(("Ann", "Ben", "Cat")):
        rename(lady, seat, name)
    uploader(lady).set_value(("ann.png", png(160), "image/png"))  # QS 2C, no doubt
    lady.segmented_control(key="lady_seat").set_value(2)
    run(lady)
    assert tricks_by_name(lady) == {"Ann": "QS 2C", "Ben": "", "Cat": ""}
    assert any("ann.png: 2 cards, given to Ann." in s.value for s in lady.success)
    assert lady.session_state["lady_seat"] == 1  # moved on from Ann's, as after any photo
    uploader(lady).set_value(("ben.png", png(160, 100), "image/png"))  # the next, Ben's
    run(lady)
    assert tricks_by_name(lady)["Ben"] == "QS 2C"


def test_a_photo_whose_tricks_another_phones_change_kept_out_says_so(
    lady: AppTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read while another phone's change made adding its cards impossible: nobody's tricks take
    them and the page says so (it said nothing, and moved on to the next seat)."""

    def refused_meanwhile(*_args: object, **_kwargs: object) -> lt.LadyGame:
        raise ts.TableError("that player is no longer at the table")

    with monkeypatch.context() as patched:
        patched.setattr(lt, "add_photo", refused_meanwhile)
        uploader(lady).set_value(("ann.png", png(160), "image/png"))
        run(lady)
    assert [w.value for w in lady.warning if "ann.png" in w.value] == [
        "ann.png was read as the game changed on another phone: upload it again to give out its "
        "cards (it reads at once now)."
    ]
    assert tricks_by_name(lady) == {"Player 1": "", "Player 2": "", "Player 3": ""}
    assert lady.session_state["lady_seat"] == 0  # not moved on
    uploader(lady).set_value(("ann.png", png(160), "image/png"))
    run(lady)
    assert tricks_by_name(lady)["Player 1"] == "QS 2C"


def test_a_doubtful_card_opens_the_list_of_every_card_in_one_tap(lady: AppTest) -> None:
    uploader(lady).set_value(("ann.png", png(PHOTO_WIDTH), "image/png"))
    run(lady)
    pile = lady.session_state["lady"].deal.tricks(0)
    doubtful = [position for position, slot in enumerate(pile.slots) if slot.doubtful]
    next(b for b in lady.button if b.label == "✎ Another card").click()
    run(lady)
    assert lady.session_state[f"sel:{pile.id}"] == doubtful[0]
    assert lady.session_state[f"lady-fix:{pile.id}"] is True
    assert bc.card_list(lady, pile.id).value == pile.slots[doubtful[0]].card


def test_a_photo_of_tricks_is_said_to_a_screen_reader_as_numbered_as_the_tricks(
    lady: AppTest,
) -> None:
    uploader(lady).set_value(("ann.png", png(PHOTO_WIDTH), "image/png"))  # a card in doubt
    run(lady)
    said = [image.alt for shown in lady.get("image") for image in shown.proto.imgs]
    # were "as in the piles below", on a page of tricks
    assert said == ["The photo, each card read boxed and numbered as in the tricks below"]


def test_typed_tricks_move_the_page_on_to_the_next_player_whose_tricks_are_not_in(
    lady: AppTest,
) -> None:
    choose(lady, 1)
    type_tricks(lady, "Player 2", "KH 2S 4S")
    assert lady.session_state["lady_seat"] == 2
    assert [t.value for t in lady.toast] == ["Player 2's tricks are in. Next: Player 3's tricks."]
    type_tricks(lady, "Player 3", "")  # nothing typed: nothing in, no move
    assert lady.session_state["lady_seat"] == 2
    type_tricks(lady, "Player 3", "3D")
    assert lady.session_state["lady_seat"] == 0  # round the table
    choose(lady, 1)
    type_tricks(lady, "Player 2", "KH 2S")  # a fix of tricks already in stays
    assert lady.session_state["lady_seat"] == 1


def test_a_picked_cards_rank_and_suit_change_under_the_tricks_in_one_tap(lady: AppTest) -> None:
    type_tricks(lady, "Player 1", "5C 6C 7C")
    choose(lady, 0)  # typed, the page moved on to Player 2
    pile = lady.session_state["lady"].deal.tricks(0)
    lady.session_state[f"sel:{pile.id}"] = 1
    run(lady)
    ranks = [c for c in lady.segmented_control if str(c.key).startswith("to-rank:")]
    assert [c.key for c in ranks] == [f"to-rank:{pile.id}:1:6C"]  # once, not in the editor too
    assert any("**Card 2 (6♣)** picked: change it, or give it" in c.value for c in lady.caption)
    ranks[0].set_value(Rank.THREE)
    run(lady)
    assert lady.session_state["lady"].deal.tricks(0).cards == parse_pile("5C 3C 7C")
    assert any("**Card 2 (3♣)** fixed: tap another card" in c.value for c in lady.caption)


def test_a_photos_note_follows_a_switch_of_language(lady: AppTest) -> None:
    rename(lady, 0, "Ann")
    uploader(lady).set_value(("ann.png", png(PHOTO_WIDTH), "image/png"))
    run(lady)
    lady.segmented_control(key=language.KEY).set_value("es")
    run(lady)
    assert any("ann.png: 19 cartas, para Ann" in s.value for s in lady.success), [
        s.value for s in lady.success
    ]


def test_a_deal_started_by_mistake_is_taken_off_the_sheet_once_asked(lady: AppTest) -> None:
    type_tricks(lady, "Player 1", "QS AH")
    bc.button(lady, "➕ Next deal").click()
    run(lady)
    assert [len(row) for row in sheet_rows(lady).values()] == [3, 3, 3]  # total, two deals
    # "🗑 Remove deal 2" asks: two quick taps removed deal 2 and the deal after it
    bc.button(lady, "Yes, remove deal 2").click()
    run(lady)
    assert [len(row) for row in sheet_rows(lady).values()] == [2, 2, 2]
    assert [t.value for t in lady.toast] == ["Deal 2 is off the score sheet. ↶ Undo takes it back."]
    assert text_input(lady, "Player 1's tricks, any order").value == "QS AH"  # deal 1 on screen
    bc.button(lady, "↶ Undo").click()
    run(lady)
    assert [len(row) for row in sheet_rows(lady).values()] == [3, 3, 3]
    assert [t.value for t in lady.toast] == ["Deal 2 is back on the score sheet."]


def test_a_new_deal_starts_at_the_first_players_tricks(lady: AppTest) -> None:
    # the last player's tricks stayed on screen, for the new deal's first to be typed there
    type_tricks(lady, "Player 1", "QS AH")
    choose(lady, 2)
    type_tricks(lady, "Player 3", "2H")
    bc.button(lady, "➕ Next deal").click()
    run(lady)
    assert lady.session_state["lady_seat"] == 0
    assert text_input(lady, "Player 1's tricks, any order").value == ""


def test_a_game_of_a_set_number_of_deals_names_its_winner_at_the_end(lady: AppTest) -> None:
    choice = lady.selectbox(key="lady-deals-to-play:en")
    assert choice.value == 0 and choice.format_func(0).startswith("no set number of deals")
    choice.set_value(2)
    run(lady)
    type_tricks(lady, "Player 1", "QS AH")
    choose(lady, 1)
    type_tricks(lady, "Player 2", "KH 2H")
    choose(lady, 2)
    no_trick = next(t.key for t in lady.toggle if "took no trick" in t.label)
    lady.toggle(key=no_trick).set_value(True)
    run(lady)
    assert "deal 1 must pass its checks" in leader(lady)  # three hands of a 51-card deal
    assert not bc.button(lady, "➕ Next deal").disabled
    bc.button(lady, "➕ Next deal").click()
    run(lady)
    assert bc.button(lady, "➕ Next deal").disabled  # the last deal of the game
    # why, in words a touch screen shows (its tooltip is a mouse's)
    ends = "The game ends after 2 deals: more in ⚙️ Rules, below"
    assert [c.value for c in lady.caption if c.value == ends] == [ends]
    game = lady.session_state["lady"]
    assert game.deals_to_play == 2 and len(game.deals) == 2
    lady.selectbox(key="lady-deals-to-play:en").set_value(0)  # played on after all
    run(lady)
    assert not bc.button(lady, "➕ Next deal").disabled


def test_a_game_of_one_deal_says_so_in_the_singular(lady: AppTest) -> None:
    type_tricks(lady, "Player 1", "QS AH")
    lady.selectbox(key="lady-deals-to-play:en").set_value(1)
    run(lady)
    assert bc.button(lady, "➕ Next deal").disabled
    ends = "The game ends after 1 deal: more in ⚙️ Rules, below"  # was "1 deals"
    assert [c.value for c in lady.caption if c.value.startswith("The game ends")] == [ends]


def test_a_seat_whose_tricks_are_to_come_says_so_in_words(lady: AppTest) -> None:
    type_tricks(lady, "Player 1", "QS AH 3C")
    # "Player 2 …" looked like a name cut off at a phone's width
    assert lady.segmented_control(key="lady_seat").options == [
        "Player 1 ✓",
        "Player 2 (not in yet)",
        "Player 3 (not in yet)",
    ]


def test_a_seats_marks_are_in_the_pages_language(lady: AppTest) -> None:
    lady.segmented_control(key=language.KEY).set_value("es")
    run(lady)
    choose(lady, 2)
    lady.toggle(key=next(t.key for t in lady.toggle if "ninguna baza" in t.label)).set_value(True)
    run(lady)
    assert lady.segmented_control(key="lady_seat").options == [
        "Jugador 1 (pendiente)",
        "Jugador 2 (pendiente)",
        "Jugador 3 ✓ ninguna baza",  # it said "✓ no trick"
    ]


def test_players_the_app_named_follow_the_pages_language_and_typed_names_stay(
    lady: AppTest,
) -> None:
    rename(lady, 0, "Ann")
    lady.segmented_control(key=language.KEY).set_value("es")
    run(lady)
    lady.segmented_control(key="lady-count").set_value(5)
    run(lady)
    assert lady.session_state["lady"].names == ("Ann", *(f"Jugador {n}" for n in range(2, 6)))
    text_input(lady, "Asiento 5").input("Player 7")  # typed so: a name as any other, kept
    run(lady)
    assert lady.session_state["lady"].names[4] == "Player 7"
    text_input(lady, "Asiento 5").input("Jugador 5")  # typed too: kept as typed, in English
    run(lady)
    lady.segmented_control(key=language.KEY).set_value("en")
    run(lady)
    names = ("Ann", *(f"Player {n}" for n in range(2, 5)), "Jugador 5")
    assert lady.session_state["lady"].names == names
    assert [lady.text_input(key=f"lady-name:{seat}").value for seat in range(2)] == [
        "Ann",
        "Player 2",
    ]


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("tiny.png", png(10, 10), "is only 10×10 pixels, too small to read"),
        ("cut.jpg", bc.jpeg(400, 300)[:300], "could not be decoded: it may be cut short"),
    ],
    ids=["tiny", "cut-short"],
)
def test_a_bad_photo_of_tricks_gets_black_cats_friendly_message(
    lady: AppTest, name: str, data: bytes, message: str
) -> None:
    """The photo input is Black Cat's own: the same one-line messages, nothing added."""
    uploader(lady).set_value((name, data, "image/jpeg"))
    run(lady)
    assert any(message in e.value and name in e.value for e in lady.error), [
        e.value for e in lady.error
    ]
    assert text_input(lady, "Player 1's tricks, any order").value == ""


def test_the_photo_inputs_are_black_cats(lady: AppTest) -> None:
    """As on Black Cat's page: upload, which offers a phone's camera, and this device's camera
    behind a toggle."""
    assert uploader(lady).label.startswith("Upload photos or take one")
    camera = next(t for t in lady.toggle if str(t.key).endswith("camera_on"))
    assert camera.label == "Use this device's camera here"


def test_a_typo_is_explained_and_the_ace_switch(lady: AppTest) -> None:
    type_tricks(lady, "Player 1", "QS AH XX")
    assert any("“XX” (card 3) isn't a card" in e.value for e in lady.error)
    type_tricks(lady, "Player 1", "QS AH 3C")
    assert not lady.error
    assert sheet_rows(lady)["Player 1"] == ["−51", "−51"]
    assert "Player 1 has 3 cards" not in page_text(lady)  # a whole trick of three
    lady.toggle(key="lady-ace10").set_value(True)
    run(lady)
    assert sheet_rows(lady)["Player 1"] == ["−50", "−50"]


def test_players_are_set_up_first_and_fixed_once_a_deal_has_cards(lady: AppTest) -> None:
    texts = [m.value for m in lady.markdown]  # in the page's order
    setup = next(i for i, value in enumerate(texts) if "Who plays?" in value)
    assert setup < next(i for i, value in enumerate(texts) if 'class="bl-sheet"' in value)
    lady.segmented_control(key="lady-count").set_value(4)
    run(lady)
    assert list(sheet_rows(lady)) == ["Player 1", "Player 2", "Player 3", "Player 4"]
    assert "4 players: no card set aside, 13 cards each" in page_text(lady)
    type_tricks(lady, "Player 1", "QS")
    assert not [c for c in lady.segmented_control if c.key == "lady-count"]  # asked once
    rename(lady, 1, "Player 1")  # a name already taken is refused, the old one stays
    assert "Player 2" in sheet_rows(lady)


def test_how_we_score_has_the_rules_and_the_set_aside_table(lady: AppTest) -> None:
    how = next(e for e in lady.expander if "How we score Black Lady" in e.label)
    text = "\n".join(m.value for m in how.markdown)
    for words in ("−40", "+50", "−135", "Our decisions", "2♣ 2♦ 2♠ 3♣ 3♦ 3♠ 4♣", "took no trick"):
        assert words in text


# ---------------------------------------------------------------------------------------------
# The game in the address, and fixes in one or two taps


def test_a_photo_lost_in_a_restart_and_uploaded_again_keeps_its_tricks_once(
    lady: AppTest,
) -> None:
    rename(lady, 0, "Ann")
    uploader(lady).set_value(("ann.png", png(PHOTO_WIDTH), "image/png"))
    run(lady)
    tricks = text_input(lady, "Ann's tricks, any order").value
    choose(lady, 1)
    bc.restart()
    again = bc.reload(lady)
    again.segmented_control(key="game").set_value("Black Lady")
    run(again)
    assert len(again.image) == 0  # the photo is gone, its cards are kept as typed
    uploader(again).set_value(("ann.png", png(PHOTO_WIDTH), "image/png"))  # on Player 2's page
    run(again)
    assert text_input(again, "Ann's tricks, any order").value == tricks  # once, not twice
    assert len(again.image) == 1  # Ann's page, with the photo and its doubts back
    assert any("looks like" in m.value for m in again.markdown)
    assert any("ann.png is back" in i.value for i in again.info)


def test_the_game_comes_back_from_its_address_with_photo_doubts_and_undo(lady: AppTest) -> None:
    rename(lady, 0, "Ann")
    uploader(lady).set_value(("ann.png", png(PHOTO_WIDTH), "image/png"))
    run(lady)
    choose(lady, 1)
    type_tricks(lady, "Player 2", "KH 2S 4S")
    assert "lady" in lady.query_params
    again = bc.reload(lady)  # a new session, the same address: it opens on the game it holds
    again.segmented_control(key="game").set_value("Black Lady")
    run(again)
    assert sheet_rows(again) == sheet_rows(lady)
    # on screen: Player 3, whose tricks came next once Player 2's were typed
    assert text_input(again, "Player 3's tricks, any order").value == ""
    choose(again, 1)
    assert text_input(again, "Player 2's tricks, any order").value == "KH 2S 4S"
    choose(again, 0)
    assert text_input(again, "Ann's tricks, any order").value.split()[:7] == [
        "QS", "AH", "KH", "5D", "2H", "AS", "2C"
    ]  # fmt: skip
    assert any("looks like" in m.value for m in again.markdown)  # the reader's doubts too
    assert len(again.image) == 1  # and the photo with its boxes
    assert not button(again, "↶ Undo").disabled  # the undo history came along
    button(again, "↶ Undo").click()
    run(again)
    choose(again, 1)
    assert text_input(again, "Player 2's tricks, any order").value == ""


def test_a_card_moves_to_another_players_tricks_in_two_taps(lady: AppTest) -> None:
    type_tricks(lady, "Player 1", "QS AH 3C 2H")
    choose(lady, 0)
    pile = next(p.key for p in lady.pills if str(p.key).startswith("sel:"))
    lady.pills(key=pile).set_value(3)  # tap the card
    run(lady)
    places = lady.pills(key=f"move:{pile.split(':')[1]}:3")
    assert places.options == ["→ Player 2", "→ Player 3"]
    places.set_value(1)  # tap whose tricks it is in
    run(lady)
    assert text_input(lady, "Player 1's tricks, any order").value == "QS AH 3C"
    choose(lady, 2)
    assert text_input(lady, "Player 3's tricks, any order").value == "2H"


def test_a_photos_cards_moved_to_another_player_are_named_on_its_take_off_button(
    lady: AppTest,
) -> None:
    # under Player 2's tricks the button took Player 1's cards of the photo too, unsaid
    uploader(lady).set_value(("ann.png", png(PHOTO_WIDTH), "image/png"))
    run(lady)
    pile = next(p.key for p in lady.pills if str(p.key).startswith("sel:"))
    lady.pills(key=pile).set_value(0)
    run(lady)
    lady.pills(key=f"move:{pile.split(':')[1]}:0").set_value(0)  # → Player 2
    run(lady)
    assert [b.label for b in lady.button if b.key.startswith("remove-photo:")] == [
        "Take this photo's cards off, Player 2's too"
    ]
    choose(lady, 1)
    assert [b.label for b in lady.button if b.key.startswith("remove-photo:")] == [
        "Take this photo's cards off, Player 1's too"
    ]


def test_a_photos_note_goes_with_its_cards(lady: AppTest) -> None:
    # "ann.png: 19 cards, given to Player 1" stayed after the photo's cards were taken off
    uploader(lady).set_value(("ann.png", png(PHOTO_WIDTH), "image/png"))
    run(lady)
    assert any("ann.png: 19 cards" in s.value for s in lady.success)
    choose(lady, 0)
    next(b for b in lady.button if b.key.startswith("remove-photo:")).click()
    run(lady)
    assert text_input(lady, "Player 1's tricks, any order").value == ""
    assert not any("ann.png" in s.value for s in lady.success)


def test_a_broken_link_opens_a_new_game_with_a_word_why(tmp_path) -> None:
    at = AppTest.from_file(str(bc.APP_SCRIPT), default_timeout=bc.TIMEOUT)
    at.query_params["lady"] = "2not-a-game"
    run(at)
    at.segmented_control(key="game").set_value("Black Lady")
    run(at)
    assert any("can't be read" in w.value and "new game" in w.value for w in at.warning)
    assert list(sheet_rows(at)) == ["Player 1", "Player 2", "Player 3"]


def test_a_photo_given_to_the_wrong_player_says_how_it_goes_to_the_right_one(
    lady: AppTest,
) -> None:
    # "ann.png is already in this deal (Player 1's tricks)." said nothing of what to do
    uploader(lady).set_value(("ann.png", png(PHOTO_WIDTH), "image/png"))  # to Player 1
    run(lady)
    choose(lady, 1)
    uploader(lady).set_value(("ann.png", png(PHOTO_WIDTH), "image/png"))  # Player 2's, in fact
    run(lady)
    assert any(
        i.value
        == "ann.png is already in this deal (Player 1's tricks). If it shows Player 2's tricks: "
        "under Player 1's tricks, tap *Take this photo's cards off*, then upload it again for "
        "Player 2."
        for i in lady.info
    ), [i.value for i in lady.info]
    choose(lady, 0)
    next(b for b in lady.button if b.key.startswith("remove-photo:")).click()
    run(lady)
    choose(lady, 1)
    uploader(lady).set_value(("ann2.png", png(PHOTO_WIDTH), "image/png"))
    run(lady)
    assert tricks_by_name(lady)["Player 1"] == ""
    assert len(tricks_by_name(lady)["Player 2"].split()) == 19


def test_a_player_who_took_no_trick_is_not_waited_for(lady: AppTest) -> None:
    # "Player 1: +50 (took no trick) · 0 cards" came with "No cards yet." under it
    assert "No cards yet." in page_text(lady)
    lady.toggle(key=next(t.key for t in lady.toggle if "took no trick" in t.label)).set_value(True)
    run(lady)
    assert "**Player 1: +50 (took no trick)** · 0 cards" in page_text(lady)
    assert "No cards yet." not in page_text(lady)


def test_a_set_aside_card_in_the_tricks_is_marked_red(lady: AppTest) -> None:
    # the check named the 2♣ of three players' tricks, but the card itself was drawn plain
    type_tricks(lady, "Player 1", "3C 2C 4C")
    assert "2♣ is set aside with 3 players" in "\n".join(w.value for w in lady.warning)
    choose(lady, 0)  # the page moved on to Player 2's tricks
    strip = next(m.value for m in lady.markdown if 'class="bl-tricks"' in m.value)
    cells = re.findall(r'<div class="bc-card([^"]*)"', strip)
    assert ["bc-dup" in cell for cell in cells] == [False, True, False], cells
    assert "on the table too often" in page_text(lady)


def test_a_player_who_took_no_trick_is_told_how_to_undo_it_not_how_to_photograph(
    lady: AppTest,
) -> None:
    assert uploader(lady) and "Spread the cards of the player's tricks out" in page_text(lady)
    no_trick = next(t.key for t in lady.toggle if "took no trick" in t.label)
    lady.toggle(key=no_trick).set_value(True)
    run(lady)
    # the photo instructions and the uploader stayed: nothing to photograph
    assert not [u for u in lady.file_uploader if str(u.key).startswith("lady:")]
    assert "Spread the cards of the player's tricks out" not in page_text(lady)
    undo = (
        "Player 1 took no trick: nothing to photograph. To undo it, switch off "
        "*Player 1 took no trick (+50)* below."
    )
    assert [c.value for c in lady.caption if "nothing to photograph" in c.value] == [undo]
    lady.toggle(key=no_trick).set_value(False)
    run(lady)
    assert uploader(lady) and "nothing to photograph" not in page_text(lady)


def test_a_player_who_took_no_trick_shows_no_uploader_yet_a_photo_given_just_before_is_read(
    lady: AppTest,
) -> None:
    # the photo a tap on them cut short still goes to the player shown with it (photo_input's
    # left_behind): their page draws no uploader, which Streamlit then forgets with its files
    for seat, name in enumerate(("Ann", "Ben", "Cat")):
        rename(lady, seat, name)
    choose(lady, 2)
    lady.toggle(key=next(t.key for t in lady.toggle if "took no trick" in t.label)).set_value(True)
    run(lady)
    assert not [u for u in lady.file_uploader if str(u.key).startswith("lady:")]
    choose(lady, 0)
    uploader(lady).set_value(("ann.png", png(160), "image/png"))  # QS 2C, no doubt
    lady.segmented_control(key="lady_seat").set_value(2)
    run(lady)
    assert tricks_by_name(lady) == {"Ann": "QS 2C", "Ben": "", "Cat": ""}
    assert any("ann.png: 2 cards, given to Ann." in s.value for s in lady.success)
