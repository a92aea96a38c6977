"""The app in Spanish: the language from the address (`?lang=es`) or the browser, the switch at
the top of the page, and the Black Cat page's flow (upload, fix, score, night) in Spanish."""

from __future__ import annotations

import gettext
import subprocess
import sys
from pathlib import Path

import language
import pytest
import sharing
from streamlit.testing.v1 import AppTest
from test_streamlit_app import (  # noqa: F401  (fixtures)
    APP_SCRIPT,
    TIMEOUT,
    assert_clean,
    button,
    card_list,
    damaged_models,
    fresh_caches,
    open_tools,
    page_text,
    pile_id,
    png,
    reader,
    reload,
    scoreboard,
    text_input,
    uploader,
)

from blackcat.i18n import Translator, translator


def open_in(lang: str) -> AppTest:
    at = AppTest.from_file(str(APP_SCRIPT), default_timeout=TIMEOUT)
    at.query_params[language.PARAM] = lang
    at.run()
    assert_clean(at)
    return at


def title(at: AppTest) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("## "))


def run(at: AppTest) -> AppTest:
    at.run()
    assert_clean(at)
    return at


@pytest.mark.parametrize(
    ("tag", "expected"),
    [("es-MX", "es"), ("es", "es"), ("en-GB", "en"), ("fr-FR", None), ("", None), (None, None)],
)
def test_a_browser_language_is_offered_when_it_is_english_or_spanish(
    tag: str | None, expected: str | None
) -> None:
    assert language.offered(tag) == expected


def test_the_address_opens_the_app_in_spanish_and_the_switch_goes_back_to_english() -> None:
    at = open_in("es")
    assert title(at) == "## 🐈\u200d⬛ Puntos de Gato negro"
    assert at.segmented_control(key=language.KEY).value == "es"
    assert at.segmented_control(key="game").options == ["Gato negro", "Black Lady"]
    at.segmented_control(key=language.KEY).set_value("en")
    run(at)
    assert title(at) == "## 🐈\u200d⬛ Black Cat score"
    assert at.query_params[language.PARAM] == "en"  # a reload keeps the choice


def test_the_untouched_examples_player_is_named_in_the_language_switched_to() -> None:
    at = AppTest.from_file(str(APP_SCRIPT), default_timeout=TIMEOUT)
    at.run()
    assert "<td>Example</td>" in scoreboard(at)
    at.segmented_control(key=language.KEY).set_value("es")
    run(at)
    assert "<td>Ejemplo</td>" in scoreboard(at)
    assert button(at, "↶ Deshacer").proto.disabled  # nothing to undo: the same example
    text_input(at, "Nombre").input("Ana")
    run(at)
    at.segmented_control(key=language.KEY).set_value("en")
    run(at)
    assert "<td>Ana</td>" in scoreboard(at)  # a name the player gave stays theirs


def test_how_we_score_is_in_spanish_with_the_spanish_rules_names() -> None:
    at = open_in("es")
    how = next(e for e in at.expander if "Cómo contamos los puntos" in e.label)
    text = "\n".join(m.value for m in how.markdown)
    for name in ("Gato Tom", "Maullador", "Gato jelical", "Gato negro", "pila de gatitos"):
        assert name in text
    assert "Larga noche en las verjas" in text
    assert "No se nombra ganador hasta" in text


def test_how_we_score_black_lady_is_in_spanish() -> None:
    at = open_in("es")
    at.segmented_control(key="game").set_value("Black Lady")
    run(at)
    how = next(e for e in at.expander if "Cómo contamos los puntos de Black Lady" in e.label)
    text = "\n".join(m.value for m in how.markdown)
    assert "Cartas apartadas" in text and "| jugadores | apartadas | cartas cada uno |" in text
    assert "*El A♥ resta 10*" in text and "Cards set aside" not in text


def test_a_damaged_link_is_told_in_spanish_on_both_pages() -> None:
    at = AppTest.from_file(str(APP_SCRIPT), default_timeout=TIMEOUT)
    at.query_params[language.PARAM] = "es"
    at.query_params["table"] = "not-a-table"
    at.query_params["lady"] = "2not-a-game"
    at.run()
    assert any("no se puede leer" in w.value for w in at.warning), [w.value for w in at.warning]
    assert not any("can't be read" in w.value for w in at.warning)
    at.segmented_control(key="game").set_value("Black Lady")
    run(at)
    lady = [w.value for w in at.warning]
    assert any("no se puede leer" in w and "partida nueva" in w for w in lady), lady


