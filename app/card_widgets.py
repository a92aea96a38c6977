"""Cards in words and the card corrections both games share: a doubtful card's top guesses,
"not a card", the list of all cards, moving a tapped card, picking a card by rank and suit. Each
changes the page's game through the page's `game_state.Act`."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import card_taps
import language
import streamlit as st
from card_taps import CHANGED_IN_PLACE, SCROLL_TO
from game_state import Act, undoable
from language import _, tr
from pile_view import SUIT_NAMES, card_in_words

from blackcat.games.cards import ALL_CARDS, Card, Rank, Suit
from blackcat.i18n import ENGLISH, N_, Translator, percent_text
from blackcat.tables import black_cat_table as ts

Shown = TypeVar("Shown")


def set_widget(key: str, value: Any) -> None:
    """Show `value` in the widget `key` when the table changed it (or the widget is new), and
    otherwise leave what the person typed, e.g. a pile with a typo, for them to fix."""
    if key not in st.session_state or last_shown(key) != value:
        st.session_state[key] = value
        st.session_state[f"{card_taps.SHOWN_PREFIX}{key}"] = value


def last_shown(key: str) -> Any:
    """The game's value that `set_widget` last showed in the widget `key` (None: none yet)."""
    return st.session_state.get(f"{card_taps.SHOWN_PREFIX}{key}")


def sent_back_unchanged(key: str) -> bool:
    """Whether the text field `key` holds what the page last showed in it, spaces aside: a
    browser can send a field back as changed after a reload though nobody typed."""
    return " ".join(str(st.session_state[key]).split()) == last_shown(key)


def field_value(key: str, value: Shown) -> Shown:
    """`set_widget`, and `value` for the widget's default (a text field's, a toggle's, a
    segmented control's): a value set in Session State reaches the browser only with the run
    that set it. On a busy machine a page's next run can draw the widget before the browser drew
    that run's: it then showed its default, and the page's next run sent that back as changed
    (another phone's pile emptied, then filled with this phone's photo: helper-83; another
    phone's queen unpinned, its deals to play undone: helper-84)."""
    set_widget(key, value)
    return value


def choice_index(key: str, value: Shown, options: Sequence[Shown]) -> int | None:
    """`field_value` for a list's default, its `index` (st.selectbox's): the place of `value`
    among `options`, None (no choice) where it is none of them."""
    return options.index(value) if field_value(key, value) in options else None


def select(key: str, value: int | None) -> Callable[[], None]:
    def selection() -> None:
        st.session_state[key] = value

    return selection


def typed_cards(key: str, pile_id: int, errors: dict[int, str]) -> tuple[Card, ...] | None:
    """The cards typed in a pile's text box (widget `key`), or None where they don't parse: the
    reason then stays in `errors` under the pile for the box to show, and a parse clears it."""
    try:
        cards = ts.parse_cards(st.session_state[key])
    except ts.TableError as error:
        errors[pile_id] = error.describe(tr())
        return None
    errors.pop(pile_id, None)
    return cards


def card_name(card: Card) -> str:
    """The card as shown, as typed and in words, in the page's language: `Q♠ · QS · Queen of
    spades`."""
    return f"{card.label} · {card.code} · {card_in_words(card, tr())}"


def chip(card: Card) -> str:
    """A card's label for buttons and pills, in its colour."""
    return card.label if card.is_black else f":red[{card.label}]"


TYPING_HINT = N_("e.g. QS 10H 4S KD · S♠ H♥ D♦ C♣")
"""In every empty box where cards are typed (its placeholder): the suits' letters, which a
Spanish player would read otherwise (C for corazones is clubs here)."""


