"""The catalogue of card decks used for synthetic data: which art (one SVG whose cards are element
ids, or one bitmap file per card), how its cards are named, which corners carry an index, which
split it belongs to, and the decks left out (with the reason).

Every deck here was looked at (whole sheet, and contact sheet of its index boxes) before being
listed.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from blackcat.games.cards import Card, Rank, Suit

GNOME_PACKAGE = "gnome-cards-data"
KDE_PACKAGE = "kdegames-card-data-kf5"
POKERTH_PACKAGE = "pokerth-data"
PACKAGES: tuple[str, ...] = (GNOME_PACKAGE, KDE_PACKAGE, POKERTH_PACKAGE)


class Corner(Enum):
    """A corner of a card, in the card's own upright frame."""

    TOP_LEFT = "top_left"
    TOP_RIGHT = "top_right"
    BOTTOM_RIGHT = "bottom_right"
    BOTTOM_LEFT = "bottom_left"


TWO_CORNERS: tuple[Corner, ...] = (Corner.TOP_LEFT, Corner.BOTTOM_RIGHT)
FOUR_CORNERS: tuple[Corner, ...] = (
    Corner.TOP_LEFT,
    Corner.TOP_RIGHT,
    Corner.BOTTOM_RIGHT,
    Corner.BOTTOM_LEFT,
)


class Split(Enum):
    TRAIN = "train"
    VAL = "val"


BACK_ID = "back"


class ArtFormat(Enum):
    SVG = "svg"  # one SVG file; each card is an element, rendered by its id with rsvg-convert
    BITMAP_FILES = "bitmap-files"  # one bitmap (PNG) per card in a folder, resized to CARD_HEIGHT


@dataclass(frozen=True)
class DeckSpec:
    """One deck: where its art lies inside its Debian package and how its cards are named."""

    name: str
    package: str
    source: str  # path inside the extracted package: the SVG file, or the folder of bitmaps
    family: str  # decks of one family share their art and always share a split
    split: Split
    corners: tuple[Corner, ...] = TWO_CORNERS
    style: str = ""
    upright_bottom_index: bool = False  # the bottom index printed upright, not upside down
    art: ArtFormat = ArtFormat.SVG
    back: str = BACK_ID  # element id, or file name in `source` for bitmap decks
    upstream: str = ""  # a face's path in the upstream tree, to find its licence (DEP-5)
    glyph_max: float = 0.2  # the rank glyph's largest height, as a share of the card's

    @property
    def id_scheme(self) -> str:
        if self.package == GNOME_PACKAGE:
            return "aisleriot"
        if self.package == POKERTH_PACKAGE:
            return "pokerth"
        return "kde"

    def element_id(self, card: Card) -> str:
        """The card's SVG element id, or its file name in `source` for bitmap decks."""
        return element_id(self.id_scheme, card)


_RANK_WORDS: dict[Rank, str] = {
    Rank.ACE: "1",
    **{rank: rank.value for rank in Rank if rank.value.isdigit()},
    Rank.JACK: "jack",
    Rank.QUEEN: "queen",
    Rank.KING: "king",
}
_SUIT_WORDS: dict[Suit, str] = {
    Suit.SPADES: "spade",
    Suit.HEARTS: "heart",
    Suit.DIAMONDS: "diamond",
    Suit.CLUBS: "club",
}
# PokerTH numbers its card files 0-51: diamonds, hearts, spades, clubs, each 2 ... 10, J, Q, K, A.
_POKERTH_SUITS: tuple[Suit, ...] = (Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES, Suit.CLUBS)
_POKERTH_RANKS: tuple[Rank, ...] = (*(r for r in Rank if r is not Rank.ACE), Rank.ACE)


def element_id(scheme: str, card: Card) -> str:
    """SVG element id of a card: aisleriot `club_1`, `heart_queen`; KDE `1_club`, `queen_heart`;
    or the card's file name: PokerTH `0.png` (2D) ... `51.png` (AC)."""
    if scheme == "pokerth":
        number = 13 * _POKERTH_SUITS.index(card.suit) + _POKERTH_RANKS.index(card.rank)
        return f"{number}.png"
    rank, suit = _RANK_WORDS[card.rank], _SUIT_WORDS[card.suit]
    return f"{suit}_{rank}" if scheme == "aisleriot" else f"{rank}_{suit}"


_GNOME = "usr/share/aisleriot/cards/"
_KDE = "usr/share/carddecks/"


def _gnome(name: str, family: str, style: str, split: Split = Split.TRAIN, **kw) -> DeckSpec:
    return DeckSpec(
        name,
        GNOME_PACKAGE,
        f"{_GNOME}{kw.pop('file', name)}.svgz",
        family,
        split,
        style=style,
        **kw,
    )


def _kde(
    name: str, path: str, family: str, style: str, split: Split = Split.TRAIN, **kw
) -> DeckSpec:
    return DeckSpec(f"kde-{name}", KDE_PACKAGE, f"{_KDE}{path}", family, split, style=style, **kw)


