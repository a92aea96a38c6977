"""Files written into a models folder whole or not at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from blackcat.workshop.files import copy_atomically, replacing, write_text_atomically


def test_a_write_cut_off_midway_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "calibration.json"
    path.write_text("kept")
    with pytest.raises(KeyboardInterrupt), replacing(path) as temporary:
        temporary.write_text("half")
        raise KeyboardInterrupt
    assert path.read_text() == "kept"
    assert [file.name for file in tmp_path.iterdir()] == ["calibration.json"]


def test_a_finished_write_replaces_the_file(tmp_path: Path) -> None:
    path = tmp_path / "calibration.json"
    path.write_text("old")
    write_text_atomically(path, "new")
    copy_atomically(path, tmp_path / "copy.json")
    assert path.read_text() == (tmp_path / "copy.json").read_text() == "new"
    assert sorted(file.name for file in tmp_path.iterdir()) == ["calibration.json", "copy.json"]