def where_cards_lie(
    table: ts.Table, shown: ts.Player, number: Callable[[int, int], str] = ts.card_number
) -> dict[Card, str]:
    """Each card on the table and where it lies, as the page of player `shown` numbers it
    (`number(pile_index, position)`): a number on their piles (`2.1`), with the player's name
    on another's (`Ann 2.1`)."""
    lying: dict[Card, str] = {}
    for player in table.players:
        for pile_index, pile in enumerate(player.piles):
            for position, slot in enumerate(pile.slots):
                where = number(pile_index, position)
                lying.setdefault(
                    slot.card, where if player.id == shown.id else f"{player.name} {where}"
                )
    return lying


def doubtful_prompt(
    act: Act,
    pile: ts.Pile,
    position: int,
    number: str,
    *,
    not_a_card: bool = False,
    out_of_play: Collection[Card] = (),
    other: Callable[[], None] | None = None,
    lying: Mapping[Card, str] | None = None,
) -> None:
    """A card the reader wasn't sure of: keep it, take one of its next guesses (none of the
    cards `out_of_play`, such as those a game sets aside), or (with `not_a_card`) drop it as no
    card at all (the reader saw one where there is none), each one tap; or (with `other`, which
    picks the card: its rank and suit rows show under the pile's cards) say it is a card the
    reader didn't guess. A guess already on the table once a deck has only one says where
    (`lying`: card -> where): the reader gave it to that card, which is why a likelier guess
    may come second here."""
    slot = pile.slots[position]
    sure = percent_text(slot.read.confidence, tr()) if slot.read else ""
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        looks = _("**{number}** looks like {card} ({sure} sure). It is:")
        st.markdown(looks.format(number=number, card=chip(slot.card), sure=sure))
        # the pile's picked card is let go once its card is confirmed, chosen or taken off:
        # still picked, the next tap on another card moved it (or, after "Not a card", the
        # card after it was picked)
        let_go = {"after": select(f"sel:{pile.id}", None)}
        st.button(
            _("✓ {card} is right").format(card=chip(slot.card)),
            key=f"keep:{pile.id}:{position}",
            wrap=True,
            on_click=act,
            args=(ts.confirm_card, pile.id, position),
            kwargs=let_go,
        )
        offered = [
            guess
            for guess in slot.alternatives
            if guess.card not in out_of_play and guess.probability >= GUESS_WORTH_OFFERING
        ]
        for guess in offered[:2]:
            label = f"{chip(guess.card)} {chance(guess.probability, tr())}"
            if lying and guess.card in lying:
                label = _("{card} (also {where})").format(card=label, where=lying[guess.card])
            st.button(
                label,
                key=f"alt:{pile.id}:{position}:{guess.card.code}",
                wrap=True,
                on_click=act,
                args=(ts.replace_card, pile.id, position, guess.card),
                kwargs=let_go,
            )
        if not_a_card:
            st.button(
                _("✗ Not a card"),
                key=f"not-a-card:{pile.id}:{position}",
                wrap=True,
                on_click=act,
                args=(ts.take_off_not_a_card, pile.id, position),
                kwargs=let_go,
                help=_(
                    "There is no card {number} (nothing there, or a card that isn't in the "
                    "game): take it off"
                ).format(number=number),
            )
        if other is not None:
            st.button(
                _("✎ Another card"),
                key=f"other:{pile.id}:{position}",
                wrap=True,
                on_click=_another_card,
                args=(other, pile.id),
                help=_("Choose what card {number} is from every card").format(number=number),
            )


GUESS_WORTH_OFFERING = 0.02
"""A reader's other guess is offered as a one-tap choice from this chance up: one of 1% beside
a card read at 85% was read as noise (helper-55); "✎ Another card" still offers every card."""


def chance(probability: float, translation: Translator = ENGLISH) -> str:
    """A guess's chance as a percentage, as `translation`'s language writes one
    (`percent_text`); "<1%" where it rounds to none (a "0%" guess, offered as a choice, read as
    noise)."""
    if f"{probability:.0%}" == "0%":
        return "<" + percent_text(0.01, translation)
    return percent_text(probability, translation)


