"""The Streamlit app through `AppTest`: every run is a real run of the script, widgets and all.

The app is pointed at an empty models folder, so it behaves as it does before the trained
weights exist: the example piles are typed in and photos are checked but not read. Reading a
photo is driven with a stand-in reader (`FakeReader`) that returns known piles, which tests the
app's photo handling (placing rows, doubtful cards, reading once, bad files) without the models;
`test_app_photos.py` runs the same paths with the real weights.
"""

from __future__ import annotations

import html
import io
import re
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path

import game_state
import numpy as np
import pytest
import sharing
import streamlit as st
from fakes import BLURRED, GRID, FakeReader
from PIL import Image
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Button, Expander, TextInput

from blackcat.games.cards import ALL_CARDS, Card, Rank, Suit, parse_card
from blackcat.tables import black_cat_night as nt
from blackcat.tables import black_cat_table as ts
from blackcat.vision import reader as vision_reader

APP_SCRIPT = Path(__file__).resolve().parents[2] / "app" / "streamlit_app.py"
TIMEOUT = 60


# ---------------------------------------------------------------------------------------------
# Helpers


def png(width: int = 200, height: int = 120) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(np.full((height, width, 3), 200, dtype=np.uint8)).save(buffer, "PNG")
    return buffer.getvalue()


def jpeg(width: int = 200, height: int = 120) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(np.full((height, width, 3), 90, dtype=np.uint8)).save(buffer, "JPEG")
    return buffer.getvalue()


def png_claiming(width: int, height: int) -> bytes:
    """A PNG whose header says it is `width`×`height` (far too big to decode)."""
    data = png(4, 4)
    header = b"IHDR" + struct.pack(">II", width, height) + data[24:29]
    return data[:12] + header + struct.pack(">I", zlib.crc32(header)) + data[33:]


def start(models: Path) -> AppTest:
    at = AppTest.from_file(str(APP_SCRIPT), default_timeout=TIMEOUT)
    at.run()
    assert_clean(at)
    return at


def assert_clean(at: AppTest) -> None:
    """No exception and no traceback on the page."""
    assert not at.exception, [e.value for e in at.exception]


def page_text(at: AppTest) -> str:
    parts = [m.value for m in at.markdown]
    for kind in (at.info, at.warning, at.error, at.success, at.caption):
        parts += [e.value for e in kind]
    return "\n".join(parts)


def uploader(at: AppTest):
    """Black Cat's uploader (a new one after each batch of files)."""
    found = [u for u in at.file_uploader if str(u.key).startswith("uploads:")]
    assert len(found) == 1, [u.key for u in at.file_uploader]
    return found[0]


def card_list(at: AppTest, pile_id: int, language: str = "en"):
    """The picked card's list of every card (keyed by the card it opens at)."""
    found = [b for b in at.selectbox if str(b.key).startswith(f"change:{pile_id}:{language}:")]
    assert len(found) == 1, [b.key for b in at.selectbox]
    return found[0]


def button(at: AppTest, label: str) -> Button:
    matches = [b for b in at.button if b.label == label]
    assert matches, f"no button {label!r}: {[b.label for b in at.button]}"
    return matches[0]


def text_input(at: AppTest, label: str) -> TextInput:
    matches = [t for t in at.text_input if t.label == label]
    assert matches, f"no text input {label!r}: {[t.label for t in at.text_input]}"
    return matches[0]


def scoreboard(at: AppTest) -> str:
    return next(m.value for m in at.markdown if 'class="bc-board"' in m.value)


def totals(at: AppTest) -> list[str]:
    """The players' headings: `Ann: 9 points`."""
    return [m.value for m in at.markdown if m.value.startswith("### ") and " point" in m.value]


def type_pile(at: AppTest, pile: int, text: str) -> AppTest:
    text_input(at, f"Pile {pile}, left to right").input(text)
    at.run()
    assert_clean(at)
    return at


def new_game(at: AppTest) -> AppTest:
    button(at, "Yes, a new game").click()  # "New game" opens the question; this answers it
    at.run()
    assert_clean(at)
    return at


def pile_cards(at: AppTest, pile: int) -> str:
    return text_input(at, f"Pile {pile}, left to right").value


# ---------------------------------------------------------------------------------------------
# A stand-in photo reader


