"""Tapping the cards of a page's strips: a tap picks a card (and opens its pile's editor),
lets it go, or moves the picked card."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

import streamlit as st

from blackcat.tables import black_cat_table as ts

CARD_TAPS_KEY = "card-taps"
CARD_TAPS_JS = """
export default function (component) {
  // The page's strips are Markdown, redrawn at every run: listeners on the document
  // (installed once) hand a tap on any card with data-bc-pile to the latest mount, and so do
  // Enter and Space on a card the keyboard's focus is on (each card is a button; its strip is
  // one stop for Tab, `pile_view.strip_tab_stop`).
  window.blackcatCardTap = component.setTriggerValue;
  if (window.blackcatCardTapsListening) return;
  window.blackcatCardTapsListening = true;
  const tapped = (event) => {
    const card = event.target.closest("[data-bc-pile][data-bc-position]");
    if (!card || !window.blackcatCardTap) return false;
    window.blackcatCardTap("tapped", {
      pile: Number(card.dataset.bcPile),
      position: Number(card.dataset.bcPosition),
    });
    return true;
  };
  document.addEventListener("click", tapped);
  // Escape on the picked card lets it go, as a second Enter does
  document.addEventListener("keydown", (event) => {
    const picked =
      event.target.closest && event.target.closest('[data-bc-pile][aria-pressed="true"]');
    const acts = event.key === "Enter" || event.key === " " || (event.key === "Escape" && picked);
    if (acts && tapped(event)) event.preventDefault();
  });
  // A strip is one stop for Tab (WAI-ARIA's roving tabindex): Tab from a picked card goes on
  // to its tools, not through every other card; the arrows, Home and End move along the strip
  const CARD = "[data-bc-pile][data-bc-position]";
  const cardOf = (element) => element && element.closest && element.closest(CARD);
  const stripOf = (card) =>
    [...document.querySelectorAll(CARD)].filter(
      (other) => other.dataset.bcPile === card.dataset.bcPile,
    );
  const STEPS = { ArrowLeft: -1, ArrowRight: 1 };
  document.addEventListener("keydown", (event) => {
    const card = cardOf(event.target);
    const moves = event.key in STEPS || event.key === "Home" || event.key === "End";
    if (!card || !moves || event.altKey || event.ctrlKey || event.metaKey) return;
    const strip = stripOf(card);
    const at = strip.indexOf(card);
    const to = { Home: 0, End: strip.length - 1 }[event.key] ?? at + STEPS[event.key];
    event.preventDefault(); // not the page scrolled, nor the strip
    if (strip[to]) strip[to].focus();
  });
  // Each strip's stop: the card that has the focus, else the one that had it last, else the
  // picked card, else the first (as drawn, pile_view.strip_tab_stop). Kept through a redraw:
  // Streamlit's Markdown changes the cards' attributes in place, the focus staying on a card
  // that is no stop any more (Shift+Tab from it came back to the strip's first card).
  window.blackcatStripStops = window.blackcatStripStops || new Map();
  const tendStrips = () => {
    const active = cardOf(document.activeElement);
    const strips = new Map();
    for (const card of document.querySelectorAll(CARD)) {
      strips.set(card.dataset.bcPile, [...(strips.get(card.dataset.bcPile) || []), card]);
    }
    for (const [pile, strip] of strips) {
      const last = window.blackcatStripStops.get(pile);
      const stop =
        strip.find((card) => card === active) ||
        strip.find((card) => card.dataset.bcPosition === last) ||
        strip.find((card) => card.getAttribute("aria-pressed") === "true") ||
        strip[0];
      for (const card of strip) {
        const tabindex = card === stop ? "0" : "-1";
        if (card.getAttribute("tabindex") !== tabindex) card.setAttribute("tabindex", tabindex);
      }
    }
  };
  new MutationObserver(tendStrips).observe(document.body, {
    childList: true,
    subtree: true,
    attributeFilter: ["tabindex", "aria-pressed"],
  });
  // a card the keyboard reaches in a long pile is brought whole into its strip's view (the
  // browser leaves one 90% past the edge where it is: a sliver of its focus ring shows)
  document.addEventListener("focusin", (event) => {
    const card = cardOf(event.target);
    if (!card) return;
    window.blackcatStripStops.set(card.dataset.bcPile, card.dataset.bcPosition);
    tendStrips();
    card.scrollIntoView({ block: "nearest", inline: "nearest" });
  });
}
"""
_card_taps = st.components.v2.component("blackcat.card_taps", js=CARD_TAPS_JS)


def listen_for_card_taps(on_tap: Callable[[int, int], None]) -> None:
    """Make the page's card strips tappable: a tap on a card drawn with a `tap` (pile_view)
    runs `on_tap(pile_id, position)` as a callback, before the page is drawn. Once a page."""

    def tapped() -> None:
        tap = (st.session_state.get(CARD_TAPS_KEY) or {}).get("tapped")
        if tap:
            on_tap(int(tap["pile"]), int(tap["position"]))

    _card_taps(key=CARD_TAPS_KEY, on_tapped_change=tapped)


def tap_card(
    piles: Sequence[ts.Pile],
    pile_id: int,
    position: int,
    editor_key: Callable[[int], str],
    move: Callable[[ts.Pile, int, int], None] | None = None,
) -> None:
    """A tap on the card at `position` of the pile `pile_id` (one of `piles`, the page's). The
    first tap picks it and opens its pile's editor (`editor_key(pile_id)`), where its tools are;
    a tap on the picked card lets it go. With `move`, a tap on another card of the picked card's
    pile moves the picked card there (`move(pile, picked, position)`), unless the picked card
    was just given another rank or suit (`CHANGED_IN_PLACE`): that fix done, the next card
    tapped is the next to fix (it was moved there, helper-51); without `move`, it picks that
    card instead."""
    pile = next((pile for pile in piles if pile.id == pile_id), None)
    if pile is None or position >= len(pile.slots):
        return
    picked = _picked_in(piles)
    fixed = picked is not None and st.session_state.get(CHANGED_IN_PLACE) == picked_place(picked)
    other = picked is not None and picked[0].id == pile_id and picked[1] != position
    if other and move and not fixed:
        move(pile, picked[1], position)
    elif picked is not None and picked[0].id == pile_id and picked[1] == position:
        _pick(piles, pile, None, editor_key(pile_id))
    else:
        _pick(piles, pile, position, editor_key(pile_id))
        bring_into_view(f"retype-{pile_id}")  # its rank and suit rows, below the card tapped


def picked_place(picked: tuple[ts.Pile, int]) -> tuple[int, int]:
    return picked[0].id, picked[1]


def _picked_in(piles: Sequence[ts.Pile]) -> tuple[ts.Pile, int] | None:
    """The pile whose card is picked (tapped), and the card's position; None: none is."""
    for pile in piles:
        position = st.session_state.get(f"{PICKED_PREFIX}{pile.id}")
        if position is not None and position < len(pile.slots):
            return pile, position
    return None


CHANGED_IN_PLACE = "changed-in-place"  # (pile id, position) of a picked card given a new rank
# or suit: still picked, for its suit next, but no longer to be moved by the next tap
SCROLL_TO = "scroll-to"  # (widget key, `scrollIntoView` block, whether its card to check takes
# the keyboard's focus) the page brings into view once
PICKED_PREFIX = "sel:"  # a pile's picked card, by the pile's id: its strip's pills' key
NEXT_SHOWN = "next-shown"  # the ids of the piles whose "↓ Next to check" was shown
INSERTING_PREFIX = "ins:"  # + a pile's id: where the open picker of a card to put in puts it


SHOWN_PREFIX = "shown:"  # + a field's key: the game's value it last showed (`set_widget`)


def show_the_game_in_every_field() -> None:
    """Every field shows the game's value again at the page's next run, whatever was typed in
    it: for a change refused, typed on the game as it was (helper-69: the refused cards stayed
    in their field, which looked saved, and Enter again did nothing)."""
    state = st.session_state
    for key in [key for key in state if str(key).startswith(SHOWN_PREFIX)]:
        del state[key]


def next_shown(pile_id: int) -> bool:
    """Whether the pile's "↓ Next to check" was shown (in this game: `forget_next_shown`)."""
    return pile_id in st.session_state.get(NEXT_SHOWN, frozenset())


def mark_next_shown(pile_id: int) -> None:
    if not next_shown(pile_id):
        st.session_state[NEXT_SHOWN] = st.session_state.get(NEXT_SHOWN, frozenset()) | {pile_id}


def forget_next_shown() -> None:
    """No pile's "↓ Next to check" shown: a new game's piles take their ids afresh."""
    st.session_state[NEXT_SHOWN] = frozenset()


def forget_keys_of_gone_things(pile_ids: Collection[int]) -> None:
    """At a run's end, what is kept for what is gone let go of: each list or text field a run
    draws goes over every key in Session State (Streamlit's `filtered_state`), and a night left
    hundreds behind, so a late tap cost more than an early one. `shown:` + a field's key goes
    once the field's own key has (Streamlit drops a field not drawn): `set_widget` reads it only
    beside that key, so the field drawn again shows the game's value as it would. A pile's
    "next to check" mark goes once the pile is in none of `pile_ids` (the night's games and
    those Undo can bring back); another phone's Undo bringing the pile back shows the jump again
    while the pile has a card to check. One pass over the keys: as one field's run does."""
    state = st.session_state
    gone = [
        key
        for key in map(str, state)
        if key.startswith(SHOWN_PREFIX) and key.removeprefix(SHOWN_PREFIX) not in state
    ]
    for key in gone:
        del state[key]
    marked = state.get(NEXT_SHOWN, frozenset())
    kept = marked.intersection(pile_ids)
    if kept != marked:
        state[NEXT_SHOWN] = kept


def pile_key(pile_id: int) -> str:
    """The key of the container a pile is shown in: what a jump to it brings into view."""
    return f"pile-{pile_id}"


def inserting_key(pile_id: int) -> str:
    """Where the pile's open picker of a card to put in puts it (None: closed)."""
    return f"{INSERTING_PREFIX}{pile_id}"


def bring_into_view(key: str, block: str = "nearest") -> None:
    """Once the page is drawn, scroll the container of widget key `key` into view (`block`: as
    `scrollIntoView` places it; "nearest": just into view): `card_widgets.scroll_as_asked`."""
    st.session_state[SCROLL_TO] = (key, block, False)


def jump_to_check(key: str) -> None:
    """A jump to a pile to check (widget key `key`): once the page is drawn, the pile at the
    top of the screen, and, where the jump was made by keys or a screen reader, its first card
    to check takes the keyboard's focus (left on the jump a screen above, the next Tab went
    back up the page, and a screen reader heard nothing move)."""
    st.session_state[SCROLL_TO] = (key, "start", True)


def let_go_of_every_card() -> None:
    """No card picked any more: for a change that may have moved cards under a picked one
    (Undo, a pile typed anew), where a picked card's place could hold another card and the
    next tap on the strip moved it unseen (helper-49)."""
    state = st.session_state
    # an open picker of a card to put in too: its place may hold another card now
    for key in [key for key in state if str(key).startswith((PICKED_PREFIX, INSERTING_PREFIX))]:
        state[key] = None
    state[CHANGED_IN_PLACE] = None


def let_go_of_cards_on(pile_ids: Collection[int]) -> None:
    """No card picked on these piles any more (changed on another phone: a picked card's place
    could hold another card); a card picked on another pile stays picked."""
    state = st.session_state
    keys = [
        f"{prefix}{pile_id}" for prefix in (PICKED_PREFIX, INSERTING_PREFIX) for pile_id in pile_ids
    ]
    for key in [key for key in keys if key in state]:
        state[key] = None
    changed_in_place = state.get(CHANGED_IN_PLACE)
    if changed_in_place is not None and changed_in_place[0] in pile_ids:
        state[CHANGED_IN_PLACE] = None


def pick_card(piles: Sequence[ts.Pile], pile_id: int, position: int, editor_key: str) -> None:
    """Pick the card at `position` of the pile `pile_id` (one of `piles`, the page's) and open
    its pile's editor (`editor_key`), as a first tap on it does."""
    pile = next((pile for pile in piles if pile.id == pile_id), None)
    if pile is not None and position < len(pile.slots):
        _pick(piles, pile, position, editor_key)


def _pick(piles: Sequence[ts.Pile], pile: ts.Pile, position: int | None, editor_key: str) -> None:
    """Pick the card at `position` of `pile` (None: let go), letting go of any other picked
    card, and open the pile's editor (its expander `editor_key`) where the card's tools are."""
    st.session_state[CHANGED_IN_PLACE] = None
    for other in piles:
        st.session_state[f"{PICKED_PREFIX}{other.id}"] = None
    st.session_state[f"{PICKED_PREFIX}{pile.id}"] = position
    if position is not None:
        st.session_state[editor_key] = True
        # a card put in by the pile's open picker went where the player no longer looks, and
        # dropped the card picked (helper-64)
        st.session_state[inserting_key(pile.id)] = None
