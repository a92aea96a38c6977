"""Make docs/screenshot-phone.png: the app at a phone's size (390×844, as the browser tests
see it) reading the bundled example photo; with `--night`, docs/screenshot-night.png: the night's
sheet after the browser tests' night of three typed games (no models needed). Re-run it whenever
the app's look changes:

    .venv/bin/python docs/make_screenshot.py [--out docs/screenshot-phone.png] [--height 1500]
                                             [--scale 1] [--night]

Needs the test extras (`pip install -e ".[test]"`: Playwright), Debian's Chromium
(`apt-get install chromium`; the emoji need `fonts-noto-color-emoji`) and the trained models in
models/. It starts `blackcat app` as the browser tests do, waits until the example photo is read
and scored, and photographs the page at the phone's width: `--height` shows more of it than
the phone's first screen (844 px), the photo with its numbered cards included.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "app"))  # the browser tests' way of serving the app

from playwright.sync_api import sync_playwright  # noqa: E402
from test_browser import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    play_a_night,
    served_app,
    settle,
)

READ = "read from the example photo"
LOAD_SECONDS = 180  # the first run loads torch and the models


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="default: docs/screenshot-phone.png (-night)")
    parser.add_argument("--height", type=int, default=1500, help="page height to show, px")
    parser.add_argument("--scale", type=float, default=1.0, help="device pixels per CSS pixel")
    parser.add_argument("--night", action="store_true", help="the night's sheet, not the photo")
    args = parser.parse_args(argv)
    if args.out is None:
        args.out = ROOT / "docs" / f"screenshot-{'night' if args.night else 'phone'}.png"
    if args.night:
        return night_screenshot(args.out, args.scale)
    with (
        tempfile.TemporaryDirectory() as folder,
        served_app(Path(folder) / "streamlit.log") as url,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport=PHONE, device_scale_factor=args.scale)
        page.set_default_timeout(LOAD_SECONDS * 1000)
        page.goto(url)
        page.get_by_text("Black Cat score").first.wait_for()
        settle(page)
        if not page.get_by_text(READ).count():
            print("the app did not read the example photo: are the models in models/?")
            return 1
        page.set_viewport_size({"width": PHONE["width"], "height": args.height})
        settle(page)
        page.locator('[data-testid="stImage"] img').first.wait_for()
        page.wait_for_timeout(500)  # the photo's fade-in
        page.screenshot(path=str(args.out))
        browser.close()
    print(f"wrote {args.out}")
    return 0


def night_screenshot(out: Path, scale: float) -> int:
    """The night's sheet, who leads and the game on screen, at a phone's width."""
    with (
        tempfile.TemporaryDirectory() as folder,
        served_app(Path(folder) / "streamlit.log", "--models", folder) as url,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport=PHONE, device_scale_factor=scale)
        page.set_default_timeout(LOAD_SECONDS * 1000)
        page.goto(url)
        page.get_by_text("Black Cat score").first.wait_for()
        settle(page)
        play_a_night(page)
        page.set_viewport_size({"width": PHONE["width"], "height": 2400})  # all of it, unscrolled
        settle(page)
        page.locator('[data-testid="stMain"]').evaluate("main => { main.scrollTop = 0 }")
        top = page.get_by_text("The night: 3 games").bounding_box()
        bottom = page.get_by_role("button", name="↶ Undo").bounding_box()
        if top is None or bottom is None:
            print("the night's sheet is not on the page")
            return 1
        y = top["y"] - 12
        height = bottom["y"] + bottom["height"] + 12 - y
        page.screenshot(
            path=str(out), clip={"x": 0, "y": y, "width": PHONE["width"], "height": height}
        )
        browser.close()
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
