"""Measuring the reader on held-out synthetic scenes, kitty scenes and real photos (the library
behind `blackcat evaluate` and `blackcat calibrate`).

Real photos (`../shared/real-photos/<set>/labels.json`, whole-card boxes) are read from where they
lie and never copied. A read card matches a labelled card of the same identity (the same rank
only, for rank-only labels) when one of its indices lies inside that card's box.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from blackcat.vision.layout import glyph_pixels
from blackcat.vision.types import SIDES, Box, Evidence, PhotoRead, ReadCard, contains

if TYPE_CHECKING:
    from blackcat.vision.reader import CardReader

SHARED_PHOTOS = Path(__file__).resolve().parents[3] / "shared" / "real-photos"


NO_RATIO = "n/a"
"""A ratio of nothing (0 out of 0), in a report's text."""


def ratio(part: float, whole: float, digits: int) -> str:
    """`part / whole` to `digits` places, for a report's text; `NO_RATIO` when `whole` is 0."""
    return f"{part / whole:.{digits}f}" if whole else NO_RATIO


@dataclass(frozen=True)
class LabelledCard:
    code: str  # "QS", or "Q?" when only the rank is labelled
    box: Box

    @property
    def rank(self) -> str:
        return self.code[:-1]


@dataclass
class BlurTally:
    """How often photos look blurred (`PhotoRead.blurred`) and ask for a sharper photo
    (`PhotoRead.wants_sharper_photo`: `scan`'s warning, the app's note), against the photos read
    with an error (a card wrong, missing or read where none is)."""

    photos: int = 0
    with_error: int = 0
    blurred: int = 0
    asked: int = 0
    asked_with_error: int = 0

    def add(self, photo: PhotoRead, error: bool) -> None:
        asked = photo.wants_sharper_photo
        self.photos += 1
        self.with_error += error
        self.blurred += photo.blurred
        self.asked += asked
        self.asked_with_error += asked and error

    def line(self) -> str:
        return (
            f"  look blurred: {self.blurred} of {self.photos} photos; asked for a sharper one: "
            f"{self.asked}, {self.asked_with_error} of them read with an error "
            f"({self.with_error} photos read with an error in all)"
        )


CardPlace = tuple[str, tuple[float, float]]  # a card on the table: its code and where it lies


@dataclass
class UnreadTally:
    """How often photos show places too small to read (`PhotoRead.unread_places`: `scan`'s
    warning, red boxes on the annotated photo), and whether they point at cards the read lost;
    and how often piles are said to lie in a grid that reads as rows as well as columns
    (`PhotoRead.rows_or_columns`: `scan`'s warning) or their cards in no row
    (`PhotoRead.in_no_row`)."""

    photos: int = 0
    with_places: int = 0
    places: int = 0
    places_at_lost: int = 0  # places in which a card the read lost lies
    lost: int = 0  # cards on the table the read does not show ...
    lost_in_places: int = 0  # ... lying in an unread place
    unmarked: int = 0  # lost cards no gap marker or flagged neighbour points at ...
    unmarked_in_places: int = 0  # ... lying in an unread place
    with_grid: int = 0  # photos with piles in a grid
    grid_piles: int = 0
    piles: int = 0  # piles read
    with_no_row: int = 0  # photos with piles whose cards lie in no row (`PhotoRead.in_no_row`)
    no_row_piles: int = 0

    def add(
        self,
        photo: PhotoRead,
        lost_at: Sequence[tuple[float, float]],
        unmarked_at: Sequence[tuple[float, float]] = (),
    ) -> None:
        """One photo's read, where each card it lost lies, and where those of them lie that no
        gap marker or flagged neighbour points at (`missing_cards`)."""
        places = photo.unread_places
        self.photos += 1
        self.with_places += bool(places)
        self.places += len(places)
        self.places_at_lost += sum(any(_within(point, p) for point in lost_at) for p in places)
        self.lost += len(lost_at)
        self.lost_in_places += sum(any(_within(point, p) for p in places) for point in lost_at)
        self.unmarked += len(unmarked_at)
        self.unmarked_in_places += sum(
            any(_within(point, p) for p in places) for point in unmarked_at
        )
        self.with_grid += bool(photo.grid_piles)
        self.grid_piles += len(photo.grid_piles)
        self.piles += len(photo.piles)
        self.with_no_row += bool(photo.piles_in_no_row)
        self.no_row_piles += len(photo.piles_in_no_row)

    def add_scene(
        self, photo: PhotoRead, cards: Sequence[dict[str, Any]], truth: Sequence[Sequence[str]]
    ) -> None:
        """One `blackcat synth` scene's read, its meta's "cards" and its `truth` piles."""
        places = card_places(cards)
        self.add(photo, lost_places(places, truth, photo), unmarked_places(places, truth, photo))

    def line(self) -> str:
        unmarked = (
            f" ({self.unmarked_in_places} of the {self.unmarked} lost with no gap marker or "
            "flagged neighbour)"
            if self.unmarked
            else ""
        )
        return (
            f"  places too small to read: {self.places} in {self.with_places} of {self.photos} "
            f"photos, {self.places_at_lost} of them where a card was lost; {self.lost_in_places} "
            f"of the {self.lost} cards lost lie in one{unmarked}\n"
            f"  piles in a grid (rows or columns): {self.grid_piles} in {self.with_grid} of "
            f"{self.photos} photos\n"
            f"  piles whose cards lie in no row (counted, not ordered): {self.no_row_piles} of "
            f"{self.piles} in {self.with_no_row} of {self.photos} photos"
        )


def _within(point: tuple[float, float], box: Box) -> bool:
    return contains(box, point, margin=0.0)


def card_places(cards: Sequence[dict[str, Any]]) -> tuple[CardPlace, ...]:
    """Each card of a `blackcat synth` meta's "cards" and the centre of its most visible
    index (cards with no index shown left out)."""
    places = []
    for card in cards:
        indices = card.get("indices") or []
        if not indices:
            continue
        most_visible = max(indices, key=lambda index: index["visibility"])
        places.append((card["code"], _box_centre(tuple(most_visible["box"]))))
    return tuple(places)


def lost_places(
    places: Sequence[CardPlace], truth: Sequence[Sequence[str]], photo: PhotoRead
) -> list[tuple[float, float]]:
    """Where each card of the `truth` piles lies that no pile of the read shows."""
    on_table = Counter(code for pile in truth for code in pile)
    lost = on_table - Counter(card.card.code for pile in photo.piles for card in pile)
    return [point for code, point in places if lost[code] > 0]


