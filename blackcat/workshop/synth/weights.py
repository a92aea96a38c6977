"""Weights given on the command line as `name=weight,name=weight` (`blackcat synth --styles`,
`--layouts`)."""

from __future__ import annotations

import math
from collections.abc import Collection


def parse_weights(text: str, known: Collection[str], what: str) -> tuple[tuple[str, float], ...]:
    """`a=4,b=1,...` (names from `known`) as (name, weight) pairs; a name without a weight
    weighs 1, and names not given weigh nothing. `what` names the kind in error messages."""
    out = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        name, _, value = item.partition("=")
        name = name.strip()
        if name not in known:
            raise ValueError(f"unknown {what} {name!r}; known: {', '.join(known)}")
        try:
            weight = float(value) if value else 1.0
        except ValueError:
            raise ValueError(f"{what} weight of {name} is not a number: {value!r}") from None
        if not math.isfinite(weight):  # `inf` left every other weight nothing, `nan` all
            raise ValueError(f"{what} weight of {name} is not a finite number: {value!r}")
        if weight < 0:
            raise ValueError(f"{what} weight of {name} is negative")
        out.append((name, weight))
    if not any(w > 0 for _, w in out):
        raise ValueError(f"give at least one {what} a weight above 0")
    return tuple(out)
