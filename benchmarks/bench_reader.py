"""Benchmark: a phone photo in, the score out, on this CPU. Run by hand; prints figures.

    .venv/bin/python benchmarks/bench_reader.py [PHOTO] [--repeats N]

Without PHOTO it reads the 12 MP photo of two piles of 15 that `make_photo.py` renders, and
renders it first when it isn't there yet.

Budgets (DESIGN.md, issue 8): loading the models under 3 s; photo in -> score out, median at
most 0.25 s once loaded.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import make_photo  # beside this script, which Python puts first on the path

DEFAULT_PHOTO = make_photo.DEFAULT_OUT / make_photo.PHOTO_NAME


def photo_to_read(photo: Path) -> Path:
    """The photo, rendered first (as `make_photo.py` does) when it is the default and missing."""
    if photo.is_file():
        return photo
    if photo != DEFAULT_PHOTO:
        raise SystemExit(f"{photo} not found")
    print(f"{photo} not found: rendering it first (benchmarks/make_photo.py)")
    if make_photo.main(["--out", str(photo.parent)]) != 0 or not photo.is_file():
        raise SystemExit("the benchmark photo could not be rendered: see the lines above")
    return photo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("photo", nargs="?", type=Path, default=DEFAULT_PHOTO)
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--models", type=Path, default=None, help="folder with the weights")
    args = parser.parse_args()
    args.photo = photo_to_read(args.photo)

    started = time.perf_counter()
    import torch  # noqa: F401 - counted on its own: the app pays it once at start

    imported = time.perf_counter()
    from blackcat.games.black_cat import score_player
    from blackcat.vision.image_io import load_image
    from blackcat.vision.reader import MODELS_DIR, CardReader

    reader = CardReader.load(args.models or MODELS_DIR)
    loaded = time.perf_counter()
    print(f"import torch: {imported - started:.2f} s; load both models: {loaded - imported:.2f} s")

    data = args.photo.read_bytes()
    stages: dict[str, list[float]] = {}
    totals = []
    for _ in range(args.repeats):
        begin = time.perf_counter()
        image = load_image(data)
        decoded = time.perf_counter()
        photo = reader.read(image)
        read = time.perf_counter()
        score = score_player([[card.card for card in pile] for pile in photo.piles])
        scored = time.perf_counter()
        totals.append(scored - begin)
        for name, seconds in {
            "decode": decoded - begin,
            **reader.timings.stages,
            "score": scored - read,
        }.items():
            stages.setdefault(name, []).append(seconds)

    height, width = image.shape[:2]
    print(
        f"photo {width}x{height} ({width * height / 1e6:.1f} MP): "
        f"{[len(pile) for pile in photo.piles]} cards in piles, total {score.total}"
    )
    print(
        f"photo in -> score out: median {statistics.median(totals) * 1000:.0f} ms, "
        f"max {max(totals) * 1000:.0f} ms over {args.repeats} runs"
    )
    for name, seconds in stages.items():
        print(f"  {name:<9} median {statistics.median(seconds) * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