def _another_card(other: Callable[[], None], pile_id: int) -> None:
    """The card picked (`other`): its rank and suit rows, right under its pile's cards, brought
    into view, where any card is a tap or two away (the list of every card, in the editor
    below the pile, lay 1,300 px down on a phone and took typing: helper-66)."""
    other()
    card_taps.bring_into_view(f"retype-{pile_id}", "center")


# In the pile of what was scrolled to (a pile to check, a picked card's rows), each card strip
# wider than the phone scrolled sideways to its picked card, else its first card marked to
# check, where that lies past the strip's edge: "↓ 2 cards in orange" showed a pile's first 7
# cards, none orange, its orange 1.9 and 1.12 past the edge (helper-92).
REVEAL_CARD_JS = """
const reveal = (found) => {
  const pile = found.closest('[class*="st-key-pile-"]');
  if (!pile) return;
  for (const strip of pile.querySelectorAll(".bc-strip")) {
    const card = strip.querySelector(".bc-selected")
      || strip.querySelector(".bc-doubtful, .bc-dup, .bc-gap, .bc-gap-end");
    if (!card) continue;
    const seen = strip.getBoundingClientRect(), box = card.getBoundingClientRect();
    if (box.left >= seen.left && box.right <= seen.right) continue;
    const left = strip.scrollLeft + box.left - seen.left - (seen.width - box.width) / 2;
    strip.scrollTo({ left: Math.max(0, left), behavior: "smooth" });
  }
};"""


# The first card to check of what was scrolled to (else its first card) takes the keyboard's
# focus, where the keyboard or a screen reader made the jump (`card_taps.jump_to_check`), and
# the page goes there at once: scrolled smoothly, the page gave way to the focus's own keeping
# of the card just in view, and the pile stayed at the screen's foot.
FOCUS_CARD_JS = """
const focusCard = (found) => {
  const card = found.querySelector("[data-bc-pile].bc-doubtful, [data-bc-pile].bc-dup, "
    + "[data-bc-pile].bc-gap") || found.querySelector("[data-bc-pile]");
  if (card) card.focus({ preventScroll: true });
};"""


def _scroll_once_drawn(find: str, block: str, focus_card: bool = False) -> str:
    """A script that scrolls what the JavaScript expression `find` finds into view (`block`: as
    `scrollIntoView` places it) once it is drawn, looking for it for up to 4 s, and shows the
    card to look at in its pile's strips (`REVEAL_CARD_JS`); with `focus_card`, that card
    takes a keyboard's focus (`FOCUS_CARD_JS`)."""
    keys = "window.blackcatByKeys" if focus_card else "false"
    return (
        f"<script>(() => {{ {REVEAL_CARD_JS}{FOCUS_CARD_JS}\nlet tries = 0; const look = () => {{"
        f"const found = {find}; const keys = {keys};"
        f"if (found) {{ found.scrollIntoView({{block: '{block}', "
        "behavior: keys ? 'instant' : 'smooth'}); if (keys) focusCard(found); "
        "reveal(found); return; }"
        "if (++tries < 40) setTimeout(look, 100); }; look(); })();</script>"
    )


def key_into_view_html(key: str, block: str = "nearest", focus_card: bool = False) -> str:
    """A script that scrolls the container of widget key `key` into view once it is drawn: by
    default just into view (a card tapped low on a phone's screen has its rank and suit rows
    below it), leaving the card tapped on the screen; `block` as `scrollIntoView` places it;
    `focus_card`: its card to check takes a keyboard's focus (`card_taps.jump_to_check`)."""
    return _scroll_once_drawn(
        f"document.querySelector({json.dumps('.' + language.key_class(key))})", block, focus_card
    )


def scroll_as_asked() -> None:
    """Last on a page: the container `card_taps.bring_into_view` asked for scrolled into view
    (a picked card's rows, a gap's picker, a pile to check), once."""
    asked = st.session_state.pop(SCROLL_TO, None)
    if asked is not None:
        st.html(key_into_view_html(*asked), unsafe_allow_javascript=True)