def test_new_players_get_spanish_names_on_both_pages() -> None:
    at = open_in("es")
    at.segmented_control(key="game").set_value("Black Lady")
    run(at)
    assert text_input(at, "Asiento 1").value == "Jugador 1"
    assert "Jugador 3" in page_text(at)
    black_cat = open_in("es")
    button(black_cat, "➕ Jugador").click()
    run(black_cat)
    board = scoreboard(black_cat)
    assert "Jugador 1" in board and "Jugador 2" in board and "Player" not in board


def test_the_players_the_app_named_follow_a_switch_of_language_cards_in_or_not() -> None:
    at = AppTest.from_file(str(APP_SCRIPT), default_timeout=TIMEOUT)
    at.run()
    button(at, "➕ Player").click()  # the example makes way: Player 1 and Player 2
    run(at)
    at.segmented_control(key=language.KEY).set_value("es")
    run(at)
    board = scoreboard(at)
    assert "Jugador 1" in board and "Jugador 2" in board and "Player" not in board
    text_input(at, "Pila 1, de izquierda a derecha").input("8D 2H 8H")
    run(at)
    at.segmented_control(key=language.KEY).set_value("en")
    run(at)
    board = scoreboard(at)  # with cards in, too (they stayed "Jugador 2" in English)
    assert "Player 1" in board and "Player 2" in board and "Jugador" not in board
    button(at, "↶ Undo").click()  # Undo's games are said in the language switched to
    run(at)
    board = scoreboard(at)
    assert "Player 2" in board and "Jugador" not in board
    assert text_input(at, "Pile 1, left to right").value == ""


def test_a_name_typed_stays_as_typed_in_every_language_even_a_numbered_one() -> None:
    at = AppTest.from_file(str(APP_SCRIPT), default_timeout=TIMEOUT)
    at.run()
    button(at, "➕ Player").click()  # Player 1 and Player 2, Player 2's piles shown
    run(at)
    text_input(at, "Name").input("Player 5")
    run(at)
    at.segmented_control(key=language.KEY).set_value("es")
    run(at)
    board = scoreboard(at)
    assert "Jugador 1" in board and "Player 5" in board and "Jugador 5" not in board


def test_black_ladys_players_the_app_named_follow_a_switch_of_language_cards_in() -> None:
    at = AppTest.from_file(str(APP_SCRIPT), default_timeout=TIMEOUT)
    at.run()
    at.segmented_control(key="game").set_value("Black Lady")
    run(at)
    text_input(at, "Player 1's tricks, any order").input("KH 2S 4S")
    run(at)
    text_input(at, "Seat 2").input("Bob")
    run(at)
    at.segmented_control(key=language.KEY).set_value("es")
    run(at)
    text = page_text(at)
    assert "Jugador 1" in text and "Jugador 3" in text and "Bob" in text
    assert "Player 1" not in text and "Player 3" not in text


def test_a_language_not_offered_opens_the_app_in_english() -> None:
    assert title(open_in("fr")) == "## 🐈\u200d⬛ Black Cat score"


@pytest.mark.parametrize("with_reader", [True, False], ids=["reader", "no-reader"])
def test_a_file_that_is_not_a_photo_is_told_in_spanish(
    request: pytest.FixtureRequest, with_reader: bool
) -> None:
    if with_reader:
        request.getfixturevalue("reader")  # the photo read (and refused) by the reader's path
    at = open_in("es")
    assert uploader(at).label.endswith("(JPEG, PNG, WebP o HEIC)")
    uploader(at).set_value(("notas.jpg", b"no son las cartas que buscas", "image/jpeg"))
    run(at)
    assert [e.value for e in at.error] == [
        "notas.jpg no es una imagen que podamos leer: usa una foto JPEG, PNG, WebP o HEIC."
    ]


@pytest.mark.usefixtures("reader")
def test_the_notes_of_the_last_photos_follow_a_switch_of_language() -> None:
    at = open_in("en")
    uploader(at).set_value(("piles.png", png(200), "image/png"))
    run(at)
    assert any("piles.png: 6 cards in 2 piles, given to" in s.value for s in at.success)
    at.segmented_control(key=language.KEY).set_value("es")
    run(at)
    note = " ".join(s.value for s in at.success)
    assert "piles.png: 6 cartas en 2 pilas, para" in note
    assert "revisa la carta en naranja" in note
    uploader(at).set_value(("notas.jpg", b"no son las cartas que buscas", "image/jpeg"))
    run(at)
    assert [e.value for e in at.error] == [
        "notas.jpg no es una imagen que podamos leer: usa una foto JPEG, PNG, WebP o HEIC."
    ]
    at.segmented_control(key=language.KEY).set_value("en")
    run(at)
    assert [e.value for e in at.error] == [
        "notas.jpg is not an image we can read: use a JPEG, PNG, WebP or HEIC photo."
    ]


