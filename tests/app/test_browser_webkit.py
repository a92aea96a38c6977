"""The app in Safari's engine: every iPhone browser is WebKit, and the other browser tests drive
Chromium. WebKitGTK's WebDriver (Debian's `webkit2gtk-driver`) drives its MiniBrowser at a
phone's size (390×844) on a virtual display (Debian's `xvfb`), through Selenium; the app runs
with the stand-in reader. Skips, saying what is missing, without any of the three."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import test_browser
from test_browser import LIVE_MS, PHONE, PHOTO_SHOWN, WAIT_MS, blank_png

webdriver = pytest.importorskip("selenium.webdriver", reason="Selenium is not installed")
from selenium.webdriver.common.by import By  # noqa: E402 - after the skip above
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402

WEBKIT_DRIVER = shutil.which("WebKitWebDriver")
XVFB = shutil.which("Xvfb")
pytestmark = pytest.mark.skipif(
    WEBKIT_DRIVER is None or XVFB is None,
    reason="WebKit's browser tests need WebKitWebDriver and Xvfb "
    "(apt-get install webkit2gtk-driver xvfb)",
)

# test_browser's fixture: the app with the stand-in reader
fake_reader_server = test_browser.fake_reader_server

# MiniBrowser's toolbar is wider than a phone (its window stopped at 447 px): its buttons and
# address field shrunk, the page gets the phone's width.
NARROW_TOOLBAR = """headerbar, headerbar *, toolbar, toolbar *, entry, button {
  min-width: 0; min-height: 0; padding: 0; margin: 0; border-width: 0; font-size: 4px; }
"""
DRIVER_S = 120  # the longest the driver may take to answer (MiniBrowser not started: never)
RUN_START_S = 5  # how long an action may take to start its run before none is taken to come
QUIET_S = 1  # how long a page just opened must go without a run to be taken as drawn


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    """A virtual X display for the browser's windows."""
    read, write = os.pipe()
    # -noreset: as its last window closed (a test's browser quit) the X server reset, and the
    # next test's browser, opening then, could not open the display
    command = [str(XVFB), "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-noreset"]
    server = subprocess.Popen([*command, "-nolisten", "tcp"], pass_fds=(write,))
    os.close(write)
    with os.fdopen(read) as answer:
        number = answer.readline().strip()
    try:
        assert number, "Xvfb did not start"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture
def phones(display: str, tmp_path: Path) -> Iterator[Callable[[], Phone]]:
    """Opens a phone (a WebKit browser of its own) on each call; all closed after the test."""
    opened: list[Phone] = []

    def open_phone() -> Phone:
        phone = Phone(start_webkit(display, tmp_path / f"phone-{len(opened)}"))
        opened.append(phone)
        return phone

    yield open_phone
    for phone in opened:
        phone.driver.quit()


def start_webkit(display: str, home: Path) -> webdriver.WebKitGTK:
    """MiniBrowser at a phone's size, its downloads saved in `home`/downloads."""
    config = home / "config"
    (config / "gtk-3.0").mkdir(parents=True)
    (config / "gtk-3.0" / "gtk.css").write_text(NARROW_TOOLBAR)
    (home / "downloads").mkdir()
    (config / "user-dirs.dirs").write_text(f'XDG_DOWNLOAD_DIR="{home / "downloads"}"\n')
    env = {**os.environ, "DISPLAY": display, "HOME": str(home), "XDG_CONFIG_HOME": str(config)}
    service = webdriver.WebKitGTKService(
        executable_path=WEBKIT_DRIVER, env=env, log_output=str(home / "webdriver.log")
    )
    options = webdriver.WebKitGTKOptions()
    options.set_capability("webkitgtk:browserOptions", {"args": ["--automation"]})
    # the driver's connection takes the default socket timeout as it is made: unbounded, a
    # browser that never started held the whole suite
    unbounded = socket.getdefaulttimeout()
    socket.setdefaulttimeout(DRIVER_S)
    try:
        driver = webdriver.WebKitGTK(options=options, service=service)
    finally:
        socket.setdefaulttimeout(unbounded)
    driver.set_window_size(PHONE["width"], PHONE["height"])
    toolbar = PHONE["height"] - driver.execute_script("return window.innerHeight")
    driver.set_window_size(PHONE["width"], PHONE["height"] + toolbar)
    return driver


