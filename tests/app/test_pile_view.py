"""The app's HTML: card strips with feature bars, feature lists, the scoreboard."""

from __future__ import annotations

import re
from dataclasses import replace

import pile_view
from pile_view import CSS

from blackcat.games.black_cat import FEATURE_KINDS, Variants, score_pile
from blackcat.games.cards import parse_card, parse_pile
from blackcat.i18n import translator
from blackcat.tables.black_cat_table import new_table, score_table
from blackcat.vision.drawing import DOUBTFUL_COLOUR, PILE_COLOURS


def lanes_of(text: str) -> list[list[tuple[str, tuple[int, ...]]]]:
    pile = score_pile(parse_pile(text))
    return [
        [(f.kind, f.positions) for f in lane] for lane in pile_view.feature_lanes(pile.features)
    ]


def test_overlapping_features_get_their_own_lanes_and_kinds_stay_apart() -> None:
    # 8 2 8: two Tomcats sharing the 2; K♠ 9♣ 4♠: two nested Black Cats
    assert lanes_of("8D 2H 8H") == [[("tomcat", (0, 1))], [("tomcat", (1, 2))]]
    assert lanes_of("KS 9C 4S") == [[("black_cat", (0, 1, 2))], [("black_cat", (1, 2))]]
    assert lanes_of("8D 2H 5C 5S 10D") == [
        [("tomcat", (0, 1)), ("tomcat", (2, 3))],
        [("yowler", (4,))],
    ]


def test_strip_numbers_cards_marks_queens_doubtful_and_duplicated() -> None:
    pile = score_pile(parse_pile("QS 2C 3H 7H"), {0: 11})
    html = pile_view.strip_html(1, pile, doubtful=[2], duplicated=[3])
    assert html.count('class="bc-card') == 4
    assert '<span class="n">2.1</span>' in html and '<span class="n">2.4</span>' in html
    assert "=11📌" in html  # the Queen's value, pinned
    assert html.count("bc-doubtful") == 1 and html.count("bc-dup") == 1
    assert 'class="r bc-black">Q<' in html and 'class="r bc-red">3<' in html
    assert "grid-column:1/3" in html  # the Black Cat under cards 1 and 2
    assert ">B6<" in html and ">T3<" in html
    assert "No cards yet" in pile_view.strip_html(0, score_pile(()))
    assert "Aún no hay cartas." in pile_view.strip_html(0, score_pile(()), tr=translator("es"))


def test_feature_letters_are_their_names_letters_in_each_language() -> None:
    pile = score_pile(parse_pile("QS 2C 3H 7H 10D"))  # a Black Cat, a Tomcat and a Yowler
    spanish = translator("es")
    assert ">N6<" in pile_view.strip_html(0, pile, tr=spanish)  # gato negro
    assert ">T3<" in pile_view.strip_html(0, pile, tr=spanish)  # gato Tom
    listed = pile_view.features_html(0, pile, tr=spanish)
    assert ">M</span>" in listed and ">Y</span>" not in listed  # maullador
    assert [pile_view.kind_letter(kind) for kind in FEATURE_KINDS] == ["T", "Y", "J", "B"]


def test_feature_list_gives_cards_numbers_and_points() -> None:
    pile = score_pile(parse_pile("5H 5D 10S"), variants=Variants(lucky_tom=True))
    html = pile_view.features_html(0, pile)
    assert "1 Tomcat = 5" in html and "(1.1–1.2)" in html and "<b>+5</b>" in html
    assert "1 Yowler = 1" in html
    assert "No Tomcat" in pile_view.features_html(0, score_pile(parse_pile("AS")))


def test_a_features_letter_is_not_said_before_its_name() -> None:
    # a screen reader said "T 1 Tomcat = 5": the letter is the bars' mark, its name follows
    html = pile_view.features_html(0, score_pile(parse_pile("5H 5D")))
    assert '<span class="bc-tag bc-tomcat" aria-hidden="true">T</span>' in html


