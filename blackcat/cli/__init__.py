"""The `blackcat` command line: one subcommand per module, imported only when used.

Each subcommand module provides `add_arguments(parser)` and `run(args) -> int`, and keeps its
heavy imports (torch, Ultralytics, Streamlit) inside `run`, so that `blackcat score` starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from types import ModuleType

# subcommand -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "score": ("blackcat.cli.score", "score piles of cards given as text"),
    "lady": ("blackcat.cli.lady", "score a deal of Black Lady from each player's tricks"),
    "scan": ("blackcat.cli.scan", "read and score photos of piles"),
    "app": ("blackcat.cli.app", "start the Streamlit app"),
    "synth": ("blackcat.cli.synth", "render synthetic training scenes"),
    "train": ("blackcat.workshop.training", "train the index detector or the card classifier"),
    "evaluate": ("blackcat.workshop.evaluation", "measure the reader's accuracy"),
    "calibrate": ("blackcat.cli.calibrate", "fit the reader's probabilities and doubt threshold"),
}

# subcommands that run Ultralytics: it is prepared (quiet on stdout, analytics off) before them
ULTRALYTICS_COMMANDS = frozenset({"scan", "train", "evaluate", "calibrate"})


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="blackcat", description="Black Cat score counter")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        subparser = subparsers.add_parser(name, help=help_text, description=help_text)
        if only is None or name == only:
            _load(module_name).add_arguments(subparser)
    return parser


def _load(module_name: str) -> ModuleType:
    return importlib.import_module(module_name)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # Only the chosen subcommand's module is imported, so `score` never pulls in the vision stack.
    chosen = next((arg for arg in argv if arg in SUBCOMMANDS), None)
    parser = build_parser(only=chosen)
    args = parser.parse_args(argv)
    module_name, _ = SUBCOMMANDS[args.command]
    if args.command in ULTRALYTICS_COMMANDS:
        from blackcat.workshop.ultralytics_setup import prepare_ultralytics

        prepare_ultralytics()
    return int(_load(module_name).run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
