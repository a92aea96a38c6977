"""Kitty scenes: photo-like pictures of one or two laid-out piles, drawn with held-out decks only,
at phone-photo sizes and turned as a player may hold the phone; harder ones (`hard`) taken less
carefully: rolled further, keystoned, uneven offsets, smaller in the frame, glare and shadows;
small ones (`small`) with the piles in a small part of the frame, as a photo of a whole table;
pushed ones (`pushed`) with two or three rows pushed into each other; angled ones (`angled`) with
two rows each at its own angle.
The measuring set of the reader (`blackcat evaluate --kitty DIR`, `--kitty-hard`, `--kitty-small`,
`--kitty-pushed`, `--kitty-angled`)
and the set
its probabilities are calibrated on (`blackcat calibrate`); never trained on.

DIR/kNNNNN.jpg    the picture
DIR/kNNNNN.json   its ground truth (the format `blackcat synth` writes; "image" is the file name)
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from blackcat.games.cards import ALL_CARDS

if TYPE_CHECKING:
    from blackcat.workshop.synth.realism import Realism
    from blackcat.workshop.synth.scene import ArtLibrary, SceneResult
    from blackcat.workshop.synth.styles import CardStyle

PHOTO_SIZES = {"2MP": 1632, "12MP": 4000}
"""Long side in pixels of a 4:3 photo of about 2 and 12 megapixels."""

SMALL_FILL = (0.25, 0.45)
"""The share of the photo the piles fill in a `small` scene: an index then stands about 1.5-3% of
the photo's short side tall, as on a webcam's view of a whole table."""


@dataclass(frozen=True)
class KittyScene:
    piles: tuple[tuple[str, ...], ...]
    deck: str
    imgsz: int
    tilt_degrees: float
    seed: int
    style: str = "plain"  # a name of styles.STYLES: kitty scenes draw every style, held out too
    hard: bool = False  # a harder photo (scene.render_piles)
    small: bool = False  # the piles in a small part of the frame (SMALL_FILL)
    condition: str = ""  # a camera's fault or a deck (CONDITIONS), or "" for a careful photo
    rows_apart: float | None = None  # card heights from a row's top to the next's (PUSHED_APART)
    row_turns: tuple[float, ...] = ()  # degrees each row is turned more (ROW_TURNS)


PUSHED_APART = (0.35, 0.85)
"""How far below the one before each row lies in a `pushed` scene, in card heights: a player's
rows pushed into each other, each over the lower part of the one above, its top indices still
showing (rows laid apart lie a little more than a card apart)."""

ROW_TURNS = 20.0
"""How far each row of an `angled` scene is turned, at most, either way, in degrees: a player's
two piles laid casually, each at its own angle to the table's edge."""


CONDITIONS = (
    "clean",
    "tungsten",
    "fluorescent",
    "dim",
    "blown_out",
    "webcam_video",
    "squeezed_small",
    "fingers",
    "dark_face",
)
"""What a `faults` kitty scene shows, one each: a careful photo (to compare), a strong tungsten
or fluorescent-green cast, dim light with chroma noise, blown-out exposure, a webcam's video
(1280 px, compressed, hot pixels), a 16:9 frame squeezed to a square at 640 px, fingers over
the cards, or a dark-faced deck."""


def condition_camera(condition: str) -> tuple[Realism, int | None, str | None]:
    """The camera faults, the long side instead of the plan's (None: the
    plan's) and the card style instead of the plan's (None) of a condition."""
    from blackcat.workshop.synth.realism import CASTS, NEUTRAL, Realism

    def cast(name: str) -> tuple[float, float, float]:
        gains = np.array(CASTS[name])
        return tuple(float(g) for g in gains / gains.max())  # type: ignore[return-value]

    faults = {
        "tungsten": (Realism(cast=cast("tungsten")), None, None),
        "fluorescent": (Realism(cast=cast("fluorescent")), None, None),
        "dim": (Realism(exposure=0.4, chroma_noise=0.03), None, None),
        "blown_out": (Realism(exposure=1.5), None, None),
        "webcam_video": (Realism(video_quality=25, speckle=0.002), 1280, None),
        "squeezed_small": (Realism(squeeze=(0.5625, 1.0), chroma_noise=0.02), 853, None),
        "fingers": (Realism(fingers=3), None, None),
        "dark_face": (NEUTRAL, None, "dark_face"),
    }
    return faults.get(condition, (NEUTRAL, None, None))