def unmarked_places(
    places: Sequence[CardPlace], truth: Sequence[Sequence[str]], photo: PhotoRead
) -> list[tuple[float, float]]:
    """Where each card lies that the read lost with no gap marker or flagged neighbour
    pointing at it (`missing_cards`)."""
    unmarked = {code for code, silent in missing_cards(photo.piles, truth, photo.gaps) if silent}
    return [point for code, point in places if code in unmarked]


@dataclass(frozen=True)
class ImageResult:
    image: str
    labelled: int
    read: int
    matched: int
    missed: tuple[str, ...]  # labelled cards not read
    extra: tuple[str, ...]  # read cards that match no label
    right_flagged: int = 0  # matched reads flagged for the player to check
    wrong_unflagged: int = 0  # reads that match no label, not flagged: the player trusts them
    gap_marks: int = 0  # places the read says a card may be missing (teal in the app)


REAL_PHOTO_MEASURES = {  # each of RealPhotoReport's measures: ImageResult's part and whole
    "recall": ("matched", "labelled"),
    "precision": ("matched", "read"),
    "right_flagged": ("right_flagged", "matched"),
    "wrong_unflagged": ("wrong_unflagged", "read"),
}


@dataclass(frozen=True)
class RealPhotoReport:
    name: str
    images: tuple[ImageResult, ...]
    seconds: float
    rank_only: bool
    blur: BlurTally = field(default_factory=BlurTally)
    unread: UnreadTally = field(default_factory=UnreadTally)

    def _total(self, count: str) -> int:
        """One of ImageResult's counts, summed over the photos."""
        return sum(getattr(result, count) for result in self.images)

    def _counts(self, measure: str) -> tuple[int, int]:
        """A measure's part and whole (`REAL_PHOTO_MEASURES`), summed over the photos."""
        part, whole = REAL_PHOTO_MEASURES[measure]
        return self._total(part), self._total(whole)

    def _share(self, measure: str) -> float:
        part, whole = self._counts(measure)
        return part / max(1, whole)

    def _said(self, measure: str, digits: int, scale: int = 1) -> str:
        part, whole = self._counts(measure)
        return ratio(scale * part, whole, digits)

    @property
    def right_flagged(self) -> float:
        """The share of right reads flagged for checking (issue 27: at most 0.10)."""
        return self._share("right_flagged")

    @property
    def wrong_unflagged_per_100(self) -> float:
        """Reads matching no label and not flagged, per 100 cards read (at most 1)."""
        return 100 * self._share("wrong_unflagged")

    def gap_marks_line(self) -> str:
        """The gap markers left, and how many of them in photos where no labelled card was
        lost (false, whatever the layout: none was missing)."""
        false = sum(result.gap_marks for result in self.images if not result.missed)
        return (
            f"gap markers: {self._total('gap_marks')}, {false} of them in photos where no card "
            f"was lost ({ratio(100 * false, self._total('labelled'), 2)} per 100 cards)"
        )

    def summary(self) -> str:
        what = "rank" if self.rank_only else "card"
        missed = Counter(code for result in self.images for code in result.missed)
        extra = Counter(code for result in self.images for code in result.extra)
        return (
            f"{self.name}: {len(self.images)} photos, {self._total('labelled')} labelled cards; "
            f"{what} recall {self._said('recall', 3)}, precision {self._said('precision', 3)} "
            f"({self.seconds / max(1, len(self.images)):.2f} s a photo)\n"
            f"  right {what}s flagged {self._said('right_flagged', 3)}; wrong and "
            f"unflagged {self._said('wrong_unflagged', 2, scale=100)} per 100 {what}s read\n"
            f"  {self.gap_marks_line()}\n"
            f"  most missed: {missed.most_common(8)}\n  most extra: {extra.most_common(8)}\n"
            + self.blur.line()
            + "\n"
            + self.unread.line()
        )


def box_overlaps(box: Box, boxes: np.ndarray | Sequence[Box]) -> np.ndarray:
    """The intersection over union of `box` with each of `boxes` (an (n, 4) array of x1, y1, x2,
    y2), as matching a detection to the ground truth's boxes needs."""
    boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    x1, y1, x2, y2 = box
    across = np.clip(np.minimum(boxes[:, 2], x2) - np.maximum(boxes[:, 0], x1), 0, None)
    down = np.clip(np.minimum(boxes[:, 3], y2) - np.maximum(boxes[:, 1], y1), 0, None)
    inter = across * down
    union = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]) + (x2 - x1) * (y2 - y1)
    return np.divide(inter, union - inter, out=np.zeros_like(inter), where=union - inter > 0)


def matched_reads(
    reads: Sequence[ReadCard], labels: Sequence[LabelledCard], *, rank_only: bool
) -> tuple[list[tuple[ReadCard, bool]], list[LabelledCard]]:
    """Each read (most confident first) and whether a label matched it, greedily one to one; and
    the labels none matched."""
    unmatched = list(labels)
    judged = []
    for read in sorted(reads, key=lambda read: -read.confidence):
        identity = read.card.rank.value if rank_only else read.card.code
        partner = next(
            (
                label
                for label in unmatched
                if (label.rank if rank_only else label.code) == identity
                and any(contains(label.box, index.centre) for index in read.indices)
            ),
            None,
        )
        if partner is not None:
            unmatched.remove(partner)
        judged.append((read, partner is not None))
    return judged, unmatched


def match_cards(
    reads: Sequence[ReadCard], labels: Sequence[LabelledCard], *, rank_only: bool
) -> ImageResult:
    """Greedy one-to-one matching, most confident read first (`matched_reads`)."""
    judged, unmatched = matched_reads(reads, labels, rank_only=rank_only)
    return ImageResult(
        image="",
        labelled=len(labels),
        read=len(reads),
        matched=sum(right for _, right in judged),
        missed=tuple(label.code for label in unmatched),
        extra=tuple(read.card.code for read, right in judged if not right),
        right_flagged=sum(read.doubtful for read, right in judged if right),
        wrong_unflagged=sum(not read.doubtful for read, right in judged if not right),
    )


def load_labels(folder: Path) -> dict[str, list[LabelledCard]]:
    raw = json.loads((folder / "labels.json").read_text())
    return {
        image: [LabelledCard(entry["card"], tuple(entry["box"])) for entry in entries]
        for image, entries in raw.items()
    }


