"""The app checked by axe-core (the accessibility engine browsers' own tools use, bundled by
axe-playwright-python) in a real browser at a phone's size, with the stand-in reader and
`test_browser`'s helpers: no serious or critical violation of WCAG 2 A and AA on the Black Cat
page (in English and Spanish, a pile's tools open and a card picked, the photo zoomed in; a
photo of the whole table read) or on the Black Lady page, and headings in order. Streamlit's
own minor ones (its uploader's drop zone is a presentational element that takes focus) are
left to Streamlit."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
import test_browser
import test_browser_spanish
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Locator, Page, expect
from test_browser import (
    LIVE_MS,
    blank_png,
    new_game,
    no_errors_on,
    open_app,
    open_expander,
    settle,
    strip_card,
    to_black_lady,
    type_pile,
    type_tricks,
    whose_tricks,
)
from test_browser_whole_table import upload_the_whole_table

# test_browser's fixtures, here too: the browser and the app with the stand-in reader
browser = test_browser.browser
fake_reader_server = test_browser.fake_reader_server
spanish_page = test_browser_spanish.spanish_page

WCAG = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}
BLOCKING = {"serious", "critical"}
OURS_TOO = {"heading-order"}  # moderate, but the page's headings are ours


@pytest.fixture
def page(browser: Browser, fake_reader_server: str) -> Iterator[Page]:
    yield from open_app(browser, fake_reader_server)


def barriers(page: Page) -> list[str]:
    """axe-core's violations on the page as it stands that block someone: each rule, its help
    and the first few elements it found, one line each."""
    settle(page)
    found = Axe().run(page, options={**WCAG, "resultTypes": ["violations"]}).response
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']}: "
        + " | ".join(node["html"][:120] for node in violation["nodes"][:3])
        for violation in found["violations"]
        if violation["impact"] in BLOCKING or violation["id"] in OURS_TOO
    ]


def test_the_black_cat_page_with_a_card_picked_and_the_photo_zoomed_has_no_barrier(
    page: Page,
) -> None:
    assert barriers(page) == []
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": "piles.png", "mimeType": "image/png", "buffer": blank_png(200, 120)}]
    )
    settle(page)
    expect(page.get_by_text("6 cards in 2 piles").first).to_be_visible()
    assert barriers(page) == []  # the photo read: its piles and the scoreboard
    strip_card(page, 0, 2).click()  # picks it and opens its pile's tools
    settle(page)
    expect(page.get_by_label("Card 1.3 is")).to_be_visible()
    assert barriers(page) == []
    page.get_by_text("Zoom in").click()  # the photo wider than the phone, scrolled sideways
    settle(page)
    expect(page.get_by_role("region", name="The photo zoomed in")).to_be_visible()
    assert barriers(page) == []


def test_the_black_cat_page_in_spanish_has_no_barrier(spanish_page: Page) -> None:
    assert barriers(spanish_page) == []


def test_a_photo_of_the_whole_table_read_has_no_barrier(page: Page) -> None:
    page.get_by_role("radio", name="The whole table").click()
    settle(page)
    upload_the_whole_table(page)
    expect(page.get_by_text("16 cards in 5 piles").first).to_be_visible()
    assert barriers(page) == []


def test_the_black_lady_page_has_no_barrier(page: Page) -> None:
    to_black_lady(page)
    assert barriers(page) == []


def focused(page: Page) -> str:
    """The accessible name (else the words) of the control that has the keyboard's focus, or
    what took it instead (the page's body: the focus fell to the top)."""
    return page.evaluate(
        """() => {
          const element = document.activeElement;
          if (!element || element === document.body) return "(the page)";
          return element.getAttribute("aria-label") || element.textContent.trim();
        }"""
    )


def press(page: Page, control: Locator, key: str = "Enter") -> None:
    control.focus()
    page.keyboard.press(key)
    settle(page)


def focus_kept(page: Page) -> None:
    """Wait until a control has the focus again (polled by the clock: a page's animation
    frames, Playwright's default, may not come in a browser without a screen)."""
    page.wait_for_function("() => document.activeElement !== document.body", polling=100)


def test_the_keyboards_focus_stays_put_when_the_page_is_drawn_anew(page: Page) -> None:
    # Adding a player, Undo and removing a player draw those buttons anew: the focus on them
    # fell to the page's top, a keyboard's or a screen reader's user lost their place.
    new_game(page)
    press(page, page.get_by_role("button", name="➕ Player"))
    expect(page.get_by_role("button", name="Remove")).to_be_enabled()  # two players now
    focus_kept(page)
    # on the new player's name, to type it (it stayed on ➕ Player: helper-63)
    page.wait_for_function("() => document.activeElement.getAttribute('aria-label') === 'Name'")
    assert page.evaluate("() => document.activeElement.value") == "Player 2"
    press(page, page.get_by_role("button", name="↶ Undo"))
    expect(page.get_by_role("button", name="Remove")).to_be_disabled()  # one player again
    focus_kept(page)
    assert focused(page) == "↶ Undo"
    press(page, page.get_by_role("button", name="➕ Player"))
    remove_player(page)
    expect(page.get_by_role("button", name="Remove")).to_be_disabled()
    # the one player left can't be removed: the control before Remove takes the focus
    focus_kept(page)
    assert focused(page) == "➕ Player"
    press(page, page.get_by_role("button", name="➕ Player"))
    press(page, page.get_by_role("button", name="➕ Player"))
    remove_player(page)  # of three players
    expect(page.locator(".st-key-player [role=radio]")).to_have_count(2)  # two players left
    focus_kept(page)
    # not on the next player's question, where a second Enter would remove them too
    assert not focused(page).startswith("Yes, remove")


def remove_player(page: Page) -> None:
    """Remove (the player shown), which asks first: its question takes the focus, Enter
    answers it."""
    press(page, page.get_by_role("button", name="Remove"))
    yes = page.get_by_role("button", name=re.compile("^Yes, remove "))
    expect(yes).to_be_focused()
    press(page, yes)


def test_the_focus_on_a_control_that_goes_away_stays_near_it(page: Page) -> None:
    # a pile removed with its tools: the focus on "Remove pile 3" fell to the page's top
    new_game(page)
    press(page, page.get_by_role("button", name="➕ Another pile for Player 1"))
    press(page, page.locator("summary", has_text="Fix, add or move cards of pile 3"))
    press(page, page.get_by_role("button", name="Remove pile 3"))
    expect(page.locator("summary", has_text="cards of pile 3")).to_have_count(0)
    focus_kept(page)
    assert focused(page) != "(the page)"
    # the focus goes back near where it was: still in the same player's piles
    assert page.evaluate("() => !!document.activeElement.closest('.stMain')")


def test_a_question_left_open_gives_up_the_focus_once_the_game_changes(page: Page) -> None:
    # "New game" asked by keys, Tab out of it (the page's body), then a rename's Enter: the
    # question left open took the focus back, and the next Enter cleared the table
    new_game(page)
    press(page, page.get_by_role("button", name="New game"))
    expect(page.get_by_role("button", name="Yes, a new game")).to_be_focused()
    page.keyboard.press("Tab")
    name = page.get_by_label("Name")
    name.fill("Zed")
    press(page, name)
    expect(page.get_by_role("button", name="Yes, a new game")).to_have_count(0)  # closed
    assert focused(page) == "Name"


def test_another_phones_new_game_gives_the_focus_back_to_new_game(
    browser: Browser, page: Page
) -> None:
    # "New game" asked by keys, and another phone started one: the question closed (its "Yes"
    # would start a second), and the focus went to "➕ Next game", where Enter added a game
    type_pile(page, 1, "QS 2C")
    open_expander(page, "Open on another phone")
    link = page.locator("p.bc-link").inner_text().strip()
    other = open_app(browser, link)
    ben = next(other)
    press(page, page.get_by_role("button", name="New game"))
    answer = page.get_by_role("button", name="Yes, a new game")
    expect(answer).to_be_focused()
    new_game(ben)
    expect(answer).to_have_count(0, timeout=LIVE_MS)  # the new game came: the question closed
    focus_kept(page)
    expect(page.get_by_role("button", name="New game")).to_be_focused()  # where it was asked
    page.keyboard.press("Enter")  # asks again, as before: nothing done unasked
    expect(answer).to_be_focused()
    expect(page.get_by_label("Pile 1, left to right")).to_have_value("")  # Ben's new game
    no_errors_on(page)
    other.close()


def test_headings_links_are_no_stops_for_tab(page: Page) -> None:
    links = page.locator('[data-testid="stHeaderActionElements"] a')
    expect(links.first).to_have_attribute("tabindex", "-1")
    assert links.count() > 2  # the page's headings, each with Streamlit's link
    assert all(link.get_attribute("tabindex") == "-1" for link in links.all())


def test_a_group_of_choices_is_one_stop_for_tab_at_its_chosen_one(page: Page) -> None:
    # Tab from the player after Player 1's tricks came back to the last player, whose tricks
    # a typed line then replaced
    to_black_lady(page)
    type_tricks(page, "Player 1", "QS AH 3C")
    players = page.locator(".st-key-lady_seat [role=radio]")
    expect(players).to_have_count(3)
    expect(players.nth(0)).to_have_attribute("tabindex", "0")
    expect(players.nth(2)).to_have_attribute("tabindex", "-1")
    players.nth(0).focus()
    page.keyboard.press("End")  # to the last, Home to the first, the arrows along
    expect(players.nth(2)).to_be_focused()
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    expect(players.nth(1)).to_be_focused()
    press(page, players.nth(1))  # Enter chooses
    expect(players.nth(1)).to_have_attribute("aria-checked", "true")
    expect(players.nth(1)).to_have_attribute("tabindex", "0")
    expect(players.nth(0)).to_have_attribute("tabindex", "-1")


def test_a_seats_mark_is_said_in_words(page: Page) -> None:
    # "Player 1 ✓" / "Player 2 (not in yet)": a screen reader said "check mark" and nothing
    to_black_lady(page)
    type_tricks(page, "Player 1", "QS AH 3C")
    players = page.locator(".st-key-lady_seat [role=radio]")
    expect(players.nth(0)).to_have_attribute("aria-label", "Player 1, tricks in")
    expect(players.nth(1)).to_have_attribute("aria-label", "Player 2, tricks still to come")
    whose_tricks(page, "Player 2")
    page.locator('[data-testid="stCheckbox"]', has_text="took no trick").click()
    expect(players.nth(1)).to_have_text("Player 2 ✓ no trick")
    expect(players.nth(1)).to_have_attribute("aria-label", "Player 2, no trick taken")


def test_a_card_moved_by_keys_leaves_the_focus_in_its_tools(page: Page) -> None:
    # Streamlit hides the "→ Player 2" it takes away: the focus on it fell to the page
    to_black_lady(page)
    type_tricks(page, "Player 1", "QS AH 3C")
    press(page, page.locator("summary", has_text="Fix, add or move Player 1's cards"))
    press(page, page.locator("[class*=st-key-sel-] [role=radio]").first)
    press(page, page.get_by_role("radio", name="→ Player 2"))
    expect(page.get_by_label("Player 1's tricks, any order")).to_have_value("AH 3C")
    focus_kept(page)
    assert page.evaluate("() => !!document.activeElement.closest('.stMain')")


def test_a_removed_deal_leaves_the_focus_off_the_next_deals_remove(page: Page) -> None:
    to_black_lady(page)
    for tricks in ("QS", "AH", "3C"):
        type_tricks(page, "Player 1", tricks)
        press(page, page.get_by_role("button", name="➕ Next deal"))
    press(page, page.get_by_role("radio", name="Deal 1", exact=True))
    press(page, page.get_by_role("button", name="🗑 Remove deal 1"))
    press(page, page.get_by_role("button", name="Yes, remove deal 1"))  # it asks first
    expect(page.locator(".st-key-lady-deal [role=radio]")).to_have_count(3)
    focus_kept(page)
    # a second Enter would have removed the next deal too
    assert focused(page) not in ("🗑 Remove deal 1", "Yes, remove deal 1")


def test_a_new_game_by_keys_starts_the_focus_at_its_first_choice(page: Page) -> None:
    to_black_lady(page)
    type_tricks(page, "Player 1", "QS AH 3C")
    press(page, page.get_by_role("button", name="New game"))
    press(page, page.get_by_role("button", name="Yes, a new game"))
    expect(page.get_by_label("Player 1's tricks, any order")).to_have_value("")
    page.wait_for_function(
        "() => !!document.activeElement.closest('.st-key-lady-count')", polling=100
    )


def test_a_refusal_is_said_to_a_screen_reader(page: Page) -> None:
    to_black_lady(page)
    press(page, page.get_by_role("button", name="➕ Next deal"))  # deal 1 has no tricks yet
    expect(page.locator('[data-testid="stToast"]')).to_be_visible()
    expect(page.locator("#blackcat-voice[role=alert]")).to_have_text(re.compile("no tricks"))


def test_taps_on_the_page_add_no_steps_to_the_browsers_back(page: Page) -> None:
    # every tap wrote the game into the address as a new entry: Back stepped through them all
    page.wait_for_function("() => !!window.blackcatPageTender", polling=100)  # its script in
    before = page.evaluate("() => window.history.length")
    new_game(page)
    type_pile(page, 1, "QS 2C")
    type_pile(page, 1, "QS 2C 3H")
    expect(page).to_have_url(re.compile(r"table="))  # the game is in the address
    assert page.evaluate("() => window.history.length") == before
    to_black_lady(page)  # another page is a step
    assert page.evaluate("() => window.history.length") == before + 1


def test_a_field_the_keyboard_is_in_stays_in_view_as_cards_are_drawn_above_it(
    page: Page,
) -> None:
    # twenty cards drawn over the tricks' field after Enter pushed it below a phone's screen
    to_black_lady(page)
    type_tricks(page, "Player 1", "JS")  # in: a fix of them keeps the page on Player 1
    field = page.get_by_label("Player 1's tricks, any order")
    field.focus()
    field.select_text()  # typed over
    field.evaluate("field => field.scrollIntoView({ block: 'end' })")  # at the screen's foot
    page.keyboard.type("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH QS 2C 3C 4C 5C 6C 7C")
    page.keyboard.press("Enter")
    settle(page)
    expect(page.get_by_text(re.compile("· 20 cards")).first).to_be_attached()
    expect(field).to_be_focused()
    expect(field).to_be_in_viewport()


def test_typed_tricks_hand_the_keyboard_to_the_next_players_field(page: Page) -> None:
    to_black_lady(page)
    field = page.get_by_label("Player 1's tricks, any order")
    field.focus()
    page.keyboard.type("QS AH 3C")
    page.keyboard.press("Enter")
    settle(page)
    following = page.get_by_label("Player 2's tricks, any order")
    expect(following).to_be_focused()
    expect(following).to_be_in_viewport()


def test_tab_leaves_the_last_queens_choice_of_an_open_panel(page: Page) -> None:
    # Tab from the last Queen's choice came back to the panel's first Queen (Chromium wraps
    # within an open <details> from a choice that is no stop, where React Aria's toolbar puts
    # the focus first): a keyboard trap, Shift+Tab the only way out
    new_game(page)
    type_pile(page, 1, "QS QH 2C QD")
    press(page, page.locator("summary", has_text="Queens of pile 1"))
    queens = page.locator("[class*=st-key-pin-] [role=radiogroup]")
    expect(queens).to_have_count(3)
    queens.last.get_by_role("radio", name="Best").focus()
    page.keyboard.press("Tab")
    expect(page.get_by_label("Pile 1, left to right")).to_be_focused()
    queens.nth(1).get_by_role("radio", name="Best").focus()
    page.keyboard.press("Shift+Tab")  # to the Queen before's chosen value, no other
    expect(queens.nth(0).get_by_role("radio", name="Best")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    expect(page.locator("summary", has_text="Queens of pile 1")).to_be_focused()


def test_a_switch_the_keyboard_reaches_is_ringed(page: Page) -> None:
    # Streamlit marked a focused switch by a grey tint behind its words, 1.1:1 on white: one
    # moving by keys could not see where they were
    camera = page.get_by_role("switch", name="Use this device's camera here")
    page.get_by_role("button", name="Upload", exact=True).focus()
    page.keyboard.press("Tab")
    expect(camera).to_be_focused()
    ring = page.locator('[data-testid="stCheckbox"] label', has=camera)
    expect(ring).to_have_css("outline-style", "solid")
    expect(ring).to_have_css("outline-width", "3px")


def test_a_jump_to_the_cards_to_check_by_keys_takes_the_focus_there(page: Page) -> None:
    # Enter on "↓ 1 card in orange" scrolled the pile into view and left the focus on the
    # jump, a screen above: the next Tab went back up to "↶ Undo", and a screen reader heard
    # nothing move
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": "piles.png", "mimeType": "image/png", "buffer": blank_png(200, 120)}]
    )
    settle(page)
    press(page, page.get_by_role("button", name="↓ 1 card in orange"))
    card = page.get_by_role("button", name="1.2 · 2 of hearts: check this card")
    expect(card).to_be_focused()
    expect(card).to_be_in_viewport()
    page.keyboard.press("ArrowRight")  # on to its rest of the pile, not back up the page
    expect(strip_card(page, 0, 2)).to_be_focused()


def test_escape_on_a_picked_card_lets_it_go(page: Page) -> None:
    # Escape did nothing: only a second Enter let go of a card picked by keys
    new_game(page)
    type_pile(page, 1, "QS 2C 3H")
    card = strip_card(page, 0, 1)
    press(page, card)
    expect(card).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("radiogroup", name="Card 1.2's rank")).to_be_visible()
    press(page, card, "Escape")
    expect(page.get_by_role("radiogroup", name="Card 1.2's rank")).to_have_count(0)
    expect(strip_card(page, 0, 1)).to_have_attribute("aria-pressed", "false")
    focus_kept(page)
    expect(strip_card(page, 0, 1)).to_be_focused()
    press(page, strip_card(page, 0, 2), "Escape")  # a card not picked: nothing picked
    expect(strip_card(page, 0, 2)).to_have_attribute("aria-pressed", "false")


