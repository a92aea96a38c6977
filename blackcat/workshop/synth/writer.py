"""Write scenes as an Ultralytics detection set, a classification set, and per-scene ground truth.

DIR/detect/data.yaml
DIR/detect/images/{train,val}/NAME.jpg     scene pictures
DIR/detect/labels/{train,val}/NAME.txt     `0 cx cy w h` (normalised) per visible index
DIR/detect/meta/{train,val}/NAME.json      every card: code, row, position, index boxes...
DIR/classify/{train,val}/<CARD>/NAME_k.jpg close-up crops of the visible indices
"""

from __future__ import annotations

import json
import multiprocessing as mp
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2

from blackcat.vision.classes import all_class_names
from blackcat.workshop.synth.decks import DECKS, DeckSpec, Split
from blackcat.workshop.synth.scene import ArtLibrary, SceneResult, SynthConfig, make_scene
from blackcat.workshop.synth.table import is_table_scene, make_table_scene

SPLITS = (Split.TRAIN, Split.VAL)


def scene_name(seed: int, index: int) -> str:
    return f"s{seed}_{index:06d}"


@dataclass(frozen=True)
class SceneStats:
    split: str
    boxes: int
    crops: Counter


def prepare(out: Path) -> None:
    """Create the folders (all 52 class folders in both splits, so class ids agree)."""
    for split in SPLITS:
        for kind in ("images", "labels", "meta"):
            (out / "detect" / kind / split.value).mkdir(parents=True, exist_ok=True)
        for name in all_class_names():
            (out / "classify" / split.value / name).mkdir(parents=True, exist_ok=True)
    yaml = (
        f"# written by `blackcat synth`\npath: {(out / 'detect').resolve()}\n"
        "train: images/train\nval: images/val\nnames:\n  0: index\n"
    )
    (out / "detect" / "data.yaml").write_text(yaml)


def write_scene(out: Path, seed: int, result: SceneResult) -> SceneStats:
    name = scene_name(seed, result.index)
    split = result.split.value
    det = out / "detect"
    (det / "images" / split / f"{name}.jpg").write_bytes(result.jpeg)
    (det / "labels" / split / f"{name}.txt").write_text(yolo_lines(result))
    (det / "meta" / split / f"{name}.json").write_text(
        json.dumps({"image": f"images/{split}/{name}.jpg", **result.meta}, separators=(",", ":"))
    )
    crops: Counter = Counter()
    for k, crop in enumerate(result.crops):
        path = out / "classify" / split / crop.class_name / f"{name}_{k:02d}.jpg"
        path.write_bytes(crop.jpeg)
        crops[crop.class_name] += 1
    return SceneStats(split, len(result.boxes()), crops)


def yolo_lines(result: SceneResult) -> str:
    lines = []
    for x0, y0, x1, y1 in result.boxes():
        cx, cy = (x0 + x1) / 2 / result.width, (y0 + y1) / 2 / result.height
        bw, bh = (x1 - x0) / result.width, (y1 - y0) / result.height
        lines.append(f"0 {cx:.6f} {cy:.6f} {bw:.6f} {bh:.6f}")
    return "\n".join(lines) + ("\n" if lines else "")


# ---------------------------------------------------------------------------------------------
# workers

_state: dict = {}


def _init(
    out: str, seed: int, config: SynthConfig, decks: tuple[DeckSpec, ...], cache: str | None
) -> None:
    cv2.setNumThreads(1)
    _state["out"] = Path(out)
    _state["seed"] = seed
    _state["config"] = config
    _state["library"] = ArtLibrary(decks, Path(cache) if cache else None)


def _one(index: int) -> SceneStats:
    seed, config = _state["seed"], _state["config"]
    draw = make_table_scene if is_table_scene(seed, index, config) else make_scene
    result = draw(seed, index, config, _state["library"])
    return write_scene(_state["out"], _state["seed"], result)


def generate(
    out: Path,
    scenes: int,
    seed: int,
    config: SynthConfig,
    workers: int = 1,
    decks: tuple[DeckSpec, ...] = DECKS,
    cache: Path | None = None,
    start: int = 0,
) -> Iterator[SceneStats]:
    """Make and write scenes start..start+scenes-1; yields each scene's stats as it is done.
    The files do not depend on `workers`: each scene has its own generator."""
    needed = ([Split.TRAIN] if config.val_fraction < 1 else []) + (
        [Split.VAL] if config.val_fraction > 0 else []
    )
    for split in needed:
        if not any(d.split is split for d in decks):
            raise ValueError(f"no {split.value} deck among {', '.join(d.name for d in decks)}")
    ArtLibrary(decks, cache)  # render and index every deck once, before the workers start
    prepare(out)
    indices = range(start, start + scenes)
    args = (str(out), seed, config, decks, str(cache) if cache else None)
    if workers <= 1:
        _init(*args)
        for i in indices:
            yield _one(i)
        return
    # Fresh worker processes: a fork copies OpenCV's thread pool, used above for the card art,
    # in a state that can hang the workers. An executor, not a Pool: a worker that fails to
    # start raises (BrokenProcessPool) instead of being replaced for ever.
    with ProcessPoolExecutor(
        workers, mp_context=mp.get_context("spawn"), initializer=_init, initargs=args
    ) as pool:
        yield from pool.map(_one, indices, chunksize=4)