def evaluate_real_photos(reader: CardReader, folder: Path) -> RealPhotoReport:
    from dataclasses import replace

    from blackcat.vision.image_io import open_photo

    labels = load_labels(folder)
    rank_only = any(card.code.endswith("?") for cards in labels.values() for card in cards)
    results = []
    blur, unread = BlurTally(), UnreadTally()
    started = time.perf_counter()
    for image_name, cards in sorted(labels.items()):
        photo = reader.read(open_photo(folder / "images" / image_name), decks=1)
        reads = [read for pile in photo.piles for read in pile]
        result = match_cards(reads, cards, rank_only=rank_only)
        marks = sum(len(places) for places in photo.gaps)
        results.append(replace(result, image=image_name, gap_marks=marks))
        blur.add(photo, bool(result.missed or result.extra))
        missed = Counter(result.missed)
        lost = [_box_centre(card.box) for card in cards if missed[card.code] > 0]
        unread.add(photo, lost)
    return RealPhotoReport(
        name=folder.name,
        images=tuple(results),
        seconds=time.perf_counter() - started,
        rank_only=rank_only,
        blur=blur,
        unread=unread,
    )


def _box_centre(box: Box) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


@dataclass(frozen=True)
class SceneTruth:
    image: Path
    piles: tuple[tuple[str, ...], ...]  # codes, rows top to bottom, each left to right
    layout: str  # "rows" is the job; fans and loose cards only count for cards read right
    deck: str = ""
    conditions: tuple[str, ...] = ()  # the camera's faults drawn (`realism`); () for none
    places: tuple[CardPlace, ...] = ()  # where each card lies (`card_places`)


class DamagedSceneError(ValueError):
    """A scene's record (its .json) or picture (`part`) that can't be read: cut short (a full
    disk), damaged, or a picture missing. The message names it, and what to do."""

    def __init__(self, path: Path, part: str = "record") -> None:
        how, other = ("cut short or damaged", "picture")
        if part == "picture":
            how, other = ("missing, cut short or damaged", "record")
        super().__init__(
            f"{path}: a scene's {part} can't be read ({how}); remove it and its {other} (a "
            "--kitty or --table folder draws them again), or give another folder"
        )
        self.path = path


def read_scene(reader: CardReader, picture: Path) -> PhotoRead:
    """The reader's read of a scene's `picture`; DamagedSceneError where it can't be read."""
    from blackcat.vision.image_io import ImageReadError, open_photo

    try:
        return reader.read(open_photo(picture))
    except ImageReadError as error:
        raise DamagedSceneError(picture, "picture") from error


def scene_record(path: Path) -> dict[str, Any]:
    """The record of the scene at `path` (what the synth wrote of it); DamagedSceneError where
    it can't be read as one."""
    try:
        record = json.loads(path.read_text())
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DamagedSceneError(path) from error
    if not isinstance(record, dict) or "image" not in record:
        raise DamagedSceneError(path)
    return record


def load_scene_truths(synth_dir: Path, limit: int | None = None) -> list[SceneTruth]:
    """The held-out (val) scenes of a `blackcat synth` output, with their ground truth."""
    detect = synth_dir / "detect"
    truths = []
    for meta_path in sorted((detect / "meta" / "val").glob("*.json"))[:limit]:
        meta = scene_record(meta_path)
        piles = tuple(tuple(pile) for pile in meta["piles"])
        conditions = tuple(sorted(meta.get("realism") or {}))
        truths.append(
            SceneTruth(
                detect / meta["image"],
                piles,
                meta["layout"],
                meta.get("deck", ""),
                conditions,
                card_places(meta.get("cards", ())),
            )
        )
    return truths


@dataclass
class SyntheticReport:
    scenes: int = 0
    row_scenes: int = 0
    scenes_in_order: int = 0
    scenes_as_laid: int = 0
    cards_extra: int = 0  # read but not on the table (as multisets)
    cards_read: int = 0
    right_flagged: int = 0  # read right, flagged for checking
    wrong_unflagged: int = 0  # read but not on the table, not flagged: the player trusts them
    deck_cards: Counter[str] = field(default_factory=Counter)
    deck_cards_right: Counter[str] = field(default_factory=Counter)
    # by layout ("rows", "fan", ...) and by camera fault ("clean" for none): cards on the table,
    # read, read right
    group_cards: Counter[str] = field(default_factory=Counter)
    group_read: Counter[str] = field(default_factory=Counter)
    group_right: Counter[str] = field(default_factory=Counter)
    # by layout: cards the read lost, those with no gap marker or flagged neighbour where they
    # belong (`missing_cards`), gap markers and those where no card was lost (`false_gap_marks`)
    layout_lost: Counter[str] = field(default_factory=Counter)
    layout_lost_unmarked: Counter[str] = field(default_factory=Counter)
    layout_gap_marks: Counter[str] = field(default_factory=Counter)
    layout_gap_marks_false: Counter[str] = field(default_factory=Counter)
    blur: BlurTally = field(default_factory=BlurTally)
    unread: UnreadTally = field(default_factory=UnreadTally)
    failures: list[str] = field(default_factory=list)

    @property
    def cards(self) -> int:
        return self.deck_cards.total()

    def add_gaps(
        self,
        layout: str,
        read: Sequence[Sequence[ReadCard]],
        truth: Sequence[Sequence[str]],
        gaps: Sequence[Sequence[int]],
    ) -> None:
        """One scene's lost cards and gap markers, counted under its layout."""
        for _, silent in missing_cards(read, truth, gaps):
            self.layout_lost[layout] += 1
            self.layout_lost_unmarked[layout] += silent
        marks, false_marks = false_gap_marks(read, truth, gaps)
        self.layout_gap_marks[layout] += marks
        self.layout_gap_marks_false[layout] += false_marks

    def gaps_line(self) -> str:
        """Gap markers and lost cards by layout: a loose card or a fan has no neighbours in a
        row, so a marker there points at nothing."""
        layouts = sorted(
            group.removeprefix(LAYOUT_GROUP)
            for group in self.group_cards
            if group.startswith(LAYOUT_GROUP)
        )
        return ", ".join(
            f"{layout} {self.layout_gap_marks[layout]} / {self.layout_gap_marks_false[layout]}; "
            f"{self.layout_lost[layout]} / {self.layout_lost_unmarked[layout]}"
            for layout in layouts
        )

    @property
    def cards_right(self) -> int:
        return self.deck_cards_right.total()

    def summary(self) -> str:
        by_deck = ", ".join(
            f"{deck} {self.deck_cards_right[deck] / cards:.3f}"
            for deck, cards in sorted(self.deck_cards.items())
            if cards
        )
        return (
            f"synthetic held-out scenes: {self.scenes} scenes, {self.cards} cards; "
            f"cards read right {ratio(self.cards_right, self.cards, 4)}, "
            f"{self.row_scenes} scenes of rows, with every pile in the right order: "
            f"{ratio(self.scenes_in_order, self.row_scenes, 4)} "
            f"(as laid, same direction and pile order: "
            f"{ratio(self.scenes_as_laid, self.row_scenes, 4)})\n"
            f"  cards read that are not there: {self.cards_extra} "
            f"({ratio(self.cards_extra, self.cards, 4)} per card on the table)\n"
            f"  right cards flagged {ratio(self.right_flagged, self.cards_right, 3)}; wrong "
            f"and unflagged {ratio(100 * self.wrong_unflagged, self.cards_read, 2)} per 100 "
            f"cards read\n"
            f"  cards read right by deck: {by_deck}\n"
            f"  by layout (recall / precision): {self._group_line(LAYOUT_GROUP)}\n"
            f"  by camera fault (recall / precision): {self._group_line(FAULT_GROUP)}\n"
            f"  gap markers / where no card was lost; cards lost / with no gap marker or "
            f"flagged neighbour, by layout: {self.gaps_line()}\n"
            + self.blur.line()
            + "\n"
            + self.unread.line()
        )

    def add_group(self, group: str, cards: int, read: int, right: int) -> None:
        self.group_cards[group] += cards
        self.group_read[group] += read
        self.group_right[group] += right

    def _group_line(self, prefix: str) -> str:
        return ", ".join(
            f"{group.removeprefix(prefix)} {ratio(self.group_right[group], cards, 3)} / "
            f"{ratio(self.group_right[group], self.group_read[group], 3)} ({cards})"
            for group, cards in sorted(self.group_cards.items())
            if group.startswith(prefix)
        )


