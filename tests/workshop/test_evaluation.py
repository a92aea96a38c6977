"""The accuracy measures: matching read cards to labelled whole-card boxes, counting right cards."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from blackcat.games.cards import Card
from blackcat.vision.types import Guess, IndexRead, PhotoRead, ReadCard
from blackcat.workshop.evaluation import (
    LabelledCard,
    NothingToMeasure,
    SceneTruth,
    box_overlaps,
    cards_right,
    evaluate_synthetic,
    judged_scene_cards,
    load_labels,
    load_scene_truths,
    match_cards,
    matched_reads,
    piles_laid_right,
    real_photo_sets,
    same_layout,
    same_piles,
)
from blackcat.workshop.kitty import OtherScenesError


def read_card(code: str, centre: tuple[float, float], confidence: float = 0.9) -> ReadCard:
    x, y = centre
    card = Card.parse(code)
    index = IndexRead((x - 5, y - 10, x + 5, y + 10), 1.0, (Guess(card, confidence),))
    return ReadCard(card, index.box, confidence, (Guess(card, confidence),), (index,))


def test_box_overlaps_are_intersection_over_union() -> None:
    boxes = [(0, 0, 10, 10), (5, 0, 15, 10), (20, 20, 30, 30), (0, 0, 20, 20), (3, 3, 3, 3)]
    overlaps = box_overlaps((0.0, 0.0, 10.0, 10.0), boxes)
    assert overlaps == pytest.approx([1.0, 50 / 150, 0.0, 100 / 400, 0.0])


def test_a_card_read_inside_its_labelled_box_matches() -> None:
    result = match_cards(
        [read_card("QS", (20, 20))], [LabelledCard("QS", (0, 0, 100, 150))], rank_only=False
    )
    assert (result.matched, result.missed, result.extra) == (1, (), ())


def test_each_read_is_judged_most_confident_first_one_label_each() -> None:
    sure, unsure = read_card("QS", (20, 20), 0.95), read_card("QS", (30, 30), 0.4)
    judged, unmatched = matched_reads(
        [unsure, sure], [LabelledCard("QS", (0, 0, 100, 150))], rank_only=False
    )
    assert judged == [(sure, True), (unsure, False)]
    assert unmatched == []


def test_the_right_card_in_the_wrong_place_does_not_match() -> None:
    result = match_cards(
        [read_card("QS", (300, 20))], [LabelledCard("QS", (0, 0, 100, 150))], rank_only=False
    )
    assert (result.matched, result.missed, result.extra) == (0, ("QS",), ("QS",))


def test_a_wrong_suit_counts_against_both_recall_and_precision() -> None:
    result = match_cards(
        [read_card("QH", (20, 20))], [LabelledCard("QS", (0, 0, 100, 150))], rank_only=False
    )
    assert result.matched == 0 and result.read == 1 and result.labelled == 1


def test_rank_only_labels_ignore_the_suit() -> None:
    result = match_cards(
        [read_card("QH", (20, 20))], [LabelledCard("Q?", (0, 0, 100, 150))], rank_only=True
    )
    assert result.matched == 1


def test_each_label_matches_one_read_only() -> None:
    reads = [read_card("9D", (20, 20)), read_card("9D", (80, 130))]
    result = match_cards(reads, [LabelledCard("9D", (0, 0, 100, 150))], rank_only=False)
    assert (result.matched, result.extra) == (1, ("9D",))


def test_real_photos_count_right_cards_flagged_and_wrong_ones_trusted() -> None:
    from blackcat.workshop.evaluation import RealPhotoReport

    reads = [
        read_card("QS", (20, 20), confidence=0.3),  # right, flagged
        read_card("8D", (220, 20), confidence=0.99),  # right, trusted
        read_card("QH", (420, 20), confidence=0.99),  # wrong, trusted
        read_card("2C", (620, 20), confidence=0.3),  # wrong, flagged
    ]
    labels = [
        LabelledCard(code, (200.0 * n, 0.0, 200.0 * n + 100, 150.0))
        for n, code in enumerate(("QS", "8D", "QC", "2S"))
    ]
    result = match_cards(reads, labels, rank_only=False)
    assert (result.right_flagged, result.wrong_unflagged) == (1, 1)
    report = RealPhotoReport("set", (result,), 1.0, rank_only=False)
    assert report.right_flagged == 0.5 and report.wrong_unflagged_per_100 == 25.0
    assert "right cards flagged 0.500; wrong and unflagged 25.00 per 100 cards read" in (
        report.summary()
    )


def test_real_photos_count_gap_markers_and_those_where_no_card_was_lost() -> None:
    from dataclasses import replace

    from blackcat.workshop.evaluation import ImageResult, RealPhotoReport

    whole = ImageResult("a.jpg", labelled=4, read=4, matched=4, missed=(), extra=(), gap_marks=2)
    lost = ImageResult("b.jpg", labelled=4, read=3, matched=3, missed=("QS",), extra=())
    report = RealPhotoReport("set", (whole, replace(lost, gap_marks=1)), 1.0, rank_only=False)
    assert report.gap_marks_line() == (
        "gap markers: 3, 2 of them in photos where no card was lost (25.00 per 100 cards)"
    )
    assert report.gap_marks_line() in report.summary()


def test_cards_right_counts_each_true_card_once_whatever_the_order() -> None:
    truth = [("8D", "2H", "8H"), ("KS",)]
    assert cards_right([("8H", "2H", "8D", "KS")], truth) == 4
    assert cards_right([("8D", "8D", "2C")], truth) == 1


def test_labels_are_read_in_the_shared_format(tmp_path: Path) -> None:
    labels = {"a.jpg": [{"card": "10H", "box": [1, 2, 3, 4]}]}
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    assert load_labels(tmp_path) == {"a.jpg": [LabelledCard("10H", (1, 2, 3, 4))]}


def test_scene_truths_come_from_the_held_out_split(tmp_path: Path) -> None:
    meta = tmp_path / "detect" / "meta"
    (meta / "val").mkdir(parents=True)
    (meta / "train").mkdir()
    scene = {"image": "images/val/s_1.jpg", "layout": "rows", "piles": [["QS", "2C"], []]}
    faults = {"realism": {"squeeze": [1.0, 0.7], "cast": [1.0, 0.9, 0.8]}}
    (meta / "val" / "s_1.json").write_text(json.dumps(scene | faults))
    (meta / "train" / "s_0.json").write_text(json.dumps(scene | {"image": "images/train/s_0.jpg"}))
    (truth,) = load_scene_truths(tmp_path)
    assert truth.image == tmp_path / "detect" / "images" / "val" / "s_1.jpg"
    assert truth.piles == (("QS", "2C"), ())
    assert truth.layout == "rows"
    assert truth.conditions == ("cast", "squeeze")


@pytest.mark.parametrize(("code", "rank"), [("10H", "10"), ("Q?", "Q")])
def test_a_labelled_rank_is_the_code_without_its_suit(code: str, rank: str) -> None:
    assert LabelledCard(code, (0, 0, 1, 1)).rank == rank


def test_piles_laid_out_right_leave_misread_missing_and_extra_cards_aside() -> None:
    truth = [("7H", "8H", "5D", "9H", "8S"), ("KC", "3D", "JH")]
    assert same_layout([("7H", "8H", "5D", "9H"), ("KC", "3D", "JH")], truth)  # 8S missing
    assert same_layout([("7H", "8H", "5C", "9H", "8S", "QS"), ("KC", "3D", "JH")], truth)
    assert same_layout([("JH", "3D", "KC"), ("7H", "8H", "5D", "9H", "8S")], truth)
    assert not same_layout([("7H", "8H", "5D", "9H", "8S", "KC", "3D", "JH")], truth)  # merged
    assert not same_layout([("7H", "8H"), ("5D", "9H", "8S"), ("KC", "3D", "JH")], truth)
    assert not same_layout([("7H", "5D", "8H", "9H", "8S"), ("KC", "3D", "JH")], truth)
    assert not same_layout([("7H", "8H", "5D", "9H", "JH"), ("KC", "3D", "8S")], truth)


def test_each_pile_laid_out_right_or_not_on_its_own() -> None:
    truth = [("7H", "8H", "5D"), ("KC", "3D", "JH"), ("2S", "4S"), ("9C", "10C")]
    read = [("7H", "8H", "5D", "KC"), ("3D", "JH"), ("QS",), ("10C", "9C")]
    # a card of the second pile joined the first; nothing of the third was read right
    assert piles_laid_right(read, truth) == [False, False, True, True]


def test_piles_read_backwards_or_swapped_are_still_the_same_piles() -> None:
    truth = [("8D", "2H", "8H"), ("KS", "9C")]
    assert same_piles([("9C", "KS"), ("8H", "2H", "8D")], truth)


def test_a_card_out_of_order_or_moved_to_another_pile_is_not() -> None:
    truth = [("8D", "2H", "8H"), ("KS", "9C")]
    assert not same_piles([("2H", "8D", "8H"), ("KS", "9C")], truth)
    assert not same_piles([("8D", "2H"), ("8H", "KS", "9C")], truth)


def one_photo_set(folder: Path) -> Path:
    """A real-photo set of one blank photo with one labelled card."""
    (folder / "images").mkdir(parents=True)
    Image.new("RGB", (200, 150), "white").save(folder / "images" / "blank.png")
    (folder / "labels.json").write_text(
        json.dumps({"blank.png": [{"card": "QS", "box": [0, 0, 9, 9]}]})
    )
    return folder


def test_evaluate_reads_with_the_detector_size_and_threshold_it_is_given(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from blackcat.cli import main

    photos = one_photo_set(tmp_path / "blank-set")
    argv = ["evaluate", "--real", str(photos), "--detect-size", "320", "--confidence", "0.5"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "detector at 320 px, threshold 0.5" in out
    assert "blank-set: " in out and "card recall 0.000" in out


def test_a_set_is_named_by_folder_or_by_its_name_in_the_shared_photos(tmp_path: Path) -> None:
    shared = tmp_path / "real-photos"
    poker = one_photo_set(shared / "rf100-poker-cards")
    (shared / "unlabelled").mkdir()
    assert real_photo_sets([Path("rf100-poker-cards")], shared) == [poker]
    assert real_photo_sets([poker], shared) == [poker]
    assert real_photo_sets(None, shared) == real_photo_sets([], shared) == [poker]
    with pytest.raises(NothingToMeasure, match=r"--real nowhere: no labels\.json"):
        real_photo_sets([Path("nowhere")], shared)
    absent = tmp_path / "absent"
    with pytest.raises(NothingToMeasure) as refused:
        real_photo_sets([absent], shared)
    assert str(refused.value).startswith(f"--real {absent}: no labels.json in {absent}; give")


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["evaluate"], "nothing to measure: the real photos"),
        (["evaluate", "--real", "rf100-poker-cards"], "--real rf100-poker-cards: no labels.json"),
        (["evaluate", "--synthetic", "no-such-folder"], "no held-out scenes"),
        (["evaluate", "--synthetic", "no-val-scenes"], "no held-out scenes"),
        (["evaluate", "--kitty-hard"], "--kitty-hard: for kitty scenes; give --kitty DIR too"),
        (["evaluate", "--style", "dark_face"], "--style dark_face draws kitty or table scenes"),
        (["evaluate", "--kitty-seed", "0"], "--kitty-seed: for kitty scenes; give --kitty DIR"),
        (["evaluate", "--table-scenes", "5"], "--table-scenes: for table scenes; give --table"),
    ],
    ids=[
        "fresh-clone",
        "unknown-set",
        "no-scenes",
        "training-scenes-alone",
        "kitty-option-alone",
        "style-alone",
        "kitty-seed-alone",
        "table-scenes-alone",
    ],
)
def test_a_fresh_clone_is_told_what_evaluate_needs(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    says: str,
) -> None:
    """No ../shared beside the clone: one line on what to give, exit status 2, no traceback."""
    from blackcat.cli import main
    from blackcat.workshop import evaluation

    monkeypatch.setattr(evaluation, "SHARED_PHOTOS", tmp_path / "absent")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "no-val-scenes" / "detect" / "meta" / "val").mkdir(parents=True)  # all train
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("blackcat evaluate: ") and says in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.usefixtures("card_art")
def test_a_folder_of_scenes_drawn_otherwise_is_refused_before_anything_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Measured as asked, plain scenes were reported as harder ones (and as another style)."""
    from blackcat.cli import main
    from blackcat.workshop.kitty import DRAWN_WITH

    folder = tmp_path / "k"
    assert main(["evaluate", "--kitty", str(folder), "--kitty-scenes", "1"]) == 0
    recorded = json.loads((folder / DRAWN_WITH).read_text())
    assert recorded["hard"] is False and recorded["seed"] == 8
    capsys.readouterr()
    argv = ["evaluate", "--kitty", str(folder), "--kitty-scenes", "2", "--kitty-hard"]
    assert main([*argv, "--kitty-seed", "9"]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"blackcat evaluate: {folder} holds scenes drawn otherwise (seed 8, not 9; hard false, "
        "not true): give another folder, or the options they were drawn with\n"
    )
    assert sorted(path.name for path in folder.glob("k*.json")) == ["k00000.json"]  # none added


