"""The notes every game's page shows on a photo just read (`app/photo_input.py`)."""

from __future__ import annotations

import photo_input


def test_a_blurred_unsure_photo_turns_its_note_into_a_warning_asking_for_a_sharper_one() -> None:
    kind, text = photo_input.read_note("success", "a.jpg: 12 cards.", wants_sharper_photo=True)
    assert kind == "warning"
    assert text.startswith("a.jpg: 12 cards. The photo looks blurred")


def test_a_warning_stays_a_warning_and_a_sharp_photos_note_is_kept() -> None:
    assert photo_input.read_note("warning", "x", wants_sharper_photo=True)[0] == "warning"
    assert photo_input.read_note("success", "a.jpg: 12 cards.", wants_sharper_photo=False) == (
        "success",
        "a.jpg: 12 cards.",
    )
