"""Benchmark: one table server, a table of phones uploading different 12 MP photos at once. Run
by hand; prints figures.

    .venv/bin/python benchmarks/bench_load.py [--pages N] [--reads-at-once N]

Renders N different photos of two piles of 15 (`make_photo.py --seed 0..N-1`, into
datasets/generated/bench/load/, once) and reads each with `blackcat scan --json`: what its page
must show. Then starts `blackcat app` (as the browser tests do) and opens N + 1 pages at a phone's
size in Debian's Chromium. N pages start a new game and are given their photos one right after
the other; meanwhile the extra page taps Lucky Tom on and off. Prints, per page, the seconds from
its photo given to its score shown and whether it shows its own photo's piles and total; the
slowest; and each tap's round trip (the tap to the page showing it) before, during and after the
uploads. `--reads-at-once` sets how many photos the server reads at once
(`BLACKCAT_PARALLEL_READS`; without it, the server's own choice). Needs the test extras
(Playwright), Chromium, the trained weights in models/ and the synthetic card art.

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
from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402
from reader_pool import READS_SETTING  # noqa: E402
from test_browser import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    new_game,
    open_expander,
    served_app,
    settle,
)

PHOTOS = make_photo.DEFAULT_OUT / "load"
UPLOADER = '[data-testid="stFileUploaderDropzoneInput"]'
# What a page shows once its photo is read: the note of a photo given to a player, or a refusal.
READ_MARKS = ("given to Player 1", "could not be read", "No cards found")
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
# Notes in the page itself the time a mark first shows (the browser's clock, the same machine's).
WATCH_FOR_MARKS = """marks => {
  window.__readMark = null;
  const observer = new MutationObserver(() => {
    const text = document.body.textContent;
    const mark = marks.find(m => text.includes(m));
    if (mark && !window.__readMark) {
      window.__readMark = {mark, at: Date.now() / 1000};
      observer.disconnect();
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


@dataclass(frozen=True)
class Shown:
    """What a page showed after its upload."""

    seconds: float | None  # photo given -> read; None: never read
    mark: str | None  # the note it showed (READ_MARKS)
    piles: tuple[str, ...]
    total: int | None

    def matches(self, expected: Expected) -> bool:
        return self.piles == expected.piles and self.total == expected.total


@dataclass(frozen=True)
class Tap:
    started: float  # time.time()
    seconds: float  # tap -> the page shows it


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
    expected = [
        Expected(
            photo, tuple(" ".join(p["cards"]) for p in read["piles"] if p["cards"]), read["total"]
        )
        for photo, read in zip(photos, json.loads(result.stdout), strict=True)
    ]
    if len({e.piles for e in expected}) < len(expected):
        raise SystemExit("two photos read the same: their pages could not be told apart")
    return expected


def open_page(browser: Browser, url: str) -> Page:
    """A phone of its own (its own browser context: its own session) with the app open."""
    page = browser.new_context(viewport=PHONE).new_page()
    page.set_default_timeout(WAIT_MS)
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


def give_photos(pages: Sequence[Page], photos: Sequence[Path]) -> list[float]:
    """Each page its photo, all within moments: the files are put in the pages first (in a
    hidden input), then handed to the uploaders one right after the other. When each was given
    (the browser's clock, in seconds)."""
    for page, photo in zip(pages, photos, strict=True):
        page.evaluate(STAGE)
        page.locator(f"#{STAGED}").set_input_files(photo)
        page.evaluate(WATCH_FOR_MARKS, list(READ_MARKS))
    return [page.evaluate(GIVE, [UPLOADER, STAGED]) for page in pages]


def read_marks(pages: Sequence[Page]) -> list[dict | None]:
    return [page.evaluate("window.__readMark") for page in pages]


def shown(page: Page, given: float, mark: dict | None) -> Shown:
    settle(page)
    fields = page.get_by_label(re.compile(r"^Pile \d+, left to right$")).all()
    piles = tuple(value for value in (field.input_value() for field in fields) if value)
    heading = page.get_by_text(re.compile(r"^Player 1: -?\d+ points?$"))
    total = None
    if heading.count() == 1:
        total = int(re.findall(r"-?\d+", heading.inner_text())[-1])
    if mark is None:
        return Shown(None, None, piles, total)
    return Shown(mark["at"] - given, mark["mark"], piles, total)


def server_answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=5) as answer:
            return answer.read().strip() == b"ok"
    except OSError:
        return False


def seconds_line(label: str, taps: Sequence[Tap]) -> str:
    if not taps:
        return f"{label}: none"
    times = [t.seconds for t in taps]
    return (
        f"{label}: median {statistics.median(times):.2f} s, max {max(times):.2f} s "
        f"over {len(times)} taps ({' '.join(f'{t:.2f}' for t in times)})"
    )


def report(
    expected: Sequence[Expected], pages: Sequence[Shown], given: Sequence[float]
) -> tuple[int, float | None]:
    """Print a line per page; how many showed their own photo's score, and the slowest."""
    print(f"photos given within {given[-1] - given[0]:.2f} s of each other")
    right = 0
    for number, (want, got) in enumerate(zip(expected, pages, strict=True), 1):
        own = got.matches(want)
        other = [n for n, e in enumerate(expected, 1) if n != number and got.matches(e)]
        right += own
        when = f"{got.seconds:5.2f} s" if got.seconds is not None else "never"
        verdict = "its own photo's score" if own else f"WRONG: {got.piles} total {got.total}"
        if other:
            verdict += f" (page {other[0]}'s photo)"
        print(
            f"  page {number} ({want.photo.parent.name}): read after {when}, {got.mark!r}; "
            f"{verdict} ({sum(len(p.split()) for p in want.piles)} cards, total {want.total})"
        )
    read = [p.seconds for p in pages if p.seconds is not None]
    return right, max(read) if len(read) == len(pages) else None


def run(photos: Sequence[Path], expected: Sequence[Expected], log: Path) -> None:
    with served_app(log) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        tapper = open_page(browser, url)
        open_expander(tapper, "Variants")
        settle(tapper)
        phones = [open_page(browser, url) for _ in photos]
        for page in phones:
            new_game(page)
        before = [tap(tapper) for _ in range(3)]
        given = give_photos(phones, photos)
        taps: list[Tap] = []
        deadline = time.monotonic() + WAIT_MS / 1000
        while None in read_marks(phones) and time.monotonic() < deadline:
            taps.append(tap(tapper))
        marks = read_marks(phones)
        results = [
            shown(page, when, mark) for page, when, mark in zip(phones, given, marks, strict=True)
        ]
        last_read = max((m["at"] for m in marks if m), default=time.time())
        after = [tap(tapper) for _ in range(3)]
        answers = server_answers(url)
        browser.close()
    right, slowest = report(expected, results, given)
    print(f"{right} of {len(photos)} pages showed their own photo's score")
    print(f"slowest upload to score: {f'{slowest:.2f} s' if slowest else 'some never read'}")
    print(seconds_line("tap round trip before the uploads", before))
    print(
        seconds_line(
            "tap round trip during the uploads", [t for t in taps if t.started < last_read]
        )
    )
    print(seconds_line("tap round trip after the uploads", after))
    print(f"server still answers: {'yes' if answers else 'NO'}; no traceback in its log")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=8, help="phones uploading at once")
    parser.add_argument("--reads-at-once", type=int, help="photos the server reads at once")
    args = parser.parse_args()
    if args.reads_at_once is not None:
        os.environ[READS_SETTING] = str(args.reads_at_once)
    photos = render_photos(args.pages)
    expected = scanned(photos)
    cores = os.cpu_count()
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    reads = os.environ.get(READS_SETTING, "the server's default")
    print(f"{args.pages} pages, {cores} cores (load average {load}), reads at once: {reads}")
    with tempfile.TemporaryDirectory() as folder:
        run(photos, expected, Path(folder) / "streamlit.log")


if __name__ == "__main__":
    main()