def test_each_games_page_says_its_game_in_its_title(page: Page) -> None:
    # the Black Lady page was titled "Black Cat score": a screen reader's list of tabs, or a
    # phone's, named the other game
    expect(page).to_have_title("Black Cat score")
    to_black_lady(page)
    expect(page).to_have_title("Black Lady score")
    page.get_by_role("radio", name="Español").click()
    settle(page)
    expect(page).to_have_title("Puntos de Black Lady")
    page.get_by_role("radio", name="Gato negro").click()
    settle(page)
    expect(page).to_have_title("Puntos de Gato negro")


def test_a_suits_choice_is_named_in_words(page: Page) -> None:
    # named "♠": a screen reader said "black heart suit" for hearts, or, at some punctuation
    # levels, nothing but "radio button"
    new_game(page)
    type_pile(page, 1, "QS 2C 3H")
    press(page, strip_card(page, 0, 1))
    suits = page.get_by_role("radiogroup", name="Card 1.2's suit").get_by_role("radio")
    names = ["spades", "hearts", "diamonds", "clubs"]
    expect(suits).to_have_count(4)
    for suit, name in zip(suits.all(), names, strict=True):
        expect(suit).to_have_accessible_name(name)
    expect(suits.nth(3)).to_have_attribute("aria-checked", "true")  # 2♣'s
    # and the pile's tools, which the card picked opened: their "Add a card" row
    suits = page.get_by_role("radiogroup", name="Suit", exact=True).get_by_role("radio")
    expect(suits).to_have_count(4)
    for suit, name in zip(suits.all(), names, strict=True):
        expect(suit).to_have_accessible_name(name)


