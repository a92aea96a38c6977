"""`blackcat evaluate` given a real-photo set it can't measure (its measures:
tests/workshop/test_evaluation.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from blackcat.cli import main
from blackcat.workshop.ultralytics_setup import prepare_ultralytics


@pytest.mark.parametrize(
    ("labels", "said"),
    [
        ('{"blank.png": [{"card": "QS", "box"', "labels.json is not a set's labels"),
        ('{"blank.png": [{"card": "QS"}]}', "labels.json is not a set's labels"),
        ('["blank.png"]', "labels.json is not a set's labels"),
        (
            '{"gone.png": [{"card": "QS", "box": [0, 0, 9, 9]}]}',
            "images lacks 1 of the photos labels.json names (gone.png)",
        ),
    ],
    ids=["cut-short", "a-card-without-its-box", "a-list", "a-photo-missing"],
)
def test_a_set_whose_labels_are_unusable_is_refused_in_one_line_before_measuring(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], labels: str, said: str
) -> None:
    (tmp_path / "images").mkdir()
    Image.new("RGB", (200, 150), "white").save(tmp_path / "images" / "blank.png")
    (tmp_path / "labels.json").write_text(labels)
    prepare_ultralytics()  # its first import in a fresh settings folder says so on stderr
    capsys.readouterr()
    assert main(["evaluate", "--real", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""  # nothing was measured
    assert err.startswith(f"blackcat evaluate: {tmp_path / said.split()[0]} ")
    assert said in err and err.count("\n") == 1
    assert err.endswith("; see ../shared/real-photos/README.md\n")


def test_a_real_photo_cut_short_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "images").mkdir()
    Image.new("RGB", (200, 150), "white").save(tmp_path / "whole.jpg")
    cut_short = tmp_path / "images" / "blank.jpg"
    cut_short.write_bytes((tmp_path / "whole.jpg").read_bytes()[:300])
    (tmp_path / "labels.json").write_text('{"blank.jpg": [{"card": "QS", "box": [0, 0, 9, 9]}]}')
    prepare_ultralytics()  # its first import in a fresh settings folder says so on stderr
    capsys.readouterr()
    assert main(["evaluate", "--real", str(tmp_path)]) == 1  # failed partway
    assert capsys.readouterr().err == (
        f"blackcat evaluate: {cut_short} could not be decoded: it may be cut short or damaged; "
        "take the photo again or use another JPEG, PNG, WebP or HEIC file\n"
    )
