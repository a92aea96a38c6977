"""A page's game in Session State: every change replaces it (a refusal becomes a toast), Undo
takes changes back, and "New game" asks once.

The widgets change the game through an `Act` callback that the page passes in: an operation is a
`blackcat.tables.black_cat_table` function of a `Table`, and the page decides which table it
applies to (Black Cat's one table, or the current Black Lady deal).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Generic, Protocol, TypeVar

import card_taps
import live_table
import streamlit as st
from language import _, tr

from blackcat.games.cards import Card, format_pile
from blackcat.i18n import N_, Translator
from blackcat.tables import black_cat_table as ts
from blackcat.tables.taking_back import make_again, take_back


class Act(Protocol):
    """A page's way to apply a table operation (a refusal becomes a toast)."""

    def __call__(
        self,
        operation: Callable[..., ts.Table],
        *args: Any,
        after: Callable[[], None] | None = None,
    ) -> None: ...


def refuse(error: ts.TableError) -> None:
    text = error.describe(tr())
    st.toast(f"{text[:1].upper()}{text[1:]}.", icon="✋")


def undoable(done: str) -> Callable[[], None]:
    """An `after` for a change a player may not have meant (a card moved by a tap, a photo's
    cards taken off, a player or a deal removed): it says what was `done`, and that Undo takes
    it back."""
    return partial(st.toast, _("{done} ↶ Undo takes it back.").format(done=done), icon="↩️")


def forget_unused_photos(photos: dict[str, Any], in_use: set[str]) -> None:
    """The page's photos that neither its game nor its Undo history holds cards of are let go
    of: each keeps a copy of some 3.5 MB to show, and a long night kept hundreds."""
    for key in [key for key in photos if key not in in_use]:
        del photos[key]


Game = TypeVar("Game")  # a page's frozen game: a Black Cat table, a Black Lady game
UNDO_DEPTH = 50  # how many changes Undo can take back
# a shared game's change is made again on another phone's posted just before it once, no more:
# each try may be beaten again
POST_TRIES = 2


@dataclass(frozen=True)
class Change(Generic[Game]):
    """One change this page made: the game `before` it and `after` it."""

    before: Game
    after: Game


def games_before(history: list[Change[Game]]) -> list[Game]:
    """The games an Undo history can go back to (the photos their cards come from are kept)."""
    return [change.before for change in history]