LAYOUT_GROUP = "layout:"
FAULT_GROUP = "fault:"


def cards_right(read: Sequence[Sequence[str]], truth: Sequence[Sequence[str]]) -> int:
    """Cards of the truth found in the read, as multisets (order is judged separately)."""
    found = Counter(code for pile in read for code in pile)
    wanted = Counter(code for pile in truth for code in pile)
    return sum((found & wanted).values())


def flags_judged(read: Sequence[ReadCard], truth: Sequence[Sequence[str]]) -> tuple[int, int]:
    """Right cards flagged and wrong cards not flagged, judged as `judge_cards` judges them (the
    most confident reads of a card count as the right ones)."""
    judged = judge_cards(read, truth)
    right_flagged = sum(card.doubtful for card, right in judged if right)
    wrong_unflagged = sum(not card.doubtful for card, right in judged if not right)
    return right_flagged, wrong_unflagged


def same_piles(read: Sequence[Sequence[str]], truth: Sequence[Sequence[str]]) -> bool:
    """The same piles, each in the right order. A pile read right to left scores the same
    (features depend only on adjacency), and so does a table whose piles come in another order;
    a scene turned past 90° is read that way round."""

    def canonical(piles: Sequence[Sequence[str]]) -> list[tuple[str, ...]]:
        return sorted(min(tuple(pile), tuple(reversed(pile))) for pile in piles)

    return canonical(read) == canonical(truth)


def same_layout(read: Sequence[Sequence[str]], truth: Sequence[Sequence[str]]) -> bool:
    """The piles laid out as the cards lie, whatever was misread (`piles_laid_right`, every
    pile)."""
    return all(piles_laid_right(read, truth))


def piles_laid_right(read: Sequence[Sequence[str]], truth: Sequence[Sequence[str]]) -> list[bool]:
    """For each truth pile, whether the layout kept it: its cards read right (a truth's card,
    wherever read) lie in one read pile, in its order either way, with no other pile's; misread,
    missing and extra cards are left aside (the models' errors, not the layout's)."""
    pile_of = {code: n for n, pile in enumerate(truth) for code in pile}
    right = [[code for code in pile if code in pile_of] for pile in read]
    laid = []
    for n, pile in enumerate(truth):
        holding = [kept for kept in right if any(pile_of[code] == n for code in kept)]
        if not holding:
            laid.append(True)  # nothing of it read right: nothing to lay out
            continue
        own = [code for code in pile if code in holding[0]]
        laid.append(
            len(holding) == 1
            and all(pile_of[code] == n for code in holding[0])
            and holding[0] in (own, own[::-1])
        )
    return laid


def evaluate_synthetic(reader: CardReader, scenes: Iterable[SceneTruth]) -> SyntheticReport:

    report = SyntheticReport()
    for scene in scenes:
        photo: PhotoRead = read_scene(reader, scene.image)
        read = [tuple(card.card.code for card in pile) for pile in photo.piles]
        truth = [pile for pile in scene.piles if pile]
        report.scenes += 1
        right = cards_right(read, truth)
        read_count = sum(len(pile) for pile in read)
        report.cards_extra += read_count - right
        report.cards_read += read_count
        flagged_right, unflagged_wrong = flags_judged(
            [card for pile in photo.piles for card in pile], truth
        )
        report.right_flagged += flagged_right
        report.wrong_unflagged += unflagged_wrong
        on_table = sum(len(pile) for pile in truth)
        report.blur.add(photo, right < on_table or read_count > right)
        report.unread.add(photo, lost_places(scene.places, truth, photo))
        for group in (
            LAYOUT_GROUP + scene.layout,
            *(FAULT_GROUP + fault for fault in scene.conditions or ("clean",)),
        ):
            report.add_group(group, on_table, read_count, right)
        report.deck_cards[scene.deck] += on_table
        report.deck_cards_right[scene.deck] += right
        report.add_gaps(scene.layout, photo.piles, truth, photo.gaps)
        if scene.layout != "rows":
            continue
        report.row_scenes += 1
        report.scenes_as_laid += read == truth
        if same_piles(read, truth):
            report.scenes_in_order += 1
        else:
            report.failures.append(f"{scene.image.name}: read {read} truth {truth}")
    return report


