"""The message catalogues: the template holds every text marked in the code, each language
translates all of it with the same placeholders, and the compiled `.mo` (what runs) says what its
`.po` says. The README's "Languages" section has the commands that fix each of these."""

from __future__ import annotations

import gettext
import string
import tomllib
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from blackcat.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, translator

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
TRANSLATED = [code for code in LANGUAGES if code != "en"]
EXTRACTED_FOLDERS = ("blackcat", "app")  # the library (and its CLI) and the app


def catalogue(path: Path) -> Catalog:
    with path.open("rb") as file:
        return read_po(file)


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def message_ids(messages: Catalog | list[Message]) -> set[tuple[str | None, str]]:
    """Each message as (context, msgid); a plural's msgid is its singular."""
    return {
        (message.context, message.id[0] if isinstance(message.id, tuple) else message.id)
        for message in messages
        if message.id
    }


def extracted_from_the_code() -> set[tuple[str | None, str]]:
    """What `pybabel extract -F pyproject.toml ... blackcat app` finds, with the same mapping."""
    babel = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["babel"]
    method_map = [(mapping["pattern"], mapping["method"]) for mapping in babel["mappings"]]
    found = set()
    for folder in EXTRACTED_FOLDERS:
        for _, _, message, _, context in extract_from_dir(ROOT / folder, method_map):
            found.add((context, message[0] if isinstance(message, tuple) else message))
    return found


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def test_the_template_holds_every_text_marked_in_the_code() -> None:
    in_code, in_template = extracted_from_the_code(), message_ids(catalogue(TEMPLATE))
    assert len(in_code) > 100  # the extraction found the CLI's and the games' text
    assert sorted(in_code - in_template, key=str) == [], "not in the template: extract again"
    assert sorted(in_template - in_code, key=str) == [], "no longer in the code: extract again"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_of_the_template_is_translated(language: str) -> None:
    template, translation = catalogue(TEMPLATE), catalogue(po_path(language))
    assert message_ids(translation) == message_ids(template), "update the catalogue"
    for message in translation:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), f"untranslated: {message.id!r}"
        assert not message.fuzzy, f"fuzzy (check and unmark it): {message.id!r}"
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for text in strings:
            # The plural's `{count}` may be left out of a singular ("one deck"), no more
            assert placeholders(text) <= placeholders(ids[-1]), f"{message.id!r}: {text!r}"
            assert placeholders(text) >= placeholders(ids[0]) - {"count"}, f"{text!r}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalogue_says_what_its_po_says(language: str) -> None:
    """The `.mo` is committed (an install needs no Babel): it must be compiled again whenever
    its `.po` changes."""
    translation = catalogue(po_path(language))
    with (po_path(language).with_suffix(".mo")).open("rb") as file:
        compiled = gettext.GNUTranslations(file)
    assert compiled.info()["plural-forms"] == translation.plural_forms
    for message in translation:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            for count, expected in ((1, message.string[0]), (2, message.string[1])):
                assert compiled.ngettext(*message.id, count) == expected, message.id
        elif message.context:
            said = compiled.pgettext(message.context, message.id)
            assert said == message.string, (message.context, message.id)
        else:
            assert compiled.gettext(message.id) == message.string, message.id


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_translator_reads_the_compiled_catalogue(language: str) -> None:
    spanish = translator(language)
    assert spanish.language == language
    assert spanish.gettext("Tomcat") != "Tomcat"
    assert spanish.ngettext("{count} card", "{count} cards", 1) != "{count} card"


def test_spanish_says_the_features_as_the_spanish_rules_do() -> None:
    """Seed 004, the Spanish translation of the rules: gato Tom, maullador, gato jelical, gato
    negro, pilas de gatitos; its variants Larga noche en las verjas, El afortunado Tom, Música
    nocturna."""
    spanish = translator("es")
    names = ["Tomcat", "Yowler", "Jellical Cat", "Black Cat"]
    assert [spanish.gettext(name) for name in names] == [
        "Gato Tom",
        "Maullador",
        "Gato jelical",
        "Gato negro",
    ]
    help_texts = " ".join(
        spanish.gettext(text)
        for text in (
            "decks in play: with 2 (Long Night on the Fence) a card may appear twice",
            "a Tomcat of two 5s is worth 5 points",
            "each Yowler is worth the number of Yowlers in its pile",
        )
    )
    for name in ("Larga noche en las verjas", "El afortunado Tom", "Música nocturna"):
        assert name in help_texts
