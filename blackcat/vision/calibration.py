"""From what the models say about a card to an honest probability, and the doubt threshold.

The models' joint belief (detector x classifier) is not a probability, and on its own it tells
right cards from wrong ones poorly. Fitted on held-out scenes, a logistic model over its parts
(`Evidence`: the best card's probability, the detector's confidence, "an index at all", how the
glyphs stand, how many corners were seen), then an isotonic fix-up of its output, turns them
into "the card is there and is what we say", as often as it claims. The doubt threshold is chosen
on the same measurements (`choose_threshold`), and is checked on another set of scenes.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from blackcat.vision.types import DOUBTFUL_BELOW, Evidence

CALIBRATION_FILE = "calibration.json"
# the doubt threshold of a whole table's cards (they stand small, turned and at a slant, and the
# table detector finds most of them: the same probability means more or less there)
TABLE_CALIBRATION_FILE = "table_calibration.json"
SILENT_COST = 10.0  # a silent misread costs the player as much as this many needless checks
# bias, logit(card), log(detected), logit(is_index), log(upright), corners > 1, framed
FEATURES = 7


AGREEMENT_FEATURES = 3  # bias, logit(the card's probability), share of other reads agreeing


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z))


def features(evidence: Evidence) -> np.ndarray:
    return np.array(
        [
            1.0,
            _logit(evidence.card),
            math.log(max(evidence.detected, 1e-4)),
            _logit(evidence.is_index),
            math.log(max(evidence.upright, 1e-4)),
            float(evidence.corners > 1),
            float(evidence.framed),  # a four-index deck's card lying whole
        ]
    )


def agreement_features(probability: float, share: float) -> np.ndarray:
    return np.array([1.0, _logit(probability), share])


@dataclass(frozen=True)
class Calibration:
    """Logistic weights over `features` (none: the joint belief itself), a non-decreasing map of
    that score to a probability (linear between its points), the threshold under which a card
    is flagged as doubtful, and the one under which a read is more likely no card at all than a
    card, and is not shown."""

    weights: tuple[float, ...] = ()
    raw: tuple[float, ...] = (0.0, 1.0)
    probability: tuple[float, ...] = (0.0, 1.0)
    doubtful_below: float = DOUBTFUL_BELOW
    drop_below: float = 0.0
    agreement: tuple[float, ...] = ()
    """Logistic weights over `agreement_features` (none: agreement changes nothing)."""

    def __post_init__(self) -> None:
        if len(self.weights) == FEATURES - 1:  # fitted before "framed": it weighed nothing
            object.__setattr__(self, "weights", (*self.weights, 0.0))

    def score(self, evidence: Evidence) -> float:
        if not self.weights:
            return evidence.raw
        return _sigmoid(float(np.dot(self.weights, features(evidence))))

    def __call__(self, evidence: Evidence) -> float:
        return float(np.interp(self.score(evidence), self.raw, self.probability))

    def agreed(self, probability: float, share: float) -> float:
        """The probability that a card is right, read `probability` sure, where `share` of the
        photo's other reads read it too (`agreement`)."""
        if not self.agreement:
            return probability
        return _sigmoid(float(np.dot(self.agreement, agreement_features(probability, share))))

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "weights": [round(v, 5) for v in self.weights],
            "raw": [round(v, 5) for v in self.raw],
            "probability": [round(v, 5) for v in self.probability],
            "doubtful_below": round(self.doubtful_below, 4),
            "drop_below": round(self.drop_below, 4),
        }
        if self.agreement:
            data["agreement"] = [round(v, 5) for v in self.agreement]
        return data

    @classmethod
    def from_json(cls, data: dict) -> Calibration:
        raw, probability = tuple(data["raw"]), tuple(data["probability"])
        if len(raw) != len(probability) or len(raw) < 2 or list(raw) != sorted(raw):
            raise ValueError("a calibration needs two or more increasing raw points")
        weights = tuple(float(w) for w in data.get("weights", ()))
        if weights and len(weights) not in (FEATURES - 1, FEATURES):
            raise ValueError(f"a calibration's weights are {FEATURES} numbers")
        agreement = tuple(float(w) for w in data.get("agreement", ()))
        if agreement and len(agreement) != AGREEMENT_FEATURES:
            raise ValueError(f"a calibration's agreement weights are {AGREEMENT_FEATURES} numbers")
        return cls(
            weights,
            raw,
            probability,
            float(data["doubtful_below"]),
            float(data.get("drop_below", 0.0)),
            agreement,
        )