def card_focused(page: Page) -> str | None:
    """The position (as drawn) of the strip's card that has the keyboard's focus, if one has."""
    return page.evaluate("() => document.activeElement.dataset.bcPosition ?? null")


def test_a_piles_strip_is_one_stop_for_tab_and_the_arrows_move_along_it(page: Page) -> None:
    # every card a stop for Tab: a card picked by Enter had its rank and suit up to 14 Tabs
    # away, past every card after it (an accessibility audit)
    new_game(page)
    type_pile(page, 1, "KD 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC")  # wider than a phone
    cards = page.locator('[data-bc-pile][tabindex="0"]')
    expect(cards).to_have_count(1)  # the strip's first card
    expect(cards).to_have_attribute("data-bc-position", "0")
    cards.focus()
    page.keyboard.press("ArrowRight")
    expect(strip_card(page, 0, 1)).to_be_focused()
    page.keyboard.press("End")  # the last card, scrolled into the strip's view
    last = strip_card(page, 0, 11)
    expect(last).to_be_focused()
    expect(last).to_be_in_viewport(ratio=1)
    page.keyboard.press("ArrowLeft")
    expect(strip_card(page, 0, 10)).to_be_focused()
    # the strip half under Streamlit's top bar: the card the arrow moves to comes out whole
    card_top = strip_card(page, 0, 9).bounding_box()["y"]
    page.mouse.wheel(0, card_top - 20)
    page.wait_for_function("() => document.activeElement.getBoundingClientRect().top < 30")
    page.keyboard.press("ArrowLeft")
    expect(strip_card(page, 0, 9)).to_be_focused()
    bar = page.locator('[data-testid="stHeader"]').bounding_box()
    assert strip_card(page, 0, 9).bounding_box()["y"] >= bar["y"] + bar["height"]
    page.keyboard.press("Home")
    expect(strip_card(page, 0, 0)).to_be_focused()
    expect(strip_card(page, 0, 0)).to_be_in_viewport(ratio=1)
    page.keyboard.press("ArrowLeft")  # the first stays: nothing before it
    expect(strip_card(page, 0, 0)).to_be_focused()
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")  # picks 1.11, and its strip is drawn anew
    settle(page)
    expect(strip_card(page, 0, 10)).to_have_attribute("aria-pressed", "true")
    focus_kept(page)
    expect(strip_card(page, 0, 10)).to_be_focused()
    page.keyboard.press("Tab")  # straight on to its rank, past no other card
    rank = page.get_by_role("radiogroup", name="Card 1.11's rank")
    expect(rank.get_by_role("radio", name="J", exact=True)).to_be_focused()
    page.keyboard.press("Shift+Tab")  # back to the strip: its picked card
    expect(strip_card(page, 0, 10)).to_be_focused()
    page.keyboard.press("Shift+Tab")  # and out of it, up the page
    assert card_focused(page) is None and focused(page) != "(the page)"
    page.keyboard.press("Tab")
    expect(strip_card(page, 0, 10)).to_be_focused()


