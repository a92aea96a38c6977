"""What a play test at a phone's size (390×844) found, each fixed and checked here in a real
browser, with the helpers and servers of `test_browser` (Debian's Chromium at /usr/bin/chromium):
whole messages, a double tap that does only what it says, adding a card where one is missing,
a question that closes once answered, a link that says where it opens, tap targets of 44 px,
one colour for one thing, Black Lady's sheet and CSV, and what follows a photo."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import photo_view
import pytest
import test_browser
from PIL import Image
from playwright.sync_api import Browser, Page, expect
from test_browser import (
    PHONE,
    blank_png,
    drop_between,
    new_game,
    no_errors_on,
    open_app,
    open_expander,
    settle,
    to_black_lady,
    type_pile,
    type_tricks,
    whose_tricks,
)

# test_browser's fixtures, here too: the browser, the two servers, a page on the example game
browser = test_browser.browser
server = test_browser.server
fake_reader_server = test_browser.fake_reader_server
page = test_browser.page


@pytest.fixture
def reading_page(browser: Browser, fake_reader_server: str) -> Iterator[Page]:
    """The app with the stand-in reader (`fakes.FakeReader`), at a phone's size."""
    yield from open_app(browser, fake_reader_server)


LINES_OF_TEXT = """(element) => {
  // each line break in the element's text: [what ends the line (with any unseen space or
  // zero-width space after it), the character that starts the next line]
  const chars = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.data.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const box = range.getBoundingClientRect();
      chars.push({c: node.data[i], top: box.top, right: box.right, seen: box.width > 0});
    }
  }
  const breaks = [];
  let previous = null;
  let ending = "";
  for (const char of chars) {
    if (!char.seen) { ending += char.c; continue; }
    if (previous && char.top > previous.top + 2) breaks.push([ending, char.c]);
    previous = char;
    ending = char.c;
  }
  const shown = element.getBoundingClientRect();
  return {breaks, lastInView: previous.right <= shown.right + 0.5 && previous.top < shown.bottom};
}"""
WORD_ENDS = " _-\u200b"  # where a line may break: after a space, an underscore, a hyphen


FIFTEEN = "QS 6C QH 5H 5D 8D 2S QD QC 2H 8H 7S 3H 4S 6S"  # the example's first pile


def upload(page: Page, name: str, data: bytes, mime: str = "image/png") -> None:
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(
        files=[{"name": name, "mimeType": mime, "buffer": data}]
    )
    settle(page)


# ---------------------------------------------------------------------------------------------
# 2. A double tap on Delete


def test_a_double_tap_on_delete_deletes_one_card_and_joins_no_piles(page: Page) -> None:
    new_game(page)
    type_pile(page, 1, FIFTEEN)
    type_pile(page, 2, "KS 9C")
    open_expander(page, "Fix, add or move cards of pile 1")
    settle(page)
    editor = page.locator('[data-testid="stExpander"]', has_text="Fix, add or move cards of pile 1")
    editor.get_by_role("radio", name=re.compile(r"^1\.2 ")).click()  # the 6♣
    settle(page)
    button = editor.get_by_role("button", name="🗑 Delete")
    button.scroll_into_view_if_needed()
    delete = button.bounding_box()
    assert delete is not None
    finger = (delete["x"] + delete["width"] / 2, delete["y"] + delete["height"] / 2)
    page.mouse.click(*finger)
    settle(page)
    page.mouse.click(*finger)  # the second tap of a double tap, where the finger still is
    settle(page)
    expect(page.get_by_label("Pile 1, left to right")).to_have_value(FIFTEEN.replace(" 6C", ""))
    expect(page.get_by_label("Pile 2, left to right")).to_have_value("KS 9C")
    no_errors_on(page)


# ---------------------------------------------------------------------------------------------
# 3. Adding a card where the reader saw a gap


def test_a_card_is_added_at_a_gap_with_the_picker_right_there(reading_page: Page) -> None:
    page = reading_page
    upload(page, "gap.png", blank_png(180, 120))  # a card may be missing before 1.3 9♥
    add_here = page.get_by_role("button", name="➕ Add a card here")
    add_here.click()
    settle(page)
    insert = page.locator('[class*="st-key-insert-"]')
    expect(insert).to_contain_text("Which card is missing before 1.3")
    rank = insert.get_by_role("radio", name="5", exact=True)
    assert 0 < drop_between(page, add_here, rank) < PHONE["height"] / 3  # right there
    expect(page.get_by_text("picked: tap the card whose place it takes")).to_have_count(0)
    rank.click()
    settle(page)
    insert.get_by_role("radio", name="clubs").click()  # the third tap: it is in
    settle(page)
    expect(page.get_by_label("Pile 1, left to right")).to_have_value("QS 2C 5C 9H")
    expect(page.get_by_text("A card may be missing")).to_have_count(0)
    no_errors_on(page)