def test_scoreboard_marks_the_winner_and_escapes_names() -> None:
    table = new_table(("Ann", "Ben"), piles=[[parse_pile("5H 5D")], [parse_pile("AS")]])
    # a name can't hold markup (`new_table` refuses it): escaped all the same, should one come
    marked = replace(table.players[0], name="<b>Ann</b>")
    table = replace(table, players=(marked, table.players[1]))
    html = pile_view.scoreboard_html(score_table(table))
    assert "🏆 &lt;b&gt;Ann&lt;/b&gt;" in html and "<b>Ann</b>" not in html
    assert html.count('class="win"') == 1
    tie = new_table(("Ann", "Ben"), piles=[[parse_pile("AS")], [parse_pile("AH")]])
    assert pile_view.scoreboard_html(score_table(tie)).count("🤝") == 2
    empty = new_table(("Ann", "Ben"))  # no cards yet: no one is tied at 0
    html = pile_view.scoreboard_html(score_table(empty))
    assert "🤝" not in html and 'class="win"' not in html


def test_strip_marks_where_a_card_may_be_missing() -> None:
    pile = score_pile(parse_pile("QS 2C 3H"))
    html = pile_view.strip_html(0, pile, gaps=[1, 3])
    assert html.count("bc-gap") == 2  # before 1.2, and after the last card
    assert 'title="1.2 · 2 of clubs: a card may be missing before it"' in html
    assert 'title="a card may be missing after the last card"' in html
    assert "repeat(4," in html  # a fourth column for the marker after the last card
    assert "bc-gap" not in pile_view.strip_html(0, pile)


def test_a_doubtful_card_on_the_table_twice_keeps_both_marks() -> None:
    card = parse_card("7H")
    html = pile_view.card_cell_html(card, "1.1", 0, duplicated=True, doubtful=True)
    assert "bc-dup" in html and "bc-doubtful" in html
    assert 'title="1.1 · 7 of hearts: on the table too often, check this card"' in html


def test_a_card_says_its_number_name_and_marks_in_the_pages_language_to_a_screen_reader() -> None:
    spanish = translator("es")
    html = pile_view.card_cell_html(parse_card("QS"), "2.3", 2, doubtful=True, tr=spanish)
    assert 'title="2.3 · Reina de picas: revisa esta carta"' in html
    # a screen reader reads what the card shows, then its words
    assert html.endswith('<span class="bc-unseen">Reina de picas: revisa esta carta</span></div>')
    assert "role=" not in html and "tabindex" not in html  # only to look at
    gaps = pile_view.strip_html(0, score_pile(parse_pile("QS 2C")), gaps=[1, 2], tr=spanish)
    assert "puede faltar una carta antes de ella" in gaps
    assert "puede faltar una carta después de la última" in gaps
    assert 'aria-label="Gato negro +6" role="img"' in gaps  # QS 2C: a Black Cat, its bar said


def test_a_card_that_answers_taps_is_a_button_the_keyboard_reaches() -> None:
    html = pile_view.card_cell_html(parse_card("KD"), "1.1", 0, tap=(41, 0), selected=True)
    assert 'role="button" tabindex="0" aria-pressed="true"' in html
    plain = pile_view.card_cell_html(parse_card("KD"), "1.1", 0, tap=(41, 0))
    assert 'aria-pressed="false"' in plain


def test_a_strip_of_a_pile_answers_taps_card_by_card_and_outlines_the_picked_one() -> None:
    score = score_pile(parse_pile("KD 2C 3C"))
    html = pile_view.strip_html(0, score, pile_id=41, selected=1)
    assert [f'data-bc-pile="41" data-bc-position="{p}"' in html for p in range(3)] == [True] * 3
    assert html.count("bc-selected") == 1
    assert html.index("bc-selected") < html.index('data-bc-position="1"')
    assert html.index("bc-selected") > html.index('data-bc-position="0"')
    plain = pile_view.strip_html(0, score)
    assert "data-bc-pile" not in plain and "bc-selected" not in plain  # a strip only to look at


