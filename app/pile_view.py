"""HTML for the app: a pile as a strip of cards with its features marked under the cards, the
list of features with their points, and the scoreboard. Pure functions of the engine's scores
(no Streamlit here), so the page stays a thin shell; `CSS` styles them all."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from html import escape
from string import Template

from blackcat.games.black_cat import FEATURE_KINDS, Feature, FeatureKind, PileScore, feature_name
from blackcat.games.cards import Card, Rank, Suit
from blackcat.i18n import ENGLISH, N_, Translator
from blackcat.tables.black_cat_table import TableResult, card_number


def kind_letter(kind: FeatureKind, tr: Translator = ENGLISH) -> str:
    """The letter on a feature's bar and tag: its name's own letter in each language (Spanish
    M for maullador, N for gato negro)."""
    letters = {
        "tomcat": tr.pgettext("the letter of a Tomcat", "T"),
        "yowler": tr.pgettext("the letter of a Yowler", "Y"),
        "jellical": tr.pgettext("the letter of a Jellical Cat", "J"),
        "black_cat": tr.pgettext("the letter of a Black Cat", "B"),
    }
    return letters[kind]


CARD_WIDTH = "2.75rem"  # 44 px: a card is a tap target, and no finger taps less
CARD_MOST_REM = 3  # a card's widest in a strip, which its grid (max-content) draws it at
CARD_GAP_PX = 2  # between a strip's cards
PAGE_PADDING_REM = 0.9  # the page's padding, each side
PAGE_MOST_PX = 736  # Streamlit's page (a centred layout) at its widest, its padding in
SCROLLBAR_PX = 15  # a computer's window is measured with its scrollbar, the page without
REM_PX = 16  # a rem at the usual text size


def field_width_css(key_class: str, rem: float) -> str:
    """A style rule that gives the fields whose keys' classes (`language.key_class`) start with
    `key_class` a width of `rem`: the width given to Streamlit (`round(rem * REM_PX)` px) at the
    usual text size, and as much wider as the text is larger (at twice its size a name field of
    100 px showed "Playe")."""
    return f'[class*="{key_class}"] {{ width: {rem}rem; flex-basis: {rem}rem; }}'


def strip_fits_from(cards: int) -> int | None:
    """The narrowest window (CSS px) whose page shows a strip of `cards` cards without a swipe;
    None where even the widest page's doesn't."""
    needed = cards * (CARD_MOST_REM * REM_PX + CARD_GAP_PX) + round(2 * PAGE_PADDING_REM * REM_PX)
    return needed + SCROLLBAR_PX if needed <= PAGE_MOST_PX else None


# One colour, one meaning, on the cards and in the legend (`legend_html`) alike; the features'
# colours are their own (each bar and tag also carries its letter).
DOUBTFUL = "#f57c00"  # orange: the reader isn't sure of this card (the photo's boxes too)
TOO_OFTEN = "#d32f2f"  # red: on the table more often than the decks allow
MISSING = "#00897b"  # teal: a card may be missing here
PICKED = "#616161"  # grey outline: the card tapped, to move or change
MARKS: dict[str, str] = {  # a mark's class on a card -> what the legend says of it
    "bc-doubtful": N_("check this card"),
    "bc-dup": N_("on the table too often"),
    "bc-gap": N_("a card may be missing here"),
}
CSS = Template("""
<style>
[data-testid="stMainBlockContainer"] { padding-top: 2.2rem; padding-left: ${padding}rem;
  padding-right: ${padding}rem; }
.bc-strip { overflow-x: auto; padding: 2px 0 6px 0; }
.bc-grid { display: grid; gap: 3px ${gap}px; width: max-content; min-width: 100%;
  grid-auto-rows: min-content; }
.bc-card { position: relative; border: 1px solid #c9c9c9; border-radius: 5px; background: #fff;
  min-width: 0; min-height: 2.75rem; overflow: hidden; text-align: center; line-height: 1.05;
  padding: 2px 0 3px 0; font-weight: 600; box-shadow: 0 1px 1px rgba(0,0,0,.08); }
.bc-card .n { display: block; font-size: .54rem; letter-spacing: -.04em; color: #666;
  font-weight: 400; white-space: nowrap; }