def drawn_under(
    condition: str, imgsz: int, style: str, seed: int
) -> tuple[Realism, int, CardStyle]:
    """A planned scene's camera faults, long side and card style under its `condition` (the
    plan's own `imgsz` and `style` where the condition keeps them)."""
    from blackcat.workshop.synth.styles import STYLES

    realism, own_imgsz, own_style = condition_camera(condition)
    card_style = STYLES[own_style or style](np.random.default_rng([seed, 1]))
    return realism, own_imgsz or imgsz, card_style


def plan_scene(
    seed: int,
    index: int,
    decks: tuple[str, ...],
    hard: bool = False,
    small: bool = False,
    faults: bool = False,
    pushed: bool = False,
    angled: bool = False,
) -> KittyScene:
    """What one kitty scene shows: 1-2 piles of 4-15 different cards, a held-out deck, 2 or 12 MP,
    the phone rolled within +-10 degrees (+-20 when `hard`), or turned a quarter or half round
    (3 in 10); the cards in a style drawn as `blackcat synth` draws them for held-out scenes
    (its own generator, so the rest of a scene's plan is as it was before there were styles).
    A `hard` scene is also photographed less carefully (scene.render_piles); a `small` one shows
    the same piles in a small part of the frame; a `faults` one the same piles under one of
    CONDITIONS (its own generator: the rest of the plan is as without). A `pushed` one shows two
    or three rows of 3-10 cards pushed into each other (PUSHED_APART; its own generator draws
    them: the rest of the plan is as without); an `angled` one two rows of 4-11 cards, each
    turned by up to ROW_TURNS degrees (its own generator)."""
    roll = 20 if hard else 10
    from blackcat.workshop.synth.styles import KITTY_STYLE_WEIGHTS

    rng = np.random.default_rng([seed, index])
    piles = int(rng.integers(1, 3))
    sizes = [int(rng.integers(4, 16)) for _ in range(piles)]
    order = rng.permutation(len(ALL_CARDS))
    codes = [ALL_CARDS[i].code for i in order]
    drawn, start = [], 0
    for size in sizes:
        drawn.append(tuple(codes[start : start + size]))
        start += size
    turn = float(rng.choice([0.0] * 7 + [90.0, -90.0, 180.0]))
    rows_apart, row_turns = None, ()
    if pushed:
        drawn, rows_apart = pushed_rows(np.random.default_rng([seed, index, 3]))
    if angled:
        drawn, row_turns = angled_rows(np.random.default_rng([seed, index, 4]))
    return KittyScene(
        piles=tuple(drawn),
        deck=str(rng.choice(decks)),
        imgsz=PHOTO_SIZES["12MP"] if rng.random() < 0.5 else PHOTO_SIZES["2MP"],
        tilt_degrees=turn + float(rng.uniform(-roll, roll)),
        seed=int(rng.integers(1 << 31)),
        style=draw_style_name(np.random.default_rng([seed, index, 1]), KITTY_STYLE_WEIGHTS),
        hard=hard,
        small=small,
        condition=str(np.random.default_rng([seed, index, 2]).choice(CONDITIONS)) if faults else "",
        rows_apart=rows_apart,
        row_turns=row_turns,
    )