RUNS_JS = """
const app = document.querySelector('[data-testid="stApp"]');
if (!app) return -1;  // not drawn yet
if (!window.bcRuns) {
  window.bcRuns = { ended: 0, errors: [] };
  const count = (changes) => {
    window.bcRuns.ended += changes.filter((change) => change.oldValue === "running").length;
  };
  const state = { attributeFilter: ["data-test-script-state"], attributeOldValue: true };
  new MutationObserver(count).observe(app, state);
  window.addEventListener("error", (event) => window.bcRuns.errors.push(String(event.message)));
  window.addEventListener("unhandledrejection", (event) =>
    window.bcRuns.errors.push(String(event.reason)));
}
return window.bcRuns.ended;
"""
"""The app's script runs the page has seen end since it was watched (Streamlit marks its app
"running" for each: a run begun and ended between two looks counts too), from a first call
after the page loaded (-1 before its app is drawn); the script errors seen since."""


FIND_JS = """const [selector, words] = arguments;
return [...document.querySelectorAll(selector)].filter(
  (element) => element.getClientRects().length && element.textContent.includes(words));"""


class Phone:
    """A WebKit browser on the app, with the few gestures the tests make."""

    def __init__(self, driver: webdriver.WebKitGTK) -> None:
        self.driver = driver

    def open(self, url: str) -> None:
        """The page at `url`, drawn (its title is), and no run of it for a while: the first
        run can be followed by another."""
        self.driver.get(url)
        title = "return document.querySelector('h1, h2') !== null"
        self.until(lambda: self.driver.execute_script(title), url)
        self.driver.execute_script(RUNS_JS)  # watched from here
        quiet_since, ended = time.monotonic(), -1
        while time.monotonic() - quiet_since < QUIET_S:
            now = self.driver.execute_script(RUNS_JS)
            if now != ended or self.running():
                quiet_since, ended = time.monotonic(), now
            time.sleep(0.05)

    def running(self) -> bool:
        state = '[data-testid="stApp"][data-test-script-state="notRunning"]'
        return not self.driver.find_elements(By.CSS_SELECTOR, state)

    def until(self, done: Callable[[], object], what: str, seconds: float = WAIT_MS / 1000) -> None:
        deadline = time.monotonic() + seconds
        while not done():
            assert time.monotonic() < deadline, f"waited {seconds} s in vain for {what}"
            time.sleep(0.05)

    def settle(self, runs_before: int) -> None:
        """Wait for the run an action started (if one starts) to end, and any after it."""
        deadline = time.monotonic() + RUN_START_S
        while self.driver.execute_script(RUNS_JS) <= runs_before and time.monotonic() < deadline:
            time.sleep(0.05)
        self.drawn()

    def drawn(self) -> None:
        """Wait until no run of the app is drawing the page."""
        self.until(lambda: not self.running(), "the app's run to finish")

    def act(self, action: Callable[[], object]) -> None:
        """`action`, and the runs it starts."""
        before = self.driver.execute_script(RUNS_JS)
        action()
        self.settle(before)

    def tap(self, element: WebElement) -> None:
        """Tap `element` once no run is drawing the page (a tap on a part drawn anew can be
        lost), and wait for the runs it starts."""
        before = self.driver.execute_script(RUNS_JS)
        self.press(element)
        self.settle(before)

    def press(self, element: WebElement) -> None:
        """Tap `element`, which starts no run (it opens a panel), once no run draws the page."""
        self.drawn()
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        self.resting(element)
        element.click()

    def resting(self, element: WebElement) -> None:
        """Wait until `element` stops moving on the screen (a smooth scroll, a panel opening):
        a tap on it while it moves can miss it."""
        rect = "return arguments[0].getBoundingClientRect().top"
        tops = [self.driver.execute_script(rect, element)]

        def still() -> bool:
            time.sleep(0.05)
            tops.append(self.driver.execute_script(rect, element))
            return tops[-1] == tops[-2]

        self.until(still, "the element to stop moving")

    def find(self, selector: str, words: str = "") -> WebElement:
        """The first element of `selector` drawn on the page (not in a closed panel) whose words
        (icons' included) hold `words`, once there is one."""
        return self.first(
            lambda: self.driver.execute_script(FIND_JS, selector, words),
            f"{selector} with {words!r}",
        )

    def field(self, label: str) -> WebElement:
        return self.find(f'input[aria-label="{label}"]')

    def type_in(self, label: str, text: str) -> None:
        field = self.field(label)
        field.clear()
        self.act(lambda: field.send_keys(text + Keys.ENTER))

    def value_of(self, label: str) -> str:
        return self.field(label).get_property("value")  # its attribute is the first value

    def shows(self, label: str, value: str) -> None:
        """Wait for the field `label` to show `value`: Streamlit fills a field a moment after
        its run has finished (0.1-0.3 s; the page's words come first)."""
        self.until(lambda: self.value_of(label) == value, f"{label} to be {value!r}")

    def sees(self, words: str) -> None:
        """Wait for `words` to show on the page."""
        page = "return document.body.innerText"
        self.until(lambda: words in self.driver.execute_script(page), repr(words))

    def present(self, selector: str) -> WebElement:
        """The first element of `selector`, drawn or not (a file field is hidden), once there
        is one."""
        return self.first(lambda: self.driver.find_elements(By.CSS_SELECTOR, selector), selector)

    def first(self, look: Callable[[], list[WebElement]], what: str) -> WebElement:
        """The first element `look` finds, once it finds one."""
        found: list[WebElement] = []

        def finds() -> bool:
            found[:] = look()
            return bool(found)

        self.until(finds, what)
        return found[0]

    def upload(self, path: Path) -> None:
        dropzone = self.present('[data-testid="stFileUploaderDropzoneInput"]')
        self.act(lambda: dropzone.send_keys(str(path)))

    def open_expander(self, label: str) -> None:
        """Open the expander `label` and see it stay open (a run drawing the page as it was
        tapped can draw it anew, closed: tapped again then)."""
        for _ in range(test_browser.EXPANDER_TAPS):
            details = self.find("details", label)
            if details.get_attribute("open") is None:
                self.press(self.find("summary", label))
            time.sleep(test_browser.EXPANDER_STAYS_MS / 1000)
            if self.find("details", label).get_attribute("open") is not None:
                return
        raise AssertionError(f"the expander {label!r} did not stay open")

    def new_game(self) -> None:
        """ "New game" asks once: the question opened, answered (asked again where a run
        closed it before the answer was tapped)."""
        answer = ("[data-testid=stPopoverBody] button", "Yes, a new game")
        for _ in range(test_browser.NEW_GAME_TRIES):
            self.press(self.find("button", "New game"))
            with contextlib.suppress(AssertionError):
                self.until(lambda: self.driver.execute_script(FIND_JS, *answer), "the question", 5)
                self.tap(self.find(*answer))
                return
        raise AssertionError("the answer to New game could not be tapped")

    def no_errors(self) -> None:
        """No script error since the page was watched, no exception on the page."""
        assert self.driver.execute_script("return window.bcRuns.errors") == []
        assert not self.driver.find_elements(By.CSS_SELECTOR, '[data-testid="stException"]')


