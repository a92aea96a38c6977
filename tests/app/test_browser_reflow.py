"""Both games on the narrowest phone with the largest text (WCAG's reflow and resized text): a
page 320 px wide, its text at twice its size, in English and in Spanish (whose words are longer),
with the stand-in reader and the helpers and servers of `test_browser`. Every word shows whole:
none cut short with "…", none past the screen's edge, and the page never scrolls sideways (a
strip of cards and the score sheet do, on purpose). Streamlit cut the words of buttons in a row,
of choices ("One player's piles") and of the uploader's limit, scrolled "Black Lady" out of the
game switch, and pushed the scoreboard's Total, a toast's first words and most of a seat's name
past the edge (helper-109)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
import test_browser
from playwright.sync_api import Browser, Page, expect
from test_browser import (
    blank_png,
    drawn,
    new_page,
    no_errors_on,
    open_expander,
    settle,
    shoot,
    strip_card,
    tap,
)

from blackcat.i18n import translator

# test_browser's fixtures, here too: the browser and the app with the stand-in reader
browser = test_browser.browser
fake_reader_server = test_browser.fake_reader_server

NARROWEST = {"width": 320, "height": 640}
LOCALES = {"en": "en-US", "es": "es-ES"}
TWICE_THE_TEXT = """document.addEventListener("DOMContentLoaded", () => {
  const style = document.createElement("style");
  style.textContent = "html { font-size: 200% !important; }";
  document.head.appendChild(style);
});"""
"""A phone's largest text, from the page's first drawing on."""

SIDEWAYS_ON_PURPOSE = ".bc-strip, .bl-tricks, .bl-sheet-wrap"
NAME_FIELDS = '[class*="st-key-name-"] input, [class*="st-key-lady-name-"] input'

CUT_OFF = """([sideways, names]) => {
  const screen = document.documentElement.clientWidth;
  const main = document.querySelector('[data-testid="stMain"]');
  const found = [];
  if (main.scrollWidth > main.clientWidth + 1) {
    found.push(`the page scrolls sideways: ${main.scrollWidth} px`);
  }
  for (const element of document.querySelectorAll('[data-testid="stApp"] *')) {
    const words = (element.innerText || "").trim().slice(0, 60);
    const box = element.getBoundingClientRect();
    // no words, nothing drawn, or words for a screen reader alone (1 px)
    if (!words || box.width === 0 || element.clientWidth <= 2) continue;
    const style = getComputedStyle(element);
    if (style.textOverflow === "ellipsis" && element.scrollWidth > element.clientWidth + 1) {
      found.push(`cut with "…": ${words}`);
    }
    const own = [...element.childNodes].some(
      node => node.nodeType === Node.TEXT_NODE && node.textContent.trim());
    if (own && (box.right > screen + 1 || box.left < -1) && !element.closest(sideways)) {
      found.push(`past the edge: ${words}`);
    }
  }
  for (const field of document.querySelectorAll(names)) {
    if (field.scrollWidth > field.clientWidth + 1) found.push(`a name cut: ${field.value}`);
  }
  return found;
}"""
"""What a player could not read whole on the page as it stands."""


def cut_off(page: Page) -> list[str]:
    drawn(page)
    return page.evaluate(CUT_OFF, [SIDEWAYS_ON_PURPOSE, NAME_FIELDS])


@pytest.fixture(params=["en", "es"])
def narrowest_page(
    request: pytest.FixtureRequest, browser: Browser, fake_reader_server: str
) -> Iterator[tuple[Page, Callable[[str], str]]]:
    """The app in the language `request.param` on a 320 px phone at twice the text size, its
    first run settled; with the page's translation of a message."""
    context = browser.new_context(viewport=NARROWEST, locale=LOCALES[request.param])
    context.add_init_script(TWICE_THE_TEXT)
    page = new_page(context)
    page.goto(f"{fake_reader_server}/?lang={request.param}")
    expect(page.locator("table.bc-board")).to_be_visible()
    settle(page)
    yield page, translator(request.param).gettext
    context.close()


def test_black_cats_words_are_whole_on_a_320_px_phone_at_twice_the_text_size(
    narrowest_page: tuple[Page, Callable[[str], str]],
) -> None:
    page, _ = narrowest_page
    shoot(page, f"reflow-{_('Player')}")
    assert cut_off(page) == []  # the game switch, the scoreboard, the photo's choice, its limit

    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": "piles.png", "mimeType": "image/png", "buffer": blank_png(200, 120)}]
    )
    settle(page)
    open_expander(page, _("✏️ Fix, add or move cards of pile {number}").format(number=1))
    tap(page, strip_card(page, 0, 0))
    expect(page.locator('[class*="st-key-put-before-"]')).to_be_visible()
    assert cut_off(page) == []  # a card before, a new pile from it, add, join, remove the pile

    page.get_by_role("button", name=_("➕ Next game")).click()
    settle(page)
    open_expander(page, _("⬇️ Download the scores"))
    expect(page.locator('[class*="st-key-night-csv"]')).to_be_visible()
    assert cut_off(page) == []  # the night's and the scoreboard's files
    no_errors_on(page)


def test_black_ladys_words_are_whole_on_a_320_px_phone_at_twice_the_text_size(
    narrowest_page: tuple[Page, Callable[[str], str]],
) -> None:
    page, _ = narrowest_page
    page.get_by_role("radio", name="Black Lady").click()
    settle(page)
    first = _("Player {number}").format(number=1)
    expect(page.get_by_label(_("Seat {number}").format(number=1))).to_have_value(first)
    assert cut_off(page) == []  # the seats' names, the game switch

    tricks = page.get_by_label(_("{name}'s tricks, any order").format(name=first))
    tricks.fill("QS AH 3C")
    tricks.press("Enter")
    settle(page)
    toast = page.locator('[data-testid="stToast"]')
    expect(toast).to_be_visible()
    box = toast.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= NARROWEST["width"]
    assert cut_off(page) == []
    no_errors_on(page)
