"""this_tab: one page holds a tab's id at a time, so that a tab the browser duplicated (its
sessionStorage copied, id and all) never shares the first page's Undo."""

from __future__ import annotations

import this_tab


def claims_of(alive: set[str], size: int = 1024) -> this_tab.Claims:
    return this_tab.Claims(alive.__contains__, size=size)


def test_a_page_holds_the_id_its_tab_gives_until_another_page_takes_it_once_it_is_gone() -> None:
    alive = {"first"}
    claims = claims_of(alive)
    assert claims.claim("tab-a", "first")
    assert claims.claim("tab-a", "first")  # at each of its runs
    alive.add("duplicate")
    assert not claims.claim("tab-a", "duplicate")  # the first page is still there
    assert claims.claim("tab-b", "duplicate")  # a fresh id of its own
    alive.discard("first")  # the tab reloaded: its old page closed
    assert claims.claim("tab-a", "reloaded")
    alive.add("reloaded")
    assert not claims.claim("tab-a", "first")  # the old page, back a moment: not its any more


def test_the_claims_kept_are_the_latest() -> None:
    alive = {"one", "two", "three"}
    claims = claims_of(alive, size=2)
    for page in ("one", "two", "three"):
        assert claims.claim(f"tab-{page}", page)
    assert claims.claim("tab-one", "another")  # let go of: free to take
    assert not claims.claim("tab-three", "another")


def test_a_page_holds_its_tabs_id_or_else_a_fresh_one() -> None:
    alive = {"first", "duplicate"}
    claims = claims_of(alive)
    stored = "tab-of-the-first-page"
    assert this_tab.chosen(stored, "first", claims) == stored
    assert this_tab.chosen(stored, "first", claims) == stored  # at its next run
    fresh = this_tab.chosen(stored, "duplicate", claims)
    assert fresh != stored and this_tab.chosen(fresh, "duplicate", claims) == fresh
    for none_of_ours in ("", "short", "<script>alert(1)</script>", "x" * 65):
        assert this_tab.chosen(none_of_ours, "first", claims) != none_of_ours


def test_a_fresh_id_is_one_a_tab_may_give_back() -> None:
    ids = {this_tab.fresh_id() for _ in range(20)}
    assert len(ids) == 20
    assert all(this_tab.TAB_PATTERN.fullmatch(tab) for tab in ids)


def test_the_id_is_kept_in_the_tabs_session_storage_not_in_the_address() -> None:
    assert "sessionStorage.setItem(KEY, tab)" in this_tab.TAB_JS
    assert "localStorage" not in this_tab.TAB_JS and "cookie" not in this_tab.TAB_JS
    assert "location" not in this_tab.TAB_JS and "history" not in this_tab.TAB_JS


def test_a_reloaded_page_takes_its_tabs_id_back_once_the_old_page_is_gone() -> None:
    """A reload within a minute of a connection dropped unseen: the old page still seemed
    connected, so the page got a fresh id; it takes its tab's back once that page is gone, and
    looks no longer after TAKE_BACK_SECONDS (a duplicated tab's first page, still there)."""
    alive = {"old"}
    claims = claims_of(alive)
    assert claims.claim("tab-a", "old")
    wanted = ("tab-a", 100.0)
    assert this_tab.still_wanted(None, "reloaded", claims, 100.0) == (None, False)
    assert this_tab.still_wanted(wanted, "reloaded", claims, 130.0) == (None, True)
    alive.discard("old")  # the ping went unanswered: the old page closed
    late = 100.0 + this_tab.TAKE_BACK_SECONDS + 1
    assert this_tab.still_wanted(wanted, "reloaded", claims, late) == (None, False)
    assert this_tab.still_wanted(wanted, "reloaded", claims, 160.0) == ("tab-a", False)
    alive.add("reloaded")
    assert not claims.claim("tab-a", "old")
