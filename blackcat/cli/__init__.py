"""The `blackcat` command line: one subcommand per module, imported only when used.

Each subcommand module provides `add_arguments(parser)` and `run(args) -> int`, and keeps its
heavy imports (torch, Ultralytics, Streamlit) inside `run`, so that `blackcat score` starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
from types import ModuleType

# subcommand -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "score": ("blackcat.cli.score", "score piles of cards given as text"),
    "lady": ("blackcat.cli.lady", "score a deal of Black Lady from each player's tricks"),
    "scan": ("blackcat.cli.scan", "read and score photos of piles"),
    "app": ("blackcat.cli.app", "start the Streamlit app"),
    "synth": ("blackcat.cli.synth", "render synthetic training scenes"),
    "train": ("blackcat.cli.train", "train the index detector or the card classifier"),
    "evaluate": ("blackcat.cli.evaluate", "measure the reader's accuracy"),
    "calibrate": ("blackcat.cli.calibrate", "fit the reader's probabilities and doubt threshold"),
    "export": ("blackcat.cli.export", "export the trained weights to ONNX for the reader"),
}

# The workshop's subcommands need the `[train]` extra (Ultralytics, onnx, onnxslim): a player's
# install has none of it, and is told how to add it.
WORKSHOP_COMMANDS = frozenset({"synth", "train", "evaluate", "calibrate", "export"})
WORKSHOP_MODULES = ("ultralytics", "onnx", "onnxslim")
TRAIN_EXTRA_INSTALL = 'pip install -e ".[train]"'

# subcommands that run Ultralytics: it is prepared (quiet on stdout, analytics off) before them
ULTRALYTICS_COMMANDS = frozenset({"train", "evaluate", "calibrate", "export"})


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="blackcat", description="Black Cat score counter")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        subparser = subparsers.add_parser(name, help=help_text, description=help_text)
        if only is None or name == only:
            _load(module_name).add_arguments(subparser)
    return parser


def missing_workshop_modules() -> list[str]:
    return [name for name in WORKSHOP_MODULES if importlib.util.find_spec(name) is None]


def _load(module_name: str) -> ModuleType:
    return importlib.import_module(module_name)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # Only the chosen subcommand's module is imported, so `score` never pulls in the vision stack.
    chosen = next((arg for arg in argv if arg in SUBCOMMANDS), None)
    parser = build_parser(only=chosen)
    args = parser.parse_args(argv)
    module_name, _ = SUBCOMMANDS[args.command]
    missing = missing_workshop_modules() if args.command in WORKSHOP_COMMANDS else []
    if missing:
        print(
            f"blackcat {args.command}: needs the training tools ({', '.join(missing)} missing); "
            f"install them with: {TRAIN_EXTRA_INSTALL}",
            file=sys.stderr,
        )
        return 2
    if args.command in ULTRALYTICS_COMMANDS:
        from blackcat.workshop.ultralytics_setup import prepare_ultralytics

        prepare_ultralytics()
    try:
        return int(_load(module_name).run(args) or 0)
    except BrokenPipeError:
        # The reader of our output went away (`blackcat scan --json ... | head`): not our error.
        # Stdout is pointed at devnull so that Python's final flush does not raise again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
