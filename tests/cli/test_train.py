import argparse
from pathlib import Path

import pytest

from blackcat.cli.train import Refused, add_arguments, settings_from
from blackcat.workshop.training import ClassifierSettings, DetectorSettings


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(argv)


def test_the_defaults_stand_where_the_command_line_sets_nothing():
    assert settings_from(parse("detector")) == DetectorSettings()
    assert settings_from(parse("classifier")) == ClassifierSettings()


def test_a_fine_tune_sets_its_learning_rate_and_warm_up():
    settings = settings_from(
        parse("classifier", "--lr0", "0.0005", "--warmup-epochs", "0", "--hours", "1.5")
    )
    assert (settings.lr0, settings.warmup_epochs, settings.hours) == (0.0005, 0.0, 1.5)
    assert settings.imgsz == ClassifierSettings().imgsz


def test_a_lent_gpu_is_chosen_with_its_loader_processes():
    settings = settings_from(parse("detector", "--device", "0", "--workers", "8"))
    assert (settings.device, settings.workers) == ("0", 8)
    assert DetectorSettings().device == "cpu"


def test_a_fine_tune_can_keep_the_backbone_as_it_is():
    from blackcat.workshop.training import _train_arguments

    settings = settings_from(parse("detector", "--freeze", "10"))
    assert settings.freeze == 10
    assert _train_arguments(settings)["freeze"] == 10
    assert _train_arguments(DetectorSettings())["freeze"] is None


def test_a_table_detector_trains_with_the_detectors_settings():
    assert settings_from(parse("table-detector")) == DetectorSettings()
    assert settings_from(parse("table-detector", "--freeze", "10")).freeze == 10


def test_a_suit_classifier_trains_as_a_classifier():
    from blackcat.cli.train import is_classifier

    assert settings_from(parse("suit-classifier")) == ClassifierSettings()
    assert is_classifier("suit-classifier") and not is_classifier("table-detector")


def test_a_table_classifier_trains_as_a_classifier():
    from blackcat.cli.train import is_classifier

    assert settings_from(parse("table-classifier")) == ClassifierSettings()
    assert is_classifier("table-classifier")


def test_a_classifier_can_learn_while_following_the_kept_ones_probabilities(tmp_path):
    from blackcat.vision.reader import CLASSIFIER_WEIGHTS, MODELS_DIR

    weights = MODELS_DIR / CLASSIFIER_WEIGHTS
    settings = settings_from(parse("classifier", "--distil-from", str(weights)))
    assert (settings.distil_from, settings.distil_weight) == (str(weights), 0.5)
    settings = settings_from(
        parse("classifier", "--distil-from", str(weights), "--distil-weight", "0.3")
    )
    assert settings.distil_weight == 0.3
    for wrong in (
        ("detector", "--distil-from", str(weights)),
        ("classifier", "--distil-from", str(tmp_path / "none.pt")),
        ("classifier", "--distil-weight", "0.3"),
        ("classifier", "--distil-from", str(weights), "--distil-weight", "1.5"),
    ):
        with pytest.raises(Refused):
            settings_from(parse(*wrong))