def test_a_card_the_arrows_reached_keeps_the_focus_when_its_strip_is_drawn_anew(
    page: Page,
) -> None:
    new_game(page)
    type_pile(page, 1, "QS 2C 3H 4D")
    strip_card(page, 0, 0).focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press(" ")  # Space picks, as Enter does
    settle(page)
    expect(strip_card(page, 0, 2)).to_have_attribute("aria-pressed", "true")
    focus_kept(page)
    expect(strip_card(page, 0, 2)).to_be_focused()
    page.keyboard.press("Escape")  # let go of: drawn anew, its first card the strip's stop
    settle(page)
    expect(strip_card(page, 0, 2)).to_have_attribute("aria-pressed", "false")
    focus_kept(page)
    expect(strip_card(page, 0, 2)).to_be_focused()  # where the keyboard was, still its stop
    expect(page.locator('[data-bc-pile][tabindex="0"]')).to_have_count(1)
    expect(strip_card(page, 0, 2)).to_have_attribute("tabindex", "0")
    page.keyboard.press("ArrowRight")
    expect(strip_card(page, 0, 3)).to_be_focused()
    expect(strip_card(page, 0, 3)).to_have_accessible_name("1.4 · 4 of diamonds")


def test_a_players_tricks_are_one_stop_for_tab_and_the_arrows_move_along_them(
    page: Page,
) -> None:
    to_black_lady(page)
    type_tricks(page, "Player 1", "QS AH 3C")
    expect(page.locator('[data-bc-pile][tabindex="0"]')).to_have_count(1)
    strip_card(page, 0, 0).focus()
    page.keyboard.press("End")
    expect(strip_card(page, 0, 2)).to_be_focused()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")  # picks the A♥
    settle(page)
    expect(strip_card(page, 0, 1)).to_have_attribute("aria-pressed", "true")
    focus_kept(page)
    expect(strip_card(page, 0, 1)).to_be_focused()
    page.keyboard.press("Tab")  # on to its tools, past no other card
    assert card_focused(page) is None and focused(page) != "(the page)"
