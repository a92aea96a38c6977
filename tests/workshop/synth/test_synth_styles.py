"""Card styles: each keeps the index boxes right for the styled art, changes nothing else, and
held-out styles never reach training scenes."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from blackcat.games.cards import card_from_code
from blackcat.workshop.synth.cardart import render_deck
from blackcat.workshop.synth.decks import Corner
from blackcat.workshop.synth.indices import IndexBox, deck_indices
from blackcat.workshop.synth.styles import (
    DEFAULT_STYLE_WEIGHTS,
    HELD_OUT,
    KITTY_STYLE_WEIGHTS,
    STYLES,
    SUIT_SHAPE_FONTS,
    CardStyle,
    draw_style,
    index_glyph,
    mark_box,
    mark_glyph,
    parse_style_weights,
    style_card,
    styled_boxes,
)

CODES = ("10D", "5C", "QD", "KC", "7H", "AS", "3S", "9H")


@pytest.fixture(scope="module")
def anglo_cards(test_decks):
    deck = next(d for d in test_decks if d.name == "anglo")
    rendered, found = render_deck(deck), deck_indices(deck)
    out = []
    for code in CODES:
        card = card_from_code(code)
        art = cv2.imread(str(rendered.card_path(card)), cv2.IMREAD_UNCHANGED)
        boxes = tuple(b for b in found[card].boxes if b.corner in deck.corners)
        out.append((card, art, boxes))
    return out


def _ink(art: np.ndarray) -> np.ndarray:
    """Pixels far from white paper (as indices.py finds ink)."""
    return (np.abs(art[:, :, :3].astype(np.int16) - 250).max(axis=2) > 60) & (art[:, :, 3] > 128)


def _grow(box, m, w, h):
    return (max(0, box[0] - m), max(0, box[1] - m), min(w, box[2] + m), min(h, box[3] + m))


def _ink_bbox_near(ink: np.ndarray, box, m: int):
    h, w = ink.shape
    x0, y0, x1, y1 = _grow(box, m, w, h)
    ys, xs = np.nonzero(ink[y0:y1, x0:x1])
    return (x0 + xs.min(), y0 + ys.min(), x0 + xs.max() + 1, y0 + ys.max() + 1)


@pytest.mark.parametrize("name", [n for n in STYLES if n != "four_colour"])
def test_every_style_keeps_each_index_box_tight_round_its_ink(anglo_cards, name) -> None:
    style = STYLES[name](np.random.default_rng(5))
    for card, art, boxes in anglo_cards:
        if card.rank.is_face and style.face_scale != 1.0:
            continue  # the court art's frame lies next to the index once the face is scaled
        styled = style_card(style, art, card, boxes)
        ink = _ink(styled.art)
        for index in styled.boxes:
            found = _ink_bbox_near(ink, index.box, 3)
            assert np.all(np.abs(np.array(found) - index.box) <= 3), (name, card, index, found)


@pytest.mark.parametrize("name", list(STYLES))
def test_the_cheap_boxes_are_those_of_the_styled_art(anglo_cards, name) -> None:
    style = STYLES[name](np.random.default_rng(11))
    for card, art, boxes in anglo_cards:
        h, w = art.shape[:2]
        assert styled_boxes(style, card, boxes, w, h) == style_card(style, art, card, boxes).boxes


def test_jumbo_scales_the_index_at_its_corner_and_changes_nothing_else(anglo_cards) -> None:
    style = CardStyle("jumbo", index_scale=2.0)
    for card, art, boxes in anglo_cards:
        styled = style_card(style, art, card, boxes)
        h, w = art.shape[:2]
        changed = np.any(styled.art != art, axis=2)
        allowed = np.zeros_like(changed)
        for old, new in zip(boxes, styled.boxes, strict=True):
            assert new.corner is old.corner
            ow, oh = old.box[2] - old.box[0], old.box[3] - old.box[1]
            nw, nh = new.box[2] - new.box[0], new.box[3] - new.box[1]
            assert abs(nw - 2 * ow) <= 1 and abs(nh - 2 * oh) <= 1
            if old.corner is Corner.TOP_LEFT:  # anchored at its corner
                assert new.box[:2] == old.box[:2]
            else:
                assert new.box[2:] == old.box[2:]
            for box, m in ((old.box, 3), (new.box, 8)):
                x0, y0, x1, y1 = _grow(box, m, w, h)
                allowed[y0:y1, x0:x1] = True
        assert changed.any()
        assert not (changed & ~allowed).any(), card


def _hue_counts(art: np.ndarray) -> dict[str, int]:
    hsv = cv2.cvtColor(art[:, :, :3], cv2.COLOR_BGR2HSV)
    hue, sat, val = hsv[:, :, 0], hsv[:, :, 1], hsv[:, :, 2]
    opaque = np.zeros(art.shape[:2], bool)  # the face, inside the card's printed outline
    edge = round(0.04 * art.shape[1])
    opaque[edge:-edge, edge:-edge] = art[edge:-edge, edge:-edge, 3] > 128
    coloured = (sat > 120) & (val > 60) & opaque
    return {
        "red": int((coloured & ((hue < 10) | (hue > 170))).sum()),
        "blue": int((coloured & (hue > 100) & (hue < 130)).sum()),
        "green": int((coloured & (hue > 45) & (hue < 80)).sum()),
        "black": int(((val < 60) & (sat < 60) & opaque).sum()),
    }


def test_four_colour_turns_diamonds_blue_and_clubs_green_only(anglo_cards) -> None:
    style = STYLES["four_colour"](np.random.default_rng(0))
    for card, art, boxes in anglo_cards:
        styled = style_card(style, art, card, boxes)
        assert styled.boxes == boxes
        before, after = _hue_counts(art), _hue_counts(styled.art)
        if card.code == "10D":
            assert before["red"] > 1000 and after["red"] < 0.02 * before["red"]
            assert after["blue"] > 0.9 * before["red"]
        elif card.code == "5C":
            assert before["black"] > 1000 and after["black"] < 0.05 * before["black"]
            assert after["green"] > 0.5 * before["black"]
        elif card.rank.is_face:  # courts: the index changes colour, the art keeps its own
            changed = np.any(styled.art != art, axis=2)
            assert changed.any()
            h, w = art.shape[:2]
            allowed = np.zeros_like(changed)
            for index in boxes:
                x0, y0, x1, y1 = _grow(index.box, 8, w, h)
                allowed[y0:y1, x0:x1] = True
            assert not (changed & ~allowed).any()
        else:  # hearts stay red, spades black
            assert np.array_equal(styled.art, art)


def test_font_style_redraws_the_index_where_the_old_one_was(anglo_cards) -> None:
    style = CardStyle("font_sans", font="DejaVuSans-Bold.ttf", font_height=1.2)
    for card, art, boxes in anglo_cards:
        styled = style_card(style, art, card, boxes)
        ink = _ink(styled.art)
        for old, new in zip(boxes, styled.boxes, strict=True):
            assert abs((new.box[3] - new.box[1]) - 1.2 * (old.box[3] - old.box[1])) <= 3
            inside = np.zeros_like(ink)
            inside[new.box[1] : new.box[3], new.box[0] : new.box[2]] = True
            x0, y0, x1, y1 = old.box
            assert not (ink[y0:y1, x0:x1] & ~inside[y0:y1, x0:x1]).any()  # old ink gone


def test_a_redrawn_bottom_index_is_upside_down_unless_the_deck_prints_it_upright(
    anglo_cards,
) -> None:
    card, art, boxes = anglo_cards[4]  # 7H: a top-heavy rank above a suit
    style = CardStyle("font_sans", font="DejaVuSans-Bold.ttf")

    def ink_rows(styled, corner):
        box = next(b for b in styled.boxes if b.corner is corner).box
        rows = _ink(styled.art)[box[1] : box[3], box[0] : box[2]].sum(axis=1)
        return rows / rows.sum()

    turned = style_card(style, art, card, boxes, upright_bottom=False)
    upright = style_card(style, art, card, boxes, upright_bottom=True)
    top = ink_rows(turned, Corner.TOP_LEFT)
    n = len(top)
    assert np.allclose(ink_rows(upright, Corner.BOTTOM_RIGHT)[:n], top, atol=0.03)
    assert np.allclose(ink_rows(turned, Corner.BOTTOM_RIGHT)[::-1][:n], top, atol=0.03)


def test_inset_and_edge_move_the_index_away_from_and_towards_its_corner(anglo_cards) -> None:
    card, art, boxes = anglo_cards[0]
    top_left = next(b for b in boxes if b.corner is Corner.TOP_LEFT).box
    inset = style_card(CardStyle("inset", index_margin=2.0), art, card, boxes).boxes[0].box
    edge = style_card(CardStyle("edge", index_margin=0.4), art, card, boxes).boxes[0].box
    assert inset[0] > top_left[0] and inset[1] > top_left[1]
    assert edge[0] < top_left[0] and edge[1] < top_left[1]


def test_margin_styles_scale_the_face_about_the_centre(anglo_cards) -> None:
    card, art, boxes = anglo_cards[1]
    h, w = art.shape[:2]
    wide = style_card(CardStyle("wide_margin", face_scale=0.85), art, card, boxes)
    tight = style_card(CardStyle("tight_margin", face_scale=1.15), art, card, boxes)
    for old, a, b in zip(boxes, wide.boxes, tight.boxes, strict=True):
        assert abs(a.box[0] - (w / 2 + 0.85 * (old.box[0] - w / 2))) <= 1
        assert abs(a.box[3] - (h / 2 + 0.85 * (old.box[3] - h / 2))) <= 1
        # tight: towards the edge, but never so far that the index leaves the card
        if b.corner is Corner.TOP_LEFT:
            assert 0 < b.box[0] < old.box[0] and 0 < b.box[1] < old.box[1]
        assert b.box[0] >= 0 and b.box[1] >= 0 and b.box[2] <= w and b.box[3] <= h
        assert b.box[2] - b.box[0] > old.box[2] - old.box[0]
    assert np.array_equal(wide.art[:, :, 3], art[:, :, 3])  # the card's outline stays
    assert np.array_equal(tight.art[:, :, 3], art[:, :, 3])


@pytest.mark.parametrize("font", SUIT_SHAPE_FONTS)
def test_suit_weight_grows_or_thins_the_suit_and_a_club_stays_no_spade(font) -> None:
    def glyph(code: str, weight: float) -> np.ndarray:
        return index_glyph(card_from_code(code), "DejaVuSans-Bold.ttf", 80, font, weight)

    for code in ("5C", "5S", "5H", "5D"):
        thin, plain, fat = glyph(code, -0.03), glyph(code, 0.0), glyph(code, 0.07)
        assert thin.sum() < plain.sum() < fat.sum()  # the ink of the suit changes ...
        assert fat.shape[0] > plain.shape[0] > thin.shape[0]  # ... and its height with it
    # a club and a spade stay different shapes, whatever their weight
    for weight in (-0.03, 0.0, 0.07):
        club, spade = glyph("5C", weight), glyph("5S", weight)
        if club.shape == spade.shape:
            suit_rows = slice(club.shape[0] * 6 // 10, None)  # below the rank
            differ = np.abs(club[suit_rows] - spade[suit_rows]).sum()
            assert differ > 0.07 * club[suit_rows].sum()


@pytest.mark.parametrize("place", ["bottom_left", "bottom", "left"])
def test_a_makers_mark_is_printed_away_from_the_indices_and_boxed_as_none(
    anglo_cards, place
) -> None:
    style = CardStyle("printed_marks", mark="KDE", mark_height=0.5, mark_place=place)
    for card, art, boxes in anglo_cards:
        styled = style_card(style, art, card, boxes)
        assert styled.boxes == boxes  # the mark is no index
        changed = np.abs(styled.art.astype(np.int16) - art.astype(np.int16)).max(axis=2) > 0
        glyph = mark_glyph(style, boxes)
        box = mark_box(style, boxes, glyph, art.shape[1], art.shape[0])
        if not card.rank.is_face:
            assert not changed.any()  # on the court cards alone
            continue
        assert box is not None
        x0, y0, x1, y1 = box
        inside = changed[y0:y1, x0:x1].sum()
        assert inside > 0 and inside == changed.sum()  # printed in its box, nowhere else
        assert (x1 - x0 > y1 - y0) == (place == "bottom")  # it runs along its edge
        for index in boxes:
            ix0, iy0, ix1, iy1 = index.box
            assert not changed[iy0:iy1, ix0:ix1].any()


def test_no_mark_is_printed_over_an_index() -> None:
    style = CardStyle("printed_marks", mark="NO9", mark_height=0.5, mark_place="bottom_left")
    glyph = mark_glyph(style, (IndexBox(Corner.TOP_LEFT, (10, 10, 40, 80), False),))
    four = (
        IndexBox(Corner.TOP_LEFT, (10, 10, 40, 80), False),
        IndexBox(Corner.BOTTOM_LEFT, (10, 420, 40, 490), False),
    )
    assert mark_box(style, four[:1], glyph, 350, 500) is not None
    assert mark_box(style, four, glyph, 350, 500) is None  # the corner is taken


def test_four_index_prints_each_index_again_in_the_other_corner_of_its_edge(anglo_cards) -> None:
    style = STYLES["four_index"](np.random.default_rng(3))
    for card, art, boxes in anglo_cards:
        styled = style_card(style, art, card, boxes)
        h, w = art.shape[:2]
        assert styled.boxes[: len(boxes)] == boxes
        copies = styled.boxes[len(boxes) :]
        assert {b.corner for b in copies} == {Corner.TOP_RIGHT, Corner.BOTTOM_LEFT}
        allowed = np.zeros((h, w), bool)
        for copy in copies:
            source = next(b for b in boxes if (b.box[1], b.box[3]) == (copy.box[1], copy.box[3]))
            assert copy.box == (w - source.box[2], source.box[1], w - source.box[0], source.box[3])
            x0, y0, x1, y1 = copy.box
            sx0, _, sx1, _ = source.box
            assert np.array_equal(styled.art[y0:y1, x0:x1], art[y0:y1, sx0:sx1]), card
            gx0, gy0, gx1, gy1 = _grow(copy.box, 4, w, h)
            allowed[gy0:gy1, gx0:gx1] = True
        changed = np.any(styled.art != art, axis=2)
        assert changed.any()
        assert not (changed & ~allowed).any(), card


def test_four_index_adds_no_copy_where_the_deck_has_an_index_or_it_would_touch_one() -> None:
    four = tuple(
        IndexBox(corner, box)
        for corner, box in (
            (Corner.TOP_LEFT, (4, 4, 14, 30)),
            (Corner.TOP_RIGHT, (86, 4, 96, 30)),
            (Corner.BOTTOM_RIGHT, (86, 110, 96, 136)),
            (Corner.BOTTOM_LEFT, (4, 110, 14, 136)),
        )
    )
    style = STYLES["four_index"](np.random.default_rng(3))
    assert styled_boxes(style, card_from_code("5C"), four, 100, 140) == four
    jumbo = (IndexBox(Corner.TOP_LEFT, (4, 4, 52, 60)), IndexBox(Corner.BOTTOM_RIGHT, four[2].box))
    added = styled_boxes(style, card_from_code("5C"), jumbo, 100, 140)[2:]
    assert [b.corner for b in added] == [Corner.BOTTOM_LEFT]  # a top-right copy would touch it


def test_new_styles_are_trained_on_and_the_kitty_sets_stay_as_they_were() -> None:
    for name in ("suit_shapes", "printed_marks", "four_index"):
        assert name in dict(DEFAULT_STYLE_WEIGHTS) and name not in HELD_OUT
        assert name not in dict(KITTY_STYLE_WEIGHTS)
    assert dict(KITTY_STYLE_WEIGHTS).items() <= dict(DEFAULT_STYLE_WEIGHTS).items()


def test_training_never_draws_a_held_out_style() -> None:
    seen_train = {draw_style(np.random.default_rng(i), DEFAULT_STYLE_WEIGHTS, True).name
                  for i in range(400)}  # fmt: skip
    seen_val = {draw_style(np.random.default_rng(i), DEFAULT_STYLE_WEIGHTS, False).name
                for i in range(400)}  # fmt: skip
    assert HELD_OUT and not seen_train & HELD_OUT
    assert seen_val == set(STYLES)
    assert len(STYLES) - 1 >= 6  # at least six styles besides plain


def test_generated_scenes_record_their_style_and_train_scenes_no_held_out_one(generated) -> None:
    styles = {(m["split"], m["style"]) for m in generated.metas}
    assert all(style in STYLES for _, style in styles)
    assert not {s for split, s in styles if split == "train"} & HELD_OUT
    assert len({s for _, s in styles}) >= 3


def test_style_weights_parse_and_refuse_unknown_names() -> None:
    assert parse_style_weights("plain=3, jumbo") == (("plain", 3.0), ("jumbo", 1.0))
    for bad in ("comic=1", "plain=-1", "plain=x", "plain=0"):
        with pytest.raises(ValueError):
            parse_style_weights(bad)


def test_paper_is_paper_even_where_the_index_touches_a_printed_edge(anglo_cards) -> None:
    card, art, boxes = anglo_cards[0]
    art = art.copy()
    x0, y0, x1, y1 = boxes[0].box
    art[max(0, y0 - 8) : y1 + 8, max(0, x0 - 8) : x0 - 1, :3] = 0  # a thick black edge line
    art[max(0, y0 - 8) : y0 - 1, x0:x1, :3] = (0, 0, 200)  # red ink above the index ...
    art[y1 + 1 : y1 + 8, x0 : x1 + 8, :3] = (200, 0, 0)  # ... and blue below it
    style = CardStyle("font_sans", font="DejaVuSans-Bold.ttf", font_height=1.2)
    styled = style_card(style, art, card, boxes)
    bx0, by0, bx1, by1 = styled.boxes[0].box
    region = styled.art[by0:by1, bx0:bx1, :3]
    background = region[~_ink(styled.art)[by0:by1, bx0:bx1]]
    assert np.all(np.median(background, axis=0) > 200)


def test_four_colour_leaves_the_papers_soft_grey_shading_alone(anglo_cards) -> None:
    card, art, boxes = anglo_cards[1]  # 5C
    h, w = art.shape[:2]
    art = art.copy()
    y0, y1, x0, x1 = h // 2 - 20, h // 2 + 20, w // 2 + 40, w // 2 + 80  # beside the middle pip
    art[y0:y1, x0:x1, :3] = np.linspace(235, 200, x1 - x0)[None, :, None].astype(np.uint8)
    styled = style_card(STYLES["four_colour"](np.random.default_rng(0)), art, card, boxes)
    assert np.array_equal(styled.art[y0:y1, x0:x1], art[y0:y1, x0:x1])
    assert not np.array_equal(styled.art, art)
