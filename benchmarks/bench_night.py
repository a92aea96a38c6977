"""Benchmark: a whole night on one table server. Does its memory stay bounded? Run by hand;
prints figures.

    .venv/bin/python benchmarks/bench_night.py [--rounds N] [--port PORT] [--linger SECONDS]
        [--log PATH]
    .venv/bin/python benchmarks/bench_night.py --in-process [--rounds N]

Starts `blackcat app` and plays a night of Black Cat shared by three phones (each its own
browser context in Debian's Chromium, at a phone's size) for four players, Ann, Ben, Cat and
Dan. Each round is a game: every player's 12 MP photo uploaded (Ann's phone takes Dan's too),
some retaken, every third game a photo of the whole table, a card fixed by typing, a phone's
tab reloaded (a new Streamlit session; the old one lingers until Streamlit lets it go), and
halfway through one phone leaves and another joins by the game's link. Every upload is a
different file (`make_photo.py`'s photos, seed 0, re-saved as a phone would, each with a note
of its own): each is read anew. After each round it prints the server process's resident
memory (RSS) and what Streamlit's metrics say its caches and uploaded files hold; at the end
the growth per photo, and the RSS once every phone has gone (after `--linger` seconds). The
server runs as a player's does, glibc's allocator limited to two memory pools
(`blackcat/allocator.py`); a `MALLOC_ARENA_MAX` in this script's environment reaches the server
and wins (glibc's own default is 8 per core: `MALLOC_ARENA_MAX=16` on 2 cores measures without).
Needs the test extras (Playwright), Chromium, the trained weights in models/ and the synthetic
card art. The server's log is written to `--log` if given; otherwise, where the night failed or
the server logged a traceback, a copy is kept and its path printed. A page showing Streamlit's
error page stops the night, saying so; a failed night keeps each phone's screen too.

`--in-process` plays the night's games on one page through Streamlit's AppTest instead (no
server, no browser, the tests' stand-in reader: `tests/app/fakes.py`), and after the example
and after each game prints the page's Session State: its entries (user keys and widgets'),
the families of keys that grew, and what a tap's run (Lucky Tom switched) spends in
Streamlit's Session State code, cProfiled: each widget with a list or a text field builds the
whole of it once (`SessionState.filtered_state`).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import os
import pstats
import re
import shutil
import sys
import tempfile
import time
import timeit
import urllib.request
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "app"))  # the browser tests' server and Chromium

import make_photo  # noqa: E402 - beside this script
from PIL import Image  # noqa: E402
from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402
from test_browser import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    free_port,
    new_game,
    new_page,
    open_expander,
    rename,
    served,
    settle,
    type_pile,
)

PLAYERS = ("Ann", "Ben", "Cat", "Dan")
PHONES = 3  # Ann's, Ben's and Cat's; Ann's takes Dan's photos too
PHOTO_QUALITY = 95  # a phone's JPEG: some 2-3 MB at 12 MP
UPLOADER = '[data-testid="stFileUploaderDropzoneInput"]'
WAIT_MS = 180_000  # a read on a busy machine
MB = 1024 * 1024
TAPS = 3  # tries at a tap that another phone's change may cut short
SHOWN_MB = 0.5  # what holds less is left out of the figures
ERROR_PAGE = '[data-testid="stException"]'  # Streamlit's error page (details hidden or not)


@dataclass(frozen=True)
class Photos:
    """The night's photos: a player's two piles and the whole table, as a phone saves them."""

    piles: bytes
    table: bytes


@dataclass
class Night:
    """What the night has done so far, and the server's memory after each round."""

    url: str
    pid: int
    photos: Photos
    link: str = ""
    given: int = 0  # photos uploaded
    reloads: int = 0
    rows: list[tuple[int, int, float, dict[str, float]]] = field(default_factory=list)


def phone_photos() -> Photos:
    """The benchmark's photos (rendered once), re-saved as a phone's camera would."""
    folder = make_photo.DEFAULT_OUT
    if not (folder / make_photo.TABLE_NAME).is_file():
        print(f"rendering the photos into {folder} (benchmarks/make_photo.py)")
        if make_photo.main([]) != 0:
            raise SystemExit("the benchmark photos could not be rendered: see the lines above")
    return Photos(
        *(resaved(folder / name) for name in (make_photo.PHOTO_NAME, make_photo.TABLE_NAME))
    )


