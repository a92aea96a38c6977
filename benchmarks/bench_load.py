"""Benchmark: one table server, a table of phones uploading different 12 MP photos at once. Run
by hand; prints figures.

    .venv/bin/python benchmarks/bench_load.py [--pages N] [--rounds N] [--reads-at-once N]
        [--wait SECONDS]

Renders N different photos of two piles of 15 (`make_photo.py --seed 0..N-1`, into
datasets/generated/bench/load/, once) and reads each with `blackcat scan --json`: what its page
must show. Then starts `blackcat app` (as the browser tests do) and opens a page at a phone's
size in Debian's Chromium that taps Lucky Tom on and off. Each round (3 unless `--rounds`) opens
N more pages, which start a new game and are given their photos one right after the other (after
the first round, each file with a JPEG comment holding the round's number: read anew, not from
the server's cache, and decoded as a phone's photo is); meanwhile the tapping page taps back to
back until every page shows its score. Prints, per page, the seconds from its photo given to its
score shown and whether it shows its own photo's piles and total; the slowest of all rounds; and
the taps' round trips (the tap to the page showing it: median, 90th percentile, max and each)
before, during (every round's together) and after the uploads, and the load average before and
after. `--reads-at-once` sets how many photos the server reads at once
(`BLACKCAT_PARALLEL_READS`; without it, the server's own choice). A `MALLOC_ARENA_MAX` in this
script's environment reaches the server and wins over the two memory pools `blackcat app` limits
glibc's allocator to (`blackcat/allocator.py`). Needs the test extras (Playwright), Chromium,
the trained weights in models/ and the synthetic card art.

Budget (issue 29): every page right, and a tap's round trip during the uploads under 1 s.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "app"))  # the browser tests' server and Chromium
sys.path.insert(0, str(ROOT / "app"))

import make_photo  # noqa: E402 - beside this script
from playwright.sync_api import Browser, FilePayload, Page, sync_playwright  # noqa: E402
from reader_pool import READS_SETTING, reads_at_once  # noqa: E402
from test_browser import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    new_game,
    new_page,
    open_expander,
    served_app,
    settle,
)

from blackcat.games.report import plural  # noqa: E402

PHOTOS = make_photo.DEFAULT_OUT / "load"
UPLOADER = '[data-testid="stFileUploaderDropzoneInput"]'
GIVEN_NOTE = "given to Player 1"  # the note of a photo read and given to the page's player
REFUSALS = ("could not be read", "No cards found", "isn't available")
TAPS_BEFORE_AND_AFTER = 3
WAIT_MS = 600_000
STAGED = "bench-staged"
STAGE = f"""() => {{
  const staged = document.createElement('input');
  Object.assign(staged, {{type: 'file', id: '{STAGED}', hidden: true}});
  document.body.appendChild(staged);
}}"""
# What Playwright's set_input_files does, with the file already in the page.
GIVE = """([uploader, staged]) => {
  const input = document.querySelector(uploader);
  input.files = document.getElementById(staged).files;
  input.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
  input.dispatchEvent(new Event('change', {bubbles: true}));
  return Date.now() / 1000;
}"""
# The page itself notes when it first shows the photo's note and score, or a refusal (the
# browser's clock: the same machine's), and tells the benchmark (`SHOWN`, exposed to the page):
# told while the tapping page's waits run, it needs no look at the busy pages between taps.
SHOWN = "benchShown"
WATCH = """([note, heading, refusals, shown]) => {
  window.__outcome = null;
  const observer = new MutationObserver(() => {
    const text = document.body.textContent;
    const headings = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')];
    const scored = text.includes(note) && headings.some(h => h.textContent.includes(heading));
    const outcome = scored ? 'scored' : refusals.find(refusal => text.includes(refusal));
    if (outcome && !window.__outcome) {
      window.__outcome = {outcome, at: Date.now() / 1000};
      observer.disconnect();
      window[shown]();
    }
  });
  observer.observe(document.body, {childList: true, subtree: true, characterData: true});
}"""


@dataclass(frozen=True)
class Expected:
    """What a page given `photo` must show: what `blackcat scan` reads in it."""

    photo: Path
    piles: tuple[str, ...]  # each pile as `QS 10H ...`
    total: int

    @property
    def heading(self) -> str:
        return f"Player 1: {plural(self.total, 'point')}"


@dataclass(frozen=True)
class Shown:
    """What a page showed after its upload."""

    seconds: float | None  # photo given -> its score (or a refusal) shown; None: nothing shown
    outcome: str | None  # "scored", or the refusal shown
    piles: tuple[str, ...]
    total: int | None

    def matches(self, expected: Expected) -> bool:
        return self.piles == expected.piles and self.total == expected.total


@dataclass(frozen=True)
class Tap:
    started: float  # time.time()
    seconds: float  # tap -> the page shows it


@dataclass(frozen=True)
class Round:
    """One round of uploads: a fresh page per photo, the photos given at once."""

    given: tuple[float, ...]  # when each page was given its photo (time.time())
    pages: tuple[Shown, ...]
    during: tuple[Tap, ...]  # the other page's taps started before the last score shown


@dataclass(frozen=True)
class Figures:
    rounds: tuple[Round, ...]
    before: tuple[Tap, ...]  # the other page's taps: before the uploads
    after: tuple[Tap, ...]
    answers: bool  # the server's health check, after it all

    @property
    def during(self) -> tuple[Tap, ...]:
        return tuple(t for r in self.rounds for t in r.during)

    @property
    def pages(self) -> tuple[Shown, ...]:
        return tuple(page for r in self.rounds for page in r.pages)


def render_photos(count: int) -> list[Path]:
    """`count` different 12 MP photos (seeds 0, 1, ...), rendered once."""
    photos = []
    for seed in range(count):
        folder = PHOTOS / f"seed{seed}"
        photo = folder / make_photo.PHOTO_NAME
        if not photo.is_file():
            print(f"rendering {photo} (benchmarks/make_photo.py --seed {seed})")
            if make_photo.main(["--seed", str(seed), "--out", str(folder)]) != 0:
                raise SystemExit("a benchmark photo could not be rendered: see the lines above")
        photos.append(photo)
    return photos


def scanned(photos: Sequence[Path]) -> list[Expected]:
    """Each photo as `blackcat scan --json` reads it; they must all differ."""
    result = subprocess.run(
        [sys.executable, "-m", "blackcat", "scan", "--json", *map(str, photos)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    reads = json.loads(result.stdout)
    expected = [expected_of(photo, read) for photo, read in zip(photos, reads, strict=True)]
    if len({e.piles for e in expected}) < len(expected):
        raise SystemExit("two photos read the same: their pages could not be told apart")
    return expected


def expected_of(photo: Path, read: dict) -> Expected:
    piles = tuple(" ".join(pile["cards"]) for pile in read["piles"] if pile["cards"])
    return Expected(photo, piles, read["total"])


def open_page(browser: Browser, url: str) -> Page:
    """A phone of its own (its own browser context: its own session) with the app open, its
    script runs counted (`new_page`): `settle` waits for the run a tap started, not a second
    for a run that may already be over."""
    page = new_page(browser.new_context(viewport=PHONE))
    page.goto(url)
    page.get_by_text("Black Cat score").first.wait_for()
    settle(page)
    return page


def tap(page: Page) -> Tap:
    """Lucky Tom switched on or off, timed until the page's variants line says so."""
    turning_on = page.get_by_text("Variants: none").count() > 0
    shows = page.get_by_text("Variants: Lucky Tom" if turning_on else "Variants: none")
    started, clock = time.time(), time.perf_counter()
    page.locator('[data-testid="stCheckbox"]', has_text="Lucky Tom").click()
    shows.wait_for()
    seconds = time.perf_counter() - clock
    settle(page)
    return Tap(started, seconds)