def test_the_open_panels_stay_open_through_a_switch_of_language() -> None:
    """Streamlit takes an expander of another label for a new one, closed: the pile's editor
    closed under the player's finger when they switched language."""
    at = open_in("en")
    first = pile_id(at, 1)
    for key in (f"fix:{first}", f"queens:{first}"):
        at.session_state[key] = True
    run(at)
    at.segmented_control(key=language.KEY).set_value("es")
    run(at)
    assert open_panels(at) == {
        "✏️ Corregir, añadir o mover cartas de la pila 1",
        "👑 Reinas de la pila 1: 7 u 11",
    }
    at.session_state[f"fix:{first}"] = False  # closed by the player: it stays closed
    run(at)
    at.segmented_control(key=language.KEY).set_value("en")
    run(at)
    assert open_panels(at) == {"👑 Queens of pile 1: 7 or 11"}


def open_panels(at: AppTest) -> set[str]:
    return {e.label for e in at.expander if at.session_state.get(e.key)}


def test_a_typo_and_a_refused_change_are_told_in_spanish() -> None:
    at = open_in("es")
    assert "<td>Ejemplo</td>" in scoreboard(at)  # the example's player, named in Spanish
    text_input(at, "Pila 2, de izquierda a derecha").input("KS 9C XX 4S")
    run(at)
    errors = [e.value for e in at.error]
    assert any(e.startswith("“XX” (carta 3) no es una carta: escribe un valor") for e in errors)
    button(at, "➕ Jugador").click()
    run(at)
    text_input(at, "Nombre").input("jugador 1")
    run(at)
    assert [t.value for t in at.toast] == ["Ya hay un jugador que se llama «Jugador 1»."]


@pytest.mark.usefixtures("reader")
def test_the_list_of_every_card_names_them_in_spanish() -> None:
    at = open_in("es")
    uploader(at).set_value(("piles.png", png(200), "image/png"))
    run(at)
    first = open_tools(at, 1, "Pila {pile}, de izquierda a derecha")
    at.pills(key=f"sel:{first}").set_value(1)  # 1.2, read as 2♥
    run(at)
    options = card_list(at, first, "es").options
    assert options[0] == "2♥ · 2H · 2 de corazones"
    assert "según el lector" in options[1]
    for name in (
        "Q♠ · QS · Reina de picas",
        "A♣ · AC · As de tréboles",
        "J♦ · JD · Jota de diamantes",
    ):
        assert name in options


@pytest.mark.usefixtures("reader")  # the stand-in photo reader of test_streamlit_app
def test_the_black_cat_page_in_spanish_upload_fix_score_and_night() -> None:
    at = open_in("es")
    assert "Añade tus pilas" in page_text(at)
    uploader(at).set_value(("piles.png", png(200), "image/png"))
    run(at)
    note = " ".join(s.value for s in at.success)
    assert "piles.png: 6 cartas en 2 pilas, para Jugador 1." in note
    assert "revisa la carta en naranja" in note
    assert any("parece" in m.value for m in at.markdown)  # the doubtful card: 1.2
    button(at, "2♠ 30\u00a0%").click()  # fixed in one tap; "30 %", as Spanish writes it
    run(at)
    assert text_input(at, "Pila 1, de izquierda a derecha").value == "8D 2S 8H"
    assert "<th>Jugador</th>" in scoreboard(at)
    assert "### Jugador 1: 18 puntos" in page_text(at)
    assert "2 gatos Tom = " in page_text(at)  # the Spanish rules' names
    text_input(at, "Pila 2, de izquierda a derecha").input("KS 9C 4S 10H")
    run(at)
    button(at, "➕ Siguiente partida").click()
    run(at)
    text = page_text(at)
    assert "La noche: 2 partidas" in text
    # game 2 just started: one game finished, the second under way
    assert (
        "Jugador 1 va en cabeza de la noche con 19 puntos por ahora, tras 1 partida; la partida 2 "
        "está en curso." in text
    )
    assert next(d.label for d in at.download_button) == "La noche (CSV)"
    again = reload(at)
    assert "La noche: 2 partidas" in page_text(again)  # the address keeps the language
    again.session_state[sharing.share_panel_key("table")] = True  # the share panel opened
    run(again)
    share = next(e for e in again.expander if "Abrir en otro móvil" in e.label)
    assert any("lang=es" in part.value for part in share.html)  # and the link to another phone