def resaved(path: Path) -> bytes:
    out = io.BytesIO()
    Image.open(path).save(out, "JPEG", quality=PHOTO_QUALITY)
    return out.getvalue()


class ErrorPageShown(RuntimeError):
    """A page showed Streamlit's error page: an exception the app did not catch."""


def error_page(page: Page) -> str | None:
    """What Streamlit's error page on `page` says, if it shows one."""
    shown = page.locator(ERROR_PAGE)
    return shown.first.inner_text() if shown.count() else None


def no_error_page(page: Page) -> None:
    said = error_page(page)
    if said is not None:
        raise ErrorPageShown(f"a page showed Streamlit's error page: {said!r}")


def settled(page: Page) -> None:
    """`settle`, then stop the night if the page shows Streamlit's error page."""
    settle(page)
    no_error_page(page)


def pages_in_error(phones: Sequence[Page]) -> list[str]:
    """Each phone's error page, if it shows one (for the report of a failed night)."""
    found = []
    for number, page in enumerate(phones, 1):
        with contextlib.suppress(Exception):  # a phone already closed
            said = error_page(page)
            if said is not None:
                found.append(f"phone {number} shows Streamlit's error page: {said!r}")
    return found


def screenshots(phones: Sequence[Page]) -> Path:
    """Each phone's whole page as it was when the night failed, in a folder kept: its path."""
    folder = Path(tempfile.mkdtemp(prefix="bench_night-pages-"))
    for number, page in enumerate(phones, 1):
        with contextlib.suppress(Exception):  # a phone already closed
            page.screenshot(path=str(folder / f"phone-{number}.png"), full_page=True)
    return folder


def server_pid(port: int) -> int:
    """The `blackcat app` process serving `port` (it runs Streamlit in its own process)."""
    wanted = ["blackcat", "app", "--port", str(port)]
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            words = cmdline.read_bytes().decode(errors="replace").split("\0")
        except OSError:
            continue
        if all(word in words for word in wanted):
            return int(cmdline.parent.name)
    raise SystemExit(f"no `blackcat app --port {port}` process found")


def rss_mb(pid: int) -> float:
    try:
        import psutil
    except ImportError:
        status = Path(f"/proc/{pid}/status").read_text()
        return int(re.search(r"VmRSS:\s+(\d+) kB", status)[1]) / 1024  # type: ignore[index]
    return psutil.Process(pid).memory_info().rss / MB


METRIC = re.compile(r"^(\w+)\{([^}]*)\} (\S+)$")


def held(url: str) -> dict[str, float]:
    """What Streamlit's own metrics say it holds: each cache's and the uploaded files' MB, and
    the sessions connected and disconnected so far."""
    with urllib.request.urlopen(f"{url}/_stcore/metrics", timeout=30) as answer:
        lines = answer.read().decode().splitlines()
    found: dict[str, float] = {}
    for line in lines:
        match = METRIC.match(line)
        if match is None:
            continue
        name, labels, value = match[1], dict(re.findall(r'(\w+)="([^"]*)"', match[2])), match[3]
        if name == "cache_memory_bytes":
            what = labels.get("cache") or labels.get("cache_type", "?")
            found[what] = found.get(what, 0.0) + float(value) / MB
        elif name == "session_events_total":
            found[f"sessions {labels.get('type')}"] = float(value)
    return found


def phone(browser: Browser, url: str) -> Page:
    """A phone of its own (its own browser context: its own session) with the app open."""
    page = new_page(browser.new_context(viewport=PHONE))
    page.set_default_timeout(WAIT_MS)
    page.goto(url)
    page.get_by_text("Black Cat score").first.wait_for()
    settled(page)
    return page


def upload(night: Night, page: Page, name: str, jpeg: bytes) -> None:
    """A new photo given to the page's uploader, waited for until its note names it (its name
    on the uploader's file is no sign: a switch to the other uploader then left it unread)."""
    night.given += 1
    data = make_photo.unique(jpeg, f"bench_night {name} {night.given}")
    files = [{"name": name, "mimeType": "image/jpeg", "buffer": data}]
    page.locator(UPLOADER).first.set_input_files(files=files)
    settled(page)
    expect(page.locator('[class*="upload-notes"]').first).to_contain_text(name, timeout=WAIT_MS)