def _rows_of(order: np.ndarray, sizes: list[int]) -> list[tuple[str, ...]]:
    """Rows of these many cards, taken one after another in the deck's `order`."""
    ends = np.cumsum(sizes)
    return [
        tuple(ALL_CARDS[i].code for i in order[end - size : end])
        for size, end in zip(sizes, ends, strict=True)
    ]


def pushed_rows(rng: np.random.Generator) -> tuple[list[tuple[str, ...]], float]:
    """A `pushed` scene's rows (two, or three one time in five, of 3-10 different cards) and
    how far below the one before each lies (PUSHED_APART)."""
    order = rng.permutation(len(ALL_CARDS))
    sizes = [int(rng.integers(3, 11)) for _ in range(3 if rng.random() < 0.2 else 2)]
    return _rows_of(order, sizes), float(rng.uniform(*PUSHED_APART))


def angled_rows(rng: np.random.Generator) -> tuple[list[tuple[str, ...]], tuple[float, ...]]:
    """An `angled` scene's two rows of 4-11 different cards and how far each is turned."""
    order = rng.permutation(len(ALL_CARDS))
    rows = _rows_of(order, [int(rng.integers(4, 12)) for _ in range(2)])
    return rows, tuple(float(rng.uniform(-ROW_TURNS, ROW_TURNS)) for _ in rows)


def draw_style_name(rng: np.random.Generator, weights: tuple[tuple[str, float], ...]) -> str:
    p = np.array([w for _, w in weights], np.float64)
    return weights[int(rng.choice(len(weights), p=p / p.sum()))][0]


def held_out_decks() -> tuple[str, ...]:
    from blackcat.workshop.synth.decks import DECKS, Split

    return tuple(deck.name for deck in DECKS if deck.split is Split.VAL)


def make_kitty_scenes(
    out: Path,
    count: int,
    seed: int,
    hard: bool = False,
    small: bool = False,
    faults: bool = False,
    card_style: str | None = None,
    pushed: bool = False,
    angled: bool = False,
) -> Iterator[Path]:
    """Draw scenes 0..count-1 of `seed` into `out` (those already there are kept); `hard`:
    harder photos, `small`: piles small in the frame, `faults`: a camera's faults or a
    dark-faced deck (plan_scene); `card_style`: every scene's cards in this style (a name of
    styles.STYLES) instead of its own; `pushed`: rows pushed into each other; `angled`: two rows
    each at its own angle."""
    from blackcat.workshop.synth.scene import render_piles

    def draw(index: int, library: ArtLibrary) -> tuple[SceneResult, dict]:
        plan = plan_scene(seed, index, held_out_decks(), hard, small, faults, pushed, angled)
        plan = replace(plan, style=card_style) if card_style else plan
        realism, imgsz, style = drawn_under(plan.condition, plan.imgsz, plan.style, plan.seed)
        result = render_piles(
            plan.piles,
            deck=plan.deck,
            imgsz=imgsz,
            seed=plan.seed,
            tilt_degrees=plan.tilt_degrees,
            library=library,
            style=style,
            hard=plan.hard,
            fill=SMALL_FILL if plan.small else None,
            realism=realism,
            rows_apart=plan.rows_apart,
            row_turns=plan.row_turns,
        )
        condition = {"condition": plan.condition} if plan.condition else {}
        apart = {"rows_apart": round(plan.rows_apart, 3)} if plan.rows_apart else {}
        turns = {"row_turns": [round(turn, 2) for turn in plan.row_turns]} if plan.row_turns else {}
        return result, {"hard": plan.hard, "small": plan.small, **condition, **apart, **turns}

    drawn_with = {
        "scenes": "kitty",
        "seed": seed,
        "hard": hard,
        "small": small,
        "faults": faults,
        "style": card_style,
        "pushed": pushed,
        "angled": angled,
    }
    return draw_scenes(out, "k", count, draw, drawn_with)


DRAWN_WITH = "drawn_with.json"
"""A folder of scenes' record of what its scenes were drawn with (`draw_scenes`)."""


