"""`blackcat synth`: the command-line contract."""

from __future__ import annotations

import cv2
import pytest
import yaml

from blackcat.cli import main


def test_synth_writes_the_ultralytics_layout(tmp_path, test_decks) -> None:
    out = tmp_path / "set"
    decks = ",".join(d.name for d in test_decks)
    argv = ["synth", "--out", str(out), "--scenes", "4", "--seed", "5", "--imgsz", "320"]
    assert main([*argv, "--workers", "1", "--decks", decks]) == 0

    data = yaml.safe_load((out / "detect" / "data.yaml").read_text())
    assert data["train"] == "images/train" and data["val"] == "images/val"
    assert data["names"] == {0: "index"}
    assert (out / "detect" / data["path"]).resolve() == (out / "detect").resolve()
    for split in ("train", "val"):
        for kind in ("images", "labels", "meta"):
            assert (out / "detect" / kind / split).is_dir()
        assert len(list((out / "classify" / split).iterdir())) == 52 * 4 + 1
    images = sorted((out / "detect" / "images").rglob("*.jpg"))
    assert len(images) == 4
    for image in images:
        assert max(cv2.imread(str(image)).shape[:2]) == 320
        label = out / "detect" / "labels" / image.parent.name / f"{image.stem}.txt"
        assert label.exists()


def test_synth_into_a_set_says_it_adds_to_it(tmp_path, test_decks, capsys) -> None:
    out = tmp_path / "set"
    decks = ",".join(d.name for d in test_decks)
    argv = ["synth", "--out", str(out), "--scenes", "1", "--imgsz", "256", "--decks", decks]
    assert main([*argv, "--seed", "3", "--workers", "1"]) == 0
    assert "already holds" not in capsys.readouterr().err
    assert main([*argv, "--seed", "4", "--workers", "1"]) == 0
    said = capsys.readouterr().err
    assert f"{out} already holds 1 scene; these are written in among them" in said
    assert len(list((out / "detect" / "images").rglob("*.jpg"))) == 2


def test_synth_says_what_is_wrong_with_a_deck_name(tmp_path, capsys) -> None:
    code = main(["synth", "--out", str(tmp_path), "--scenes", "1", "--decks", "nope"])
    assert code == 2
    err = capsys.readouterr()
    assert "unknown deck 'nope'" in err.err and err.out == ""


def test_synth_draws_only_the_styles_it_is_given(tmp_path, test_decks) -> None:
    import json

    out = tmp_path / "set"
    decks = ",".join(d.name for d in test_decks)
    argv = ["synth", "--out", str(out), "--scenes", "6", "--seed", "2", "--imgsz", "256"]
    assert main([*argv, "--workers", "1", "--decks", decks, "--styles", "jumbo=1,edge=0"]) == 0
    metas = [json.loads(p.read_text()) for p in (out / "detect" / "meta").rglob("*.json")]
    assert len(metas) == 6 and {m["style"] for m in metas} == {"jumbo"}
    assert all(1.5 <= m["style_parameters"]["index_scale"] <= 2.5 for m in metas)


def test_synth_lays_the_cards_only_as_it_is_told(tmp_path, test_decks) -> None:
    import json

    out = tmp_path / "set"
    decks = ",".join(d.name for d in test_decks)
    argv = ["synth", "--out", str(out), "--scenes", "8", "--seed", "4", "--imgsz", "256"]
    argv += ["--workers", "1", "--decks", decks, "--no-crops", "--layouts", "fan=1,singles=1"]
    assert main(argv) == 0
    metas = [json.loads(p.read_text()) for p in (out / "detect" / "meta").rglob("*.json")]
    assert len(metas) == 8 and {m["layout"] for m in metas} == {"fan", "singles"}


def test_synth_says_what_is_wrong_with_a_layout(tmp_path, capsys) -> None:
    code = main(["synth", "--out", str(tmp_path), "--scenes", "1", "--layouts", "spread=1"])
    assert code == 2
    err = capsys.readouterr()
    assert "unknown layout 'spread'" in err.err and err.out == ""


def test_synth_says_what_is_wrong_with_a_style(tmp_path, capsys) -> None:
    code = main(["synth", "--out", str(tmp_path), "--scenes", "1", "--styles", "comic=1"])
    assert code == 2
    err = capsys.readouterr()
    assert "unknown style 'comic'" in err.err and err.out == ""


@pytest.mark.parametrize("option", ["--tables", "--columns", "--tilted-crops", "--val-fraction"])
def test_synth_says_which_share_is_wrong(tmp_path, capsys, option: str) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["synth", "--out", str(tmp_path), "--scenes", "1", option, "1.5"])
    assert stopped.value.code == 2
    said = capsys.readouterr()
    assert f"argument {option}: '1.5' is not a share from 0 to 1, such as 0.2" in said.err
    assert said.out == ""


@pytest.mark.parametrize(
    ("option", "value", "least"),
    [("--scenes", "0", 1), ("--seed", "-3", 0), ("--start", "x", 0), ("--imgsz", "32", 64)],
)
def test_synth_says_which_number_is_wrong(tmp_path, capsys, option: str, value: str, least: int):
    with pytest.raises(SystemExit) as stopped:
        main(["synth", "--out", str(tmp_path), option, value])
    assert stopped.value.code == 2
    said = capsys.readouterr().err
    assert f"argument {option}: '{value}' is not a whole number of {least} or more" in said


def test_synth_says_where_no_folder_can_be_made(tmp_path, capsys) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("kept")
    for out in (a_file, a_file / "set"):
        assert main(["synth", "--out", str(out), "--scenes", "1"]) == 2
        said = capsys.readouterr()
        assert said.err.startswith(f"blackcat synth: error: --out {out}: can't make the output")
        assert len(said.err.strip().splitlines()) == 1 and said.out == ""
    assert a_file.read_text() == "kept"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_synth_says_which_file_it_could_not_write(tmp_path, test_decks, capsys, workers) -> None:
    """A scene's file that can't be written (a folder in its place here; a full disk alike),
    in the main process or a worker: one line naming it, and the exit status of a command that
    failed partway, not a traceback."""
    out = tmp_path / "set"
    in_the_way = out / "detect" / "images" / "train" / "s0_000000.jpg"
    in_the_way.mkdir(parents=True)
    decks = ",".join(d.name for d in test_decks)
    argv = ["synth", "--out", str(out), "--scenes", "1", "--imgsz", "256", "--decks", decks]
    assert main([*argv, "--val-fraction", "0", "--workers", workers]) == 1
    said = capsys.readouterr()
    assert said.err.splitlines()[-1] == (
        f"blackcat synth: error: could not write {in_the_way} (Is a directory); the scenes drawn "
        "before it are kept: make room, or give another --out"
    )
    assert "Traceback" not in said.err and said.out == ""


def test_synth_refuses_more_processes_than_it_could_hold(tmp_path, capsys) -> None:
    """Each worker loads its own copy of the card art: a typo's thousand would start as many
    processes."""
    with pytest.raises(SystemExit) as stopped:
        main(["synth", "--out", str(tmp_path / "set"), "--scenes", "1", "--workers", "1000"])
    assert stopped.value.code == 2
    assert "argument --workers: '1000' is more than 256" in capsys.readouterr().err
    assert not (tmp_path / "set").exists()
