"""The page's language: English or Spanish, kept in the session and in the address (`?lang=es`,
so a reload or a shared link keeps it); a first visit takes the browser's language.

The page's text is marked `_("...")` / `ngettext(...)` (imported from here) and translated when
drawn, with `blackcat.i18n`'s catalogues; English is the source text, shown as it is written.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st

from blackcat.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    N_,
    Translator,
    language_code,
    translator,
)

PARAM = "lang"  # the address's language: `?lang=es`
KEY = "language"  # the switch's key in the session


def offered(tag: str | None) -> str | None:
    """The language offered here that a tag (`es-MX`, `en`) names, or None."""
    code = language_code(tag) if tag else None
    return code if code in LANGUAGES else None


def browser_language() -> str | None:
    """The browser's language (`navigator.language`), where Streamlit knows it."""
    try:
        return offered(st.context.locale)
    except Exception:  # no browser (a script run): no language from it
        return None


def first_language() -> str:
    """A session's language: the address's, else the browser's, else English."""
    return offered(st.query_params.get(PARAM)) or browser_language() or DEFAULT_LANGUAGE


def current() -> str:
    state = st.session_state
    if state.get(KEY) not in LANGUAGES:
        state[KEY] = first_language()
    return state[KEY]


def tr() -> Translator:
    """The translator of the page's language."""
    return translator(current())


def _(message: str) -> str:
    return tr().gettext(message)