class OtherScenesError(ValueError):
    """A folder's scenes were drawn with other settings than those asked for: measuring them
    would report them as what they are not. The message names the differences."""


def _own(name: str, prefix: str) -> bool:
    """Whether a file may be in a folder of scenes before its first is drawn whole: the record,
    a scene's own files (PREFIXnnnnn.jpg, .json) or a hidden file."""
    scene = re.fullmatch(rf"{re.escape(prefix)}\d{{5}}\.(jpg|json)", name)
    return name == DRAWN_WITH or name.startswith(".") or scene is not None


def keep_to_drawn_with(out: Path, prefix: str, drawn_with: dict[str, object]) -> None:
    """Check `out`'s record of what its scenes were drawn with against `drawn_with` (raises
    OtherScenesError where they differ), or write it for a folder with no scenes yet (over the
    record of scenes never drawn: a run stopped before its first). A folder of scenes from
    before the record has none, and is taken as it is."""
    record = out / DRAWN_WITH
    if not any(out.glob(f"{prefix}*.json")):
        others = [name for name in (path.name for path in out.iterdir()) if not _own(name, prefix)]
        if others:  # e.g. a synth set: its scenes would be drawn in among its own files
            named = ", ".join(sorted(others)[:3]) + (", ..." if len(others) > 3 else "")
            raise OtherScenesError(
                f"{out} holds other files ({named}): give an empty or new folder for these scenes"
            )
        record.write_text(json.dumps(drawn_with, indent=1) + "\n")
    elif record.is_file():
        try:
            recorded = json.loads(record.read_text())
        except (UnicodeDecodeError, json.JSONDecodeError):
            recorded = None
        if not isinstance(recorded, dict):
            raise OtherScenesError(
                f"{record} can't be read (cut short or damaged): give a new folder for these scenes"
            )
        differences = [
            f"{key} {json.dumps(recorded.get(key))}, not {json.dumps(value)}"
            for key, value in drawn_with.items()
            if recorded.get(key) != value
        ]
        if differences:
            raise OtherScenesError(
                f"{out} holds scenes drawn otherwise ({'; '.join(differences)}): give another "
                "folder, or the options they were drawn with"
            )


def draw_scenes(
    out: Path,
    prefix: str,
    count: int,
    draw: Callable[[int, ArtLibrary], tuple[SceneResult, dict]],
    drawn_with: dict[str, object],
) -> Iterator[Path]:
    """Scenes 0..count-1 in `out` as PREFIXnnnnn.jpg and .json (the ground truth the synth
    writes, with "image" and `draw`'s own fields), drawn with the held-out decks where missing
    (those already there are kept). Raises OtherScenesError at once where the folder's scenes
    were drawn with other settings than `drawn_with` (`keep_to_drawn_with`)."""
    if out.exists() and not out.is_dir():
        raise OtherScenesError(f"{out} is a file: give a folder for the scenes")
    out.mkdir(parents=True, exist_ok=True)
    keep_to_drawn_with(out, prefix, drawn_with)
    return _drawn(out, prefix, count, draw)


def _drawn(
    out: Path,
    prefix: str,
    count: int,
    draw: Callable[[int, ArtLibrary], tuple[SceneResult, dict]],
) -> Iterator[Path]:
    from blackcat.workshop.synth.decks import deck_by_name
    from blackcat.workshop.synth.scene import ArtLibrary

    library = ArtLibrary(tuple(deck_by_name(name) for name in held_out_decks()))
    for index in range(count):
        meta_path = out / f"{prefix}{index:05d}.json"
        if not meta_path.exists():
            result, fields = draw(index, library)
            image = meta_path.with_suffix(".jpg")
            image.write_bytes(result.jpeg)
            meta_path.write_text(json.dumps({**result.meta, "image": image.name, **fields}))
        yield meta_path