def test_black_lady_in_spanish_who_plays_their_tricks_and_the_sheet() -> None:
    at = open_in("es")
    at.segmented_control(key="game").set_value("Black Lady")
    run(at)
    assert title(at) == "## ♠️ Puntos de Black Lady"
    assert "### 👥 ¿Quién juega?" in page_text(at)
    text_input(at, "Asiento 1").input("Ann")
    run(at)
    text_input(at, "Bazas de Ann, en cualquier orden").input("QS AH KH")  # one whole trick
    run(at)
    text = page_text(at)
    assert "Faltan las bazas de" in text
    assert '<th class="name">Jugador</th>' in text
    assert "Aún no hay ninguna mano completa" in text
    # typed in, the page moves on to the next player's tricks, and says so
    assert [t.value for t in at.toast] == [
        "Las bazas de Ann ya están. Ahora, las bazas de Jugador 2."
    ]
    assert "**Jugador 2: pendiente** · 0 cartas" in text


def test_black_ladys_list_of_deals_asks_in_the_pages_language_not_streamlits() -> None:
    """Its field, emptied to search the list, said Streamlit's "Choose an option" in English."""
    at = open_in("es")
    at.segmented_control(key="game").set_value("Black Lady")
    run(at)
    placeholder = at.selectbox(key="lady-deals-to-play:es").placeholder
    assert placeholder == translator("es").gettext("Choose a number of deals")


FIRST_PAGE_IMPORTS = """
import sys
from pathlib import Path
from streamlit.testing.v1 import AppTest
for lang in ("en", "es"):
    at = AppTest.from_file(sys.argv[1], default_timeout=float(sys.argv[2]))
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception, at.exception
print(" ".join(sorted({"pandas", "pyarrow"} & set(sys.modules))))
"""


def test_the_pages_language_costs_the_first_page_no_pandas() -> None:
    """The page's language goes to its <html> through a component: data of any kind but a dict
    (or a list, or bytes) has Streamlit import pandas and pyarrow to ask whether it is a table,
    0.3-0.5 s of the first page after the app starts. The first pages in English and Spanish,
    in a fresh interpreter, import neither."""
    first_pages = subprocess.run(
        [sys.executable, "-c", FIRST_PAGE_IMPORTS, str(APP_SCRIPT), str(TIMEOUT)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=APP_SCRIPT.parent,
    )
    assert first_pages.returncode == 0, first_pages.stderr
    assert first_pages.stdout.strip() == ""


def test_the_boxes_cards_are_typed_in_say_the_suits_letters() -> None:
    """Cards are typed with English suit letters: a Spanish player's C (corazones) is clubs."""
    at = open_in("es")
    pile = text_input(at, "Pila 1, de izquierda a derecha")
    assert "S♠ H♥ D♦ C♣" in pile.placeholder
    at.segmented_control(key="game").set_value("Black Lady")
    run(at)
    tricks = next(t for t in at.text_input if t.label.startswith("Bazas de "))
    assert tricks.placeholder == pile.placeholder


def test_damaged_models_are_told_in_spanish(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    folder = damaged_models(tmp_path / "models", "calibration")
    monkeypatch.setenv("BLACKCAT_MODELS_DIR", str(folder))
    at = open_in("es")
    note = page_text(at)
    assert "no se puede leer un archivo de calibración" in note, note
    assert "vuelve a ajustarlo con `blackcat calibrate`" in note
    assert "Error" not in note


class Catalogue(gettext.NullTranslations):
    """A catalogue of a few translations (a new message not in the Spanish one yet)."""

    def __init__(self, translations: dict[str, str]) -> None:
        super().__init__()
        self.translations = translations

    def gettext(self, message: str) -> str:
        return self.translations.get(message, message)


def test_streamlits_english_names_of_its_controls_are_given_in_the_pages_language() -> None:
    """ "Help for …", "Link to heading", a toast's "Close" and the like were Streamlit's English
    on a Spanish page: each is renamed, with the rest of Streamlit's name kept where ours has
    `{label}` (PAGE_LANGUAGE_JS)."""
    words = {"Help for {label}": "Ayuda sobre {label}", "Close": "Cerrar"}
    names = language.streamlit_names(Translator("es", Catalogue(words)))
    assert ['button[aria-label^="Help for "]', "Ayuda sobre {label}", "Help for "] in names
    assert ['[data-testid="stToast"] button[aria-label^="Close"]', "Cerrar", "Close"] in names
    upload = '[data-testid="stFileUploaderDropzoneInput"][aria-label^="file upload"]'
    assert [upload, "", "file upload"] in names  # its own field, a second "Upload": unnamed
    assert [upload, "", "file upload"] in language.streamlit_names(translator("es"))
    english = {name.english for name in language.STREAMLIT_NAMES}
    assert {"Link to heading", "Fullscreen: ", "Open", "Running..."} <= english