def photo_file(photo: Path, round_number: int) -> FilePayload:
    """The photo's file for a round: after the first, with a JPEG comment holding the round's
    number, so that the server reads it anew rather than from its cache of reads by content,
    decoding it as a phone's photo (bytes past the JPEG's end sent it to Pillow's slower
    decoder)."""
    data = photo.read_bytes()
    if round_number > 1:
        data = make_photo.unique(data, f"bench photo {round_number}")
    return {"name": photo.name, "mimeType": "image/jpeg", "buffer": data}


def give_photos(
    pages: Sequence[Page], expected: Sequence[Expected], shown: set[int], round_number: int
) -> list[float]:
    """Each page its photo, all within moments: the files are put in the pages first (in a
    hidden input), then handed to the uploaders one right after the other. When each was given
    (the browser's clock, in seconds); each page's number goes into `shown` once it shows its
    score or a refusal."""
    for number, (page, want) in enumerate(zip(pages, expected, strict=True)):
        page.evaluate(STAGE)
        page.locator(f"#{STAGED}").set_input_files(photo_file(want.photo, round_number))
        page.expose_function(SHOWN, lambda number=number: shown.add(number))
        page.evaluate(WATCH, [GIVEN_NOTE, want.heading, list(REFUSALS), SHOWN])
    return [page.evaluate(GIVE, [UPLOADER, STAGED]) for page in pages]


