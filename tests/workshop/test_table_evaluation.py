"""The whole-table report: piles read right, given to the right side, cards and silent errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from PIL import Image

from blackcat.games.cards import Card
from blackcat.vision.types import Guess, IndexRead, PhotoRead, ReadCard
from blackcat.workshop.evaluation import (
    TableReport,
    cards_of_unseen_piles,
    closest_pile,
    evaluate_table,
    glyph_size,
    photo_size,
    pile_read_right,
    seats_right,
    sides_right,
)

SURE, UNSURE = 0.95, 0.3


def card(code: str, confidence: float = SURE) -> ReadCard:
    parsed = Card.parse(code)
    index = IndexRead((0, 0, 10, 20), 1.0, (Guess(parsed, confidence),))
    return ReadCard(parsed, index.box, confidence, (Guess(parsed, confidence),), (index,))


def photo(piles: list[list[str]], sides: list[str], gaps: tuple = ()) -> PhotoRead:
    return PhotoRead(
        100, 100, tuple(tuple(card(c) for c in pile) for pile in piles), gaps, tuple(sides)
    )


TRUTH = [("QS", "5H", "5D"), ("10C", "2C"), ("AS", "KS", "JS")]
SIDES_OF_TRUTH = ["near", "near", "far"]


def test_a_pile_is_right_in_its_order_or_reversed_but_not_shuffled() -> None:
    assert pile_read_right([["2C", "10C"], ["QS"]], ("10C", "2C"))
    assert pile_read_right([["QS", "5H", "5D"]], ("QS", "5H", "5D"))
    assert not pile_read_right([["5H", "QS", "5D"]], ("QS", "5H", "5D"))
    assert not pile_read_right([["QS", "5H"]], ("QS", "5H", "5D"))


def test_the_closest_pile_shares_the_most_cards_and_none_shares_nothing() -> None:
    read = [["QS", "AS"], ["5H", "5D", "KS"], ["2C"]]
    assert closest_pile(read, ("QS", "5H", "5D")) == 1
    assert closest_pile(read, ("9H",)) is None
    assert closest_pile([], ("9H",)) is None


def test_sides_follow_the_read_pile_closest_to_each_truth_pile() -> None:
    read = photo([["QS", "5H", "5D"], ["10C", "2C"], ["AS", "KS", "JS"]], ["near", "far", "far"])
    assert sides_right(read, TRUTH, SIDES_OF_TRUTH) == [True, False, True]
    assert not seats_right(read, TRUTH, SIDES_OF_TRUTH)
    no_sides = PhotoRead(100, 100, read.piles)  # () reads as every pile "near"
    assert sides_right(no_sides, TRUTH, SIDES_OF_TRUTH) == [True, True, False]


def test_a_pile_read_on_a_side_where_nobody_sits_spoils_the_photo_s_seats() -> None:
    sides = ["near", "near", "far", "left"]
    read = photo([["QS", "5H", "5D"], ["10C", "2C"], ["AS", "KS", "JS"], ["9H"]], sides)
    assert sides_right(read, TRUTH, SIDES_OF_TRUTH) == [True, True, True]
    assert not seats_right(read, TRUTH, SIDES_OF_TRUTH)
    assert seats_right(photo([list(p) for p in TRUTH], sides[:3]), TRUTH, SIDES_OF_TRUTH)


def test_a_table_report_counts_piles_sides_cards_and_silent_errors() -> None:
    report = TableReport()
    # 5H read as 6H and sure of it, 2C missing with no gap marker, the far pile on the wrong side
    read = photo([["QS", "6H", "5D"], ["10C"], ["JS", "KS", "AS"]], ["near", "near", "left"])
    report.add("t1", read, TRUTH, SIDES_OF_TRUTH)
    assert (report.scenes, report.scenes_seats_right) == (1, 0)
    assert (report.cards, report.cards_read, report.cards_right) == (8, 7, 6)
    assert (report.piles, report.piles_right, report.piles_side_right) == (3, 1, 2)
    assert report.piles_laid_right == 3  # misread and missing cards aside, each pile is whole
    assert report.wrong_unflagged == 1
    assert (report.missing, report.missing_silent) == (2, 2)  # the 5H (misread) and the 2C
    assert report.silent_errors == 3
    assert report.side_piles == {"near": 2, "far": 1}
    assert report.side_piles_side_right == {"near": 2, "far": 0}
    assert report.player_scenes == {2: 1} and len(report.failures) == 1
    text = report.summary()
    assert "piles exactly right 0.333" in text and "given to the right side 0.667" in text
    assert "piles laid out right (misread, missing and extra cards aside): 1.000" in text
    assert "37.50 per 100 cards" in text
    assert "gap markers 0, 0 of them where no card was lost" in text
    assert "far 1.000 / 0.000 (1)" in text
    assert "by photo size" not in text  # no size given
    # every index box of these reads is 20 px tall: 6 of the 7 cards read right
    assert "by index size in the photo (cards read right of those read): 16-24 px 0.857 (7)" in text


def test_a_card_s_index_size_is_its_smallest_index_s_longer_side() -> None:
    small, large = IndexRead((0, 0, 10, 15), 1.0, ()), IndexRead((0, 0, 40, 20), 1.0, ())
    five = Card.parse("5H")
    assert glyph_size(ReadCard(five, (0, 0, 40, 20), 0.9, (), (large,))) == ">=32 px"
    assert glyph_size(ReadCard(five, (0, 0, 40, 20), 0.9, (), (large, small))) == "<16 px"
    tall = IndexRead((0, 0, 10, 24), 1.0, ())
    assert glyph_size(ReadCard(five, (0, 0, 10, 24), 0.9, (), (tall,))) == "24-32 px"


def test_piles_right_are_counted_by_the_photo_s_size() -> None:
    assert [photo_size(4000, 3000), photo_size(1224, 1632), photo_size(480, 640)] == [
        "12MP",
        "2MP",
        "640px",
    ]
    report = TableReport()
    report.add("t1", photo([list(p) for p in TRUTH], SIDES_OF_TRUTH), TRUTH, SIDES_OF_TRUTH, "2MP")
    report.add("t2", photo([["QS"]], ["near"]), TRUTH, SIDES_OF_TRUTH, "12MP")
    assert report.size_piles == {"2MP": 3, "12MP": 3}
    assert report.size_piles_right == {"2MP": 3, "12MP": 0}
    assert "by photo size (piles exactly right): 12MP 0.000 (3), 2MP 1.000 (3)" in report.summary()


def test_a_gap_marker_or_a_flag_makes_an_error_seen() -> None:
    report = TableReport()
    read = photo([["QS", "5H", "5D"], ["10C"], ["AS", "KS", "JS"]], SIDES_OF_TRUTH, ((), (1,), ()))
    report.add("t2", read, TRUTH, SIDES_OF_TRUTH)
    assert (report.missing, report.missing_silent, report.silent_errors) == (1, 0, 0)
    assert report.scenes_seats_right == 1 and report.piles_right == 2
    unsure = PhotoRead(100, 100, ((card("QS"), card("6H", UNSURE), card("5D")),), (), ("near",))
    report.add("t3", unsure, [TRUTH[0]], ["near"])
    assert report.wrong_unflagged == 0 and report.silent_errors == 0  # the 6H is flagged
    assert report.player_scenes == {2: 1, 1: 1}
    doubted = PhotoRead(100, 100, ((card("QS", UNSURE), card("5H"), card("5D")),), (), ("near",))
    report.add("t4", doubted, [TRUTH[0]], ["near"])
    assert report.right_flagged == 1  # the QS, right but flagged
    assert "right cards flagged 0.083" in report.summary()  # 1 of the 12 read right


def test_missing_cards_of_piles_nothing_was_read_of_are_counted_apart() -> None:
    assert cards_of_unseen_piles(photo([["QS", "5H"], ["10C"]], ["near"] * 2).piles, TRUTH) == 3
    report = TableReport()
    # the far pile not found at all; of the near ones, 5D and 2C lost where no marker shows
    read = photo([["QS", "5H"], ["10C"]], ["near", "near"])
    report.add("t5", read, TRUTH, SIDES_OF_TRUTH)
    assert (report.missing, report.missing_silent, report.missing_unseen_piles) == (5, 5, 3)
    assert "5 of 5 missing unmarked, 3 of them in piles no card of which was read" in (
        report.summary()
    )


class ReaderOf:
    """Stands in for `CardReader`: reads every photo as the given read."""

    def __init__(self, read: PhotoRead) -> None:
        self.photo = read

    def read(self, image: object) -> PhotoRead:
        return self.photo


def test_evaluate_table_reads_each_scene_s_truth(tmp_path: Path) -> None:
    Image.fromarray(np.zeros((128, 128, 3), np.uint8)).save(tmp_path / "t00000.jpg")
    meta = {"image": "t00000.jpg", "piles": [list(p) for p in TRUTH], "sides": SIDES_OF_TRUTH}
    meta |= {"width": 128, "height": 128}
    (tmp_path / "t00000.json").write_text(json.dumps(meta))
    read = photo([list(p) for p in TRUTH], SIDES_OF_TRUTH)
    report = evaluate_table(ReaderOf(read), [tmp_path / "t00000.json"])  # type: ignore[arg-type]
    assert (report.scenes_seats_right, report.piles_right, report.cards_right) == (1, 3, 8)
    assert report.failures == []
    # every card read is kept for `blackcat calibrate --table`, judged
    assert report.rights == [True] * 8 and len(report.probabilities) == 8
    assert report.size_piles == {"640px": 3}


def test_a_table_folder_alone_is_something_to_measure(monkeypatch, tmp_path: Path) -> None:
    """`--table DIR` draws its scenes into DIR when missing: no real photos needed."""
    from blackcat.cli import build_parser
    from blackcat.cli.evaluate import planned_sets
    from blackcat.workshop import evaluation

    monkeypatch.setattr(evaluation, "SHARED_PHOTOS", tmp_path / "absent")
    argv = ["evaluate", "--table", str(tmp_path / "t"), "--table-scenes", "3"]
    args = build_parser(only="evaluate").parse_args(argv)
    assert planned_sets(args) == [] and args.table_scenes == 3