def pick_slot(pile: ts.Pile, label: str, number: Callable[[int], str]) -> int | None:
    """The card of a pile the player tapped (None: none); both games' editors start with it.
    `number` is how the page numbers a card."""
    sel_key = f"sel:{pile.id}"
    selected = st.session_state.get(sel_key)
    if selected is not None and selected >= len(pile.slots):
        st.session_state[sel_key] = selected = None
    if pile.slots:
        st.pills(
            label,
            list(range(len(pile.slots))),
            format_func=lambda p: f"{number(p)} {chip(pile.slots[p].card)}",
            key=sel_key,
            on_change=_picked_anew,
            args=(pile.id,),
        )
    return selected


def _picked_anew(pile_id: int) -> None:
    """A card picked from the editor's list is no card just fixed in place, and the pile's
    open picker of a card to put in goes, as a tap on a card takes it away (card_taps._pick)."""
    st.session_state[CHANGED_IN_PLACE] = None
    st.session_state[card_taps.inserting_key(pile_id)] = None


def delete_button(act: Act, pile: ts.Pile, selected: int | None) -> None:
    """Delete the tapped card. Always in its place, disabled while no card is tapped, so that
    what follows never moves up under a finger that taps twice."""
    st.button(
        _("🗑 Delete"),
        key=f"delete:{pile.id}",
        wrap=True,
        disabled=selected is None,
        on_click=act,
        args=(ts.delete_card, pile.id, selected),
        kwargs={"after": select(f"sel:{pile.id}", None)},
        help=None if selected is not None else _("Tap a card first"),
    )


def change_choices(slot: ts.Slot) -> list[Card]:
    """What a card may really be, in the order the list shows them: the card as it is, the
    reader's other guesses, then every other card."""
    first = [slot.card, *(guess.card for guess in slot.alternatives)]
    first = list(dict.fromkeys(first))
    return first + [card for card in ALL_CARDS if card not in first]


def change_list_key(pile_id: int, card: Card) -> str:
    """The key of the list of every card that opens at `card`: a new widget in each language and
    for each card it opens at (`change_card`)."""
    return f"change:{pile_id}:{tr().language}:{card.code}"


def change_card(act: Act, pile_id: int, position: int, number: str, slot: ts.Slot) -> None:
    """What the card at `position` (numbered `number` on the page) really is, from a list of
    all 52 cards that opens at the card, with the reader's other guesses right under it (its
    rank and suit change in one tap each under the pile's cards: `picked_card_rows`). The
    list is a new widget in each language (the browser names its choice by its text, which a
    switch of language would leave naming no card) and for each card it opens at."""
    label = _("Card {number} is").format(number=number)
    # keyed by the card too, and never set through Session State: a value set there and cut
    # short by a quick tap's rerun came back from the browser, changed the card back and let it
    # go (helper-53)
    key = change_list_key(pile_id, slot.card)
    guesses = {guess.card: guess.probability for guess in slot.alternatives}

    def name(card: Card) -> str:
        if card in guesses:
            guess = _("{card} · reader's guess {chance}")
            return guess.format(card=card_name(card), chance=chance(guesses[card], tr()))
        return card_name(card)

    st.selectbox(
        label,
        change_choices(slot),
        index=0,  # the card as it is
        format_func=name,
        key=key,
        placeholder=_("Choose a card"),
        on_change=_on_change_card,
        args=(act, pile_id, position, key),
    )


def change_by_taps(act: Act, pile_id: int, position: int, number: str, card: Card) -> None:
    """The card's rank and suit as rows of choices: a tap on another changes the card (the
    card stays picked, for its suit next); the list alone took a scroll through 52 cards and
    a phone's keyboard."""
    # keyed by the card as well: a card changed another way (Undo, a tap, the list) gets rows
    # that show it afresh. Rows set through Session State kept a quick tap's rank where a rerun
    # was cut short, and the next rerun of any widget changed the card back (helper-49).
    rank_key = f"to-rank:{pile_id}:{position}:{card.code}"
    suit_key = f"to-suit:{pile_id}:{position}:{card.code}"
    changed = {"on_change": _on_rank_or_suit, "args": (act, pile_id, position, rank_key, suit_key)}
    st.segmented_control(
        _("Card {number}'s rank").format(number=number),
        list(Rank),
        default=card.rank,
        format_func=lambda rank: rank.value,
        key=rank_key,
        required=True,
        **changed,
    )
    st.segmented_control(
        _("Card {number}'s suit").format(number=number),
        list(Suit),
        default=card.suit,
        format_func=suit_chip,
        key=suit_key,
        required=True,
        **changed,
    )