def test_a_record_of_scenes_never_drawn_gives_way(tmp_path: Path) -> None:
    """A run stopped before its first scene left a record and no scene: the folder is empty."""
    from blackcat.workshop.kitty import DRAWN_WITH, keep_to_drawn_with

    keep_to_drawn_with(tmp_path, "k", {"seed": 8, "hard": False})
    keep_to_drawn_with(tmp_path, "k", {"seed": 8, "hard": True})  # no scene yet: no refusal
    assert json.loads((tmp_path / DRAWN_WITH).read_text()) == {"seed": 8, "hard": True}
    (tmp_path / "k00000.json").write_text("{}")
    with pytest.raises(OtherScenesError, match=r"hard true, not false"):
        keep_to_drawn_with(tmp_path, "k", {"seed": 8, "hard": False})


def test_scenes_are_not_drawn_in_among_other_files(tmp_path: Path) -> None:
    """`evaluate --kitty` given a synth set drew 200 scenes in among its files, unsaid."""
    from blackcat.workshop.kitty import DRAWN_WITH, keep_to_drawn_with

    (tmp_path / "detect").mkdir()
    with pytest.raises(OtherScenesError, match=r"holds other files \(detect\)"):
        keep_to_drawn_with(tmp_path, "k", {"seed": 8})
    assert not (tmp_path / DRAWN_WITH).exists()
    (tmp_path / "detect").rmdir()
    (tmp_path / "kitty-notes.md").write_text("")  # begins like a scene's name, but isn't one
    with pytest.raises(OtherScenesError, match=r"kitty-notes.md"):
        keep_to_drawn_with(tmp_path, "k", {"seed": 8})
    stopped = tmp_path / "stopped"  # a run stopped in its first scene: its own files only
    stopped.mkdir()
    (stopped / "k00000.jpg").write_bytes(b"")
    keep_to_drawn_with(stopped, "k", {"seed": 8})


