"""The `blackcat` command line: one subcommand per module, imported only when used.

Each subcommand module provides `add_arguments(parser)` and `run(args) -> int`, and keeps its
heavy imports (torch, Ultralytics, Streamlit) inside `run`, so that `blackcat score` starts fast.

`--lang {en,es}`, before or after the subcommand, picks the language of the text for people
(else LANGUAGE, LC_ALL, LC_MESSAGES or LANG, else English; JSON is always the same). A player's
subcommand module takes it as `add_arguments(parser, tr)`, for its help, and `translator_for(args)`
in `run`; the workshop's subcommands, for developers, stay in English.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import errno
import functools
import importlib
import importlib.util
import json
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from types import ModuleType
from typing import Any

from blackcat import __version__
from blackcat.i18n import (
    ENGLISH,
    LANGUAGES,
    N_,
    Translator,
    choose_language,
    is_unoffered_language,
    translator,
)

# subcommand -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "score": ("blackcat.cli.score", N_("score piles of cards given as text")),
    "lady": ("blackcat.cli.lady", N_("score a deal of Black Lady from each player's tricks")),
    "scan": ("blackcat.cli.scan", N_("read and score photos of piles")),
    "app": ("blackcat.cli.app", N_("start the Streamlit app")),
    "synth": ("blackcat.cli.synth", N_("render synthetic training scenes")),
    "train": ("blackcat.cli.train", N_("train one of the reader's models")),
    "evaluate": ("blackcat.cli.evaluate", N_("measure the reader's accuracy")),
    "calibrate": (
        "blackcat.cli.calibrate",
        N_("fit the reader's probabilities and doubt threshold"),
    ),
    "export": ("blackcat.cli.export", N_("export the trained weights to ONNX for the reader")),
}

EXIT_STATUSES = N_(
    "exit status: 0 done; 1 failed partway (a photo that can't be read: the others are still "
    "read; the output that can't be written); 2 refused before starting (an option, a card, a "
    "folder or models that won't do); 130 stopped with Ctrl-C"
)
"""What each exit status says, the same for every subcommand (`blackcat --help`)."""

# The workshop's subcommands need the `[train]` extra (Ultralytics, onnx, onnxslim, SciPy): a
# player's install has none of it, and is told how to add it.
WORKSHOP_COMMANDS = frozenset({"synth", "train", "evaluate", "calibrate", "export"})
WORKSHOP_MODULES = ("ultralytics", "onnx", "onnxslim", "scipy")
TRAIN_EXTRA_INSTALL = 'pip install -e ".[train]"'

# subcommands that run Ultralytics: it is prepared (quiet on stdout, analytics off) before them
ULTRALYTICS_COMMANDS = frozenset({"train", "evaluate", "calibrate", "export"})


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help, with its `usage:` in the parser's language."""

    def __init__(self, prog: str, *, usage_prefix: str) -> None:
        super().__init__(prog)
        self._usage_prefix = usage_prefix

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        # argparse asks for no prefix ("") to make a subcommand's `prog`
        super().add_usage(usage, actions, groups, self._usage_prefix if prefix is None else prefix)


