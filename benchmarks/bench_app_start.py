"""Benchmark: seconds from starting `blackcat app` to its first scored page in a browser. Run by
hand; prints figures.

    .venv/bin/python benchmarks/bench_app_start.py [--repeats N] [--python PATH]

Each run starts the app afresh (`blackcat app --headless` on a free port, as the browser tests
do; `--python`: with that interpreter, e.g. a venv made by the README's run command, which has
fewer packages for Streamlit to scan at start), opens it in Debian's Chromium at a phone's
size, and stops the clock when the example photo's cards are read and scored on the page. Needs
the test extras (Playwright) and Chromium.

Budget (../shared/DESIGN.md): the first scored page under 1.5 s after the start. On a 2-core
machine that also runs the browser, a trivial two-line Streamlit page takes about 1.4 s to show
its text: most of the budget is Streamlit's and the browser's.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "app"))  # the browser tests' Chromium settings

from playwright.sync_api import sync_playwright  # noqa: E402
from test_browser import CHROMIUM, CHROMIUM_ARGS, PHONE, free_port  # noqa: E402

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--python", default=sys.executable, help="the interpreter that runs the app (this one)"
    )
    args = parser.parse_args()
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