@dataclass(frozen=True)
class Undoable(Generic[Game]):
    """A page's game in Session State under `key`, replaced by every change, and this page's
    changes under `history_key` (the last UNDO_DEPTH), for Undo, which says what it undid
    (`undone`: the game it went back to, the one it left, the page's language -> words).

    In a shared game (`live_table`) each change is posted to the room, and another phone's
    change is taken in before this page's next one (`catch_up`); it goes to no history: Undo on
    a phone takes back that phone's own changes only, where nothing changed since on another
    phone touches what they touched (helper-71). `arrived` then readies what the page keeps
    beside the game (`arrived(before, after)`: the photos its cards came from, picked cards let
    go of where their piles changed), `changed_words(before, after, language)` says what
    changed, `seen_from(arrived, before)` keeps what this page looks at (the game or deal on
    screen), `moved_on(arrived, before)` says whether it puts another there (the next game: the
    fields on screen give way to its), and `started_anew(before, after)` tells a new game.
    `local(game, language)` says a game as this phone does (the app's names of players in its
    language): a game another phone posted, and after a switch of language this page's own,
    and its history."""

    key: str
    history_key: str
    undone: Callable[[Game, Game, Translator], str]
    arrived: Callable[[Game, Game], None] | None = None
    changed_words: Callable[[Game, Game, Translator], str] | None = None
    seen_from: Callable[[Game, Game], Game] | None = None
    moved_on: Callable[[Game, Game], bool] | None = None
    started_anew: Callable[[Game, Game], bool] | None = None
    local: Callable[[Game, Translator], Game] | None = None

    def _local(self, game: Game) -> Game:
        return game if self.local is None else self.local(game, tr())

    def _local_history(self, history: list[Change[Game]]) -> list[Change[Game]]:
        return [Change(self._local(change.before), self._local(change.after)) for change in history]

    def say_in_language(self) -> None:
        """The game and this page's history as this phone says them (`local`): for a page
        whose language changed, no change to undo or to post (each phone its own language)."""
        state = st.session_state
        said = self._local(state[self.key])
        if said is not state[self.key]:
            state[self.key] = said
        if state.get(self.history_key):
            state[self.history_key] = self._local_history(state[self.history_key])

    def commit(self, new: Game, tries: int = POST_TRIES) -> bool:
        """`new` becomes the game; the one it replaces goes to the history (unless it is the same
        game: nothing changed). In a shared game another phone changed since this page last
        looked, `new` (made from the game this page showed) is made on the game as that phone
        left it, beside its change, which the page says (`make_again`); where both changed the
        same part, it is not made (False): the page shows the other phone's, and says so (made
        as it was typed, a pile typed would wipe the other phone's card unseen: helper-68).
        Another phone's change posted between this page's look and its post is merged alike,
        `tries` times in all (each phone can be beaten to the room again)."""
        state = st.session_state
        shown = state[self.key]
        if new is shown:
            return True
        if self.catch_up():
            made = make_again(state[self.key], shown, new)
            if made is None:
                changed_meanwhile()
                return False
            self._say_arrived(shown, state[self.key])
            new = made
        game, history = state[self.key], state[self.history_key]
        self._replace(new)
        if self._posted():
            return True
        # the room never took it: the game and the history as they were (a history at its
        # depth lost its oldest change at each try, trimmed to make room for this one)
        state[self.key], state[self.history_key] = game, history
        if tries > 1:
            return self.commit(new, tries - 1)
        self._not_made()
        return False

    def _replace(self, new: Game) -> None:
        state = st.session_state
        change = Change(state[self.key], new)
        state[self.history_key] = [*state[self.history_key][-(UNDO_DEPTH - 1) :], change]
        state[self.key] = new
        changed()

    def apply(
        self,
        operation: Callable[..., Game],
        *args: Any,
        after: Callable[[], None] | None = None,
        to_latest: bool = False,
    ) -> None:
        """A widget callback: `operation(game, *args)` becomes the game; a refusal becomes a
        toast, never an error page. `after` runs when it worked (e.g. to move a selection). In a
        shared game another phone changed since this page last looked, the operation is made on
        the game this page showed (its cards are named by their places there: made on the newer
        game a move tapped moved another card, a pile typed wiped the other phone's card;
        helper-68), then merged with the other phone's change (`commit`), unless it holds for
        the game as it now is (`to_latest`: a photo's cards given to a player)."""
        if to_latest:
            self.catch_up()
        try:
            new = operation(st.session_state[self.key], *args)
        except ts.TableError as error:
            refuse(error)
            return
        if self.commit(new) and after is not None:
            after()

    def undo(self, tries: int = POST_TRIES) -> None:
        """This page's last change taken back, if there was one, said in a toast (a change on a
        long page would otherwise be taken back unseen), every picked card let go. In a shared
        game another phone's changes stay: where one changed what this page's last change did
        since, that change stays too, and the page says so (taking it back would take the other
        phone's work with it); Undo goes no further back until it can. Where another phone
        changed since this page last looked, its change is taken in and said first, and this
        page's last change taken back from the game as it now is (an Undo that only showed the
        other phone's change had to be tapped again). Another phone's change posted between
        this page's look and its post is taken in alike, `tries` times in all."""
        state = st.session_state
        shown = state[self.key]
        if self.catch_up():
            self._say_arrived(shown, state[self.key])
        if not state[self.history_key]:
            return
        change = state[self.history_key][-1]
        left = state[self.key]
        # alone, the change made is simply gone (a reloaded page's game is a copy of it)
        back = (
            change.before
            if live_table.room() is None
            else take_back(left, change.before, change.after)
        )
        if back is None:  # kept: once the other phone's change is undone, so can this one be
            anew = self.started_anew is not None and self.started_anew(change.before, change.after)
            st.toast(_(NEW_GAME_STAYS if anew else CHANGED_SINCE), icon="✋")
            return
        state[self.history_key] = state[self.history_key][:-1]
        state[self.key] = back
        changed()
        # a picked card's place may hold another card now: the next tap moved it unseen
        card_taps.let_go_of_every_card()
        if self._posted():
            st.toast(self.undone(back, left, tr()), icon="↩️")
            return
        state[self.key] = left
        state[self.history_key] = [*state[self.history_key], change]
        if tries > 1:
            self.undo(tries - 1)
        else:
            self._not_made()

    def catch_up(self) -> bool:
        """In a shared game, the game as another phone left it, where it changed since this page
        last looked (True then). It closes none of this page's questions (a "New game?" asked
        stays open: helper-71), unless another phone started a new game (`started_anew(before,
        after)`): "Yes" would then start a second one, on what that phone has put in since. At
        the page's first look at the room the room's game is simply taken (False: the page's was
        the link's copy of it), on the link's game on screen (`seen_from`). A room without the
        game (just made, or let go of) takes this page's."""
        state = st.session_state
        latest = live_table.newer(self.key)
        if latest is None:
            if live_table.room() is not None and not live_table.seen(self.key):
                live_table.post(self.key, state[self.key])
            return False
        before = state[self.key]
        first_look = not live_table.seen(self.key)
        live_table.saw(self.key, latest)
        game = self._local(latest.game)  # another phone's: its names in this phone's language
        # on the game (deal) this page shows, the link's, or the one in play where a game came
        # or went: at a first look too (the page opened late landed on the game the phone that
        # posted last was correcting)
        arrived = game if self.seen_from is None else self.seen_from(game, before)
        if first_look:
            state[self.key] = arrived
            changed()
        else:
            if arrived == before:  # another phone looked at another game: nothing here changed
                return False
            state[self.key] = arrived
            if self.started_anew is not None and self.started_anew(before, arrived):
                changed()  # its "New game?" asked here would start another one: it closes
        if self.arrived is not None:
            self.arrived(before, state[self.key])
        return not first_look

    def moves_on(self, arrived: Game) -> bool:
        """Whether another phone's game (`arrived`) puts another game or deal on this page's
        screen (`moved_on`): a field of this one typed in, not yet sent, would go with it."""
        shown = st.session_state[self.key]
        return self.moved_on is not None and self.moved_on(arrived, shown)

    def take_in_change(self) -> None:
        """At the page's run: another phone's change to a shared game taken in, and said in a
        toast (a name or a card changing with nothing said read as a change of this phone's
        that failed: helper-68); for two seconds, not four: at the top of a phone's screen it
        covered a pile's cards and took their taps (helper-69). A reloaded page finds its own
        changes again (`live_table.own_history`), for Undo."""
        state = st.session_state
        own = live_table.own_history(self.key, state[self.history_key])
        if own is not state[self.history_key]:
            state[self.history_key] = self._local_history(own)
        self.catch_up_and_say()

    def catch_up_and_say(self) -> None:
        """`catch_up`, and another phone's change taken in said in a toast: at the page's run,
        or before a change made on the game as it now is (a rename: by the player's id)."""
        before = st.session_state[self.key]
        if self.catch_up():
            self._say_arrived(before, st.session_state[self.key])

    def _say_arrived(self, before: Game, after: Game) -> None:
        """Another phone's change, from `before` to `after`, said in a toast."""
        words = (
            self.changed_words(before, after, tr())
            if self.changed_words is not None
            else _(CHANGED_ELSEWHERE)
        )
        st.toast(words, icon="🔄", duration=ARRIVAL_TOAST_SECONDS)
        st.session_state[ARRIVED] = True

    def _posted(self) -> bool:
        """This page's change posted to its room, if it is in one; False where another phone's
        change came in between (this page's is then taken off, and made again on that one, or
        `_not_made`)."""
        if live_table.room() is None:
            return True
        return live_table.post(self.key, st.session_state[self.key]) is not None

    def _not_made(self) -> None:
        """This page's change, which the room never took, is not made (already taken off its
        game and its history): the page shows the other phone's, and says so, as where it saw
        the other change first."""
        self.catch_up()
        changed_meanwhile()