def test_a_strip_is_one_stop_for_tab_its_picked_card_else_its_first() -> None:
    # every card a stop: a picked card's rank and suit were up to 14 Tabs past the strip
    score = score_pile(parse_pile("KD 2C 3C"))
    picked = pile_view.strip_html(0, score, pile_id=41, selected=1)
    assert re.findall(r'data-bc-position="(\d)" role="button" tabindex="(-?\d)"', picked) == [
        ("0", "-1"), ("1", "0"), ("2", "-1"),
    ]  # fmt: skip
    none_picked = pile_view.strip_html(0, score, pile_id=41)
    assert none_picked.count('tabindex="0"') == 1 and none_picked.count('tabindex="-1"') == 2
    assert none_picked.index('tabindex="0"') < none_picked.index('data-bc-position="1"')
    assert [pile_view.strip_tab_stop(3, picked) for picked in (None, 2, 3)] == [0, 2, 0]


def test_one_colour_means_one_thing_on_the_cards_and_on_the_photo() -> None:
    marks = [pile_view.DOUBTFUL, pile_view.TOO_OFTEN, pile_view.MISSING, pile_view.PICKED]
    features = re.findall(r"\.bc-(?:tomcat|yowler|jellical|black_cat) \{ background: (#\w+)", CSS)
    assert len(features) == 4
    assert len({*marks, *features}) == 8  # no two meanings share a colour
    assert pile_view.colour_css(DOUBTFUL_COLOUR) == pile_view.DOUBTFUL  # orange on the photo too
    piles = {pile_view.colour_css(colour) for colour in PILE_COLOURS}
    assert not piles & set(marks)  # a pile's boxes are never mistaken for a mark


def test_the_legend_explains_the_marks_shown_and_no_others() -> None:
    legend = pile_view.legend_html({"bc-doubtful", "bc-gap"})
    assert '<span class="bc-card bc-doubtful"></span>check this card' in legend
    assert '<span class="bc-card bc-gap"></span>a card may be missing here' in legend
    assert "too often" not in legend
    assert pile_view.legend_html(set()) == ""


def test_a_card_button_is_named_by_its_number_name_marks_and_note_alone() -> None:
    """Its text would read "1.1 Q ♠ =7📌 Queen of spades": the label names it once."""
    html = pile_view.card_cell_html(
        parse_card("QS"), "1.1", 0, note="=7📌", doubtful=True, tap=(5, 0)
    )
    said = "1.1 · Queen of spades: check this card (=7📌)"
    assert f'aria-label="{said}"' in html and f'title="{said}"' in html
    assert 'role="button"' in html
    plain = pile_view.card_cell_html(parse_card("QS"), "1.1", 0)  # not a button: no label
    assert "aria-label" not in plain and 'class="bc-unseen">Queen of spades<' in plain


def test_a_strip_keeps_room_for_the_lanes_asked_unseen() -> None:
    bare = score_pile(parse_pile("KD 2C 9H"))  # no feature: no lane
    kept = pile_view.strip_html(0, bare, lanes_at_least=len(FEATURE_KINDS))
    spacers = re.findall(r'aria-hidden="true" style="visibility:hidden;grid-row:(\d+)', kept)
    assert spacers == ["2", "3", "4", "5"]  # one unseen bar in each empty lane
    tomcat = score_pile(parse_pile("KD 6C 4H"))  # one lane of its own
    kept = pile_view.strip_html(0, tomcat, lanes_at_least=len(FEATURE_KINDS))
    assert re.findall(r"visibility:hidden;grid-row:(\d+)", kept) == ["3", "4", "5"]
    assert "visibility:hidden" not in pile_view.strip_html(0, tomcat)


def test_a_strip_needs_no_swipe_from_the_window_that_holds_its_cards() -> None:
    # measured in Chromium without a scrollbar: 13 cards overflow at 676 px and not at 678; 15
    # overflow at 1366. A window with a scrollbar (about 15 px) says so until 15 px wider.
    assert 680 <= (pile_view.strip_fits_from(13) or 0) <= 680 + pile_view.SCROLLBAR_PX
    assert pile_view.strip_fits_from(8) < pile_view.strip_fits_from(13)
    assert pile_view.strip_fits_from(15) is None  # the widest page swipes them too


def test_a_piles_head_is_a_heading_under_the_players_points() -> None:
    # drawn as one (bold, larger) but plain text to a screen reader: no way to jump pile to pile
    head = pile_view.pile_head_html(1, 25, PILE_COLOURS[1], 15, translator("es"))
    assert re.match(r'<div class="bc-pile-head" role="heading" aria-level="4">', head)
    assert "Pila 2" in head
