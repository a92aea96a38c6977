"""Choosing the language of the text for people, and the translators (`blackcat.i18n`)."""

from __future__ import annotations

import pytest

from blackcat.i18n import (
    ENGLISH,
    LANGUAGES,
    LocalizedError,
    and_list,
    choose_language,
    language_code,
    language_from_environment,
    percent_text,
    translator,
)


@pytest.mark.parametrize(
    ("tag", "code"),
    [
        ("es", "es"),
        ("es_ES.UTF-8", "es"),
        ("es-MX", "es"),
        ("ES", "es"),
        ("ca_ES@valencia", "ca"),
        ("en_GB.utf8", "en"),
        ("C", None),
        ("C.UTF-8", None),
        ("POSIX", None),
        ("", None),
    ],
)
def test_the_language_of_a_locale_name_or_tag(tag: str, code: str | None) -> None:
    assert language_code(tag) == code


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "es_ES.UTF-8"}, "es"),
        ({"LC_MESSAGES": "es_AR.UTF-8", "LANG": "en_US.UTF-8"}, "es"),
        ({"LC_ALL": "en_US.UTF-8", "LC_MESSAGES": "es_ES.UTF-8"}, "en"),
        ({"LANGUAGE": "es", "LC_ALL": "en_US.UTF-8"}, "es"),
        ({"LANGUAGE": "fr:es:en", "LANG": "fr_FR.UTF-8"}, "es"),  # the first one offered here
        ({"LANGUAGE": "", "LANG": "es_ES.UTF-8"}, "es"),  # an empty variable is not set
        ({"LANGUAGE": "C:es"}, "en"),  # C ends the list, as in gettext
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_environment_in_gettexts_order(environ: dict[str, str], language: str) -> None:
    assert language_from_environment(environ) == language


def test_a_language_asked_for_wins_over_the_environment() -> None:
    spanish = {"LANG": "es_ES.UTF-8"}
    assert choose_language("en", spanish) == "en"
    assert choose_language("es", {"LANG": "C.UTF-8"}) == "es"
    assert choose_language(None, spanish) == "es"


@pytest.mark.parametrize("unknown", ["fr", "klingon", "", "C", "zz_ZZ"])
def test_a_language_not_offered_is_english(unknown: str) -> None:
    assert choose_language(unknown, {"LANG": "es_ES.UTF-8"}) == "en"
    assert translator(unknown) == ENGLISH


def test_english_is_the_text_as_written() -> None:
    assert "en" in LANGUAGES and ENGLISH.language == "en"
    assert ENGLISH.gettext("Pile points: {points}") == "Pile points: {points}"
    assert ENGLISH.ngettext("{count} card", "{count} cards", 1) == "{count} card"
    assert ENGLISH.ngettext("{count} card", "{count} cards", 0) == "{count} cards"


@pytest.mark.parametrize(
    ("names", "english", "spanish"),
    [
        ((), "", ""),
        (("Ann",), "Ann", "Ann"),
        (("Ann", "Ben"), "Ann and Ben", "Ann y Ben"),
        (("Ann", "Ben", "Cat"), "Ann, Ben and Cat", "Ann, Ben y Cat"),
        # "y" is "e" before an "i" sound, not before a diphthong
        (("Beto", "Inés"), "Beto and Inés", "Beto e Inés"),
        (("Ana", "Beto", "Hilda"), "Ana, Beto and Hilda", "Ana, Beto e Hilda"),
        (("Ana", "Hielo"), "Ana and Hielo", "Ana y Hielo"),
        (("Inés", "Ana"), "Inés and Ana", "Inés y Ana"),
    ],
)
def test_names_are_listed_with_and_in_each_language(
    names: tuple[str, ...], english: str, spanish: str
) -> None:
    assert and_list(names) == english
    assert and_list(names, translator("es")) == spanish


def test_a_percentage_is_written_as_each_language_writes_it() -> None:
    """Spanish sets the sign apart (the RAE's "83 %"), by a space that never breaks the line."""
    assert percent_text(0.834) == "83%" and percent_text(1.0, ENGLISH) == "100%"
    assert percent_text(0.834, translator("es")) == "83\u00a0%"


def test_text_with_a_context_is_translated_in_its_context() -> None:
    assert ENGLISH.pgettext("the letter of a Yowler", "Y") == "Y"
    assert translator("es").pgettext("the letter of a Yowler", "Y") == "M"
    assert translator("es").gettext("Y") == "Y"  # the same text without its context


def test_a_localized_error_is_english_as_text_and_any_language_described() -> None:
    error = LocalizedError(lambda tr: f"said in {tr.language}")
    assert str(error) == "said in en"
    assert error.describe() == "said in en"
    assert error.describe(translator("es")) == "said in es"