# ---------------------------------------------------------------------------------------------
# 4. The new-game question


def test_the_new_game_question_closes_once_answered(page: Page) -> None:
    page.get_by_role("button", name="New game").click()
    question = page.get_by_text("Start a new game?")
    expect(question).to_be_visible()
    page.get_by_role("button", name="Yes, a new game").click()
    settle(page)
    expect(page.get_by_text("Player 1: 0 points")).to_be_visible()
    expect(question).to_be_hidden()
    no_errors_on(page)


def test_the_new_game_question_is_answered_with_the_keyboard_at_once(page: Page) -> None:
    """The question takes the focus: its answer was some 40 Tabs away, past the whole page."""
    page.get_by_role("button", name="New game").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Yes, a new game")).to_be_focused()
    page.keyboard.press("Enter")
    settle(page)
    expect(page.get_by_text("Player 1: 0 points")).to_be_visible()
    no_errors_on(page)


def test_the_shown_players_points_are_a_status_a_screen_reader_hears_change(page: Page) -> None:
    """A live region is said again when it changes in place: the same node, new points."""
    new_game(page)
    points = page.get_by_role("status").filter(has_text="Player 1:")
    expect(points).to_have_text(re.compile("Player 1: 0 points"))
    points.evaluate("node => { node.dataset.seen = 'before' }")
    type_pile(page, 1, "QS 2C 3H 7H")
    expect(points).to_have_text(re.compile("Player 1: 9 points"))
    expect(page.locator('[data-seen="before"]')).to_have_count(1)  # changed in place
    no_errors_on(page)


# ---------------------------------------------------------------------------------------------
# 1. Messages whole, file names broken between their parts


def test_a_refused_photo_with_a_cameras_long_name_is_said_whole_in_whole_words(
    page: Page,
) -> None:
    name = "PXL_20240512_183512345_PORTRAIT_ORIGINAL_BURST_COVER_0001.jpg"  # wider than a line
    upload(page, name, b"not a photo", "image/jpeg")
    note = page.locator('[class*="upload-notes"] [data-testid="stAlert"] p')
    expect(note).to_have_count(1)
    expect(note).to_contain_text("is not an image we can read")
    lines = note.evaluate(LINES_OF_TEXT)
    assert lines["lastInView"], "the message is cut"
    assert lines["breaks"], "a message this long takes more than one line at 390 px"
    assert all(ending[-1] in WORD_ENDS for ending, _ in lines["breaks"]), lines["breaks"]
    no_errors_on(page)


# ---------------------------------------------------------------------------------------------
# 5. A link only this computer can open says so


def test_the_share_panel_says_when_no_other_phone_can_open_its_link(page: Page) -> None:
    open_expander(page, "Open on another phone")
    settle(page)
    link = page.locator(".bc-link").inner_text()
    assert link.startswith("http://127.0.0.1:"), link  # the app without --lan
    note = page.get_by_text("another phone can't open it")
    expect(note).to_be_visible()
    expect(
        page.locator('[data-testid="stExpander"]', has_text="Open on another phone")
    ).to_contain_text("blackcat app --lan")
    no_errors_on(page)


# ---------------------------------------------------------------------------------------------
# 6. Cards a finger can tap, numbered on one line

FINGER = 44  # px: the least a tap target may be (Apple's 44 pt, Android's 48 dp)


def tappable_cards(page: Page) -> list[dict[str, float]]:
    cards = page.locator("[data-bc-position]")
    return [box for box in (card.bounding_box() for card in cards.all()) if box]


def test_a_long_piles_cards_are_a_fingers_width_and_numbered_on_one_line(page: Page) -> None:
    new_game(page)
    type_pile(page, 1, FIFTEEN)
    strip = page.locator(".bc-strip").first
    boxes = tappable_cards(page)
    assert len(boxes) == 15
    assert min(box["width"] for box in boxes) >= FINGER, boxes
    assert min(box["height"] for box in boxes) >= FINGER, boxes
    for number in ("1.10", "1.11", "1.15"):
        label = strip.locator(".n", has_text=number)
        assert label.evaluate(LINES_OF_TEXT)["breaks"] == [], number
    expect(page.get_by_text("Swipe the cards sideways: 15 cards")).to_be_visible()
    strip.locator('[data-bc-position="14"]').click()  # the last card, swiped to and tapped
    settle(page)
    expect(strip.locator('[data-bc-position="14"]')).to_have_class(re.compile("bc-selected"))
    no_errors_on(page)