# short enough for a phone's toast to show whole (no "view more": helper-72)
CHANGED_MEANWHILE = N_(
    "Another phone changed the game just now: here it is. Make your change again if needed."
)
CHANGED_ELSEWHERE = N_("The game changed on another phone.")
# a photo read while another phone's change made giving its cards out impossible (their player
# removed, the same place changed): read, so another upload gives them out at once
PHOTO_NOT_GIVEN = N_(
    "{name} was read as the game changed on another phone: upload it again to give out its "
    "cards (it reads at once now)."
)
CHANGED_SINCE = N_("This phone's last change stays: another phone changed it since.")
# this phone's "New game" (or "New night"), where another phone put a card, a player or a rule
# in the new game since: taken back, they would go with it, or land in the old game (helper-73)
NEW_GAME_STAYS = N_("The new game stays: another phone changed it since.")
ARRIVAL_TOAST_SECONDS = 2


ARRIVED = "change-arrived"  # another phone's change was said in a toast on this page's run

# Streamlit's toasts lie at the top of a phone's screen (from 60 px, some 80 px high): where a
# pile's cards (or a player's tricks) lie there, an arriving change's toast moves to the foot
# of the screen for its two seconds, unless cards lie there too (as many or more).
TOAST_OFF_THE_CARDS_HTML = """<script>(() => { let tries = 0; const look = () => {
  const box = document.querySelector('[data-testid="stToastContainer"]');
  const toast = box && box.querySelector('[data-testid="stToast"]');
  if (!toast) { if (++tries < 40) setTimeout(look, 100); return; }
  const covered = (top, bottom) => [...document.querySelectorAll('.bc-strip, .bl-tricks')].reduce(
    (sum, strip) => { const r = strip.getBoundingClientRect();
      return sum + Math.max(0, Math.min(r.bottom, bottom) - Math.max(r.top, top)); }, 0);
  const at = toast.getBoundingClientRect();
  const foot = window.innerHeight - 8;
  const here = covered(at.top, at.bottom);
  if (here > 0 && covered(foot - at.height, foot) < here) {
    box.style.top = 'auto'; box.style.bottom = '8px';
    setTimeout(() => { box.style.top = ''; box.style.bottom = ''; }, 2600);
  }
}; look(); })();</script>"""


