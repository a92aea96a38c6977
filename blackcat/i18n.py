"""The languages of the text for people: English (the source text) and Spanish.

Text is written in English in the code and marked for translation; Babel extracts it into
`locale/blackcat.pot`, each language's catalogue is `locale/<lang>/LC_MESSAGES/blackcat.po`, and
the compiled `.mo` beside it is what runs (stdlib `gettext`, no Babel at run time). See the
README's "Languages" section for the commands that update the catalogues.

Nothing here is global: every function that writes text for people takes a `Translator`
(`ENGLISH` by default), so one process can serve several languages at once (the app: one per
browser). Get one with `translator(choose_language(...))`. Machine output (JSON, card codes,
feature kinds) is never translated.

Marking text, so that `pybabel extract` finds it: `tr.gettext("...")`, `tr.ngettext("...",
"...", count)`, and `N_("...")` for text kept in a constant and translated where it is shown.
Placeholders are named, `{count}`, and filled with `str.format` after translating.
"""

from __future__ import annotations

import functools
import gettext
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

DOMAIN = "blackcat"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DEFAULT_LANGUAGE = "en"
LANGUAGES: dict[str, str] = {"en": "English", "es": "Español"}
"""Each language offered: its code and its own name (for a language switch)."""

ENVIRONMENT_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""Where the language is looked for when none is asked for, in gettext's order."""

_NO_LANGUAGE = frozenset({"c", "posix"})  # the C locale: untranslated text


def N_(message: str) -> str:
    """Mark text kept in a constant for extraction; translate it with `tr.gettext` when shown."""
    return message


@dataclass(frozen=True)
class Translator:
    """The text of one language: `gettext` and `ngettext` as the stdlib's, for that language."""

    language: str
    catalogue: gettext.NullTranslations = field(compare=False, repr=False)

    def gettext(self, message: str) -> str:
        return self.catalogue.gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """The form for `count` (the language's own plural rule); fill `{count}` after."""
        return self.catalogue.ngettext(singular, plural, count)

    def pgettext(self, context: str, message: str) -> str:
        """`message` where the same text means other things elsewhere (a letter, a word)."""
        return self.catalogue.pgettext(context, message)


def language_code(tag: str) -> str | None:
    """The language of a locale name or language tag (`es_ES.UTF-8`, `es-MX`, `ES`): `es`; None
    for the C locale or an empty tag."""
    code = tag.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return None if not code or code in _NO_LANGUAGE else code


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language gettext would choose: the first of LANGUAGE, LC_ALL, LC_MESSAGES and LANG
    that is set (LANGUAGE may list several, `es:en`); its first language offered here wins, the C
    locale or none offered gives English."""
    environ = os.environ if environ is None else environ
    value = next((environ[name] for name in ENVIRONMENT_VARIABLES if environ.get(name)), "")
    for tag in value.split(":"):
        code = language_code(tag)
        if tag.strip() and code is None:
            break  # `C` ends the list, as in gettext
        if code in LANGUAGES:
            return code
    return DEFAULT_LANGUAGE


def choose_language(requested: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to write in: the one asked for (`--lang`, a switch), else the environment's;
    a language not offered here is English."""
    if requested is None:
        return language_from_environment(environ)
    code = language_code(requested)
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


def is_unoffered_language(requested: str | None) -> bool:
    """Whether a `--lang` asks for a language not offered here (`fr`), to be said once; not
    where it is offered, not given, or the C locale (plain English on purpose)."""
    if requested is None:
        return False
    code = language_code(requested)
    return code is not None and code not in LANGUAGES


@functools.cache
def translator(language: str) -> Translator:
    """The translator of a language code (`choose_language`'s answer); English for any other."""
    code = language_code(language) or DEFAULT_LANGUAGE
    if code not in LANGUAGES or code == DEFAULT_LANGUAGE:
        return Translator(DEFAULT_LANGUAGE, gettext.NullTranslations())
    catalogue = gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)
    return Translator(code, catalogue)


ENGLISH = translator(DEFAULT_LANGUAGE)


def and_list(names: Sequence[str], tr: Translator = ENGLISH) -> str:
    """`Ann`, `Ann and Ben`, `Ann, Ben and Cat`, in the translator's language (in Spanish "e"
    before a name that starts with an "i" sound: `Beto e Inés`)."""
    if len(names) < 2:
        return "".join(names)
    joined = tr.gettext("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])
    if tr.language == "es" and starts_with_i_sound(names[-1]):
        joined = joined.replace(f" y {names[-1]}", f" e {names[-1]}")
    return joined


def percent_text(fraction: float, tr: Translator = ENGLISH) -> str:
    """A share as a whole percentage in the translator's language: `83%`; in Spanish `83 %`,
    the sign apart from the number as the RAE writes it, by a space that never breaks a line."""
    shown = f"{fraction:.0%}"
    return shown.replace("%", "\u00a0%") if tr.language == "es" else shown


def starts_with_i_sound(word: str) -> bool:
    """Whether a word starts with the vowel sound of Spanish "i" (Inés, Hilda, Íker), before
    which "y" becomes "e"; not a diphthong ("hielo", "Iolanda" keep "y")."""
    letters = word.strip().lower()
    letters = letters[1:] if letters.startswith("h") else letters
    return letters[:1] in ("i", "í") and letters[1:2] not in ("a", "e", "o", "u")


class LocalizedError(Exception):
    """An error whose message can be said in any language: `describe(tr)`; `str()` is English.

    `say` writes the message for a translator, so the text is marked where it is written."""

    def __init__(self, say: Callable[[Translator], str]) -> None:
        self._say = say
        super().__init__(say(ENGLISH))

    def describe(self, tr: Translator = ENGLISH) -> str:
        return self._say(tr)


class TemplateError(LocalizedError):
    """A `LocalizedError` whose message is a template marked `N_` where it is written: the
    template translated, then its placeholders filled from `fields`. A template may be a
    singular and its plural (marked by an `ngettext` that gives them back): the one for
    `fields["count"]`."""

    def __init__(self, template: str | tuple[str, str], **fields: object) -> None:
        super().__init__(lambda tr: _template_in(tr, template, fields).format(**fields))


def _template_in(
    tr: Translator, template: str | tuple[str, str], fields: Mapping[str, object]
) -> str:
    if isinstance(template, str):
        return tr.gettext(template)
    count = fields.get("count")
    return tr.ngettext(*template, count if isinstance(count, int) else 0)