@dataclass
class KittyReport:
    """The reader on kitty scenes: whole piles, cards, and what the doubt flags tell."""

    scenes: int = 0
    scenes_right: int = 0  # every pile of the photo exactly right
    scenes_laid_right: int = 0  # `same_layout`
    piles: int = 0  # on the table
    piles_right: int = 0  # exactly right (in order or reversed)
    cards: int = 0  # on the table
    cards_read: int = 0
    cards_right: int = 0
    wrong_unflagged: int = 0
    right_flagged: int = 0
    by_size: Counter[str] = field(default_factory=Counter)
    by_size_right: Counter[str] = field(default_factory=Counter)
    by_style: Counter[str] = field(default_factory=Counter)  # scenes per card style ...
    by_style_right: Counter[str] = field(default_factory=Counter)  # ... exactly right ...
    style_cards: Counter[str] = field(default_factory=Counter)  # ... their cards ...
    style_cards_right: Counter[str] = field(default_factory=Counter)  # ... read right
    by_turn: Counter[int] = field(default_factory=Counter)  # scenes per quarter turn (degrees)
    by_turn_right: Counter[int] = field(default_factory=Counter)
    piles_read: int = 0
    piles_off_side: int = 0  # read piles given another side than the photo's turn makes them face
    by_condition: Counter[str] = field(default_factory=Counter)  # scenes per camera condition ...
    by_condition_right: Counter[str] = field(default_factory=Counter)  # ... exactly right ...
    condition_cards: Counter[str] = field(default_factory=Counter)  # ... their cards ...
    condition_cards_right: Counter[str] = field(default_factory=Counter)  # ... read right
    missing: int = 0  # cards on the table the reader did not show ...
    missing_silent: int = 0  # ... with no gap marker and no doubtful neighbour where they belong
    gap_marks: int = 0  # gap markers the reader left ...
    gap_marks_false: int = 0  # ... where no card was lost
    phantoms: int = 0  # cards read where no card's index is
    probabilities: list[float] = field(default_factory=list)  # every card read ...
    rights: list[bool] = field(default_factory=list)  # ... whether it was right ...
    reals: list[bool] = field(default_factory=list)  # ... whether a card is there at all ...
    evidence: list[Evidence] = field(default_factory=list)  # ... and what the models said
    blur: BlurTally = field(default_factory=BlurTally)
    unread: UnreadTally = field(default_factory=UnreadTally)
    failures: list[str] = field(default_factory=list)

    def add(
        self,
        name: str,
        size: str,
        read: Sequence[Sequence[ReadCard]],
        truth: Sequence[Sequence[str]],
        index_boxes: Sequence[Box] = (),
        style: str = "plain",
        gaps: Sequence[Sequence[int]] = (),
        turn: int = 0,
        condition: str = "",
        sides: Sequence[str] = (),
    ) -> None:
        codes = [[card.card.code for card in pile] for pile in read]
        self.piles_read += len(read)
        read_sides = sides or [SIDES[0]] * len(read)  # none given: one player's, the near side
        self.piles_off_side += sum(side != SIDE_FACED_AT_TURN[turn] for side in read_sides)
        for _, silent in missing_cards(read, truth, gaps):
            self.missing += 1
            self.missing_silent += silent
        marks, false_marks = false_gap_marks(read, truth, gaps)
        self.gap_marks += marks
        self.gap_marks_false += false_marks
        right = judge_cards([card for pile in read for card in pile], truth)
        real = [
            ok
            or any(
                contains(box, index.centre, 0.3) for index in card.indices for box in index_boxes
            )
            for card, ok in right
        ]
        self.phantoms += real.count(False)
        self.reals.extend(real)
        whole = same_piles(codes, truth)
        self.scenes += 1
        self.scenes_right += whole
        self.piles += len(truth)
        self.piles_right += sum(pile_read_right(codes, pile) for pile in truth)
        self.scenes_laid_right += same_layout(codes, truth)
        self.by_size[size] += 1
        self.by_size_right[size] += whole
        self.by_turn[turn] += 1
        self.by_turn_right[turn] += whole
        self.by_style[style] += 1
        self.by_style_right[style] += whole
        self.style_cards[style] += sum(len(pile) for pile in truth)
        self.style_cards_right[style] += sum(ok for _, ok in right)
        if condition:
            self.by_condition[condition] += 1
            self.by_condition_right[condition] += whole
            self.condition_cards[condition] += sum(len(pile) for pile in truth)
            self.condition_cards_right[condition] += sum(ok for _, ok in right)
        self.cards += sum(len(pile) for pile in truth)
        self.cards_read += len(right)
        self.cards_right += sum(ok for _, ok in right)
        self.wrong_unflagged += sum(not ok and not card.doubtful for card, ok in right)
        self.right_flagged += sum(ok and card.doubtful for card, ok in right)
        self.probabilities.extend(card.confidence for card, _ in right)
        self.rights.extend(ok for _, ok in right)
        self.evidence.extend(
            card.evidence or Evidence(card.confidence, 1.0, 1.0, 1.0, 1) for card, _ in right
        )
        if not whole:
            self.failures.append(f"{name} ({size}): read {codes} truth {list(truth)}")

    def summary(self) -> str:
        sizes = ", ".join(
            f"{size} {self.by_size_right[size] / n:.3f} ({n})"
            for size, n in sorted(self.by_size.items())
        )
        text = (
            f"kitty scenes: {self.scenes} scenes, {self.cards} cards, {self.piles} piles; photos "
            f"with every pile exactly right {ratio(self.scenes_right, self.scenes, 3)} "
            f"({sizes}), piles exactly right {ratio(self.piles_right, self.piles, 3)}; card "
            "recall "
            f"{ratio(self.cards_right, self.cards, 4)}, precision "
            f"{ratio(self.cards_right, self.cards_read, 4)}; read where no card is: "
            f"{self.phantoms} ({ratio(self.phantoms, self.cards_read, 4)} of cards read)\n"
            f"  wrong cards not flagged: {ratio(100 * self.wrong_unflagged, self.cards_read, 2)}"
            f" per 100 cards read; right cards flagged: "
            f"{ratio(self.right_flagged, self.cards_right, 3)}\n"
            f"  cards missing: {self.missing}, {self.missing_silent} of them with no gap marker "
            f"or flagged neighbour; silent errors (wrong unflagged + missing unmarked): "
            f"{ratio(100 * self.silent_errors, self.cards, 2)} per 100 cards\n"
            f"  gap markers: {self.gap_marks}, {self.gap_marks_false} of them where no card was "
            f"lost ({ratio(100 * self.gap_marks_false, self.cards, 2)} per 100 cards)\n"
            f"  photos with every pile laid out right (misread, missing and extra cards aside): "
            # nothing read right: every pile would count as laid out right, with nothing laid out
            f"{ratio(self.scenes_laid_right, self.scenes if self.cards_right else 0, 3)}\n"
            f"  photos with every pile exactly right by turn of the photo: "
            + ", ".join(
                f"{turn}° {self.by_turn_right[turn] / n:.3f} ({n})"
                for turn, n in sorted(self.by_turn.items())
            )
            + f"; piles read given another side than the one they face: {self.piles_off_side}"
            f" of {self.piles_read}"
        )
        return (
            text
            + self._style_lines()
            + self._condition_lines()
            + "\n"
            + self.blur.line()
            + "\n"
            + self.unread.line()
        )

    def _condition_lines(self) -> str:
        """Piles exactly right and card recall per camera condition (`--kitty-faults`)."""
        if not self.by_condition:
            return ""
        return "\n  by camera condition (photos with every pile right, card recall): " + ", ".join(
            f"{name} {self.by_condition_right[name] / n:.3f} / "
            f"{ratio(self.condition_cards_right[name], self.condition_cards[name], 3)} ({n})"
            for name, n in sorted(self.by_condition.items())
        )

    @property
    def silent_errors(self) -> int:
        """Errors a player who checks only the flags and gap markers would not see."""
        return self.wrong_unflagged + self.missing_silent

    def _style_lines(self) -> str:
        """Piles exactly right and card recall per card style (* held out of training)."""
        if not self.by_style:
            return ""
        from blackcat.workshop.synth.styles import HELD_OUT

        parts = [
            f"{style}{'*' if style in HELD_OUT else ''} {self.by_style_right[style] / n:.3f} "
            f"({n}; recall {ratio(self.style_cards_right[style], self.style_cards[style], 3)})"
            for style, n in sorted(self.by_style.items())
        ]
        return (
            "\n  photos with every pile exactly right by card style (* held out of training): "
            + ", ".join(parts)
        )