.bc-card .r { display: block; font-size: .95rem; letter-spacing: -.04em; }
.bc-card .s { display: block; font-size: 1.05rem; }
.bc-card .q { display: block; font-size: .62rem; color: #555; font-weight: 500; }
.bc-red { color: #d0021b; }
.bc-black { color: #111; }
.bc-doubtful { border: 2px dashed $doubtful; background: #fff8e1; }
.bc-dup { border: 2px solid $too_often; background: #ffebee; }
/* a doubtful card that is also on the table too often: red border, orange dashes inside */
.bc-card.bc-dup.bc-doubtful { border: 2px solid $too_often; background: #fff8e1;
  outline: 2px dashed $doubtful; outline-offset: -5px; }
.bc-gap { box-shadow: -4px 0 0 $missing; margin-left: 3px; }
/* a card the keyboard moves to is brought into view below Streamlit's top bar, not under it */
.bc-card[data-bc-pile] { cursor: pointer; -webkit-tap-highlight-color: transparent;
  scroll-margin-top: 3.75rem; }
.bc-card.bc-selected { outline: 3px solid $picked; outline-offset: 1px; background: #eeeeee; }
/* words for a screen reader alone */
.bc-unseen { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%);
  white-space: nowrap; }
.bc-card[data-bc-pile]:focus-visible { outline: 3px solid #1e88e5; outline-offset: 1px; }
.bc-gap-end { border: 2px dashed $missing; border-radius: 5px; color: $missing; font-weight: 700;
  text-align: center; align-self: stretch; display: flex; align-items: center;
  justify-content: center; }
.bc-legend { font-size: .8rem; color: #444; margin: .1rem 0 .3rem 0; display: flex;
  flex-wrap: wrap; gap: .2rem .8rem; }
.bc-legend .bc-card { display: inline-block; width: 1.1rem; min-height: 0; height: .9rem;
  vertical-align: -.1rem; margin-right: .3rem; padding: 0; }
.bc-legend .bc-gap { margin-left: 4px; }
.bc-bar { border-radius: 4px; color: #fff; font-size: .62rem; font-weight: 700;
  text-align: center; white-space: nowrap; overflow: hidden; padding: 1px 0; }
.bc-tomcat { background: #1565c0; }  /* white letters on it 5.8:1 */
.bc-yowler { background: #6d4c41; }
.bc-jellical { background: #8e24aa; }
.bc-black_cat { background: #212121; }
.bc-features { font-size: .85rem; line-height: 1.9; margin: 0 0 .4rem 0; }
.bc-features .k { font-weight: 700; margin-right: .3rem; }
.bc-item { display: inline-block; border-radius: 4px; padding: 0 .35rem; margin: 0 .25rem .15rem 0;
  background: #f1f3f6; white-space: nowrap; }
.bc-tag { display: inline-block; min-width: 1.1rem; text-align: center; border-radius: 3px;
  color: #fff; font-size: .7rem; font-weight: 700; margin-right: .25rem; }
.bc-pile-head { display: flex; align-items: baseline; gap: .5rem; margin: .6rem 0 .1rem 0; }
.bc-pile-head .dot { width: .8rem; height: .8rem; border-radius: 50%; display: inline-block;
  flex-shrink: 0; }  /* squeezed to a line by a head that wraps (320 px, large text) */
.bc-pile-head .t { font-size: 1.15rem; font-weight: 700; }
.bc-pile-head .p { margin-left: auto; font-size: 1.15rem; font-weight: 700; }
.bc-board { width: 100%; border-collapse: collapse; font-size: 1rem; }
.bc-board td, .bc-board th { padding: .3rem .4rem; border-bottom: 1px solid #e4e4e4;
  text-align: left; }
.bc-board th { font-size: .8rem; color: #666; font-weight: 600; }
.bc-board .tot { text-align: right; font-weight: 700; font-size: 1.1rem; }
.bc-board tr.win td { background: #fff7d6; }
/* a board narrower than 18 of its letters (a 320 px phone at twice the text size): the Total's
   head as small as the others', cells closer, the names' column all the room the piles and the
   totals leave, a long name broken there (the Total was pushed past the screen's edge) */
.bc-board-box { container-type: inline-size; }
@container (max-width: 18em) {
  .bc-board td, .bc-board th { padding-left: .2rem; padding-right: .2rem; }
  .bc-board th.tot { font-size: .8rem; }
  .bc-board tr > :not(:first-child) { width: 1px; }
  .bc-board tr > :first-child { overflow-wrap: anywhere; }
}
.bc-result { font-size: 1.05rem; font-weight: 700; margin: .4rem 0 .2rem 0; }
</style>
""").substitute(
    doubtful=DOUBTFUL,
    too_often=TOO_OFTEN,
    missing=MISSING,
    picked=PICKED,
    padding=PAGE_PADDING_REM,
    gap=CARD_GAP_PX,
)


def colour_css(rgb: Sequence[int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


SUIT_NAMES = {
    Suit.SPADES: N_("spades"),
    Suit.HEARTS: N_("hearts"),
    Suit.DIAMONDS: N_("diamonds"),
    Suit.CLUBS: N_("clubs"),
}
RANK_NAMES = {
    Rank.ACE: N_("Ace"),
    Rank.JACK: N_("Jack"),
    Rank.QUEEN: N_("Queen"),
    Rank.KING: N_("King"),
}
MISSING_BEFORE = N_("a card may be missing before it")
MISSING_AFTER = N_("a card may be missing after the last card")


def card_in_words(card: Card, tr: Translator = ENGLISH) -> str:
    """The card in words in `tr`'s language: `Queen of spades`, `7 of hearts`."""
    rank = tr.gettext(RANK_NAMES[card.rank]) if card.rank in RANK_NAMES else card.rank.value
    suit = tr.gettext(SUIT_NAMES[card.suit])
    return tr.gettext("{rank} of {suit}").format(rank=rank, suit=suit)


def card_html(card: Card) -> str:
    """A card's label in its colour: red hearts and diamonds, black spades and clubs."""
    colour = "bc-black" if card.is_black else "bc-red"
    return f'<span class="{colour}">{escape(card.label)}</span>'


def cards_html(cards: Sequence[Card]) -> str:
    return " ".join(card_html(card) for card in cards)


def feature_lanes(features: Sequence[Feature]) -> list[list[Feature]]:
    """Features packed into lanes (rows under the strip) that never overlap within a lane:
    each kind gets its own lanes, in the order Tomcat, Yowler, Jellical Cat, Black Cat."""
    lanes: list[list[Feature]] = []
    for kind in FEATURE_KINDS:
        kind_lanes: list[list[Feature]] = []
        ordered = sorted(
            (f for f in features if f.kind == kind),
            key=lambda f: (f.positions[0], -f.positions[-1]),
        )
        for feature in ordered:
            for lane in kind_lanes:
                if lane[-1].positions[-1] < feature.positions[0]:
                    lane.append(feature)
                    break
            else:
                kind_lanes.append([feature])
        lanes += kind_lanes
    return lanes


def card_cell_html(
    card: Card,
    number: str,
    column: int | None,
    *,
    note: str = "",
    duplicated: bool = False,
    doubtful: bool = False,
    gap_before: bool = False,
    tap: tuple[int, int] | None = None,
    selected: bool = False,
    tab_stop: bool = True,
    tr: Translator = ENGLISH,
) -> str:
    """One card of a strip in grid column `column` (from 0; None: wherever the grid puts it): its
    number as on the photo, rank, suit and a small note under it (a Queen's value, a card's
    points); a card on the table too often in red, a doubtful one in orange; a teal bar at
    its left where a card may be missing before it (`MARKS`). Its number, the card in words and
    its marks, in `tr`'s language, are its tooltip and what a screen reader says of it. With
    `tap` (pile id, position) a tap on it, or Enter or Space while it has the keyboard's focus,
    reaches the page (card_taps.listen_for_card_taps); a `selected` card is outlined. A strip
    is one stop for Tab (`tab_stop`: this card is it, `strip_tab_stop`), the arrows move
    along its cards (card_taps.CARD_TAPS_JS)."""
    classes = ["bc-card"]
    if selected:
        classes.append("bc-selected")
    marks = []
    if gap_before:
        classes.append("bc-gap")
        marks.append(tr.gettext(MISSING_BEFORE))
    if duplicated:
        classes.append("bc-dup")
        marks.append(tr.gettext(MARKS["bc-dup"]))
    if doubtful:  # both marks on a doubtful card that is also on the table too often
        classes.append("bc-doubtful")
        marks.append(tr.gettext(MARKS["bc-doubtful"]))
    words = card_in_words(card, tr) + (f": {', '.join(marks)}" if marks else "")
    colour = "bc-black" if card.is_black else "bc-red"
    extra = f'<span class="q">{escape(note)}</span>' if note else ""
    place = "" if column is None else f' style="grid-row:1;grid-column:{column + 1}"'
    said = escape(f"{number} · {words}" + (f" ({note})" if note else ""))
    if tap is not None:  # a button is named by its label alone, not its symbols read in turn
        place += f' data-bc-pile="{tap[0]}" data-bc-position="{tap[1]}"'
        tabindex = 0 if tab_stop else -1
        place += f' role="button" tabindex="{tabindex}" aria-pressed="{str(selected).lower()}"'
        place += f' aria-label="{said}"'
    # the words are its tooltip; a screen reader says them (a button's label, else after its text)
    return (
        f'<div class="{" ".join(classes)}" title="{said}"{place}>'
        f'<span class="n">{number}</span>'
        f'<span class="r {colour}">{escape(card.rank.value)}</span>'
        f'<span class="s {colour}">{card.suit.symbol}</span>{extra}'
        f'<span class="bc-unseen">{escape(words)}</span></div>'
    )


def strip_tab_stop(count: int, selected: int | None) -> int:
    """The position of a strip's one stop for Tab among its `count` cards: the picked card
    (`selected`), else the first (every card a stop, the picked card's tools were up to 14
    Tabs past the strip: an audit, helper-114)."""
    return selected if selected is not None and 0 <= selected < count else 0


def empty_strip_html(tr: Translator = ENGLISH) -> str:
    """The strip of a pile or of tricks that holds no card yet."""
    text = tr.gettext("No cards yet.")
    return f'<div class="bc-strip"><em>{escape(text)}</em></div>'


def strip_html(
    pile_index: int,
    pile: PileScore,
    *,
    doubtful: Collection[int] = (),
    duplicated: Collection[int] = (),
    gaps: Collection[int] = (),
    pile_id: int | None = None,
    selected: int | None = None,
    lanes_at_least: int = 0,
    tr: Translator = ENGLISH,
) -> str:
    """The pile as a strip of cards, numbered as on the photo, Queens with their value, a bar
    under the cards of every feature (letter and points), and a marker where a card may be
    missing (`gaps`: before those positions; the pile's length: after its last card). With
    `pile_id` its cards answer taps; the `selected` position is outlined. The bars take at
    least `lanes_at_least` lanes' height (empty lanes kept), so that what is drawn below stays
    put as a fix makes or breaks a feature."""
    if not pile.cards:
        return empty_strip_html(tr)
    queens = {queen.position: queen for queen in pile.queens}
    cells = []
    for position, card in enumerate(pile.cards):
        queen = ""
        if position in queens:
            mark = "📌" if queens[position].pinned else ""
            queen = f"={queens[position].value}{mark}"
        cells.append(
            card_cell_html(
                card,
                card_number(pile_index, position),
                position,
                note=queen,
                duplicated=position in duplicated,
                doubtful=position in doubtful,
                gap_before=position in gaps,
                tap=None if pile_id is None else (pile_id, position),
                selected=position == selected,
                tab_stop=position == strip_tab_stop(len(pile.cards), selected),
                tr=tr,
            )
        )
    columns_used = len(pile.cards)
    if len(pile.cards) in gaps:
        columns_used += 1
        missing = escape(tr.gettext(MISSING_AFTER))
        cells.append(
            f'<div class="bc-gap-end" title="{missing}" aria-label="{missing}" role="img" '
            f'style="grid-row:1;grid-column:{columns_used}">?</div>'
        )
    lanes = feature_lanes(pile.features)
    for lane_index, lane in enumerate(lanes):
        for feature in lane:
            first, last = feature.positions[0], feature.positions[-1]
            said = escape(f"{feature_name(feature.kind, tr)} +{feature.points}")
            cells.append(
                f'<div class="bc-bar bc-{feature.kind}" title="{said}" aria-label="{said}" '
                f'role="img" style="grid-row:{lane_index + 2};grid-column:{first + 1}/{last + 2}">'
                f"{kind_letter(feature.kind, tr)}{feature.points}</div>"
            )
    # a bar's height, unseen, in each empty lane kept (an empty grid row has no height)
    for lane_index in range(len(lanes), lanes_at_least):
        cells.append(
            f'<div class="bc-bar" aria-hidden="true" style="visibility:hidden;'
            f'grid-row:{lane_index + 2};grid-column:1">&nbsp;</div>'
        )
    columns = (
        f"grid-template-columns:repeat({columns_used},minmax({CARD_WIDTH},{CARD_MOST_REM}rem))"
    )
    return (
        f'<div class="bc-strip"><div class="bc-grid" style="{columns}">'
        + "".join(cells)
        + "</div></div>"
    )


def legend_html(marks: Collection[str], tr: Translator = ENGLISH) -> str:
    """What the marks on the cards above mean (`marks`: classes of `MARKS`), each beside a
    swatch drawn as the mark is; empty when there is none to explain."""
    keys = [
        f'<span><span class="bc-card {mark}"></span>{escape(tr.gettext(words))}</span>'
        for mark, words in MARKS.items()
        if mark in marks
    ]
    return f'<div class="bc-legend">{"".join(keys)}</div>' if keys else ""


def features_count(kind: FeatureKind, count: int, tr: Translator = ENGLISH) -> str:
    """`2 Tomcats`: how many of a kind of feature a pile has."""
    counts = {
        "tomcat": tr.ngettext("{count} Tomcat", "{count} Tomcats", count),
        "yowler": tr.ngettext("{count} Yowler", "{count} Yowlers", count),
        "jellical": tr.ngettext("{count} Jellical Cat", "{count} Jellical Cats", count),
        "black_cat": tr.ngettext("{count} Black Cat", "{count} Black Cats", count),
    }
    return counts[kind].format(count=count)


def features_html(pile_index: int, pile: PileScore, tr: Translator = ENGLISH) -> str:
    """Every feature of the pile, kind by kind, with its cards, card numbers and points."""
    if not pile.features:
        none = tr.gettext("No Tomcat, Yowler, Jellical Cat or Black Cat.")
        return f'<div class="bc-features">{escape(none)}</div>'
    lines = []
    for kind in FEATURE_KINDS:
        found = [feature for feature in pile.features if feature.kind == kind]
        if not found:
            continue
        total = sum(feature.points for feature in found)
        items = "".join(
            f'<span class="bc-item">{cards_html(feature.cards)} '
            f"<small>({_numbers(pile_index, feature.positions)})</small> "
            f"<b>+{feature.points}</b></span>"
            for feature in found
        )
        lines.append(  # the kind's letter as on its bars, not said: its name follows
            f'<div><span class="bc-tag bc-{kind}" aria-hidden="true">{kind_letter(kind, tr)}</span>'
            f'<span class="k">{features_count(kind, len(found), tr)} = {total}</span>{items}</div>'
        )
    return '<div class="bc-features">' + "".join(lines) + "</div>"


def _numbers(pile_index: int, positions: Sequence[int]) -> str:
    first = card_number(pile_index, positions[0])
    if len(positions) == 1:
        return first
    return f"{first}–{card_number(pile_index, positions[-1])}"


def pile_head_html(
    pile_index: int, points: int, colour: Sequence[int], cards: int, tr: Translator = ENGLISH
) -> str:
    count = tr.ngettext("{count} card", "{count} cards", cards).format(count=cards)
    pile = tr.gettext("Pile {number}").format(number=pile_index + 1)
    pts = tr.ngettext("{count} pt", "{count} pts", points).format(count=points)
    return (
        # a heading to a screen reader too, under the player's points (h3): pile to pile
        f'<div class="bc-pile-head" role="heading" aria-level="4">'
        f'<span class="dot" style="background:{colour_css(colour)}"></span>'
        f'<span class="t">{pile}</span><small>{count}</small>'
        f'<span class="p">{pts}</span></div>'
    )


def scoreboard_html(result: TableResult, tr: Translator = ENGLISH) -> str:
    """Players, each pile's points and the total; the winner's row (or the tied rows) marked,
    once there are cards (before, everyone would be tied at 0)."""
    rows = []
    for player in result.players:
        wins = player.name in result.decided_winners
        piles = " + ".join(str(pile.points) for pile in player.piles) or "–"
        crown = ("🤝 " if result.decided_tie else "🏆 ") if wins else ""
        rows.append(
            f'<tr class="{"win" if wins else ""}"><td>{crown}{escape(player.name)}</td>'
            f'<td>{piles}</td><td class="tot">{player.total}</td></tr>'
        )
    player, piles, total = tr.gettext("Player"), tr.gettext("Piles"), tr.gettext("Total")
    return (
        f'<div class="bc-board-box"><table class="bc-board"><tr><th>{player}</th>'
        f'<th>{piles}</th><th class="tot">{total}</th></tr>' + "".join(rows) + "</table></div>"
    )
