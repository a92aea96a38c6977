import threading

import pytest

from blackcat.vision import parallel
from blackcat.vision.parallel import in_worker, parallel_map, usable_cores


def test_results_come_back_in_the_items_order() -> None:
    assert parallel_map(lambda n: n * n, range(7)) == [0, 1, 4, 9, 16, 25, 36]
    assert parallel_map(str, []) == []


def test_several_items_run_on_the_workers_and_one_runs_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(parallel, "WORKERS", 2)
    here = threading.get_ident()
    assert parallel_map(lambda _: threading.get_ident(), [1]) == [here]
    assert here not in parallel_map(lambda _: threading.get_ident(), [1, 2, 3])
    assert parallel_map(lambda _: in_worker(), [1, 2]) == [True, True]
    assert not in_worker()


def test_work_given_out_from_a_worker_is_done_there_not_waited_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # both workers waiting on work queued behind them would wait forever
    monkeypatch.setattr(parallel, "WORKERS", 2)

    def nested(n: int) -> list[int]:
        return parallel_map(lambda m: n * 10 + m, [1, 2, 3])

    assert parallel_map(nested, [1, 2, 3, 4]) == [
        [11, 12, 13],
        [21, 22, 23],
        [31, 32, 33],
        [41, 42, 43],
    ]


def test_an_items_failure_is_raised_to_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "WORKERS", 2)

    def fails_on_three(n: int) -> int:
        if n == 3:
            raise ValueError("three")
        return n

    with pytest.raises(ValueError, match="three"):
        parallel_map(fails_on_three, [1, 2, 3, 4])


def test_one_core_runs_everything_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "WORKERS", 1)
    here = threading.get_ident()
    assert set(parallel_map(lambda _: threading.get_ident(), [1, 2, 3])) == {here}


def test_the_workers_share_the_cores_out() -> None:
    assert usable_cores() >= 1
    assert 1 <= parallel.WORKERS <= 2
    assert max(usable_cores(), 1) >= parallel.WORKERS * parallel.THREADS_PER_RUN
