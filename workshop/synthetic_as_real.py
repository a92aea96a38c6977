"""A synthetic set's held-out scenes as a real-photo set, so that `evaluate --failures` lists
each scene's missed and extra cards (it does so for real-photo sets only).

    .venv/bin/python workshop/synthetic_as_real.py SYNTH OUT
    .venv/bin/blackcat evaluate --real OUT --failures F

SYNTH is a folder `blackcat synth` wrote (its `detect/meta/val/*.json`); OUT gets `images/`
(links to the scenes' pictures) and `labels.json` (each card of the scene, face up, with the box
around its drawn outline), as real-photo sets have. Generated: keep it out of the repository.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def labelled_cards(meta: dict) -> list[dict]:
    """A scene's cards as a real-photo set labels them: code and box around the card."""
    labels = []
    for card in meta["cards"]:
        xs = [x for x, _ in card["quad"]]
        ys = [y for _, y in card["quad"]]
        labels.append({"card": card["code"], "box": [min(xs), min(ys), max(xs), max(ys)]})
    return labels


def write_as_real(synthetic: Path, out: Path) -> int:
    """Write `synthetic`'s held-out scenes into `out` as a real-photo set; how many scenes."""
    detect = synthetic / "detect"
    metas = sorted((detect / "meta" / "val").glob("*.json"))
    if not metas:
        raise SystemExit(f"{synthetic}: no held-out scenes (detect/meta/val/*.json)")
    (out / "images").mkdir(parents=True, exist_ok=True)
    labels = {}
    for meta_path in metas:
        meta = json.loads(meta_path.read_text())
        picture = (detect / meta["image"]).resolve()
        link = out / "images" / picture.name
        if not link.exists():
            link.symlink_to(picture)
        labels[picture.name] = labelled_cards(meta)
    (out / "labels.json").write_text(json.dumps(labels))
    return len(labels)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("synthetic", type=Path, help="a folder `blackcat synth` wrote")
    parser.add_argument("out", type=Path, help="the real-photo set to write")
    args = parser.parse_args()
    print(f"{write_as_real(args.synthetic, args.out)} scenes written to {args.out}")


if __name__ == "__main__":
    main()
