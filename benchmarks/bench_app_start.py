"""Benchmark: seconds from starting `blackcat app` to its first scored page in a browser. Run by
hand; prints figures.

    .venv/bin/python benchmarks/bench_app_start.py [--repeats N] [--python PATH]
    .venv/bin/python benchmarks/bench_app_start.py --photo-to-score [--starts N] [--tries N]
        [--app-root DIR] [--profile DIR] [--cpu-throttle RATE] [--browser-profile DIR]

Each run starts the app afresh (`blackcat app --headless` on a free port, as the browser tests
do; `--python`: with that interpreter, e.g. a venv made by the README's run command, which has
fewer packages for Streamlit to scan at start), opens it in Debian's Chromium at a phone's
size, and stops the clock when the example photo's cards are read and scored on the page. Needs
the test extras (Playwright) and Chromium.

`--photo-to-score`: the product's promise, a phone's photo of the piles in and the score shown
about a second later, measured in the app as a player meets it. A 12 MP photo as a phone saves it
(`phone_photo`: `make_photo.py`'s two piles of 15, with a camera's noise and EXIF, some 3.5 MB)
is given to the uploader of a page at a phone's size in a new game, and the clock stops once the
page shows its score and has painted the drawn photo. Each of `--starts` servers (`blackcat
app`, from `--app-root`: another checkout, to compare) takes `--tries` photos, each a new one to
it (a comment in the JPEG with the try's number): the first read after the app's start is
reported apart from the later ones. Each try is split into its parts, from the browser's clock
(the upload's transfer, the paint) and the server's (each script run, and in them the JPEG
decodes with their EXIF, the reader, the drawn photo: its copy shrunk and encoded, drawn on and
encoded, handed to Streamlit): the server runs with timing wrappers round those functions
(`serve_timed`), which log each call; `--profile DIR` also keeps a cProfile of each script run.
`--cpu-throttle RATE`: the page's CPU slowed that many times while the photo is given (Chrome's
DevTools emulation; 4 is about a mid-range phone's), so that the browser's part weighs as on a
phone; `--browser-profile DIR`: a Chrome CPU profile of each try kept there (`.cpuprofile`, opened
by DevTools' Performance panel).

Budget (../shared/DESIGN.md): the first scored page under 1.5 s after the start. On a 2-core
machine that also runs the browser, a trivial two-line Streamlit page takes about 1.4 s to show
its text: most of the budget is Streamlit's and the browser's.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import functools
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "app"))  # the browser tests' Chromium settings

import make_photo  # noqa: E402 - beside this script
from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402
from test_browser import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    free_port,
    new_game,
    new_page,
    served,
    settle,
)

SCORED = "read from the example photo"


def first_scored_page_seconds(browser, python: str) -> float:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [python, "-m", "blackcat", "app", "--headless", "--port", str(port)]
    started = time.perf_counter()
    server = subprocess.Popen(
        [*command, "--address", "127.0.0.1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
    )
    try:
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as answer:
                    if answer.read().strip() == b"ok":
                        break
            except OSError:
                time.sleep(0.01)  # the page opens at most this long after the server is up
            if server.poll() is not None or time.perf_counter() - started > 120:
                raise SystemExit("the app did not start")
        page = browser.new_page(viewport=PHONE)
        page.set_default_timeout(120_000)
        page.goto(url)
        page.get_by_text(SCORED).first.wait_for()
        seconds = time.perf_counter() - started
        page.close()
        return seconds
    finally:
        server.terminate()
        server.wait(timeout=10)


# ---------------------------------------------------------------------------------------------
# --photo-to-score: a phone's photo given to the page, its score shown

PHONE_PHOTO = make_photo.DEFAULT_OUT / "two_piles_12mp_phone.jpg"
PHONE_NOISE = 3.0  # a camera's noise (grey levels): a phone's 12 MP JPEG at quality 95, 3-5 MB
UPLOADER = '[data-testid="stFileUploaderDropzoneInput"]'
GIVEN_NOTE = "given to Player 1"  # the note of a photo read and given to the page's player
TIMED_SERVER = "--serve-timed"  # this script, run as the app's server (`serve_timed`)
# The photo given to the uploader as Playwright's set_input_files does, the file already in the
# page (a hidden input), and the page's own clock on each step: the upload's end (the browser's
# resource timing), the score shown (the player's heading with the photo's total and the note),
# then painted (the drawn photo decoded, two frames later).
STAGE = """() => {
  const staged = document.createElement('input');
  Object.assign(staged, {type: 'file', id: 'bench-staged', hidden: true});
  document.body.appendChild(staged);
}"""
GIVE = """([uploader, note, heading]) => {
  window.__bench = {};
  const done = window.__bench;
  const observer = new MutationObserver(() => {
    const text = document.body.textContent;
    const headings = [...document.querySelectorAll('h3')];
    if (!(text.includes(note) && headings.some(h => h.textContent.includes(heading)))) return;
    observer.disconnect();
    done.shown = Date.now() / 1000;
    const images = [...document.querySelectorAll('[data-testid="stImage"] img')];
    Promise.all(images.map(image => image.decode().catch(() => null))).then(() =>
      requestAnimationFrame(() => requestAnimationFrame(() => {
        done.painted = Date.now() / 1000;
        const upload = performance.getEntriesByType('resource')
          .filter(entry => entry.name.includes('/_stcore/upload_file')).pop();
        done.uploaded = upload ? (performance.timeOrigin + upload.responseEnd) / 1000 : null;
        const media = performance.getEntriesByType('resource')
          .filter(entry => entry.name.includes('/media/')).pop();
        done.mediaStart = media ? (performance.timeOrigin + media.startTime) / 1000 : null;
        done.mediaEnd = media ? (performance.timeOrigin + media.responseEnd) / 1000 : null;
      })));
  });
  observer.observe(document.body, {childList: true, subtree: true, characterData: true});
  performance.clearResourceTimings();
  const input = document.querySelector(uploader);
  input.files = document.getElementById('bench-staged').files;
  done.given = Date.now() / 1000;
  input.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
  input.dispatchEvent(new Event('change', {bubbles: true}));
}"""


def phone_photo(out: Path = PHONE_PHOTO) -> Path:
    """`make_photo.py`'s 12 MP photo of two piles as a phone saves it, made once: a camera's
    noise (which makes a phone's JPEG 3-5 MB, against 1.4 MB for the clean render), quality
    95, and EXIF (a make and model, upright)."""
    if out.is_file():
        return out
    import numpy as np
    from bench_reader import DEFAULT_PHOTO, photo_to_read  # beside this script
    from PIL import Image

    clean = np.asarray(Image.open(photo_to_read(DEFAULT_PHOTO)).convert("RGB"))
    noise = np.random.default_rng(0).normal(0.0, PHONE_NOISE, clean.shape)
    pixels = np.clip(clean + noise, 0, 255).astype(np.uint8)
    exif = Image.Exif()
    exif.update({0x010F: "Bench", 0x0110: "Phone 12MP", 0x0112: 1})
    Image.fromarray(pixels).save(out, "JPEG", quality=95, exif=exif)
    return out


@dataclass(frozen=True)
class Call:
    """A timed call in the server (`serve_timed`), on the time.time() clock."""

    what: str
    start: float
    end: float
    thread: str  # its thread's name

    @property
    def seconds(self) -> float:
        return self.end - self.start

    def within(self, other: Call) -> bool:
        """During `other` (in any thread: the reader decodes in threads of its own)."""
        return self is not other and other.start <= self.start <= self.end <= other.end

    def nested_in(self, other: Call) -> bool:
        """A call within a call of the same kind in the same thread (a read within a read)."""
        return self.what == other.what and self.thread == other.thread and self.within(other)

    def overlap(self, other: Call) -> float:
        return max(0.0, min(self.end, other.end) - max(self.start, other.start))


@dataclass(frozen=True)
class Try:
    """One photo given, split into its parts (seconds)."""

    total: float  # given -> painted
    shown: float  # given -> the score shown
    parts: dict[str, float]  # on the page's way, one after the other
    beside: float  # the display copy's work done while the reader read (in no part)
    runs: int
    browser: dict[str, float]  # the page's main thread's work in the try (`BROWSER_WORK`)


PARTS = (
    "upload transfer",
    "rerun start",
    "JPEG decode + EXIF (the reader's)",
    "reader (models)",
    "photo copy: decode + shrink + encode",
    "overlay: draw + encode",
    "image handed to Streamlit",
    "piles/widgets (rest of the runs)",
    "between the runs",
    "browser paint",
)
COPY_THREAD = "display-copy"  # a copy made in a thread of its own (tried in session 91, not kept)
COPY_WORK = frozenset({"decode", "downscale", "copy"})


def split(
    browser: dict[str, float], calls: Sequence[Call], work: dict[str, float] | None = None
) -> Try:
    """The try's parts: the browser's steps, the script runs that started between the photo
    given and the page painted, and the timed calls within them. The display copy's work is
    that of its own thread, or else what decodes, shrinks and encodes outside the read; what
    of it ran while the reader read is in no part (`Try.beside`). `work`: the browser's
    (`as_phone`)."""
    given, painted = browser["given"], browser["painted"]
    uploaded = browser.get("uploaded") or given
    runs = sorted((c for c in calls if c.what == "run" and given <= c.start <= painted), key=_start)
    inside = [c for c in calls if c.what != "run" and any(c.within(run) for run in runs)]
    inside = [c for c in inside if not any(c.nested_in(o) for o in inside)]  # outermost calls
    reads = [c for c in inside if c.what == "read"]

    def copying(call: Call) -> bool:
        in_read = any(call.within(read) for read in reads)
        return call.what in COPY_WORK and (call.thread.startswith(COPY_THREAD) or not in_read)

    copy = [c for c in inside if copying(c)]
    beside = sum(c.overlap(read) for c in copy for read in reads)
    decodes = [c for c in inside if c.what in ("decode", "open") and not copying(c)]
    decoded_in_reads = sum(c.seconds for c in decodes if any(c.within(r) for r in reads))
    parts = {
        "upload transfer": uploaded - given,
        "rerun start": (runs[0].start - uploaded) if runs else 0.0,
        "JPEG decode + EXIF (the reader's)": sum(c.seconds for c in decodes),
        "reader (models)": sum(c.seconds for c in reads) - decoded_in_reads,
        "photo copy: decode + shrink + encode": sum(c.seconds for c in copy) - beside,
        "overlay: draw + encode": sum(c.seconds for c in inside if c.what == "overlay"),
        "image handed to Streamlit": sum(c.seconds for c in inside if c.what == "image"),
    }
    in_runs = sum(run.seconds for run in runs)
    parts["piles/widgets (rest of the runs)"] = in_runs - sum(list(parts.values())[2:])
    parts["between the runs"] = sum(b.start - a.end for a, b in itertools.pairwise(runs))
    parts["browser paint"] = painted - runs[-1].end if runs else 0.0
    shown = browser["shown"] - given
    return Try(painted - given, shown, parts, beside, len(runs), dict(work or {}))


def _start(call: Call) -> float:
    return call.start


def read_calls(log: Path) -> list[Call]:
    return [Call(**json.loads(line)) for line in log.read_text().splitlines() if line]


def stage_photo(page: Page, data: bytes, name: str) -> None:
    """The photo put in a hidden input of the page, ready to give (`give_photo`)."""
    page.evaluate(STAGE)
    page.locator("#bench-staged").set_input_files(
        {"name": name, "mimeType": "image/jpeg", "buffer": data}
    )


def give_photo(page: Page, heading: str) -> dict[str, float]:
    """The staged photo given to the page's uploader; the browser's clock on each step."""
    page.evaluate(GIVE, [UPLOADER, GIVEN_NOTE, heading])
    page.wait_for_function("window.__bench.painted && 'uploaded' in window.__bench")
    return page.evaluate("window.__bench")


@dataclass(frozen=True)
class BrowserSide:
    """How the page's browser runs the tries: its CPU slowed `throttle` times (1: not), a CPU
    profile of each try kept in `profiles` (None: none)."""

    throttle: float = 1.0
    profiles: Path | None = None


BROWSER_WORK = {  # Chrome's Performance.getMetrics (its main thread's seconds) -> what it is
    "ScriptDuration": "script",
    "RecalcStyleDuration": "style",
    "LayoutDuration": "layout",
    "TaskDuration": "all tasks",
    # its CPU time, which other programs on the machine don't lengthen as they do the above
    "ThreadTime": "CPU time",
}


@contextlib.contextmanager
def as_phone(page: Page, side: BrowserSide, name: str) -> Iterator[dict[str, float]]:
    """The page's CPU slowed and profiled as `side` asks, by the DevTools protocol; what it
    yields is filled on the way out with the seconds the page's main thread spent in each of
    `BROWSER_WORK` meanwhile."""
    devtools = page.context.new_cdp_session(page)
    devtools.send("Performance.enable")
    before = browser_work(devtools.send("Performance.getMetrics"))
    work: dict[str, float] = {}
    if side.throttle != 1.0:
        devtools.send("Emulation.setCPUThrottlingRate", {"rate": side.throttle})
    if side.profiles is not None:
        devtools.send("Profiler.enable")
        devtools.send("Profiler.setSamplingInterval", {"interval": 200})  # microseconds
        devtools.send("Profiler.start")
    try:
        yield work
    finally:
        after = browser_work(devtools.send("Performance.getMetrics"))
        work.update({what: after[what] - before[what] for what in after})
        if side.profiles is not None:
            profile = devtools.send("Profiler.stop")["profile"]
            (side.profiles / f"{name}.cpuprofile").write_text(json.dumps(profile))
        devtools.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        devtools.detach()


def browser_work(metrics: dict[str, Any]) -> dict[str, float]:
    values = {metric["name"]: metric["value"] for metric in metrics["metrics"]}
    return {what: values[name] for name, what in BROWSER_WORK.items()}


def photo_tries(
    browser: Browser,
    url: str,
    data: bytes,
    heading: str,
    log: Path,
    tries: int,
    each: bool,
    side: BrowserSide = BrowserSide(),
    start: int = 0,
) -> list[Try]:
    """`tries` photos given one after the other, each in a new game on a page of its own
    (`each`: each try's figures printed; `side`: the browser slowed and profiled while the
    photo is given; `start`: the app start's number, in the profiles' names)."""
    done = []
    for number in range(1, tries + 1):
        context = browser.new_context(viewport=PHONE)
        page = new_page(context)
        page.set_default_timeout(120_000)
        page.goto(url)
        page.get_by_text(SCORED).first.wait_for()
        settle(page)
        new_game(page)
        stage_photo(page, make_photo.unique(data, f"bench photo {number}"), PHONE_PHOTO.name)
        with as_phone(page, side, f"start-{start}-try-{number}") as work:
            steps = give_photo(page, heading)
            settle(page)  # its runs logged
        done.append(split(steps, read_calls(log), work))
        if each:
            print(try_line(number, done[-1]), flush=True)
        context.close()
    return done


@contextlib.contextmanager
def timed_app(app_root: Path, log: Path, profile: Path | None) -> Iterator[str]:
    """`blackcat app` from `app_root`, its calls timed into `log` (`serve_timed`)."""
    port = free_port()
    command = [sys.executable, str(Path(__file__).resolve()), TIMED_SERVER, str(log)]
    command += [str(profile or ""), "app", "--headless", "--port", str(port)]
    command += ["--address", "127.0.0.1"]
    env = {**os.environ, "PYTHONPATH": str(app_root)}
    with served(log.with_suffix(".server.log"), command, f"http://127.0.0.1:{port}", env) as url:
        yield url


def photo_to_score(args: argparse.Namespace) -> None:
    from bench_load import scanned

    photo = phone_photo()
    data = photo.read_bytes()
    for folder in (args.profile, args.browser_profile):
        if folder:
            folder.mkdir(parents=True, exist_ok=True)
    side = BrowserSide(args.cpu_throttle, args.browser_profile)
    heading = scanned([photo])[0].heading
    print(
        f"photo: {photo} ({len(data) / 1e6:.1f} MB, 4000x3000); app from {args.app_root}; "
        f"browser CPU slowed {args.cpu_throttle:g}x"
    )
    firsts, laters = [], []
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for start in range(args.starts):
            log = Path(folder) / f"calls-{start}.jsonl"
            with timed_app(args.app_root, log, args.profile) as url:
                tries = photo_tries(
                    browser, url, data, heading, log, args.tries, args.each, side, start
                )
            firsts.append(tries[0])
            laters.extend(tries[1:])
        browser.close()
    print_tries("first photo after the app's start", firsts)
    print_tries("later photos", laters)


def try_line(number: int, done: Try) -> str:
    parts = ", ".join(f"{part} {seconds * 1000:.0f}" for part, seconds in done.parts.items())
    work = ", ".join(f"{what} {seconds * 1000:.0f}" for what, seconds in done.browser.items())
    line = f"  try {number}: {done.total * 1000:.0f} ms ({parts}; beside {done.beside * 1000:.0f})"
    return line + (f"; browser's main thread: {work}" if work else "")


def print_tries(label: str, tries: Sequence[Try]) -> None:
    if not tries:
        return
    total = statistics.median(t.total for t in tries)
    shown = statistics.median(t.shown for t in tries)
    print(
        f"{label}: photo given -> score painted median {total:.2f} s (score shown "
        f"{shown:.2f} s), min {min(t.total for t in tries):.2f} s, max "
        f"{max(t.total for t in tries):.2f} s over {len(tries)} tries, "
        f"{statistics.median(t.runs for t in tries):.0f} script runs"
    )
    for part in PARTS:
        seconds = statistics.median(t.parts[part] for t in tries)
        print(f"  {part:<38} median {seconds * 1000:6.0f} ms  {seconds / total:5.1%}")
    for what in BROWSER_WORK.values():
        seconds = statistics.median(t.browser.get(what, 0.0) for t in tries)
        print(f"  browser's main thread: {what:<15} median {seconds * 1000:6.0f} ms (in any part)")
    beside = statistics.median(t.beside for t in tries)
    print(
        f"  (the photo copy's work done while the reader read, in no part: {beside * 1000:.0f} ms)"
    )


# ---------------------------------------------------------------------------------------------
# The app's server with its calls timed (run by `timed_app`, in a process of its own)

TIMED_CALLS = (  # (module, object, its attribute or "", what the call is)
    ("blackcat.vision.image_io", "", "_decode", "decode"),
    ("blackcat.vision.image_io", "", "open_photo", "open"),
    ("blackcat.vision.reader", "CardReader", "read", "read"),
    ("blackcat.vision.reader", "", "downscale", "downscale"),
    ("reader_access", "DisplayCopy", "of", "copy"),
    ("photo_view", "", "annotated_jpeg", "overlay"),
    ("photo_view", "", "table_jpeg", "overlay"),
    ("streamlit.elements.lib.image_utils", "", "image_to_url", "image"),
    # each run of the page's script (a rerun asked for in a run is one more)
    ("streamlit.runtime.scriptrunner.script_runner", "", "exec_func_with_error_handling", "run"),
)


def serve_timed(log: Path, profile: str, cli_args: list[str]) -> int:
    """`blackcat <cli_args>` in this process, each of `TIMED_CALLS` logged to `log` as it ends
    (one JSON line: what, start, end, thread); with `profile`, a cProfile of each script run
    kept there. The app's own modules are imported first (from its app folder), so that its
    pages find the wrappers."""
    import importlib

    from blackcat.cli import app as app_cli
    from blackcat.cli import main as cli_main

    sys.path.insert(0, str(app_cli.APP_SCRIPT.parent))
    out = log.open("a", buffering=1)
    runs = iter(range(1_000_000))

    def wrapped(what: str, function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        def timed(*args: Any, **kwargs: Any) -> Any:
            profiler = cProfile.Profile() if profile and what == "run" else None
            start = time.time()
            try:
                if profiler is None:
                    return function(*args, **kwargs)
                return profiler.runcall(function, *args, **kwargs)
            finally:
                end = time.time()
                thread = threading.current_thread().name
                call = {"what": what, "start": start, "end": end, "thread": thread}
                out.write(json.dumps(call) + "\n")
                if profiler is not None:
                    profiler.dump_stats(Path(profile) / f"run-{next(runs):03d}.prof")

        return timed

    for module_name, owner_name, name, what in TIMED_CALLS:
        module = importlib.import_module(module_name)
        owner = getattr(module, owner_name) if owner_name else module
        original = owner.__dict__[name]
        if isinstance(original, classmethod):
            setattr(owner, name, classmethod(wrapped(what, original.__func__)))
        else:
            setattr(owner, name, wrapped(what, original))
    return cli_main(cli_args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--python", default=sys.executable, help="the interpreter that runs the app (this one)"
    )
    parser.add_argument(
        "--photo-to-score", action="store_true", help="time a phone's photo to its score shown"
    )
    parser.add_argument("--starts", type=int, default=3, help="--photo-to-score: app starts")
    parser.add_argument("--tries", type=int, default=4, help="--photo-to-score: photos a start")
    parser.add_argument(
        "--app-root", type=Path, default=ROOT, help="--photo-to-score: the checkout to run"
    )
    parser.add_argument("--profile", type=Path, help="--photo-to-score: keep cProfiles here")
    parser.add_argument("--each", action="store_true", help="--photo-to-score: print each try")
    parser.add_argument(
        "--cpu-throttle",
        type=float,
        default=1.0,
        help="--photo-to-score: the browser's CPU slowed this many times (4: a phone's)",
    )
    parser.add_argument(
        "--browser-profile", type=Path, help="--photo-to-score: keep Chrome CPU profiles here"
    )
    if sys.argv[1:2] == [TIMED_SERVER]:
        log, profile, *cli_args = sys.argv[2:]
        sys.exit(serve_timed(Path(log), profile, cli_args))
    args = parser.parse_args()
    if args.photo_to_score:
        photo_to_score(args)
        return
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        times = [first_scored_page_seconds(browser, args.python) for _ in range(args.repeats)]
        browser.close()
    print(
        f"app start -> first scored page: median {statistics.median(times):.2f} s, "
        f"min {min(times):.2f} s, max {max(times):.2f} s over {args.repeats} starts"
    )


if __name__ == "__main__":
    main()
