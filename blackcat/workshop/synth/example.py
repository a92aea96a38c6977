"""Render one photo-like scene of given piles, with its ground truth.

    python -m blackcat.workshop.synth.example --piles "8D 2H 8H 10S 6C AH 3D 7D" "KS 9C 4S" \\
        --deck plastic --imgsz 1600 --seed 3 --out PATH.jpg [--meta PATH.json]

Each `--piles` argument is one pile (row), cards left to right as laid. The JPEG gets the long
side `--imgsz` (4:3); the JSON is the ground truth in the format of `blackcat synth`'s meta/
files, its "image" the JPEG's path relative to the JSON's folder.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from blackcat.games.cards import CardParseError, parse_pile
from blackcat.workshop.synth.scene import SceneResult, render_piles
from blackcat.workshop.synth.styles import STYLES
from blackcat.workshop.synth.textures import PHOTO_SURFACES


def write_example(result: SceneResult, out: Path, meta: Path | None = None) -> None:
    """Write the scene's JPEG to `out` and, if asked, its ground truth JSON to `meta`."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(result.jpeg)
    if meta is not None:
        meta.parent.mkdir(parents=True, exist_ok=True)
        image = Path(os.path.relpath(out.resolve(), meta.parent.resolve())).as_posix()
        meta.write_text(json.dumps({"image": image, **result.meta}, separators=(",", ":")))


def top_left_visibility(result: SceneResult) -> float:
    """The least visible top-left index of the scene (1.0: every one fully shows)."""
    shown = [i.visibility for c in result.labels for i in c.indices if i.corner.value == "top_left"]
    return min(shown, default=1.0)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m blackcat.workshop.synth.example",
        description="Render one photo-like scene of the given piles, with its ground truth.",
    )
    parser.add_argument(
        "--piles",
        nargs="+",
        required=True,
        metavar="PILE",
        help='one argument per pile, cards left to right, e.g. "8D 2H 10S" "KS 9C"',
    )
    parser.add_argument("--deck", required=True, help="deck name (see datasets/README.md)")
    parser.add_argument("--imgsz", type=int, default=1600, help="long side in pixels (4:3)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (same seed, same bytes)")
    parser.add_argument(
        "--tilt", type=float, default=None, help="picture tilt in degrees (random within +-8)"
    )
    parser.add_argument(
        "--surface",
        choices=sorted(PHOTO_SURFACES),
        default=None,
        help="table (wood/felt/cloth/cork)",
    )
    parser.add_argument("--quality", type=int, default=85, help="JPEG quality (default 85)")
    parser.add_argument(
        "--style",
        choices=sorted(STYLES),
        default="plain",
        help="card style (datasets/README.md; its parameters drawn from --seed)",
    )
    parser.add_argument("--out", type=Path, required=True, help="the JPEG to write")
    parser.add_argument("--meta", type=Path, default=None, help="the ground truth JSON to write")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        piles = [parse_pile(text) for text in args.piles]
        result = render_piles(
            piles,
            deck=args.deck,
            imgsz=args.imgsz,
            seed=args.seed,
            tilt_degrees=args.tilt,
            surface=args.surface,
            jpeg_quality=args.quality,
            style=STYLES[args.style](np.random.default_rng([args.seed, 1])),
        )
    except (CardParseError, KeyError, ValueError) as error:
        message = error.args[0] if isinstance(error, KeyError) else error
        print(f"error: {message}", file=sys.stderr)
        return 2
    write_example(result, args.out, args.meta)
    meta = result.meta
    print(
        f"wrote {args.out} ({result.width}x{result.height}, {len(result.jpeg) / 1024:.0f} KB, "
        f"{meta['deck']} on {meta['surface']}, tilt {meta['tilt_degrees']:+.1f}, "
        f"pitch {meta['pitch_degrees']:.1f}; least visible top-left index "
        f"{top_left_visibility(result):.2f})" + (f" and {args.meta}" if args.meta else "")
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
