"""`blackcat calibrate`: a whole table's doubt threshold is chosen on whole-table scenes, apart
from the one-player calibration."""

from __future__ import annotations

import itertools
import json
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from blackcat.cli import main
from blackcat.cli.calibrate import MAX_TABLE_FLAGGED
from blackcat.vision.calibration import (
    CALIBRATION_FILE,
    SILENT_COST,
    TABLE_CALIBRATION_FILE,
    choose_threshold_flagging_at_most,
    fit,
    load_calibration,
)
from blackcat.vision.reader import MODELS_DIR
from blackcat.workshop import evaluation


def models_copy(tmp_path: Path) -> Path:
    models = tmp_path / "models"
    models.mkdir()
    for path in [*MODELS_DIR.glob("*.onnx"), MODELS_DIR / CALIBRATION_FILE]:
        shutil.copy2(path, models / path.name)
    return models


@pytest.mark.usefixtures("card_art")
def test_table_scenes_choose_the_tables_doubt_threshold_and_leave_the_players(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    models = models_copy(tmp_path)
    one_player = (models / CALIBRATION_FILE).read_text()
    argv = ["calibrate", "--models", str(models), "--table", str(tmp_path / "t"), "--scenes", "2"]
    measured, reports = evaluation.evaluate_table, []

    # two scenes this reader reads without a fault: two misreads for the fit to learn from
    def measuring_two_misreads(*args: Any, **kwargs: Any) -> Any:
        reports.append(measured(*args, **kwargs))
        reports[-1].rights[:2] = [False, False]
        return reports[-1]

    monkeypatch.setattr(evaluation, "evaluate_table", measuring_two_misreads)
    assert main(argv) == 0
    chosen = json.loads((models / TABLE_CALIBRATION_FILE).read_text())
    # the threshold the defaults choose on these scenes' reads (at most 1 wrong in 100 unflagged)
    expected = choose_threshold_flagging_at_most(
        reports[0].probabilities, reports[0].rights, MAX_TABLE_FLAGGED, 1.0, SILENT_COST
    )
    assert chosen == {"doubtful_below": round(expected.doubtful_below, 4)}
    assert (models / CALIBRATION_FILE).read_text() == one_player
    assert len(list((tmp_path / "t").glob("t*.json"))) == 2
    assert f"wrote {models / TABLE_CALIBRATION_FILE}" in capsys.readouterr().out


def test_camera_faults_are_kitty_scenes_and_not_for_a_table(tmp_path: Path, capsys) -> None:
    for option in ("--table", "--four-index"):
        argv = ["calibrate", option, str(tmp_path / "t"), "--faults", "10"]
        assert main(argv) == 2
        assert "--faults" in capsys.readouterr().err
        assert not (tmp_path / "t").exists()


def misreading_a_framed_card(monkeypatch: pytest.MonkeyPatch) -> None:
    """evaluate_kitty with the first card seen at three of its corners read wrong."""
    measured = evaluation.evaluate_kitty

    def misreading(*args: Any, **kwargs: Any) -> Any:
        report = measured(*args, **kwargs)
        framed = next(n for n, evidence in enumerate(report.evidence) if evidence.framed)
        report.rights[framed] = False
        return report

    monkeypatch.setattr(evaluation, "evaluate_kitty", misreading)


@pytest.mark.usefixtures("card_art")
def test_four_index_scenes_fit_the_framed_weight_and_keep_the_rest(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    models = models_copy(tmp_path)
    kept = load_calibration(models)
    scenes = tmp_path / "four"
    argv = ["calibrate", "--models", str(models), "--four-index", str(scenes), "--scenes", "2"]
    misreading_a_framed_card(monkeypatch)
    assert main(argv) == 0
    fitted = load_calibration(models)
    assert fitted.weights[:-1] == kept.weights[:-1]
    assert replace(fitted, weights=kept.weights) == kept
    metas = [json.loads(path.read_text()) for path in scenes.glob("k*.json")]
    assert len(metas) == 2 and {meta["style"] for meta in metas} <= {"four_index", "dark_face"}
    assert "cards seen at three of their corners" in capsys.readouterr().out


@pytest.mark.usefixtures("card_art")
def test_scattered_scenes_fit_the_agreement_weights_and_keep_the_rest(
    tmp_path: Path, capsys
) -> None:
    models = models_copy(tmp_path)
    kept = load_calibration(models)
    scenes = tmp_path / "scattered"
    argv = ["calibrate", "--models", str(models), "--agreement", str(scenes), "--scenes", "3"]
    assert main(argv) == 0
    fitted = load_calibration(models)
    assert len(fitted.agreement) == 3
    assert replace(fitted, agreement=()) == replace(kept, agreement=())
    assert len(list((scenes / "detect" / "meta" / "val").glob("*.json"))) == 3
    out = capsys.readouterr().out
    assert "cards read several ways in 3 scenes" in out and "with agreement" in out


@pytest.mark.usefixtures("card_art")
def test_the_agreement_and_a_tables_threshold_are_fitted_one_at_a_time(
    tmp_path: Path, capsys
) -> None:
    folders = [str(tmp_path / name) for name in ("t", "a", "f")]
    for first, second in itertools.combinations(["--table", "--agreement", "--four-index"], 2):
        assert main(["calibrate", first, folders[0], second, folders[1]]) == 2
        assert "fit different things: give one" in capsys.readouterr().err
    assert not any(Path(folder).exists() for folder in folders)


@pytest.mark.usefixtures("card_art")
def test_kitty_scenes_refit_the_probabilities_and_keep_the_agreement_weights(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    models = models_copy(tmp_path)
    calibration = json.loads((models / CALIBRATION_FILE).read_text())
    calibration["agreement"] = [-0.1, 0.9, 1.4]
    (models / CALIBRATION_FILE).write_text(json.dumps(calibration))
    argv = ["calibrate", "--models", str(models), "--kitty", str(tmp_path / "k"), "--scenes", "2"]
    measured = evaluation.evaluate_kitty

    reports = []

    def with_two_misreads(*args, **kwargs):  # two scenes this reader reads without a fault
        report = measured(*args, **kwargs)
        report.rights[:2] = [False, False]
        reports.append(report)
        return report

    monkeypatch.setattr(evaluation, "evaluate_kitty", with_two_misreads)
    assert main(argv) == 0
    written = json.loads((models / CALIBRATION_FILE).read_text())
    assert written["agreement"] == [-0.1, 0.9, 1.4]
    # the probabilities fitted on these scenes' reads, as `fit` fits them, are what was written
    fitted = fit(reports[0].evidence, reports[0].rights).to_json()
    assert {key: written[key] for key in ("weights", "raw", "probability")} == {
        key: fitted[key] for key in ("weights", "raw", "probability")
    }
    assert written["weights"] != calibration["weights"]
    out = capsys.readouterr().out
    assert f"chose doubtful below {written['doubtful_below']:.3f}" in out
    assert "--agreement" in out


@pytest.mark.usefixtures("card_art")
def test_scenes_read_without_a_fault_fit_nothing(tmp_path: Path, capsys) -> None:
    """No misread to fit on: the threshold would flag nothing, ever."""
    models = models_copy(tmp_path)
    before = (models / CALIBRATION_FILE).read_text()
    argv = ["calibrate", "--models", str(models), "--kitty", str(tmp_path / "k"), "--scenes", "2"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("blackcat calibrate: none of the ")
    assert err.endswith(
        "cards read was wrong: a doubt threshold is fitted on where the reader "
        "errs; measure more scenes (--scenes) or harder ones (--faults N). "
        "Nothing written.\n"
    )
    assert (models / CALIBRATION_FILE).read_text() == before


@pytest.mark.usefixtures("card_art")
@pytest.mark.parametrize(
    ("option", "fitted"),
    [
        ("--table", "a whole table's doubt threshold is"),
        ("--agreement", "the agreement weights are"),
    ],
)
def test_a_table_or_agreement_fit_without_a_misread_writes_nothing(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch, option: str, fitted: str
) -> None:
    models = models_copy(tmp_path)
    before = {path.name: path.read_bytes() for path in models.iterdir()}
    measured = evaluation.judged_scene_cards, evaluation.evaluate_table

    def judged_right(*args: Any, **kwargs: Any) -> Any:
        return [(card, True) for card, _ in measured[0](*args, **kwargs)]

    def all_right(*args: Any, **kwargs: Any) -> Any:
        report = measured[1](*args, **kwargs)
        report.rights[:] = [True] * len(report.rights)
        return report

    monkeypatch.setattr(evaluation, "judged_scene_cards", judged_right)
    monkeypatch.setattr(evaluation, "evaluate_table", all_right)
    argv = ["calibrate", "--models", str(models), option, str(tmp_path / "s"), "--scenes", "2"]
    assert main(argv) == 2
    err = capsys.readouterr().err.splitlines(keepends=True)[-1]
    assert err.startswith("blackcat calibrate: none of the ")
    assert err.endswith(
        f"was wrong: {fitted} fitted on where the reader errs; measure more scenes "
        "(--scenes). Nothing written.\n"
    )
    assert {path.name: path.read_bytes() for path in models.iterdir()} == before


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--scenes", "0", "'0' is not a whole number of 1 or more"),
        ("--scenes", "-1", "'-1' is not a whole number of 1 or more"),
        ("--max-wrong", "-5", "'-5' is not a number from 0 to 100"),
        ("--max-flagged", "2", "'2' is not a share from 0 to 1"),
        ("--silent-cost", "0", "'0' is not a number from 1 to 1000"),
        ("--faults", "x", "'x' is not a whole number of 0 or more"),
    ],
)
def test_a_number_out_of_range_is_refused_before_anything_is_read(
    tmp_path: Path, capsys, option: str, value: str, said: str
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["calibrate", "--kitty", str(tmp_path / "k"), option, value])
    assert stopped.value.code == 2
    assert f"argument {option}: {said}" in capsys.readouterr().err
    assert not (tmp_path / "k").exists()


def test_missing_models_a_file_for_a_folder_and_no_scenes_are_said_plainly(
    tmp_path: Path, capsys
) -> None:
    assert main(["calibrate", "--models", str(tmp_path / "none")]) == 2
    assert "trained models not found" in capsys.readouterr().err
    a_file = tmp_path / "scenes.txt"
    a_file.write_text("not a folder")
    for option in ("--agreement", "--table", "--four-index"):
        assert main(["calibrate", option, str(a_file)]) == 2
        assert "is a file: give a folder" in capsys.readouterr().err
    empty = tmp_path / "empty"
    (empty / "detect" / "meta" / "val").mkdir(parents=True)
    assert main(["calibrate", "--agreement", str(empty)]) == 2
    assert "no scenes in" in capsys.readouterr().err