def outcomes(pages: Sequence[Page]) -> list[dict | None]:
    """What each page showed so far ({"outcome", "at"}), None where nothing yet."""
    return [page.evaluate("window.__outcome") for page in pages]


def tap_until_shown(tapper: Page, pages: int, shown: set[int], wait_seconds: float) -> list[Tap]:
    """Taps back to back until `pages` pages have shown theirs (or `wait_seconds` passed)."""
    taps = []
    deadline = time.monotonic() + wait_seconds
    while len(shown) < pages and time.monotonic() < deadline:
        taps.append(tap(tapper))
    return taps


def shown(page: Page, given: float, outcome: dict | None) -> Shown:
    settle(page)
    fields = page.get_by_label(re.compile(r"^Pile \d+, left to right$")).all()
    piles = tuple(value for value in (field.input_value() for field in fields) if value)
    heading = page.get_by_text(re.compile(r"^Player 1: -?\d+ points?$"))
    total = None
    if heading.count() == 1:
        total = int(re.findall(r"-?\d+", heading.inner_text())[-1])
    if outcome is None:
        return Shown(None, None, piles, total)
    return Shown(outcome["at"] - given, outcome["outcome"], piles, total)


def server_answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=5) as answer:
            return answer.read().strip() == b"ok"
    except OSError:
        return False


def upload_round(
    browser: Browser, url: str, tapper: Page, expected: Sequence[Expected], number: int, wait: float
) -> Round:
    """A fresh page per photo, in a new game; the photos given, and the tapping page's taps
    back to back until every page shows its score (or `wait` seconds have passed); what each
    page shows."""
    phones = [open_page(browser, url) for _ in expected]
    for page in phones:
        new_game(page)
    shown_by: set[int] = set()  # the pages that showed their score (or a refusal) so far
    given = give_photos(phones, expected, shown_by, number)
    taps = tap_until_shown(tapper, len(phones), shown_by, wait)
    seen = outcomes(phones)
    pages = [shown(*page) for page in zip(phones, given, seen, strict=True)]
    last = max((outcome["at"] for outcome in seen if outcome), default=time.time())
    for page in phones:
        page.context.close()
    return Round(tuple(given), tuple(pages), tuple(t for t in taps if t.started < last))


