"""The app in Spanish in a real browser: a browser set to Spanish opens it in Spanish, a photo is
read, a card fixed, the game scored and a second game starts the night, all in Spanish; the
switch at the top goes back to English (and the address keeps the choice)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import test_browser
from photo_input import STREAMLIT_WORDS, StreamlitWords
from playwright.sync_api import Browser, Page, expect
from test_browser import (
    PHONE,
    blank_png,
    new_page,
    no_errors_on,
    open_expander,
    settle,
    shoot,
)

from blackcat.i18n import translator

# test_browser's fixtures, here too: the browser and the app with the stand-in reader
browser = test_browser.browser
fake_reader_server = test_browser.fake_reader_server


@pytest.fixture
def spanish_page(browser: Browser, fake_reader_server: str) -> Iterator[Page]:
    """The app in a browser set to Spanish (no camera allowed) at a phone's size, its first run
    settled."""
    context = browser.new_context(viewport=PHONE, locale="es-ES")
    page = new_page(context)
    page.goto(fake_reader_server)
    expect(page.get_by_text("Puntos de Gato negro").first).to_be_visible()
    settle(page)
    yield page
    context.close()


def test_a_spanish_browser_gets_the_app_in_spanish_end_to_end(spanish_page: Page) -> None:
    page = spanish_page
    expect(page.get_by_text("Sube fotos o haz una (JPEG, PNG, WebP o HEIC)")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "es")  # a screen reader's voice
    # the upload button is named by the word shown on it, not Streamlit's English and ours
    expect(page.get_by_role("button", name="Subir", exact=True)).to_have_count(1)
    expect(page.get_by_role("button", name="UploadSubir")).to_have_count(0)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": "piles.png", "mimeType": "image/png", "buffer": blank_png(200, 120)}]
    )
    settle(page)
    expect(page.get_by_text("6 cartas en 2 pilas, para Jugador 1")).to_be_visible()
    expect(page.get_by_label("Pila 1, de izquierda a derecha")).to_have_value("8D 2H 8H")
    shoot(page, "spanish")
    page.get_by_role("button", name="✗ No es una carta").click()  # the fix: one tap
    settle(page)
    expect(page.get_by_label("Pila 1, de izquierda a derecha")).to_have_value("8D 8H")
    expect(page.locator("table.bc-board th").first).to_have_text("Jugador")
    expect(page.get_by_text("Jugador 1: 12 puntos")).to_be_visible()
    page.get_by_role("button", name="➕ Siguiente partida").click()
    settle(page)
    expect(page.get_by_text("La noche: 2 partidas")).to_be_visible()
    expect(page.get_by_text("Jugador 1 va en cabeza de la noche con 12 puntos")).to_be_visible()
    open_expander(page, "Descargar los puntos")
    with page.expect_download() as download:
        page.get_by_role("button", name="La noche (CSV)").click()
    assert download.value.suggested_filename == "noche-gato-negro.csv"
    night = Path(download.value.path()).read_text(encoding="utf-8-sig").splitlines()
    assert night[0] == "partida,Jugador 1,ganador" and night[-1] == "ganadas,0,"
    open_expander(page, "Abrir en otro móvil")
    expect(page.get_by_role("img", name="Código QR del enlace")).to_be_visible()
    page.get_by_role("button", name="📋 Copiar el enlace").click()
    expect(page.get_by_role("button", name="✓ Copiado")).to_be_visible()
    no_errors_on(page)
    page.locator('[data-testid="stButtonGroup"] button', has_text="English").click()
    settle(page)
    expect(page.get_by_text("The night: 2 games")).to_be_visible()
    assert "lang=en" in page.url
    expect(page.locator("html")).to_have_attribute("lang", "en")
    no_errors_on(page)


def shown_instead(page: Page, words: StreamlitWords) -> tuple[str, str]:
    """What the page shows over Streamlit's words at `words.where`, and the font size left to
    Streamlit's own there."""
    place = "::before" if words.before else "::after"
    page.wait_for_function(  # the page's style sheet may come a moment after its words
        """([where, place]) => {
          const element = document.querySelector(where);
          return element && getComputedStyle(element, place).content !== "none";
        }""",
        arg=[words.where, place],
        polling=100,
    )
    content, font_size = page.locator(words.where).first.evaluate(
        f"e => [getComputedStyle(e, '{place}').content, getComputedStyle(e).fontSize]"
    )
    return content, font_size


