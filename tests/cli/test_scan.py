"""`blackcat scan` through a subprocess: the JSON contract, errors, annotation."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from blackcat.cli.scan import annotation_names
from blackcat.games.cards import Card

DATA = Path(__file__).resolve().parents[1] / "vision" / "data"
SCENE_1, SCENE_2 = DATA / "scene_1.jpg", DATA / "scene_2.jpg"
SCORE_FIELDS = {"queens", "features", "counts", "points"}


def blackcat(
    *args: str | Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "blackcat", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess, Path]:
    folder = tmp_path_factory.mktemp("scan")
    not_a_photo = folder / "notes.txt"
    not_a_photo.write_text("not a photo")
    photos = (SCENE_1, not_a_photo, SCENE_2)
    result = blackcat("scan", "--json", "--annotate", folder / "drawn", *photos)
    return result, folder


def test_one_object_per_photo_and_a_failed_photo_does_not_stop_the_others(scanned) -> None:
    result, _ = scanned
    assert result.returncode == 1, result.stderr
    photos = json.loads(result.stdout)
    assert [photo["image"] for photo in photos] == [
        str(SCENE_1),
        str(Path(photos[1]["image"])),
        str(SCENE_2),
    ]
    assert "not an image" in photos[1]["error"] and "piles" not in photos[1]
    assert "Traceback" not in result.stderr


def test_each_pile_carries_cards_confidences_boxes_and_the_score_fields(scanned) -> None:
    photo = json.loads(scanned[0].stdout)[0]
    assert photo["piles"], "scene 1 holds two piles of cards"
    for pile in photo["piles"]:
        assert all(Card.parse(code).code == code for code in pile["cards"])
        assert pile.keys() >= SCORE_FIELDS
        assert len(pile["confidence"]) == len(pile["boxes"]) == len(pile["cards"])
        assert all(len(box) == 4 for box in pile["boxes"])
    assert photo["total"] == sum(pile["points"] for pile in photo["piles"])


def test_the_score_is_what_blackcat_score_gives_for_the_same_cards(scanned) -> None:
    photo = json.loads(scanned[0].stdout)[2]
    piles = [" ".join(pile["cards"]) for pile in photo["piles"]]
    # two decks: a misread card may repeat one, and `score` would refuse that with one deck
    scored = json.loads(blackcat("score", "--json", "--decks", "2", *piles).stdout)
    assert scored["total"] == photo["total"]
    for read, typed in zip(photo["piles"], scored["piles"], strict=True):
        assert {key: read[key] for key in SCORE_FIELDS} == {key: typed[key] for key in SCORE_FIELDS}


def test_annotate_writes_one_picture_per_readable_photo(scanned) -> None:
    drawn = sorted(path.name for path in (scanned[1] / "drawn").iterdir())
    assert drawn == ["scene_1.annotated.jpg", "scene_2.annotated.jpg"]


def test_the_text_report_names_piles_and_total(tmp_path: Path) -> None:
    out = tmp_path / "one.jpg"
    result = blackcat("scan", "--annotate", out, SCENE_2)
    assert result.returncode == 0, result.stderr
    assert "Pile 0:" in result.stdout and "Total:" in result.stdout
    assert out.is_file()


def test_missing_models_are_one_clear_line(tmp_path: Path) -> None:
    result = blackcat("scan", "--models", tmp_path, SCENE_1)
    assert result.returncode == 2
    assert "blackcat train" in result.stderr and "Traceback" not in result.stderr


def test_json_is_all_of_stdout_on_a_machines_first_run(tmp_path: Path) -> None:
    """A new machine (no settings folders): stdout holds the JSON alone, and the reader runs no
    Ultralytics code, which would create its settings (and its analytics) on a first run."""
    env = {**os.environ, "YOLO_CONFIG_DIR": str(tmp_path), "PYTHONIOENCODING": "utf-8"}
    result = blackcat("scan", "--json", SCENE_2, env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)[0]["image"] == str(SCENE_2)
    assert not (tmp_path / "Ultralytics").exists()


def test_annotation_names_never_collide() -> None:
    photos = [Path("a/ex.png"), Path("a/ex.heic"), Path("b/ex.png"), Path("a/other.jpg")]
    assert annotation_names(photos) == [
        "ex.png.annotated.jpg",
        "ex.heic.annotated.jpg",
        "ex.png-2.annotated.jpg",
        "other.annotated.jpg",
    ]
    assert annotation_names([Path("x/Ex.JPG"), Path("ex.jpg")]) == [
        "Ex.JPG.annotated.jpg",
        "ex.jpg-2.annotated.jpg",
    ]


def test_two_photos_of_one_stem_get_two_drawings(tmp_path: Path) -> None:
    png = tmp_path / "ex.png"
    png.write_bytes(SCENE_1.read_bytes())  # a JPEG under another name: Pillow reads by content
    jpg = tmp_path / "ex.jpg"
    jpg.write_bytes(SCENE_2.read_bytes())
    out = tmp_path / "drawn"
    result = blackcat("scan", "--json", "--annotate", out, png, jpg)
    assert result.returncode == 0, result.stderr
    drawn = sorted(path.name for path in out.iterdir())
    assert drawn == ["ex.jpg.annotated.jpg", "ex.png.annotated.jpg"]
    assert [photo["annotated"] for photo in json.loads(result.stdout)] == [
        str(out / "ex.png.annotated.jpg"),
        str(out / "ex.jpg.annotated.jpg"),
    ]