@pytest.fixture(autouse=True)
def fresh_caches(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """No weights (an empty models folder) and no cached reads from another test."""
    empty = tmp_path / "no-models"
    empty.mkdir()
    monkeypatch.setenv("BLACKCAT_MODELS_DIR", str(empty))
    st.cache_data.clear()
    st.cache_resource.clear()
    yield
    st.cache_data.clear()
    st.cache_resource.clear()


@pytest.fixture
def app(tmp_path: Path) -> AppTest:
    return start(tmp_path)


@pytest.fixture
def reader(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> FakeReader:
    """Weights files present, and `CardReader.load` giving the stand-in reader."""
    models = tmp_path / "models"
    models.mkdir()
    for name in (vision_reader.DETECTOR_FILE, vision_reader.CLASSIFIER_FILE):
        (models / name).write_bytes(b"stand-in")
    monkeypatch.setenv("BLACKCAT_MODELS_DIR", str(models))
    fake = FakeReader()
    loads: list[str] = []

    def load(cls: type, models_dir: Path | str = "", settings: object = None) -> FakeReader:
        loads.append(str(models_dir))
        return fake

    monkeypatch.setattr(vision_reader.CardReader, "load", classmethod(load))
    fake.loads = loads  # type: ignore[attr-defined]
    return fake


# ---------------------------------------------------------------------------------------------
# Opening


def test_opens_with_the_example_scored_and_a_note_about_the_reader(app: AppTest) -> None:
    assert "Example" in scoreboard(app) and "25 + 11" in scoreboard(app)
    assert totals(app) == ["### Example: 36 points"]
    text = page_text(app)
    assert "An example game" in text and "typed in by hand" in text
    assert "photo reader isn't available" in text
    assert not app.error
    # the photo inputs are there anyway: a valid photo gets the note, a bad one its error
    assert uploader(app).accept_multiple_files
    assert set(uploader(app).allowed_type) >= {".jpg", ".png", ".heic"}
    assert pile_cards(app, 1) == "QS 6C QH 5H 5D 8D 2S QD QC 2H 8H 7S 3H 4S 6S"


def test_every_feature_is_marked_and_listed_with_its_points(app: AppTest) -> None:
    strips = [m.value for m in app.markdown if 'class="bc-strip"' in m.value]
    assert len(strips) == 2
    # pile 1: 5 Tomcats, 2 Jellical Cats, 1 Black Cat; pile 2: 2 Tomcats, 3 Yowlers, 1 Jellical
    assert strips[0].count("bc-bar bc-tomcat") == 5
    assert strips[0].count("bc-bar bc-jellical") == 2
    assert strips[0].count("bc-bar bc-black_cat") == 1
    assert strips[1].count("bc-bar bc-tomcat") == 2
    assert strips[1].count("bc-bar bc-yowler") == 3
    assert strips[1].count("bc-bar bc-jellical") == 1
    assert "=7</span>" in strips[0]  # the chosen value of each Queen, on the card
    lists = [m.value for m in app.markdown if 'class="bc-features"' in m.value]
    assert "5 Tomcats = 15" in lists[0] and "1 Black Cat = 6" in lists[0]
    assert "2 Jellical Cats = 4" in lists[0]
    assert "2 Tomcats = 6" in lists[1] and "3 Yowlers = 3" in lists[1]
    assert "1 Jellical Cat = 2" in lists[1]


def test_how_we_score_panel_has_the_rules_and_our_decisions(app: AppTest) -> None:
    how = next(e for e in app.expander if "How we score" in e.label)
    text = "\n".join(m.value for m in how.markdown)
    for words in ("Tomcat", "Yowler", "Jellical Cat", "Black Cat", "Our decisions", "Lucky Tom"):
        assert words in text
    assert "7 when it makes no difference" in text
    assert "Nobody is named the winner until" in text


# ---------------------------------------------------------------------------------------------
# Typing and picking cards


def test_typing_cards_scores_them_and_a_typo_is_explained(app: AppTest) -> None:
    new_game(app)
    assert totals(app) == ["### Player 1: 0 points"]
    type_pile(app, 1, "qs 2♣ 3h 7H")
    assert pile_cards(app, 1) == "QS 2C 3H 7H"
    assert totals(app) == ["### Player 1: 9 points"]
    type_pile(app, 2, "KS 9C XX 4S")
    assert any("“XX” (card 3) isn't a card" in e.value for e in app.error)
    assert pile_cards(app, 2) == "KS 9C XX 4S"  # left as typed, to fix
    assert totals(app) == ["### Player 1: 9 points"]
    type_pile(app, 2, "KS 9C 4S")
    assert not app.error
    assert totals(app) == ["### Player 1: 21 points"]


def test_a_new_game_shows_its_piles_and_names_in_fields_of_their_own(app: AppTest) -> None:
    """A page may send a field's last value back with the next tap: the example's pile, sent
    back under the new game's field, would be typed into the new game."""
    before = text_input(app, "Pile 1, left to right").key, text_input(app, "Name").key
    new_game(app)
    after = text_input(app, "Pile 1, left to right").key, text_input(app, "Name").key
    assert before[0] != after[0] and before[1] != after[1]
    assert pile_cards(app, 1) == ""


def test_a_photo_taking_the_examples_place_shows_its_piles_and_names_in_fields_of_their_own(
    app: AppTest, reader: FakeReader
) -> None:
    """As a new game's: the example's pile and name, sent back by the next run (on a busy
    phone, the run that says a refused file given with the photo), were typed over the
    photo's player."""
    before = text_input(app, "Pile 1, left to right").key, text_input(app, "Name").key
    uploader(app).set_value(("piles.png", png(200), "image/png"))
    app.run()
    after = text_input(app, "Pile 1, left to right").key, text_input(app, "Name").key
    assert before[0] != after[0] and before[1] != after[1]
    assert pile_cards(app, 1) == "8D 2H 8H"


def test_a_piles_closed_panels_send_none_of_their_tools(app: AppTest) -> None:
    """A pile's editor and its Queens' panel, closed, send nothing to the browser (their pills
    were a third of the page's elements, drawn though unseen: helper-104); opened, all of it.
    A card picked with the editor closed keeps the editor's tools, and so its pick."""
    new_game(app)
    type_pile(app, 1, "QS 2C")
    pile = pile_id(app, 1)
    tools = (f"sel:{pile}", f"rank:{pile}", f"suit:{pile}")
    assert not {p.key for p in app.pills} & set(tools)
    assert f"remove-pile:{pile}" not in {b.key for b in app.button}
    assert f"pin:{pile}:0" not in {s.key for s in app.segmented_control}
    app.session_state[f"fix:{pile}"] = True
    app.session_state[f"queens:{pile}"] = True
    app.run()
    assert_clean(app)
    assert set(tools) <= {p.key for p in app.pills}
    assert f"remove-pile:{pile}" in {b.key for b in app.button}
    assert app.segmented_control(key=f"pin:{pile}:0").value == "Best"
    app.session_state[f"sel:{pile}"] = 1
    app.session_state[f"fix:{pile}"] = False  # closed with a card picked
    app.run()
    assert_clean(app)
    assert app.pills(key=f"sel:{pile}").value == 1


def test_a_new_game_starts_with_its_piles_tools_closed_and_empty(app: AppTest) -> None:
    """Its piles may take the old ones' ids: an open editor and a suit chosen to add a card
    came back with them (helper-55)."""
    new_game(app)
    type_pile(app, 1, "QS 2C")
    pile = pile_id(app, 1)
    app.session_state[f"fix:{pile}"] = True
    app.run()
    app.pills(key=f"suit:{pile}").set_value(Suit.DIAMONDS)
    app.session_state[f"sel:{pile}"] = 1
    app.run()
    new_game(app)
    assert pile_id(app, 1) == pile  # the same id: nothing of its tools may carry over
    assert not app.expander(key=f"fix:{pile}").proto.expanded  # its editor closed
    open_tools(app, 1)
    assert app.pills(key=f"suit:{pile}").value is None
    type_pile(app, 1, "KD 3C")
    assert app.pills(key=f"sel:{pile}").value is None  # no card picked in the new pile


def test_a_name_field_stops_the_typing_at_the_longest_name_taken(app: AppTest) -> None:
    assert text_input(app, "Name").max_chars == ts.MAX_NAME_LENGTH == 30


def test_nobody_wins_or_ties_before_every_player_has_a_card_down(app: AppTest) -> None:
    app.session_state["night"] = nt.Night((ts.new_table(("Ann", "Ben")),))
    app.run()
    assert_clean(app)

    def result() -> list[str]:
        return [m.value for m in app.markdown if 'class="bc-result"' in m.value]

    assert result() == []  # not "Tie: Ann and Ben, 0 points each"
    type_pile(app, 1, "QS 2C 3H 7H")
    # not "Ann wins" before Ben's piles are in
    assert result() == [
        '<div class="bc-result">⏳ Ann leads with 9 points; still to come: Ben.</div>'
    ]
    app.segmented_control(key="player").set_value(player_ids(app)[1]).run()
    type_pile(app, 1, "AS")
    assert result() == ['<div class="bc-result">🏆 Ann wins with 9 points.</div>']


def test_picking_cards_by_hand(app: AppTest) -> None:
    new_game(app)
    open_tools(app, 1)
    for rank, suit in ((Rank.KING, Suit.SPADES), (Rank.NINE, Suit.CLUBS), (Rank.FOUR, Suit.SPADES)):
        app.pills(key=f"rank:{pile_id(app, 1)}").set_value(rank)
        app.pills(key=f"suit:{pile_id(app, 1)}").set_value(suit)
        app.run()
        # its buttons brought into view: they lay just under a phone's screen (helper-62)
        scrolled = f".st-key-add-{pile_id(app, 1)}"
        assert any(scrolled in h.proto.body for h in app.get("html"))
        card = Card(rank, suit)
        expected = card.label if card.is_black else f":red[{card.label}]"
        button(app, f"➕ Add {expected} at the end").click()
        app.run()
        assert_clean(app)
    assert pile_cards(app, 1) == "KS 9C 4S"
    assert totals(app) == ["### Player 1: 12 points"]
    # insert before a chosen card
    app.pills(key=f"sel:{pile_id(app, 1)}").set_value(0)
    app.pills(key=f"rank:{pile_id(app, 1)}").set_value(Rank.ACE)
    app.pills(key=f"suit:{pile_id(app, 1)}").set_value(Suit.HEARTS)
    app.run()
    button(app, "Insert :red[A♥] before 1.1").click()
    app.run()
    assert pile_cards(app, 1) == "AH KS 9C 4S"


def player_ids(at: AppTest) -> list[int]:
    return [player.id for player in at.session_state["night"].table.players]


def pile_id(at: AppTest, pile: int, label: str = "Pile {pile}, left to right") -> int:
    key = text_input(at, label.format(pile=pile)).key
    return int(key.rsplit(":", 1)[1])  # text:GAMES_STARTED:PILE_ID


def open_tools(at: AppTest, pile: int, label: str = "Pile {pile}, left to right") -> int:
    """The pile's editor and Queens' panel opened, as a player opens them to use them (closed,
    they send none of their tools); the pile's id (`label`: its text field's, as `pile_id`)."""
    pile_key = pile_id(at, pile, label)
    at.session_state[f"fix:{pile_key}"] = True
    at.session_state[f"queens:{pile_key}"] = True
    at.run()
    assert_clean(at)
    return pile_key


# ---------------------------------------------------------------------------------------------
# Corrections


def move_to(at: AppTest, pile: int, selected: int, place: str) -> AppTest:
    """Tap the place where the tapped card goes."""
    places = at.pills(key=f"move:{pile}:{selected}")
    places.set_value(places.options.index(place))
    at.run()
    assert_clean(at)
    return at


def test_edit_a_card_then_move_delete_and_undo(app: AppTest) -> None:
    first = open_tools(app, 1)
    app.pills(key=f"sel:{first}").set_value(1)  # 1.2 = 6C
    app.run()
    card_list(app, first).set_value(parse_card("6H"))
    app.run()
    assert_clean(app)
    assert pile_cards(app, 1).startswith("QS 6H QH")
    assert totals(app) == ["### Example: 30 points"]  # the Black Cat Q♠ 6♣ is gone
    assert "An example game" not in page_text(app)  # edited: it is the player's table now
    assert app.pills(key=f"sel:{first}").value is None  # a card chosen is let go
    app.pills(key=f"sel:{first}").set_value(1)
    app.run()
    move_to(app, first, 1, "→ 1.3")  # the second tap puts it in its place
    assert pile_cards(app, 1).startswith("QS QH 6H 5H")
    assert app.pills(key=f"sel:{first}").value is None  # done: nothing tapped any more
    app.pills(key=f"sel:{first}").set_value(2)
    app.run()
    button(app, "🗑 Delete").click()
    app.run()
    assert pile_cards(app, 1).startswith("QS QH 5H")
    button(app, "↶ Undo").click()
    app.run()
    assert pile_cards(app, 1).startswith("QS QH 6H 5H")


def test_one_tap_under_a_photos_note_brings_the_first_card_to_check_into_view(
    app: AppTest, reader: FakeReader
) -> None:
    uploader(app).set_value(("piles.png", png(200), "image/png"))  # 1.2 in orange
    app.run()
    button(app, "↓ 1 card in orange").click()
    app.run()
    assert_clean(app)
    first = pile_id(app, 1)
    assert any(f".st-key-pile-{first}" in h.proto.body for h in app.get("html"))
    app.run()  # once: the next run scrolls nowhere
    assert not any(".st-key-pile-" in h.proto.body for h in app.get("html"))
    button(app, "✓ :red[2♥] is right").click()
    app.run()
    checked = button(app, "✓ No card to check")  # still there: nothing below moves up
    assert checked.disabled


def test_a_pile_with_a_card_to_check_leads_on_to_the_next_one(
    app: AppTest, reader: FakeReader
) -> None:
    uploader(app).set_value(("piles.png", png(200), "image/png"))  # 1.2 in orange
    app.run()
    uploader(app).set_value(("gap.png", png(180), "image/png"))  # pile 3, a card may be missing
    app.run()
    assert_clean(app)
    third = pile_id(app, 3)
    assert [b.label for b in app.button if b.label.startswith("↓ Next")] == [
        "↓ Next to check: pile 3"
    ]
    button(app, "↓ Next to check: pile 3").click()
    app.run()
    assert any(f".st-key-pile-{third}" in h.proto.body for h in app.get("html"))
    button(app, "✓ :red[2♥] is right").click()  # the pile's last check
    app.run()
    assert not button(app, "↓ Next to check: pile 3").disabled  # still the way on (helper-62)
    button(app, "✗ Nothing missing").click()
    app.run()
    assert_clean(app)
    assert not [b for b in app.button if b.label.startswith("↓ Next")]
    assert button(app, "✓ Nothing below to check").disabled  # in place: nothing moves up


def test_a_players_last_pile_to_check_leads_on_to_the_next_players(app: AppTest) -> None:
    new_game(app)
    type_pile(app, 1, "QS 2C")
    button(app, "➕ Player").click()
    app.run()
    text_input(app, "Name").input("Ben")
    app.run()
    type_pile(app, 2, "4D QS")  # one deck: each Q♠ is on the table too often
    ann, ben = player_ids(app)
    assert app.session_state.player == ben
    jump = "↓ Next to check: Player 1's pile 1"
    assert [b.label for b in app.button if b.label.startswith("↓ Next")] == [jump]
    button(app, jump).click()
    app.run()
    assert_clean(app)
    assert app.session_state.player == ann  # Player 1's piles shown, their pile brought up
    assert any(f".st-key-pile-{pile_id(app, 1)}" in h.proto.body for h in app.get("html"))
    assert [b.label for b in app.button if b.label.startswith("↓ Next")] == [
        "↓ Next to check: Ben's pile 2"  # and on round the table
    ]
    type_pile(app, 1, "KS 2C")  # the Q♠ was a K♠: nothing left to check anywhere
    assert not [b for b in app.button if b.label.startswith("↓ Next")]
    assert button(app, "✓ Nothing below to check").disabled  # in place: nothing moves up


def test_a_picked_card_is_taken_off_right_under_its_pile(app: AppTest) -> None:
    first = open_tools(app, 1)
    app.pills(key=f"sel:{first}").set_value(1)  # 1.2 = 6C
    app.run()
    button(app, "🗑 Take 6♣ off").click()
    app.run()
    assert_clean(app)
    assert pile_cards(app, 1).startswith("QS QH 5H")
    assert [t.value for t in app.toast] == ["6♣ taken off. ↶ Undo takes it back."]
    assert app.session_state[f"sel:{first}"] is None
    button(app, "↶ Undo").click()
    app.run()
    assert [t.value for t in app.toast] == ["6♣ is back: card 1.2 of Example."]


def test_a_card_lost_with_no_teal_mark_goes_in_beside_a_picked_card(app: AppTest) -> None:
    # it went in through the pile's editor: 3-5 taps, its Add button a screen below (session 83)
    first = open_tools(app, 1)
    app.pills(key=f"sel:{first}").set_value(1)  # 1.2 = 6C
    app.run()
    button(app, "➕ A card after 6♣").click()
    app.run()
    assert any("Which card is missing before 1.3" in m.value for m in app.markdown)
    assert app.session_state[f"sel:{first}"] is None  # no card is picked: nothing moves
    app.pills(key=f"gap-rank:{first}").set_value(Rank.NINE)
    app.run()
    app.pills(key=f"gap-suit:{first}").set_value(Suit.SPADES)
    app.run()
    assert_clean(app)
    assert pile_cards(app, 1).startswith("QS 6C 9S QH")
    assert [t.value for t in app.toast] == ["9♠ put in as card 1.3. ↶ Undo takes it back."]
    assert not any("Which card is missing" in m.value for m in app.markdown)  # closed
    app.pills(key=f"sel:{first}").set_value(0)  # 1.1 = QS
    app.run()
    button(app, "➕ A card before Q♠").click()
    app.run()
    assert any("Which card is missing before 1.1" in m.value for m in app.markdown)
    button(app, "Cancel").click()
    app.run()
    assert not any("Which card is missing" in m.value for m in app.markdown)
    assert pile_cards(app, 1).startswith("QS 6C 9S QH")


def test_a_picked_card_takes_another_rank_or_suit_in_one_tap_each(app: AppTest) -> None:
    # a card read wrong with confidence took the list of 52 cards: a scroll, and a phone's keyboard
    first = open_tools(app, 1)
    app.pills(key=f"sel:{first}").set_value(1)  # 1.2 = 6C
    app.run()
    assert app.segmented_control(key=f"to-rank:{first}:1:6C").value == Rank.SIX
    app.segmented_control(key=f"to-rank:{first}:1:6C").set_value(Rank.FIVE).run()
    assert_clean(app)
    assert pile_cards(app, 1).startswith("QS 5C QH")
    assert app.session_state[f"sel:{first}"] == 1  # still picked: its suit may be next
    app.segmented_control(key=f"to-suit:{first}:1:5C").set_value(Suit.HEARTS).run()
    assert pile_cards(app, 1).startswith("QS 5H QH")
    button(app, "↶ Undo").click()
    app.run()
    assert pile_cards(app, 1).startswith("QS 5C QH")  # one step back, said
    assert [t.value for t in app.toast] == ["Card 1.2 of Example is 5♣ again."]
    # Undo lets go of the card (a picked place may hold another card now); picked again, its
    # rows show the card Undo brought back, and another rerun leaves it as it is
    assert app.session_state[f"sel:{first}"] is None
    app.pills(key=f"sel:{first}").set_value(1)
    app.run()
    assert app.segmented_control(key=f"to-suit:{first}:1:5C").value == Suit.CLUBS
    app.run()
    assert pile_cards(app, 1).startswith("QS 5C QH")


def test_a_player_is_removed_once_asked_and_undo_brings_them_back(app: AppTest) -> None:
    # one tap removed the player shown, and the next player's Remove took its place
    new_game(app)
    button(app, "➕ Player").click()
    app.run()
    assert len(player_ids(app)) == 2
    second = player_ids(app)[1]
    button(app, "Yes, remove Player 2").click()
    app.run()
    assert_clean(app)
    assert len(player_ids(app)) == 1
    # answered, the question is drawn anew, closed (its popover's key counts the answers)
    assert app.session_state[f"remove-player:{second}-answered"] == 1
    said = "Player 2 and their piles are off the table. ↶ Undo takes it back."
    assert [t.value for t in app.toast] == [said]
    button(app, "↶ Undo").click()
    app.run()
    assert len(player_ids(app)) == 2
    assert [t.value for t in app.toast] == ["Player 2 is back at the table."]


def test_move_a_card_to_the_other_pile_split_and_join(app: AppTest) -> None:
    new_game(app)
    type_pile(app, 1, "8D 2H 8H KS")
    first = open_tools(app, 1)
    app.pills(key=f"sel:{first}").set_value(3)
    app.run()
    move_to(app, first, 3, "→ pile 2 start")
    assert (pile_cards(app, 1), pile_cards(app, 2)) == ("8D 2H 8H", "KS")
    app.pills(key=f"sel:{first}").set_value(2)
    app.run()
    button(app, "✂ New pile from 1.3").click()
    app.run()
    assert [pile_cards(app, n) for n in (1, 2, 3)] == ["8D 2H", "8H", "KS"]
    button(app, "Join with pile 2").click()
    app.run()
    assert [pile_cards(app, n) for n in (1, 2)] == ["8D 2H 8H", "KS"]
    assert_clean(app)


def test_a_queens_choice_is_named_in_plain_text(app: AppTest) -> None:
    """A widget's label is its name for a screen reader too: no colour markup in it."""
    new_game(app)
    type_pile(app, 1, "QH 3C")
    pile = open_tools(app, 1)
    pin = app.segmented_control(key=f"pin:{pile}:0")
    assert pin.label == "Q♥ card 1.1: 7 scores most"


def test_pin_a_queen(app: AppTest) -> None:
    new_game(app)
    type_pile(app, 1, "QS 2C 3H 7H")
    assert totals(app) == ["### Player 1: 9 points"]
    pile = open_tools(app, 1)
    pin = app.segmented_control(key=f"pin:{pile}:0")
    assert "11 scores most" in pin.label
    pin.set_value("7")
    app.run()
    assert_clean(app)
    assert totals(app) == ["### Player 1: 3 points"]
    assert "pinned to 7" in app.segmented_control(key=f"pin:{pile_id(app, 1)}:0").label
    strip = next(m.value for m in app.markdown if 'class="bc-strip"' in m.value)
    assert "=7📌</span>" in strip  # the pinned value, on the card
    assert any(e.label == "👑 Queens of pile 1: 7 or 11" for e in app.expander)
    app.segmented_control(key=f"pin:{pile_id(app, 1)}:0").set_value("Best")
    app.run()
    assert totals(app) == ["### Player 1: 9 points"]


def test_variant_switches(app: AppTest) -> None:
    app.toggle(key="lucky_tom").set_value(True)
    app.run()
    assert totals(app) == ["### Example: 38 points"]  # 5♥ 5♦ is now worth 5
    assert "Variants: Lucky Tom" in page_text(app)
    app.toggle(key="music_of_the_night").set_value(True)
    app.run()
    assert totals(app) == ["### Example: 44 points"]  # three Yowlers worth 3 each
    app.toggle(key="lucky_tom").set_value(False)
    app.run()
    assert totals(app) == ["### Example: 42 points"]
    assert_clean(app)


# ---------------------------------------------------------------------------------------------
# Players


def test_players_switching_and_the_winner(app: AppTest) -> None:
    type_pile(app, 2, "7D 3C")  # an edit to the example's second pile
    button(app, "➕ Player").click()
    app.run()
    assert "Add Player 2's piles" in page_text(app)
    text_input(app, "Name").input("Ben")
    app.run()
    type_pile(app, 1, "10S 10H KD 10C")
    assert totals(app) == ["### Ben: 11 points"]
    board = scoreboard(app)
    assert "🏆 Example" in board and "Ben" in board
    assert "Example wins with 28 points." in page_text(app)
    # back to the first player: the correction is still there
    app.segmented_control(key="player").set_value(player_ids(app)[0])
    app.run()
    assert pile_cards(app, 2) == "7D 3C"
    assert totals(app) == ["### Example: 28 points"]
    # a name that is taken is refused and put back
    text_input(app, "Name").input("ben")
    app.run()
    assert text_input(app, "Name").value == "Example"
    assert any("already a player called 'Ben'" in t.value for t in app.toast)


def test_a_tie(app: AppTest) -> None:
    new_game(app)
    type_pile(app, 1, "8D 2H")
    button(app, "➕ Player").click()
    app.run()
    type_pile(app, 1, "3S 7S")
    assert "Tie: Player 1 and Player 2, 3 points each." in page_text(app)


def test_adding_a_player_to_the_example_starts_a_game(app: AppTest) -> None:
    button(app, "➕ Player").click()
    app.run()
    assert_clean(app)
    board = scoreboard(app)
    assert "Player 1" in board and "Player 2" in board and "Example" not in board
    assert totals(app) == ["### Player 2: 0 points"]
    button(app, "↶ Undo").click()
    app.run()
    assert totals(app) == ["### Example: 36 points"]


def test_a_duplicated_card_points_at_both_places(app: AppTest) -> None:
    type_pile(app, 2, "7D 3C")  # the example is now this player's
    button(app, "➕ Player").click()
    app.run()
    type_pile(app, 2, "AS QS")  # Q♠ is also the example's card 1.1
    warnings = [w.value for w in app.warning]
    assert any(
        "Q♠ is on the table 2 times: Example card 1.1, Player 2 card 2.2" in w for w in warnings
    )
    strip = [m.value for m in app.markdown if 'class="bc-strip"' in m.value][1]
    assert strip.count("bc-dup") == 1
    (said,) = [m.value for m in app.markdown if 'class="bc-result"' in m.value]
    assert said.startswith('<div class="bc-result">⚠️ ') and "Not final" in said  # no trophy
    app.toggle(key="two_decks").set_value(True)
    app.run()
    assert not app.warning
    assert [m.value for m in app.markdown if "🏆" in m.value and "bc-result" in m.value]
    assert_clean(app)


def test_a_card_on_the_table_too_often_is_one_to_check(app: AppTest, reader: FakeReader) -> None:
    # the jump said "✓ No card to check" beside the warning of a card twice (helper-63)
    uploader(app).set_value(("piles.png", png(200), "image/png"))  # 8D 2H 8H, KS 9C 4S
    app.run()
    button(app, "✓ :red[2♥] is right").click()
    app.run()
    assert button(app, "✓ No card to check").disabled
    type_pile(app, 2, "KS 9C 8D")  # 8♦ is also card 1.1: one of them is misread
    assert_clean(app)
    jump = button(app, "↓ 1 card on the table too often")  # one card, as the warning says
    assert not jump.disabled
    jump.click()
    app.run()
    first = pile_id(app, 1)
    assert any(f".st-key-pile-{first}" in h.proto.body for h in app.get("html"))
    assert [b.label for b in app.button if b.label.startswith("↓ Next")] == [
        "↓ Next to check: pile 2"
    ]


# ---------------------------------------------------------------------------------------------
# Photos and bad files


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("notes.jpg", b"these are not the cards you are looking for", "not an image we can read"),
        ("cut.jpg", jpeg(400, 300)[:300], "could not be decoded: it may be cut short"),
        ("huge.png", png_claiming(9_500, 9_000), "larger than the 80 MP"),
        ("empty.png", b"", "empty"),
        ("tiny.png", png(10, 10), "is only 10×10 pixels, too small to read"),
    ],
    ids=["not-an-image", "cut-short", "too-many-pixels", "empty", "tiny"],
)
def test_a_bad_file_gets_a_friendly_message_and_nothing_is_lost(
    app: AppTest, name: str, data: bytes, message: str
) -> None:
    type_pile(app, 2, "7D 3C")
    uploader(app).set_value((name, data, "image/jpeg"))
    app.run()
    assert_clean(app)
    assert any(message in e.value and name in e.value for e in app.error), [
        e.value for e in app.error
    ]
    assert pile_cards(app, 2) == "7D 3C"
    assert totals(app) == ["### Example: 28 points"]