def measure(url: str, expected: Sequence[Expected], rounds: int, wait_seconds: float) -> Figures:
    """A page that taps, then `rounds` rounds of uploads (`upload_round`), tapping before the
    first and after the last."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        tapper = open_page(browser, url)
        open_expander(tapper, "Variants")
        before = [tap(tapper) for _ in range(TAPS_BEFORE_AND_AFTER)]
        done = [
            upload_round(browser, url, tapper, expected, number, wait_seconds)
            for number in range(1, rounds + 1)
        ]
        after = [tap(tapper) for _ in range(TAPS_BEFORE_AND_AFTER)]
        browser.close()
    return Figures(
        rounds=tuple(done), before=tuple(before), after=tuple(after), answers=server_answers(url)
    )


def p90(times: Sequence[float]) -> float:
    """The 90th percentile (between two taps, in proportion); one tap: itself."""
    if len(times) < 2:
        return times[0]
    return statistics.quantiles(times, n=10, method="inclusive")[-1]


def taps_line(label: str, taps: Sequence[Tap]) -> str:
    if not taps:
        return f"tap round trip {label}: none"
    times = [t.seconds for t in taps]
    return (
        f"tap round trip {label}: median {statistics.median(times):.2f} s, p90 {p90(times):.2f} s"
        f", max {max(times):.2f} s over {len(times)} taps ({' '.join(f'{t:.2f}' for t in times)})"
    )


def page_line(number: int, want: Expected, got: Shown, expected: Sequence[Expected]) -> str:
    when = f"{got.seconds:5.2f} s" if got.seconds is not None else "never"
    if got.matches(want):
        verdict = "its own photo's score"
    else:
        verdict = f"WRONG: {got.piles} total {got.total}"
        verdict += "".join(
            f" (page {n}'s photo)" for n, e in enumerate(expected, 1) if got.matches(e)
        )
    cards = sum(len(pile.split()) for pile in want.piles)
    return (
        f"  page {number} ({want.photo.parent.name}): {got.outcome or 'nothing'} after {when}; "
        f"{verdict} ({cards} cards, total {want.total})"
    )


def print_figures(expected: Sequence[Expected], figures: Figures) -> None:
    for number, done in enumerate(figures.rounds, 1):
        if len(figures.rounds) > 1:
            print(f"round {number}:")
        spread = max(done.given) - min(done.given)
        print(f"photos given within {spread:.2f} s of each other")
        for page, (want, got) in enumerate(zip(expected, done.pages, strict=True), 1):
            print(page_line(page, want, got, expected))
    wanted = [want for _ in figures.rounds for want in expected]
    right = sum(got.matches(want) for want, got in zip(wanted, figures.pages, strict=True))
    print(f"{right} of {len(wanted)} pages showed their own photo's score")
    times = [got.seconds for got in figures.pages if got.seconds is not None]
    slowest = f"{max(times):.2f} s" if len(times) == len(wanted) else "some never shown"
    print(f"slowest upload to score: {slowest}")
    print(taps_line("before the uploads", figures.before))
    print(taps_line("during the uploads", figures.during))
    print(taps_line("after the uploads", figures.after))
    print(f"server still answers: {'yes' if figures.answers else 'NO'}; no traceback in its log")
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=8, help="phones uploading at once")
    parser.add_argument(
        "--rounds", type=int, default=3, help="rounds of uploads, each on fresh pages"
    )
    parser.add_argument("--reads-at-once", type=int, help="photos the server reads at once")
    parser.add_argument(
        "--wait",
        type=float,
        default=WAIT_MS / 1000,
        help="seconds the pages may take to show their scores (a page not shown by then: never)",
    )
    args = parser.parse_args()
    if args.reads_at_once is not None:
        os.environ[READS_SETTING] = str(args.reads_at_once)
    expected = scanned(render_photos(args.pages))
    cores = os.cpu_count()
    reads = reads_at_once(os.environ.get(READS_SETTING), cores)
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{args.pages} pages, {cores} cores (load average {load}), reads at once: {reads}")
    with (
        tempfile.TemporaryDirectory() as folder,
        served_app(Path(folder) / "streamlit.log") as url,  # stops it: no traceback in its log
    ):
        figures = measure(url, expected, args.rounds, args.wait)
    print_figures(expected, figures)


if __name__ == "__main__":
    main()
