"""A whole table's failed piles sorted by kind, from `blackcat evaluate --table ... --failures F`.

    .venv/bin/python workshop/failure_kinds.py F

Each true pile not read exactly counts once, under the first kind that fits: none of its cards
read ("whole pile missing"), read only on other sides ("another side"), spread over several piles
of its side ("split"), read with two or more cards of another pile ("merged"), fewer cards and no
wrong one ("card missing"), as many cards ("misread", or "order" where only the order differs),
more cards ("too many"), else "missing and misread". Prints each kind's count and its scenes.
"""

from __future__ import annotations

import argparse
import ast
import re
from collections import Counter
from pathlib import Path

Pile = tuple[str, list[str]]  # (side, cards)

FAILURE_LINE = re.compile(r"(\S+): read (.*) truth (.*)$")


def kind_of(cards: list[str], side: str, read: list[Pile], truth: list[Pile]) -> str:
    """What went wrong with one true pile (`cards` on `side`) in a photo's read."""
    holders = [(s, c) for s, c in read if set(c) & set(cards)]
    mine = [c for s, c in holders if s == side]
    if not holders:
        return "whole pile missing"
    if not mine:
        return "another side"
    if len(mine) > 1:
        return "split"
    read_cards = mine[0]
    others = {card for _, true_cards in truth if true_cards != cards for card in true_cards}
    if len((set(read_cards) - set(cards)) & others) >= 2:
        return "merged"
    if len(read_cards) < len(cards) and set(read_cards) <= set(cards):
        return "card missing"
    if len(read_cards) == len(cards):
        return "order" if set(read_cards) == set(cards) else "misread"
    if len(read_cards) > len(cards):
        return "too many"
    return "missing and misread"


def failure_kinds(lines: list[str]) -> dict[str, list[str]]:
    """Each kind's scenes (a scene once per failed pile), from the lines of a failures file."""
    kinds: dict[str, list[str]] = {}
    for line in lines:
        found = FAILURE_LINE.match(line.strip())
        if not found:
            continue
        scene = found.group(1)
        read, truth = ast.literal_eval(found.group(2)), ast.literal_eval(found.group(3))
        for side, cards in truth:
            if (side, cards) not in read:
                kinds.setdefault(kind_of(cards, side, read, truth), []).append(scene)
    return kinds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("failures", type=Path, help="the file `--failures` wrote")
    args = parser.parse_args()
    if not args.failures.is_file():
        parser.error(f"{args.failures} not found: write it with `blackcat evaluate --failures`")
    kinds = failure_kinds(args.failures.read_text().splitlines())
    counts = Counter({kind: len(scenes) for kind, scenes in kinds.items()})
    print(f"{sum(counts.values())} failed piles")
    for kind, count in counts.most_common():
        print(f"{count:4d} {kind}: {' '.join(sorted(set(kinds[kind])))}")


if __name__ == "__main__":
    main()