def missing_cards(
    read: Sequence[Sequence[ReadCard]],
    truth: Sequence[Sequence[str]],
    gaps: Sequence[Sequence[int]] = (),
) -> list[tuple[str, bool]]:
    """Each card on the table that no pile shows, and whether it goes unseen: the read pile that
    shares most cards with its own shows no gap marker where it belongs and neither neighbour
    there is flagged doubtful."""
    out = []
    for code, pile_index, place in where_lost(read, truth):
        if pile_index is None:
            out.append((code, True))
            continue
        pile = read[pile_index]
        marked = gaps[pile_index] if pile_index < len(gaps) else ()
        neighbours = [pile[n] for n in (place - 1, place) if 0 <= n < len(pile)]
        seen = place in marked or any(card.doubtful for card in neighbours)
        out.append((code, not seen))
    return out


def where_lost(
    read: Sequence[Sequence[ReadCard]], truth: Sequence[Sequence[str]]
) -> list[tuple[str, int | None, int]]:
    """Each card on the table that no pile shows, with where it belongs among the read: the
    read pile that shares most cards with its own and the place in it (a gap marker's place:
    before the card at that position), or None where no read pile shares a card with its own."""
    shown = {card.card.code for pile in read for card in pile}
    codes = [[card.card.code for card in pile] for pile in read]
    out: list[tuple[str, int | None, int]] = []
    for truth_pile in truth:
        best = max(
            range(len(read)), key=lambda n: len(set(codes[n]) & set(truth_pile)), default=None
        )
        if best is not None:
            common = [code for code in truth_pile if code in codes[best]]
            if len(common) > 1 and [c for c in codes[best] if c in common] == common[::-1]:
                truth_pile = tuple(reversed(truth_pile))  # the pile was read the other way
        for position, code in enumerate(truth_pile):
            if code in shown:
                continue
            if best is None or not set(codes[best]) & set(truth_pile):
                out.append((code, None, 0))
                continue
            after = next((c for c in truth_pile[position + 1 :] if c in codes[best]), None)
            place = codes[best].index(after) if after else len(read[best])
            out.append((code, best, place))
    return out


def false_gap_marks(
    read: Sequence[Sequence[ReadCard]],
    truth: Sequence[Sequence[str]],
    gaps: Sequence[Sequence[int]] = (),
) -> tuple[int, int]:
    """The read's gap markers ("a card may be missing here", teal in the app) and how many of
    them stand where no card was lost: each asks the player a tap for nothing."""
    lost = {(pile_index, place) for _, pile_index, place in where_lost(read, truth)}
    marks = [(pile_index, place) for pile_index, places in enumerate(gaps) for place in places]
    return len(marks), sum(mark not in lost for mark in marks)


def cards_of_unseen_piles(
    read: Sequence[Sequence[ReadCard]], truth: Sequence[Sequence[str]]
) -> int:
    """Cards on the table in piles of which the read shows no card at all: missing cards that no
    gap marker or flag can point at (a whole pile nothing found)."""
    shown = {card.card.code for pile in read for card in pile}
    return sum(len(pile) for pile in truth if shown.isdisjoint(pile))


def judge_cards(
    reads: Sequence[ReadCard], truth: Sequence[Sequence[str]]
) -> list[tuple[ReadCard, bool]]:
    """Each read card and whether it is a card on the table (each table card counted once,
    the most confident read first)."""
    left = Counter(code for pile in truth for code in pile)
    judged = {}
    for position, read in sorted(enumerate(reads), key=lambda item: -item[1].confidence):
        judged[position] = left[read.card.code] > 0
        left[read.card.code] -= judged[position]
    return [(read, judged[position]) for position, read in enumerate(reads)]


def judged_scene_cards(reader: CardReader, scene: SceneTruth) -> list[tuple[ReadCard, bool]]:
    """Every card the reader reads in a synthetic scene's photo and whether it is a card on
    the table (`judge_cards`)."""

    read = read_scene(reader, scene.image)
    cards = [card for pile in read.piles for card in pile]
    return judge_cards(cards, [pile for pile in scene.piles if pile])


SIDE_FACED_AT_TURN = {0: "near", 90: "left", 180: "far", 270: "right"}
"""The table side one player's piles face in a kitty scene turned this far (its `tilt_degrees`
rounded to a quarter turn: clockwise in the picture, so at 90 degrees their tops point right, as
the left player's do; types.SIDES)."""


def evaluate_kitty(reader: CardReader, meta_paths: Iterable[Path]) -> KittyReport:

    report = KittyReport()
    for meta_path in meta_paths:
        meta = scene_record(meta_path)
        photo = read_scene(reader, meta_path.parent / meta["image"])
        size = photo_size(meta["width"], meta["height"])  # a fault's 640 px frame told apart
        truth = [tuple(pile) for pile in meta["piles"] if pile]
        boxes = [tuple(index["box"]) for card in meta["cards"] for index in card["indices"]]
        turn = round(meta.get("tilt_degrees", 0.0) / 90) * 90 % 360
        right_before = report.scenes_right
        report.add(
            meta_path.stem,
            size,
            photo.piles,
            truth,
            boxes,
            meta.get("style", "plain"),
            photo.gaps,
            turn,
            meta.get("condition", ""),
            [photo.side_of(n) for n in range(len(photo.piles))],
        )
        report.blur.add(photo, report.scenes_right == right_before)
        report.unread.add_scene(photo, meta.get("cards", ()), truth)
    return report


