"""The page's language: English or Spanish, kept in the session and in the address (`?lang=es`,
so a reload or a shared link keeps it); a first visit takes the browser's language.

The page's text is marked `_("...")` / `ngettext(...)` (imported from here) and translated when
drawn, with `blackcat.i18n`'s catalogues; English is the source text, shown as it is written.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import streamlit as st

from blackcat.i18n import DEFAULT_LANGUAGE, LANGUAGES, Translator, language_code, translator

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
  const tend = () => {
    for (const [where, said] of window.blackcatButtonNames) {
      for (const words of document.querySelectorAll(where)) {
        const button = words.closest("button") || words;
        if (button.getAttribute("aria-label") !== said) button.setAttribute("aria-label", said);
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
      window.blackcatAsker = asker && asker.key && describe(asker.element);
      if (answer) answer.focus();
    }
    window.blackcatOpenQuestion = question;
    // a heading's own link (Streamlit's, for an address to it) is no stop for Tab down the page
    for (const link of document.querySelectorAll('[data-testid="stHeaderActionElements"] a')) {
      if (link.getAttribute("tabindex") !== "-1") link.setAttribute("tabindex", "-1");
    }
    // the shown player's points: a screen reader says them again when a fix changes them
    for (const points of document.querySelectorAll(".st-key-spoken-points")) {
      if (!points.hasAttribute("role")) points.setAttribute("role", "status");
    }
    refocus();
  };
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
    element.getAttribute("aria-label") || element.textContent.trim().slice(0, 80);
  const keyOf = (element) => {
    const keyed = element.closest && element.closest('[class*="st-key-"]');
    return keyed && [...keyed.classList].find((name) => name.startsWith("st-key-"));
  };
  const usable = (element) => element.getClientRects().length && !element.disabled;
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
      const still = element.isConnected && !element.disabled;
      if (last && last.element === element && still) window.blackcatFocus = null;
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
    return within(key, control.tag).find(named) || within(key, FOCUSABLE)[0];
  };
  // A focus looked for elsewhere never lands on a control that removes something: on the next
  // player's "Remove", a second Enter removed them too (another pile's card "Delete" likewise).
  const landable = (element) => !/^st-key-(.+-)?(remove|delete)-/.test(keyOf(element) || "");
  // the same control of another player (a key of their own): "Name", after a player added;
  // only where it is the one such control (Streamlit's lists are all named "Open")
  const namedAlike = (control) => {
    const named = [...document.querySelectorAll(control.tag)].filter(usable).filter(
      (element) => nameOf(element) === control.name,
    );
    return named.length === 1 && landable(named[0]) ? named[0] : undefined;
  };
  // else, after a while, the control nearest above where it was (a pile removed with its tools)
  const nearest = (control) => {
    const controls = [...document.querySelectorAll(FOCUSABLE)].filter(usable).filter(landable);
    const above = controls.filter((element) => pageTop(element) <= control.top);
    return above.length ? above[above.length - 1] : controls[0];
  };
  const controlBefore = (last) => {
    const found = findAgain(last.previous) || (last.previous && namedAlike(last.previous));
    return found && landable(found) ? found : undefined;
  };
  const replacement = (last, lostFor) =>
    findAgain(last) ||
    namedAlike(last) ||
    controlBefore(last) ||
    (lostFor > 600 ? nearest(last) : undefined); // not while the page may still draw it
  const refocus = () => {
    const last = window.blackcatFocus;
    const gone = last && (!last.element.isConnected || last.element.disabled);
    if (!gone || !last.key || !last.byKeys || !window.blackcatByKeys) return;
    const now = Date.now();
    last.lostAt = last.lostAt || now;
    const active = document.activeElement;
    const elsewhere = active && active !== document.body && active !== last.element;
    if (elsewhere || now - last.lostAt > 10000) return; // the player has moved on
    const target = replacement(last, now - last.lostAt);
    if (target) target.focus();
    // not drawn yet, or still disabled while the app runs: looked for again shortly
    if (document.activeElement !== target && !window.blackcatRefocusSoon) {
      window.blackcatRefocusSoon = setTimeout(() => {
        window.blackcatRefocusSoon = null;
        refocus();
      }, 150);
    }
  };
  tend();
  if (window.blackcatPageTender) return;
  document.addEventListener("focusin", remember);
  document.addEventListener("focusout", leave);
  window.blackcatByKeys = true;
  document.addEventListener("keydown", () => (window.blackcatByKeys = true), true);
  document.addEventListener("pointerdown", () => (window.blackcatByKeys = false), true);
  window.blackcatPageTender = new MutationObserver(tend);
  const changes = { childList: true, subtree: true, attributeFilter: ["disabled"] };
  window.blackcatPageTender.observe(document.body, changes); // a control turned off too
}
"""
_page_language = st.components.v2.component("blackcat.page_language", js=PAGE_LANGUAGE_JS)


def show_switch(button_names: Sequence[Sequence[str]] = ()) -> None:
    """English | Español: the visible language switch (each in its own language); the page's
    <html> element says its language, buttons whose words are drawn over Streamlit's
    (`button_names`: a CSS selector within each, and its name) are named in it, a question
    that opens (a popover) takes the keyboard's focus, the shown player's points
    (`SPOKEN_KEY`) are a status a screen reader says again when they change, the keyboard's
    focus stays on a control Streamlit draws anew, and headings' links are out of Tab's way."""
    # a dict of strings: data of any other kind (a bare string, lists) has Streamlit import
    # pandas to ask whether it is a table, 0.3-0.5 s of the first page after the app starts
    names = json.dumps([list(pair) for pair in button_names])
    _page_language(key="page-language", data={"lang": current(), "names": names})
    st.segmented_control(
        _("Language"),
        list(LANGUAGES),
        format_func=LANGUAGES.__getitem__,
        key=KEY,
        required=True,
        label_visibility="collapsed",
        on_change=_on_switch,
    )


def _on_switch() -> None:
    st.query_params[PARAM] = st.session_state[KEY]
