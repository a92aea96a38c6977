"""A photo of the whole table in a real browser at a phone's size, with the stand-in reader
(`fakes.FakeReader`: its photo `WHOLE_TABLE` pixels wide shows piles on all four sides) and the
helpers and servers of `test_browser` (Debian's Chromium at /usr/bin/chromium): one photo fills
the scoreboard for four players, one tap gives a pile to another player, a reload keeps both."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
import test_browser
from fakes import DOUBTED_TABLE, WHOLE_TABLE
from playwright.sync_api import Browser, Page, expect
from test_browser import (
    PHONE,
    blank_png,
    new_game,
    no_errors_on,
    once_shown,
    open_app,
    reload_page,
    rename,
    settle,
    shoot,
    type_pile,
    upload_photo,
    whose_piles,
)

# test_browser's fixtures, here too: the browser and the app with the stand-in reader
browser = test_browser.browser
fake_reader_server = test_browser.fake_reader_server


@pytest.fixture
def reading_page(browser: Browser, fake_reader_server: str) -> Iterator[Page]:
    yield from open_app(browser, fake_reader_server)


def board(page: Page) -> dict[str, str]:
    """The scoreboard: each player's piles and total, `{"Ann": "6 + 3 = 9"}`."""
    rows = page.locator("table.bc-board tr")
    found = {}
    for index in range(1, rows.count()):
        name, piles, total = rows.nth(index).locator("td").all_inner_texts()
        found[name.lstrip("🏆🤝 ").strip()] = f"{piles.strip()} = {total.strip()}"
    return found


def seat_four(page: Page) -> None:
    """A new game of Ann, Ben, Cat and Dan, in the order they sit."""
    new_game(page)
    rename(page, "Ann")
    for name in ("Ben", "Cat", "Dan"):
        page.get_by_role("button", name="➕ Player").click()
        settle(page)
        rename(page, name)


def test_one_photo_of_the_whole_table_scores_four_players_and_a_pile_moves_in_one_tap(
    reading_page: Page,
) -> None:
    page = reading_page
    seat_four(page)
    nobody_scored = {name: "0 + 0 = 0" for name in ("Ann", "Ben", "Cat", "Dan")}
    assert once_shown(page, board, nobody_scored) == nobody_scored
    page.get_by_role("radio", name="The whole table").click()
    settle(page)
    photographer = page.locator('[class*="st-key-photographer"]')
    photographer.get_by_role("radio", name="Cat").click()
    settle(page)
    expect(
        page.get_by_text("the others follow clockwise round the table: Dan → Ann → Ben")
    ).to_be_visible()
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[
            {
                "name": "table.png",
                "mimeType": "image/png",
                "buffer": blank_png(WHOLE_TABLE, WHOLE_TABLE),
            }
        ]
    )
    settle(page)
    given = "16 cards in 5 piles, given to Cat (9 points), Dan (12 points), Ann (9 points) and Ben"
    expect(page.get_by_text(given)).to_be_visible()  # their points too: the board is far below
    expect(
        page.get_by_role("img").first
    ).to_be_visible()  # the photo, a name by each player's piles
    shoot(page, "whole-table")
    scored = {
        "Ann": "6 + 3 = 9",  # across the table from Cat
        "Ben": "11 + 0 = 11",  # on Cat's right
        "Cat": "9 + 0 = 9",  # the photographer
        "Dan": "12 + 0 = 12",  # on Cat's left
    }
    assert once_shown(page, board, scored) == scored

    # the reader's far side held a pile of Ben's: one tap gives it to him
    give = page.locator('[class*="st-key-give-"]', has_text="Ann's pile 2")
    give.scroll_into_view_if_needed()
    shoot(page, "whole-table-give")
    give.get_by_role("button", name="→ Ben").click()
    settle(page)
    moved = {"Ann": "6 = 6", "Ben": "11 + 3 = 14", "Cat": "9 + 0 = 9", "Dan": "12 + 0 = 12"}
    expect(page.locator("table.bc-board")).to_contain_text("14")
    assert once_shown(page, board, moved) == moved
    expect(page.locator('[class*="st-key-give-"]', has_text="Ben's pile 2")).to_be_visible()

    reload_page(page)
    expect(page.locator("table.bc-board")).to_contain_text("14")
    settle(page)
    assert once_shown(page, board, moved) == moved
    # the whole table's panel again, who took the photo remembered
    expect(
        page.locator('[class*="st-key-photographer"]').get_by_role("radio", name="Cat")
    ).to_be_checked()
    expect(page.locator('[class*="st-key-give-"]', has_text="Ben's pile 2")).to_be_visible()
    shoot(page, "whole-table-reloaded")
    no_errors_on(page)


def photograph_the_table_as(page: Page, photographer: str) -> None:
    """The whole table chosen, the photographer said, and its photo uploaded."""
    page.get_by_role("radio", name="The whole table").click()
    settle(page)
    page.locator('[class*="st-key-photographer"]').get_by_role("radio", name=photographer).click()
    settle(page)
    upload_the_whole_table(page)


