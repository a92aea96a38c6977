"""Weights from the command line: styles' and layouts' `name=weight` lists."""

from __future__ import annotations

import pytest

from blackcat.workshop.synth.layout import LayoutKind, parse_layout_weights
from blackcat.workshop.synth.weights import parse_weights


def test_weights_parse_with_one_for_a_name_alone() -> None:
    assert parse_weights("a=3, b,", ("a", "b", "c"), "thing") == (("a", 3.0), ("b", 1.0))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("d=1", "unknown thing 'd'; known: a, b"),
        ("a=-1", "thing weight of a is negative"),
        ("a=x", "thing weight of a is not a number: 'x'"),
        ("a=inf", "thing weight of a is not a finite number: 'inf'"),
        ("a=1,b=nan", "thing weight of b is not a finite number: 'nan'"),
        ("a=0", "give at least one thing a weight above 0"),
        ("", "give at least one thing a weight above 0"),
    ],
)
def test_weights_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_weights(text, ("a", "b"), "thing")


def test_layout_weights_name_the_layouts() -> None:
    assert parse_layout_weights("fan=1,singles=2") == (
        (LayoutKind.FAN, 1.0),
        (LayoutKind.SINGLES, 2.0),
    )
    with pytest.raises(ValueError, match="unknown layout 'spread'"):
        parse_layout_weights("spread=1")
