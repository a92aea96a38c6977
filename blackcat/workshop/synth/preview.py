"""Draw a written scene with its ground truth, to look at (and for datasets/examples/)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

LABELLED = (40, 220, 40)
UNLABELLED = (40, 40, 230)


def draw_scene(
    detect_dir: Path, meta_path: Path, scale: float = 1.0, unlabelled: bool = True
) -> np.ndarray:
    """The scene picture with every labelled index box (green), the indices left without a box
    (red, with their visibility), and each card's pile and position (row.position)."""
    meta = json.loads(meta_path.read_text())
    image = cv2.imread(str(detect_dir / meta["image"]))
    if image is None:
        raise FileNotFoundError(detect_dir / meta["image"])
    if scale != 1.0:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    for card in meta["cards"]:
        for index in card["indices"]:
            if not index["labelled"] and not unlabelled:
                continue
            colour = LABELLED if index["labelled"] else UNLABELLED
            x0, y0, x1, y1 = (round(v * scale) for v in index["box"])
            cv2.rectangle(image, (x0, y0), (x1, y1), colour, 1)
            if index["corner"] == "top_left" and index["labelled"]:
                text = f"{card['row']}.{card['position']}"
                cv2.putText(
                    image,
                    text,
                    (x0, max(8, y0 - 2)),
                    cv2.FONT_HERSHEY_SIMPLEX,
                    0.3 * max(scale, 1),
                    (255, 255, 0),
                    1,
                    cv2.LINE_AA,
                )
            elif not index["labelled"] and index["visibility"] > 0.05:
                text = f"{index['visibility']:.2f}"
                cv2.putText(
                    image,
                    text,
                    (x0, y1 + 8),
                    cv2.FONT_HERSHEY_SIMPLEX,
                    0.28 * max(scale, 1),
                    colour,
                    1,
                    cv2.LINE_AA,
                )
    return image


def save_small_png(image: np.ndarray, path: Path, max_side: int = 720, colours: int = 128) -> int:
    """Write a PNG small enough to commit (palette colours); returns its size in bytes."""
    from PIL import Image

    h, w = image.shape[:2]
    if max(h, w) > max_side:
        f = max_side / max(h, w)
        image = cv2.resize(image, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
    rgb = Image.fromarray(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))
    rgb.quantize(colours, dither=Image.Dither.NONE).save(path, optimize=True)
    return path.stat().st_size


def crops_grid(classify_dir: Path, count: int = 96, per_row: int = 16, seed: int = 0) -> np.ndarray:
    """A grid of random classification crops with their class printed under each."""
    files = sorted(classify_dir.glob("*/*/*.jpg"))
    rng = np.random.default_rng(seed)
    picked = [files[i] for i in rng.choice(len(files), min(count, len(files)), replace=False)]
    tiles = []
    for path in picked:
        tile = cv2.resize(cv2.imread(str(path)), (80, 80))
        tile = cv2.copyMakeBorder(tile, 0, 14, 1, 1, cv2.BORDER_CONSTANT, value=(255, 255, 255))
        cv2.putText(
            tile,
            path.parent.name,
            (3, 91),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.38,
            (0, 0, 0),
            1,
            cv2.LINE_AA,
        )
        tiles.append(tile)
    while len(tiles) % per_row:
        tiles.append(np.full_like(tiles[0], 255))
    return np.vstack([np.hstack(tiles[i : i + per_row]) for i in range(0, len(tiles), per_row)])


def main(argv: list[str] | None = None) -> int:
    """`python -m blackcat.workshop.synth.preview DIR/detect NAME... --out FOLDER`: draw scenes."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("detect", type=Path, help="the detect/ folder of a generated set")
    parser.add_argument("names", nargs="*", help="scene names, e.g. s0_000012")
    parser.add_argument("--out", type=Path, default=Path("datasets/examples"))
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--crops", type=int, default=0, help="also a grid of N crops (crops.png)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.crops:
        grid = crops_grid(args.detect.parent / "classify", args.crops)
        size = save_small_png(grid, args.out / "crops.png", max_side=1400, colours=96)
        print(f"{args.out / 'crops.png'}: {size // 1024} KB")
    for name in args.names:
        meta = next(args.detect.glob(f"meta/*/{name}.json"))
        image = draw_scene(args.detect, meta, args.scale)
        size = save_small_png(image, args.out / f"{name}.png")
        print(f"{args.out / (name + '.png')}: {size // 1024} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
