"""Colour constancy: a cast or dim light on white card faces is undone, a clean photo is left
alone, and a deck printed light on dark is read from the photo's negative."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from blackcat.vision.colour import NO_FIX, PixelFix, white_balance
from blackcat.vision.image_io import load_image

EXAMPLE = Path(__file__).parents[2] / "app" / "example.jpg"


def _table_with_a_card(cast: tuple[float, float, float]) -> np.ndarray:
    """A dark green table with a white card on it (a tenth of the picture), lit with `cast`."""
    picture = np.zeros((120, 160, 3), np.float32)
    picture[:] = (40, 90, 50)
    picture[40:80, 60:110] = (235, 235, 235)
    picture[50:60, 65:70] = (20, 20, 20)  # an index's ink
    return np.clip(picture * np.asarray(cast, np.float32), 0, 255).astype(np.uint8)


def test_a_clean_photo_is_left_alone() -> None:
    assert white_balance(_table_with_a_card((1.0, 1.0, 1.0))) == NO_FIX
    assert white_balance(load_image(EXAMPLE)) == NO_FIX


@pytest.mark.parametrize(
    "cast", [(1.0, 0.75, 0.45), (0.7, 1.0, 0.75), (0.8, 0.85, 1.0), (0.45, 0.4, 0.35)]
)
def test_a_cast_or_dim_light_on_the_cards_is_undone(cast: tuple[float, float, float]) -> None:
    lit = _table_with_a_card(cast)
    fixed = white_balance(lit).apply(lit)
    card = fixed[45:75, 75:105].reshape(-1, 3).astype(float).mean(axis=0)
    assert card.max() - card.min() < 12  # neutral again
    assert card.min() > 200  # and bright


def test_a_fix_scales_then_inverts() -> None:
    picture = np.array([[[100, 50, 200]]], np.uint8)
    assert PixelFix(gains=(2.0, 1.0, 1.5)).apply(picture).tolist() == [[[200, 50, 255]]]
    assert PixelFix(negative=True).apply(picture).tolist() == [[[155, 205, 55]]]
    assert NO_FIX.apply(picture) is picture


def _index(paper: int, ink: int) -> np.ndarray:
    """A 20x14 index box: paper with a rank and a pip of ink covering about a third of it."""
    box = np.full((20, 14, 3), paper, np.uint8)
    box[2:10, 3:11] = ink
    box[12:18, 4:10] = ink
    return box


def test_light_ink_on_dark_paper_is_told_from_dark_ink_on_light_paper() -> None:
    from blackcat.vision.colour import light_on_dark

    picture = np.concatenate([_index(235, 30), _index(25, 200)], axis=1)
    light_face, dark_face = (0, 0, 14, 20), (14, 0, 28, 20)
    assert not light_on_dark(picture, [light_face, light_face, dark_face])
    assert light_on_dark(picture, [dark_face, dark_face, light_face])
    assert not light_on_dark(picture, [])


def test_a_deck_printed_light_on_dark_is_read_from_the_negative() -> None:
    """The example photo as a negative: black faces, light ink, as a dark-faced deck."""
    from blackcat.vision.reader import CardReader

    truth = json.loads(EXAMPLE.with_suffix(".json").read_text())
    read = CardReader.load().read(255 - load_image(EXAMPLE))
    assert [[card.card.code for card in pile] for pile in read.piles] == truth["piles"]
