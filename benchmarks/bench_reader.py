"""Benchmark: a phone photo in, the score out, on this CPU. Run by hand; prints figures.

    .venv/bin/python benchmarks/bench_reader.py [PHOTO] [--repeats N]
        [--backend onnx|ultralytics|both] [--small SHARE] [--frame PIXELS] [--starts N]

Without PHOTO it reads the 12 MP photo of two piles of 15 that `make_photo.py` renders, and
renders it first when it isn't there yet. For each back end it prints: the process start-up (a
fresh `blackcat scan --json` of the photo, interpreter and imports included), loading the models,
and photo in -> score out with each stage (JPEG decode, detection, the second pass on small
indices, classification, layout, scoring). `--small 0.3` also reads the photo shrunk to 30% of the
width of a 12 MP frame, where the second pass is needed, to show what that pass costs; `--frame
640` reads the photo shrunk to a 640 px frame (a video or webcam frame: read again at the usual
squeezes undone and smoothed, side by side: `CardReader.read`); and it reads the 12 MP photo
of a whole table (four players' piles, `make_photo.py`; `--no-table` to skip it), whose far and
side piles are read again turned.

Budgets (DESIGN.md; issue 14): a fresh `blackcat scan` under 2.5 s; photo in -> score out under
0.12 s once loaded (ONNX Runtime), when the piles fill the frame; a whole table under 0.25 s
(issue 28).
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import make_photo  # beside this script, which Python puts first on the path
from PIL import Image

if TYPE_CHECKING:
    from blackcat.vision.reader import CardReader

DEFAULT_PHOTO = make_photo.DEFAULT_OUT / make_photo.PHOTO_NAME
TABLE_PHOTO = make_photo.DEFAULT_OUT / make_photo.TABLE_NAME
ROOT = Path(__file__).resolve().parents[1]


def photo_to_read(photo: Path) -> Path:
    """The photo, rendered first (as `make_photo.py` does) when it is the default and missing."""
    if photo.is_file():
        return photo
    if photo not in (DEFAULT_PHOTO, TABLE_PHOTO):
        raise SystemExit(f"{photo} not found")
    print(f"{photo} not found: rendering it first (benchmarks/make_photo.py)")
    if make_photo.main(["--out", str(photo.parent)]) != 0 or not photo.is_file():
        raise SystemExit("the benchmark photo could not be rendered: see the lines above")
    return photo


def fresh_scan_seconds(photo: Path, repeats: int) -> tuple[float, int]:
    """Median wall time of a whole `blackcat scan --json PHOTO` process, and its total."""
    times, total = [], -1
    for _ in range(repeats):
        started = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-m", "blackcat", "scan", "--json", str(photo)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
        )
        times.append(time.perf_counter() - started)
        total = json.loads(result.stdout)[0]["total"]
    return statistics.median(times), total


def load_reader(backend: str) -> Callable[[], CardReader]:
    if backend == "onnx":
        from blackcat.vision.reader import CardReader

        return CardReader.load
    from blackcat.workshop.ultralytics_models import load_ultralytics_reader

    return load_ultralytics_reader


def small_in_frame(data: bytes, share: float) -> bytes:
    """The photo shrunk to `share` of the width of a 4032×3024 table, as a JPEG."""
    photo = Image.open(io.BytesIO(data)).convert("RGB")
    canvas = Image.new("RGB", (4032, 3024), (90, 110, 80))
    width = round(4032 * share)
    canvas.paste(photo.resize((width, round(photo.height * width / photo.width))), (600, 900))
    return as_jpeg(canvas, 90)


def as_jpeg(image: Image.Image, quality: int) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=quality)
    return buffer.getvalue()


def bench_reads(reader: CardReader, data: bytes, repeats: int, label: str) -> None:
    from blackcat.games.black_cat import score_player
    from blackcat.vision.image_io import open_photo

    stages: dict[str, list[float]] = {}
    totals = []
    for _ in range(repeats):
        begin = time.perf_counter()
        photo = open_photo(data)
        read = reader.read(photo)
        done_reading = time.perf_counter()
        score = score_player([[card.card for card in pile] for pile in read.piles])
        scored = time.perf_counter()
        totals.append(scored - begin)
        stages.setdefault("open", []).append(done_reading - begin - reader.timings.total)
        for name, seconds in reader.timings.stages.items():
            stages.setdefault(name, []).append(seconds)
        stages.setdefault("score", []).append(scored - done_reading)
    width, height = photo.size
    print(
        f"  {label}: {width}x{height} ({width * height / 1e6:.1f} MP), "
        f"{[len(pile) for pile in read.piles]} cards in piles, total {score.total}, "
        f"read {reader.timings.reads} way(s) (as it is, stretched, smoothed)"
    )
    print(
        f"    photo in -> score out: median {statistics.median(totals) * 1000:.0f} ms, "
        f"max {max(totals) * 1000:.0f} ms over {repeats} runs"
    )
    for name, seconds in stages.items():
        print(f"      {name:<12} median {statistics.median(seconds) * 1000:7.1f} ms")


def shrunk_to_frame(data: bytes, long_side: int) -> bytes:
    """The photo shrunk so its long side is `long_side` pixels, as a JPEG (a video frame)."""
    photo = Image.open(io.BytesIO(data)).convert("RGB")
    photo.thumbnail((long_side, long_side))
    return as_jpeg(photo, 85)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("photo", nargs="?", type=Path, default=DEFAULT_PHOTO)
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--backend", choices=["onnx", "ultralytics", "both"], default="both")
    parser.add_argument("--small", type=float, default=0.3, help="0 to skip the small photo")
    parser.add_argument("--frame", type=int, default=640, help="0 to skip the small frame")
    parser.add_argument("--starts", type=int, default=3, help="fresh `blackcat scan` processes")
    parser.add_argument("--no-table", action="store_true", help="skip the whole-table photo")
    args = parser.parse_args()
    args.photo = photo_to_read(args.photo)
    data = args.photo.read_bytes()

    if args.starts:
        seconds, total = fresh_scan_seconds(args.photo, args.starts)
        print(f"fresh `blackcat scan --json` process: median {seconds:.2f} s (total {total})")
    backends = ["onnx", "ultralytics"] if args.backend == "both" else [args.backend]
    for backend in backends:
        started = time.perf_counter()
        load = load_reader(backend)
        imported = time.perf_counter()
        reader = load()
        loaded = time.perf_counter()
        reader.warm_up()
        warmed = time.perf_counter()
        print(
            f"{backend}: imports {imported - started:.2f} s, "
            f"models loaded {loaded - imported:.2f} s, warm-up read {warmed - loaded:.2f} s"
        )
        bench_reads(reader, data, args.repeats, "photo")
        if args.small:
            bench_reads(reader, small_in_frame(data, args.small), args.repeats, "small in frame")
        if args.frame:
            bench_reads(reader, shrunk_to_frame(data, args.frame), args.repeats, "small frame")
        if not args.no_table:
            table = photo_to_read(TABLE_PHOTO).read_bytes()
            bench_reads(reader, table, args.repeats, "whole table")


if __name__ == "__main__":
    main()
