"""The deck catalogue, card art rendering and licences."""

from __future__ import annotations

import shutil

import cv2
import pytest

from blackcat.cards import ALL_CARDS
from blackcat.synth import cardart
from blackcat.synth.cardart import CARD_HEIGHT, deck_licence, render_deck
from blackcat.synth.decks import DECKS, SKIPPED, Split, decks_in, element_id


def test_element_ids_follow_each_packages_naming() -> None:
    queen_hearts = next(c for c in ALL_CARDS if c.code == "QH")
    ace_clubs = next(c for c in ALL_CARDS if c.code == "AC")
    assert element_id("aisleriot", queen_hearts) == "heart_queen"
    assert element_id("aisleriot", ace_clubs) == "club_1"
    assert element_id("kde", queen_hearts) == "queen_heart"
    assert element_id("kde", ace_clubs) == "1_club"
    assert len({element_id("kde", c) for c in ALL_CARDS}) == 52


def test_catalogue_holds_out_three_whole_families() -> None:
    names = [d.name for d in DECKS]
    assert len(names) == len(set(names))
    assert not set(names) & set(SKIPPED)
    val_families = {d.family for d in decks_in(Split.VAL)}
    train_families = {d.family for d in decks_in(Split.TRAIN)}
    assert len(val_families) >= 3
    assert not val_families & train_families, "a family must never straddle the splits"


def test_rendered_deck_has_52_faces_and_a_back(test_decks) -> None:
    rendered = render_deck(test_decks[0])
    for card in ALL_CARDS:
        image = cv2.imread(str(rendered.card_path(card)), cv2.IMREAD_UNCHANGED)
        assert image is not None and image.shape[2] == 4
        assert image.shape[0] == CARD_HEIGHT
        assert 0.6 < image.shape[1] / image.shape[0] < 0.8
    assert rendered.back_path.exists()


def test_licence_comes_from_the_package_copyright_file(test_decks) -> None:
    licence = deck_licence(test_decks[0])
    assert licence.licence.startswith("GPL")
    assert licence.copyright


def test_missing_tools_are_named_with_what_to_install(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda tool: None)
    with pytest.raises(cardart.CardArtError, match="librsvg2-bin"):
        cardart.render_element(tmp_path / "deck.svgz", "club_1", 64)
    with pytest.raises(cardart.CardArtError, match="gnome-cards-data"):
        cardart.package_root(tmp_path)