@pytest.fixture
def photo(tmp_path: Path) -> Path:
    """A photo for the stand-in reader: two piles, 1.2 doubtful (read as 2♥)."""
    path = tmp_path / "piles.png"
    path.write_bytes(blank_png(200, 120))
    return path


def test_a_photo_is_read_and_a_card_fixed_in_spanish_in_webkit(
    phones: Callable[[], Phone], fake_reader_server: str, photo: Path, tmp_path: Path
) -> None:
    """The example scored as the page opens; a photo read, its phantom card taken off and a card
    fixed in taps; the page in Spanish; the scoreboard downloaded."""
    phone = phones()
    phone.open(fake_reader_server)
    assert phone.driver.execute_script("return window.innerWidth") == PHONE["width"]
    phone.sees("36 points")  # the example, read and scored
    phone.upload(photo)
    phone.sees("6 cards in 2 piles, given to Player 1")
    phone.shows("Pile 1, left to right", "8D 2H 8H")
    phone.tap(phone.find("button", "✗ Not a card"))  # the misread card
    phone.shows("Pile 1, left to right", "8D 8H")
    phone.tap(phone.find('.bc-strip [data-bc-position="0"]'))
    phone.sees("Card 1.1 (8♦) picked")
    phone.tap(phone.find('[class*="st-key-retype-"] button', "K"))  # a tap on a rank fixes it
    phone.shows("Pile 1, left to right", "KD 8H")
    phone.sees("Player 1: 12 points")
    phone.tap(phone.find('[data-testid="stButtonGroup"] button', "Español"))
    phone.sees("Jugador 1: 12 puntos")  # the name the app gave, in the page's language
    phone.shows("Pila 1, de izquierda a derecha", "KD 8H")
    assert phone.driver.execute_script("return document.documentElement.lang") == "es"
    phone.open_expander("Descargar los puntos")
    phone.press(phone.find("button", "CSV"))
    saved = tmp_path / "phone-0" / "downloads" / "marcador.csv"
    phone.until(saved.exists, str(saved))
    assert saved.read_text(encoding="utf-8-sig").splitlines()[1].startswith("Jugador 1,")
    phone.no_errors()


