"""The deck catalogue, card art rendering and licences."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from blackcat.games.cards import ALL_CARDS, card_from_code
from blackcat.workshop.synth import cardart
from blackcat.workshop.synth.cardart import CARD_HEIGHT, deck_licence, render_bitmap, render_deck
from blackcat.workshop.synth.decks import (
    DECKS,
    GNOME_PACKAGE,
    KDE_PACKAGE,
    POKERTH_PACKAGE,
    SKIPPED,
    ArtFormat,
    Split,
    decks_in,
    element_id,
)


def test_element_ids_follow_each_packages_naming() -> None:
    queen_hearts = next(c for c in ALL_CARDS if c.code == "QH")
    ace_clubs = next(c for c in ALL_CARDS if c.code == "AC")
    assert element_id("aisleriot", queen_hearts) == "heart_queen"
    assert element_id("aisleriot", ace_clubs) == "club_1"
    assert element_id("kde", queen_hearts) == "queen_heart"
    assert element_id("kde", ace_clubs) == "1_club"
    assert len({element_id("kde", c) for c in ALL_CARDS}) == 52


def test_pokerth_files_are_numbered_by_suit_then_rank_ace_last() -> None:
    assert element_id("pokerth", card_from_code("2D")) == "0.png"
    assert element_id("pokerth", card_from_code("AD")) == "12.png"
    assert element_id("pokerth", card_from_code("2H")) == "13.png"
    assert element_id("pokerth", card_from_code("10S")) == "34.png"
    assert element_id("pokerth", card_from_code("AC")) == "51.png"
    assert {element_id("pokerth", c) for c in ALL_CARDS} == {f"{n}.png" for n in range(52)}


def test_every_decks_package_is_fetched() -> None:
    assert {d.package for d in DECKS} <= set(cardart.PACKAGES)
    assert any(d.art is ArtFormat.BITMAP_FILES for d in DECKS)


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


def _fake_apt(monkeypatch) -> list[list[str]]:
    """Pretend apt-get and dpkg: `download` writes an empty .deb, `-x` records the unpacking."""
    calls: list[list[str]] = []

    def run(command: list[str], cwd: Path, what: str) -> None:
        calls.append(command)
        if command[:2] == ["apt-get", "download"]:
            (cwd / f"{command[2]}_1.0_all.deb").write_bytes(b"")

    monkeypatch.setattr(shutil, "which", lambda tool: f"/usr/bin/{tool}")
    monkeypatch.setattr(cardart, "_run", run)
    return calls


def test_packages_are_fetched_one_by_one_when_a_deck_needs_them(tmp_path, monkeypatch) -> None:
    calls = _fake_apt(monkeypatch)
    root = cardart.package_root(tmp_path, (POKERTH_PACKAGE,))
    assert calls[0] == ["apt-get", "download", POKERTH_PACKAGE]
    assert [c[:2] for c in calls[1:]] == [["dpkg", "-x"]]
    assert (root / f".complete-{POKERTH_PACKAGE}").exists()
    calls.clear()
    cardart.package_root(tmp_path, (POKERTH_PACKAGE,))
    assert calls == []  # done once
    cardart.package_root(tmp_path, (GNOME_PACKAGE,))
    assert [c[:2] for c in calls] == [["apt-get", "download"], ["dpkg", "-x"]]
    assert calls[0][2] == GNOME_PACKAGE and GNOME_PACKAGE in calls[1][2]


def test_a_package_another_process_is_fetching_is_waited_for_not_fetched_again(
    tmp_path, monkeypatch
) -> None:
    fcntl = pytest.importorskip("fcntl", reason="the cache is locked on POSIX systems only")
    calls = _fake_apt(monkeypatch)
    outcome: list[Path | Exception] = []

    def fetch() -> None:
        try:
            outcome.append(cardart.package_root(tmp_path, (POKERTH_PACKAGE,)))
        except Exception as error:  # the test reads it below
            outcome.append(error)

    with open(tmp_path / ".lock", "w") as lock:  # as another process filling the cache holds it
        fcntl.flock(lock, fcntl.LOCK_EX)
        fetching = threading.Thread(target=fetch)
        fetching.start()
        fetching.join(0.3)
        assert fetching.is_alive()  # waits for the other process
        (tmp_path / "root").mkdir()
        (tmp_path / "root" / f".complete-{POKERTH_PACKAGE}").write_text("ok\n")
        fcntl.flock(lock, fcntl.LOCK_UN)
    fetching.join(10)
    assert outcome == [tmp_path / "root"]
    assert calls == []  # found done, not downloaded again


def test_a_cache_unpacked_before_per_package_marks_keeps_its_two_packages(
    tmp_path, monkeypatch
) -> None:
    calls = _fake_apt(monkeypatch)
    (tmp_path / "root").mkdir()
    (tmp_path / "root" / ".complete").write_text("ok\n")
    cardart.package_root(tmp_path, (GNOME_PACKAGE, KDE_PACKAGE))
    assert calls == []  # nothing downloaded or unpacked again
    cardart.package_root(tmp_path, cardart.PACKAGES)
    assert [c for c in calls if c[0] == "apt-get"] == [["apt-get", "download", POKERTH_PACKAGE]]


def test_a_small_bitmap_is_scaled_to_card_height_without_dark_fringe(tmp_path) -> None:
    small = np.zeros((76, 48, 4), np.uint8)
    cv2.rectangle(small, (3, 0), (44, 75), (240, 240, 240, 255), -1)
    cv2.rectangle(small, (0, 3), (47, 72), (240, 240, 240, 255), -1)
    small[5:17, 6:14] = (0, 0, 220, 255)  # a red rank
    path = tmp_path / "0.png"
    cv2.imwrite(str(path), small)
    card = render_bitmap(path, CARD_HEIGHT)
    assert card.shape == (CARD_HEIGHT, round(48 * CARD_HEIGHT / 76), 4)
    assert card[0, 0, 3] == 0  # the cut corner stays transparent
    edge = card[:, :, 3] > 0
    paper = card[CARD_HEIGHT // 2, : card.shape[1] // 2]
    assert paper[:, 3].min() > 0
    # semi-transparent edge pixels keep the paper's colour (no black from the transparent ones)
    assert card[edge & (card[:, :, 3] < 200)][:, :3].min() > 200
    assert card[40:100, 45:85, 2].max() > 200 and card[40:100, 45:85, 0].min() < 40


def test_bitmap_deck_has_52_faces_and_a_back_at_card_height(bitmap_deck) -> None:
    rendered = render_deck(bitmap_deck)
    for card in ALL_CARDS:
        image = cv2.imread(str(rendered.card_path(card)), cv2.IMREAD_UNCHANGED)
        assert image is not None and image.shape[2] == 4
        assert image.shape[0] == CARD_HEIGHT
        assert 0.6 < image.shape[1] / image.shape[0] < 0.8
    assert cv2.imread(str(rendered.back_path)).shape[0] == CARD_HEIGHT


def test_bitmap_deck_licence_is_its_own_stanza(bitmap_deck) -> None:
    licence = deck_licence(bitmap_deck)
    assert licence.licence == "GFDL-1.2+ or public-domain"
    assert "Xiong" in licence.copyright
