"""One scene of given piles: `render_piles` and `python -m blackcat.workshop.synth.example`."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from blackcat.games.cards import parse_pile
from blackcat.workshop.synth.example import main
from blackcat.workshop.synth.scene import render_piles

PILES = ["8D 2H 8H 10S 6C AH 3D 7D", "KS 9C 4S"]


def _write(tmp_path, name: str, *extra: str) -> tuple[bytes, dict]:
    out, meta = tmp_path / f"{name}.jpg", tmp_path / f"{name}.json"
    argv = ["--piles", *PILES, "--deck", "plastic", "--imgsz", "480", "--seed", "3"]
    assert main([*argv, *extra, "--out", str(out), "--meta", str(meta)]) == 0
    return out.read_bytes(), json.loads(meta.read_text())


def test_the_given_cards_are_the_truth_in_their_rows_and_order(tmp_path, test_decks) -> None:
    _, meta = _write(tmp_path, "a")
    assert meta["piles"] == [pile.split() for pile in PILES]
    assert meta["layout"] == "rows"
    assert meta["deck"] == "plastic" and meta["split"] == "val"
    assert meta["face_down_cards"] == 0
    assert meta["image"] == "a.jpg"
    # the cards are drawn pile by pile, left to right, each on top of the one before
    laid = [
        (c["row"], c["position"], c["code"]) for c in sorted(meta["cards"], key=lambda c: c["z"])
    ]
    expected = [(r, p, code) for r, pile in enumerate(PILES) for p, code in enumerate(pile.split())]
    assert laid == expected
    # every card in the picture, every top-left index showing
    for card in meta["cards"]:
        quad = np.array(card["quad"])
        assert (quad >= 0).all() and (quad[:, 0] <= meta["width"]).all()
        assert (quad[:, 1] <= meta["height"]).all()
        top_left = [i for i in card["indices"] if i["corner"] == "top_left"]
        assert top_left and top_left[0]["labelled"] and top_left[0]["visibility"] > 0.8


def test_the_image_has_the_asked_long_side(tmp_path, test_decks) -> None:
    jpeg, meta = _write(tmp_path, "a")
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape[:2] == (meta["height"], meta["width"])
    assert max(image.shape[:2]) == 480
    assert sorted(image.shape[:2]) == [360, 480]  # 4:3


def test_the_same_seed_gives_the_same_bytes(tmp_path, test_decks) -> None:
    a, meta_a = _write(tmp_path, "a")
    b, meta_b = _write(tmp_path, "b")
    c, _ = _write(tmp_path, "c", "--seed", "4")
    assert a == b
    assert {**meta_a, "image": ""} == {**meta_b, "image": ""}
    assert a != c


def test_tilt_and_surface_are_as_asked(tmp_path, test_decks) -> None:
    _, meta = _write(tmp_path, "a", "--tilt", "-12", "--surface", "felt")
    assert meta["tilt_degrees"] == -12.0
    assert meta["surface"] == "felt"


def test_render_piles_takes_cards_or_codes(test_decks) -> None:
    codes = render_piles([["QS", "10H"], ["2C"]], deck="plastic", imgsz=200, seed=1)
    cards = render_piles(
        [parse_pile("QS 10H"), parse_pile("2C")], deck="plastic", imgsz=200, seed=1
    )
    assert codes.jpeg == cards.jpeg
    assert codes.meta["piles"] == [["QS", "10H"], ["2C"]]
    assert codes.crops == ()


@pytest.mark.parametrize(
    "piles",
    [[], [["QS"], []], [["QS", "2C"], ["qs"]], [["XX"]]],
    ids=["no piles", "empty pile", "a card twice", "not a card"],
)
def test_bad_piles_are_refused(piles, test_decks) -> None:
    with pytest.raises(ValueError):
        render_piles(piles, deck="plastic", imgsz=200, seed=1)


def test_the_cli_says_what_is_wrong(tmp_path, capsys, test_decks) -> None:
    out = str(tmp_path / "x.jpg")
    assert main(["--piles", "QS 8D", "8D", "--deck", "plastic", "--out", out]) == 2
    assert "8D" in capsys.readouterr().err
    assert main(["--piles", "QS", "--deck", "no-such-deck", "--out", out]) == 2
    assert "unknown deck" in capsys.readouterr().err
    assert main(["--piles", "QZ", "--deck", "plastic", "--out", out]) == 2
    assert "QZ" in capsys.readouterr().err
    assert not (tmp_path / "x.jpg").exists()