DECKS: tuple[DeckSpec, ...] = (
    # aisleriot (gnome-cards-data)
    _gnome("ancient_french", "paris", "French pattern, French indices 1/V/D/R"),
    _gnome("anglo", "anglo", "Anglo-American pattern, serif indices"),
    _gnome("anglo_modern", "anglo_modern", "modern Anglo pattern, sans-serif indices"),
    _gnome("anglo_poker", "anglo_poker", "poker style, condensed indices"),
    _gnome("atlasnye", "atlasnye", "Russian 'Satin' pattern, A/J/Q/K"),
    _gnome("atlasnye_ru", "atlasnye", "Russian 'Satin' pattern, Cyrillic T/B/D/K", file="Атласные"),
    _gnome("bellot", "paris", "Paris pattern (Bellot), serif indices"),
    _gnome("berlin", "berlin", "Berlin pattern, German indices B/D/K"),
    _gnome("dondorf", "dondorf", "Dondorf, indices in all four corners", corners=FOUR_CORNERS),
    _gnome("lattmann", "lattmann", "Lattmann (Berlin pattern), German indices B/D/K"),
    _gnome("neoclassical", "neoclassical", "flat modern art, slab-serif indices"),
    _gnome("orell", "orell", "Orell, large ornate faces"),
    _gnome("ornamental", "ornamental", "Nicu ornamental, big bold indices, cream paper"),
    _gnome("paris", "paris", "Paris pattern, serif indices"),
    _gnome("plastic", "plastic", "flat modern, rounded sans indices", split=Split.VAL),
    _gnome("rheinland", "rheinland", "Rhineland pattern, German indices B/D/K"),
    _gnome("simplistic", "simplistic", "minimal faces with big letters"),
    _gnome("slavic_costumes", "slavic_costumes", "Slavic costumes, Cyrillic T/B/D/K"),
    _gnome("tango", "tango", "Tango icon style, big indices, grey paper"),
    _gnome("tarocco", "tarocco", "Italian style, F/D/R indices"),
    _gnome("tigullio", "tigullio", "Tigullio, thin serif indices", split=Split.VAL),
    # KDE (kdegames-card-data-kf5)
    _kde(
        "ancient-egyptians",
        "svg-ancient-egyptians/Ancient_Egyptians.svgz",
        "ancient_egyptians",
        "parchment paper, upright bottom index",
        upright_bottom_index=True,
    ),
    _kde(
        "dondorf",
        "svg-dondorf/dondorf.svgz",
        "dondorf",
        "Dondorf (KDE render)",
        corners=FOUR_CORNERS,
    ),
    _kde("jolly-royal", "svg-jolly-royal/jolly-royal.svgz", "jolly_royal", "glossy, letter faces"),
    _kde("nicu-white", "svg-nicu-white/white.svgz", "ornamental", "Nicu white, big bold indices"),
    _kde(
        "penguins",
        "svg-penguins/penguins.svgz",
        "penguins",
        "cartoon penguins, rounded font",
        split=Split.VAL,
    ),
    _kde("standard", "svg-standard/standard.svgz", "standard", "Windows-like pixel art"),
    _kde(
        "tigullio-international",
        "svg-tigullio-international/tigullio-international.svgz",
        "tigullio",
        "Tigullio on glossy paper",
        split=Split.VAL,
    ),
    # PokerTH (pokerth-data): bitmap cards, one PNG per card, 48x76 px, scaled up to CARD_HEIGHT
    DeckSpec(
        "pokerth",
        POKERTH_PACKAGE,
        "usr/share/games/pokerth/gfx/cards/default",
        "pokerth",
        Split.VAL,
        style="small bitmap (48x76) scaled up: soft, big serif indices, framed court pictures",
        art=ArtFormat.BITMAP_FILES,
        back="flipside.png",
        upstream="data/gfx/cards/default/0.png",
        glyph_max=0.25,  # its rank letters are 20% of the card height
    ),
)

SKIPPED: dict[str, str] = {
    "anglo_bitmap": "same art as anglo (bitmap faces)",
    "gnomangelo": "same faces and indices as anglo (only joker and back differ)",
    "gnomangelo_bitmap": "same faces and indices as anglo",
    "anglo_modern_4_color": "four-colour suits",
    "neoclassical_4_color": "four-colour suits",
    "atlasnye_skat": "four-colour suits (Skat colours)",
    "guyenne-classic": "Jack, Queen and King carry no rank letter in the index (pip only)",
    "swiss-xvii": "Swiss suits (acorns, bells, roses, shields)",
    "tango_nuevo": "one index only, rank and suit side by side, a giant pip fills the card",
    "kde-future": "not playing cards (computer-chip theme)",
    "kde-gm-paris": "same art as aisleriot paris",
    "kde-konqi-modern": "four-colour suits",
    "kde-nicu-ornamental": "same art as aisleriot ornamental",
    "kde-oxygen": "rank in the top-right, suit in the top-left, white on dark cards",
    "kde-oxygen-air": "rank in the top-right corner, no top-left rank index",
    "kde-oxygen-white": "rank in the top-right corner, no top-left rank index",
    "kde-xskat-german": "German suits (acorns, leaves, hearts, bells)",
    "kde-xskat-french": "rsvg-convert cannot export its cards by id ('no dimensions'); bitmap art",
    "pokerth-default4c": "four-colour suits (PokerTH's default deck recoloured)",
    "pokerth-default_800x480": "one oversized index, top-left only (PokerTH's small-screen deck)",
    "openpref": "a 32-card Preferans deck (7 to A, no 2-6), 71x96 px, built into the program",
    "xpat2": "cards composed at run time from tiny rank, suit and face sprites (79x123 px cards)",
    "ace-of-penguins": "cards composed at run time from tiny sprites built into libcards",
    "openclipart-ornamental": "same art as aisleriot ornamental (Nicu Buculei)",
    "openclipart-white": "same art as kde-nicu-white",
    "openclipart-simple": "same Nicu faces and indices as ornamental, without the corner frame",
    "openclipart-bordered": "same Nicu faces and indices as ornamental, a purple centre frame",
}


def deck_by_name(name: str) -> DeckSpec:
    for deck in DECKS:
        if deck.name == name:
            return deck
    known = ", ".join(deck.name for deck in DECKS)
    raise KeyError(f"unknown deck {name!r}; known decks: {known}")


def decks_in(split: Split, decks: tuple[DeckSpec, ...] = DECKS) -> tuple[DeckSpec, ...]:
    return tuple(deck for deck in decks if deck.split is split)
