"""The command line in Spanish: `--lang`, the environment's language, and JSON that stays the same
in every language."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from blackcat.cli import main
from blackcat.cli.scan import _text_report, text_warnings
from blackcat.games.black_cat import score_player
from blackcat.games.cards import parse_card
from blackcat.i18n import ENVIRONMENT_VARIABLES, translator
from blackcat.vision.types import Guess, PhotoRead, ReadCard

# The README's example: the example photo's two piles, 36 points.
README_PILES = ["QS 6C QH 5H 5D 8D 2S QD QC 2H 8H 7S 3H 4S 6S", "10s,10h,KD,10♣,9♥"]
SCENE_1 = Path(__file__).resolve().parents[1] / "vision" / "data" / "scene_1.jpg"
README = Path(__file__).resolve().parents[2] / "README.md"
ANN = "QS AH KH 5H 2H AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS KS AD"  # -68
BEN = (
    "3H 4H 6H 7H 8H 9H 10H JH QH 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AC 3C 4C 5C 6C 7C 8C 9C "
    "10C JC QC KC"
)  # -67


def blackcat(*args: str | Path, **environ: str) -> subprocess.CompletedProcess[str]:
    """`blackcat ARGS` as a person runs it, the language variables set to `environ` alone."""
    env = {k: v for k, v in os.environ.items() if k not in ENVIRONMENT_VARIABLES}
    return subprocess.run(
        [sys.executable, "-m", "blackcat", *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**env, "PYTHONIOENCODING": "utf-8", **environ},
        timeout=300,
        check=False,
    )


def test_score_in_spanish_names_the_features_as_the_spanish_rules_do() -> None:
    result = blackcat("score", "--lang", "es", *README_PILES)
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == "Pila 1: Q♠ 6♣ Q♥ 5♥ 5♦ 8♦ 2♠ Q♦ Q♣ 2♥ 8♥ 7♠ 3♥ 4♠ 6♠"
    assert lines[1].split() == ["Gato", "Tom", "1.4-1.5", "5♥", "5♦", "3", "ptos."]
    words = [line.split() for line in lines]
    assert ["Gato", "jelical", "1.8", "Q♦", "2", "ptos."] in words
    assert ["Gato", "negro", "1.1-1.2", "Q♠", "6♣", "6", "ptos."] in words
    assert ["Maullador", "2.1", "10♠", "1", "pto."] in words
    assert "  Reinas: Q♠ en 1.1 = 7, Q♥ en 1.3 = 7 (cualquier valor puntúa igual)," in result.stdout
    assert "  Puntos de la pila: 25" in lines and "  Puntos de la pila: 11" in lines
    assert "Pila 2: 10♠ 10♥ K♦ 10♣ 9♥" in lines
    assert lines[-1] == "Total: 36"
    for english in ("Tomcat", "Yowler", "Jellical", "Black Cat", "Pile", "Queens", " pts"):
        assert english not in result.stdout


def test_the_readmes_spanish_example_prints_what_the_readme_shows() -> None:
    example = re.search(
        r"^\.venv/bin/blackcat (score --lang es .*)\n```\n```\n(.*?)^```",
        README.read_text(encoding="utf-8"),
        re.MULTILINE | re.DOTALL,
    )
    assert example is not None
    result = blackcat(*shlex.split(example.group(1)))
    assert result.returncode == 0, result.stderr
    assert result.stdout == example.group(2)


def test_score_in_spanish_pins_empty_piles_and_no_features() -> None:
    result = blackcat("score", "--lang", "es", "QS 2C 3H 7H", "", "--queen", "0:0=7")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "Pila 1: Q♠ 2♣ 3♥ 7♥",
        "  Gato Tom        1.3-1.4  3♥ 7♥                     3 ptos.",
        "  Reinas: Q♠ en 1.1 = 7 (fijada)",  # --queen counts from 0, the text from 1
        "  Puntos de la pila: 3",
        "Pila 2: (vacía)",
        "  nada que puntúe",
        "  Puntos de la pila: 0",
        "Total: 3",
    ]


def test_the_language_may_come_before_the_subcommand_and_wins_over_the_environment() -> None:
    before = blackcat("--lang", "es", "score", "KS 9C 4S")
    assert before.returncode == 0 and "Gato negro" in before.stdout
    english = blackcat("score", "--lang", "en", "KS 9C 4S", LANG="es_ES.UTF-8")
    assert "Black Cat" in english.stdout and "Total: 12" in english.stdout


def test_the_environments_language_is_used_without_lang() -> None:
    result = blackcat("score", "KS 9C 4S", LANG="es_ES.UTF-8")
    assert "Pila 1: K♠ 9♣ 4♠" in result.stdout and "Gato negro" in result.stdout
    assert "Total: 12" in result.stdout
    assert "Gato negro" in blackcat("score", "KS 9C 4S", LANGUAGE="fr:es", LANG="C").stdout
    assert "Black Cat" in blackcat("score", "KS 9C 4S", LANG="C.UTF-8").stdout


@pytest.mark.parametrize("unknown", ["fr", "xx_YY"])
def test_a_language_not_offered_is_english_said_once_on_stderr(unknown: str) -> None:
    result = blackcat("score", "--lang", unknown, "KS 9C 4S", LANG="es_ES.UTF-8")
    assert result.returncode == 0
    assert result.stderr == (
        f"blackcat: --lang {unknown}: not offered (en, es); the text is in English.\n"
    )
    assert "Pile 1: K♠ 9♣ 4♠" in result.stdout and "Total: 12" in result.stdout


def test_a_language_not_offered_leaves_json_alone_on_stdout() -> None:
    result = blackcat("score", "--json", "--lang", "fr", "KS 9C 4S")
    assert json.loads(result.stdout)["total"] == 12
    assert "not offered" in result.stderr


def test_the_c_locale_and_an_environment_not_offered_are_english_without_a_word() -> None:
    plain = blackcat("score", "--lang", "C", "KS 9C 4S", LANG="es_ES.UTF-8")
    from_environment = blackcat("score", "KS 9C 4S", LANG="fr_FR.UTF-8")
    for result in (plain, from_environment):
        assert result.returncode == 0 and result.stderr == ""
        assert "Pile 1: K♠ 9♣ 4♠" in result.stdout and "Total: 12" in result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["score", "--json", "--decks", "2", *README_PILES, "QS 2C 3H 7H", "", "--queen", "2:0=7"],
        ["lady", "--json", ANN, BEN.replace("9H", "9D", 1), ""],
        ["lady", "--json", "2C 3C 4C", "2H", "5C 6C 7C"],
    ],
    ids=["score", "lady", "lady-problems"],
)
def test_json_is_the_same_in_every_language(args: list[str]) -> None:
    english = blackcat(*args, "--lang", "en")
    spanish = blackcat(*args, "--lang", "es")
    from_environment = blackcat(*args, LANG="es_ES.UTF-8")
    assert english.returncode == 0, english.stderr
    assert spanish.stdout == english.stdout == from_environment.stdout
    assert "jugador" not in spanish.stdout and "{" in spanish.stdout


def test_scan_json_is_the_same_in_every_language() -> None:
    english = blackcat("scan", "--json", SCENE_1)
    spanish = blackcat("scan", "--json", "--lang", "es", SCENE_1)
    assert english.returncode == 0, english.stderr
    assert spanish.stdout == english.stdout


def test_a_photo_that_cannot_be_read_is_explained_in_spanish_and_json_stays_english(
    tmp_path: Path,
) -> None:
    notes = tmp_path / "notas.txt"
    notes.write_text("ocho de diamantes")
    text = blackcat("scan", "--lang", "es", notes, tmp_path / "falta.jpg")
    assert text.returncode == 1 and text.stdout == ""
    assert text.stderr.splitlines() == [
        f"blackcat scan: {notes} no es una imagen que podamos leer: usa una foto JPEG, PNG, WebP "
        "o HEIC",
        f"blackcat scan: {tmp_path / 'falta.jpg'}: no existe ese archivo; comprueba el nombre y la "
        "carpeta de la foto",
    ]
    english = blackcat("scan", "--json", notes)
    spanish = blackcat("scan", "--json", "--lang", "es", notes)
    assert spanish.stdout == english.stdout
    assert json.loads(spanish.stdout)[0]["error"].startswith(f"{notes} is not an image")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["score", "QS ZZ 4C"], ["pila 1: carta desconocida 'ZZ' (carta 2)", "S picas"]),
        (
            ["score", "KS 9C", "9C"],
            ["9♣ (9C) aparece 2 veces", "carta 1.2, carta 2.1", "usa --decks 2"],
        ),
        (["score", "QS 2C", "--queen", "0:1=7"], ["2♣ (2C), no una reina"]),
        (["score", "QS", "--queen", "0:0=9"], ["una reina vale 7 u 11"]),
        (["lady", "", ""], ["Black Lady necesita de 3 a 9 jugadores; hay 2"]),
        (["lady", ANN, "QS XX", ""], ["jugador 2: carta desconocida 'XX' (carta 2)"]),
    ],
)
def test_errors_in_spanish_are_still_one_line_and_exit_2(
    args: list[str], expected: list[str]
) -> None:
    result = blackcat(*args, "--lang", "es")
    assert result.returncode == 2 and result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"blackcat {args[0]}: error: ")
    for text in expected:
        assert text in line


def test_lady_in_spanish(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lady", "--lang", "es", ANN, BEN[3:], ""]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:5] == ["jugador", "1", "-68", "18", "cartas,"]
    assert lines[2].split() == ["jugador", "3", "+50", "ninguna", "baza"]
    assert lines[3].split() == ["Total", "-82"]
    assert lines[4] == "Revisa esto (la mano puntúa igualmente tal como está):"
    assert "  - 3♥ no está en las bazas de nadie: mira las cartas de jugador 2" in lines


def test_one_card_and_many_cards_take_their_own_forms(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lady", "--lang", "es", "2C 3C 4C", "2H", "5C 6C 7C"]) == 0
    out = capsys.readouterr().out
    assert "jugador 2     -2  1 carta, 2♥" in out and "3 cartas, nada que puntúe" in out
    assert "jugador 2 tiene 1 carta, que no llega a una baza entera de 3 cartas" in out


def test_help_in_spanish(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["score", "--lang", "es", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("uso: blackcat score")
    for text in ("opciones:", "Larga noche en las verjas", "El afortunado Tom", "Música nocturna"):
        assert text in out


def test_scans_text_in_spanish() -> None:
    def read(code: str, confidence: float = 0.99) -> ReadCard:
        card = parse_card(code)
        guesses = (Guess(card, confidence), Guess(parse_card("AC"), 0.2))
        return ReadCard(card, (0.0, 0.0, 8.0, 20.0), confidence, guesses, (), doubtful_below=0.9)

    piles = ((read("QS"), read("6C", 0.6), read("5H")), (read("10S"), read("9H")))
    photo = PhotoRead(width=100, height=100, piles=piles, gaps=((1, 3), ()))
    score = score_player([[r.card for r in pile] for pile in piles])
    text = _text_report("x.jpg", photo, score, ["un aviso"], translator("es"))
    assert text.splitlines()[0] == "x.jpg: 5 cartas en 2 pilas"
    # piles and cards counted from 1, as in English
    assert "  revisa la pila 1: 1.2 6♣ (60%; o A♣)" in text.splitlines()
    assert "  hueco en la pila 1: puede faltar una carta antes de la carta 1.2 (6♣)" in text
    assert "  hueco en la pila 1: puede faltar una carta después de la última (5♥)" in text
    assert "Pila 2: 10♠ 9♥" in text and "Q♠ en 1.1 = " in text
    assert "Gato negro" in text and "Maullador" in text and "Total: 7" in text
    assert text.splitlines()[-1] == "  aviso: un aviso"
    twice = PhotoRead(
        width=100, height=100, piles=((read("KS"), read("9C")), (read("4S"), read("KS")))
    )
    assert text_warnings(twice, tr=translator("es")) == [
        "K♠ (KS) aparece 2 veces pero un mazo solo tiene 1: carta 1.1, carta 2.2"
    ]


def test_argparses_own_errors_are_spanish_too() -> None:
    missing = blackcat("score", LANG="es_ES.UTF-8")
    assert missing.returncode == 2
    assert missing.stderr.startswith("uso: blackcat score")
    assert missing.stderr.endswith("blackcat score: error: faltan estos argumentos: PILE\n")
    choice = blackcat("--lang", "es", "scan", "--players", "7", "foto.jpg")
    assert choice.stderr.endswith(
        "blackcat scan: error: argumento --players: 7 no es una opción (elige entre 1, 2, 3, 4)\n"
    )
    english = blackcat("score")
    assert english.stderr.endswith("error: the following arguments are required: PILE\n")
