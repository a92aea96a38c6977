"""Render the benchmark photo: a 12 MP (4000 x 3000) picture of two piles of 15 cards of a
held-out deck, with its ground truth, into an ignored folder (run by hand; not a test).

    .venv/bin/python benchmarks/make_photo.py [--deck plastic] [--seed 0] [--out DIR]

Writes DIR/two_piles_12mp.jpg and DIR/two_piles_12mp.json (default DIR: datasets/generated/bench/,
ignored by git) and prints their paths. The piles are 30 different cards drawn with `--seed`;
the same arguments give the same bytes.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from blackcat.games.cards import ALL_CARDS
from blackcat.workshop.synth.decks import DECKS, Split
from blackcat.workshop.synth.example import top_left_visibility, write_example
from blackcat.workshop.synth.scene import render_piles

WIDTH, HEIGHT = 4000, 3000
PILE_SIZE = 15
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "datasets" / "generated" / "bench"
PHOTO_NAME = "two_piles_12mp.jpg"
HELD_OUT = [deck.name for deck in DECKS if deck.split is Split.VAL]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", default="plastic", choices=HELD_OUT, help="a held-out deck")
    parser.add_argument("--seed", type=int, default=0, help="draws the cards and the scene")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder")
    args = parser.parse_args(argv)

    cards = random.Random(args.seed).sample(ALL_CARDS, 2 * PILE_SIZE)
    piles = [cards[:PILE_SIZE], cards[PILE_SIZE:]]
    started = time.perf_counter()
    result = render_piles(
        piles, deck=args.deck, imgsz=WIDTH, seed=args.seed, tilt_degrees=5.0, surface="wood"
    )
    elapsed = time.perf_counter() - started
    if (result.width, result.height) != (WIDTH, HEIGHT):
        print(f"error: rendered {result.width}x{result.height}, not {WIDTH}x{HEIGHT}")
        return 1
    photo = args.out / PHOTO_NAME
    meta = photo.with_suffix(".json")
    write_example(result, photo, meta)
    print(f"wrote {photo} ({WIDTH}x{HEIGHT}, {len(result.jpeg) / 1e6:.1f} MB) in {elapsed:.1f} s")
    print(f"wrote {meta} (ground truth)")
    for k, pile in enumerate(result.meta["piles"]):
        print(f"pile {k + 1}: {' '.join(pile)}")
    print(f"least visible top-left index: {top_left_visibility(result):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