def pgettext(context: str, message: str) -> str:
    return tr().pgettext(context, message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form for `count`; fill `{count}` after."""
    return tr().ngettext(singular, plural, count)


# Streamlit writes <html lang="en"> whatever the text: a screen reader would read Spanish with
# an English voice
SPOKEN_KEY = "spoken-points"
"""The key of the container of the shown player's points, which a screen reader says again when
they change (its class `st-key-spoken-points` is made a status by PAGE_LANGUAGE_JS)."""

PAGE_LANGUAGE_JS = """
export default function (component) {
  document.documentElement.lang = component.data.lang;
  // Buttons whose words a style sheet shows over Streamlit's English are named by both
  // ("UploadSubir") for a screen reader: each is named by the page's words alone, again
  // whenever Streamlit draws it anew.
  window.blackcatButtonNames = JSON.parse(component.data.names || "[]");
  // a mark after a control's words ("Ana …") and the words a screen reader says for it
  window.blackcatMarksSaid = JSON.parse(component.data.marks || "[]");
  // where the page asks the keyboard's focus to go after a change made by keys (`focus_on`)
  const [wantedKey, wantedId] = JSON.parse(component.data.focus || '["", 0]');
  if (wantedKey && wantedId !== window.blackcatFocusTaken) {
    window.blackcatFocusTaken = wantedId;
    window.blackcatFocusWanted = { key: wantedKey, at: Date.now() };
  }
  const tend = () => {
    // (with Streamlit's English name it replaces, `{label}` in ours standing for the rest of it:
    // "Help for Name", "Ayuda: Name")
    for (const [where, said, english] of window.blackcatButtonNames) {
      for (const words of document.querySelectorAll(where)) {
        const button = words.closest("button") || words;
        const streamlits = button.getAttribute("aria-label") || "";
        if (english !== undefined && !streamlits.startsWith(english)) continue;
        if (!said) {  // no name: a second of a control named already, kept from a screen reader
          if (!button.hasAttribute("aria-hidden")) button.setAttribute("aria-hidden", "true");
          continue;
        }
        const name = english === undefined ? said :
          said.replace("{label}", streamlits.slice(english.length));
        if (streamlits !== name) button.setAttribute("aria-label", name);
      }
    }
    const marked = new Set();
    for (const [where, mark, said] of window.blackcatMarksSaid) {
      for (const control of document.querySelectorAll(where)) {
        const shown = control.textContent.trim();
        if (marked.has(control) || !shown.endsWith(mark)) continue;
        marked.add(control);  // the first mark that fits: "✓ no trick" before "✓"
        const name = shown.slice(0, -mark.length).trim() + said;
        if (control.getAttribute("aria-label") !== name) control.setAttribute("aria-label", name);
      }
    }
    // A question that opens (New game's) takes the keyboard's focus: Streamlit leaves it on
    // the button that opened it, the answer some 40 Tabs away at the end of the page.
    const question = document.querySelector('[data-testid="stPopoverBody"]');
    if (question && question !== window.blackcatOpenQuestion) {
      const answer = question.querySelector("button");
      // answered, the focus goes back to the button that asked (the question is drawn at the
      // page's end: the control before it is the last of the page)
      const asker = window.blackcatFocus;
      // (with the control before it, for an asker gone with the answer: "Remove", of the
      // player removed)
      window.blackcatAsker = asker &&
        asker.key && { ...describe(asker.element), previous: asker.previous };
      if (answer) answer.focus();
    }
    window.blackcatOpenQuestion = question;
    // a heading's own link (Streamlit's, for an address to it) is no stop for Tab down the page
    for (const link of document.querySelectorAll('[data-testid="stHeaderActionElements"] a')) {
      if (link.getAttribute("tabindex") !== "-1") link.setAttribute("tabindex", "-1");
    }
    // the shown player's points, who leads: a screen reader says them again when they change
    for (const spoken of document.querySelectorAll('[class*="st-key-spoken-"]')) {
      if (!spoken.hasAttribute("role")) spoken.setAttribute("role", "status");
    }
    // a refusal's toast is said too: Streamlit's is a dialog that nothing announces
    for (const toast of document.querySelectorAll('[data-testid="stToast"]')) {
      if (window.blackcatToastsSaid.has(toast)) continue;
      window.blackcatToastsSaid.add(toast);
      const words = toast.querySelector('[data-testid="stMarkdownContainer"]') || toast;
      const said = words.textContent.trim();
      // emptied first: the same refusal again (a second tap) is said again too
      voice().textContent = "";
      setTimeout(() => (voice().textContent = said), 100);
    }
    // a group of choices is one stop for Tab, its chosen one (the arrows move within), as radio
    // buttons are: Tab from the player after "Ana ✓" no longer went through every other player
    for (const group of document.querySelectorAll('[role="radiogroup"]')) {
      const choices = [...group.querySelectorAll('[role="radio"]')];
      const stop =
        choices.find((choice) => choice.getAttribute("aria-checked") === "true") || choices[0];
      for (const choice of choices) {
        const tabindex = choice === stop ? "0" : "-1";
        if (choice.getAttribute("tabindex") !== tabindex) choice.setAttribute("tabindex", tabindex);
      }
    }
    focusWanted();
    refocus();
    keepInView();
  };
  // one live region of our own, outside Streamlit's, made once: a region must be on the page
  // before the words it is to say
  const voice = () => {
    let region = document.getElementById("blackcat-voice");
    if (!region) {
      region = document.createElement("div");
      region.id = "blackcat-voice";
      region.setAttribute("role", "alert");
      region.style.cssText =
        "position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);" +
        "white-space:nowrap";
      document.body.appendChild(region);
    }
    return region;
  };
  window.blackcatToastsSaid = window.blackcatToastsSaid || new WeakSet();
  // The keyboard's focus kept through a redraw: Streamlit draws some controls anew (a player
  // added, Undo) or turns them off (the fourth player added), and the focus on them fell to
  // the page's top. It goes to the control of the same widget key and name, else that key's
  // first control, else the one control of that name, else the control that came before it
  // (by key; for a question's answer, the button that asked), else the nearest above.
  // Only after a key or no pointer at all (a screen reader's): a tap or a click leaves the
  // focus to the browser.
  const FOCUSABLE =
    'button, input, textarea, select, summary, a[href], [tabindex]:not([tabindex="-1"])';
  const nameOf = (element) =>
    element.getAttribute("aria-label") || wordsOf(element).trim().slice(0, 80);
  // a control's words without its icons': a question's button ends in a chevron whose icon is
  // a word ("New gameexpand_less" open, "New gameexpand_more" closed), and once another phone's
  // new game closed the question, the button that asked was found by neither name: the focus
  // went to the control before it, "➕ Next game", where Enter added a game (helper-74)
  const ICON = '[data-testid="stIconMaterial"]';
  const wordsOf = (element) => {
    if (!element.querySelector(ICON)) return element.textContent;
    const words = element.cloneNode(true);
    for (const icon of words.querySelectorAll(ICON)) icon.remove();
    return words.textContent;
  };
  const keyOf = (element) => {
    const keyed = element.closest && element.closest('[class*="st-key-"]');
    return keyed && [...keyed.classList].find((name) => name.startsWith("st-key-"));
  };
  const usable = (element) => element.getClientRects().length && !element.disabled;
  // Streamlit hides a control it is about to take away (its focus is let go of then)
  const gone = (element) => !element.isConnected || !usable(element);
  // a stop for Tab: not a list's inner "Open" (it hands its focus on), nor a choice not chosen
  const tabStop = (element) => usable(element) && element.tabIndex >= 0;
  const pageTop = (element) => element.getBoundingClientRect().top + window.scrollY;
  const describe = (element) => ({
    key: keyOf(element),
    tag: element.tagName,
    name: nameOf(element),
    top: pageTop(element),
  });
  const remember = (event) => {
    const element = event.target;
    const controls = [...document.querySelectorAll(FOCUSABLE)].filter(usable);
    const at = controls.indexOf(element);
    const before = at < 0 ? [] : controls.slice(0, at).reverse();
    const answer = element.closest('[data-testid="stPopoverBody"]') && window.blackcatAsker;
    const previous = answer
      ? answer
      : before.find((control) => keyOf(control) && keyOf(control) !== keyOf(element));
    const last = {
      element,
      ...describe(element),
      previous: previous && (previous.nodeType ? describe(previous) : previous),
      byKeys: window.blackcatByKeys, // a focus a tap or click gave is the browser's to keep
    };
    if (answer) last.top = answer.top; // where the question was asked
    window.blackcatFocus = last;
  };
  const leave = (event) => {
    // the player moved on (the focus still on the page, or on its body), not a redraw
    const element = event.target;
    setTimeout(() => {
      const last = window.blackcatFocus;
      if (last && last.element === element && !gone(element)) window.blackcatFocus = null;
      // turned off under the focus: the browser lets go of it a moment after the change
      else if (last && last.element === element) refocus();
    }, 0);
  };
  const within = (selector, found) =>
    [...document.querySelectorAll(selector)].flatMap((keyed) =>
      [...keyed.querySelectorAll(found)].filter(usable),
    );
  const findAgain = (control) => {
    if (!control) return undefined;
    const named = (element) => nameOf(element) === control.name;
    const key = "." + CSS.escape(control.key);
    return (
      within(key, control.tag).find(named) ||
      within(key, '[aria-checked="true"]')[0] ||
      within(key, FOCUSABLE)[0]
    );
  };
  // A focus looked for elsewhere never lands on a control that removes something: on the next
  // player's "Remove", a second Enter removed them too (another pile's card "Delete" likewise;
  // Undo beside "Next deal", turned off on the last deal, undid the deal just added).
  const landable = (element) =>
    !/^st-key-(.+-)?(remove|delete|undo)(-|$)/.test(keyOf(element) || "") &&
    !element.closest('[data-testid="stToast"]'); // a toast's Close floats over the page's top
  // the same control of another player (a key of their own): "Name", after a player added;
  // only where it is the one such control (Streamlit's lists are all named "Open")
  const namedAlike = (control) => {
    const named = [...document.querySelectorAll(control.tag)].filter(tabStop).filter(
      (element) => nameOf(element) === control.name,
    );
    return named.length === 1 && landable(named[0]) ? named[0] : undefined;
  };
  // else, after a while, the control nearest above where it was (a pile removed with its tools)
  const nearest = (control) => {
    const controls = [...document.querySelectorAll(FOCUSABLE)].filter(tabStop).filter(landable);
    const above = controls.filter((element) => pageTop(element) <= control.top);
    // the lowest of them (the last in the page's order of those as low)
    const lowest = (best, element) => (pageTop(element) >= pageTop(best) ? element : best);
    return above.length ? above.reduce(lowest) : controls[0];
  };
  // (one not drawn yet waited for a while: on a busy server "New game", the asker of a question
  // another phone's new game closed, came late, and the focus went on to "➕ Next game")
  const controlBefore = (last, lostFor) => {
    for (let control = last.previous; control; control = control.previous) {
      const found = findAgain(control) || namedAlike(control);
      if (found && landable(found)) return found;
      if (!found && lostFor <= 600) return undefined;
    }
    return undefined;
  };
  const replacement = (last, lostFor) =>
    findAgain(last) ||
    namedAlike(last) ||
    controlBefore(last, lostFor) ||
    (lostFor > 600 ? nearest(last) : undefined); // not while the page may still draw it
  const refocus = () => {
    const last = window.blackcatFocus;
    if (window.blackcatFocusWanted) return; // the page said where
    if (!last || !gone(last.element) || !last.key || !last.byKeys || !window.blackcatByKeys) return;
    const now = Date.now();
    last.lostAt = last.lostAt || now;
    const active = document.activeElement;
    const elsewhere = active && active !== document.body && active !== last.element;
    if (elsewhere || now - last.lostAt > 10000) return; // the player has moved on
    const target = replacement(last, now - last.lostAt);
    // the view stays: a stand-in far up the page (New game, for a pile field another phone's
    // change drew anew) scrolled it a screen and more away (helper-72); after Enter,
    // keepInView brings a control moved off the screen back into it
    if (target) target.focus({ preventScroll: true });
    // not drawn yet, or still disabled while the app runs: looked for again shortly
    if (document.activeElement !== target && !window.blackcatRefocusSoon) {
      window.blackcatRefocusSoon = setTimeout(() => {
        window.blackcatRefocusSoon = null;
        refocus();
      }, 150);
    }
  };
  // The control the page asked for (a new game's first choice) takes the focus once it is
  // drawn: only a focus the keyboard had, and only for a few seconds.
  const focusWanted = () => {
    const wanted = window.blackcatFocusWanted;
    if (!wanted) return;
    if (!window.blackcatByKeys || Date.now() - wanted.at > 5000) {
      window.blackcatFocusWanted = null;
      return;
    }
    const key = "." + CSS.escape(wanted.key);
    const target = within(key, '[aria-checked="true"]')[0] || within(key, FOCUSABLE)[0];
    if (!target) return; // not drawn yet
    window.blackcatFocusWanted = null;
    target.focus();
  };
  // A control the keyboard is on stays in view when the page grows above it (cards drawn over
  // the tricks' field after Enter pushed it below the phone's screen).
  const keepInView = () => {
    const active = document.activeElement;
    if (!active || active === document.body || !window.blackcatByKeys) return;
    if (Date.now() - (window.blackcatKeyAt || 0) > 3000) return; // not for ever: one may scroll
    const box = active.getBoundingClientRect();
    if (box.bottom > window.innerHeight || box.top < 0) active.scrollIntoView({ block: "nearest" });
  };
  // The field typed in, while on the screen, is held where it is: the page is scrolled as far
  // as the field moved, at each change of the page and of its size, before it is painted.
  // Safari has no scroll anchoring, so FIELD_KEPT_CSS keeps nothing in place there (another
  // phone's photo pushed the field 426 px down the screen, WebKitGTK 2.50). Chrome anchors to
  // the first box wholly on the screen and looks no deeper: the pile's block around the field,
  // not the field, where that block fits on the screen. What the photo drew in that block above
  // the field (a queen's choice, the pile's Black Cat line, of another phone's photo put in
  // that pile) moved the field 90 px (helper-82).
  const holdFieldInPlace = (typedIn) => {
    let held = null; // the field, its scroller, its top on the screen, the scroll it was held at
    const keep = () => {
      if (!held || document.activeElement !== held.field || !held.onScreen) return;
      const moved = held.field.getBoundingClientRect().top - held.top;
      if (Math.abs(moved) < 1) return;
      // at once: a smooth scroll would let the field be painted where it went first
      held.scroller.scrollTo({ top: held.scroller.scrollTop + moved, behavior: "instant" });
      held.scrolledTo = held.scroller.scrollTop;
    };
    const place = () => {
      held.top = held.field.getBoundingClientRect().top;
      held.onScreen = held.top >= 0 && held.top < window.innerHeight;
      held.scrolledTo = held.scroller.scrollTop;
    };
    const sizes = new ResizeObserver(keep);
    // a change that leaves every size alone still moves the field (a note drawn above it as
    // much shorter below); its observer is called before the browser paints it. Not attributes:
    // watching them too, a switch of language tapped while a list's field held the focus never
    // came (2 runs of 2; a tap's own changes of them, likely, scrolled the page under it)
    const changes = new MutationObserver(keep);
    const PAGE_CHANGES = { childList: true, subtree: true, characterData: true };
    document.addEventListener("focusin", (event) => {
      const field = event.target;
      if (!field.matches || !field.matches(typedIn)) return;
      held = { field, scroller: scrollerOf(field) };
      place();
      for (const part of held.scroller.children) sizes.observe(part);
      changes.observe(held.scroller, PAGE_CHANGES);
    });
    document.addEventListener("focusout", () => {
      held = null;
      sizes.disconnect();
      changes.disconnect();
    });
    // a scroll of the player's own (not the one that held the field) holds it at its new place
    const scrolled = () => held && held.scroller.scrollTop !== held.scrolledTo && place();
    document.addEventListener("scroll", scrolled, true);
  };
  // what scrolls the page around `element`: Streamlit's main area, else the document
  const scrollerOf = (element) => {
    for (let box = element.parentElement; box; box = box.parentElement) {
      const overflow = getComputedStyle(box).overflowY;
      const scrolls = overflow === "auto" || overflow === "scroll";
      if (scrolls && box.scrollHeight > box.clientHeight) return box;
    }
    return document.scrollingElement;
  };
  tend();
  if (window.blackcatPageTender) return;
  // Streamlit writes the game into the address with a new history entry at every tap: Back then
  // stepped through the same page a hundred times before leaving. The same page's new address
  // replaces the entry (Undo is the page's way back); another page (Black Lady) still adds one.
  const addEntry = window.history.pushState.bind(window.history);
  window.history.pushState = (state, unused, url) => {
    const to = url && new URL(url, window.location.href);
    const samePage = to && to.pathname === window.location.pathname;
    if (samePage) window.history.replaceState(state, unused, url);
    else addEntry(state, unused, url);
  };
  document.addEventListener("focusin", remember);
  document.addEventListener("focusout", leave);
  // A field typed in marks the page while it is on the screen (FIELD_KEPT_CSS keeps it in
  // place then, as the page grows above it)
  const fieldSeen = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const held = entry.isIntersecting && entry.target === document.activeElement;
      document.documentElement.classList.toggle("bc-field-on-screen", held);
    }
  });
  const TYPED_IN = 'input:not([type="checkbox"], [type="radio"]), textarea'; // not a switch
  const watchField = (event) => {
    fieldSeen.disconnect();
    document.documentElement.classList.remove("bc-field-on-screen");
    const field = event.type === "focusin" && event.target;
    if (field && field.matches && field.matches(TYPED_IN)) fieldSeen.observe(field);
  };
  document.addEventListener("focusin", watchField);
  document.addEventListener("focusout", watchField);
  holdFieldInPlace(TYPED_IN);
  window.blackcatByKeys = true;
  document.addEventListener(
    "keydown",
    (event) => {
      window.blackcatByKeys = true;
      // a key that acts (a page run follows), not one that scrolls away from the focus
      if (event.key === "Enter" || event.key === " ") window.blackcatKeyAt = Date.now();
    },
    true,
  );
  document.addEventListener("pointerdown", () => (window.blackcatByKeys = false), true);
  // Home and End in a row of choices go to its first and last (Streamlit's have the arrows)
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Home" && event.key !== "End") return;
    const group = event.target.closest && event.target.closest('[role="radiogroup"]');
    if (!group || !event.target.closest('[role="radio"]')) return;
    const choices = [...group.querySelectorAll('[role="radio"]')].filter(usable);
    const to = event.key === "Home" ? choices[0] : choices[choices.length - 1];
    if (to) {
      event.preventDefault();
      to.focus();
    }
  });
  // Tab out of a row of choices goes to the page's next stop, Shift+Tab to the one before
  // (taken before React Aria's toolbar, which puts the focus on the row's last or first choice
  // for the browser to move on from): from the last row of an open panel (a Queen's value)
  // Chromium went from that choice, no stop, back to the panel's first row, a keyboard trap,
  // and Shift+Tab went to the row before's last choice, not its chosen one
  document.addEventListener(
    "keydown",
    (event) => {
      if (event.key !== "Tab" || event.altKey || event.ctrlKey || event.metaKey) return;
      const group = event.target.closest && event.target.closest('[role="radiogroup"]');
      if (!group || !event.target.closest('[role="radio"]')) return;
      const side = event.shiftKey
        ? Node.DOCUMENT_POSITION_PRECEDING
        : Node.DOCUMENT_POSITION_FOLLOWING;
      const beside = [...document.querySelectorAll(FOCUSABLE)].filter(
        (stop) =>
          tabStop(stop) && !group.contains(stop) && group.compareDocumentPosition(stop) & side,
      );
      // the nearest that takes the focus (one hidden as Streamlit takes it away does not); none:
      // the page's first or last stop, the browser's own way out of it
      for (const stop of event.shiftKey ? beside.reverse() : beside) {
        stop.focus();
        if (document.activeElement !== stop) continue;
        event.preventDefault();
        event.stopPropagation();
        return;
      }
    },
    true,
  );
  window.blackcatPageTender = new MutationObserver(tend);
  const changes = {
    childList: true,
    subtree: true,
    attributeFilter: ["disabled", "aria-checked"], // a control turned off, a choice made
  };
  window.blackcatPageTender.observe(document.body, changes);
}
"""
_page_language = st.components.v2.component("blackcat.page_language", js=PAGE_LANGUAGE_JS)


# A field typed in (a name, a player's tricks) stays where it is on the screen while the page
# grows above it: another phone's photo of the same player's tricks drew its picture and cards
# between the top of the screen and the field, and Chrome's scroll anchoring kept the top of the
# screen in place, not the field, which went 400 px down (under a phone's keyboard; helper-74).
# Everything else is no anchor while the field is on the screen (PAGE_LANGUAGE_JS marks it so),
# so Chrome keeps the field itself in place; off the screen, Chrome chooses as it always does
# (keeping the field then moved what was on the screen 116 px). Chrome's anchor is the first
# box wholly on the screen, though: the field's own block where it fits, and what is drawn in
# that block above the field moves the field. Safari has no scroll anchoring. In both,
# PAGE_LANGUAGE_JS scrolls the page by as much as the field moved (`holdFieldInPlace`).
FIELD_KEPT_CSS = """<style>
.bc-field-on-screen .stMain:has(input:focus:not([type="checkbox"], [type="radio"]),
  textarea:focus) :not(:focus-within) { overflow-anchor: none; }