class NothingToMeasure(ValueError):
    """What `blackcat evaluate` was asked to measure isn't there; the message says what it needs."""


def real_photo_sets(names: Sequence[Path] | None, shared: Path | None = None) -> list[Path]:
    """The real-photo folders to measure: each named one (a folder, or the name of a set in
    `shared`, by default ../shared/real-photos), or with no names every set in `shared`. Each
    holds a `labels.json`."""
    shared = shared or SHARED_PHOTOS
    if not names:
        folders = sorted(f for f in shared.glob("*/") if (f / "labels.json").is_file())
    else:
        folders = []
        for name in names:
            places = list(dict.fromkeys((name, shared / name)))  # one place for an absolute name
            found = next((f for f in places if (f / "labels.json").is_file()), None)
            if found is None:
                searched = " nor in ".join(str(place) for place in places)
                raise NothingToMeasure(
                    f"--real {name}: no labels.json in {searched}; give a folder "
                    "with labels.json and images/ (see ../shared/real-photos/README.md) or the "
                    "name of a set there"
                )
            folders.append(found)
    for folder in folders:  # said before any set is measured, rather than in a traceback midway
        if problem := labels_problem(folder):
            raise NothingToMeasure(f"{problem}; see ../shared/real-photos/README.md")
    return folders


def labels_problem(folder: Path) -> str | None:
    """What is wrong with a real-photo set's labels (not `load_labels`' shape, or naming a photo
    its images/ lacks); None when nothing."""
    try:
        labels = load_labels(folder)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return (
            f"{folder / 'labels.json'} is not a set's labels (JSON naming each photo in images/ "
            'with its cards, each {"card", "box"})'
        )
    missing = sorted(name for name in labels if not (folder / "images" / name).is_file())
    if missing:
        shown = ", ".join(missing[:3]) + (", ..." if len(missing) > 3 else "")
        return f"{folder / 'images'} lacks {len(missing)} of the photos labels.json names ({shown})"
    return None


def reliability_text(probabilities: Sequence[float], rights: Sequence[bool]) -> str:
    from blackcat.vision.calibration import reliability_table

    lines = ["  reliability: stated probability -> cards, mean stated, share right"]
    for row in reliability_table(probabilities, rights):
        lines.append(
            f"    {row.low:.1f}-{row.high:.1f}: {row.cards:5d} cards, "
            f"{row.mean_probability:.3f} stated, {row.right:.3f} right"
        )
    return "\n".join(lines)


def pile_read_right(read: Sequence[Sequence[str]], truth_pile: Sequence[str]) -> bool:
    """Whether some read pile has exactly the truth pile's cards in its order, or reversed (as
    same_piles allows)."""
    wanted = tuple(truth_pile)
    return any(tuple(pile) in (wanted, wanted[::-1]) for pile in read)


def closest_pile(read: Sequence[Sequence[str]], truth_pile: Sequence[str]) -> int | None:
    """The read pile sharing the most cards with the truth pile (the first of equals); None
    when none shares any."""
    shared = [len(set(pile) & set(truth_pile)) for pile in read]
    if not shared or max(shared) == 0:
        return None
    return shared.index(max(shared))


def sides_right(
    photo: PhotoRead, truth: Sequence[Sequence[str]], sides: Sequence[str]
) -> list[bool]:
    """Per truth pile: whether the read pile closest to it is given the truth pile's side."""
    read = [[card.card.code for card in pile] for pile in photo.piles]
    out = []
    for truth_pile, side in zip(truth, sides, strict=True):
        best = closest_pile(read, truth_pile)
        out.append(best is not None and photo.side_of(best) == side)
    return out


def seats_right(photo: PhotoRead, truth: Sequence[Sequence[str]], sides: Sequence[str]) -> bool:
    """Every truth pile given its own side, and no read pile on a side where nobody sits."""
    occupied = set(sides)
    strays = any(photo.side_of(n) not in occupied for n, pile in enumerate(photo.piles) if pile)
    return all(sides_right(photo, truth, sides)) and not strays