FIXED_WORDS = N_(
    "**Card {number} ({card})** fixed: tap another card to fix it next (tap this one to let "
    "go), or change it again above."
)


def picked_card_rows(
    act: Act,
    pile: ts.Pile,
    picked: int,
    number: str,
    picked_words: str,
    more: Callable[[], None] | None = None,
) -> None:
    """A picked card's rank and suit rows, right under its pile's cards (on a phone the pile's
    editor lay a screen below the card tapped, and each fix took a scroll: helper-51), a
    button that takes it off, the page's `more` tools for it, and what to do next under them
    (`picked_words`, or, once fixed, FIXED_WORDS: `{number}` and `{card}` filled), where its
    words changing length move nothing under the finger; all brought into view together."""
    card = pile.slots[picked].card
    with st.container(key=f"retype-{pile.id}"):
        change_by_taps(act, pile.id, picked, number, card)
        # beside where the tap was: the editor's Delete lay off a phone's screen (helper-55)
        st.button(
            _("🗑 Take {card} off").format(card=chip(card)),
            key=f"take-off:{pile.id}",
            on_click=act,
            args=(ts.take_off_not_a_card, pile.id, picked),
            kwargs={"after": _taken_off(pile.id, card)},
        )
        if more is not None:
            more()
        fixed = st.session_state.get(CHANGED_IN_PLACE) == (pile.id, picked)
        words = _(FIXED_WORDS) if fixed else picked_words
        st.caption(words.format(number=number, card=chip(card)))


def _taken_off(pile_id: int, card: Card) -> Callable[[], None]:
    """The pile's card let go, and a toast says which card went (and that Undo brings it back)."""
    said = undoable(_("{card} taken off.").format(card=card.label))

    def taken_off() -> None:
        st.session_state[f"sel:{pile_id}"] = None
        said()

    return taken_off


def _on_rank_or_suit(act: Act, pile_id: int, position: int, rank_key: str, suit_key: str) -> None:
    rank = st.session_state.get(rank_key)
    suit = st.session_state.get(suit_key)
    if rank is not None and suit is not None:
        act(
            ts.replace_card,
            pile_id,
            position,
            Card(rank, suit),
            after=fixed_in_place(pile_id, position),
        )


def fixed_in_place(pile_id: int, position: int) -> Callable[[], None]:
    """The picked card given a new rank or suit stays picked, but the next tap on another card
    picks that one (`card_taps.tap_card`) rather than moving it there."""

    def fixed() -> None:
        st.session_state[CHANGED_IN_PLACE] = (pile_id, position)

    return fixed


def suit_chip(suit: Suit) -> str:
    """A suit's symbol for pills, in its colour."""
    return suit.symbol if suit.is_black else f":red[{suit.symbol}]"


# a suit's choice in a row of suits (`suit_chip`'s; every such row's key has "suit:"), by its
# place: the rows list the suits in `Suit`'s order
SUIT_CHOICE = '[class*="suit-"] [role="radiogroup"] > [role="radio"]:nth-child({place})'


def suit_choice_names(tr: Translator) -> list[list[str]]:
    """Each suit's choice in rows of suits (a CSS selector) and its name in words in `tr`'s
    language (`language.show_switch`'s `button_names`): named "♠", a screen reader said "black
    heart suit" for hearts, or, at some punctuation levels, nothing."""
    return [
        [SUIT_CHOICE.format(place=place), tr.gettext(SUIT_NAMES[suit])]
        for place, suit in enumerate(Suit, start=1)
    ]


