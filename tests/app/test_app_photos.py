"""The app with the real photo reader: needs the trained weights in models/ and app/example.jpg.

The camera, the uploader and the example photo must give exactly what `CardReader` reads from
the same photo (the app adds nothing and loses nothing), scored as `score_player` scores it, and
a real browser must get a photo through the uploader.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import streamlit as st
from playwright.sync_api import expect, sync_playwright
from streamlit.testing.v1 import AppTest
from test_browser import CHROMIUM, CHROMIUM_ARGS, PHONE, served_app, settle
from test_browser import new_game as start_new_game
from test_streamlit_app import uploader

ROOT = Path(__file__).resolve().parents[2]
APP_SCRIPT = ROOT / "app" / "streamlit_app.py"
EXAMPLE = ROOT / "app" / "example.jpg"
# the example's piles as drawn (app/example.json), which score 36 (README)
EXAMPLE_PILES = [
    " ".join(pile) for pile in json.loads(EXAMPLE.with_suffix(".json").read_text())["piles"]
]
REAL_PHOTOS = ROOT.parent / "shared" / "real-photos" / "rf100-poker-cards"
TIMEOUT = 180
needs_real_photos = pytest.mark.skipif(
    not REAL_PHOTOS.is_dir(),
    reason=f"needs the team's real photos in {REAL_PHOTOS} (outside the repository)",
)


@pytest.fixture(autouse=True)
def real_models(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("BLACKCAT_MODELS_DIR", raising=False)
    st.cache_data.clear()
    yield
    st.cache_data.clear()


def app_piles(at: AppTest) -> list[str]:
    return [t.value for t in at.text_input if t.label.endswith(", left to right")]


def totals(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown if m.value.startswith("### ") and "points" in m.value]


def start() -> AppTest:
    at = AppTest.from_file(str(APP_SCRIPT), default_timeout=TIMEOUT)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def new_game(at: AppTest) -> None:
    next(b for b in at.button if b.label == "Yes, a new game").click()
    at.run()


def test_the_example_photo_is_read_and_scored_as_the_app_opens() -> None:
    at = start()
    assert any("read from the example photo" in i.value for i in at.info)
    assert not any("photo reader isn't available" in i.value for i in at.info)
    assert len(at.image) == 1  # the example photo with its numbered boxes
    assert app_piles(at) == EXAMPLE_PILES  # as drawn: the example reads exactly right
    assert totals(at) == ["### Example: 36 points"]


def test_an_uploaded_photo_is_read_into_the_players_piles() -> None:
    at = start()
    new_game(at)
    uploader(at).set_value(("piles.jpg", EXAMPLE.read_bytes(), "image/jpeg"))
    at.run()
    assert not at.exception
    assert any("given to Player 1" in s.value for s in at.success), [e.value for e in at.error]
    assert app_piles(at)[: len(EXAMPLE_PILES)] == EXAMPLE_PILES
    assert totals(at) == ["### Player 1: 36 points"]
    assert len(at.image) == 1


def test_a_camera_photo_is_read_into_the_players_piles() -> None:
    at = start()
    new_game(at)
    at.toggle(key="camera_on").set_value(True)
    at.run()
    at.camera_input(key="camera").upload("camera.jpg", EXAMPLE.read_bytes())
    at.run()
    assert not at.exception
    assert app_piles(at)[: len(EXAMPLE_PILES)] == EXAMPLE_PILES
    assert totals(at) == ["### Player 1: 36 points"]


def test_a_damaged_model_only_some_photos_need_is_told_with_what_to_do(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The suit classifier cut short: the reader starts (it loads that model when a photo first
    needs it) and reads the example; a light-on-dark photo, which needs it, is told in the
    reader's own words (which file, what to do), not as a photo to replace, as it was."""
    from damaged_models import models_with_one_cut_short, save_light_on_dark

    models = models_with_one_cut_short(tmp_path / "models", "suit_classifier.onnx")
    monkeypatch.setenv("BLACKCAT_MODELS_DIR", str(models))
    at = start()
    assert totals(at) == ["### Example: 36 points"]  # read from the example photo
    dark = save_light_on_dark(EXAMPLE, tmp_path / "dark.jpg")
    uploader(at).set_value(("dark.jpg", dark.read_bytes(), "image/jpeg"))
    at.run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert errors == [
        "dark.jpg wasn't read, through no fault of the photo: a trained model can't be loaded "
        f"(cut short or damaged): {models / 'suit_classifier.onnx'}; export it again into its "
        "folder with `blackcat export --models DIR`, or leave --models out to use the bundled "
        "ones. Type or pick its cards below for now."
    ]
    assert totals(at) == ["### Example: 36 points"]  # the table as it was
    assert not any("photo reader" in i.value for i in at.info)  # it reads other photos


@needs_real_photos
def test_a_real_photo_reads_as_blackcat_scan_reads_it() -> None:
    labels = json.loads((REAL_PHOTOS / "labels.json").read_text())
    name = sorted(labels)[0]
    path = REAL_PHOTOS / "images" / name
    scan = subprocess.run(
        [sys.executable, "-m", "blackcat", "scan", "--json", str(path)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    scanned = [" ".join(pile["cards"]) for pile in json.loads(scan.stdout)[0]["piles"]]
    at = start()
    new_game(at)
    uploader(at).set_value((name, path.read_bytes(), "image/jpeg"))
    at.run()
    assert not at.exception
    labelled = sorted(card["card"] for card in labels[name])
    assert sorted(" ".join(scanned).split()) == labelled  # this photo reads right
    assert app_piles(at)[: len(scanned)] == scanned


def test_a_photo_through_a_real_browser(tmp_path: Path) -> None:
    """The uploader in headless Chromium at phone width, with the real reader behind it."""
    with (
        served_app(tmp_path / "streamlit.log") as url,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport=PHONE)
        page.set_default_timeout(TIMEOUT * 1000)
        page.goto(url)
        # The first run loads torch and the models: slow on a busy CI machine.
        expect(page.get_by_text("read from the example photo")).to_be_visible(
            timeout=TIMEOUT * 1000
        )
        settle(page)
        start_new_game(page)
        page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(EXAMPLE)
        settle(page)
        expect(page.get_by_text("given to Player 1")).to_be_visible(timeout=TIMEOUT * 1000)
        # a second player, both renamed, switching back and forth: nothing is refused
        page.get_by_role("button", name="➕ Player").click()
        settle(page)
        for name, other in (("Ben", "Player 1"), ("Ann", "Ben")):
            field = page.get_by_label("Name")
            field.fill(name)
            field.press("Enter")
            settle(page)
            page.locator('[data-testid="stButtonGroup"] button', has_text=other).click()
            settle(page)
        page.locator('[data-testid="stButtonGroup"] button', has_text="Ann").click()
        settle(page)
        expect(page.get_by_text("given to Ann")).to_be_visible()  # the note, renamed
        expect(page.locator('[data-testid="stToast"]')).to_have_count(0)
        expect(page.locator('[data-testid="stException"]')).to_have_count(0)
        browser.close()
