"""Nothing leaves the player's machine, end to end: `blackcat app` with the bundled reader, in a
real browser at a phone's size, opens on the example, reads an uploaded photo, shows the share
panel's QR code and the scoring rules, speaks Spanish and opens the Black Lady page; through all
of it the page asks nothing of any address but the app's own (every request and websocket the
browser makes), and the server looks up and connects to no other machine (`outbound_log`
watches its sockets). Streamlit's usage statistics, fonts fetched from the web or a library's
update check would each fail it. What a library's C++ code would send, unseen by that watch, it
first keeps in the home folder (ONNX Runtime's usage events): the server's stays empty."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import test_browser
from outbound_log import addresses_asked, blackcat_watched
from playwright.sync_api import Browser, expect
from test_browser import (
    PHONE,
    free_port,
    new_page,
    no_errors_on,
    open_expander,
    served,
    settle,
    to_black_lady,
)

A_PHOTO = Path(__file__).resolve().parents[1] / "vision" / "data" / "scene_1.jpg"
PAGE_OWN_SCHEMES = {"data", "blob", "about"}  # made by the page itself, fetched from nowhere

# test_browser's fixture, here too: the browser
browser = test_browser.browser


@pytest.fixture(scope="module")
def watched_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """`blackcat app` with the bundled models, its sockets watched, in an empty home folder: its
    URL and the folder that holds the file in which any other machine it asks of is written
    down, and the home folder (`home`)."""
    folder = tmp_path_factory.mktemp("privacy")
    (folder / "home").mkdir()
    port = free_port()
    args = ["app", "--headless", "--port", str(port), "--address", "127.0.0.1"]
    command, env = blackcat_watched(args, folder / "asked.txt")
    env = {**env, "HOME": str(folder / "home")}
    env.pop("ORT_DISABLE_TELEMETRY", None)  # the app turns it off itself
    with served(folder / "streamlit.log", command, f"http://127.0.0.1:{port}", env) as url:
        yield url, folder


def elsewhere(url: str, app_url: str) -> bool:
    """Whether the browser asked `url` of anything but the app (the page's own data aside)."""
    parts = urlsplit(url)
    return parts.scheme not in PAGE_OWN_SCHEMES and parts.netloc != urlsplit(app_url).netloc


def test_the_app_asks_nothing_of_another_machine(
    browser: Browser, watched_server: tuple[str, Path]
) -> None:
    url, folder = watched_server
    context = browser.new_context(viewport=PHONE)
    asked: list[str] = []
    context.on("request", lambda request: asked.append(request.url))
    page = new_page(context)
    page.on("websocket", lambda socket: asked.append(socket.url))
    page.goto(url)
    expect(page.get_by_text("read from the example photo").first).to_be_visible()
    settle(page)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(A_PHOTO)
    settle(page)
    note = page.locator('[class*="upload-notes"] [data-testid="stAlert"]')
    expect(note).to_contain_text(re.compile(r"_\W?1\.jpg: \d+ cards in 2 piles"))
    open_expander(page, "Open on another phone")
    expect(page.get_by_role("img", name="QR code of the link")).to_be_visible()
    open_expander(page, "How we score")
    page.locator('[data-testid="stButtonGroup"] button', has_text="Español").click()
    settle(page)
    expect(page.get_by_text("Puntos de Gato negro").first).to_be_visible()
    page.locator('[data-testid="stButtonGroup"] button', has_text="English").click()
    settle(page)
    to_black_lady(page)
    no_errors_on(page)
    context.close()
    assert len(asked) > 20  # the page's own files, its websocket, the photo
    assert [request for request in asked if elsewhere(request, url)] == []
    assert addresses_asked(folder / "asked.txt") == []
    assert list((folder / "home").rglob("*")) == []
