"""Render the benchmark photos: a 12 MP (4000 x 3000) picture of two piles of 15 cards of a
held-out deck, and one of a whole table (four players, two piles each), with their ground truth,
into an ignored folder (run by hand; not a test).

    .venv/bin/python benchmarks/make_photo.py [--deck plastic] [--seed 0] [--out DIR]

Writes DIR/two_piles_12mp.jpg, DIR/whole_table_12mp.jpg and their .json (default DIR:
datasets/generated/bench/, ignored by git) and prints their paths. The cards are drawn with
`--seed`; the same arguments give the same bytes.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from blackcat.games.cards import ALL_CARDS
from blackcat.workshop.synth.cardart import CardArtError
from blackcat.workshop.synth.decks import DECKS, Split
from blackcat.workshop.synth.example import top_left_visibility, write_example
from blackcat.workshop.synth.scene import render_piles

WIDTH, HEIGHT = 4000, 3000
PILE_SIZE = 15
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "datasets" / "generated" / "bench"
PHOTO_NAME = "two_piles_12mp.jpg"
TABLE_NAME = "whole_table_12mp.jpg"
TABLE_PILES = (5, 7)  # each player's two piles, as rows
HELD_OUT = [deck.name for deck in DECKS if deck.split is Split.VAL]


def unique(jpeg: bytes, note: str) -> bytes:
    """The same picture in another file: a JPEG comment holding `note` after its start marker.
    It decodes to the same pixels by the same decoder (bytes after its end would send it to
    Pillow's), and the app, which caches reads by content, takes it for a new photo."""
    text = note.encode()
    return jpeg[:2] + b"\xff\xfe" + (len(text) + 2).to_bytes(2, "big") + text + jpeg[2:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", default="plastic", choices=HELD_OUT, help="a held-out deck")
    parser.add_argument("--seed", type=int, default=0, help="draws the cards and the scene")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder")
    args = parser.parse_args(argv)
    try:
        return render_photos(args.deck, args.seed, args.out)
    except CardArtError as error:  # e.g. rsvg-convert not installed on a fresh machine
        print(f"error: {error}")
        return 1


def render_photos(deck: str, seed: int, out: Path) -> int:
    """The one player's photo, then the whole table's."""
    cards = random.Random(seed).sample(ALL_CARDS, 2 * PILE_SIZE)
    piles = [cards[:PILE_SIZE], cards[PILE_SIZE:]]
    started = time.perf_counter()
    result = render_piles(
        piles, deck=deck, imgsz=WIDTH, seed=seed, tilt_degrees=5.0, surface="wood"
    )
    elapsed = time.perf_counter() - started
    if (result.width, result.height) != (WIDTH, HEIGHT):
        print(f"error: rendered {result.width}x{result.height}, not {WIDTH}x{HEIGHT}")
        return 1
    photo = out / PHOTO_NAME
    meta = photo.with_suffix(".json")
    write_example(result, photo, meta)
    print(f"wrote {photo} ({WIDTH}x{HEIGHT}, {len(result.jpeg) / 1e6:.1f} MB) in {elapsed:.1f} s")
    print(f"wrote {meta} (ground truth)")
    for k, pile in enumerate(result.meta["piles"]):
        print(f"pile {k + 1}: {' '.join(pile)}")
    print(f"least visible top-left index: {top_left_visibility(result):.2f}")
    return make_table_photo(deck, seed, out)


def make_table_photo(deck: str, seed: int, out: Path) -> int:
    """The whole-table photo: four players, each with two rows of TABLE_PILES cards."""
    from blackcat.vision.types import SIDES
    from blackcat.workshop.synth.table import ROWS, Player, render_table

    cards = iter(
        card.code for card in random.Random(seed + 1).sample(ALL_CARDS, 4 * sum(TABLE_PILES))
    )
    players = [
        Player(side, tuple(tuple(next(cards) for _ in range(n)) for n in TABLE_PILES), (ROWS,) * 2)
        for side in SIDES
    ]
    result = render_table(players, deck=deck, imgsz=WIDTH, seed=seed, pitch=35.0)
    if max(result.width, result.height) != WIDTH:
        print(f"error: rendered {result.width}x{result.height}, not {WIDTH} px long")
        return 1
    photo = out / TABLE_NAME
    write_example(result, photo, photo.with_suffix(".json"))
    print(f"wrote {photo} ({result.width}x{result.height}), four players' piles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