def upload_the_whole_table(page: Page) -> None:
    upload_table(page, "table.png", WHOLE_TABLE)


def upload_table(page: Page, name: str, width: int) -> None:
    """A photo the stand-in reader reads by its width (`fakes`), uploaded."""
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": name, "mimeType": "image/png", "buffer": blank_png(width, width)}]
    )
    settle(page)


def test_a_photo_of_more_sides_than_players_says_what_to_do(reading_page: Page) -> None:
    page = reading_page
    new_game(page)  # one player
    page.get_by_role("button", name="➕ Player").click()
    settle(page)
    photograph_the_table_as(page, "Player 1")
    expect(
        page.get_by_text(
            "table.png shows piles on 4 sides of the table, but the table has 2 players"
        )
    ).to_be_visible()
    nothing_changed = {"Player 1": "0 + 0 = 0", "Player 2": "0 + 0 = 0"}
    assert once_shown(page, board, nothing_changed) == nothing_changed
    no_errors_on(page)


def test_alone_at_the_table_the_photo_brings_the_other_players(reading_page: Page) -> None:
    page = reading_page
    new_game(page)  # one player
    page.get_by_role("radio", name="The whole table").click()
    settle(page)
    expect(page.get_by_text("the players of the other sides are added")).to_be_visible()
    upload_the_whole_table(page)
    expect(page.get_by_text("The 3 players on the other sides were added")).to_be_visible()
    scored = {
        "Player 1": "9 + 0 = 9",
        "Left": "12 + 0 = 12",
        "Across": "6 + 3 = 9",
        "Right": "11 + 0 = 11",
    }
    assert once_shown(page, board, scored) == scored
    no_errors_on(page)


def test_tab_goes_through_the_piles_to_give_and_on_past_them(reading_page: Page) -> None:
    """Rows of choices there held Tab: from the last it went back to the first (helper-63)."""
    page = reading_page
    seat_four(page)
    photograph_the_table_as(page, "Cat")
    gives = page.locator('[class*="st-key-give-"] button:visible')
    expect(gives.first).to_be_visible()
    gives.first.focus()
    in_the_panel = "() => !!document.activeElement.closest('[class*=\"st-key-give-\"]')"
    where = []
    for _ in range(gives.count() + 1):
        page.keyboard.press("Tab")
        where.append(page.evaluate(in_the_panel))
    assert where[-1] is False  # on past the last pile's buttons
    assert where.index(False) == gives.count() - 1  # through every one of them first
    no_errors_on(page)


CUT_WORDS = """() => [...document.querySelectorAll('.stMarkdownEllipsis')]
  .filter(words => words.scrollWidth > words.clientWidth + 1)
  .map(words => words.textContent)"""
"""The words Streamlit cut short with an ellipsis (a button's in a row, where they don't fit)."""


def test_what_a_player_has_to_check_is_said_whole_at_a_phones_width(reading_page: Page) -> None:
    """The buttons under the notes that lead to each player's cards to check sit in a row, where
    Streamlit cut their words to one line: "↓ Player 1: 1 card in orange and 2 cards that may
    be mi…" (helper-93)."""
    page = reading_page
    new_game(page)  # one player
    page.get_by_role("radio", name="The whole table").click()
    settle(page)
    upload_the_whole_table(page)
    upload_table(page, "doubted.png", DOUBTED_TABLE)  # its cards again, one of them doubtful
    to_check = page.locator('[class*="st-key-to-check"] button', has_text="Across:")
    expect(to_check).to_have_text("↓ Across: 1 card in orange and 5 cards on the table too often")
    shoot(page, "whole-table-to-check")
    assert page.evaluate(CUT_WORDS) == []
    no_errors_on(page)


def test_the_buttons_words_are_whole_on_a_320_px_phone_and_at_twice_the_text_size(
    reading_page: Page,
) -> None:
    """WCAG's reflow (a 320 px page) and its text resized to 200% (at a phone's width)."""
    page = reading_page
    page.set_viewport_size({"width": 320, "height": 844})
    seat_four(page)
    page.get_by_role("radio", name="The whole table").click()
    settle(page)
    page.locator('[class*="st-key-photographer"]').get_by_role("radio", name="Cat").click()
    settle(page)
    upload_photo(page, "table.png", blank_png(DOUBTED_TABLE, DOUBTED_TABLE))
    whose_piles(page, "Ann")
    type_pile(page, 2, "5H 5D KS")  # Dan's King of spades, in Ann's pile too
    expect(page.get_by_role("button", name=re.compile("Ann: 1 card in orange and"))).to_be_visible()
    assert page.evaluate(CUT_WORDS) == []  # were "↓ Ann: 1 card in orange and 2 cards on the t…"
    page.set_viewport_size(PHONE)
    page.add_style_tag(content="html { font-size: 200% !important; }")  # a phone's largest text
    expect(page.get_by_role("button", name="Take this photo's cards off").first).to_be_visible()
    assert page.evaluate(CUT_WORDS) == []  # were "Take this photo's card…"
    no_errors_on(page)
