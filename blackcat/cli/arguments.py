"""Argument types the workshop's commands share: each refuses a value outside its range with one
line naming it (argparse then prints the command's usage and exits 2)."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def whole_number(least: int, most: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number of at least `least` (and at most `most`)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = least - 1
        if value < least:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of {least} or more")
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(f"{text!r} is more than {most}")
        return value

    return parse


def share(text: str) -> float:
    """An argparse type: a share of the scenes or crops, 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a share from 0 to 1, such as 0.2")
    return value


def number_from(least: float, most: float) -> Callable[[str], float]:
    """An argparse type: a number from `least` to `most`."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = least - 1
        if not least <= value <= most:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number from {least:g} to {most:g}")
        return value

    return parse


def positive_number(text: str) -> float:
    """An argparse type: a number above 0 (hours, a learning rate)."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0.0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number above 0")
    return value


def number_of_at_least(least: float) -> Callable[[str], float]:
    """An argparse type: a number of at least `least`."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = least - 1
        if not least <= value < float("inf"):
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of {least:g} or more")
        return value

    return parse
