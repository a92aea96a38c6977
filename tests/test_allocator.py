"""allocator: `blackcat app` limits glibc's memory pools as it starts, unless the player's own
MALLOC_ARENA_MAX says otherwise, and does nothing where the C library isn't glibc."""

from __future__ import annotations

import ctypes
import sys

import pytest

from blackcat import allocator


class FakeLibc:
    def __init__(self, answer: int = 1) -> None:
        self.calls: list[tuple[int, int]] = []
        self.answer = answer

    def mallopt(self, option: ctypes.c_int, value: ctypes.c_int) -> int:
        self.calls.append((option.value, value.value))
        return self.answer


def test_two_pools_are_asked_for_where_the_environment_says_nothing() -> None:
    libc = FakeLibc()
    assert allocator.limit_arenas({"HOME": "/home/ann"}, libc)
    assert libc.calls == [(allocator.M_ARENA_MAX, 2)]


def test_the_players_own_setting_wins() -> None:
    libc = FakeLibc()
    assert not allocator.limit_arenas({"MALLOC_ARENA_MAX": "8"}, libc)
    assert libc.calls == []


def test_nothing_is_done_without_glibc_and_a_refusal_is_said() -> None:
    assert not allocator.limit_arenas({}, None)
    assert not allocator.limit_arenas({}, FakeLibc(answer=0))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc is Linux's")
def test_glibc_is_found_on_a_glibc_linux_and_takes_the_setting() -> None:
    import platform

    if platform.libc_ver()[0] != "glibc":
        pytest.skip("not a glibc system")
    libc = allocator.glibc()
    assert libc is not None
    assert allocator.limit_arenas({}, libc)  # this test's process: two pools from now on


def test_no_c_library_is_looked_for_off_linux(monkeypatch: pytest.MonkeyPatch) -> None:
    for platform_name in ("darwin", "win32"):
        monkeypatch.setattr(sys, "platform", platform_name)
        assert allocator.glibc() is None