UNCALIBRATED = Calibration()


class UnreadableCalibrationError(Exception):
    """A calibration file that can't be read, or isn't one `blackcat calibrate` writes (cut
    short, damaged, edited by hand)."""

    def __init__(self, path: Path) -> None:
        super().__init__(str(path))
        self.path = path


def load_calibration(models_dir: Path) -> Calibration:
    """The calibration in `models_dir` (`blackcat calibrate`); UNCALIBRATED where there is none.
    UnreadableCalibrationError where its file can't be read."""
    path = models_dir / CALIBRATION_FILE
    if not path.is_file():
        return UNCALIBRATED
    with _readable_calibration(path):
        return Calibration.from_json(json.loads(path.read_text()))


def load_table_threshold(models_dir: Path) -> float | None:
    """The doubt threshold of a whole table's cards, chosen on whole-table scenes (`blackcat
    calibrate --table`); None where none was chosen. Their probabilities are the one-player
    calibration's: the layout weighs cards by them alike. UnreadableCalibrationError where its
    file can't be read."""
    path = models_dir / TABLE_CALIBRATION_FILE
    if not path.is_file():
        return None
    with _readable_calibration(path):
        return float(json.loads(path.read_text())["doubtful_below"])


@contextlib.contextmanager
def _readable_calibration(path: Path) -> Iterator[None]:
    """What reading and parsing the file at `path` raises, as UnreadableCalibrationError: not
    JSON (ValueError, UnicodeDecodeError among them), or JSON of another shape."""
    try:
        yield
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise UnreadableCalibrationError(path) from error


def fit(evidence: Sequence[Evidence], right: Sequence[bool]) -> Calibration:
    """The logistic weights that best predict `right` (least log loss, a little L2), then an
    isotonic map of their score. Cards no detector found (read where a pile lost one: detected
    0) are left out: their probability is not the calibration's (`layout.found_in_gap`)."""
    evidence, right = _found_by_a_detector(evidence, right)
    if len(evidence) < 2:
        raise ValueError("need at least two measured cards to calibrate")
    weights = logistic_weights(np.stack([features(e) for e in evidence]), right)
    logistic = Calibration(weights=weights)
    return fit_isotonic([logistic.score(e) for e in evidence], right, logistic.weights)


def _found_by_a_detector(
    evidence: Sequence[Evidence], right: Sequence[bool]
) -> tuple[list[Evidence], list[bool]]:
    """The cards a detector found, and whether each was right (`fit`)."""
    found = [(e, ok) for e, ok in zip(evidence, right, strict=True) if e.detected > 0]
    return [e for e, _ in found], [ok for _, ok in found]


def fit_framed_weight(
    calibration: Calibration, evidence: Sequence[Evidence], right: Sequence[bool]
) -> Calibration:
    """`calibration` with the weight of a card seen at three of its corners (`Evidence.framed`,
    the last feature) fitted on `evidence` (four-index cards: a card lying whole shows all four),
    every other weight and the map kept. Kitty scenes of two-index decks seldom show a card so,
    and their cards are too rarely wrong to refit the rest on them. Cards no detector found are
    left out, as in `fit`."""
    if not calibration.weights:
        raise ValueError("fit the calibration first (blackcat calibrate): it has no weights")
    evidence, right = _found_by_a_detector(evidence, right)
    if len(evidence) < 2:
        raise ValueError("need at least two measured cards to fit a weight")
    x = np.stack([features(e) for e in evidence])
    kept = np.array([*calibration.weights[:-1], 0.0])
    (weight,) = logistic_weights(x[:, -1:], right, offset=x @ kept)
    return replace(calibration, weights=(*calibration.weights[:-1], weight))