def keep_toast_off_the_cards() -> None:
    """Last on a page: where another phone's change was said, its toast kept off the cards
    the player looks at, if it can be (at the top of the screen it hid the card just changed:
    helper-71)."""
    if st.session_state.pop(ARRIVED, False):
        st.html(TOAST_OFF_THE_CARDS_HTML, unsafe_allow_javascript=True)


NOT_MADE = "changes-not-made"  # how many of this page's changes another phone's came before


def changed_meanwhile() -> None:
    st.toast(_(CHANGED_MEANWHILE), icon="🔄")
    card_taps.show_the_game_in_every_field()
    st.session_state[NOT_MADE] = not_made() + 1


def not_made() -> int:
    """How many of this page's changes were not made: another phone's change to the same part
    came first (`changed_meanwhile`)."""
    return st.session_state.get(NOT_MADE, 0)


# a pile (tricks) typed on two phones at once: the other phone's came first, and the field
# shows it (helper-69); what this one typed is said, to type again
TYPED_NOT_MADE = N_("What you typed, not put in: {cards}")


def typed_in(change: Callable[[], None], cards: Sequence[Card]) -> None:
    """`change`, the `cards` typed in a pile; where another phone's change to it came first
    (not made), what was typed is said, as the field shows cards, to type again."""
    refused = not_made()
    change()
    if not_made() > refused:
        typed = format_pile(tuple(cards), symbols=False)
        st.toast(_(TYPED_NOT_MADE).format(cards=typed), icon="✏️")


