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


def test_places_too_small_to_read_ask_for_a_closer_photo_after_any_other_note() -> None:
    kind, text = photo_input.read_note("success", "a.jpg: 3 cards.", False, unread_places=2)
    assert kind == "warning"
    assert text.startswith("a.jpg: 3 cards. Cards may be missing: 2 places")
    kind, text = photo_input.read_note("success", "a.jpg: 3 cards.", True, unread_places=1)
    assert "looks blurred" in text and text.endswith("full resolution.") and "1 place " in text
    assert photo_input.read_note("info", "x", False, unread_places=0) == ("info", "x")


def test_piles_of_a_grid_ask_for_a_look_after_any_other_note() -> None:
    kind, text = photo_input.read_note("success", "a.jpg: 6 cards.", False, grid=True)
    assert kind == "warning"
    assert text.startswith("a.jpg: 6 cards. Some piles lie in a grid of cards")
    kind, text = photo_input.read_note("success", "a.jpg: 6 cards.", True, 1, grid=True)
    assert "looks blurred" in text and "1 place " in text and text.endswith("photo again.")
    assert photo_input.read_note("info", "x", False, 0, grid=False) == ("info", "x")
