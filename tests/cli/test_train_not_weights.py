"""`blackcat train` given a file that is no weights file (its name not ending .pt) to start,
resume or distil from: refused in one line, before Ultralytics takes it for a model of another
format (it loaded a text file as a detector's, with a warning, and trained on)."""

from __future__ import annotations

from pathlib import Path

import pytest

from blackcat.cli import main
from blackcat.vision.reader import CLASSIFIER_WEIGHTS, MODELS_DIR
from blackcat.workshop.ultralytics_setup import prepare_ultralytics


def not_weights(folder: Path, name: str) -> Path:
    """A file named `name` in `folder`: notes, a model's configuration, or real weights whose
    name has lost its .pt."""
    path = folder / name
    if name == "best":
        path.symlink_to(MODELS_DIR / CLASSIFIER_WEIGHTS)
    else:
        path.write_text("nc: 1\n" if name.endswith(".yaml") else "notes\n")
    return path


@pytest.mark.parametrize("name", ["notes.txt", "scenes.yaml", "best"])
@pytest.mark.parametrize(
    ("model", "option"),
    [
        ("detector", "--start"),
        ("classifier", "--start"),
        ("classifier", "--resume"),
        ("classifier", "--distil-from"),
    ],
)
def test_a_file_that_is_no_weights_file_is_refused_in_one_line_before_training(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    model: str,
    option: str,
) -> None:
    prepare_ultralytics()  # its first import in a fresh settings folder says so on stderr
    capsys.readouterr()
    weights = not_weights(tmp_path, name)
    monkeypatch.chdir(tmp_path)
    assert main(["train", model, "--data", "none", option, str(weights)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(
        f"blackcat train: error: {option} {weights}: not a weights file (the name of one ends "
        ".pt); "
    )
    assert err.count("\n") == 1
    assert not (tmp_path / "runs").exists()