def whose_piles(page: Page, player: str) -> None:
    """The player's piles on screen (their button brought clear of Streamlit's header first)."""
    button = page.get_by_role("radiogroup", name="Whose piles").get_by_role(
        "radio", name=player, exact=True
    )
    heading = page.get_by_role("heading", name=f"📷 Add {player}'s piles")
    for _ in range(TAPS):  # a tap as another phone's change comes in may be lost: tapped again
        if button.is_checked() and heading.is_visible():
            return
        button.evaluate("b => b.scrollIntoView({block: 'center'})")
        button.click()
        settled(page)
    expect(heading).to_be_visible()


def whose_photo(page: Page, mode: str) -> None:
    page.get_by_role("radio", name=mode).click()
    settled(page)


def photograph_the_table(night: Night, page: Page, photographer: str, game: int) -> None:
    whose_photo(page, "The whole table")
    page.locator('[class*="st-key-photographer"]').get_by_role("radio", name=photographer).click()
    settled(page)
    upload(night, page, f"table-{game}.jpg", night.photos.table)
    whose_photo(page, "One player's piles")


def fix_a_card(page: Page, player: str) -> None:
    """The player's first pile typed again without its last card (a card the reader saw twice)."""
    whose_piles(page, player)
    cards = page.get_by_label("Pile 1, left to right").input_value().split()
    if len(cards) > 1:
        type_pile(page, 1, " ".join(cards[:-1]))


def reload(page: Page) -> None:
    """The tab reloaded, as a phone's browser does with a tab it put away: a new session."""
    settled(page)
    page.reload()
    page.get_by_text("Black Cat score").first.wait_for()
    settled(page)


def seat_the_table(page: Page) -> str:
    """A new game of the four players, shared: its link."""
    new_game(page)
    rename(page, PLAYERS[0])
    for name in PLAYERS[1:]:
        page.get_by_role("button", name="➕ Player").click()
        settled(page)
        rename(page, name)
    open_expander(page, "Open on another phone")
    return page.locator("p.bc-link").inner_text()


def play_round(night: Night, phones: list[Page], game: int, rounds: int) -> None:
    """One game of the night: see the module's docstring."""
    if game:
        phones[0].get_by_role("button", name="➕ Next game").click()
        settled(phones[0])
    if game == rounds // 2:  # Cat's phone goes home; a friend's phone joins by the link
        phones[-1].context.close()
        phones[-1] = phone(phones[0].context.browser, night.link)  # type: ignore[arg-type]
    owners = [(phones[n], PLAYERS[n]) for n in range(PHONES)] + [(phones[0], PLAYERS[3])]
    for page, player in owners:
        whose_piles(page, player)
        upload(night, page, f"{player.lower()}-{game + 1}.jpg", night.photos.piles)
    if game % 2:  # Ben retakes his: the first was blurred
        upload(night, phones[1], f"ben-{game + 1}-again.jpg", night.photos.piles)
    if game % 3 == 2:
        photograph_the_table(night, phones[1], PLAYERS[1], game + 1)
    fix_a_card(phones[2], PLAYERS[2])
    reload(phones[game % PHONES])
    night.reloads += 1


def measure(night: Night, rounds: int) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        phones = [phone(browser, night.url)]
        night.link = seat_the_table(phones[0])
        phones += [phone(browser, night.link) for _ in range(PHONES - 1)]
        record(night, 0)
        try:
            for game in range(rounds):
                play_round(night, phones, game, rounds)
                for page in phones:  # another phone's change may have broken a page
                    no_error_page(page)
                record(night, game + 1)
        except Exception:
            print(f"the night failed in game {len(night.rows)}", flush=True)
            for line in pages_in_error(phones):
                print(line, flush=True)
            print(f"each phone's screen: {screenshots(phones)}", flush=True)
            raise
        browser.close()


def record(night: Night, game: int) -> None:
    rss, now = rss_mb(night.pid), held(night.url)
    night.rows.append((game, night.given, rss, now))
    print(round_line(game, night.given, rss, now), flush=True)