@dataclass
class TableReport:
    """The reader on whole-table scenes: piles, their sides, cards, and silent errors."""

    scenes: int = 0
    scenes_seats_right: int = 0  # every occupied side's piles given to it, no stray side
    cards: int = 0  # on the table
    cards_read: int = 0
    cards_right: int = 0
    wrong_unflagged: int = 0
    right_flagged: int = 0
    missing: int = 0
    missing_silent: int = 0
    missing_unseen_piles: int = 0  # of the missing unmarked: in piles no card of which was read
    gap_marks: int = 0  # gap markers the reader left ...
    gap_marks_false: int = 0  # ... where no card was lost
    piles: int = 0
    piles_right: int = 0  # exactly right (in order or reversed)
    piles_laid_right: int = 0  # `piles_laid_right`
    piles_side_right: int = 0
    side_piles: Counter[str] = field(default_factory=Counter)
    side_piles_right: Counter[str] = field(default_factory=Counter)
    side_piles_side_right: Counter[str] = field(default_factory=Counter)
    player_scenes: Counter[int] = field(default_factory=Counter)
    player_scenes_seats_right: Counter[int] = field(default_factory=Counter)
    player_piles: Counter[int] = field(default_factory=Counter)
    player_piles_right: Counter[int] = field(default_factory=Counter)
    size_piles: Counter[str] = field(default_factory=Counter)  # by photo size (`photo_size`)
    size_piles_right: Counter[str] = field(default_factory=Counter)
    glyph_cards: Counter[str] = field(default_factory=Counter)  # cards read by `glyph_size`
    glyph_cards_right: Counter[str] = field(default_factory=Counter)
    probabilities: list[float] = field(default_factory=list)  # every card read ...
    rights: list[bool] = field(default_factory=list)  # ... and whether it was right
    unread: UnreadTally = field(default_factory=UnreadTally)
    failures: list[str] = field(default_factory=list)

    def add(
        self,
        name: str,
        photo: PhotoRead,
        truth: Sequence[Sequence[str]],
        sides: Sequence[str],
        size: str = "",
    ) -> None:
        players = len(set(sides))
        read = [[card.card.code for card in pile] for pile in photo.piles]
        right = judge_cards([card for pile in photo.piles for card in pile], truth)
        self.probabilities.extend(card.confidence for card, _ in right)
        self.rights.extend(ok for _, ok in right)
        for read_card, ok in right:
            index_size = glyph_size(read_card)
            self.glyph_cards[index_size] += 1
            self.glyph_cards_right[index_size] += ok
        for _, silent in missing_cards(photo.piles, truth, photo.gaps):
            self.missing += 1
            self.missing_silent += silent
        self.missing_unseen_piles += cards_of_unseen_piles(photo.piles, truth)
        marks, false_marks = false_gap_marks(photo.piles, truth, photo.gaps)
        self.gap_marks += marks
        self.gap_marks_false += false_marks
        piles_right = [pile_read_right(read, pile) for pile in truth]
        on_side = sides_right(photo, truth, sides)
        seats = seats_right(photo, truth, sides)
        self.scenes += 1
        self.scenes_seats_right += seats
        self.cards += sum(len(pile) for pile in truth)
        self.cards_read += len(right)
        self.cards_right += sum(ok for _, ok in right)
        self.wrong_unflagged += sum(not ok and not card.doubtful for card, ok in right)
        self.right_flagged += sum(ok and card.doubtful for card, ok in right)
        self.piles += len(truth)
        self.piles_right += sum(piles_right)
        self.piles_laid_right += sum(piles_laid_right(read, truth))
        self.piles_side_right += sum(on_side)
        for side, whole, placed in zip(sides, piles_right, on_side, strict=True):
            self.side_piles[side] += 1
            self.side_piles_right[side] += whole
            self.side_piles_side_right[side] += placed
        self.player_scenes[players] += 1
        self.player_scenes_seats_right[players] += seats
        self.player_piles[players] += len(truth)
        self.player_piles_right[players] += sum(piles_right)
        if size:
            self.size_piles[size] += len(truth)
            self.size_piles_right[size] += sum(piles_right)
        if not all(piles_right) or not seats:
            read_sides = [photo.side_of(n) for n in range(len(read))]
            self.failures.append(
                f"{name}: read {list(zip(read_sides, read, strict=True))} "
                f"truth {list(zip(sides, [list(p) for p in truth], strict=True))}"
            )

    @property
    def silent_errors(self) -> int:
        """Errors a player who checks only the flags and gap markers would not see."""
        return self.wrong_unflagged + self.missing_silent

    def summary(self) -> str:
        by_side = ", ".join(
            f"{side} {self.side_piles_right[side] / n:.3f} / "
            f"{self.side_piles_side_right[side] / n:.3f} ({n})"
            for side in SIDES
            if (n := self.side_piles[side])
        )
        by_players = ", ".join(
            f"{count} players {self.player_scenes_seats_right[count] / n:.3f} ({n}; piles "
            f"right {ratio(self.player_piles_right[count], self.player_piles[count], 3)})"
            for count, n in sorted(self.player_scenes.items())
        )
        by_glyph = ", ".join(
            f"{size} {self.glyph_cards_right[size] / n:.3f} ({n})"
            for size in GLYPH_SIZES
            if (n := self.glyph_cards[size])
        )
        by_size = ", ".join(
            f"{size} {self.size_piles_right[size] / n:.3f} ({n})"
            for size in PHOTO_SIZES
            if (n := self.size_piles[size])
        )
        return (
            f"table scenes: {self.scenes} scenes, {self.cards} cards, {self.piles} piles; piles "
            f"exactly right {ratio(self.piles_right, self.piles, 3)}, given to the right side "
            f"{ratio(self.piles_side_right, self.piles, 3)}; photos with every side right "
            f"{ratio(self.scenes_seats_right, self.scenes, 3)}\n"
            f"  card recall {ratio(self.cards_right, self.cards, 4)}, precision "
            f"{ratio(self.cards_right, self.cards_read, 4)}; silent errors (wrong unflagged + "
            f"missing unmarked): {ratio(100 * self.silent_errors, self.cards, 2)} per 100 "
            f"cards ({self.wrong_unflagged} wrong unflagged, {self.missing_silent} of "
            f"{self.missing} missing unmarked, {self.missing_unseen_piles} of them in piles no "
            f"card of which was read); right cards flagged "
            f"{ratio(self.right_flagged, self.cards_right, 3)}; gap markers {self.gap_marks}, "
            f"{self.gap_marks_false} of them where no card was lost\n"
            f"  piles laid out right (misread, missing and extra cards aside): "
            f"{ratio(self.piles_laid_right, self.piles if self.cards_right else 0, 3)}\n"
            f"  by side (piles exactly right / given to the side): {by_side}\n"
            f"  by players (photos with every side right): {by_players}"
            + (f"\n  by photo size (piles exactly right): {by_size}" if by_size else "")
            + f"\n  by index size in the photo (cards read right of those read): {by_glyph}"
            + "\n"
            + self.unread.line()
        )


GLYPH_SIZES = ("<16 px", "16-24 px", "24-32 px", ">=32 px")


def glyph_size(card: ReadCard) -> str:
    """How large a read card's index stands in the photo (GLYPH_SIZES): its smallest index's
    glyphs, or its box where it has no index."""
    if card.indices:
        return glyph_size_name(min(glyph_pixels(index) for index in card.indices))
    return glyph_size_name(max(card.box[2] - card.box[0], card.box[3] - card.box[1]))


def glyph_size_name(pixels: float) -> str:
    """The GLYPH_SIZES class of glyphs this many pixels tall."""
    below = (16, 24, 32)  # the upper limits of all but the last class
    return next(
        (name for name, limit in zip(GLYPH_SIZES[:-1], below, strict=True) if pixels < limit),
        GLYPH_SIZES[-1],
    )


PHOTO_SIZES = ("12MP", "2MP", "640px")


def photo_size(width: int, height: int) -> str:
    """A photo's size class (PHOTO_SIZES): a phone's full resolution, a phone's reduced one, or
    a webcam's 640 px frame."""
    long_side = max(width, height)
    return "12MP" if long_side > 3000 else "2MP" if long_side > 1000 else "640px"


def evaluate_table(reader: CardReader, meta_paths: Iterable[Path]) -> TableReport:

    report = TableReport()
    for meta_path in meta_paths:
        meta = scene_record(meta_path)
        photo = read_scene(reader, meta_path.parent / meta["image"])
        size = photo_size(meta["width"], meta["height"]) if "width" in meta else ""
        truth = [tuple(p) for p in meta["piles"]]
        report.add(meta_path.stem, photo, truth, meta["sides"], size)
        report.unread.add_scene(photo, meta.get("cards", ()), truth)
    return report