def test_a_card_the_keyboard_reaches_in_a_long_pile_is_brought_into_view(page: Page) -> None:
    new_game(page)
    type_pile(page, 1, FIFTEEN)
    strip = page.locator(".bc-strip").first
    view = strip.bounding_box()
    for position in ("7", "12"):  # from card to card, as the arrows go
        card = strip.locator(f'[data-bc-position="{position}"]')
        card.focus()
        box = card.bounding_box()
        assert (
            view["x"] - 1 <= box["x"] and box["x"] + box["width"] <= view["x"] + view["width"] + 1
        )


def test_black_lady_tricks_are_a_fingers_width(page: Page) -> None:
    page.get_by_role("radio", name="Black Lady").click()
    settle(page)
    type_tricks(page, "Player 1", FIFTEEN)
    boxes = tappable_cards(page)
    assert len(boxes) == 15
    assert min(box["width"] for box in boxes) >= FINGER, boxes
    assert min(box["height"] for box in boxes) >= FINGER, boxes
    assert max(box["x"] + box["width"] for box in boxes) <= PHONE["width"]  # they wrap
    no_errors_on(page)


# ---------------------------------------------------------------------------------------------
# 7. One colour, one meaning, and a legend

COLOURS = r"""([where, marks]) => {
  // the colour of each mark and feature bar drawn in `where` (a CSS selector)
  const colour = (selector, property) => {
    const found = document.querySelector(`${where} ${selector}`);
    return found ? getComputedStyle(found)[property].match(/rgba?\([^)]*\)/)[0] : null;
  };
  const found = {
    doubtful: colour(".bc-card.bc-doubtful:not(.bc-dup)", "borderTopColor"),
    too_often: colour(".bc-card.bc-dup:not(.bc-doubtful)", "borderTopColor"),
    missing: colour(".bc-card.bc-gap", "boxShadow"),
  };
  if (marks) return found;
  return {
    ...found,
    tomcat: colour(".bc-bar.bc-tomcat", "backgroundColor"),
    yowler: colour(".bc-bar.bc-yowler", "backgroundColor"),
    jellical: colour(".bc-bar.bc-jellical", "backgroundColor"),
    black_cat: colour(".bc-bar.bc-black_cat", "backgroundColor"),
  };
}"""


def test_orange_means_one_thing_the_legend_says_what_and_no_note_asks_for_it_in_vain(
    reading_page: Page,
) -> None:
    page = reading_page
    note = page.locator('[class*="upload-notes"]')
    upload(page, "gap.png", blank_png(180, 120))  # pile 1: a card may be missing before 1.3
    expect(note).to_contain_text("gap.png: 3 cards in 1 pile, given to Player 1. Check the")
    expect(note).not_to_contain_text("orange")  # none of its cards is
    upload(page, "two-piles.png", blank_png(200, 120))  # piles 2 and 3; 2.2 2♥ doubtful
    expect(note).to_contain_text("and fix the card in orange")
    page.get_by_role("button", name="➕ Another pile for Player 1").click()
    settle(page)
    type_pile(page, 4, "10S KS 10H")  # Yowlers, a Jellical Cat: a K♠ that pile 3 has too
    colours = page.evaluate(COLOURS, [".bc-strip", False])
    assert None not in colours.values(), colours
    assert len(set(colours.values())) == len(colours), colours  # one colour, one meaning
    legend = page.locator(".bc-legend")
    for words in ("check this card", "on the table too often", "a card may be missing here"):
        expect(legend).to_contain_text(words)
    explained = page.evaluate(COLOURS, [".bc-legend", True])
    assert explained == {mark: colours[mark] for mark in explained}  # as the cards show it
    page.get_by_role("button", name="✓ 2♥ is right").click()  # nothing orange is left
    settle(page)
    expect(note).to_contain_text("two-piles.png: 6 cards in 2 piles, given to Player 1. Check")
    expect(note).not_to_contain_text("orange")
    expect(legend).not_to_contain_text("check this card")
    no_errors_on(page)


# ---------------------------------------------------------------------------------------------
# 8. Black Lady's sheet, scrolled, and its CSV

BORDER_GREY = (187, 187, 187)  # the line between the totals and the deals (#bbb)


def border_share(page: Page, x: float, top: float, height: float) -> float:
    """The share of the pixels down the line x (CSS px) that are the totals' border grey."""
    shot = page.screenshot(clip={"x": x, "y": top, "width": 1, "height": height}, scale="css")
    pixels = np.asarray(Image.open(io.BytesIO(shot)).convert("RGB"), dtype=int).reshape(-1, 3)
    return float(np.mean(np.all(np.abs(pixels - BORDER_GREY) <= 25, axis=1)))


