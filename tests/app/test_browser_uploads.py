"""Several files given at once to the uploader, in a real browser at a phone's size, with the
stand-in reader (`fakes.FakeReader`) and the helpers and servers of `test_browser`: each file
not read is named, and why, beside the notes on the photos read with it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import test_browser
from fakes import WHOLE_TABLE
from playwright.sync_api import Browser, Locator, Page, expect
from test_browser import blank_png, no_errors_on, open_app, settle, shoot, whose_piles
from test_browser_whole_table import seat_four

# test_browser's fixtures, here too: the browser and the app with the stand-in reader
browser = test_browser.browser
fake_reader_server = test_browser.fake_reader_server

PDF = {"name": "rules.pdf", "mimeType": "application/pdf", "buffer": b"%PDF-1.4 rules"}
PDF_NOT_READ = (
    "rules.pdf was not read: it is not a photo. Upload a JPEG, PNG, WebP or HEIC photo instead."
)


@pytest.fixture
def reading_page(browser: Browser, fake_reader_server: str) -> Iterator[Page]:
    yield from open_app(browser, fake_reader_server)


def png(name: str, width: int) -> dict[str, object]:
    """A photo the stand-in reader reads by its width (`fakes`)."""
    return {"name": name, "mimeType": "image/png", "buffer": blank_png(width, width)}


def give(page: Page, files: list[dict[str, object]]) -> None:
    """The files given at once, as a phone's picker gives several, and their notes drawn."""
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(files=files)
    settle(page)
    settle(page)  # the run after the batch, without it in the uploader


def note_boxes(page: Page) -> Locator:
    """The upload notes shown."""
    return page.locator('[class*="upload-notes"] [data-testid="stAlert"]')


def test_a_pdf_given_with_photos_is_named_as_not_read_beside_the_photos_notes(
    reading_page: Page,
) -> None:
    page = reading_page
    give(
        page,
        [
            png("piles.png", 200),
            PDF,
            {"name": "empty.jpg", "mimeType": "image/jpeg", "buffer": b""},
            {"name": "notes.jpg", "mimeType": "image/jpeg", "buffer": b"a shopping list"},
            png("more.png", 160),
        ],
    )
    said = note_boxes(page)
    expect(said).to_have_count(5)  # one note a file, none lost
    expect(said.nth(0)).to_contain_text("piles.png: 6 cards in 2 piles")
    expect(said.nth(1)).to_contain_text("empty.jpg is empty")
    expect(said.nth(2)).to_contain_text("notes.jpg is not an image")
    expect(said.nth(3)).to_contain_text("more.png: 2 cards in 1 pile")
    expect(said.nth(4)).to_have_text(PDF_NOT_READ)
    expect(page.locator('[data-testid="stFileChip"]')).to_have_count(0)  # the uploader emptied
    shoot(page, "batch-with-a-pdf")

    # the next photo given alone: the PDF's note goes with the batch it was given in
    give(page, [png("last.png", 220)])
    expect(page.get_by_text("last.png: 3 cards in 1 pile")).to_be_visible()
    expect(page.get_by_text(PDF_NOT_READ)).to_have_count(0)
    # the photos read before stay: piles 1-3, with the new one's after them
    expect(page.get_by_role("textbox", name="Pile 1, left to right")).to_have_value("8D 2H 8H")
    expect(page.get_by_role("textbox", name="Pile 4, left to right")).to_have_value("AS 2D 3H")

    # the PDF alone: its note, and the uploader emptied of it (no second red line by it)
    give(page, [PDF])
    expect(page.get_by_text(PDF_NOT_READ)).to_be_visible()
    expect(page.locator('[data-testid="stFileChip"]')).to_have_count(0)
    expect(page.get_by_text("last.png: 3 cards in 1 pile")).to_be_visible()  # the last batch's
    no_errors_on(page)


def test_a_pdf_given_with_photos_of_the_whole_table_is_named_as_not_read(
    reading_page: Page,
) -> None:
    page = reading_page
    seat_four(page)
    page.get_by_role("radio", name="The whole table").click()
    settle(page)
    page.locator('[class*="st-key-photographer"]').get_by_role("radio", name="Cat").click()
    settle(page)
    give(page, [png("table.png", WHOLE_TABLE), PDF, png("again.png", WHOLE_TABLE)])
    said = note_boxes(page)
    expect(said).to_have_count(3)
    expect(said.nth(0)).to_contain_text("table.png: 16 cards in 5 piles, given to Cat")
    expect(said.nth(1)).to_have_text("again.png is already on the table.")  # the same, read once
    expect(said.nth(2)).to_have_text(PDF_NOT_READ)
    shoot(page, "table-batch-with-a-pdf")

    # the notes of one panel go with a switch to the other
    page.get_by_role("radio", name="One player's piles").click()
    settle(page)
    expect(page.get_by_text(PDF_NOT_READ)).to_have_count(0)
    no_errors_on(page)


def test_the_whole_tables_note_says_where_the_other_photo_of_the_same_piles_is(
    reading_page: Page,
) -> None:
    page = reading_page
    seat_four(page)
    whose_piles(page, "Ann")
    give(page, [png("ann.png", 200)])  # Ann's piles: the far side's and the left side's
    page.get_by_role("radio", name="The whole table").click()
    settle(page)
    page.locator('[class*="st-key-photographer"]').get_by_role("radio", name="Cat").click()
    settle(page)
    give(page, [png("table.png", WHOLE_TABLE)])
    # Cat's piles shown now: ann.png, and the button under it, are with Ann's
    where = "To see ann.png and its button, choose Ann under Whose piles."
    note = note_boxes(page).first
    expect(note).to_contain_text("read from ann.png: the same piles photographed twice?")
    expect(note).to_contain_text(where)
    shoot(page, "table-photo-of-piles-photographed-before")
    # Ann under Whose piles (a photographer's choice of Ann, above, would share the photo out
    # again from her seat)
    page.locator(".st-key-player").get_by_role("radio", name="Ann").click()
    settle(page)
    take_off = page.get_by_role("button", name="Take this photo's cards off").last
    take_off.scroll_into_view_if_needed()
    expect(page.get_by_text("ann.png: the numbers are the card numbers below")).to_be_visible()
    expect(note).not_to_contain_text(where)  # on the screen now
    take_off.click()
    settle(page)
    expect(page.get_by_text("photographed twice")).to_have_count(0)
    no_errors_on(page)