def fit_agreement(
    probabilities: Sequence[float], shares: Sequence[float], right: Sequence[bool]
) -> tuple[float, ...]:
    """The logistic weights over `agreement_features` that best predict `right` from each
    card's calibrated probability and the share of the photo's other reads agreeing with it
    (cards read several ways only)."""
    if len(probabilities) < 2:
        raise ValueError("need at least two cards read several ways to fit their agreement")
    x = np.stack([agreement_features(p, s) for p, s in zip(probabilities, shares, strict=True)])
    return logistic_weights(x, right)


def logistic_weights(
    x: np.ndarray, right: Sequence[bool], offset: np.ndarray | None = None
) -> tuple[float, ...]:
    """Weights of the least log loss (with a little L2) of `right` on the rows of `x`, each
    row's score starting from its `offset` (none: 0)."""
    from scipy.optimize import minimize

    y = np.asarray(right, dtype=float)
    start = np.zeros(len(y)) if offset is None else offset

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        p = 1.0 / (1.0 + np.exp(-(start + x @ w)))
        eps = 1e-9
        value = -np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)) + 1e-3 * w @ w
        return float(value), x.T @ (p - y) / len(y) + 2e-3 * w

    weights = minimize(loss, np.zeros(x.shape[1]), jac=True, method="L-BFGS-B").x
    return tuple(float(w) for w in weights)


def fit_isotonic(
    raw: Sequence[float], right: Sequence[bool], weights: tuple[float, ...] = (), points: int = 40
) -> Calibration:
    """Isotonic regression of right (0/1) on a score, kept as at most `points` points."""
    from scipy.optimize import isotonic_regression

    if len(raw) < 2:
        raise ValueError("need at least two measured cards to calibrate")
    order = np.argsort(raw, kind="stable")
    xs = np.asarray(raw, dtype=float)[order]
    ys = isotonic_regression(np.asarray(right, dtype=float)[order], increasing=True).x
    keep = np.unique(np.linspace(0, len(xs) - 1, points).round().astype(int))
    knots_x, knots_y = [0.0], [0.0]
    for i in keep:
        if xs[i] > knots_x[-1]:
            knots_x.append(float(xs[i]))
            knots_y.append(float(ys[i]))
    if knots_x[-1] < 1.0:
        knots_x.append(1.0)
        knots_y.append(knots_y[-1])
    return Calibration(weights, tuple(knots_x), tuple(knots_y))


@dataclass(frozen=True)
class ThresholdChoice:
    doubtful_below: float
    wrong_unflagged_per_100: float  # wrong cards among 100 unflagged ones
    right_flagged: float  # share of right cards flagged
    wrong_unflagged_cards: int = 0
    right_flagged_cards: int = 0

    def cost(self, silent_cost: float) -> float:
        """What the threshold costs the player, in needless checks of right cards."""
        return silent_cost * self.wrong_unflagged_cards + self.right_flagged_cards


def flag_rates(
    probabilities: Sequence[float], right: Sequence[bool], threshold: float
) -> ThresholdChoice:
    p, ok = np.asarray(probabilities, dtype=float), np.asarray(right, dtype=bool)
    flagged = p < threshold
    unflagged = int((~flagged).sum())
    wrong_unflagged = int((~flagged & ~ok).sum())
    right_flagged = int((flagged & ok).sum())
    return ThresholdChoice(
        threshold,
        100.0 * wrong_unflagged / max(1, unflagged),
        right_flagged / max(1, int(ok.sum())),
        wrong_unflagged,
        right_flagged,
    )


