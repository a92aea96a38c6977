"""What a play test at a phone's size (390×844) found, each fixed and checked here in a real
browser, with the helpers and servers of `test_browser` (Debian's Chromium at /usr/bin/chromium):
whole messages, a double tap that does only what it says, adding a card where one is missing,
a question that closes once answered, a link that says where it opens, tap targets of 44 px,
one colour for one thing, Black Lady's sheet and CSV, and what follows a photo."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import test_browser
from playwright.sync_api import Browser, Page, expect
from test_browser import PHONE, WAIT_MS, no_errors_on, settle

# test_browser's fixtures, here too: the browser, the two servers, a page on the example game
browser = test_browser.browser
server = test_browser.server
fake_reader_server = test_browser.fake_reader_server
page = test_browser.page


@pytest.fixture
def reading_page(browser: Browser, fake_reader_server: str) -> Iterator[Page]:
    """The app with the stand-in reader (`fakes.FakeReader`), at a phone's size."""
    context = browser.new_context(viewport=PHONE, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(fake_reader_server)
    expect(page.get_by_text("Black Cat score").first).to_be_visible()
    settle(page)
    yield page
    context.close()


def upload(page: Page, name: str, data: bytes, mime: str = "image/png") -> None:
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(
        files=[{"name": name, "mimeType": mime, "buffer": data}]
    )
    settle(page)


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