@pytest.mark.parametrize(
    ("model", "said"),
    [
        ("detector", "no such file; give DIR/detect/data.yaml"),
        ("classifier", "no train/ folder in it; a card classifier trains on DIR/classify"),
    ],
)
def test_missing_data_is_one_line_and_makes_nothing(tmp_path, monkeypatch, capsys, model, said):
    """Ultralytics would otherwise make runs/ and a model's yaml here, then try to download a
    dataset by that name."""
    from blackcat.cli import main
    from blackcat.workshop.ultralytics_setup import prepare_ultralytics

    prepare_ultralytics()  # its first import in a fresh settings folder says so on stderr
    capsys.readouterr()
    monkeypatch.chdir(tmp_path)
    assert main(["train", model, "--data", str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"blackcat train: error: --data {tmp_path / 'missing'}: {said} ")
    assert err.count("\n") == 1 and "from `blackcat synth`" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("model", "classes", "said"),
    [
        ("suit-classifier", ["QS-0", "QS-1", "none"], "3 of its classes are no suit-classifier's"),
        ("classifier", ["C", "D", "H", "S"], "4 of its classes are no classifier's (C, D, H, S)"),
        ("table-classifier", ["QS-0", "9X-0"], "1 of its classes are no table-classifier's (9X-0)"),
    ],
)
def test_data_of_another_kind_of_classifier_is_refused_before_training(
    tmp_path, monkeypatch, capsys, model, classes, said
):
    """A suit classifier trained on card crops, installed, broke the reader on dark faces."""
    from blackcat.cli import main

    for name in classes:
        (tmp_path / "data" / "train" / name).mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    assert main(["train", model, "--data", "data"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"blackcat train: error: --data data: {said}")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["data"]  # nothing made


def test_a_detectors_data_given_as_a_folder_is_said_to_be_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from blackcat.cli import main

    assert main(["train", "detector", "--data", str(tmp_path)]) == 2
    said = f"blackcat train: error: --data {tmp_path}: a folder, not a file; give DIR/detect/"
    assert capsys.readouterr().err.startswith(said)


@pytest.mark.parametrize("model", ["detector", "classifier"])
def test_data_with_no_scenes_held_out_is_refused_before_training(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], model: str
) -> None:
    """A set of one scene holds none out: Ultralytics ended the training in a traceback."""
    from blackcat.cli import main

    (tmp_path / "detect" / "images" / "train").mkdir(parents=True)
    (tmp_path / "detect" / "images" / "train" / "s0.jpg").write_bytes(b"")
    (tmp_path / "detect" / "data.yaml").write_text(
        "path: .\ntrain: images/train\nval: images/val\n"
    )
    (tmp_path / "classify" / "train" / "QS").mkdir(parents=True)
    (tmp_path / "classify" / "val" / "QS").mkdir(parents=True)  # a class folder, no crop in it
    data = tmp_path / ("detect/data.yaml" if model == "detector" else "classify")
    monkeypatch.chdir(tmp_path)
    assert main(["train", model, "--data", str(data)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        f"blackcat train: error: --data {data}: no scenes held out to validate on"
    )
    assert not (tmp_path / "runs").exists()


def test_a_run_of_the_same_name_is_not_overwritten(tmp_path, monkeypatch, capsys):
    from blackcat.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "data.yaml").write_text("path: .\n")
    earlier = tmp_path / "runs" / "detect" / "detector"
    (earlier / "weights").mkdir(parents=True)
    (earlier / "weights" / "last.pt").write_bytes(b"weights")
    assert main(["train", "detector", "--data", "data.yaml"]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"blackcat train: error: {earlier} holds a run already: give another --name, or "
        f"--resume {earlier / 'weights' / 'last.pt'} to go on with it where it was interrupted\n"
    )
    assert (earlier / "weights" / "last.pt").read_bytes() == b"weights"


