"""Shared fixtures for the synthetic-data tests: a few decks and one small generated set.

The first run fetches the Debian card packages into the cache (BLACKCAT_CACHE or
~/.cache/blackcat) and renders three decks (about half a minute); later runs reuse them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from blackcat.workshop.synth.decks import DeckSpec, deck_by_name

TEST_DECK_NAMES = ("anglo", "dondorf", "plastic")  # two-corner, four-corner, held out (val)
SEED = 7
SCENES = 30


@pytest.fixture(scope="session")
def test_decks(card_art: None) -> tuple[DeckSpec, ...]:
    return tuple(deck_by_name(name) for name in TEST_DECK_NAMES)


@pytest.fixture(scope="session")
def bitmap_deck(card_packages: None) -> DeckSpec:
    """PokerTH's deck: one small PNG per card (fetched with apt-get download, no rsvg-convert)."""
    return deck_by_name("pokerth")


@dataclass(frozen=True)
class Generated:
    out: Path
    metas: tuple[dict, ...]

    def labels_for(self, meta: dict) -> list[list[float]]:
        name = Path(meta["image"]).stem
        text = (self.out / "detect" / "labels" / meta["split"] / f"{name}.txt").read_text()
        return [[float(v) for v in line.split()] for line in text.splitlines() if line]


@pytest.fixture(scope="session")
def generated(tmp_path_factory: pytest.TempPathFactory, test_decks) -> Iterator[Generated]:
    from blackcat.workshop.synth.scene import SynthConfig
    from blackcat.workshop.synth.writer import generate

    out = tmp_path_factory.mktemp("synth") / "set"
    list(generate(out, SCENES, SEED, SynthConfig(imgsz=512), workers=2, decks=test_decks))
    metas = tuple(
        json.loads(p.read_text()) for p in sorted((out / "detect" / "meta").rglob("*.json"))
    )
    yield Generated(out, metas)