def round_line(game: int, given: int, rss: float, now: dict[str, float]) -> str:
    label = "start" if game == 0 else f"game {game:2d}"
    caches = ", ".join(
        f"{name} {mb:.0f} MB"
        for name, mb in sorted(now.items())
        if not name.startswith("sessions") and mb >= SHOWN_MB
    )
    caches = caches or "nothing cached"
    sessions = f"sessions {now.get('sessions connect', 0):.0f} opened, "
    sessions += f"{now.get('sessions disconnect', 0):.0f} gone"
    return f"{label}: {given:3d} photos, RSS {rss:6.0f} MB; {caches}; {sessions}"


def growth(rows: Sequence[tuple[int, int, float, dict[str, float]]]) -> str:
    """RSS growth per photo over the second half of the night (the first fills the caches)."""
    half = rows[len(rows) // 2 :]
    photos = half[-1][1] - half[0][1]
    if len(half) < 2 or photos == 0:
        return "too few rounds for a growth per photo"
    grown = half[-1][2] - half[0][2]
    return (
        f"RSS growth over the night's second half: {grown:+.0f} MB in {photos} photos "
        f"({grown / photos:+.1f} MB a photo)"
    )


def print_figures(night: Night, linger: float) -> None:
    start, end = night.rows[0][2], night.rows[-1][2]
    peak = max(row[2] for row in night.rows)
    games = len(night.rows) - 1
    print(f"photos uploaded: {night.given}, tabs reloaded: {night.reloads}, games: {games}")
    print(f"RSS at the start {start:.0f} MB, at the end {end:.0f} MB, peak {peak:.0f} MB")
    print(growth(night.rows))
    time.sleep(linger)
    left = round_line(0, night.given, rss_mb(night.pid), held(night.url)).split(": ", 1)[1]
    print(f"{linger:.0f} s after every phone left: {left}")


TRACEBACK = re.compile(r"^Traceback \(most recent call last\):\n(?:[ \t].*\n|\n)*(.*)$", re.M)


def logged_errors(log: str) -> list[str]:
    """Each traceback's last line (its exception) in the server's log, in order."""
    return [match[1] for match in TRACEBACK.finditer(log)]


@contextlib.contextmanager
def served_night(port: int, log_path: Path | None) -> Iterator[str]:
    """The app on `port`; its log at `log_path`, or else in a copy kept if the night failed or
    it logged a traceback (its path printed)."""
    with tempfile.TemporaryDirectory() as folder:
        log = log_path or Path(folder) / "streamlit.log"
        command = [sys.executable, "-m", "blackcat", "app", "--headless", "--port", str(port)]
        command += ["--address", "127.0.0.1"]
        played = False
        try:
            with served(log, command, f"http://127.0.0.1:{port}") as url:
                yield url
                played = True
        except BaseException as error:
            errors = logged_errors(log.read_text()) if log.is_file() else []
            print(f"the server logged {len(errors)} traceback(s)", flush=True)
            for line in errors:
                print(f"  {line}", flush=True)
            kept = log if log_path is not None else keep(log)
            print(f"the server's log: {kept}", flush=True)
            if played and isinstance(error, AssertionError):  # `served`: a traceback logged
                raise SystemExit("the server logged a traceback: see its log") from None
            raise


def keep(log: Path) -> Path:
    """A copy of the server's log that outlives the night's temporary folder."""
    copy = Path(tempfile.mkdtemp(prefix="bench_night-")) / log.name
    if log.is_file():
        shutil.copyfile(log, copy)
    return copy


# ---------------------------------------------------------------------------------------------
# --in-process: the night on one page through AppTest, its Session State measured

STATE_CODE = "streamlit/runtime/state/"
KEYLESS = "(widgets without a key)"
ID_PART = re.compile(r"[0-9a-f]*[0-9][0-9a-f]*")  # a pile's, a player's, a photo's id, a count
STAND_IN_WIDTH = 200  # a photo of two piles to the stand-in reader
FAMILIES_SHOWN = 6
TAPS_PROFILED = 5  # a tap's figures: the median run's (a shared machine's runs vary)
BUILDS_TIMED = 50  # one build of the whole state: the fastest of these (unprofiled)


@dataclass(frozen=True)
class StateCost:
    """What a run spent in Streamlit's Session State code (the widgets' callbacks it calls
    left out: the app's own work)."""

    seconds: float  # in its functions called from outside it, all they called included
    whole_state_seconds: float  # of which in building the whole state (`filtered_state`)
    whole_state_built: int  # `filtered_state` calls: one per list or text field drawn
    entries_read: int  # `SessionState.__getitem__` calls: the count the time follows
    run_seconds: float  # the whole run's, profiled


def in_state_code(function: tuple[str, int, str]) -> bool:
    return STATE_CODE in function[0].replace(os.sep, "/")


def state_cost(profile: cProfile.Profile) -> StateCost:
    stats = pstats.Stats(profile)
    rows = stats.stats  # type: ignore[attr-defined]

    def calls(name: str) -> tuple[int, float]:
        found = [
            row for function, row in rows.items() if in_state_code(function) and function[2] == name
        ]
        return sum(row[1] for row in found), sum(row[3] for row in found)

    entered = sum(
        called[3]
        for function, (*_, callers) in rows.items()
        if in_state_code(function)
        for caller, called in callers.items()
        if not in_state_code(caller)
    )
    built, building = calls("filtered_state")
    return StateCost(
        seconds=entered - calls("_call_callbacks")[1],
        whole_state_seconds=building,
        whole_state_built=built,
        entries_read=calls("__getitem__")[0],
        run_seconds=stats.total_tt,  # type: ignore[attr-defined]
    )


@contextlib.contextmanager
def profiled_runs(profile: cProfile.Profile) -> Iterator[None]:
    """AppTest's runs of the script (in a thread of their own) profiled into `profile`."""
    from streamlit.testing.v1.local_script_runner import LocalScriptRunner

    plain = LocalScriptRunner._run_script_thread

    def profiled(self: LocalScriptRunner) -> None:
        profile.enable()
        try:
            plain(self)
        finally:
            profile.disable()

    LocalScriptRunner._run_script_thread = profiled  # type: ignore[method-assign]
    try:
        yield
    finally:
        LocalScriptRunner._run_script_thread = plain  # type: ignore[method-assign]


def key_families(at: Any) -> Counter[str]:
    """The page's Session State entries by family: a key with its ids as N (`shown:text:N:N`);
    a widget by its key."""
    state = at._session_state._state
    by_id = state._key_id_mapper.id_key_mapping
    families: Counter[str] = Counter()
    for key in state._keys():
        named = by_id.get(key, KEYLESS if key.startswith("$$") else key)
        families[ID_PART.sub("N", str(named))] += 1
    return families


def stand_in_reader() -> None:
    """The tests' stand-in reader behind `CardReader.load`, and weights files for it to stand
    in for (an empty folder's, kept till the script ends)."""
    from fakes import FakeReader
    from test_streamlit_app import vision_reader

    models = Path(tempfile.mkdtemp(prefix="bench_night-models-"))
    for name in (vision_reader.DETECTOR_FILE, vision_reader.CLASSIFIER_FILE):
        (models / name).write_bytes(b"stand-in")
    os.environ["BLACKCAT_MODELS_DIR"] = str(models)
    reader = FakeReader()
    vision_reader.CardReader.load = classmethod(lambda cls, *args, **kwargs: reader)


@dataclass
class PageNight:
    """A night on one page through AppTest, with the stand-in reader."""

    at: Any
    given: int = 0

    def ran(self) -> None:
        self.at.run()
        if self.at.exception:
            raise SystemExit(f"the page failed: {[e.value for e in self.at.exception]}")

    def photo(self, width: int) -> tuple[str, bytes, str]:
        from test_streamlit_app import jpeg

        self.given += 1
        data = make_photo.unique(jpeg(width, width), f"bench_night {self.given}")
        return (f"photo-{self.given}.jpg", data, "image/jpeg")

    def show(self, player_id: int) -> None:
        self.at.segmented_control(key="player").set_value(player_id)
        self.ran()


def seat_the_page(night: PageNight) -> None:
    from test_streamlit_app import button, new_game, player_ids, text_input

    new_game(night.at)
    for _ in PLAYERS[1:]:
        button(night.at, "➕ Player").click()
        night.ran()
    for player_id, name in zip(player_ids(night.at), PLAYERS, strict=True):
        night.show(player_id)
        text_input(night.at, "Name").input(name)
        night.ran()


def play_on_the_page(night: PageNight, game: int) -> None:
    """One game of the night (as `play_round`'s, on one page): each player's photo, Ben's
    retaken every other game, the whole table's every third, a card fixed by typing."""
    import table_photo
    from fakes import WHOLE_TABLE
    from test_streamlit_app import button, player_ids, text_input, uploader
    from test_table_photo import photographer_choice, table_uploader

    at = night.at
    if game:
        button(at, "➕ Next game").click()
        night.ran()
    players = player_ids(at)
    for player_id in players:
        night.show(player_id)
        uploader(at).set_value(night.photo(STAND_IN_WIDTH))
        night.ran()
    if game % 2:
        night.show(players[1])
        uploader(at).set_value(night.photo(STAND_IN_WIDTH))
        night.ran()
    if game % 3 == 2:
        at.segmented_control(key=table_photo.MODE).set_value(table_photo.WHOLE_TABLE)
        night.ran()
        photographer_choice(at).set_value(players[1])
        night.ran()
        table_uploader(at).set_value(night.photo(WHOLE_TABLE))
        night.ran()
        at.segmented_control(key=table_photo.MODE).set_value(table_photo.ONE_PLAYER)
        night.ran()
    night.show(players[2])
    pile = text_input(at, "Pile 1, left to right")
    pile.input(" ".join(pile.value.split()[:-1]))
    night.ran()


def tap_cost(night: PageNight) -> StateCost:
    """A tap's run (Lucky Tom switched), profiled: the median of `TAPS_PROFILED`."""
    costs = []
    for _ in range(TAPS_PROFILED):
        profile = cProfile.Profile()
        switch = night.at.toggle(key="lucky_tom")
        switch.set_value(not switch.value)
        with profiled_runs(profile):
            night.ran()
        costs.append(state_cost(profile))
    return sorted(costs, key=lambda cost: cost.seconds)[len(costs) // 2]


def one_build_seconds(at: Any) -> float:
    """One build of the whole state, as each list or text field's run does (the fastest of
    `BUILDS_TIMED`: what a busy machine's other work leaves out)."""
    state = at._session_state._state
    return min(timeit.repeat(lambda: state.filtered_state, number=1, repeat=BUILDS_TIMED))


def state_line(label: str, night: PageNight, start: Counter[str]) -> str:
    families = key_families(night.at)
    user = sum(n for family, n in families.items() if family != KEYLESS)
    cost = tap_cost(night)
    grown = (families - start).most_common(FAMILIES_SHOWN)
    grew = ", ".join(f"{family} +{n}" for family, n in grown) or "none"
    return (
        f"{label}: {families.total():4d} entries ({user} keyed), built whole in "
        f"{one_build_seconds(night.at) * 1000:.2f} ms; a tap's run: "
        f"{cost.seconds * 1000:5.1f} ms in Session State code "
        f"({cost.whole_state_seconds * 1000:.1f} ms building the whole state "
        f"{cost.whole_state_built} times, {cost.entries_read} entries read) of "
        f"{cost.run_seconds * 1000:.0f} ms profiled; grown since the example: {grew}"
    )


def in_process(rounds: int) -> None:
    from streamlit.testing.v1 import AppTest

    sys.path.insert(0, str(ROOT / "app"))
    stand_in_reader()
    night = PageNight(AppTest.from_file(str(ROOT / "app" / "streamlit_app.py"), default_timeout=60))
    night.ran()
    start = key_families(night.at)
    print(state_line("the example", night, start), flush=True)
    seat_the_page(night)
    for game in range(rounds):
        play_on_the_page(night, game)
        print(state_line(f"game {game + 1:2d}", night, start), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10, help="games in the night")
    parser.add_argument("--port", type=int, default=0, help="the app's port (0: a free one)")
    parser.add_argument(
        "--linger", type=float, default=0, help="seconds to wait after the phones left"
    )
    parser.add_argument(
        "--log", type=Path, help="write the server's log here (else kept only if it went wrong)"
    )
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="the night on one page through AppTest: its Session State's size and cost",
    )
    args = parser.parse_args()
    if args.in_process:
        in_process(args.rounds)
        return
    photos = phone_photos()
    port = args.port or free_port()
    with served_night(port, args.log) as url:
        night = Night(url, server_pid(port), photos)
        measure(night, args.rounds)
        print_figures(night, args.linger)


if __name__ == "__main__":
    main()