CHANGES = "changes-made"  # how many times this page changed its game: its questions close then


def changed() -> None:
    st.session_state[CHANGES] = st.session_state.get(CHANGES, 0) + 1


def confirm(
    label: str,
    question: str,
    yes: str,
    action: Callable[[], None],
    key: str,
    *,
    disabled: bool = False,
    help: str | None = None,
) -> None:
    """A button (`label`) that asks once: a tap opens the `question`, a tap on `yes` does the
    `action` and closes it. For what a second tap at the same place would do again to the
    next one (a deal removed, then the deal after it)."""
    answered = st.session_state.get(f"{key}-answered", 0)
    # a popover that keeps its state would rerun as it closes, sending the page's widgets as they
    # were before the change (a name typed back in); a new popover, closed, needs no rerun. Any
    # change this page makes closes it too: left open, it took the focus back at each redraw (a
    # rename's Enter put it on "Yes, a new game"; helper-52), and its question spoke of the game
    # as it was. Another phone's change closes it only where it changes the question (a rerun
    # keeps a popover of the same key open; helper-71).
    changes = st.session_state.get(CHANGES, 0)
    asked = zlib.crc32(f"{label}\n{question}".encode())
    popover_key = f"{key}-{answered}-{changes}-{asked}"
    with st.popover(label, key=popover_key, disabled=disabled, help=help):
        st.markdown(question)
        st.button(yes, key=f"{key}-yes", type="primary", on_click=_do_and_close, args=(action, key))


def _do_and_close(action: Callable[[], None], key: str) -> None:
    action()
    st.session_state[f"{key}-answered"] = st.session_state.get(f"{key}-answered", 0) + 1


def confirm_new_game(
    start: Callable[[], None], what: str, key: str = "new-game", thing: str = "game"
) -> None:
    """ "New game" (or "New night": `thing`) asks once: a tap opens the question, a second tap
    starts it and closes it."""
    label, question, yes = new_game_words(thing)
    confirm(label, f"{question} {what}", yes, partial(_start, start), key)


def new_game_words(thing: str) -> tuple[str, str, str]:
    """The button, the question and the answer of "New game" (`thing`: game or night)."""
    if thing == "night":
        return _("New night"), _("**Start a new night?**"), _("Yes, a new night")
    return _("New game"), _("**Start a new game?**"), _("Yes, a new game")


STARTED = "games-started"


PANELS = ("fix:", "lady-fix:", "queens:")  # a pile's panels, open while True
PILE_KEYED = (
    *PANELS,
    *(card_taps.PICKED_PREFIX, card_taps.INSERTING_PREFIX),
    *("rank:", "suit:", "gap-rank:", "gap-suit:"),  # the pickers of a card to add
)
"""The keys of what a pile's tools hold (its editor open, a card picked, a card half chosen to
add), each ending in the pile's id: a new game's piles take their ids afresh."""


def _start(start: Callable[[], None]) -> None:
    start()
    fields_afresh()
    # the new game's piles may have the old ones' ids: their tools start closed and empty
    # (helper-55: the editor opened on a first photo, a suit chosen in the last game stayed);
    # set, not deleted: a choice deleted here the browser sent back with the next tap
    # (helper-58)
    for key in [key for key in st.session_state if str(key).startswith(PILE_KEYED)]:
        st.session_state[key] = False if str(key).startswith(PANELS) else None
    card_taps.forget_next_shown()


def fields_afresh() -> None:
    """The fields of the game's names and piles drawn under new keys (`started`): a game that
    took the place of another, or of the example."""
    st.session_state[STARTED] = started() + 1


def started() -> int:
    """How many games or nights this session started: a part of the keys of the fields that
    show a game's piles and names. A page may send a field's last value back with the next tap
    (seen: a name typed at once after "New game" typed the example's pile back in); under a new
    key, the new game's field can't take it."""
    return st.session_state.get(STARTED, 0)
