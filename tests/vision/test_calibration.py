"""Calibration: raw belief -> probability, the doubt threshold, the reliability table."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from blackcat.vision.calibration import (
    CALIBRATION_FILE,
    TABLE_CALIBRATION_FILE,
    UNCALIBRATED,
    Calibration,
    choose_drop_threshold,
    choose_threshold,
    fit,
    fit_agreement,
    fit_framed_weight,
    fit_isotonic,
    flag_rates,
    load_calibration,
    load_table_threshold,
    reliability_table,
)
from blackcat.vision.types import Evidence


def evidence(
    card: float, detected: float = 0.8, corners: int = 1, framed: bool = False
) -> Evidence:
    return Evidence(card, detected, 1.0, 1.0, corners, framed)


def test_uncalibrated_is_the_models_joint_belief() -> None:
    assert UNCALIBRATED(Evidence(0.5, 0.8, 0.9, 1.0, 1)) == pytest.approx(0.36)


def test_a_fit_learns_which_evidence_tells_right_from_wrong() -> None:
    # right or wrong depends on the classifier alone: the detector's confidence says nothing
    rng = np.random.default_rng(0)
    cards = rng.random(4000)
    detected = rng.uniform(0.3, 0.9, 4000)
    right = rng.random(4000) < cards**2
    calibration = fit([evidence(c, d) for c, d in zip(cards, detected, strict=True)], right)
    for belief in (0.3, 0.6, 0.9):
        assert calibration(evidence(belief, 0.3)) == pytest.approx(belief**2, abs=0.08)
        assert calibration(evidence(belief, 0.9)) == pytest.approx(belief**2, abs=0.08)


def test_cards_no_detector_found_are_left_out_of_the_fit() -> None:
    rng = np.random.default_rng(1)
    cards = rng.random(400)
    measured = [evidence(c, d) for c, d in zip(cards, rng.uniform(0.3, 0.9, 400), strict=True)]
    right = list(rng.random(400) < cards)
    read_in_gaps = [evidence(0.4, 0.0)] * 50  # all right: they would pull the fit their way
    assert fit(measured + read_in_gaps, right + [True] * 50) == fit(measured, right)


@given(st.lists(st.tuples(st.floats(0, 1), st.booleans()), min_size=2, max_size=200))
def test_an_isotonic_fit_never_decreases_and_stays_a_probability(pairs) -> None:
    calibration = fit_isotonic([raw for raw, _ in pairs], [ok for _, ok in pairs])
    values = [calibration(evidence(x, 1.0)) for x in np.linspace(0, 1, 21)]
    assert values == sorted(values)
    assert all(0 <= value <= 1 for value in values)


def test_the_threshold_keeps_unflagged_cards_right_at_the_least_cost() -> None:
    probabilities = [0.99] * 95 + [0.6] * 5 + [0.3] * 10
    right = [True] * 95 + [False, True, True, True, True] + [False] * 10
    cheap_silence = choose_threshold(probabilities, right, max_wrong_per_100=1.0, silent_cost=3)
    assert cheap_silence.doubtful_below == pytest.approx(0.6)  # 1 wrong among the 100 from 0.6 up
    assert cheap_silence.wrong_unflagged_per_100 == pytest.approx(1.0)
    assert cheap_silence.right_flagged == 0.0
    # one silent error costs more than checking the four right cards at 0.6
    costly_silence = choose_threshold(probabilities, right, max_wrong_per_100=1.0, silent_cost=10)
    assert costly_silence.doubtful_below == pytest.approx(0.99)
    stricter = choose_threshold(probabilities, right, max_wrong_per_100=0.5, silent_cost=3)
    assert stricter.doubtful_below == pytest.approx(0.99)
    assert stricter.right_flagged == pytest.approx(4 / 99)


def test_models_that_rarely_err_still_flag_their_likely_errors() -> None:
    probabilities = [0.999] * 990 + [0.5] * 10
    right = [True] * 990 + [False] * 5 + [True] * 5  # 0.5 % wrong: under any limit of 1 in 100
    choice = choose_threshold(probabilities, right, max_wrong_per_100=1.0)
    assert choice.doubtful_below == pytest.approx(0.999)
    assert choice.wrong_unflagged_per_100 == 0.0


def test_no_threshold_meets_the_limit_flags_everything() -> None:
    choice = choose_threshold([0.9, 0.9], [False, False], max_wrong_per_100=1.0)
    assert choice.doubtful_below > 1.0


def test_flag_rates_count_wrong_unflagged_and_right_flagged() -> None:
    rates = flag_rates([0.9, 0.9, 0.5, 0.5], [True, False, True, False], threshold=0.8)
    assert rates.wrong_unflagged_per_100 == pytest.approx(50.0)
    assert rates.right_flagged == pytest.approx(0.5)


def test_the_reliability_table_bins_cards_by_stated_probability() -> None:
    table = reliability_table([0.05, 0.15, 0.95, 0.97], [False, True, True, True], bins=10)
    assert [(row.low, row.cards) for row in table] == [
        (pytest.approx(0.0), 1),
        (pytest.approx(0.1), 1),
        (pytest.approx(0.9), 2),
    ]
    assert table[-1].right == 1.0


def test_a_fit_learns_that_a_card_seen_at_three_of_its_corners_is_right_more_often() -> None:
    # as often right as the classifier says, but always where seen as a card's corners
    rng = np.random.default_rng(2)
    cards, framed = rng.uniform(0.3, 0.9, 4000), rng.random(4000) < 0.3
    right = framed | (rng.random(4000) < cards)
    calibration = fit([evidence(c, 0.8, 3, f) for c, f in zip(cards, framed, strict=True)], right)
    assert calibration(evidence(0.6, 0.8, 3)) == pytest.approx(0.6, abs=0.08)
    assert calibration(evidence(0.6, 0.8, 3, framed=True)) > 0.95


def test_the_framed_weight_is_fitted_alone_and_the_rest_kept() -> None:
    kept = Calibration((0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0), (0.0, 0.5, 1.0), (0.0, 0.3, 0.99))
    rng = np.random.default_rng(3)
    framed = rng.random(3000) < 0.3
    right = framed | (rng.random(3000) < 0.5)
    fitted = fit_framed_weight(kept, [evidence(0.5, 0.8, 3, f) for f in framed], right)
    assert fitted.weights[:-1] == kept.weights[:-1] and fitted.weights[-1] > 2.0
    assert (fitted.raw, fitted.probability) == (kept.raw, kept.probability)
    assert fitted(evidence(0.5, 0.8, 3, True)) > kept(evidence(0.5, 0.8, 3, True))
    assert fitted(evidence(0.5, 0.8, 3)) == kept(evidence(0.5, 0.8, 3))
    with pytest.raises(ValueError, match="calibrate"):
        fit_framed_weight(UNCALIBRATED, [evidence(0.5)] * 2, [True, False])


def test_a_calibration_fitted_before_framed_cards_weighs_them_nothing() -> None:
    before = {"weights": [0.1, 2.0, 0.5, 1.0, 1.0, 0.3], "raw": [0, 1], "probability": [0, 1]}
    calibration = Calibration.from_json({**before, "doubtful_below": 0.7})
    assert calibration.weights == (0.1, 2.0, 0.5, 1.0, 1.0, 0.3, 0.0)
    assert calibration(evidence(0.8, 0.8, 4, True)) == calibration(evidence(0.8, 0.8, 4))
    assert Calibration(weights=before["weights"]).weights == calibration.weights
    with pytest.raises(ValueError, match="7 numbers"):
        Calibration.from_json({**before, "weights": [0.1] * 5, "doubtful_below": 0.7})


def test_a_calibration_file_round_trips(tmp_path) -> None:
    calibration = Calibration(
        (0.1, 2.0, 0.5, 1.0, 1.0, 0.3, 0.8),
        (0.0, 0.5, 1.0),
        (0.0, 0.4, 0.98),
        doubtful_below=0.7,
    )
    (tmp_path / CALIBRATION_FILE).write_text(json.dumps(calibration.to_json()))
    assert load_calibration(tmp_path) == calibration
    assert load_calibration(tmp_path / "nowhere") == UNCALIBRATED


def test_agreement_weights_round_trip_and_a_wrong_count_is_refused(tmp_path) -> None:
    calibration = Calibration(agreement=(-0.1, 0.8, 1.5))
    (tmp_path / CALIBRATION_FILE).write_text(json.dumps(calibration.to_json()))
    assert load_calibration(tmp_path) == calibration
    assert "agreement" not in Calibration().to_json()  # none fitted: none written
    with pytest.raises(ValueError, match="agreement"):
        Calibration.from_json({**calibration.to_json(), "agreement": [0.1, 0.2]})


def test_without_agreement_weights_a_cards_probability_stays_as_it_is() -> None:
    assert Calibration().agreed(0.83, 0.0) == 0.83
    assert Calibration().agreed(0.83, 1.0) == 0.83


def test_an_agreement_fit_learns_that_cards_other_reads_agree_with_are_right() -> None:
    # right more often where more of the photo's other reads agree, whatever the probability
    rng = np.random.default_rng(2)
    probabilities = rng.uniform(0.5, 1.0, 3000)
    shares = rng.choice([0.0, 0.5, 1.0], 3000)

    def chance(share: np.ndarray | float) -> np.ndarray | float:
        return 1 / (1 + np.exp(1 - 3 * share))

    right = rng.random(3000) < chance(shares)
    weights = fit_agreement(probabilities, shares, right)
    calibration = Calibration(agreement=weights)
    assert weights[2] > 2.0
    for share in (0.0, 0.5, 1.0):
        assert calibration.agreed(0.8, share) == pytest.approx(chance(share), abs=0.05)
    with pytest.raises(ValueError, match="several ways"):
        fit_agreement([0.9], [1.0], [True])


def test_a_tables_doubt_threshold_is_read_where_one_was_chosen(tmp_path) -> None:
    assert load_table_threshold(tmp_path) is None  # none chosen
    (tmp_path / TABLE_CALIBRATION_FILE).write_text(json.dumps({"doubtful_below": 0.6}))
    assert load_table_threshold(tmp_path) == 0.6


def test_a_damaged_calibration_is_refused() -> None:
    with pytest.raises(ValueError, match="increasing"):
        Calibration.from_json({"raw": [1.0, 0.0], "probability": [0, 1], "doubtful_below": 0.5})


def test_reads_more_often_no_card_than_a_card_are_not_shown() -> None:
    probabilities = [0.05, 0.1, 0.15, 0.2, 0.3, 0.9, 0.95]
    real = [False, False, True, False, False, True, True]
    assert choose_drop_threshold(probabilities, real) == pytest.approx(0.9)
    assert choose_drop_threshold([0.5, 0.9], [True, True]) == 0.0


def test_a_tables_threshold_is_the_highest_that_flags_at_most_a_share_of_right_cards() -> None:
    from blackcat.vision.calibration import choose_threshold_flagging_at_most

    # 20 right cards from 0.50 to 0.975, two wrong ones at 0.3 and 0.6
    probabilities = [0.5 + 0.025 * n for n in range(20)] + [0.3, 0.6]
    right = [True] * 20 + [False, False]
    choice = choose_threshold_flagging_at_most(probabilities, right, 0.1, max_wrong_per_100=10)
    assert choice.right_flagged_cards == 2 and choice.doubtful_below == 0.55  # 0.50 and 0.525
    assert choice.wrong_unflagged_cards == 1  # the 0.6: flagging it would flag 5 right cards
    everything = choose_threshold_flagging_at_most(probabilities, right, 1.0, max_wrong_per_100=10)
    assert everything.wrong_unflagged_cards == 0 and everything.doubtful_below == 0.975
    # no threshold within both limits: the least-cost rule's choice
    assert choose_threshold_flagging_at_most(
        probabilities, right, max_flagged=0.1, max_wrong_per_100=0.0
    ) == choose_threshold(probabilities, right, max_wrong_per_100=0.0)