def _on_change_card(act: Act, pile_id: int, position: int, key: str) -> None:
    card = st.session_state[key]
    if isinstance(card, Card):  # not text the list no longer offers
        act(ts.replace_card, pile_id, position, card, after=select(f"sel:{pile_id}", None))


@dataclass(frozen=True)
class Place:
    """Where a tapped card can go: a label for the pill, and the move as a table operation
    (with its arguments after the table); `said`, where the card leaves the screen, says where
    it went (and that Undo takes it back)."""

    label: str
    operation: Callable[..., Any]
    args: tuple[Any, ...]
    said: str | None = None


def move_pills(act: Act, pile: ts.Pile, selected: int, label: str, places: Sequence[Place]) -> None:
    """One tap moves the tapped card to its place; the selection then clears."""
    if not places:
        return
    key = f"move:{pile.id}:{selected}"
    st.session_state[key] = None
    st.pills(
        label,
        list(range(len(places))),
        format_func=lambda index: places[index].label,
        key=key,
        on_change=_on_move,
        args=(act, pile.id, key, places),
    )


def _on_move(act: Act, pile_id: int, key: str, places: Sequence[Place]) -> None:
    index = st.session_state[key]
    if index is None:
        return
    place = places[index]
    let_go = select(f"sel:{pile_id}", None)
    if place.said is None:
        act(place.operation, *place.args, after=let_go)
        return
    say = undoable(place.said)

    def moved() -> None:
        let_go()
        say()

    act(place.operation, *place.args, after=moved)


def card_picker(
    pile_id: int, prefix: str = "", on_both: Callable[[], None] | None = None
) -> Card | None:
    """Rank and suit pills (keys `<prefix>rank:<pile>`, `<prefix>suit:<pile>`: a pile may have
    two pickers); the card they pick, once both are chosen; `on_both` runs as soon as a tap
    completes one."""
    completing = {"on_change": _on_picker, "args": (pile_id, prefix, on_both)} if on_both else {}
    # a tap on the chosen one keeps it (helper-55: a suit kept for the next card was tapped
    # again, taken off, and the add button went grey)
    st.pills(
        _("Rank"),
        list(Rank),
        format_func=lambda r: r.value,
        key=f"{prefix}rank:{pile_id}",
        required=True,
        **completing,
    )
    st.pills(
        _("Suit"),
        list(Suit),
        format_func=suit_chip,
        key=f"{prefix}suit:{pile_id}",
        required=True,
        **completing,
    )
    return picked_card(pile_id, prefix)


def _on_picker(pile_id: int, prefix: str, on_both: Callable[[], None]) -> None:
    if picked_card(pile_id, prefix) is not None:
        on_both()


def picked_card(pile_id: int, prefix: str = "") -> Card | None:
    rank = st.session_state.get(f"{prefix}rank:{pile_id}")
    suit = st.session_state.get(f"{prefix}suit:{pile_id}")
    return Card(rank, suit) if rank is not None and suit is not None else None


def add_picked(
    act: Act,
    pile: ts.Pile,
    position: int | None,
    prefix: str = "",
    *,
    said: Callable[[Card], str] | None = None,
) -> None:
    """The card of the picker `prefix` put at `position` (None: at the end); the rank is
    cleared for the next (the suit kept: cards of one suit go in a rank's tap each). `said`:
    the card's words for a toast once it is in, with Undo."""
    card = picked_card(pile.id, prefix)
    if card is None:
        st.toast(_("Pick a rank and a suit first."), icon="✋")
        return
    at = len(pile.slots) if position is None else position
    let_go = select(f"sel:{pile.id}", None)

    def added() -> None:
        let_go()
        if said is not None:
            undoable(said(card))()

    act(ts.insert_card, pile.id, at, card, after=added)
    st.session_state[f"{prefix}rank:{pile.id}"] = None
