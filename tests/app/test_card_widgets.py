"""The card corrections both games share (`card_widgets`): what a guess's chance says."""

from __future__ import annotations

import card_widgets
import language

from blackcat.i18n import translator


def test_a_guess_below_half_a_percent_says_less_than_one_percent() -> None:
    # a "6♥ 0%" button read as noise: its chance is small, not none
    assert card_widgets.chance(0.004) == card_widgets.chance(0.0) == "<1%"
    assert card_widgets.chance(0.006) == "1%"
    assert card_widgets.chance(0.3) == "30%"


def test_a_guess_chance_is_written_the_spanish_way_on_a_spanish_page() -> None:
    spanish = translator("es")
    assert card_widgets.chance(0.3, spanish) == "30\u00a0%"  # not "30%"
    assert card_widgets.chance(0.004, spanish) == "<1\u00a0%"


def test_a_widget_is_found_by_the_class_streamlit_gives_its_key() -> None:
    # Streamlit turns every character but letters, digits, _ and - into a -: a selector with
    # the key's ":" is a pseudo-class, and the script that scrolls found nothing
    assert language.key_class("change:12:es:10H") == "st-key-change-12-es-10H"
    assert language.key_class("pile-3") == "st-key-pile-3"
    assert ".st-key-change-1-en-QS" in card_widgets.key_into_view_html("change:1:en:QS", "center")


def test_a_lists_default_is_where_the_value_set_is_among_its_choices(monkeypatch) -> None:
    # the value set in Session State and the list's index agree (`field_value` says why)
    state: dict[str, object] = {}
    monkeypatch.setattr(card_widgets.st, "session_state", state)
    assert card_widgets.choice_index("deals", 5, [0, 3, 4, 5]) == 3
    assert state["deals"] == 5
    assert card_widgets.choice_index("deals", 2, [0, 3, 4, 5]) is None  # none of them: no choice
    assert state["deals"] == 2