def test_a_models_folder_lacking_files_is_said_to_read_without_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from blackcat.cli import main
    from blackcat.vision.reader import CLASSIFIER_FILE, DETECTOR_FILE, MODELS_DIR

    candidate = tmp_path / "candidate"
    candidate.mkdir()
    for name in (DETECTOR_FILE, CLASSIFIER_FILE):
        (candidate / name).symlink_to(MODELS_DIR / name)
    photos = one_photo_set(tmp_path / "blank-set")
    assert main(["evaluate", "--real", str(photos), "--models", str(candidate)]) == 0
    assert (
        f"{candidate} has no calibration.json, table_calibration.json, table_detector.onnx, "
        "table_classifier.onnx, suit_classifier.onnx: read without them"
    ) in capsys.readouterr().out


def test_a_models_folder_with_no_models_says_so_of_that_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It said to restore models/ from the repository, of a folder that was never models/."""
    from blackcat.cli import main

    empty = tmp_path / "candidate"
    empty.mkdir()
    photos = one_photo_set(tmp_path / "blank-set")
    assert main(["evaluate", "--real", str(photos), "--models", str(empty)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"blackcat evaluate: trained models not found: {empty}/")
    assert "give the folder the models are in, or leave --models out" in err
    assert "restore models/" not in err


def test_a_kitty_folder_alone_is_something_to_measure(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`--kitty DIR` draws its scenes into DIR when missing: no real photos needed."""
    from blackcat.cli import build_parser
    from blackcat.cli.evaluate import planned_sets
    from blackcat.workshop import evaluation

    monkeypatch.setattr(evaluation, "SHARED_PHOTOS", tmp_path / "absent")
    args = build_parser(only="evaluate").parse_args(["evaluate", "--kitty", str(tmp_path / "k")])
    assert planned_sets(args) == []
    nothing = build_parser(only="evaluate").parse_args(["evaluate"])
    with pytest.raises(NothingToMeasure, match="--kitty DIR"):
        planned_sets(nothing)


