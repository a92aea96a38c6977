"""`blackcat evaluate` and `blackcat calibrate` on a folder of scenes whose records are cut short
(a full disk) or damaged: one line naming the file and what to do, not a JSON traceback; a
folder's record of how its scenes were drawn is checked before any work (2), a scene's own
record when it is read (1: failed partway)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from blackcat.cli import main
from blackcat.vision.reader import MODELS_DIR
from blackcat.workshop.ultralytics_setup import prepare_ultralytics

CUT_SHORT = '{"image": "k00000.jpg", "pi'


def kitty_folder(folder: Path, seed: int, record: str) -> Path:
    """A folder of one kitty scene drawn with the defaults and `seed`, its record `record`."""
    folder.mkdir()
    drawn_with = {
        "scenes": "kitty",
        "seed": seed,
        "hard": False,
        "small": False,
        "faults": False,
        "style": None,
        "pushed": False,
        "angled": False,
    }
    (folder / "drawn_with.json").write_text(json.dumps(drawn_with))
    (folder / "k00000.json").write_text(record)
    return folder


@pytest.fixture
def quiet_ultralytics(capsys: pytest.CaptureFixture[str]) -> None:
    prepare_ultralytics()  # its first import in a fresh settings folder says so on stderr
    capsys.readouterr()


@pytest.mark.usefixtures("quiet_ultralytics")
@pytest.mark.parametrize("record", [CUT_SHORT, "[1, 2]", "\udcff"])
def test_a_synthetic_scene_whose_record_is_damaged_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], record: str
) -> None:
    val = tmp_path / "detect" / "meta" / "val"
    val.mkdir(parents=True)
    (val / "000000.json").write_bytes(record.encode("utf-8", "surrogateescape"))
    assert main(["evaluate", "--synthetic", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        f"blackcat evaluate: {val / '000000.json'}: a scene's record can't be read (cut short "
        "or damaged); remove it and its picture (a --kitty or --table folder draws them again), "
        "or give another folder\n"
    )


@pytest.mark.usefixtures("quiet_ultralytics")
def test_a_folders_damaged_record_of_its_scenes_is_refused_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = kitty_folder(tmp_path / "kitty", 8, "{}")
    (folder / "drawn_with.json").write_text('{"scenes": "ki')
    assert main(["evaluate", "--kitty", str(folder), "--kitty-scenes", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"blackcat evaluate: {folder / 'drawn_with.json'} can't be read (cut short or damaged): "
        "give a new folder for these scenes\n"
    )


@pytest.mark.usefixtures("quiet_ultralytics", "card_art")
@pytest.mark.parametrize(("command", "seed"), [("evaluate", 8), ("calibrate", 9)])
def test_a_kitty_scene_whose_record_is_damaged_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, seed: int
) -> None:
    folder = kitty_folder(tmp_path / "kitty", seed, CUT_SHORT)
    scenes = "--kitty-scenes" if command == "evaluate" else "--scenes"
    models = tmp_path / "models"  # calibrate writes its fit here: it must write none
    models.mkdir()
    for bundled in MODELS_DIR.iterdir():
        (models / bundled.name).symlink_to(bundled)
    assert main([command, "--kitty", str(folder), scenes, "1", "--models", str(models)]) == 1
    err = capsys.readouterr().err
    assert err == (
        f"blackcat {command}: {folder / 'k00000.json'}: a scene's record can't be read (cut "
        "short or damaged); remove it and its picture (a --kitty or --table folder draws them "
        "again), or give another folder\n"
    )
    assert all(path.is_symlink() for path in models.iterdir())  # no fit written


def picture_cut_short(path: Path) -> Path:
    """A JPEG at `path` cut short (a copy or a disk that filled up partway)."""
    from io import BytesIO

    from PIL import Image

    jpeg = BytesIO()
    Image.new("RGB", (640, 480), "green").save(jpeg, "JPEG")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(jpeg.getvalue()[:300])
    return path


@pytest.mark.usefixtures("quiet_ultralytics")
@pytest.mark.parametrize("cut_short", [False, True], ids=["missing", "cut-short"])
def test_a_synthetic_scene_whose_picture_cant_be_read_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cut_short: bool
) -> None:
    val = tmp_path / "detect" / "meta" / "val"
    val.mkdir(parents=True)
    record = {"image": "images/val/000000.jpg", "piles": [["QS"]], "layout": "rows"}
    (val / "000000.json").write_text(json.dumps(record))
    picture = tmp_path / "detect" / "images" / "val" / "000000.jpg"
    if cut_short:
        picture_cut_short(picture)
    assert main(["evaluate", "--synthetic", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        f"blackcat evaluate: {picture}: a scene's picture can't be read (missing, cut short or "
        "damaged); remove it and its record (a --kitty or --table folder draws them again), or "
        "give another folder\n"
    )


@pytest.mark.usefixtures("quiet_ultralytics", "card_art")
def test_a_kitty_scene_whose_picture_is_cut_short_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = kitty_folder(tmp_path / "kitty", 8, '{"image": "k00000.jpg"}')
    picture = picture_cut_short(folder / "k00000.jpg")
    assert main(["evaluate", "--kitty", str(folder), "--kitty-scenes", "1"]) == 1
    assert capsys.readouterr().err == (
        f"blackcat evaluate: {picture}: a scene's picture can't be read (missing, cut short or "
        "damaged); remove it and its record (a --kitty or --table folder draws them again), or "
        "give another folder\n"
    )


@pytest.mark.usefixtures("quiet_ultralytics", "card_art")
@pytest.mark.parametrize(
    ("command", "option", "scenes", "name"),
    [
        ("evaluate", "--kitty", "--kitty-scenes", "k00000.jpg"),
        ("evaluate", "--table", "--table-scenes", "t00000.jpg"),
        ("calibrate", "--kitty", "--scenes", "k00000.jpg"),
        ("calibrate", "--table", "--scenes", "t00000.jpg"),
    ],
)
def test_a_scene_that_cant_be_drawn_is_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: str,
    option: str,
    scenes: str,
    name: str,
) -> None:
    """A scene's picture that can't be written (a folder in its place; a full disk alike)."""
    in_the_way = tmp_path / "scenes" / name
    in_the_way.mkdir(parents=True)
    models = tmp_path / "models"  # calibrate writes its fit here: it must write none
    models.mkdir()
    for bundled in MODELS_DIR.iterdir():
        (models / bundled.name).symlink_to(bundled)
    argv = [command, option, str(in_the_way.parent), scenes, "1", "--models", str(models)]
    assert main(argv) == 1
    assert capsys.readouterr().err == (
        f"blackcat {command}: could not write or read {in_the_way} (Is a directory): make room, "
        "or give another folder for the scenes\n"
    )
    assert all(path.is_symlink() for path in models.iterdir())  # no fit written
