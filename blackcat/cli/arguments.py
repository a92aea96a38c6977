"""Argument types the workshop's commands share: each refuses a value outside its range with one
line naming it (argparse then prints the command's usage and exits 2)."""

from __future__ import annotations

import argparse
import math
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


def checked_number(text: str, fits: Callable[[float], bool], wanted: str) -> float:
    """`text` as a number that `fits` (ArgumentTypeError saying it is not `wanted` else)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan  # fits nothing
    if not fits(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not {wanted}")
    return value


def number_from(least: float, most: float) -> Callable[[str], float]:
    """An argparse type: a number from `least` to `most`."""
    wanted = f"a number from {least:g} to {most:g}"
    return lambda text: checked_number(text, lambda value: least <= value <= most, wanted)


def share(text: str) -> float:
    """An argparse type: a share of the scenes or crops, 0 to 1."""
    return checked_number(
        text, lambda value: 0.0 <= value <= 1.0, "a share from 0 to 1, such as 0.2"
    )


def positive_number(text: str) -> float:
    """An argparse type: a number above 0 (hours, a learning rate)."""
    return checked_number(text, lambda value: 0.0 < value < math.inf, "a number above 0")


def number_of_at_least(least: float) -> Callable[[str], float]:
    """An argparse type: a number of at least `least`."""
    wanted = f"a number of {least:g} or more"
    return lambda text: checked_number(text, lambda value: least <= value < math.inf, wanted)