def refusal_shown(page: Page) -> tuple[str, str]:
    """What the page shows over the reason Streamlit's uploader gives by a file it refused (its
    chip, made for the question: the page's script empties the uploader of such a file), and
    the font size left to Streamlit's own words there."""
    content, font_size = page.evaluate(
        """() => {
          const chip = document.createElement("div");
          chip.dataset.testid = "stFileChip";
          chip.setAttribute("aria-invalid", "true");
          const alert = document.createElement("div");
          alert.setAttribute("role", "alert");
          alert.textContent = "application/pdf files are not allowed.";
          chip.appendChild(alert);
          document.body.appendChild(chip);
          const shown = [getComputedStyle(alert, "::after").content,
            getComputedStyle(alert).fontSize];
          chip.remove();
          return shown;
        }"""
    )
    return content, font_size


def test_streamlits_own_words_on_the_photo_widgets_are_spanish_too(spanish_page: Page) -> None:
    page = spanish_page
    upload, limit, _refused, take, _clear, request, how, _skip = STREAMLIT_WORDS
    assert shown_instead(page, upload) == ('"Subir"', "0px")
    assert shown_instead(page, limit) == ('"Hasta 100 MB por foto"', "0px")
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": "notas.pdf", "mimeType": "application/pdf", "buffer": b"%PDF-1.4"}]
    )  # refused by the uploader itself: the page hears of it from its own script, and says so
    note = (
        "notas.pdf no se ha leído: no es una foto. Sube en su lugar una foto JPEG, PNG, WebP o "
        "HEIC."
    )
    expect(page.get_by_text(note)).to_be_visible()
    # the uploader's red line by such a file (where the page's script did not run), unhidden in
    # the page's words: a refused file's chip made for the question
    reason = (
        '"No es una foto que podamos leer: usa una foto JPEG, PNG, WebP o HEIC de 100 MB como '
        'mucho."'
    )
    assert refusal_shown(page) == (reason, "0px")
    page.get_by_text("Usar aquí la cámara de este dispositivo").click()
    settle(page)
    expect(page.locator(request.where)).to_be_attached()
    assert shown_instead(page, take) == ('"Hacer la foto"', "0px")
    assert shown_instead(page, request) == ('"Esta página quiere usar la cámara. "', "0px")
    assert shown_instead(page, how) == ('"Cómo permitirlo."', "0px")
    no_errors_on(page)


def styled(page: Page, testid: str, inside: str = "") -> str:
    """The `display` the page's style sheets give an element of Streamlit's `testid` (within
    one of `inside`), made for the question: it may not be on the page now."""
    return page.evaluate(
        """([testid, inside]) => {
          const box = document.createElement("div");
          if (inside) box.dataset.testid = inside;
          const element = document.createElement(inside ? "button" : "div");
          element.dataset.testid = testid;
          box.appendChild(element);
          document.body.appendChild(box);
          const display = getComputedStyle(element).display;
          box.remove();
          return display;
        }""",
        [testid, inside],
    )


def test_streamlits_own_words_around_the_page_are_spanish_or_gone(spanish_page: Page) -> None:
    """Streamlit's English the audit found on a Spanish page: the ⋮ menu (Print, Record screen,
    "Made with Streamlit") is hidden, the uploader's "100MB per file" is not read, Streamlit's
    names of its controls are in the page's language, a toast is whole (no "view more") and a
    run has no "Stop"."""
    page = spanish_page
    tr = translator("es")
    expect(page.get_by_test_id("stMainMenuButton")).to_be_hidden()
    shown_instead(page, STREAMLIT_WORDS[1])  # (waits for the page's style sheet)
    # the uploader's own field, Streamlit's English "file upload", beside its button "Subir"
    expect(page.get_by_test_id("stFileUploaderDropzoneInput")).to_have_attribute(
        "aria-hidden", "true"
    )
    read = page.locator("body").aria_snapshot()
    assert "100MB per file" not in read and "Hasta 100 MB por foto" in read
    assert "file upload" not in read
    skip = page.get_by_test_id("stSkipToContent")
    expect(skip).to_have_attribute("aria-label", tr.gettext("Skip to main content"))
    help_for = tr.gettext("Help for {label}").format(label="Sube fotos o haz una")
    expect(page.get_by_role("button", name=help_for)).to_have_count(1)
    assert styled(page, "stToastViewButton") == "none"  # the toast's words whole instead
    assert styled(page, "", inside="stStatusWidget") == "none"
    page.locator('[data-testid="stButtonGroup"] button', has_text="Black Lady").click()
    settle(page)
    page.get_by_role("button", name="➕ Siguiente mano").click()  # deal 1 has no tricks yet
    close = page.get_by_test_id("stToast").get_by_role("button")
    expect(close).to_have_attribute("aria-label", tr.gettext("Close"))
    shoot(page, "spanish-toast")
    no_errors_on(page)