</style>"""

FOCUS_WANTED_KEY = "focus-wanted"


def focus_on(widget_key: str) -> None:
    """After this change, the keyboard's focus goes to the widget `widget_key` (its chosen
    option, for a choice) once it is drawn: where the control that made the change goes away
    and the nearest one left is no place to be (a new game's last name field)."""
    state = st.session_state
    number = state.get("focus-wanted-number", 0) + 1
    state["focus-wanted-number"] = number
    state[FOCUS_WANTED_KEY] = [key_class(widget_key), number]


def key_class(widget_key: str) -> str:
    """The class of the container Streamlit draws for widget key `widget_key`: the key with
    every character but letters, digits, `_` and `-` made a `-` (a `:` in a selector is taken
    for a pseudo-class, and a script looking for it finds nothing)."""
    return "st-key-" + re.sub(r"[^a-zA-Z0-9_-]", "-", widget_key.strip())


@dataclass(frozen=True)
class StreamlitName:
    """A name Streamlit gives a control in English whatever the page's language (its
    `aria-label`, which starts with `english`), and ours for it (`{label}` in ours is the rest of
    Streamlit's: the control's own words); the control is found by `where` (a CSS selector).
    No words of ours: the control is a second of one named already, kept from a screen reader."""

    english: str
    ours: str
    where: str = ""


STREAMLIT_NAMES = (
    StreamlitName("Link to heading", N_("Link to heading"), "a"),
    StreamlitName("Help for ", N_("Help for {label}"), "button"),
    StreamlitName("Fullscreen: ", N_("Fullscreen: {label}"), "button"),
    # the uploader's own field, out of Tab's way: its "Upload" button opens it
    StreamlitName("file upload", "", '[data-testid="stFileUploaderDropzoneInput"]'),
    StreamlitName("Open", N_("Open"), '[data-testid="stSelectbox"] button'),
    StreamlitName("Close", N_("Close"), '[data-testid="stToast"] button'),
    StreamlitName("Running...", N_("Running..."), '[data-testid="stStatusWidgetRunningIcon"]'),
)


def streamlit_names(tr: Translator) -> list[list[str]]:
    """`show_switch`'s `button_names` for `STREAMLIT_NAMES` in `tr`'s language: a selector, our
    name, and the start of Streamlit's name it replaces."""
    return [
        [
            f"{name.where}[aria-label^={json.dumps(name.english)}]",
            tr.gettext(name.ours) if name.ours else "",  # (gettext("") is the catalogue's header)
            name.english,
        ]
        for name in STREAMLIT_NAMES
    ]


def show_switch(
    button_names: Sequence[Sequence[str]] = (), marks_said: Sequence[Sequence[str]] = ()
) -> None:
    """English | Español: the visible language switch (each in its own language); the page's
    <html> element says its language, buttons whose words are drawn over Streamlit's
    (`button_names`: a CSS selector within each, and its name; and Streamlit's English names of
    its controls, `streamlit_names`) are named in it, a control
    whose words end in a mark (`marks_said`: a CSS selector, the mark, the words said for it,
    the first that fits) is named by its words and the mark's, a question
    that opens (a popover) takes the keyboard's focus, the shown player's points
    (`SPOKEN_KEY`) are a status a screen reader says again when they change, the keyboard's
    focus stays on a control Streamlit draws anew, a field typed in is marked while it is on
    the screen (`FIELD_KEPT_CSS`), and headings' links are out of Tab's way."""
    # a dict of strings: data of any other kind (a bare string, lists) has Streamlit import
    # pandas to ask whether it is a table, 0.3-0.5 s of the first page after the app starts
    names = json.dumps([list(pair) for pair in button_names] + streamlit_names(tr()))
    marks = json.dumps([list(triple) for triple in marks_said])
    wanted = json.dumps(st.session_state.pop(FOCUS_WANTED_KEY, ["", 0]))
    data = {"lang": current(), "names": names, "marks": marks, "focus": wanted}
    _page_language(key="page-language", data=data)
    st.segmented_control(
        _("Language"),
        list(LANGUAGES),
        default=current(),  # as set (card_widgets.field_value says why)
        format_func=LANGUAGES.__getitem__,
        key=KEY,
        wrap=True,  # rows at a large text size, where Streamlit scrolled a choice out of sight
        required=True,
        label_visibility="collapsed",
        on_change=_on_switch,
    )


def _on_switch() -> None:
    st.query_params[PARAM] = st.session_state[KEY]