def test_a_run_that_failed_before_its_first_weights_is_no_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It left args.yaml and an empty weights/: no last.pt to resume from, nothing to keep."""
    from blackcat.cli.train import run_problem

    monkeypatch.chdir(tmp_path)
    failed = tmp_path / "runs" / "detect" / "detector"
    (failed / "weights").mkdir(parents=True)
    (failed / "args.yaml").write_text("epochs: 1\n")
    assert run_problem("detector", "detector") is None


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--epochs", "0", "'0' is not a whole number of 1 or more"),
        ("--hours", "0", "'0' is not a number above 0"),
        ("--hours", "-1", "'-1' is not a number above 0"),
        ("--imgsz", "0", "'0' is not a whole number of 1 or more"),
        ("--batch", "x", "'x' is not a whole number of 1 or more"),
        ("--workers", "-1", "'-1' is not a whole number of 0 or more"),
        ("--lr0", "0", "'0' is not a number above 0"),
        ("--warmup-epochs", "-1", "'-1' is not a number of 0 or more"),
        ("--freeze", "-2", "'-2' is not a whole number of 0 or more"),
    ],
)
def test_a_number_out_of_range_is_refused_before_anything_is_made(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    option: str,
    value: str,
    said: str,
) -> None:
    from blackcat.cli import main

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stopped:
        main(["train", "detector", "--data", "data.yaml", f"{option}={value}"])
    assert stopped.value.code == 2
    assert f"argument {option}: {said}" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("model", "start", "said"),
    [
        ("classifier", "index_detector.pt", "these are a detector's weights, not a classifier's"),
        ("detector", "card_classifier.pt", "these are a classifier's weights, not a detector's"),
    ],
)
def test_starting_weights_of_the_other_task_are_refused(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    model: str,
    start: str,
    said: str,
) -> None:
    from blackcat.cli import main
    from blackcat.vision.reader import MODELS_DIR

    (tmp_path / "data" / "train").mkdir(parents=True)
    (tmp_path / "data.yaml").write_text("path: .\n")
    data = "data" if model == "classifier" else "data.yaml"
    monkeypatch.chdir(tmp_path)
    assert main(["train", model, "--data", data, "--start", str(MODELS_DIR / start)]) == 2
    err = capsys.readouterr().err.splitlines()[-1]
    assert err.startswith(f"blackcat train: error: --start {MODELS_DIR / start}: {said}; ")
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize(
    ("model", "weights", "kind"),
    [
        ("detector", "card_classifier.pt", "a classifier's"),
        ("classifier", "index_detector.pt", "a detector's"),
    ],
)
def test_a_run_of_the_other_task_is_not_resumed_nor_installed(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    model: str,
    weights: str,
    kind: str,
) -> None:
    # a classifier's run resumed as the detector was trained on and installed as the detector
    from blackcat.cli import main
    from blackcat.vision.reader import MODELS_DIR

    monkeypatch.chdir(tmp_path)
    resumed = MODELS_DIR / weights
    assert main(["train", model, "--resume", str(resumed), "--install"]) == 2
    err = capsys.readouterr().err.splitlines()[-1]
    said = f"these are {kind} weights, not a {model}'s: resume its own run"
    assert err == f"blackcat train: error: --resume {resumed}: {said}"
    assert list(tmp_path.iterdir()) == []


def test_a_device_this_machine_has_not_is_said_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from blackcat.cli import main

    (tmp_path / "data.yaml").write_text("path: .\n")
    monkeypatch.chdir(tmp_path)
    assert main(["train", "detector", "--data", "data.yaml", "--device", "99"]) == 2
    err = capsys.readouterr().err.splitlines()[-1]
    assert err.startswith("blackcat train: error: --device 99: this machine can't train on it (")
    assert err.endswith("leave --device out to train on the CPU")
    assert not (tmp_path / "runs").exists()


def test_missing_starting_weights_are_said_before_training(tmp_path, capsys):
    from blackcat.cli import main

    (tmp_path / "train").mkdir()
    assert main(["train", "classifier", "--data", str(tmp_path), "--start", "nope.pt"]) == 2
    assert (
        capsys.readouterr().err == "blackcat train: error: --start nope.pt: no such weights file\n"
    )


@pytest.mark.parametrize(
    ("model", "option", "said"),
    [
        ("detector", "--start", "leave --start out to train from scratch"),
        ("detector", "--resume", "resume from the interrupted run's weights/last.pt"),
        ("classifier", "--distil-from", "such as models/card_classifier.pt"),
    ],
)
@pytest.mark.parametrize("content", [b"", b"cut short"])
def test_damaged_weights_are_said_in_one_line_before_training(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    model: str,
    option: str,
    said: str,
    content: bytes,
) -> None:
    from blackcat.cli import main
    from blackcat.workshop.ultralytics_setup import prepare_ultralytics

    prepare_ultralytics()  # its first import in a fresh settings folder says so on stderr
    capsys.readouterr()
    weights = tmp_path / "weights.pt"
    weights.write_bytes(content)
    (tmp_path / "data" / "train").mkdir(parents=True)
    (tmp_path / "data.yaml").write_text("path: .\n")
    data = "data" if model == "classifier" else "data.yaml"
    monkeypatch.chdir(tmp_path)
    assert main(["train", model, "--data", data, option, str(weights)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"blackcat train: error: {option} {weights}: these weights can't be loaded (empty, cut "
        f"short or damaged); {err.rsplit('; ', 1)[-1]}"
    )
    assert err.rstrip().endswith(said) and err.count("\n") == 1
    assert not (tmp_path / "runs").exists()


def test_a_training_without_data_is_refused_as_bad_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from blackcat.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["train", "detector"]) == 2  # as every other refusal of a command line
    assert capsys.readouterr().err == (
        "blackcat train: error: --data is required (make it with `blackcat synth`)\n"
    )
