"""Finding the corner indices of rendered cards."""

from __future__ import annotations

import cv2
import numpy as np

from blackcat.games.cards import ALL_CARDS
from blackcat.workshop.synth.decks import Corner
from blackcat.workshop.synth.indices import corner_ink, deck_indices, find_index


def test_every_card_gets_a_plausible_box_in_each_printed_corner(test_decks) -> None:
    for deck in test_decks:
        indices = deck_indices(deck)
        assert set(indices) == set(ALL_CARDS)
        for card, found in indices.items():
            assert {b.corner for b in found.boxes} == set(deck.corners), (deck.name, card)
            w, h = found.width, found.height
            for ib in found.boxes:
                x0, y0, x1, y1 = ib.box
                assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
                assert 0.06 * h < y1 - y0 < 0.3 * h, (deck.name, card, ib)
                assert 0.03 * w < x1 - x0 < 0.3 * w, (deck.name, card, ib)
                left = ib.corner in (Corner.TOP_LEFT, Corner.BOTTOM_LEFT)
                top = ib.corner in (Corner.TOP_LEFT, Corner.TOP_RIGHT)
                assert (x0 < 0.2 * w) if left else (x1 > 0.8 * w)
                assert (y0 < 0.2 * h) if top else (y1 > 0.8 * h)


def test_index_is_rank_and_pip_together() -> None:
    card = np.full((512, 360, 4), 255, np.uint8)
    cv2.putText(card, "7", (14, 62), cv2.FONT_HERSHEY_SIMPLEX, 1.6, (0, 0, 0, 255), 4)
    cv2.circle(card, (32, 92), 14, (0, 0, 200, 255), -1)  # the pip
    cv2.circle(card, (180, 256), 40, (0, 0, 200, 255), -1)  # a centre pip, not part of it
    box = find_index(corner_ink(card, Corner.TOP_LEFT), 512)
    assert box is not None
    x0, y0, x1, y1 = box
    assert x0 <= 18 and y0 <= 32 and y1 >= 105 and x1 <= 60


def test_bitmap_deck_indices_are_rank_and_pip_in_both_corners(bitmap_deck) -> None:
    """PokerTH's ranks are 20% of the card: found with the deck's larger glyph limit."""
    indices = deck_indices(bitmap_deck)
    assert set(indices) == set(ALL_CARDS)
    for card, found in indices.items():
        assert {b.corner for b in found.boxes} == set(bitmap_deck.corners), card
        w, h = found.width, found.height
        for ib in found.boxes:
            x0, y0, x1, y1 = ib.box
            assert not ib.redone, (card, ib)
            assert 0.33 * h < y1 - y0 < 0.42 * h, (card, ib)  # rank and pip, one above the other
            assert 0.12 * w < x1 - x0 < 0.3 * w, (card, ib)
            if ib.corner is Corner.TOP_LEFT:
                assert x0 < 0.1 * w and y0 < 0.06 * h
            else:
                assert x1 > 0.9 * w and y1 > 0.94 * h


def test_a_tall_rank_needs_a_larger_glyph_limit() -> None:
    card = np.full((512, 320, 4), 255, np.uint8)
    card[12:124, 16:70] = (0, 0, 0, 255)  # a rank glyph 22% of the card tall
    card[135:215, 20:70] = (0, 0, 200, 255)  # its pip
    ink = corner_ink(card, Corner.TOP_LEFT)
    small = find_index(ink, 512)
    assert small is None or small[3] - small[1] < 100  # the rank is not taken for a glyph
    box = find_index(ink, 512, glyph_max=0.25)
    assert box is not None and box[1] <= 14 and box[3] >= 210