def build_parser(only: str | None = None, tr: Translator = ENGLISH) -> argparse.ArgumentParser:
    """The `blackcat` parser, its help in `tr`'s language; only `only`'s options when given."""
    formatter = functools.partial(_HelpFormatter, usage_prefix=tr.gettext("usage: "))
    parser = argparse.ArgumentParser(
        prog="blackcat",
        description=tr.gettext("Black Cat score counter"),
        epilog=tr.gettext(EXIT_STATUSES),
        formatter_class=formatter,
    )
    add_language_argument(parser, tr, default=None)
    parser.add_argument(
        "--version",
        action="version",
        version=f"blackcat {__version__}",
        help=tr.gettext("show the version and exit"),
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        subparser = subparsers.add_parser(
            name,
            help=tr.gettext(help_text),
            description=tr.gettext(help_text),
            formatter_class=formatter,
        )
        if only is None or name == only:
            module = _load(module_name)
            if name in WORKSHOP_COMMANDS:
                module.add_arguments(subparser)
            else:
                module.add_arguments(subparser, tr)
        # Given after the subcommand it wins; not given there, it leaves the one before alone.
        add_language_argument(
            subparser, tr, default=argparse.SUPPRESS, json=has_option(subparser, "--json")
        )
    for each in (parser, *subparsers.choices.values()):
        _translate_argparse_titles(each, tr)
    return parser


def subcommand_parser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    """The parser of subcommand `name` within `blackcat`'s parser."""
    subparsers = next(
        action for action in parser._actions if isinstance(action, argparse._SubParsersAction)
    )
    return subparsers.choices[name]


def has_option(parser: argparse.ArgumentParser, option: str) -> bool:
    return any(option in action.option_strings for action in parser._actions)


def add_language_argument(
    parser: argparse.ArgumentParser, tr: Translator, default: object, json: bool = True
) -> None:
    """`--lang`; its help says JSON stays the same only where there is JSON (`json`)."""
    help_text = tr.gettext(
        "language of the text ({languages}; default: from LANGUAGE, LC_ALL, LC_MESSAGES or "
        "LANG, else en)"
    )
    if json:
        help_text += "; " + tr.gettext("JSON is the same in every language")
    parser.add_argument(
        "--lang",
        default=default,
        metavar="{" + ",".join(LANGUAGES) + "}",
        help=help_text.format(languages=", ".join(LANGUAGES)),
    )


# argparse's own messages that a person meets (a missing or unknown argument, a bad value), for
# the catalogue; argparse looks each up through its module's `_` (`argparse_speaks`).
ARGPARSE_WORDS = (
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("expected one argument"),
    N_("expected at least one argument"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
)


@contextlib.contextmanager
def argparse_speaks(tr: Translator) -> Iterator[None]:
    """argparse's messages in `tr`'s language while parsing: argparse translates them through
    gettext's functions, bound in its module when it was imported; they are pointed at `tr`,
    and back at gettext's afterwards (other parsers in the process are left as they were)."""
    spoken = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._, argparse.ngettext = tr.gettext, tr.ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = spoken  # type: ignore[attr-defined]


def _translate_argparse_titles(parser: argparse.ArgumentParser, tr: Translator) -> None:
    """The words argparse itself writes in a help page (it has no catalogue of its own here)."""
    parser._positionals.title = tr.gettext("positional arguments")
    parser._optionals.title = tr.gettext("options")
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            action.help = tr.gettext("show this help message and exit")


def requested_language(argv: Sequence[str]) -> str | None:
    """The `--lang` given anywhere in `argv` (the help is written before the full parse)."""
    finder = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    finder.add_argument("--lang", default=None)
    try:
        known, _ = finder.parse_known_args(list(argv))
    except argparse.ArgumentError:
        return None  # `--lang` without a value: the full parse says so
    return known.lang


def translator_for(args: argparse.Namespace) -> Translator:
    """The translator of a parsed command line: its `--lang`, else the environment's."""
    return translator(choose_language(getattr(args, "lang", None)))


SUIT_LETTERS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
NARROW_CONSOLE_ERRORS = "blackcat-plain-suits"


def plain_suits(error: UnicodeError) -> tuple[str, int]:
    """A codec error handler: a suit's symbol as its letter (Q♠ as QS, as cards are typed),
    anything else the console can't show escaped (`\\xf3`)."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    unshown = error.object[error.start : error.end]
    return "".join(
        SUIT_LETTERS.get(char) or char.encode("ascii", "backslashreplace").decode("ascii")
        for char in unshown
    ), error.end


codecs.register_error(NARROW_CONSOLE_ERRORS, plain_suits)


def tolerate_narrow_consoles(*streams: object) -> None:
    """A card's symbol or an accent must never become a traceback on a console that can't
    print it (`PYTHONIOENCODING=ascii`, an old Windows console): suits are written as letters,
    other such characters escaped (`plain_suits`)."""
    for stream in streams:
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors=NARROW_CONSOLE_ERRORS)


def json_text(value: Any, encoding: str | None, *, escape_all: bool = True) -> str:
    """`value` as JSON for a stream of `encoding`: with every character as it is where
    `escape_all` is False and the stream can carry them all, else with everything beyond ASCII
    escaped (`\\u2660`), so that stdout is always valid JSON: on an ASCII console, and for a file
    name that is not valid UTF-8 (Python keeps its bytes as lone surrogates)."""
    if not escape_all:
        text = json.dumps(value, ensure_ascii=False)
        try:
            text.encode(encoding or "ascii")
        except (LookupError, UnicodeEncodeError):
            pass
        else:
            return text
    return json.dumps(value)


def print_json(value: Any, *, escape_all: bool = True) -> None:
    """Print `value` as the one line of JSON a `--json` command writes (`json_text`)."""
    print(json_text(value, sys.stdout.encoding, escape_all=escape_all))


def missing_workshop_modules() -> list[str]:
    return [name for name in WORKSHOP_MODULES if importlib.util.find_spec(name) is None]


def _load(module_name: str) -> ModuleType:
    return importlib.import_module(module_name)


NEGATIVE_VALUED = ("--queen",)
"""Options whose value may start with a minus (a mistyped `--queen -1:0=11`), which argparse
takes for an option, saying only "expected one argument"."""


def joined_negative_values(argv: Sequence[str]) -> list[str]:
    """`--queen -1:0=11` as `--queen=-1:0=11`, so that its own check says what is wrong."""
    joined: list[str] = []
    for n, arg in enumerate(argv):
        after_option = joined and joined[-1] in NEGATIVE_VALUED and "--" not in argv[:n]
        if after_option and arg.startswith("-") and arg[1:2].isdigit():
            joined[-1] = f"{joined[-1]}={arg}"
        else:
            joined.append(arg)
    return joined


def main(argv: list[str] | None = None) -> int:
    argv = joined_negative_values(sys.argv[1:] if argv is None else argv)
    if sys.stderr is None:
        # started with stderr closed (`2>&-`): `print(..., file=sys.stderr)` would write to
        # stdout, into the JSON, and a file opened next would take its descriptor
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - for the whole process
    try:
        return run_command(argv)
    except KeyboardInterrupt:  # Ctrl-C: said in one line, as a shell says a stopped command
        tr = translator(choose_language(requested_language(argv)))
        print("blackcat: " + tr.gettext("stopped."), file=sys.stderr)
        return 130


def run_command(argv: list[str]) -> int:
    # Only the chosen subcommand's module is imported, so `score` never pulls in the vision stack.
    chosen = next((arg for arg in argv if arg in SUBCOMMANDS), None)
    tolerate_narrow_consoles(sys.stdout, sys.stderr)
    tr = translator(choose_language(requested_language(argv)))
    with argparse_speaks(tr):
        parser = build_parser(only=chosen, tr=tr)
        if not argv:  # a bare `blackcat`: what it can do, rather than "COMMAND is required"
            parser.print_help(sys.stderr)
            return 2
        args, unknown = parser.parse_known_args(argv)
        if unknown:  # said with the subcommand's usage, not the whole command's
            message = tr.gettext("unrecognized arguments: %s") % " ".join(unknown)
            subcommand_parser(parser, args.command).error(message)
    if is_unoffered_language(getattr(args, "lang", None)):
        # on stderr: a `--json` command's stdout stays JSON alone
        note = tr.gettext("--lang {language}: not offered ({languages}); the text is in English.")
        print(
            "blackcat: " + note.format(language=args.lang, languages=", ".join(LANGUAGES)),
            file=sys.stderr,
        )
    module_name, _ = SUBCOMMANDS[args.command]
    missing = missing_workshop_modules() if args.command in WORKSHOP_COMMANDS else []
    if missing:
        message = tr.gettext(
            "needs the training tools ({missing} missing); install them with: {install}"
        ).format(missing=", ".join(missing), install=TRAIN_EXTRA_INSTALL)
        print(f"blackcat {args.command}: {message}", file=sys.stderr)
        return 2
    if args.command in ULTRALYTICS_COMMANDS:
        from blackcat.workshop.ultralytics_setup import prepare_ultralytics

        prepare_ultralytics()
    try:
        exit_code = int(_load(module_name).run(args) or 0)
        if sys.stdout is not None:  # None: no stdout at all (closed, `pythonw`)
            sys.stdout.flush()  # a write that fails is met here, not in Python's final flush
        return exit_code
    except BrokenPipeError:
        # The reader of our output went away (`blackcat scan --json ... | head`): not our error.
        silence_stdout()
        return 1
    except OSError as error:
        if error.filename is not None or error.errno not in OUTPUT_FAILURES:
            raise  # not the output's: a file's own errors are each command's to word
        silence_stdout()
        message = tr.gettext("could not write the output: {reason}").format(
            reason=error.strerror or error
        )
        print(f"blackcat {args.command}: {message}", file=sys.stderr)
        return 1


OUTPUT_FAILURES = {errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EFBIG}
"""What a write to stdout meets on a full disk (`> /dev/full`), over a quota, or a drive gone."""


def silence_stdout() -> None:
    """Point stdout at devnull, so that Python's final flush of what is left does not raise
    again after we have said why we stopped."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