FIELD_TOP = "return arguments[0].getBoundingClientRect().top"
STILL_LOOKS = 3  # the same place this many looks in a row (a quarter second apart)


def still_top(phone: Phone, label: str) -> float:
    """Where the field `label` lies on the screen once the page stopped moving, focused."""
    tops: list[float] = []
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        phone.drawn()
        field = phone.field(label)
        tops.append(phone.driver.execute_script(FIELD_TOP, field))
        loading = phone.driver.execute_script("return [...document.images].some(i => !i.complete)")
        last = tops[-STILL_LOOKS:]
        if len(last) == STILL_LOOKS and not loading and max(last) - min(last) < 1:
            break
        time.sleep(0.25)
    assert phone.driver.execute_script("return document.activeElement === arguments[0]", field)
    return tops[-1]


def typing_at(phone: Phone, label: str, top: float) -> float:
    """The field `label` focused to type in, scrolled to `top` px down the screen; its place.
    Scrolled again where the page was still too short to scroll it that far."""
    field = phone.field(label)
    phone.driver.execute_script("arguments[0].focus()", field)
    main = phone.driver.find_element(By.CSS_SELECTOR, '[data-testid="stMain"]')
    for _ in range(STILL_LOOKS):
        by = phone.driver.execute_script(FIELD_TOP, field) - top
        phone.driver.execute_script("arguments[0].scrollBy(0, arguments[1])", main, by)
        place = still_top(phone, label)
        if abs(place - top) < 2:
            return place
    raise AssertionError(f"{label} stayed at {place} px, not {top}")


def test_a_pile_typed_in_stays_in_place_in_webkit_as_another_phones_photo_comes(
    phones: Callable[[], Phone], fake_reader_server: str, photo: Path
) -> None:
    """Safari has no scroll anchoring: the photo and its notes came between the top of the
    screen and the field Ann was typing in, at 400 px on her screen, and it went to 784 px."""
    ann = phones()
    ann.open(fake_reader_server)
    assert not ann.driver.execute_script("return CSS.supports('overflow-anchor', 'auto')")
    ann.new_game()
    ann.type_in("Pile 1, left to right", "KH 2S")
    ann.open_expander("Open on another phone")
    link = ann.find("p.bc-link").get_attribute("textContent").strip()
    ben = phones()
    ben.open(link)
    ben.shows("Pile 1, left to right", "KH 2S")
    label = "Pile 1, left to right"
    before = typing_at(ann, label, 400)
    ben.upload(photo)
    shown = f'img[alt^="{PHOTO_SHOWN}"]'
    ann.until(lambda: ann.driver.find_elements(By.CSS_SELECTOR, shown), "the photo", LIVE_MS / 1000)
    after = still_top(ann, label)
    assert abs(after - before) <= 4, (before, after)
    ann.shows(label, "KH 2S")
    ann.no_errors()
    ben.no_errors()


def test_a_pile_typed_in_stays_in_place_in_webkit_as_its_own_block_grows_above_it(
    phones: Callable[[], Phone], fake_reader_server: str
) -> None:
    """A note drawn in the pile's own block above the field Ann is typing in (as another
    phone's photo draws a queen's choice there) leaves the field where it was."""
    ann = phones()
    ann.open(fake_reader_server)
    ann.new_game()
    label = "Pile 1, left to right"
    ann.type_in(label, "KH 2S")
    before = typing_at(ann, label, 400)
    note_above = f"({test_browser.NOTE_ABOVE})(arguments[0], 90)"
    ann.driver.execute_script(note_above, ann.field(label))
    after = still_top(ann, label)
    assert abs(after - before) <= 4, (before, after)  # and still focused: `still_top`
