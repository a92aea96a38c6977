"""`blackcat synth`: render synthetic training scenes (detection + classification datasets)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from blackcat.cli.arguments import share, whole_number

MOST_SCENES = 1_000_000  # days of rendering: a larger number is a typo
MOST_IMGSZ = 8192  # a 12 MP photo's long side is 4000; 8192 px scenes take 200 MB each to draw
MOST_WORKERS = 256  # each process holds its own copy of the card art: more is a typo


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("datasets/generated/synth"),
        help="output folder (default: datasets/generated/synth)",
    )
    parser.add_argument(
        "--scenes",
        type=whole_number(1, MOST_SCENES),
        default=1000,
        help=f"number of scenes (default 1000, at most {MOST_SCENES:,})",
    )
    parser.add_argument(
        "--seed",
        type=whole_number(0),
        default=0,
        help="random seed (default 0; same seed, same files)",
    )
    parser.add_argument(
        "--imgsz",
        type=whole_number(64, MOST_IMGSZ),
        default=640,
        help=f"long side of the scene images (default 640; 64 to {MOST_IMGSZ})",
    )
    parser.add_argument(
        "--workers",
        type=whole_number(1, MOST_WORKERS),
        default=2,
        help=f"processes (default 2, at most {MOST_WORKERS}; the output is the same)",
    )
    parser.add_argument(
        "--start",
        type=whole_number(0),
        default=0,
        help="first scene index (default 0; more to extend a set)",
    )
    parser.add_argument(
        "--val-fraction",
        type=share,
        default=0.15,
        help="share of scenes drawn only with held-out decks (default 0.15)",
    )
    parser.add_argument(
        "--decks",
        default="",
        help="comma-separated deck names to use instead of all (see datasets/README.md)",
    )
    parser.add_argument("--no-crops", action="store_true", help="skip the classification crops")
    parser.add_argument(
        "--no-realism",
        action="store_true",
        help="draw clean pictures: no camera faults (casts, speckle, video compression, "
        "squeezed frames, fingers)",
    )
    parser.add_argument(
        "--styles",
        default="",
        help="card styles and their weights, e.g. plain=4,jumbo=1,four_colour=1 (default: all, "
        "see datasets/README.md); held-out styles are drawn only in val scenes",
    )
    parser.add_argument(
        "--layouts",
        default="",
        help="how one player's cards lie, and the weights, e.g. fan=1,singles=1 (rows: piles; "
        "fan: fanned as put down from a hand; singles: loose cards at any angle; empty: no "
        "card; default: mostly rows, a few fans and loose cards: see datasets/README.md)",
    )
    parser.add_argument(
        "--tables",
        type=share,
        default=0.0,
        help="share of scenes drawn as a whole table: 2-4 players' piles round it, turned to "
        "each player, seen by a seated player's phone (default 0.0)",
    )
    parser.add_argument(
        "--columns",
        type=share,
        default=0.0,
        help="share of one player's scenes whose piles are laid as columns, each card lower down "
        "on the one before with its top index showing (default 0.0)",
    )
    parser.add_argument(
        "--tilted-crops",
        type=share,
        default=0.0,
        help="share of the classification crops whose index is turned by a random tilt of up to "
        "40 degrees either way, as a card lying at its own angle shows it (default 0.0)",
    )
    parser.add_argument(
        "--contact-sheets",
        action="store_true",
        help="also draw each deck's index boxes into OUT/contact/",
    )


def run(args: argparse.Namespace) -> int:
    import time
    from collections import Counter

    from tqdm import tqdm

    from blackcat.workshop.synth.cardart import CardArtError
    from blackcat.workshop.synth.decks import DECKS, deck_by_name
    from blackcat.workshop.synth.indices import contact_sheet
    from blackcat.workshop.synth.layout import DEFAULT_LAYOUT_WEIGHTS, parse_layout_weights
    from blackcat.workshop.synth.scene import SynthConfig
    from blackcat.workshop.synth.styles import DEFAULT_STYLE_WEIGHTS, parse_style_weights
    from blackcat.workshop.synth.writer import generate

    try:
        names = [n.strip() for n in args.decks.split(",") if n.strip()]
        decks = tuple(deck_by_name(n) for n in names) if names else DECKS
        styles = parse_style_weights(args.styles) if args.styles else DEFAULT_STYLE_WEIGHTS
        layouts = parse_layout_weights(args.layouts) if args.layouts else DEFAULT_LAYOUT_WEIGHTS
    except KeyError as error:
        print(f"blackcat synth: error: {error.args[0]}", file=sys.stderr)
        return 2
    except ValueError as error:
        print(f"blackcat synth: error: {error}", file=sys.stderr)
        return 2
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        problem = f"--out {args.out}: can't make the output folder ({error.strerror or error})"
        print(f"blackcat synth: error: {problem}", file=sys.stderr)
        return 2
    already = count_scenes(args.out)
    if already:
        print(
            f"blackcat synth: note: {args.out} already holds {already} "
            f"{'scene' if already == 1 else 'scenes'}; these are written in among them (a scene of "
            "the same seed and number is written over): another --out keeps sets apart",
            file=sys.stderr,
        )
    config = SynthConfig(
        imgsz=args.imgsz,
        val_fraction=args.val_fraction,
        crops=not args.no_crops,
        realism=not args.no_realism,
        style_weights=styles,
        table_share=args.tables,
        column_share=args.columns,
        layout_weights=layouts,
        tilted_crops=args.tilted_crops,
    )
    started = time.perf_counter()
    splits: Counter = Counter()
    crops: Counter = Counter()
    boxes = 0
    try:
        stream = generate(
            args.out, args.scenes, args.seed, config, args.workers, decks=decks, start=args.start
        )
        for stats in tqdm(stream, total=args.scenes, unit="scene", desc="synth"):
            splits[stats.split] += 1
            boxes += stats.boxes
            crops.update({(stats.split, code): n for code, n in stats.crops.items()})
        if args.contact_sheets:
            for deck in decks:
                contact_sheet(deck, out=args.out / "contact")
    except (CardArtError, ValueError) as error:
        print(f"blackcat synth: error: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        if error.filename is None:
            raise  # stdout's own (a full disk under `>`): `run_command` says it
        print(
            f"blackcat synth: error: could not write {error.filename} ({error.strerror or error}); "
            "the scenes drawn before it are kept: make room, or give another --out",
            file=sys.stderr,
        )
        return 1
    elapsed = time.perf_counter() - started
    rate = args.scenes / elapsed if elapsed > 0 else 0.0
    scenes = "scene" if args.scenes == 1 else "scenes"
    shares = ", ".join(f"{split} {count}" for split, count in sorted(splits.items()))
    print(
        f"wrote {args.scenes} {scenes} ({shares}), {boxes} index boxes, "
        f"{sum(crops.values())} crops to {args.out} in {elapsed:.0f} s ({rate:.2f} scenes/s)"
    )
    print(
        f"detection: {args.out / 'detect' / 'data.yaml'}; classification: {args.out / 'classify'}"
    )
    if not args.no_crops:
        _warn_empty_classes(args.out / "classify")
    return 0


def _warn_empty_classes(classify: Path) -> None:
    """Ultralytics' classification loader fails on an empty class folder: say so early."""
    for split in sorted(p for p in classify.iterdir() if p.is_dir()):
        empty = sorted(p.name for p in split.iterdir() if p.is_dir() and not any(p.iterdir()))
        if empty:
            print(
                f"blackcat synth: warning: {len(empty)} card classes have no crop in {split} "
                f"({', '.join(empty[:8])}{'...' if len(empty) > 8 else ''}): "
                "make more scenes (--start N --scenes M adds to the set) before training",
                file=sys.stderr,
            )


def count_scenes(out: Path) -> int:
    """The scenes a synth set in `out` already holds."""
    images = out / "detect" / "images"
    return sum(1 for _ in images.glob("*/*.jpg")) if images.is_dir() else 0