def thresholds_within(
    probabilities: Sequence[float], right: Sequence[bool], max_wrong_per_100: float
) -> list[ThresholdChoice]:
    """Every threshold worth trying (none, and each stated probability), lowest first, that
    leaves at most `max_wrong_per_100` wrong cards among every 100 unflagged ones."""
    choices = (
        flag_rates(probabilities, right, threshold)
        for threshold in sorted({0.0, *(round(float(v), 4) for v in probabilities)})
    )
    return [choice for choice in choices if choice.wrong_unflagged_per_100 <= max_wrong_per_100]


def choose_threshold(
    probabilities: Sequence[float],
    right: Sequence[bool],
    max_wrong_per_100: float = 1.0,
    silent_cost: float = SILENT_COST,
) -> ThresholdChoice:
    """Of the thresholds that leave at most `max_wrong_per_100` wrong cards among every 100
    unflagged ones, the one that costs the player least: each wrong card left unflagged costs
    `silent_cost` needless checks of a right card. Ties go to the lower threshold.

    Only a limit on wrong cards would flag nothing once the models err less than it allows,
    leaving their rare, foreseeable errors silent."""
    within = thresholds_within(probabilities, right, max_wrong_per_100)
    if not within:
        return flag_rates(probabilities, right, 1.01)
    return min(within, key=lambda choice: choice.cost(silent_cost))  # the first, on a tie


def choose_threshold_flagging_at_most(
    probabilities: Sequence[float],
    right: Sequence[bool],
    max_flagged: float,
    max_wrong_per_100: float = 1.0,
    silent_cost: float = SILENT_COST,
) -> ThresholdChoice:
    """The highest threshold (the fewest errors left unflagged) that flags at most
    `max_flagged` of the right cards and leaves at most `max_wrong_per_100` wrong cards in 100
    unflagged ones; where none does, `choose_threshold`'s. Where errors are many, its least cost
    flags few cards and leaves many errors silent; flags on a tenth of the right cards still
    mean "look here"."""
    within = [
        choice
        for choice in thresholds_within(probabilities, right, max_wrong_per_100)
        if choice.right_flagged <= max_flagged
    ]
    if not within:
        return choose_threshold(probabilities, right, max_wrong_per_100, silent_cost)
    return max(within, key=lambda choice: choice.doubtful_below)


def choose_drop_threshold(probabilities: Sequence[float], real: Sequence[bool]) -> float:
    """The probability under which reads are more often no card than a card: dropping them
    removes the most phantoms for the fewest real cards (misread or not)."""
    order = np.argsort(probabilities)
    p = np.asarray(probabilities, dtype=float)[order]
    gain = np.cumsum(np.where(np.asarray(real, dtype=bool)[order], -1, 1))  # phantoms - real
    if len(p) == 0 or gain.max() <= 0:
        return 0.0
    best = int(np.argmax(gain))
    return float(p[best + 1]) if best + 1 < len(p) else float(p[best]) + 1e-6


@dataclass(frozen=True)
class ReliabilityBin:
    low: float
    high: float
    cards: int
    mean_probability: float
    right: float


def reliability_table(
    probabilities: Sequence[float], right: Sequence[bool], bins: int = 10
) -> list[ReliabilityBin]:
    """Cards binned by stated probability: how often the cards of each bin were right."""
    p, ok = np.asarray(probabilities, dtype=float), np.asarray(right, dtype=float)
    edges = np.linspace(0, 1, bins + 1)
    table = []
    for low, high in itertools.pairwise(edges):
        inside = (p >= low) & ((p < high) | (high == 1.0))
        if inside.any():
            table.append(
                ReliabilityBin(
                    float(low),
                    float(high),
                    int(inside.sum()),
                    float(p[inside].mean()),
                    float(ok[inside].mean()),
                )
            )
    return table