def test_a_good_photo_without_the_reader_gets_the_note(app: AppTest) -> None:
    uploader(app).set_value(("piles.png", png(), "image/png"))
    app.run()
    assert_clean(app)
    assert any("piles.png: The photo reader isn't available" in w.value for w in app.warning)
    assert totals(app) == ["### Example: 36 points"]


def damaged_models(folder: Path, damage: str) -> Path:
    """A models folder the reader refuses: its detector cut short, or its calibration junk."""
    folder.mkdir()
    bundled = Path(vision_reader.MODELS_DIR)
    for name in (vision_reader.DETECTOR_FILE, vision_reader.CLASSIFIER_FILE):
        data = (bundled / name).read_bytes()
        (folder / name).write_bytes(data[: len(data) // 2] if damage == "model" else data)
    if damage == "calibration":
        (folder / "calibration.json").write_text("{not json")
    return folder


@pytest.mark.parametrize(
    ("damage", "what", "to_do"),
    [
        ("model", "a trained model can't be loaded", "with `blackcat export --models DIR`"),
        ("calibration", "a calibration file can't be read", "fit it again with `blackcat"),
    ],
)
def test_damaged_models_are_told_in_the_readers_own_words_with_what_to_do(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, damage: str, what: str, to_do: str
) -> None:
    folder = damaged_models(tmp_path / "models", damage)
    monkeypatch.setenv("BLACKCAT_MODELS_DIR", str(folder))
    app = start(folder)
    note = " ".join(i.value for i in app.info if "photo reader" in i.value)
    assert note.startswith("The photo reader couldn't start: ")
    assert what in note and to_do in note and str(folder) in note  # which file
    assert "Error" not in note  # not the error's class, as it was
    uploader(app).set_value(("piles.png", png(), "image/png"))
    app.run()
    assert_clean(app)
    assert any(
        w.value.startswith("piles.png: The photo reader couldn't start: ") for w in app.warning
    )
    assert totals(app) == ["### Example: 36 points"]


def test_a_blurred_photo_with_a_doubtful_card_asks_for_a_sharper_one(
    app: AppTest, reader: FakeReader
) -> None:
    uploader(app).set_value(("shaky.png", png(BLURRED), "image/png"))
    app.run()
    assert_clean(app)
    notes = [w.value for w in app.warning]
    assert any("2 piles, given to Player 1" in n and "looks blurred" in n for n in notes), notes
    assert not app.success
    assert [pile_cards(app, n) for n in (1, 2)] == ["8D 2H 8H", "KS 9C 4S"]  # read all the same


def test_the_same_piles_photographed_again_are_told_to_count_twice_until_one_photo_goes(
    app: AppTest, reader: FakeReader
) -> None:
    """A retake, as a blurred photo's note asks: the same cards in another photo come in again,
    and with two decks nothing else said that they counted twice (36 points, not 18)."""
    new_game(app)
    app.toggle(key="two_decks").set_value(True)
    app.run()
    uploader(app).set_value(("shaky.png", png(BLURRED), "image/png"))
    app.run()
    uploader(app).set_value(("sharp.png", png(200), "image/png"))
    app.run()
    assert_clean(app)
    twice = "6 of its cards are on the table already, read from shaky.png: the same piles"
    notes = [w.value for w in app.warning]
    assert any(n.startswith("sharp.png: 6 cards in 2 piles") and twice in n for n in notes), notes
    assert totals(app) == ["### Player 1: 36 points"]
    button(app, "Take this photo's cards off").click()  # under shaky.png, the first photo
    app.run()
    assert_clean(app)
    assert totals(app) == ["### Player 1: 18 points"]
    assert any(s.value.startswith("sharp.png: 6 cards in 2 piles") for s in app.success)
    assert twice not in page_text(app)


RETAKE_WARNING = (
    "**The same piles are photographed twice, in shaky.png and sharp.png:** the cards in both "
    "count twice. Take one photo's cards off (the button under each photo)."
)


def test_cards_twice_from_a_retake_are_not_called_misread(app: AppTest, reader: FakeReader) -> None:
    """A retake with one deck: each card twice, and the page's warning called them "probably
    misread", to fix or to count with *Two decks* (which would hide the doubling): it names the
    two photos instead; a card twice by other means is still told as before, beside it."""
    new_game(app)
    uploader(app).set_value(("shaky.png", png(BLURRED), "image/png"))
    app.run()
    uploader(app).set_value(("sharp.png", png(200), "image/png"))
    app.run()
    assert_clean(app)
    assert [w.value for w in app.warning if w.icon == "⚠️"] == [RETAKE_WARNING]
    type_pile(app, 4, "KS 9C 4S QD")  # QD typed twice: a slip, not the retake's
    type_pile(app, 3, "8D 2H 8H QD")
    (warning,) = [w.value for w in app.warning if w.icon == "⚠️"]
    assert warning.startswith(RETAKE_WARNING + "\n\n**A card is on the table twice.** With one ")
    assert warning.endswith("\n- Q♦ is on the table 2 times: Player 1 card 3.4, Player 1 card 4.4.")
    button(app, "Take this photo's cards off").click()  # under shaky.png, the first photo
    app.run()
    assert_clean(app)
    (warning,) = [w.value for w in app.warning if w.icon == "⚠️"]
    assert warning.startswith("**A card is on the table twice.** With one deck that can't be")


def test_a_sharp_photo_gets_no_blur_note(app: AppTest, reader: FakeReader) -> None:
    uploader(app).set_value(("piles.png", png(200), "image/png"))
    app.run()
    assert any("2 piles, given to Player 1" in s.value for s in app.success)
    assert not any("blurred" in note.value for note in [*app.success, *app.warning])


def test_a_photo_whose_piles_lie_in_a_grid_says_so_and_keeps_them(
    app: AppTest, reader: FakeReader
) -> None:
    uploader(app).set_value(("grid.png", png(GRID), "image/png"))
    app.run()
    assert_clean(app)
    notes = [w.value for w in app.warning]
    assert any("2 piles, given to Player 1" in n and "lie in a grid" in n for n in notes), notes
    assert not app.success
    assert [pile_cards(app, n) for n in (1, 2)] == ["KS 9C 4S", "AD 6C JH"]


def test_a_photo_is_read_once_placed_and_its_doubtful_card_fixed_in_one_tap(
    app: AppTest, reader: FakeReader
) -> None:
    uploader(app).set_value(("piles.png", png(200), "image/png"))
    app.run()
    assert_clean(app)
    assert any("2 piles, given to Player 1" in s.value for s in app.success)
    assert [pile_cards(app, n) for n in (1, 2)] == ["8D 2H 8H", "KS 9C 4S"]
    assert "Example" not in scoreboard(app)  # the example made way
    assert len(app.image) == 1  # the photo with its numbered boxes
    assert any("1.2" in m.value and "looks like" in m.value for m in app.markdown)
    strip = next(m.value for m in app.markdown if 'class="bc-strip"' in m.value)
    assert strip.count("bc-doubtful") == 1
    assert totals(app) == ["### Player 1: 18 points"]  # two Tomcats, two Black Cats
    button(app, "2♠ 30%").click()  # the reader's second guess, one tap
    app.run()
    assert_clean(app)
    assert pile_cards(app, 1) == "8D 2S 8H"
    assert not [m for m in app.markdown if "looks like" in m.value]
    assert totals(app) == ["### Player 1: 18 points"]
    type_pile(app, 2, "KS 9C 4S 10H")
    # reruns and edits never read the photo again
    assert reader.reads == 1
    button(app, "Take this photo's cards off").click()
    app.run()
    assert [pile_cards(app, n) for n in (1, 2)] == ["", "10H"]  # the typed card stays
    assert not app.image
    assert len(reader.loads) == 1  # type: ignore[attr-defined]


def test_the_same_photo_again_and_a_photo_without_cards(app: AppTest, reader: FakeReader) -> None:
    uploads = uploader(app)
    uploads.set_value([("a.png", png(200), "image/png"), ("b.png", png(150), "image/png")])
    app.run()
    assert_clean(app)
    assert any("No cards found in b.png" in w.value for w in app.warning)
    uploader(app).upload("a-again.png", png(200), "image/png")
    app.run()
    assert any("a-again.png is already on the table" in i.value for i in app.info)
    assert [pile_cards(app, n) for n in (1, 2)] == ["8D 2H 8H", "KS 9C 4S"]
    uploader(app).upload("b-again.png", png(150), "image/png")
    app.run()
    assert any("No cards found in b-again.png" in w.value for w in app.warning)
    assert reader.reads == 2  # a.png and b.png: a photo's content is read once


def test_a_camera_photo_goes_to_the_chosen_player(app: AppTest, reader: FakeReader) -> None:
    new_game(app)
    button(app, "➕ Player").click()
    app.run()
    assert "Add Player 2's piles" in page_text(app)
    app.toggle(key="camera_on").set_value(True)
    app.run()
    app.camera_input(key="camera").upload("shot.jpg", jpeg(160, 100))
    app.run()
    assert_clean(app)
    assert totals(app) == ["### Player 2: 6 points"]  # Q♠ 2♣ with the Queen at 11
    assert pile_cards(app, 1) == "QS 2C"
    # give the photo to the other player: its piles move
    owner = next(s for s in app.selectbox if s.key.startswith("owner:"))
    assert owner.value == player_ids(app)[1]
    owner.set_value(player_ids(app)[0])
    app.run()
    assert totals(app) == ["### Player 1: 6 points"]
    assert pile_cards(app, 1) == "QS 2C"


def test_a_photo_given_just_before_another_player_is_tapped_is_the_player_showns(
    app: AppTest, reader: FakeReader
) -> None:
    # the tap comes in the run that brings the photo (its own cut short, or never begun)
    new_game(app)
    button(app, "➕ Player").click()
    app.run()
    first, second = player_ids(app)
    assert "Add Player 2's piles" in page_text(app)
    uploader(app).set_value(("qs.png", png(160), "image/png"))
    app.segmented_control(key="player").set_value(first)
    app.run()
    assert_clean(app)
    table = app.session_state["night"].table
    assert [ts.pile_text(pile) for pile in table.player(second).piles] == ["QS 2C", ""]
    assert not any(pile.slots for pile in table.player(first).piles)
    # the page shows where the photo went, with its note, as after any photo
    assert app.session_state["player"] == second
    assert any("qs.png: 2 cards in 1 pile, given to Player 2." in s.value for s in app.success)
    app.segmented_control(key="player").set_value(first).run()
    uploader(app).set_value(("ann.png", png(200), "image/png"))  # the next: the one shown's
    app.run()
    table = app.session_state["night"].table
    assert [ts.pile_text(pile) for pile in table.player(first).piles] == ["8D 2H 8H", "KS 9C 4S"]


# ---------------------------------------------------------------------------------------------
# Exports


def test_exports_are_offered(app: AppTest) -> None:
    labels = [b.label for b in app.download_button]
    assert labels == ["Scoreboard CSV", "Scoreboard JSON", "Piles CSV", "Piles JSON"]
    app.download_button[0].click()
    app.run()
    assert_clean(app)


# ---------------------------------------------------------------------------------------------
# The table in the page's address


def reload(at: AppTest) -> AppTest:
    """The page loaded again from its address: a new session on the same server."""
    again = AppTest.from_file(str(APP_SCRIPT), default_timeout=TIMEOUT)
    again.query_params.update(at.query_params)
    again.run()
    assert_clean(again)
    return again


def test_a_reload_keeps_the_table(app: AppTest) -> None:
    assert "table" not in app.query_params  # the untouched example: a plain address
    type_pile(app, 2, "7D 3C")
    button(app, "➕ Player").click()
    app.run()
    text_input(app, "Name").input("Ben")
    app.run()
    type_pile(app, 1, "QS 2C 3H 7H")
    pile = open_tools(app, 1)
    app.segmented_control(key=f"pin:{pile}:0").set_value("7")
    app.run()
    app.toggle(key="lucky_tom").set_value(True)
    app.run()
    again = reload(app)
    assert scoreboard(again) == scoreboard(app)
    assert totals(again) == ["### Ben: 3 points"]  # Ben's page, his Queen still pinned to 7
    assert again.toggle(key="lucky_tom").value
    again.segmented_control(key="player").set_value(player_ids(again)[0])
    again.run()
    assert pile_cards(again, 2) == "7D 3C"
    assert "An example game" not in page_text(again)


def test_a_reload_keeps_a_photos_boxes_and_its_doubtful_card(
    app: AppTest, reader: FakeReader
) -> None:
    uploader(app).set_value(("piles.png", png(200), "image/png"))
    app.run()
    again = reload(app)
    assert [pile_cards(again, n) for n in (1, 2)] == ["8D 2H 8H", "KS 9C 4S"]
    assert len(again.image) == 1  # the photo with its numbered boxes
    assert any("looks like" in m.value for m in again.markdown)  # 1.2 still to check
    assert reader.reads == 1


def restart() -> None:
    """The app restarted: the photos it kept, and its reads, are gone."""
    st.cache_data.clear()
    st.cache_resource.clear()


def test_a_photo_lost_in_a_restart_and_uploaded_again_gives_its_cards_their_marks_back(
    app: AppTest, reader: FakeReader
) -> None:
    uploader(app).set_value(("piles.png", png(200), "image/png"))
    app.run()
    restart()
    again = reload(app)
    assert [pile_cards(again, n) for n in (1, 2)] == ["8D 2H 8H", "KS 9C 4S"]
    assert len(again.image) == 0 and not any("looks like" in m.value for m in again.markdown)
    # said: the photo and its flags went with nothing on the page to tell
    (lost,) = [i.value for i in again.info if "is gone from the app" in i.value]
    assert lost.startswith("The photo of Player 1's piles is gone from the app")
    restart()
    again = reload(again)  # the address the page wrote still names the photo
    uploader(again).set_value(("piles.png", png(200), "image/png"))
    again.run()
    assert_clean(again)
    # its cards once, not twice, with the photo and the doubtful 2H back
    assert [pile_cards(again, n) for n in (1, 2)] == ["8D 2H 8H", "KS 9C 4S"]
    assert len(again.image) == 1
    assert any("looks like" in m.value for m in again.markdown)
    assert "piles.png is back" in page_text(again)
    assert not [i for i in again.info if "is gone from the app" in i.value]
    button(again, "↶ Undo").click()  # the cards without their reads, the photo kept
    again.run()
    assert_clean(again)
    assert [pile_cards(again, n) for n in (1, 2)] == ["8D 2H 8H", "KS 9C 4S"]


def test_a_photo_is_let_go_of_once_neither_the_game_nor_undo_holds_its_cards(
    app: AppTest, reader: FakeReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(game_state, "UNDO_DEPTH", 2)  # Undo takes back two changes
    uploader(app).set_value(("piles.png", png(200), "image/png"))
    app.run()
    assert len(app.session_state.photos) == 1
    new_game(app)
    type_pile(app, 1, "QS 2C")
    assert len(app.session_state.photos) == 1  # two Undos would bring its cards back
    type_pile(app, 1, "QS 2C 3H")
    assert len(app.session_state.photos) == 0  # each kept some 3.5 MB for a night's length


def next_game_with_a_photo(at: AppTest, height: int) -> AppTest:
    """ "Next game", and a photo of two piles (a new file: `height`) for its first player."""
    button(at, "➕ Next game").click()
    at.run()
    uploader(at).set_value(("piles.png", png(200, height), "image/png"))
    at.run()
    assert_clean(at)
    return at


def gone_fields(at: AppTest) -> list[str]:
    """Keys of what a field last showed (`shown:` + its key) whose field is gone."""
    shown = [key for key in at.session_state if key.startswith("shown:")]
    return [key for key in shown if key.removeprefix("shown:") not in at.session_state]


def test_a_night_of_games_keeps_no_more_keys_than_its_first_games(
    app: AppTest, reader: FakeReader
) -> None:
    # each list or text field a run draws goes over every key: a late tap costs what an
    # early one does only while keys of fields and piles gone do not pile up
    uploader(app).set_value(("piles.png", png(200), "image/png"))
    app.run()
    next_game_with_a_photo(app, 121)
    early = len(app.session_state)
    for height in (122, 123, 124):
        next_game_with_a_photo(app, height)
    assert gone_fields(app) == []
    assert len(app.session_state) == early
    assert [pile_cards(app, n) for n in (1, 2)] == ["8D 2H 8H", "KS 9C 4S"]


def test_a_player_brought_back_by_undo_keeps_their_piles_fields_and_marks(
    app: AppTest, reader: FakeReader
) -> None:
    new_game(app)
    uploader(app).set_value(("piles.png", png(200), "image/png"))
    app.run()
    button(app, "➕ Player").click()
    app.run()
    # the same cards again: each one to check, each pile's "↓ Next to check" shown
    uploader(app).set_value(("again.png", png(200, 121), "image/png"))  # Player 2's
    app.run()
    second = player_ids(app)[1]
    marked = app.session_state["next-shown"]
    assert {pile.id for pile in app.session_state.night.table.players[1].piles} <= marked
    for _ in range(2):  # their fields gone from the page for a run or two
        button(app, "Yes, remove Player 2").click()
        app.run()
        assert len(player_ids(app)) == 1
        app.toggle(key="lucky_tom").set_value(True)
        app.run()
        button(app, "↶ Undo").click()
        app.run()
        button(app, "↶ Undo").click()
        app.run()
        assert_clean(app)
        assert player_ids(app)[1] == second
        app.segmented_control(key="player").set_value(second)
        app.run()
        assert [pile_cards(app, n) for n in (1, 2)] == ["8D 2H 8H", "KS 9C 4S"]
        assert marked <= app.session_state["next-shown"]  # their marks kept
        assert [b.label for b in app.button if b.label.startswith("↓ Next")]
    before = totals(app)
    type_pile(app, 2, "KS 9C")  # the piles brought back take a change
    assert pile_cards(app, 2) == "KS 9C"
    assert totals(app) != before


def test_a_typo_left_to_fix_stays_in_its_field_through_other_taps(app: AppTest) -> None:
    new_game(app)
    type_pile(app, 2, "KS 9C XX 4S")
    for on in (True, False, True):
        app.toggle(key="lucky_tom").set_value(on)
        app.run()
        assert pile_cards(app, 2) == "KS 9C XX 4S"


def share_panel(at: AppTest) -> Expander:
    """The share panel, opened (its content is made only while it is open)."""
    at.session_state[sharing.share_panel_key("table")] = True
    at.run()
    assert_clean(at)
    return next(e for e in at.expander if "Open on another phone" in e.label)


def shared_link(at: AppTest) -> str:
    """The link the share panel shows as text."""
    share = share_panel(at)
    shown = [re.search(r'<p class="bc-link">(.*?)</p>', part.value) for part in share.html]
    return html.unescape(next(found for found in shown if found)[1])


def test_the_link_is_offered_to_share(app: AppTest) -> None:
    type_pile(app, 2, "7D 3C")
    closed = next(e for e in app.expander if "Open on another phone" in e.label)
    assert not closed.html and not closed.markdown  # no QR code made on every run while closed
    link = shared_link(app)
    assert not share_panel(
        app
    ).code  # a code block would bring a 1.5 MB syntax highlighter to the phone
    table, room = app.query_params["table"], app.query_params["live"]
    assert link.endswith(f"?table={table}&live={room}")  # the game, shared from now on


@pytest.mark.parametrize(
    "link", ["not-a-table", "eJyrVspUslIyVKoFAA", ""], ids=["garbage", "old-format", "empty"]
)
def test_a_damaged_link_opens_the_example_with_a_word_why(link: str) -> None:
    at = AppTest.from_file(str(APP_SCRIPT), default_timeout=TIMEOUT)
    at.query_params["table"] = link
    at.run()
    assert_clean(at)
    assert any("can't be read" in w.value for w in at.warning), [w.value for w in at.warning]
    assert totals(at) == ["### Example: 36 points"]
    assert "table" not in at.query_params  # the bad link is gone from the address


# ---------------------------------------------------------------------------------------------
# Fixing keeps the player where they were


def test_fixing_a_card_leaves_the_editors_as_they_were(app: AppTest, reader: FakeReader) -> None:
    uploader(app).set_value(("piles.png", png(200), "image/png"))
    app.run()
    first, second = pile_id(app, 1), pile_id(app, 2)
    app.session_state[f"fix:{second}"] = True  # the player opened pile 2's editor
    app.run()
    button(app, "2♠ 30%").click()  # and fixed pile 1's doubtful card
    app.run()
    assert_clean(app)
    assert app.session_state[f"fix:{second}"] is True
    assert app.session_state[f"fix:{first}"] is False


def test_after_removing_a_pile_the_next_ones_editor_is_not_opened(app: AppTest) -> None:
    new_game(app)
    type_pile(app, 2, "KS 9C")
    first, second = pile_id(app, 1), pile_id(app, 2)
    app.session_state[f"fix:{first}"] = True
    app.run()
    button(app, "Remove pile 1").click()
    app.run()
    assert_clean(app)
    assert pile_id(app, 1) == second and pile_cards(app, 1) == "KS 9C"
    assert app.session_state[f"fix:{second}"] is False
    # it may have been a mistake: said, with Undo
    assert [t.value for t in app.toast] == [
        "Pile 1 of Player 1 is off the table. ↶ Undo takes it back."
    ]
    editor = next(e for e in app.expander if e.label == "✏️ Fix, add or move cards of pile 1")
    assert editor.key == f"fix:{second}"


# ---------------------------------------------------------------------------------------------
# Small things


def test_a_card_the_reader_did_not_guess_is_a_tap_or_two_away_under_its_pile(
    app: AppTest, reader: FakeReader
) -> None:
    uploader(app).set_value(("piles.png", png(200), "image/png"))
    app.run()
    first = pile_id(app, 1)
    button(app, "✎ Another card").click()  # 1.2, read as 2♥: not 2♠ or 7♥ either
    app.run()
    assert_clean(app)
    assert app.session_state[f"sel:{first}"] == 1  # picked, its pile's editor open
    assert app.session_state[f"fix:{first}"] is True
    # its rank and suit rows, under the pile's cards, brought into view
    assert any(f".st-key-retype-{first}" in h.proto.body for h in app.get("html"))
    app.segmented_control(key=f"to-rank:{first}:1:2H").set_value(Rank.FIVE)  # one tap: 5♥
    app.run()
    assert_clean(app)
    assert pile_cards(app, 1) == "8D 5H 8H"
    assert not [m for m in app.markdown if "looks like" in m.value]
    assert app.session_state[f"sel:{first}"] == 1  # still picked, for its suit next


def test_a_card_taken_off_as_no_card_lets_go_of_the_pick(app: AppTest, reader: FakeReader) -> None:
    # still picked at its place, the card after it was picked, for a tap to move
    uploader(app).set_value(("piles.png", png(200), "image/png"))
    app.run()
    first = open_tools(app, 1)
    app.pills(key=f"sel:{first}").set_value(1).run()
    button(app, "✗ Not a card").click()
    app.run()
    assert_clean(app)
    assert pile_cards(app, 1) == "8D 8H"
    assert app.session_state[f"sel:{first}"] is None


def test_a_guess_already_on_the_table_says_where_it_lies(app: AppTest, reader: FakeReader) -> None:
    """One deck has one 2♠: the reader gave it elsewhere, which is why a likelier guess may come
    second; the guess says where, before a tap makes it a duplicate."""
    uploader(app).set_value(("piles.png", png(200), "image/png"))
    app.run()
    type_pile(app, 2, "KS 9C 4S 2S")
    assert [b.label for b in app.button if b.label.startswith("2♠")] == ["2♠ 30% (also 2.4)"]
    app.toggle(key="two_decks").set_value(True)  # two decks have two: nothing to say
    app.run()
    assert_clean(app)
    assert [b.label for b in app.button if b.label.startswith("2♠")] == ["2♠ 30%"]


def test_a_phantom_card_goes_in_one_tap(app: AppTest, reader: FakeReader) -> None:
    uploader(app).set_value(("piles.png", png(200), "image/png"))
    app.run()
    button(app, "✗ Not a card").click()
    app.run()
    assert_clean(app)
    assert pile_cards(app, 1) == "8D 8H"
    assert not [m for m in app.markdown if "looks like" in m.value]


def test_upload_notes_show_on_their_players_page_with_current_names(
    app: AppTest, reader: FakeReader
) -> None:
    new_game(app)
    button(app, "➕ Player").click()
    app.run()
    first, second = player_ids(app)
    uploader(app).set_value(("qs.png", png(160), "image/png"))
    app.run()
    assert any("given to Player 2" in s.value for s in app.success)
    text_input(app, "Name").input("Ben")
    app.run()
    assert any("qs.png: 2 cards in 1 pile, given to Ben" in s.value for s in app.success)
    app.segmented_control(key="player").set_value(first)
    app.run()
    assert not app.success  # Ben's photo's note stays on Ben's page
    assert not app.toast
    app.segmented_control(key="player").set_value(second)
    app.run()
    assert_clean(app)
    assert any("given to Ben" in s.value for s in app.success)
    assert not app.toast, [t.value for t in app.toast]


def test_a_photo_whose_cards_another_phones_change_kept_from_their_player_says_so(
    app: AppTest, reader: FakeReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read while another phone removed its player (or changed the same place): its cards are
    given to nobody, and the page says so (it showed a traceback: the player shown was None)."""
    new_game(app)
    type_pile(app, 1, "KH")

    def removed_meanwhile(*_args: object, **_kwargs: object) -> ts.Table:
        raise ts.TableError("that player is no longer at the table")

    with monkeypatch.context() as patched:
        patched.setattr(ts, "place_photo", removed_meanwhile)
        uploader(app).set_value(("qs.png", png(160), "image/png"))
        app.run()
        assert_clean(app)
        assert [w.value for w in app.warning if "qs.png" in w.value] == [
            "qs.png was read as the game changed on another phone: upload it again to give out "
            "its cards (it reads at once now)."
        ]
        app.toggle(key="camera_on").set_value(True)
        app.run()
        app.camera_input(key="camera").upload("shot.jpg", jpeg(160, 100))
        app.run()  # no rerun after a camera's photo: the page went on with nobody shown
        assert_clean(app)
        assert any("shot.jpg was read as the game changed" in w.value for w in app.warning)
    assert pile_cards(app, 1) == "KH"  # what was on the table stays
    app.toggle(key="camera_on").set_value(False)
    app.run()
    uploader(app).set_value(("qs.png", png(160), "image/png"))
    app.run()
    assert any("qs.png: 2 cards in 1 pile, given to Player 1" in s.value for s in app.success)


def test_several_photos_at_once_ask_whose_each_is(app: AppTest, reader: FakeReader) -> None:
    new_game(app)
    button(app, "➕ Player").click()
    app.run()
    first, second = player_ids(app)
    uploader(app).set_value(
        [("ann.png", png(200), "image/png"), ("ben.png", png(160), "image/png")]
    )
    app.run()
    assert_clean(app)
    asks = [s for s in app.selectbox if s.key.startswith("upload-owner:")]
    assert [s.label for s in asks] == ["Whose piles are in ann.png?", "Whose piles are in ben.png?"]
    assert [s.value for s in asks] == [second, second]  # both went to the player shown
    asks[0].set_value(first)
    app.run()
    assert_clean(app)
    assert totals(app) == ["### Player 1: 18 points"]  # ann.png's piles, on Player 1's page
    assert [pile_cards(app, n) for n in (1, 2)] == ["8D 2H 8H", "KS 9C 4S"]
    assert any("ann.png: 6 cards in 2 piles, given to Player 1" in s.value for s in app.success)
    assert not any("ben.png" in s.value for s in app.success)
    app.segmented_control(key="player").set_value(second)
    app.run()
    assert pile_cards(app, 1) == "QS 2C"  # Player 2 keeps ben.png
    assert any("ben.png: 2 cards in 1 pile, given to Player 2" in s.value for s in app.success)


def test_one_point_is_one_point(app: AppTest) -> None:
    new_game(app)
    type_pile(app, 1, "10S")
    assert totals(app) == ["### Player 1: 1 point"]
    head = next(m.value for m in app.markdown if 'class="bc-pile-head"' in m.value)
    assert "1 card<" in head and "1 pt<" in head


def test_the_upload_control_comes_first(app: AppTest) -> None:
    """Above the example's note and the scoreboard (the browser test measures the screen)."""
    nodes = list(app.main)  # in the page's order, within its containers too
    kinds = [getattr(node, "type", "") for node in nodes]
    values = [str(getattr(node, "value", "")) for node in nodes]
    example = next(i for i, value in enumerate(values) if "An example game" in value)
    board = next(i for i, value in enumerate(values) if 'class="bc-board"' in value)
    assert kinds.index("file_uploader") < example < board


def test_a_gap_the_reader_saw_opens_add_a_card_there_in_one_tap(
    app: AppTest, reader: FakeReader
) -> None:
    uploader(app).set_value(("gap.png", png(180), "image/png"))
    app.run()
    assert_clean(app)
    assert pile_cards(app, 1) == "QS 2C 9H"
    assert any("A card may be missing before 1.3" in m.value for m in app.markdown)
    strip = next(m.value for m in app.markdown if 'class="bc-strip"' in m.value)
    assert strip.count("bc-gap") == 1
    assert not button(app, "↓ 1 card that may be missing").disabled  # as the legend says
    button(app, "➕ Add a card here").click()
    app.run()
    first = pile_id(app, 1)
    assert any("Which card is missing before 1.3" in m.value for m in app.markdown)
    assert app.session_state[f"sel:{first}"] is None  # no card is picked: nothing moves
    app.pills(key=f"gap-rank:{first}").set_value(Rank.FIVE)
    app.run()
    assert pile_cards(app, 1) == "QS 2C 9H"  # a rank alone puts nothing in
    app.pills(key=f"gap-suit:{first}").set_value(Suit.CLUBS)  # the second tap puts it in
    app.run()
    assert_clean(app)
    assert pile_cards(app, 1) == "QS 2C 5C 9H"
    assert not any("may be missing" in m.value for m in app.markdown)  # the gap is filled
    assert [t.value for t in app.toast] == ["5♣ put in as card 1.3. ↶ Undo takes it back."]


def test_a_gap_can_be_dismissed_and_a_reload_keeps_the_others(
    app: AppTest, reader: FakeReader
) -> None:
    uploader(app).set_value(("gap.png", png(180), "image/png"))
    app.run()
    again = reload(app)
    assert any("A card may be missing before 1.3" in m.value for m in again.markdown)
    button(again, "✗ Nothing missing").click()
    again.run()
    assert_clean(again)
    assert not any("may be missing" in m.value for m in again.markdown)
    assert pile_cards(again, 1) == "QS 2C 9H"


def test_a_gaps_open_picker_closes_once_nothing_is_missing_or_a_card_is_picked(
    app: AppTest, reader: FakeReader
) -> None:
    # it stayed, asking which card was missing where the player had said none was (helper-65),
    # and a card picked left it open a screen below, its suit's tap still putting a card in
    uploader(app).set_value(("gap.png", png(180), "image/png"))
    app.run()
    button(app, "➕ Add a card here").click()
    app.run()
    button(app, "✗ Nothing missing").click()
    app.run()
    assert_clean(app)
    assert not any("Which card is missing" in m.value for m in app.markdown)
    first = open_tools(app, 1)
    app.pills(key=f"sel:{first}").set_value(0)  # QS
    app.run()
    button(app, "➕ A card after Q♠").click()
    app.run()
    assert any("Which card is missing before 1.2" in m.value for m in app.markdown)
    app.pills(key=f"sel:{first}").set_value(2)  # 9H picked: the picker goes
    app.run()
    assert not any("Which card is missing" in m.value for m in app.markdown)
    assert app.session_state[f"sel:{first}"] == 2


def test_the_change_list_opens_at_the_card_with_the_readers_guesses_first(
    app: AppTest, reader: FakeReader
) -> None:
    uploader(app).set_value(("piles.png", png(200), "image/png"))
    app.run()
    first = open_tools(app, 1)
    app.pills(key=f"sel:{first}").set_value(1)  # 1.2, read as 2♥ (2♠, 7♥ its next guesses)
    app.run()
    change = card_list(app, first)
    assert change.value == parse_card("2H")
    assert [option.split(" · ")[0] for option in change.options[:3]] == ["2♥", "2♠", "7♥"]
    assert "reader's guess" in change.options[1]
    assert len(change.options) == 52
    assert change.options[0] == "2♥ · 2H · 2 of hearts"
    assert "Q♠ · QS · Queen of spades" in change.options


def test_undo_survives_a_reload(app: AppTest) -> None:
    type_pile(app, 2, "7D 3C")
    type_pile(app, 2, "7D 3C 4C")
    again = reload(app)
    assert not button(again, "↶ Undo").disabled
    button(again, "↶ Undo").click()
    again.run()
    assert pile_cards(again, 2) == "7D 3C"


def test_on_the_lan_the_table_shows_only_with_the_key(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("BLACKCAT_ACCESS_KEY", "the-key-of-this-table")
    at = AppTest.from_file(str(APP_SCRIPT), default_timeout=TIMEOUT)
    at.run()
    assert_clean(at)
    assert any("This table is private" in m.value for m in at.markdown)
    assert not [m for m in at.markdown if 'class="bc-board"' in m.value] and not at.text_input
    at.query_params["key"] = "the-key-of-this-table"
    at.run()
    assert totals(at) == ["### Example: 36 points"]
    type_pile(at, 2, "7D 3C")
    assert at.query_params["key"] == "the-key-of-this-table"  # the key stays in the address
    link = shared_link(at)
    assert "key=the-key-of-this-table" in link


def test_on_the_lan_with_no_network_the_share_panel_says_to_connect(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`blackcat app --lan` found no network: its address is localhost, and the share panel
    told the host to start the app with --lan, as they had (helper-99)."""
    monkeypatch.setenv("BLACKCAT_ACCESS_KEY", "the-key-of-this-table")
    monkeypatch.setenv("BLACKCAT_PUBLIC_URL", "https://localhost:8501")
    at = AppTest.from_file(str(APP_SCRIPT), default_timeout=TIMEOUT)
    at.query_params["key"] = "the-key-of-this-table"
    notes = [w.value for w in share_panel(at).warning]
    assert len(notes) == 1 and "another phone can't open it" in notes[0]
    assert "found no network" in notes[0] and "start the app with" not in notes[0]


def test_a_pile_wider_than_a_phone_says_it_scrolls(app: AppTest) -> None:
    new_game(app)
    type_pile(app, 1, " ".join(card.code for card in ALL_CARDS[:27]))
    type_pile(app, 2, "QS 2C")
    swipes = [c.value for c in app.caption if "Swipe the cards sideways" in c.value]
    assert swipes == ["⇆ Swipe the cards sideways: 27 cards are wider than a phone."]
