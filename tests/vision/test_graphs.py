"""Groups of linked things, as the layout steps find them."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from blackcat.vision.graphs import connected_labels


def test_groups_are_numbered_by_their_first_member() -> None:
    linked = np.zeros((5, 5), dtype=bool)
    linked[1, 3] = True  # one way round only: still linked both ways
    linked[4, 2] = True
    count, labels = connected_labels(linked)
    assert count == 3
    assert labels.tolist() == [0, 1, 2, 1, 2]


def test_a_chain_is_one_group() -> None:
    linked = np.eye(6, k=1, dtype=bool)
    count, labels = connected_labels(linked)
    assert count == 1 and set(labels.tolist()) == {0}


def test_nothing_makes_no_group() -> None:
    count, labels = connected_labels(np.zeros((0, 0), dtype=bool))
    assert count == 0 and labels.size == 0


@given(st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11)), max_size=30))
def test_linked_things_share_a_group_and_groups_are_closed(links: list[tuple[int, int]]) -> None:
    linked = np.zeros((12, 12), dtype=bool)
    for a, b in links:
        linked[a, b] = True
    count, labels = connected_labels(linked)
    assert all(labels[a] == labels[b] for a, b in links)
    assert sorted(set(labels.tolist())) == list(range(count))
    # merging any two groups would need a link between them: none exists
    for a, b in zip(*np.nonzero(linked | linked.T), strict=True):
        assert labels[a] == labels[b]
    # each group is reachable from its first member through links alone
    for group in range(count):
        members = set(np.flatnonzero(labels == group).tolist())
        reached, frontier = {min(members)}, [min(members)]
        while frontier:
            node = frontier.pop()
            for other in np.flatnonzero(linked[node] | linked[:, node]).tolist():
                if other not in reached:
                    reached.add(other)
                    frontier.append(other)
        assert reached == members