def test_black_lady_sheet_scrolled_keeps_the_totals_apart_and_its_csv_marks_a_failing_deal(
    page: Page,
) -> None:
    to_black_lady(page)
    type_tricks(page, "Player 1", "QS AH 3C")
    whose_tricks(page, "Player 2")
    type_tricks(page, "Player 2", "QS 2H 4H")  # the Q♠ twice: deal 1 fails its checks
    whose_tricks(page, "Player 1")
    for _ in range(7):  # deals enough that the sheet is wider than the phone
        page.get_by_role("button", name="➕ Next deal").click()
        settle(page)
        type_tricks(page, "Player 1", "3C 4C 5C")
    wrap = page.locator(".bl-sheet-wrap")
    wrap.scroll_into_view_if_needed()
    assert wrap.evaluate("wrap => wrap.scrollWidth > wrap.clientWidth")
    table = page.locator("table.bl-sheet").bounding_box()
    total = page.locator("table.bl-sheet td.tot").first.bounding_box()
    assert table is not None and total is not None
    for scrolled in (0, 17, 40):  # part of a deal's column under the totals
        wrap.evaluate(f"wrap => {{ wrap.scrollLeft = {scrolled} }}")
        line = total["x"] + total["width"] - 1.5
        share = border_share(page, line, table["y"], table["height"])
        assert share > 0.8, f"scrolled by {scrolled} px: {share:.0%} of the line is its border"

    open_expander(page, "Download the score sheet")
    with page.expect_download() as download:
        page.get_by_role("button", name="Score sheet CSV").click()
    sheet = Path(download.value.path()).read_text(encoding="utf-8-sig")
    rows = list(csv.reader(io.StringIO(sheet)))
    assert rows[0] == ["deal", "Player 1", "Player 2", "Player 3", "checks"]
    assert rows[1][-1].startswith("fails: ") and "Q♠" in rows[1][-1], rows[1]
    assert rows[-1][0] == "total" and rows[-1][-1] == "counts deal 1, which fails its checks"
    no_errors_on(page)


# ---------------------------------------------------------------------------------------------
# 9. What follows a photo


def test_after_a_photo_of_tricks_the_next_players_are_up_unless_a_card_needs_a_look(
    reading_page: Page,
) -> None:
    page = reading_page
    to_black_lady(page)
    upload(page, "player-1.png", blank_png(160, 100))  # Q♠ 2♣, read for sure
    expect(page.get_by_role("radio", name=re.compile("^Player 2"))).to_be_checked()
    expect(page.get_by_text("📷 Player 2's tricks")).to_be_visible()
    note = page.locator('[class*="upload-notes"]')
    expect(note).to_contain_text("player-1.png: 2 cards, given to Player 1.")
    expect(note).to_contain_text("Next: Player 2's tricks.")
    upload(page, "player-2.png", blank_png(200, 120))  # its 2♥ is doubtful: a look here first
    expect(page.get_by_role("radio", name=re.compile("^Player 2"))).to_be_checked()
    expect(note).to_contain_text("fix the card in orange. Then Player 3's tricks.")
    no_errors_on(page)


def test_the_zoomed_photo_opens_at_its_cards(reading_page: Page) -> None:
    page = reading_page
    upload(page, "right.png", blank_png(220, 120))  # one pile, at the photo's right
    page.get_by_text("Zoom in").click()
    settle(page)
    zoomed = page.get_by_role("img", name=photo_view.PHOTO_ALT)
    expect(zoomed).to_be_visible()
    view = zoomed.evaluate(
        "i => [i.parentElement.scrollLeft, i.parentElement.clientWidth, i.width]"
    )
    left, width, whole = view
    cards = whole * (150 + 212) / 2 / 220  # the middle of the cards' boxes
    assert whole > width and left <= cards <= left + width, view
    no_errors_on(page)


def test_a_photo_of_one_pile_says_how_the_empty_second_pile_fills(reading_page: Page) -> None:
    page = reading_page
    upload(page, "one-pile.png", blank_png(220, 120))
    expect(page.get_by_label("Pile 1, left to right")).to_have_value("AS 2D 3H")
    expect(page.get_by_label("Pile 2, left to right")).to_have_value("")
    expect(page.get_by_text("Pile 2 is still empty: photograph it above")).to_be_visible()
    expect(page.get_by_text("Pile 1 is still empty")).to_have_count(0)
    no_errors_on(page)
