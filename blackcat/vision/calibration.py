"""From the models' raw belief in a card to an honest probability, and the doubt threshold.

The raw belief (detector x classifier) is not a probability: fitted on held-out scenes with
isotonic regression, the map below turns it into "the card is there and is what we say" as often
as it claims. The doubt threshold is then chosen on the same measurements (`choose_threshold`).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from blackcat.vision.types import DOUBTFUL_BELOW

CALIBRATION_FILE = "calibration.json"


@dataclass(frozen=True)
class Calibration:
    """A non-decreasing map raw -> probability (linear between its points), the threshold
    under which a card is flagged as doubtful, and the one under which a read is more likely no
    card at all than a card, and is not shown."""

    raw: tuple[float, ...] = (0.0, 1.0)
    probability: tuple[float, ...] = (0.0, 1.0)
    doubtful_below: float = DOUBTFUL_BELOW
    drop_below: float = 0.0

    def __call__(self, raw: float) -> float:
        return float(np.interp(raw, self.raw, self.probability))

    def to_json(self) -> dict[str, object]:
        return {
            "raw": [round(v, 5) for v in self.raw],
            "probability": [round(v, 5) for v in self.probability],
            "doubtful_below": round(self.doubtful_below, 4),
            "drop_below": round(self.drop_below, 4),
        }

    @classmethod
    def from_json(cls, data: dict) -> Calibration:
        raw, probability = tuple(data["raw"]), tuple(data["probability"])
        if len(raw) != len(probability) or len(raw) < 2 or list(raw) != sorted(raw):
            raise ValueError("a calibration needs two or more increasing raw points")
        return cls(
            raw, probability, float(data["doubtful_below"]), float(data.get("drop_below", 0.0))
        )


UNCALIBRATED = Calibration()


def load_calibration(models_dir: Path) -> Calibration:
    path = models_dir / CALIBRATION_FILE
    if not path.is_file():
        return UNCALIBRATED
    return Calibration.from_json(json.loads(path.read_text()))


def fit(raw: Sequence[float], right: Sequence[bool], points: int = 40) -> Calibration:
    """Isotonic regression of right (0/1) on raw belief, kept as at most `points` points."""
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
    return Calibration(tuple(knots_x), tuple(knots_y))


@dataclass(frozen=True)
class ThresholdChoice:
    doubtful_below: float
    wrong_unflagged_per_100: float  # wrong cards among 100 unflagged ones
    right_flagged: float  # share of right cards flagged


def flag_rates(
    probabilities: Sequence[float], right: Sequence[bool], threshold: float
) -> ThresholdChoice:
    p, ok = np.asarray(probabilities, dtype=float), np.asarray(right, dtype=bool)
    flagged = p < threshold
    unflagged = int((~flagged).sum())
    wrong_unflagged = int((~flagged & ~ok).sum())
    rights = int(ok.sum())
    return ThresholdChoice(
        threshold,
        100.0 * wrong_unflagged / max(1, unflagged),
        float((flagged & ok).sum()) / max(1, rights),
    )


def choose_threshold(
    probabilities: Sequence[float], right: Sequence[bool], max_wrong_per_100: float = 1.0
) -> ThresholdChoice:
    """The lowest threshold (fewest right cards flagged) that leaves at most
    `max_wrong_per_100` wrong cards among every 100 unflagged ones."""
    for threshold in sorted({0.0, *(round(float(v), 4) for v in probabilities)}):
        choice = flag_rates(probabilities, right, threshold)
        if choice.wrong_unflagged_per_100 <= max_wrong_per_100:
            return choice
    return flag_rates(probabilities, right, 1.01)


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