def test_a_card_style_to_draw_is_checked_before_anything_is_drawn(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from blackcat.cli import main

    argv = ["evaluate", "--kitty", str(tmp_path / "k"), "--style", "dark_faces"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "--style dark_faces: no such card style" in err and "dark_face" in err
    assert not (tmp_path / "k").exists()


class ReaderOf:
    """Stands in for `CardReader`: reads every photo as the piles it was given."""

    def __init__(self, piles: list[list[str]]) -> None:
        self.piles = piles

    def read(self, image: object) -> PhotoRead:
        rows = tuple(
            tuple(read_card(code, (10.0 * i, 10.0)) for i, code in enumerate(pile))
            for pile in self.piles
        )
        return PhotoRead(64, 64, rows)


def test_a_synthetic_report_counts_right_extra_and_by_deck(tmp_path: Path) -> None:
    image = tmp_path / "scene.png"
    Image.new("RGB", (128, 128)).save(image)
    truth = SceneTruth(image, (("QS", "8D", "2S"),), "rows", deck="plastic")
    report = evaluate_synthetic(ReaderOf([["QS", "8H", "2S", "KC"]]), [truth])  # type: ignore[arg-type]
    assert (report.cards, report.cards_right, report.cards_extra) == (3, 2, 2)
    assert report.scenes_in_order == 0 and len(report.failures) == 1
    assert "cards read right by deck: plastic 0.667" in report.summary()
    assert "cards read that are not there: 2" in report.summary()


def test_a_scenes_cards_are_judged_against_its_piles_each_card_once(tmp_path: Path) -> None:
    image = tmp_path / "scene.png"
    Image.new("RGB", (128, 128)).save(image)
    truth = SceneTruth(image, (("QS", "8D"), ()), "fan")
    judged = judged_scene_cards(ReaderOf([["QS", "8H"], ["8D", "QS"]]), truth)  # type: ignore[arg-type]
    assert [(card.card.code, right) for card, right in judged] == [
        ("QS", True),
        ("8H", False),
        ("8D", True),
        ("QS", False),
    ]


def test_a_synthetic_report_counts_right_cards_flagged_and_wrong_ones_trusted(
    tmp_path: Path,
) -> None:
    from blackcat.workshop.evaluation import flags_judged

    image = tmp_path / "scene.png"
    Image.new("RGB", (128, 128)).save(image)
    truth = SceneTruth(image, (("QS", "8D"),), "fan")
    # read_card's cards are read at 0.9, above the doubt threshold: trusted
    report = evaluate_synthetic(ReaderOf([["QS", "8H", "KC"]]), [truth])  # type: ignore[arg-type]
    assert (report.right_flagged, report.wrong_unflagged, report.cards_read) == (0, 2, 3)
    assert "right cards flagged 0.000; wrong and unflagged 66.67 per 100 cards read" in (
        report.summary()
    )
    # the surer of two reads of one card is the right one, the other a wrong one
    twice = [read_card("QS", (0, 0), confidence=0.3), read_card("QS", (9, 0), confidence=0.99)]
    assert flags_judged(twice, [("QS",)]) == (0, 0)
    assert flags_judged(list(reversed(twice)), [("QS", "QS")]) == (1, 0)


def test_a_synthetic_report_gives_recall_and_precision_by_layout_and_camera_fault(
    tmp_path: Path,
) -> None:
    image = tmp_path / "scene.png"
    Image.new("RGB", (128, 128)).save(image)
    fan = SceneTruth(image, (("QS", "8D", "2S"),), "fan", conditions=("speckle", "squeeze"))
    loose = SceneTruth(image, (("QS",), ("8D",)), "singles")
    report = evaluate_synthetic(ReaderOf([["QS", "8H"]]), [fan, loose])  # type: ignore[arg-type]
    summary = report.summary()
    assert "by layout (recall / precision): fan 0.333 / 0.500 (3), singles 0.500 / 0.500 (2)" in (
        summary
    )
    assert "clean 0.500 / 0.500 (2), speckle 0.333 / 0.500 (3), squeeze 0.333 / 0.500 (3)" in (
        summary
    )


def test_a_kitty_report_counts_piles_cards_phantoms_and_flags() -> None:
    from blackcat.workshop.evaluation import KittyReport

    truth = [("QS", "5H", "5D"), ("10C",)]
    sure, unsure = 0.95, 0.3
    read = [
        [read_card("QS", (10, 10), sure), read_card("5H", (30, 10), sure)],
        [read_card("10C", (10, 200), unsure), read_card("4S", (500, 500), sure)],
    ]
    report = KittyReport()
    boxes = [(0, 0, 20, 20), (20, 0, 40, 20), (40, 0, 60, 20), (0, 190, 20, 210)]
    report.add("k1", "2MP", read, truth, boxes)
    assert (report.scenes, report.scenes_right) == (1, 0)
    assert (report.cards, report.cards_read, report.cards_right) == (4, 4, 3)
    assert report.phantoms == 1  # the 4S, where no card's index is
    assert report.wrong_unflagged == 1  # the phantom was sure of itself
    assert report.right_flagged == 1  # the 10C was right but doubtful
    assert report.rights == [True, True, True, False]
    assert report.reals == [True, True, True, False]
    assert (report.piles, report.piles_right) == (2, 0)
    assert "photos with every pile exactly right 0.000" in report.summary()
    report.add("k2", "2MP", [[read_card("QS", (10, 10), sure)], []], [("QS",), ("7H",)], boxes)
    assert (report.scenes, report.scenes_right, report.piles, report.piles_right) == (2, 0, 4, 1)
    assert "4 piles; photos with every pile exactly right 0.000" in report.summary()
    assert "piles exactly right 0.250" in report.summary()  # piles, not photos


def test_a_kitty_report_takes_a_pile_read_backwards_as_right() -> None:
    from blackcat.workshop.evaluation import KittyReport

    report = KittyReport()
    read = [[read_card("5D", (10, 10)), read_card("5H", (30, 10)), read_card("QS", (50, 10))]]
    report.add("k2", "12MP", read, [("QS", "5H", "5D")])
    assert report.scenes_right == 1
    assert report.by_size_right["12MP"] == 1


def test_kitty_scenes_are_planned_alike_for_a_seed_with_distinct_cards() -> None:
    from blackcat.workshop.kitty import PHOTO_SIZES, plan_scene

    decks = ("plastic", "tigullio")
    plans = [plan_scene(8, index, decks) for index in range(60)]
    assert plans == [plan_scene(8, index, decks) for index in range(60)]
    for plan in plans:
        codes = [code for pile in plan.piles for code in pile]
        assert len(codes) == len(set(codes))
        assert 1 <= len(plan.piles) <= 2 and all(4 <= len(pile) <= 15 for pile in plan.piles)
        assert plan.deck in decks and plan.imgsz in PHOTO_SIZES.values()
    turned = [plan for plan in plans if abs(plan.tilt_degrees) > 20]
    assert 0 < len(turned) < len(plans) / 2


def test_a_kitty_report_counts_piles_and_recall_per_card_style() -> None:
    from blackcat.workshop.evaluation import KittyReport

    report = KittyReport()
    report.add("k1", "2MP", [[read_card("QS", (10, 10)), read_card("5H", (30, 10))]],
               [("QS", "5H")], style="jumbo")  # fmt: skip
    report.add("k2", "2MP", [[read_card("QS", (10, 10))]], [("QS", "5D")], style="font_serif")
    assert report.by_style == {"jumbo": 1, "font_serif": 1}
    assert (report.by_style_right["jumbo"], report.by_style_right["font_serif"]) == (1, 0)
    assert (report.style_cards["font_serif"], report.style_cards_right["font_serif"]) == (2, 1)
    summary = report.summary()
    assert "jumbo 1.000 (1; recall 1.000)" in summary
    assert "font_serif* 0.000 (1; recall 0.500)" in summary  # held out of training


def test_kitty_scenes_draw_every_measured_card_style_held_out_ones_too() -> None:
    from blackcat.workshop.kitty import plan_scene
    from blackcat.workshop.synth.styles import HELD_OUT, KITTY_STYLE_WEIGHTS

    styles = {plan_scene(8, index, ("plastic",)).style for index in range(300)}
    assert styles == set(dict(KITTY_STYLE_WEIGHTS)) and styles >= HELD_OUT


def test_a_missing_card_is_silent_unless_a_gap_or_a_flag_stands_where_it_belongs() -> None:
    from blackcat.workshop.evaluation import missing_cards

    read = [[read_card("QS", (10, 10)), read_card("5D", (30, 10)), read_card("7C", (50, 10))]]
    truth = [("QS", "5H", "5D", "7C", "8C")]
    assert missing_cards(read, truth) == [("5H", True), ("8C", True)]
    assert missing_cards(read, truth, gaps=[(1, 3)]) == [("5H", False), ("8C", False)]
    doubtful = [[read[0][0], read_card("5D", (30, 10), 0.1), read[0][2]]]
    assert missing_cards(doubtful, truth) == [("5H", False), ("8C", True)]
    backwards = [list(reversed(read[0]))]
    assert sorted(missing_cards(backwards, truth, gaps=[(0, 2)])) == [("5H", False), ("8C", False)]


def test_a_gap_marker_is_false_where_no_card_was_lost() -> None:
    from blackcat.workshop.evaluation import false_gap_marks

    read = [[read_card("QS", (10, 10)), read_card("5D", (30, 10)), read_card("7C", (50, 10))]]
    truth = [("QS", "5H", "5D", "7C", "8C")]
    assert false_gap_marks(read, truth) == (0, 0)
    assert false_gap_marks(read, truth, gaps=[(1, 3)]) == (2, 0)  # before 5D, after 7C: lost
    assert false_gap_marks(read, truth, gaps=[(1, 2)]) == (2, 1)  # before 7C: nothing lost
    whole = [("QS", "5D", "7C")]
    assert false_gap_marks(read, whole, gaps=[(2,)]) == (1, 1)


def test_a_kitty_report_counts_silent_errors_and_piles_by_turn() -> None:
    from blackcat.workshop.evaluation import KittyReport

    report = KittyReport()
    read = [[read_card("QS", (10, 10)), read_card("5D", (30, 10))]]
    report.add("k1", "2MP", read, [("QS", "5H", "5D")], turn=90)
    report.add("k2", "2MP", read, [("QS", "5H", "5D")], gaps=[(1,)], turn=0)
    assert (report.missing, report.missing_silent, report.silent_errors) == (2, 1, 1)
    assert report.by_turn == {90: 1, 0: 1} and report.by_turn_right == {90: 0, 0: 0}
    assert (report.piles_read, report.piles_off_side) == (2, 1)  # turned, read as the near side's
    assert "silent errors (wrong unflagged + missing unmarked): 16.67 per 100 cards" in (
        report.summary()
    )
    assert "gap markers: 1, 0 of them where no card was lost (0.00 per 100 cards)" in (
        report.summary()
    )
    report.add("k3", "2MP", read, [("QS", "5H", "5D")], turn=180, sides=("far",))
    assert (report.piles_read, report.piles_off_side) == (3, 1)
    assert "another side than the one they face: 1 of 3" in report.summary()


def test_harder_kitty_scenes_show_the_same_cards_rolled_further() -> None:
    from blackcat.workshop.kitty import plan_scene

    decks = ("plastic", "tigullio")
    plain = [plan_scene(8, index, decks) for index in range(80)]
    hard = [plan_scene(8, index, decks, hard=True) for index in range(80)]
    assert [(p.piles, p.deck, p.style) for p in plain] == [(h.piles, h.deck, h.style) for h in hard]
    assert all(h.hard and not p.hard for p, h in zip(plain, hard, strict=True))
    rolls = [(h.tilt_degrees + 45) % 90 - 45 for h in hard]  # off the nearest quarter turn
    assert all(abs(roll) <= 20 for roll in rolls) and any(abs(roll) > 10 for roll in rolls)
    assert all(abs((p.tilt_degrees + 45) % 90 - 45) <= 10 for p in plain)


def test_small_kitty_scenes_show_the_same_cards_the_same_way() -> None:
    from blackcat.workshop.kitty import plan_scene

    decks = ("plastic", "tigullio")
    plain = [plan_scene(8, index, decks) for index in range(40)]
    small = [plan_scene(8, index, decks, small=True) for index in range(40)]
    assert [replace(p, small=True) for p in plain] == small


def test_pushed_kitty_scenes_show_two_or_three_rows_pushed_into_each_other() -> None:
    from blackcat.workshop.kitty import PUSHED_APART, plan_scene

    decks = ("plastic", "tigullio")
    plain = [plan_scene(8, index, decks) for index in range(60)]
    pushed = [plan_scene(8, index, decks, pushed=True) for index in range(60)]
    # the rest of each plan as the plain one's
    assert [
        replace(p, piles=q.piles, rows_apart=q.rows_apart)
        for p, q in zip(plain, pushed, strict=True)
    ] == pushed
    assert all(p.rows_apart is None for p in plain)
    assert all(PUSHED_APART[0] <= p.rows_apart <= PUSHED_APART[1] for p in pushed)
    assert {len(p.piles) for p in pushed} == {2, 3}
    for plan in pushed:
        cards = [code for pile in plan.piles for code in pile]
        assert len(cards) == len(set(cards)) and all(3 <= len(pile) <= 10 for pile in plan.piles)
    assert pushed == [plan_scene(8, index, decks, pushed=True) for index in range(60)]


def test_angled_kitty_scenes_show_two_rows_each_turned_its_own_way() -> None:
    from blackcat.workshop.kitty import ROW_TURNS, plan_scene

    decks = ("plastic", "tigullio")
    plain = [plan_scene(8, index, decks) for index in range(60)]
    angled = [plan_scene(8, index, decks, angled=True) for index in range(60)]
    assert [
        replace(p, piles=q.piles, row_turns=q.row_turns) for p, q in zip(plain, angled, strict=True)
    ] == angled
    assert all(p.row_turns == () for p in plain)
    assert all(len(p.piles) == len(p.row_turns) == 2 for p in angled)
    assert all(abs(turn) <= ROW_TURNS for p in angled for turn in p.row_turns)
    assert max(abs(a - b) for p in angled for a, b in [p.row_turns]) > 20  # far apart at times


def test_camera_fault_kitty_scenes_show_the_same_cards_each_under_one_condition() -> None:
    from blackcat.workshop.kitty import CONDITIONS, condition_camera, plan_scene
    from blackcat.workshop.synth.realism import NEUTRAL

    decks = ("plastic", "tigullio")
    plain = [plan_scene(8, index, decks) for index in range(90)]
    faulty = [plan_scene(8, index, decks, faults=True) for index in range(90)]
    assert [replace(p, condition=f.condition) for p, f in zip(plain, faulty, strict=True)] == faulty
    assert {f.condition for f in faulty} == set(CONDITIONS)
    assert condition_camera("clean") == (NEUTRAL, None, None)
    assert all(condition_camera(name) != (NEUTRAL, None, None) for name in CONDITIONS[1:])


def test_a_kitty_report_counts_piles_and_recall_per_camera_condition() -> None:
    from blackcat.workshop.evaluation import KittyReport

    report = KittyReport()
    read = [[read_card("QS", (10, 10)), read_card("5D", (30, 10))]]
    report.add("k1", "2MP", read, [("QS", "5D")], condition="dim")
    report.add("k2", "2MP", read, [("QS", "5H")], condition="dim")
    report.add("k3", "2MP", read, [("QS", "5D")], condition="fingers")
    assert report.by_condition == {"dim": 2, "fingers": 1}
    assert report.by_condition_right == {"dim": 1, "fingers": 1}
    assert "dim 0.500 / 0.750 (2)" in report.summary()
    assert "camera condition" not in KittyReport().summary()


def test_blur_is_tallied_against_the_photos_read_with_an_error() -> None:
    from blackcat.workshop.evaluation import BlurTally

    sure = (read_card("QS", (10, 10)), read_card("8D", (40, 10)))
    unsure = (read_card("QS", (10, 10), confidence=0.3), read_card("8D", (40, 10)))
    tally = BlurTally()
    tally.add(PhotoRead(100, 100, (unsure,), sharpness=1.5), error=True)  # asked, rightly
    tally.add(PhotoRead(100, 100, (sure,), sharpness=1.5), error=False)  # blurred, read surely
    tally.add(PhotoRead(100, 100, (unsure,), sharpness=3.5), error=True)  # sharp, yet wrong
    tally.add(PhotoRead(100, 100, (sure,)), error=False)  # too few cards to judge
    assert (tally.photos, tally.blurred, tally.asked, tally.asked_with_error) == (4, 2, 1, 1)
    assert tally.line() == (
        "  look blurred: 2 of 4 photos; asked for a sharper one: 1, 1 of them read with an "
        "error (2 photos read with an error in all)"
    )


def test_card_places_are_each_cards_most_visible_index_and_lost_ones_those_not_read() -> None:
    from blackcat.workshop.evaluation import card_places, lost_places

    cards = [
        {
            "code": "QS",
            "indices": [
                {"box": [0, 0, 10, 20], "visibility": 0.2},
                {"box": [100, 100, 110, 120], "visibility": 1.0},
            ],
        },
        {"code": "3H", "indices": [{"box": [200, 0, 210, 20], "visibility": 0.9}]},
        {"code": "KD", "indices": []},  # face down or hidden: nowhere to point at
    ]
    places = card_places(cards)
    assert places == (("QS", (105.0, 110.0)), ("3H", (205.0, 10.0)))
    photo = PhotoRead(width=300, height=200, piles=((read_card("QS", (105, 110)),),))
    assert lost_places(places, [("QS", "3H", "KD")], photo) == [(205.0, 10.0)]


def test_unread_places_are_tallied_against_the_cards_a_read_lost() -> None:
    from blackcat.workshop.evaluation import UnreadTally

    tally = UnreadTally()
    places = ((0.0, 0.0, 100.0, 100.0), (200.0, 0.0, 300.0, 100.0))
    lost = [(50.0, 50.0), (350.0, 50.0)]
    tally.add(PhotoRead(width=400, height=200, piles=(), unread_places=places), lost, lost[:1])
    tally.add(PhotoRead(width=400, height=200, piles=()), [(10, 10)], [(10, 10)])
    assert (tally.photos, tally.with_places, tally.places, tally.places_at_lost) == (2, 1, 2, 1)
    assert (tally.lost, tally.lost_in_places) == (3, 1)
    assert (tally.unmarked, tally.unmarked_in_places) == (2, 1)
    assert tally.line() == (
        "  places too small to read: 2 in 1 of 2 photos, 1 of them where a card was lost; 1 of "
        "the 3 cards lost lie in one (1 of the 2 lost with no gap marker or flagged neighbour)\n"
        "  piles in a grid (rows or columns): 0 in 0 of 2 photos\n"
        "  piles whose cards lie in no row (counted, not ordered): 0 of 0 in 0 of 2 photos"
    )
    grid = ((read_card("QS", (105, 110)),), (read_card("3H", (105, 150)),))
    tally.add(PhotoRead(width=400, height=200, piles=grid, rows_or_columns=(True, True)), [])
    assert "piles in a grid (rows or columns): 2 in 1 of 3 photos\n" in tally.line()
    tally.add(PhotoRead(width=400, height=200, piles=grid, in_no_row=(False, True)), [])
    assert tally.line().endswith(
        "piles whose cards lie in no row (counted, not ordered): 1 of 4 in 1 of 4 photos"
    )


def test_unmarked_places_are_the_lost_cards_no_gap_or_flag_points_at() -> None:
    from blackcat.workshop.evaluation import unmarked_places

    places = (("QS", (10.0, 10.0)), ("3H", (30.0, 10.0)), ("KD", (500.0, 10.0)))
    photo = PhotoRead(width=600, height=100, piles=((read_card("QS", (10, 10)),),))
    truth = [("QS", "3H"), ("KD",)]
    # 3H and KD are lost; the QS's pile shows no gap, so nothing marks either
    assert unmarked_places(places, truth, photo) == [(30.0, 10.0), (500.0, 10.0)]
    marked = replace(photo, gaps=((1,),))  # a gap after the QS: where the 3H belongs
    assert unmarked_places(places, truth, marked) == [(500.0, 10.0)]


@pytest.mark.parametrize("where", ["missing/failures.txt", "."])
def test_failures_that_could_not_be_written_are_said_before_anything_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    from blackcat.cli import main

    kitty = tmp_path / "kitty"
    assert main(["evaluate", "--kitty", str(kitty), "--failures", str(tmp_path / where)]) == 2
    err = capsys.readouterr().err.splitlines()[-1]
    assert err.startswith(f"blackcat evaluate: --failures {tmp_path / where}")
    assert not kitty.exists()


def test_a_ratio_of_nothing_is_said_as_none_measured() -> None:
    """Nothing read: recall is 0, and what was read right has no share flagged, nor a layout."""
    from blackcat.workshop.evaluation import KittyReport, TableReport

    kitty = KittyReport(scenes=3, cards=38, piles=3, cards_read=0, scenes_laid_right=3)
    said = kitty.summary()
    assert "card recall 0.0000, precision n/a" in said
    assert "right cards flagged: n/a" in said
    assert "(misread, missing and extra cards aside): n/a" in said
    table = TableReport(scenes=1, cards=9, piles=2, piles_laid_right=2).summary()
    assert "piles laid out right (misread, missing and extra cards aside): n/a" in table
    assert "0.000" not in KittyReport().summary() + TableReport().summary()


class ReaderWithGaps(ReaderOf):
    """`ReaderOf`, with these gap markers in its piles."""

    def __init__(self, piles: list[list[str]], gaps: tuple[tuple[int, ...], ...]) -> None:
        super().__init__(piles)
        self.gaps = gaps

    def read(self, image: object) -> PhotoRead:
        return replace(super().read(image), gaps=self.gaps)


def test_a_synthetic_report_counts_gap_markers_and_lost_cards_by_layout(tmp_path: Path) -> None:
    image = tmp_path / "scene.png"
    Image.new("RGB", (128, 128)).save(image)
    row = SceneTruth(image, (("QS", "8D", "2S"),), "rows")
    loose = SceneTruth(image, (("QS",), ("8D",), ("2S",)), "singles")
    # 8D lost and marked where it lay; a marker after 2S where nothing was lost
    reader = ReaderWithGaps([["QS", "2S"]], ((1, 2),))
    report = evaluate_synthetic(reader, [row, loose])  # type: ignore[arg-type]
    # the loose scene: 8D lost with no pile to mark it in, both markers false
    assert report.gaps_line() == "rows 2 / 1; 1 / 0, singles 2 / 2; 1 / 1"
    assert "by layout: rows 2 / 1; 1 / 0, singles 2 / 2; 1 / 1" in report.summary()
