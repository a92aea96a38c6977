"""The photo reader: detect corner indices, classify them, lay the cards out in piles.

Two models at heart: a one-class detector that finds every visible corner index on a downscaled
copy of the photo (and again at a higher resolution where the indices are small), and a
classifier that reads each index from a crop of the full-resolution photo; where their files are
there, a detector and a classifier tuned to whole tables and a suit classifier that reads suits
by their shapes alone join them. The layout step (`layout.arrange`) turns the reads into
ordered piles. The models run under ONNX Runtime (`onnx_models`); the workshop plugs
Ultralytics' own models into the same reader to compare the two.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cached_property, partial
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np
from PIL import Image

from blackcat.games.cards import ALL_CARDS, Card, Suit
from blackcat.i18n import N_, TemplateError
from blackcat.vision.agreement import agreed, without_corners_read_as_others
from blackcat.vision.calibration import (
    UNCALIBRATED,
    Calibration,
    UnreadableCalibrationError,
    load_calibration,
    load_table_threshold,
)
from blackcat.vision.classes import QUARTER_TURNS, IndexClass, parse_class_name
from blackcat.vision.colour import (
    BLACK_INK,
    NO_FIX,
    RED_INK,
    PixelFix,
    Printed,
    fix_for,
    ink_shape,
    ink_tinted,
    light_inks,
    light_on_dark,
    printed,
)
from blackcat.vision.deskew import upright_crop
from blackcat.vision.graphs import connected_labels
from blackcat.vision.image_io import Photo, PhotoSource, TurnedPhoto, as_photo
from blackcat.vision.layout import NOT_AN_INDEX_ABOVE, drop_repeated_detections, photo_up
from blackcat.vision.no_row import order_judged
from blackcat.vision.parallel import THREADS_PER_RUN, parallel_map
from blackcat.vision.sharpness import read_sharpness
from blackcat.vision.squeeze import (
    STRETCHED_LONGEST,
    chooser_of_searched,
    likelier_right,
    stretch_for,
    stretched_size,
    stretches_to_search,
    sure_cards,
    unstretched,
)
from blackcat.vision.table_layout import (
    arrange_at_own_angles,
    arrange_sides,
    each_side_from_the_surer,
    sides_for_players,
    table_sides,
)
from blackcat.vision.tilt import TURNED_FROM, from_turned_square, photo_tilt, turned_square
from blackcat.vision.types import SIDES, Box, Guess, IndexRead, PhotoRead, ReadCard
from blackcat.vision.unread_faces import read_index_boxes, unread_faces

MODELS_DIR = Path(__file__).resolve().parents[2] / "models"
DETECTOR_FILE = "index_detector.onnx"
CLASSIFIER_FILE = "card_classifier.onnx"
DETECTOR_WEIGHTS = "index_detector.pt"  # what training writes and `blackcat export` reads
CLASSIFIER_WEIGHTS = "card_classifier.pt"
TABLE_DETECTOR_FILE = "table_detector.onnx"
TABLE_DETECTOR_WEIGHTS = "table_detector.pt"
"""A detector trained on whole tables too (turned piles, columns, a seated camera), which searches
a whole table's places; where it is missing, the index detector does (`CardReader`)."""
TABLE_CLASSIFIER_FILE = "table_classifier.onnx"
TABLE_CLASSIFIER_WEIGHTS = "table_classifier.pt"
"""A card classifier of its own for whole tables, which reads every photo the card classifier's
first look shows as one (`CardReader`): the card classifier, trained on for one player's cards
under real cameras' faults, leaves more of a table's small far piles unread; where it is missing,
the card classifier reads tables too."""
SUIT_CLASSIFIER_FILE = "suit_classifier.onnx"
SUIT_CLASSIFIER_WEIGHTS = "suit_classifier.pt"
"""A classifier of an index's suit from its shape alone (`ink_shape`), for decks printed light
on dark and black-and-white photos (`CardReader.reads_suits_by_shape`); where it is missing, the
card classifier reads the suits of photos whose colours say nothing of them from two tinted
copies (`suits_by_tint`)."""


class IndexDetector(Protocol):
    @property
    def trained_size(self) -> int: ...

    def detect(
        self, picture: np.ndarray, size: int, confidence: float
    ) -> tuple[np.ndarray, np.ndarray]:
        """(n, 4) boxes in the picture's pixels and (n,) confidences of an RGB picture whose
        long side the detector scales to `size`."""
        ...


class CropClassifier(Protocol):
    @property
    def names(self) -> tuple[str, ...]: ...

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        """(len(crops), classes) probabilities of RGB crops."""
        ...


@dataclass(frozen=True)
class ReaderSettings:
    detect_size: int | None = None  # long side the detector sees; None: its training size
    detect_confidence: float = 0.25
    crop_padding: float = 0.15  # each side, as a fraction of the longer side: 1.3x, as in synth
    top_guesses: int = 3
    deskew: bool = True  # each index read with its card turned square (`deskew`)
    second_looks: bool = True  # an unsure index read again from crops cut a little differently


@dataclass(frozen=True)
class Timings:
    """Seconds spent in each stage of the last photo read, for benchmarks: summed over the
    reads it took (as it is, and stretched; reads side by side each counted)."""

    stages: dict[str, float] = field(default_factory=dict)
    total: float = 0.0  # the read's seconds, start to end (`summed_timings`: summed)
    turned: int = 0  # quarter turns the photo was read again at (its glyphs stood turned)
    reads: int = 1  # reads of the photo: as it is, and each stretch of it


def summed_timings(timings: list[Timings]) -> Timings:
    """The timings of several reads of one photo as one: each stage's seconds summed, turned
    as the first read (of the photo as it is) was."""
    stages: dict[str, float] = {}
    for each in timings:
        for name, seconds in each.stages.items():
            stages[name] = stages.get(name, 0.0) + seconds
    total = sum(each.total for each in timings)
    return Timings(stages, total, timings[0].turned, len(timings))


def missing_models(
    models_dir: Path, files: Sequence[str] = (DETECTOR_FILE, CLASSIFIER_FILE)
) -> list[str]:
    """The `files` (by default the two models every read needs) that `models_dir` lacks, as
    paths."""
    return [str(models_dir / name) for name in files if not (models_dir / name).is_file()]


class ModelsMissingError(TemplateError, FileNotFoundError):
    """The trained models are not where the reader looks for them: which files, and how to get
    them (`describe(tr)` in any language). `template`: MODELS_MISSING for the exported models
    (MODELS_MISSING_ELSEWHERE in a `models_dir` other than the bundled one, which no repository
    restores), WEIGHTS_MISSING for the weights they are exported from."""

    def __init__(
        self,
        missing: Sequence[str],
        template: str | None = None,
        models_dir: Path | str | None = None,
    ) -> None:
        if template is None:
            bundled = models_dir is None or Path(models_dir).resolve() == MODELS_DIR.resolve()
            template = MODELS_MISSING if bundled else MODELS_MISSING_ELSEWHERE
        super().__init__(template, files=", ".join(missing))


MODELS_MISSING = N_(
    "trained models not found: {files}; restore models/ from the repository, or make them with "
    "`blackcat train ... --install` (it also exports them) or `blackcat export`"
)
MODELS_MISSING_ELSEWHERE = N_(
    "trained models not found: {files}; give the folder the models are in, or leave --models out "
    "to use the bundled ones (models are made with `blackcat train`, then `blackcat export "
    "--models DIR`)"
)
MODELS_DAMAGED = N_(
    "a trained model can't be loaded (cut short or damaged): {files}; restore models/ from the "
    "repository, or export it again with `blackcat export`"
)
MODELS_DAMAGED_ELSEWHERE = N_(
    "a trained model can't be loaded (cut short or damaged): {files}; export it again into its "
    "folder with `blackcat export --models DIR`, or leave --models out to use the bundled ones"
)
CALIBRATION_DAMAGED = N_(
    "a calibration file can't be read (damaged, or not as `blackcat calibrate` writes it): "
    "{files}; restore it from the repository, or remove it and fit it again with `blackcat "
    "calibrate`"
)
WEIGHTS_MISSING = N_(
    "trained weights not found: {files}; restore models/ from the repository, or train them with "
    "`blackcat train ... --install`"
)


@contextmanager
def damaged_models_told() -> Iterator[None]:
    """A model file that can't be loaded (`onnx_models.UnreadableModelError`), at load or first
    used (a model only some photos need), told as ModelsMissingError in MODELS_DAMAGED's words:
    which file, what to do (in a folder given with --models, not "restore models/")."""
    from blackcat.vision.onnx_models import UnreadableModelError

    try:
        yield
    except UnreadableModelError as error:
        bundled = Path(error.path).resolve().parent == MODELS_DIR.resolve()
        said = MODELS_DAMAGED if bundled else MODELS_DAMAGED_ELSEWHERE
        raise ModelsMissingError([str(error.path)], said) from error


@dataclass(frozen=True)
class Found:
    """What the detector found in a photo (`CardReader._find`): index boxes (photo pixels),
    their confidences, the quarter turns to read each at, the seconds the second pass took,
    whether several places were searched (their finest copy is decoded already), and the first
    pass's hints (its boxes down to HINT_CONFIDENCE in photo pixels, each followed by its
    confidence: N x 5)."""

    boxes: list[Box]
    confidences: list[float]
    turns: list[int]
    second_pass: float
    several: bool
    hints: np.ndarray


class CardReader:
    """Reads photos of piles. Load once (`CardReader.load()`), then call `read` per photo."""

    def __init__(
        self,
        detector: IndexDetector,
        classifier: CropClassifier,
        settings: ReaderSettings | None = None,
        calibration: Calibration = UNCALIBRATED,
        table_detector: IndexDetector | None = None,
        table_doubtful_below: float | None = None,
        suit_classifier: CropClassifier | None = None,
        table_classifier: CropClassifier | None = None,
    ) -> None:
        """`table_detector`: searches each place of a whole table again and reads its sides again
        (`_find`, `read_side_again`); the first look at every photo and every search of one
        player's piles are the `detector`'s (None: it does them all). `table_classifier`: reads
        a photo whose first look shows a whole table, from the start, in place of `classifier`
        (`_read_as_table`; None: `classifier` reads tables too).
        `table_doubtful_below`: the doubt threshold of a whole table's cards (None:
        `calibration`'s), whose probabilities are `calibration`'s. `suit_classifier`: reads
        the suits of decks printed light on dark and of black-and-white photos
        (`reads_suits_by_shape`)."""
        settings = settings or ReaderSettings()
        if settings.detect_size is None:
            settings = replace(settings, detect_size=detector.trained_size)
        self.detector = detector
        self.table_detector = table_detector or detector
        self.classifier = classifier
        self.settings = settings
        self.calibration = calibration
        self.table_doubtful_below = table_doubtful_below
        self.suit_classifier = suit_classifier
        self.class_tables = class_tables([parse_class_name(name) for name in classifier.names])
        self.table_classifier = table_classifier
        self.timings = Timings()
        self._last_read = threading.local()  # each thread's last `_read`'s timings (`_timed`)

    @classmethod
    def load(
        cls, models_dir: Path | str = MODELS_DIR, settings: ReaderSettings | None = None
    ) -> CardReader:
        """The reader on the exported models in `models_dir`, under ONNX Runtime."""
        from blackcat.vision.onnx_models import (
            LazyOnnxClassifier,
            LazyOnnxDetector,
            OnnxClassifier,
            OnnxDetector,
        )

        models_dir = Path(models_dir)
        if missing := missing_models(models_dir):
            raise ModelsMissingError(missing, models_dir=models_dir)
        table_path = models_dir / TABLE_DETECTOR_FILE
        suit_path = models_dir / SUIT_CLASSIFIER_FILE
        table_classifier_path = models_dir / TABLE_CLASSIFIER_FILE
        try:
            calibration = load_calibration(models_dir)
            table_doubtful_below = load_table_threshold(models_dir)
        except UnreadableCalibrationError as error:
            raise ModelsMissingError([str(error.path)], CALIBRATION_DAMAGED) from error
        with damaged_models_told():
            detector = OnnxDetector(models_dir / DETECTOR_FILE)
            classifier = OnnxClassifier(models_dir / CLASSIFIER_FILE)
        return cls(
            detector,
            classifier,
            settings,
            calibration,
            # a table's places and sides are searched side by side, each search on its own
            # share of the cores (`parallel`)
            LazyOnnxDetector(table_path, THREADS_PER_RUN) if table_path.is_file() else None,
            table_doubtful_below,
            LazyOnnxClassifier(suit_path) if suit_path.is_file() else None,
            LazyOnnxClassifier(table_classifier_path) if table_classifier_path.is_file() else None,
        )

    @damaged_models_told()
    def load_every_model(self) -> None:
        """Load now the models otherwise loaded when a photo first needs them (`load`): the
        workshop, which measures the reader on every kind of photo, finds a damaged one
        (ModelsMissingError, in `damaged_models_told`'s words) before its work begins, not
        partway through it."""
        from blackcat.vision.onnx_models import load_now

        for model in (self.table_detector, self.table_classifier, self.suit_classifier):
            load_now(model)

    @cached_property
    def table_reader(self) -> CardReader | None:
        """The reader of whole tables, on `table_classifier` (None: none), made when first
        needed: making it loads its classifier."""
        if self.table_classifier is None:
            return None
        return CardReader(
            self.detector,
            self.table_classifier,
            self.settings,
            self.calibration,
            table_detector=self.table_detector,
            table_doubtful_below=self.table_doubtful_below,
            suit_classifier=self.suit_classifier,
        )

    def table_calibration(self) -> Calibration:
        """The calibration of a whole table's cards: `calibration` with the table's threshold."""
        if self.table_doubtful_below is None:
            return self.calibration
        return replace(self.calibration, doubtful_below=self.table_doubtful_below)

    @damaged_models_told()
    def warm_up(self) -> None:
        """One tiny read, so that a photo read later doesn't pay for lazy initialisation (ONNX
        Runtime's first runs); not worth it where a photo is read right away. Read once, as it
        is: a small photo's search for a squeeze (`read`) would only repeat it."""
        tiny = Photo.from_array(np.full((64, 64, 3), 127, dtype=np.uint8))
        _, self.timings = self._timed_read(tiny, None, decks=1, players=None)

    @damaged_models_told()
    def read(
        self, image: np.ndarray | Photo, *, decks: int = 1, players: int | None = None
    ) -> PhotoRead:
        """Piles of cards from an upright RGB photo (an array, or a `Photo` not yet decoded,
        which is then decoded only as finely as its indices need). Boxes are in the photo's
        full-resolution pixels.

        A photo taken from another side of the table (the card glyphs mostly stand turned) is
        read again turned so they stand upright, as the models read best: a photo reads the
        same whichever way it was turned.

        The models see the photo with its colour cast corrected, and a black-and-white photo's
        suits are read by their shapes (`colour.fix_for`). Where
        the indices found show light ink on dark paper, or don't surely show dark ink on light,
        or few were found, they look at its negative too (a deck printed light on dark), which
        is taken where its own indices show light ink on dark paper (`negative_taken`).

        A photo of the whole table (piles standing for players on several sides) is read again
        side by side and laid out so (`_read_table`, `table_layout.arrange_sides`), each pile
        in its own player's frame, and not turned. `players`: how many players the photo shows
        at most (None: up to four; 1: one player's piles, however some glyphs stand).

        A photo squeezed along one axis (its indices stand narrower or wider than decks print
        them: a wide webcam frame resized to a square) is read again stretched back
        (`squeeze`), and that read is kept unless it is sure of fewer cards, or of as many
        where only the photo as it is shows a whole table (a whole table's sides each from the
        read surer of it: `each_side_from_the_surer`). A small photo of
        one player's cards is also read at the usual squeezes undone (`stretches_to_search`),
        and the best read kept (`chooser_of_searched`); and again with the detector's picture
        smoothed, at the stretch kept and as it is, a smoothed read kept where it is judged
        better the same way and reads no fewer cards (`smoothed_reads`: a small photo's speckle
        and compression reach the detector unsoftened). The searched stretches' reads run side by
        side on the model workers (`parallel_map`; they depend on the first read alone), then
        the smoothed ones, each judged in the order one after another would.

        A photo of one player's cards that all lie tilted (`tilt.photo_tilt`: a phone held at an
        angle to the table, cards laid so) is read all those ways again turned back by their
        tilt (`tilt.turned_square`), and that read kept where it is judged better the same way:
        the models find and read glyphs best upright.

        Once a read is kept, a flagged card of one index that most of the photo's other reads
        join to a card it reads a card's width away is dropped: a four-index card's corner read
        apart (`agreement.without_corners_read_as_others`).

        Where the first look saw a group of indices too small to read and the read kept has no
        card there, or the photo shows card faces apart from every card read (`unread_faces`),
        the read says so (`unread_places`): whole piles may be missing there.

        A model loaded on first use (`load`) that can't be loaded raises ModelsMissingError
        (`damaged_models_told`), as at load: the photo itself may be fine."""
        began = time.perf_counter()
        photo = as_photo(image)
        chosen, every_read, spent = self._searched(photo, decks, players)
        others = agreeing_reads(chosen, every_read)
        chosen = agreed(chosen, others, self.calibration)
        seen = photo.picture(self.settings.detect_size)  # decoded already, for the first read
        kept, kept_others, turned_by = chosen, others, None
        tilt = None if chosen.whole_table else photo_tilt(seen, chosen)
        if tilt is not None and abs(tilt) >= TURNED_FROM:
            # the photo itself turned, not each crop (the detector misses tilted indices too),
            # from the copy the crops need: a larger one costs a 12 MP photo twice the time
            picture = photo.picture(crop_resolution(photo, read_index_boxes(chosen)))
            scale = max(picture.shape[:2]) / photo.long_side
            turned, matrix = turned_square(picture, tilt, scale)
            again, again_reads, again_spent = self._searched(
                Photo.from_array(turned), decks, players, photo.long_side
            )
            spent += again_spent
            again_others = agreeing_reads(again, again_reads)
            again = agreed(again, again_others, self.calibration)
            if likelier_right(from_turned_square(again, matrix, photo.size), chosen):
                kept, kept_others, turned_by = again, again_others, matrix
        # cleared of corners read apart only once chosen: clearing never changes which wins
        chosen = without_corners_read_as_others(kept, kept_others)
        if turned_by is not None:
            chosen = from_turned_square(chosen, turned_by, photo.size)
        chosen = rows_judged(photo, chosen)
        unread = still_unread(chosen)
        faces = unread_faces(seen, chosen)
        unread += tuple(face for face in faces if not _inside_any(_centre(np.array(face)), unread))
        self.timings = replace(summed_timings(spent), total=time.perf_counter() - began)
        return replace(chosen, sharpness=read_sharpness(photo, chosen), unread_places=unread)

    def _searched(
        self, photo: Photo, decks: int, players: int | None, long_side: int | None = None
    ) -> tuple[PhotoRead, list[PhotoRead], list[Timings]]:
        """`read`'s choice among the photo's reads as it is, stretched and smoothed, before
        its unread places and its reads' agreement are taken in; every read made, the first
        first; and each read's timings. `long_side`: the long side (pixels) of the photo taken,
        which decides how it is searched, where `photo` is a smaller copy of it."""
        long_side = long_side or photo.long_side
        read, timings = self._timed_read(photo, None, decks=decks, players=players)
        spent, every_read = [timings], [read]
        chosen, chosen_stretch = read, None
        # a whole table read as it is (by the table reader, where there is one) is read by the
        # same reader stretched, as that reader alone would read the photo
        reader = (self.table_reader if read.whole_table else None) or self
        stretch = stretch_for(read)
        if stretch is not None:
            again, timings = reader._timed_read(photo, stretch, decks=decks, players=players)
            spent.append(timings)
            every_read.append(again)
            chosen = as_it_is_or_stretched(read, again, decks, players)
            chosen_stretch = stretch if chosen is again else None
        better = chooser_of_searched(read, long_side)
        read_again = partial(reader._timed_read, photo, decks=decks, players=players)
        searched = stretches_to_search(read, long_side)
        reads = parallel_map(read_again, searched)
        for stretch_searched, (again, timings) in zip(searched, reads, strict=True):
            spent.append(timings)
            every_read.append(again)
            if better(again, chosen):
                chosen, chosen_stretch = again, stretch_searched
        seen = photo.picture(self.settings.detect_size)  # decoded already, for the first read
        smoothed = smoothed_reads(read, long_side, chosen_stretch, seen)
        reads = parallel_map(partial(read_again, smoothed=True), smoothed)
        for again, timings in reads:
            spent.append(timings)
            every_read.append(again)
            if better(again, chosen) and again.card_count >= chosen.card_count:
                chosen = again
        return chosen, every_read, spent

    def _timed_read(
        self,
        photo: PhotoSource,
        stretch: tuple[float, float] | None,
        *,
        decks: int,
        players: int | None,
        smoothed: bool = False,
    ) -> tuple[PhotoRead, Timings]:
        """`_read` of the photo as it is (`stretch` None) or stretched (`_read_stretched`), and
        that read's timings (each thread's own: reads of one photo may run side by side)."""
        self._last_read.timings = Timings()  # never an earlier read's, where this one keeps none
        if stretch is None:
            read = self._read(photo, decks=decks, players=players, smoothed=smoothed)
        else:
            read = self._read_stretched(photo, stretch, decks, players, smoothed=smoothed)
        return read, self._last_read.timings

    def _read_stretched(
        self,
        photo: PhotoSource,
        stretch: tuple[float, float],
        decks: int,
        players: int | None,
        *,
        smoothed: bool = False,
    ) -> PhotoRead:
        """`_read` of the photo stretched (across, down), its boxes in the photo as it is."""
        size = stretched_size(photo.size, stretch, max(photo.long_side, STRETCHED_LONGEST))
        stretched = stretched_copy(photo.picture(max(size)), size)
        again = self._read(
            Photo.from_array(stretched), decks=decks, players=players, smoothed=smoothed
        )
        return unstretched(again, photo.size)

    def _read(
        self, photo: PhotoSource, *, decks: int, players: int | None, smoothed: bool = False
    ) -> PhotoRead:
        """`read`, the photo as it is; `smoothed`: the detector sees it smoothed, as it sees a
        noisy photo (`PixelFix.noisy`), however clean its light."""
        started, decoded_before = time.perf_counter(), photo.decode_seconds
        picture = photo.picture(self.settings.detect_size)
        fix = fix_for(picture)
        if smoothed:
            fix = replace(fix, noisy=True)
        balanced, decoded = time.perf_counter(), photo.decode_seconds - decoded_before
        indices, stages, hints = self.read_indices(photo, fix)
        to_picture = max(picture.shape[:2]) / photo.long_side
        boxes = _in_picture(indices, to_picture)
        printing = printed_in_crops(photo, indices)
        if negative_looked_at(printing, indices):
            light_ink = printing is Printed.LIGHT_ON_DARK
            indices, fix, stages_negative, hints = self._with_negative(
                photo, picture, (indices, hints), boxes, fix, light_ink
            )
            stages = _added(stages, stages_negative)
        confident = [i for i in indices if i.index_probability >= NOT_AN_INDEX_ABOVE]
        kept = drop_repeated_detections(confident)
        sides, sides_beyond = sides_for_players(kept, players)
        a_table = len(set(sides)) > 1
        table_reader = self.table_reader if a_table else None
        if table_reader is not None:
            return self._read_as_table(table_reader, photo, decks, players, smoothed, started)
        if a_table:
            stages["decode"] += decoded  # the detector's copy, decoded for the white balance
            stages["detect"] += balanced - started - decoded
            doubted = [i for i in indices if i.index_probability < NOT_AN_INDEX_ABOVE]
            read = self._read_table(
                photo, kept, doubted, sides, fix, stages, decks, players, started
            )
            return replace(read, unread_places=unread_places(hints, read), sides_found=sides_beyond)
        up = photo_up(confident)
        seen: PhotoSource = photo
        if up:
            seen = TurnedPhoto(photo, up)
            indices, stages_turned, _ = self.read_indices(seen, fix, places=False)
            stages = _added(stages, stages_turned)
        stages["decode"] += decoded  # the detector's copy, decoded for the white balance
        stages["detect"] += balanced - started - decoded
        laid_out = time.perf_counter()
        width, height = seen.size
        laid = partial(
            arrange_at_own_angles,
            decks=decks,
            width=width,
            height=height,
            calibration=self.calibration,
        )
        read = laid(indices)
        found = self.cards_in_gaps(seen, read, fix, decks)
        if found:
            read = laid([*indices, *(index for _, index in found)])
        if up:
            read = turned_back(read, photo.size, up)
        self._timed(stages, laid_out, started, up)
        return replace(read, unread_places=unread_places(hints, read), sides_found=sides_beyond)

    def _read_as_table(
        self,
        table_reader: CardReader,
        photo: PhotoSource,
        decks: int,
        players: int | None,
        smoothed: bool,
        started: float,
    ) -> PhotoRead:
        """`_read` of a photo whose first look (begun at `started`) shows a whole table:
        `table_reader`'s read of it from the start, its own first look deciding again whether it
        shows one, with its timings and this first look's seconds ("first look")."""
        table_reader._last_read.timings = Timings()
        looked = time.perf_counter() - started
        read = table_reader._read(photo, decks=decks, players=players, smoothed=smoothed)
        timings = table_reader._last_read.timings
        self._last_read.timings = replace(
            timings,
            stages={"first look": looked, **timings.stages},
            total=time.perf_counter() - started,
        )
        return read

    def _with_negative(
        self,
        photo: PhotoSource,
        picture: np.ndarray,
        looked: tuple[list[IndexRead], np.ndarray],
        boxes: list[Box],
        fix: PixelFix,
        light_ink: bool,
    ) -> tuple[list[IndexRead], PixelFix, dict[str, float], np.ndarray]:
        """The indices to go on with, the fix they were read through, the seconds the reads
        of the photo's negative took, and the hints of the look taken: its negative's where
        `negative_taken` says so, else `looked` (the indices and hints of the photo read through
        `fix`; `boxes`: those indices' in `picture`, the detector's copy; `light_ink`: whether
        they show light ink on dark paper). A deck printed light on dark
        may print its red suits in the same ink as its black ones: then its suits are read by
        their shapes."""
        # no colour cast undone: the brightest surfaces of a dark-faced deck's photo are the
        # table or the ink, not its faces
        indices, hints = looked
        negative = PixelFix(negative=True, inks=light_inks(picture, boxes))
        negatives, stages, negative_hints = self.read_indices(photo, negative)
        to_picture = max(picture.shape[:2]) / photo.long_side
        found_there = _in_picture([index for index in negatives if _found(index)], to_picture)
        if not negative_taken(
            found_cards(indices), len(found_there), light_ink, light_on_dark(picture, found_there)
        ):
            return indices, fix, stages, hints
        # the inks were told from the indices the photo itself showed, which may be a few
        # marks around a deck it barely read: its negative's show them better
        inks = light_inks(picture, found_there)
        if inks is negative.inks:
            return negatives, negative, stages, negative_hints
        negative = replace(negative, inks=inks)
        negatives, stages_inks, negative_hints = self.read_indices(photo, negative)
        return negatives, negative, _added(stages, stages_inks), negative_hints

    def _timed(self, stages: dict[str, float], laid_out: float, started: float, up: int) -> None:
        """Keep the stages of the read just done (the layout's from `laid_out`) for benchmarks,
        this thread's own (`_timed_read`)."""
        self._last_read.timings = Timings(
            {**stages, "layout": time.perf_counter() - laid_out},
            time.perf_counter() - started,
            up,
        )

    def _read_table(
        self,
        photo: Photo,
        kept: list[IndexRead],
        doubted: list[IndexRead],
        sides: list[int],
        fix: PixelFix,
        stages: dict[str, float],
        decks: int,
        players: int | None,
        started: float,
    ) -> PhotoRead:
        """A photo of the whole table: each side's indices (`kept`, read as indices, repeated
        detections dropped; `sides`: the quarter turn of each), read again on the side's own
        part of the photo (`read_side_again`), except a turned side the search (`_find`)
        already saw turned as it stands, read again only round the top corners it saw otherwise
        (`parts_to_read_again`), laid out in that side's frame (`doubted`: detections
        called no index, which may mark gaps). The near side is always read again: the search
        sized its pass by the indices it was sure of, mostly the largest, and a near column's
        smaller ones could go missing there."""
        sides_started = time.perf_counter()
        sided = list(zip(kept, sides, strict=True))
        own = {up: [index for index, side in sided if side == up] for up in set(sides)}
        others = {up: [index for index, side in sided if side != up] for up in set(sides)}
        again = parts_to_read_again(own)
        # each side's part cut here, one after the other (cutting may decode a copy of the
        # photo); the detector searches them at once
        views = [side_view(photo, framed, up) for up, framed in again]
        found = parallel_map(partial(self._found_in, fix=fix, detector=self.table_detector), views)
        by_side = {up: own[up] for up in sorted(own)}
        for (up, _), (boxes, confidences) in zip(again, found, strict=True):
            by_side[up] = self.read_side_again(
                photo, own[up], others[up], up, fix, boxes, confidences
            )
        stages["sides again"] = time.perf_counter() - sides_started
        laid_out = time.perf_counter()
        width, height = photo.size
        laid = partial(
            arrange_sides,
            doubted=doubted,
            decks=decks,
            width=width,
            height=height,
            calibration=self.table_calibration(),
            players=players,
        )
        read = laid(by_side)
        found = self.cards_in_gaps(photo, read, fix, decks)
        if found:
            for up, index in found:
                by_side[up] = [*by_side.get(up, []), index]
            read = laid(by_side)
        self._timed(stages, laid_out, started, 0)
        return read

    def cards_in_gaps(
        self, photo: PhotoSource, read: PhotoRead, fix: PixelFix, decks: int
    ) -> list[tuple[int, IndexRead]]:
        """The cards a pile lost where its layout marks a gap between two of its cards, each
        with the quarter turn of its pile's side: the crop where the lost card's index should
        lie (`gap_places`) read as a lost card (`read_as_lost_card`) and, with one deck, as a
        card read nowhere else in the photo. The detector missed them (an index half in a
        neighbour's shadow, glare), but the classifier reads them where they must lie."""
        taken = {card.card for pile in read.piles for card in pile}
        found: list[tuple[int, IndexRead]] = []
        for up, places in gap_places(read).items():
            boxes = [box for box, _ in places]
            lost = self._read_where_lost(photo, boxes, fix, up)
            for (_, suit_before), index in zip(places, lost, strict=True):
                if read_as_lost_card(index, up, suit_before) and not (
                    decks == 1 and index.card in taken
                ):
                    taken.add(index.card)
                    found.append((up, index))
        return found + self.cards_beyond_piles(photo, read, fix, decks, taken)

    def cards_beyond_piles(
        self, photo: PhotoSource, read: PhotoRead, fix: PixelFix, decks: int, taken: set[Card]
    ) -> list[tuple[int, IndexRead]]:
        """The cards a pile lost before its first card read or after its last (`pile_walks`):
        the crop one step beyond its end read as a lost card (`PileWalk.takes`), with one deck
        as a card not `taken`, then the crop a step beyond that, up to WALK_STEPS steps. The
        detector misses a pile's first card more often than any other (a far pile's first
        cards, in its player's order, lie furthest from the camera of all its cards)."""
        walks = pile_walks(read)
        read_boxes = read_index_boxes(read)
        found: list[tuple[int, IndexRead]] = []
        for steps in range(1, WALK_STEPS + 1):
            by_up: dict[int, list[tuple[PileWalk, Box]]] = {}
            for walk in walks:
                box = walk.box(steps)
                if inside_photo(box, (read.width, read.height)) and not _overlaps_any(
                    box, read_boxes
                ):
                    by_up.setdefault(walk.up, []).append((walk, box))
            walks = []
            for up, places in by_up.items():
                places = self._likely_indices(photo, places, fix, up)
                lost = self._read_where_lost(photo, [box for _, box in places], fix, up)
                for (walk, _), index in zip(places, lost, strict=True):
                    if walk.takes(index) and not (decks == 1 and index.card in taken):
                        taken.add(index.card)
                        found.append((up, index))
                        walks.append(walk.past(index))
            if not walks:
                break
        return found

    def _read_where_lost(
        self, photo: PhotoSource, boxes: list[Box], fix: PixelFix, up: int
    ) -> list[IndexRead]:
        """The crops where lost cards' indices would lie, read as indices of the side whose
        glyphs stand `up`'s way; no detector found them (`in_gap`)."""
        reads = self.classify(photo, boxes, fix, turns=up, finer_decoded=True)
        return [
            IndexRead(box, 0.0, guesses, index_probability, orientations, up, in_gap=True)
            for box, (guesses, index_probability, orientations) in zip(boxes, reads, strict=True)
        ]

    def _likely_indices(
        self, photo: PhotoSource, places: list[tuple[PileWalk, Box]], fix: PixelFix, up: int
    ) -> list[tuple[PileWalk, Box]]:
        """The places whose box one crop, read once, shows as likely an index (WALK_SCREEN):
        most crops beyond a pile's ends show the table, and need not be read five ways."""
        reads = self.classify(
            photo,
            [box for _, box in places],
            fix,
            turns=up,
            finer_decoded=True,
            deskew=False,
            look_again=False,
        )
        return [
            place
            for place, (_, index_probability, _) in zip(places, reads, strict=True)
            if index_probability >= WALK_SCREEN
        ]

    def read_side_again(
        self,
        photo: Photo,
        own: list[IndexRead],
        others: list[IndexRead],
        up: int,
        fix: PixelFix,
        found: np.ndarray,
        confidences: np.ndarray,
    ) -> list[IndexRead]:
        """A table side's indices read again from what the detector found on its part of the
        photo (`side_view`: turned so that its glyphs stand upright, as the models read best;
        `found`, photo-pixel boxes, and their `confidences`), with those of the first read
        (`own`) that the second does not find; boxes and glyph turns in the photo as it is.
        What the second read finds where the first found another side's indices (`others`:
        its part of the photo may reach a neighbour's piles), or nearer theirs than its own,
        stays theirs."""
        boxes = np.array([index.box for index in own])
        found_boxes, found_confidences = _as_lists(found, confidences)
        reads = self.classify(photo, found_boxes, fix, turns=up, finer_decoded=True)
        theirs = np.array([index.box for index in others]).reshape(-1, 4)
        again = [
            IndexRead(box, confidence, guesses, index_probability, orientations, up)
            for box, confidence, (guesses, index_probability, orientations) in zip(
                found_boxes, found_confidences, reads, strict=True
            )
            if not len(theirs)
            or (
                float(overlap_of_smaller(np.array(box), theirs).max()) <= 0.3
                and _nearest_distance(box, boxes) <= _nearest_distance(box, theirs)
            )
        ]
        found_again = np.array([index.box for index in again]).reshape(-1, 4)
        kept_first = [
            index
            for index in own
            if not again or float(overlap_of_smaller(np.array(index.box), found_again).max()) <= 0.3
        ]
        return again + kept_first

    def read_indices(
        self, photo: PhotoSource, fix: PixelFix = NO_FIX, *, places: bool = True
    ) -> tuple[list[IndexRead], dict[str, float], np.ndarray]:
        """Every index found and read (the models seeing the photo through `fix`), the seconds
        each stage took, and the first look's hints of indices (`_find`). `places`: search a
        whole table's places each on its own (`_find`); else as one player's piles, as a photo
        turned to its one player's up is."""
        started, decoded_before = time.perf_counter(), photo.decode_seconds
        found = self._find(photo, fix, places=places)
        detected, decoded_detecting = time.perf_counter(), photo.decode_seconds
        indices = self.read_found(photo, found, fix)
        classified, decoded_classifying = time.perf_counter(), photo.decode_seconds
        detecting = detected - started - (decoded_detecting - decoded_before)
        return (
            indices,
            {
                "decode": decoded_classifying - decoded_before,
                "detect": detecting - found.second_pass,
                "second pass": found.second_pass,
                "classify": classified - detected - (decoded_classifying - decoded_detecting),
            },
            found.hints,
        )

    def read_found(self, photo: PhotoSource, found: Found, fix: PixelFix) -> list[IndexRead]:
        """The indices the detector found (`found`), each read by the classifier turned as
        `found` says (the models seeing the photo through `fix`)."""
        reads: list[ClassifiedIndex | None] = [None] * len(found.boxes)
        for turn in sorted(set(found.turns)):
            mine = [n for n, own in enumerate(found.turns) if own == turn]
            boxes = [found.boxes[n] for n in mine]
            # several places: the finest copy their search needed is decoded already
            classified = self.classify(photo, boxes, fix, turns=turn, finer_decoded=found.several)
            for n, read in zip(mine, classified, strict=True):
                reads[n] = read
        return [
            IndexRead(box, confidence, read[0], read[1], read[2], turn)
            for box, confidence, read, turn in zip(
                found.boxes, found.confidences, reads, found.turns, strict=True
            )
            if read is not None
        ]

    def detect(
        self, photo: np.ndarray | PhotoSource, fix: PixelFix = NO_FIX
    ) -> tuple[list[Box], list[float], float]:
        """Index boxes in full-resolution pixels and their confidences, found on a downscaled
        copy, and again at a higher resolution where that copy shows the indices small or none
        (the seconds that second pass took: 0 when it wasn't needed)."""
        found = self._find(as_photo(photo), fix)
        return found.boxes, found.confidences, found.second_pass

    def _find(self, photo: PhotoSource, fix: PixelFix, *, places: bool = True) -> Found:
        """`detect`'s boxes and confidences, the quarter turns to read each at, the seconds
        of the second pass, whether several places were searched, and the first pass's hints
        (`Found`): where the first pass
        shows several places where piles may lie (a whole table), each place whose indices
        stand small or turned is searched again at the resolution it needs, turned so that its
        glyphs (as the first pass read them) stand upright, as the models read best."""
        size = self.settings.detect_size or self.detector.trained_size
        whole = (0, 0, *photo.size)
        hints, hint_confidences = self._detect_in(
            photo,
            whole,
            size,
            fix,
            confidence=min(HINT_CONFIDENCE, self.settings.detect_confidence),
        )
        hinted = np.column_stack([hints, hint_confidences])
        sure = hint_confidences >= self.settings.detect_confidence
        boxes, confidences = hints[sure], hint_confidences[sure]
        seen_at = size / photo.long_side  # detector pixels per photo pixel in the first pass
        found_places = hint_groups(hints, boxes) if places else []
        started, decoding = time.perf_counter(), photo.decode_seconds
        several = len(found_places) > 1
        if several:
            plans = self._place_plans(photo, fix, found_places, boxes, seen_at, size)
        else:
            plan = second_pass_plan(boxes, (boxes[:, 3] - boxes[:, 1]) * seen_at, photo.size, size)
            plans = [PassPlan(*plan)] if plan else []
            if plans and found_places:
                # a table whose piles the hints join in one place: its far piles may lie
                # beyond the region round what the first pass was sure of
                covered = [plans[0].region]
                plans += self._left_over_plans(photo, fix, found_places, boxes, covered, size)
        if not plans:
            return Found(*_as_lists(boxes, confidences), [0] * len(boxes), 0.0, several, hinted)
        more, more_confidences, more_turns = np.zeros((0, 4)), np.zeros(0), np.zeros(0, int)
        # several: the places' finest copy is decoded already, for their classification
        views = [
            detector_view(photo, plan.region, plan.size, plan.turns, finer_decoded=several)
            for plan in plans
        ]

        def search(planned: tuple[PassPlan, DetectorView]) -> tuple[np.ndarray, np.ndarray]:
            plan, view = planned
            detector = self.table_detector if plan.of_a_table else self.detector
            return self._found_in(view, fix, plan.confidence, detector)

        searched = parallel_map(search, zip(plans, views, strict=True))
        for plan, (found, found_confidences) in zip(plans, searched, strict=True):
            own = [n for n, box in enumerate(found) if not plan.elsewhere(box)]
            found, found_confidences = found[own].reshape(-1, 4), found_confidences[own]
            kept = not_overlapped(more, found)
            more = np.concatenate([found, more[kept]])
            more_confidences = np.concatenate([found_confidences, more_confidences[kept]])
            more_turns = np.concatenate([np.full(len(found), plan.turns), more_turns[kept]])
        kept = not_overlapped(boxes, more)
        if several:
            # a place searched again finely: a coarse first-pass box there is seldom exact
            kept = [n for n in kept if not _near_any(boxes[n], more)]
        first_turns = [_turn_at(box, plans) for box in boxes[kept]]
        spent = time.perf_counter() - started - (photo.decode_seconds - decoding)
        return Found(
            *_as_lists(
                np.concatenate([more, boxes[kept]]),
                np.concatenate([more_confidences, confidences[kept]]),
            ),
            [int(turn) for turn in more_turns] + first_turns,
            spent,
            several,
            hinted,
        )

    def _place_plans(
        self,
        photo: PhotoSource,
        fix: PixelFix,
        places: list[np.ndarray],
        boxes: np.ndarray,
        seen_at: float,
        first_size: int,
    ) -> list[PassPlan]:
        """For each place that needs it, where and how to look again: turned as its sure
        first-pass indices stand (read for it now)."""
        first = _as_lists(boxes, np.ones(len(boxes)))[0]
        # the place of the smallest indices calls for the finest copy: decoded once, for all
        photo.picture(max(crop_resolution(photo, place) for place in places))
        indices = self._glyph_turns(photo, first, fix)
        regions = [_span(place) for place in places]
        insides = [[index for index in indices if _inside(index.centre, r)] for r in regions]
        # where the first pass was sure of too few indices, its hints show which way they stand
        unsure = [n for n, inside in enumerate(insides) if len(inside) < FEW_TO_TURN_BY]
        hinted = [
            tuple(float(v) for v in box)
            for n in unsure
            for box in places[n][:HINTS_TO_TURN_BY]
            if not (len(boxes) and (boxes == box).all(axis=1).any())
        ]
        for read in self._glyph_turns(photo, hinted, fix):
            for n in unsure:
                if _inside(read.centre, regions[n]):
                    insides[n].append(read)
        # a place may hold two players' piles (a side's and the far side's, near a corner)
        parts: list[tuple[np.ndarray, list[IndexRead], int]] = []
        for place, inside in zip(places, insides, strict=True):
            sides = table_sides(inside)
            if len(set(sides)) <= 1:
                parts.append((place, inside, photo_up(inside)))
                continue
            for turn in sorted(set(sides)):
                own = [index for index, side in zip(inside, sides, strict=True) if side == turn]
                parts.append((np.array([index.box for index in own]), own, turn))
        spans = [_span(place) for place, _, _ in parts]
        plans = []
        for n, (place, inside, turn) in enumerate(parts):
            others = tuple(span for m, span in enumerate(spans) if m != n)
            measured = np.array([index.box for index in inside]).reshape(-1, 4)
            sized = measured if len(measured) else place
            heights = np.maximum(sized[:, 3] - sized[:, 1], sized[:, 2] - sized[:, 0])
            if turn or float(np.median(heights)) * seen_at < SMALL_INDEX_PIXELS:
                plan = region_plan(
                    place,
                    photo.size,
                    first_size,
                    index_pixels(turn),
                    measured,
                    PLACE_ENLARGED_UP_TO,
                )
                plans.append(
                    PassPlan(*plan, turn, others, PLACE_CONFIDENCE, of_a_table=True, span=spans[n])
                )
        covered = [plan.region for plan in plans] + spans
        return plans + self._left_over_plans(photo, fix, places, boxes, covered, first_size)

    def _left_over_plans(
        self,
        photo: PhotoSource,
        fix: PixelFix,
        places: list[np.ndarray],
        boxes: np.ndarray,
        covered: list[Region],
        first_size: int,
    ) -> list[PassPlan]:
        """Plans for the hints of places that no part of a place covers: a far player's small
        pile the first pass only hinted at, inside the place of the near piles, whose parts
        follow the indices it was sure of."""
        hints = np.concatenate(places)
        left_over = hints[[not any(_inside(_centre(hint), r) for r in covered) for hint in hints]]
        plans = []
        for group in hint_groups(left_over, boxes):
            likeliest = [tuple(float(v) for v in box) for box in group[:HINTS_TO_TURN_BY]]
            read = self._glyph_turns(photo, likeliest, fix)
            if len(read) < FEW_TO_TURN_BY:
                continue  # hints of no index: pips, a card back's pattern
            turn = photo_up(read)
            measured = np.array([index.box for index in read])
            plan = region_plan(
                group, photo.size, first_size, index_pixels(turn), measured, PLACE_ENLARGED_UP_TO
            )
            plans.append(PassPlan(*plan, turn, tuple(covered), PLACE_CONFIDENCE, of_a_table=True))
        return plans

    def _detect_in(
        self,
        photo: PhotoSource,
        region: tuple[int, int, int, int],
        size: int,
        fix: PixelFix,
        turns: int = 0,
        confidence: float | None = None,
        finer_decoded: bool = False,
        detector: IndexDetector | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Detections in a region (x1, y1, x2, y2 in photo pixels) seen at `size` pixels along
        its long side, turned `turns` quarter turns anticlockwise, as photo-pixel boxes; at least
        `confidence` (None: the settings' threshold). `finer_decoded`: shrink the region from a
        finer copy of the photo where one is already decoded. `detector`: None, the index
        detector."""
        view = detector_view(photo, region, size, turns, finer_decoded)
        return self._found_in(view, fix, confidence, detector)

    def _found_in(
        self,
        view: DetectorView,
        fix: PixelFix,
        confidence: float | None = None,
        detector: IndexDetector | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """`_detect_in`'s detections in a region already cut (`detector_view`). It touches no
        photo, so several run at once (`parallel_map`)."""
        detector = detector or self.detector
        threshold = self.settings.detect_confidence if confidence is None else confidence
        key = view.search_key(fix, threshold, detector)
        done = view.searches.get(key) if view.searches is not None else None
        if done is not None:
            return done.found.copy(), done.confidences.copy()
        seen, mapping = view.seen()
        xyxy, confidences = detector.detect(fix.apply(seen, denoise=True), view.size, threshold)
        found = mapping.in_photo(np.asarray(xyxy, dtype=np.float64))
        confidences = np.asarray(confidences, dtype=np.float64)
        if view.searches is not None:
            view.searches[key] = SearchDone(view.part, detector, found.copy(), confidences.copy())
        return found, confidences

    def classify(
        self,
        photo: np.ndarray | PhotoSource,
        boxes: list[Box],
        fix: PixelFix = NO_FIX,
        turns: int = 0,
        finer_decoded: bool = False,
        deskew: bool = True,
        look_again: bool = True,
    ) -> list[ClassifiedIndex]:
        """What each index box shows, all crops in one batch, cut from a copy of the photo
        where the indices have about CROP_INDEX_PIXELS (or the photo's full resolution; or a
        finer copy already decoded, if `finer_decoded`), and seen turned `turns` quarter turns
        anticlockwise (the glyph turns given as they stand in the photo). `deskew`: read
        unsure ones again with their card turned square; `look_again`: from other crops
        (`_looked_again`); both as the settings say."""
        if not boxes:
            return []
        picture, in_picture = crop_picture(as_photo(photo), boxes, finer_decoded=finer_decoded)
        padding = self.settings.crop_padding
        probabilities = self.crop_probabilities(
            cut_crops(picture, in_picture, fix, padding), turns, fix
        )
        reads = [self._summarised(row, turns) for row in probabilities]
        if look_again and self.settings.second_looks:
            reads = self._looked_again(picture, in_picture, probabilities, reads, fix, turns)
        if not (deskew and self.settings.deskew):
            return reads
        # an index read unsurely is read again with its card turned square, where it lies
        # tilted (`deskew`): the surer of the two reads is kept
        unsure = [n for n, read in enumerate(reads) if sureness(read) < SURE_AS_IT_STANDS]
        turned = {n: upright_crop(picture, in_picture[n], padding) for n in unsure}
        again = [n for n in unsure if turned[n] is not None]
        for n, read in zip(
            again,
            self._classified(
                [fix.apply(turned[n]) for n in again], turns, self.reads_suits_by_shape(fix)
            ),
            strict=True,
        ):
            if sureness(read) > sureness(reads[n]):
                reads[n] = read
        return reads

    def _glyph_turns(self, photo: PhotoSource, boxes: list[Box], fix: PixelFix) -> list[IndexRead]:
        """A first read of a place's boxes, for the way its glyphs stand only: those read as
        indices, from the finest copy decoded, none read again."""
        reads = self.classify(photo, boxes, fix, finer_decoded=True, deskew=False, look_again=False)
        return [
            IndexRead(box, 1.0, guesses, index_probability, orientations)
            for box, (guesses, index_probability, orientations) in zip(boxes, reads, strict=True)
            if index_probability >= NOT_AN_INDEX_ABOVE
        ]

    def _looked_again(
        self,
        picture: np.ndarray,
        boxes: list[Box],
        probabilities: np.ndarray,
        reads: list[ClassifiedIndex],
        fix: PixelFix,
        turns: int,
    ) -> list[ClassifiedIndex]:
        """`reads` with each unsure index's card read again as the mean of the classifier's
        answers on its crop and on crops cut a little wider, tighter and shifted (SECOND_LOOKS):
        one crop's cut can clip or crowd a small index; the answers together rarely all err
        alike. Whether it is an index at all, and how its glyph stands, stay its own crop's
        answer (a crop shifted off a pip may show a neighbour's index)."""
        unsure = [
            n
            for n, read in enumerate(reads)
            if sureness(read) < LOOK_AGAIN_BELOW and read[1] >= NOT_AN_INDEX_ABOVE
        ]
        if not unsure:
            return reads
        unsure_boxes = [boxes[n] for n in unsure]
        crops = [
            crop for look in SECOND_LOOKS for crop in cut_crops(picture, unsure_boxes, fix, *look)
        ]
        # one batch for every look: (looks, unsure indices, classes)
        looks = self.crop_probabilities(crops, turns, fix).reshape(
            len(SECOND_LOOKS), len(unsure), -1
        )
        means = (probabilities[unsure] + looks.sum(axis=0)) / (len(SECOND_LOOKS) + 1)
        reads = list(reads)
        for n, row in zip(unsure, means, strict=True):
            guesses, _, _ = self._summarised(row, turns)
            _, index_probability, orientations = reads[n]
            reads[n] = (guesses, index_probability, orientations)
        return reads

    def _classified(
        self, crops: list[np.ndarray], turns: int, by_shape: bool = False
    ) -> list[ClassifiedIndex]:
        """The classifier's reads of crops seen turned `turns` quarter turns anticlockwise;
        `by_shape`: their suits read by their shapes (`reads_suits_by_shape`)."""
        return [self._summarised(row, turns) for row in self._probabilities(crops, turns, by_shape)]

    def reads_suits_by_shape(self, fix: PixelFix) -> bool:
        """Whether crops cut through `fix` have their suits read by their shapes: where their
        colours say nothing of them (`PixelFix.suits_by_shape`), and, with a suit-shape
        classifier, every deck printed light on dark, however many inks it seems to have (a
        gold ink's glare passes for two inks, and its spades are then read as diamonds)."""
        return fix.suits_by_shape or (fix.negative and self.suit_classifier is not None)

    def crop_probabilities(self, crops: list[np.ndarray], turns: int, fix: PixelFix) -> np.ndarray:
        """The classifier's class probabilities (a row a crop) of crops cut through `fix`, seen
        turned `turns` quarter turns anticlockwise."""
        return self._probabilities(crops, turns, self.reads_suits_by_shape(fix))

    def _probabilities(self, crops: list[np.ndarray], turns: int, by_shape: bool) -> np.ndarray:
        """The classifier's class probabilities of crops (a row each), as `_classified`."""
        if not crops:
            return np.zeros((0, len(self.classifier.names)))
        if turns % 4:
            crops = [np.ascontiguousarray(np.rot90(crop, turns)) for crop in crops]
        if by_shape and self.suit_classifier is not None:
            return read_by_shape(self.classifier, self.suit_classifier, crops, self.class_tables)
        if by_shape:
            return read_by_tint(self.classifier, crops, self.class_tables)
        return np.asarray(self.classifier.probabilities(crops))

    def _summarised(self, probabilities: np.ndarray, turns: int) -> ClassifiedIndex:
        """One crop's read from its class probabilities, its glyph turns as in the photo."""
        return turned_glyphs(
            summarise(np.asarray(probabilities), self.class_tables, self.settings.top_guesses),
            turns,
        )


SURE_AS_IT_STANDS = 0.99
"""An index read at least this surely (an index, and its best card) is not read again turned
square (`deskew`): a tilted card the classifier reads well stays as it was read."""

LOOK_AGAIN_BELOW = 0.9
"""An index read less surely than this is read again from other crops (`second_looks`). Session
18, table and kitty sets: below 0.99 read as many piles right (small kitty piles 0.965 against
0.955), with about twice as many crops again: a 12 MP photo's classification took 9 ms more
(below 0.9: 5 ms), a whole table's about 40 ms (below 0.9: 17-35 ms)."""

SECOND_LOOKS = ((0.10, 0.0, 0.0), (0.22, 0.0, 0.0), (0.15, 0.06, 0.0), (0.15, 0.0, 0.06))
"""The other crops of an unsure index: padding (as `crop_padding`), and the shift of its centre
across and down, as fractions of the box's longer side."""


def as_it_is_or_stretched(
    read: PhotoRead, again: PhotoRead, decks: int, players: int | None
) -> PhotoRead:
    """Which to keep of a photo's read as it is and its read stretched back (`again`): a
    whole table's sides each from the surer read (`each_side_from_the_surer`); else the
    stretched read, unless it is sure of fewer cards, or of as many where only the photo as it
    is shows a whole table (stretched, a side player's small pile was read as the near
    player's: fresh 3636 t00019), or where neither is sure of any card (cards fanned at 45
    degrees measure squeezed: stretched, their flagged cards were lost)."""
    if read.whole_table and again.whole_table:
        return each_side_from_the_surer(read, again, decks, players)
    sure, sure_again = sure_cards(read), sure_cards(again)
    if sure_again > sure or (sure_again == sure > 0 and not read.whole_table):
        return again
    return read


SMOOTHED_UP_TO = 1024
"""A one player's photo this small (its long side, pixels: video frames, webcam stills) is read
once more with the detector's picture smoothed (`PixelFix.noisy`), at the stretch whose read was
kept and as it is, and a smoothed read kept where it is judged better (`chooser_of_searched`)
and reads no fewer cards (the median blurs a small glyph's strokes too: a smoothed read of
fewer cards lost some; camera-fault kitty k00155 lost a pile that way). The detector sees such a
photo at about its own pixels, so a sensor's speckle and a video's blocks reach it unsoftened;
a larger photo is shrunk for it, which smooths it. No measure of a photo's noise tells when
(JPEG removes the fine noise it would measure: session 40), so the reads tell. Session 44,
recall / precision: rf100 as a speckled, compressed 640 px video frame 0.912 / 0.934 -> 0.932 /
0.930, edje speckled 0.923 / 0.978 -> 1.000 / 0.979, rf100 JPEG 15 0.977 / 0.975 -> 0.984 /
0.977, rf100 blown out 0.912 / 0.948 -> 0.923 / 0.946, rf100 speckled 0.964 / 0.971 -> 0.964 /
0.962; 200 scattered 640 px frames read right 0.7880 -> 0.7933; rf100 and edje as they are lose
one card's precision each; larger photos read as before. It costs a small photo one or two
reads more."""


def agreeing_reads(chosen: PhotoRead, every_read: Sequence[PhotoRead]) -> list[PhotoRead]:
    """The photo's reads other than `chosen` whose agreement with it counts (`agreement`):
    every other, where `chosen` is one of them and lays out one player's piles (on one side);
    none for a whole table (its sides each from the surer read, its own threshold of doubt)."""
    one_player = len(set(chosen.sides)) <= 1
    if not one_player or not any(read is chosen for read in every_read):
        return []
    return [read for read in every_read if read is not chosen]


def smoothed_reads(
    read: PhotoRead,
    long_side: int,
    kept_stretch: tuple[float, float] | None,
    picture: np.ndarray,
) -> tuple[tuple[float, float] | None, ...]:
    """The stretches (None: as it is) to read a photo at again with the detector's picture
    smoothed (SMOOTHED_UP_TO): none for a whole table, a photo larger than that, or one whose
    detector picture (`picture`) is smoothed already (its light raised its noise: `fix_for`,
    told last, as only a small photo needs it); else at `kept_stretch` (the stretch of the read
    kept so far) where there is one, then as it is."""
    if read.whole_table or long_side > SMOOTHED_UP_TO or fix_for(picture).noisy:
        return ()
    return (None,) if kept_stretch is None else (kept_stretch, None)


def cut_crops(
    picture: np.ndarray,
    boxes: list[Box],
    fix: PixelFix,
    padding: float,
    across: float = 0.0,
    down: float = 0.0,
) -> list[np.ndarray]:
    """The classifier's crops of boxes (in `picture`'s pixels) seen through `fix`: squares
    round them with `padding`, their centres shifted `across` and `down` (`shifted`)."""
    return [fix.apply(square_crop(picture, shifted(box, across, down), padding)) for box in boxes]


def shifted(box: Box, across: float, down: float) -> Box:
    """The box moved across and down by these fractions of its longer side."""
    x1, y1, x2, y2 = box
    side = max(x2 - x1, y2 - y1)
    return (x1 + across * side, y1 + down * side, x2 + across * side, y2 + down * side)


def sureness(read: ClassifiedIndex) -> float:
    """How surely a classified index is read: that it is an index, times its best card."""
    guesses, index_probability, _ = read
    return index_probability * (guesses[0].probability if guesses else 0.0)


GAP_INDEX_SURE = 0.9
GAP_CARD_LIKELY = 0.25
"""A crop where a pile's lost card's index should lie is taken for a card where it is read at
least GAP_INDEX_SURE as an index and its best card at least GAP_CARD_LIKELY: the detector missed
those indices for a reason, and the classifier often reads them right but unsurely (a lost
card's index on the test tables read right at 0.30-0.55); such a card is flagged."""

GAP_BOX_SIZES = 1.5
"""A gap's two neighbouring indices must be alike in size, within this ratio, for the lost
card's index to be placed halfway between them."""


def gap_places(read: PhotoRead) -> dict[int, list[tuple[Box, Suit]]]:
    """By the quarter turn of their pile's side, where the index of each card lost between two
    of a pile's cards should lie (`gap_box`), and the suit of the card before it."""
    places: dict[int, list[tuple[Box, Suit]]] = {}
    for n, pile in enumerate(read.piles):
        up = SIDES.index(read.side_of(n))
        for gap in read.gaps_of(n):
            if 0 < gap < len(pile) and (box := gap_box(pile[gap - 1], pile[gap], up)):
                places.setdefault(up, []).append((box, pile[gap - 1].card.suit))
    return places


WALK_STEPS = 3
"""At most this many cards lost beyond either end of a pile are looked for, one step further
each (a far pile may lose its first few)..."""
WALK_INDEX_SURE = 0.995
"""...each where its crop reads as an index at least this surely: no gap in the layout says a
card is missing there, and a table's cloth or a card's edge beside a pile read as an index at
0.94-0.99 (a cloth's red squares as a 9D), the lost cards measured at 0.999-1.0..."""
WALK_SCREEN = 0.5
"""...and where one crop, read once, shows it at least this likely an index before it is read
five ways (`classify`'s second looks): five reads cannot reach WALK_INDEX_SURE where one is
below this, and most such crops show the table (the bench's table about 12 ms a read
cheaper, its reads the same)."""
LAST_CARD_LIKELY = 0.9
"""...and after a pile's last card, where its best card is at least this likely: the crop lies
on the last card's face, whose pips read as other cards (a 7S's as a 7C at 0.57), and a card
lost on top of a pile shows its whole index (those lost measured at 0.998-1.0)."""


@dataclass(frozen=True)
class PileWalk:
    """Where the cards a pile lost beyond one of its ends would lie: its end card's top index
    moved on by the step between its two end cards' top indices, once for each card lost."""

    up: int  # the quarter turn of the pile's side
    end: Box
    step: tuple[float, float]
    suit_under: Suit | None
    """The suit of the card whose face the next crop lies on (the last card's, then each card
    found after it); None before the first card, where no card lies under the crop."""

    def box(self, steps: int) -> Box:
        dx, dy = self.step
        x1, y1, x2, y2 = self.end
        return (x1 + steps * dx, y1 + steps * dy, x2 + steps * dx, y2 + steps * dy)

    def takes(self, index: IndexRead) -> bool:
        """Whether a crop of this walk reads as a lost card (`read_as_lost_card`)."""
        after_the_last = self.suit_under is not None
        return read_as_lost_card(index, self.up, self.suit_under, WALK_INDEX_SURE) and (
            not after_the_last or index.guesses[0].probability >= LAST_CARD_LIKELY
        )

    def past(self, index: IndexRead) -> PileWalk:
        """The walk on from a card found at its last step."""
        if self.suit_under is None:
            return self
        return replace(self, suit_under=index.card.suit)


def pile_walks(read: PhotoRead) -> list[PileWalk]:
    """Walks before the first card and after the last of each pile of two cards or more, where
    its two end cards' top indices are alike in size and no card is missing between them."""
    walks = []
    for n, pile in enumerate(read.piles):
        if len(pile) < 2:
            continue
        up = SIDES.index(read.side_of(n))
        gaps = read.gaps_of(n)
        ends = (
            (pile[0], pile[1], 1 in gaps, None),
            (pile[-1], pile[-2], len(pile) - 1 in gaps, pile[-1].card.suit),
        )
        for end_card, next_card, lost_between, suit_under in ends:
            end, beside = _top_index(end_card, up), _top_index(next_card, up)
            if lost_between or end is None or beside is None or not _alike(end.box, beside.box):
                continue
            (ex, ey), (bx, by) = end.centre, beside.centre
            walks.append(PileWalk(up, end.box, (ex - bx, ey - by), suit_under))
    return walks


def inside_photo(box: Box, size: tuple[int, int]) -> bool:
    """Whether a box lies wholly in a photo of `size` (width, height)."""
    x1, y1, x2, y2 = box
    return x1 >= 0 and y1 >= 0 and x2 <= size[0] and y2 <= size[1]


def _overlaps_any(box: Box, boxes: np.ndarray) -> bool:
    """Whether `box` overlaps an index already read (a neighbouring pile's, or the pile's own
    first card where the step is short) by a third of the smaller box."""
    return bool(len(boxes)) and float(overlap_of_smaller(np.array(box), boxes).max()) > 1 / 3


def _alike(first: Box, second: Box) -> bool:
    """Whether two indices are alike in size (GAP_BOX_SIZES), as a pile's neighbours are."""
    sizes = [max(b[2] - b[0], b[3] - b[1]) for b in (first, second)]
    return max(sizes) <= GAP_BOX_SIZES * min(sizes)


def read_as_lost_card(
    index: IndexRead, up: int, suit_before: Suit | None, index_sure: float = GAP_INDEX_SURE
) -> bool:
    """Whether a crop where a lost card's index would lie reads as that card: an index (at
    least `index_sure`) of a card likely enough (GAP_CARD_LIKELY), standing its side's way, of
    another suit than the card before it (None: no card lies under the crop; in a gap, where no
    card was lost, a pile laid unevenly shows that card's face there, whose pips read as
    indices of its suit)."""
    return (
        index.index_probability >= index_sure
        and index.guesses[0].probability >= GAP_CARD_LIKELY
        and index.orientation == up
        and index.card.suit != suit_before
    )


def gap_box(before: ReadCard, after: ReadCard, up: int) -> Box | None:
    """Where the index of a card lost between two cards of a pile should lie: halfway between
    their top indices (those standing as their side's glyphs do), where those are alike in
    size; None where either shows none."""
    first, second = _top_index(before, up), _top_index(after, up)
    if first is None or second is None or not _alike(first.box, second.box):
        return None
    (ax1, ay1, ax2, ay2), (bx1, by1, bx2, by2) = first.box, second.box
    return (ax1 + bx1) / 2, (ay1 + by1) / 2, (ax2 + bx2) / 2, (ay2 + by2) / 2


def _top_index(card: ReadCard, up: int) -> IndexRead | None:
    """A card's index standing `up`'s way (its top corner, as its player sees it)."""
    return next((index for index in card.indices if index.orientation == up), None)


SIDE_MARGIN = 6.0
"""A table side is read again on the region round its indices, this many glyph sizes on each
side (a card reaches about that far beyond its index)..."""

SIDE_INDEX_PIXELS = 32.0
"""...seen with its glyphs about this tall (within the 12-40 pixels the detector learnt); the
near side's, upright, as tall as a second pass sees them (SECOND_PASS_INDEX_PIXELS): at 32 its
read cost 1.8 times as much and read no better (piles right on 250 test and calibration tables
0.790 against 0.787)."""


def index_pixels(turns: int) -> float:
    """How tall a search sees the glyphs of indices turned `turns` quarter turns: a turned
    side's SIDE_INDEX_PIXELS, upright ones SECOND_PASS_INDEX_PIXELS."""
    return SIDE_INDEX_PIXELS if turns % 4 else SECOND_PASS_INDEX_PIXELS


def printed_in_crops(photo: PhotoSource, indices: list[IndexRead]) -> Printed:
    """How the indices found show their ink (`printed`), seen in the copy of the photo their
    crops were cut from (decoded already): in the detector's copy of a 12 MP photo an index
    is a few pixels, too few to tell its ink from its paper."""
    if not indices:
        return Printed.UNSURE
    boxes = [index.box for index in indices]
    copy = photo.picture(crop_resolution(photo, boxes), finer_decoded=True)
    return printed(copy, _in_picture(indices, max(copy.shape[:2]) / photo.long_side))


def rows_judged(photo: PhotoSource, read: PhotoRead) -> PhotoRead:
    """The read with the piles whose cards lie in no row said so, marking no gap
    (`no_row.order_judged`), their cards' tilts measured on the copy of the photo their crops
    were cut from."""
    boxes = read_index_boxes(read)
    if not len(boxes):
        return read
    return order_judged(photo.picture(crop_resolution(photo, boxes), finer_decoded=True), read)


def crop_resolution(photo: PhotoSource, boxes: list[Box] | np.ndarray) -> int:
    """The long side of the copy of the photo to cut the boxes' crops from: their indices
    CROP_INDEX_PIXELS tall, at most the photo's own pixels."""
    corners = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    index_height = float(np.median(corners[:, 3] - corners[:, 1]))
    return round(photo.long_side * min(1.0, CROP_INDEX_PIXELS / max(index_height, 1.0)))


def crop_picture(
    photo: PhotoSource, boxes: list[Box], *, finer_decoded: bool = False
) -> tuple[np.ndarray, list[Box]]:
    """The copy of the photo to cut the boxes' crops from (`crop_resolution`; or a finer copy
    already decoded, if `finer_decoded`), and the boxes in its pixels."""
    picture = photo.picture(crop_resolution(photo, boxes), finer_decoded=finer_decoded)
    to_picture = max(picture.shape[:2]) / photo.long_side
    return picture, [
        (x1 * to_picture, y1 * to_picture, x2 * to_picture, y2 * to_picture)
        for x1, y1, x2, y2 in boxes
    ]


def turned_glyphs(read: ClassifiedIndex, turns: int) -> ClassifiedIndex:
    """A crop's classification seen turned `turns` quarter turns anticlockwise, with its glyph
    turns given as they stand in the crop unturned (a glyph upright in the turned crop stands
    `turns` quarter turns clockwise in the photo)."""
    guesses, index_probability, orientations = read
    if not turns % 4 or not orientations:
        return read
    count = len(orientations)
    in_photo = tuple(orientations[(k - turns) % count] for k in range(count))
    return guesses, index_probability, in_photo


NEGATIVE_BELOW = 6
"""A read that finds fewer cards than this, or whose indices don't surely show dark ink on light
paper, looks at the photo's negative as well, and takes it where it finds more cards that show
light ink on dark paper: a deck printed light on dark can read as almost nothing, or as a few
marks elsewhere in the photo (a whole table of such a deck read as 3 cards from the objects
around it)."""


def negative_looked_at(printing: Printed, indices: list[IndexRead]) -> bool:
    """Whether a photo whose own read found `indices`, showing their ink as `printing`, has its
    negative read too: where they don't surely show dark ink on light paper, or fewer than
    NEGATIVE_BELOW of them are read surely (`SURELY_FOUND_ABOVE`)."""
    return (
        printing is not Printed.DARK_ON_LIGHT
        or found_cards(indices, SURELY_FOUND_ABOVE) < NEGATIVE_BELOW
    )


def negative_taken(
    found: int, found_negative: int, light_ink: bool, negative_light_ink: bool
) -> bool:
    """Whether the read of a photo's negative replaces its own read (`found`, `found_negative`:
    the cards each found; `light_ink`, `negative_light_ink`: whether the indices each found show
    light ink on dark paper in the photo). The negative's indices must show light ink on dark
    paper (a close-up's pips and face art, negated, read as indices too); where the photo's own
    indices show light ink, that is enough if it finds at least NEGATIVE_OF_FOUND of the cards
    the photo's own read found (which counts light pips and face art as cards of the wrong ink:
    a silver deck's 22 cards, 24 indices in its negative, found 35); else it must find more."""
    return negative_light_ink and (
        found_negative > found or (light_ink and found_negative >= NEGATIVE_OF_FOUND * found)
    )


NEGATIVE_OF_FOUND = 0.5
"""A squeezed 640 px photo of a light-faced deck whose indices seemed light-inked found 31 cards
and its negative 1, which was taken (camera-fault kitty k00155, once its negative was seen in
grey): a deck's own polarity shows most of its cards."""


FOUND_CARD_ABOVE = 0.5  # an index counts as a card found where its best guess is this likely
SURELY_FOUND_ABOVE = 0.9
"""...and as surely found where this likely: a photo of a deck printed light on dark, read as it
is, can find several cards' worth of indices in its court cards' pictures (dark on light, so
its own indices seem to show dark ink), each read unsurely; fewer than NEGATIVE_BELOW sure ones
and its negative is looked at too."""


def found_cards(indices: list[IndexRead], above: float = FOUND_CARD_ABOVE) -> int:
    """How many indices were read as cards at least `above` likely."""
    return sum(1 for index in indices if _found(index, above))


def _found(index: IndexRead, above: float = FOUND_CARD_ABOVE) -> bool:
    return (
        index.index_probability >= NOT_AN_INDEX_ABOVE
        and bool(index.guesses)
        and index.guesses[0].probability >= above
    )


def _in_picture(indices: list[IndexRead], scale: float) -> list[Box]:
    """The indices' boxes scaled (into a copy of the photo)."""
    return [
        (x1 * scale, y1 * scale, x2 * scale, y2 * scale)
        for index in indices
        for x1, y1, x2, y2 in [index.box]
    ]


def _added(a: dict[str, float], b: dict[str, float]) -> dict[str, float]:
    return {name: a[name] + b[name] for name in a}


SMALL_INDEX_PIXELS = 24.0
"""Indices shorter than this in the first pass's picture (or none found) call for a second pass:
the detector learnt indices of about 12-40 pixels, and misses more of them below about 20 (on
kitty scenes, 10 here gave piles right 0.765, 24 gave 0.810; harder scenes 0.590 -> 0.680)."""

SECOND_PASS_INDEX_PIXELS = 24.0
"""The second pass sees the indices about this tall..."""

SECOND_PASS_MARGIN = 4.0
"""...round what the first pass found, this many index heights on each side (a card's reach
beyond its index)..."""

FEW_FOUND = 8
FEW_FOUND_MARGIN = 8.0
"""...or this many, where the first pass found fewer than FEW_FOUND indices: the rest of the rows
lies beyond the few it saw (4 lost a quarter of the example's cards when the piles filled a
quarter of a 12 MP frame, of which the first pass saw 3 indices; 8 lost none). Not always: a wider
region is seen coarser under SECOND_PASS_MAX_SIZE (on kitty scenes, 8 throughout lost piles).
Where so few were found, the region grows further, as far as SECOND_PASS_MAX_SIZE still shows
its indices SECOND_PASS_INDEX_PIXELS tall: one index seen of a row of fifteen says little of
where the row ends (the example at a fifth of a 12 MP frame lost its first three cards)."""

SECOND_PASS_MAX_SIZE = 1536
"""...in a picture at most this long: on the region round what the first pass found, or on the
whole photo when it found nothing."""

SECOND_PASS_CLOSER = 1.2
"""...and only where it sees them at least this many times larger than the first pass did,
or the first found fewer than FEW_FOUND: a pass over about the same pixels at about the same
scale (one player's 12 MP photo whose piles fill the frame, its indices some 20 px tall at the
first pass's size) finds what the first found, at a second run's cost: `bench_reader.py`'s
photo 122 -> 81 ms. Kitty piles right 0.985 -> 0.990, harder 0.960 -> 0.950 (a half-hidden
index lost), every other set as before (session 29)."""

SHRUNK_AT_LEAST = 2.0
"""...in a photo the first pass saw shrunk at least this many times: a small frame's second pass
sees its own pixels, finer than the first pass saw any (scattered cards in 640 px frames read
0.7906 without it, 0.7933 with)."""

DETECTOR_STRIDE = 32  # the detector's input sides are multiples of this

CROP_INDEX_PIXELS = 32.0
"""Crops are cut where an index is at least this tall (the classifier sees 64 px crops of 1.3
index heights, and learnt on crops from 640 px scenes, most of them smaller), so a large JPEG is
decoded at a reduced scale when its indices are large."""


def second_pass_plan(
    boxes: np.ndarray, seen_heights: np.ndarray, photo_size: tuple[int, int], first_size: int
) -> tuple[tuple[int, int, int, int], int] | None:
    """Where to look again and at what size (long side, pixels), or None: no second pass when
    the first found indices of a size the detector reads well, or where a large photo's second
    pass would see them barely larger (SECOND_PASS_CLOSER)."""
    width, height = photo_size
    long_side = max(width, height)
    if len(boxes) and float(np.median(seen_heights)) >= SMALL_INDEX_PIXELS:
        return None
    if long_side <= first_size:
        return None  # the first pass already saw every pixel
    if not len(boxes):
        return (0, 0, width, height), min(SECOND_PASS_MAX_SIZE, long_side)
    index_height = float(np.median(boxes[:, 3] - boxes[:, 1]))
    if len(boxes) < FEW_FOUND:
        widest = SECOND_PASS_MAX_SIZE * index_height / SECOND_PASS_INDEX_PIXELS
        spread = max(np.ptp(boxes[:, [0, 2]]), np.ptp(boxes[:, [1, 3]]))
        margin = max(FEW_FOUND_MARGIN * index_height, (widest - spread) / 2)
    else:
        margin = SECOND_PASS_MARGIN * index_height
    region = _around(boxes, margin, photo_size)
    size = _seen_size(region, index_height, SECOND_PASS_INDEX_PIXELS, first_size)
    closer = size / max(region[2] - region[0], region[3] - region[1]) / (first_size / long_side)
    shrunk = long_side >= SHRUNK_AT_LEAST * first_size
    if len(boxes) >= FEW_FOUND and shrunk and closer < SECOND_PASS_CLOSER:
        return None
    return region, size


def _around(boxes: np.ndarray, margin: float, photo_size: tuple[int, int]) -> Region:
    """The region round the boxes, `margin` pixels on each side, within the photo."""
    width, height = photo_size
    return (
        max(0, int(boxes[:, 0].min() - margin)),
        max(0, int(boxes[:, 1].min() - margin)),
        min(width, int(boxes[:, 2].max() + margin + 1)),
        min(height, int(boxes[:, 3].max() + margin + 1)),
    )


def _seen_size(
    region: Region,
    index_height: float,
    index_pixels: float,
    first_size: int,
    enlarge_up_to: float = 1.0,
) -> int:
    """The long side to search a region at so its indices stand `index_pixels` tall: at least
    the first pass's, at most SECOND_PASS_MAX_SIZE and the region enlarged `enlarge_up_to` times,
    a multiple of the detector's stride."""
    region_long = max(region[2] - region[0], region[3] - region[1])
    size = region_long * index_pixels / max(index_height, 1.0)
    size = min(SECOND_PASS_MAX_SIZE, region_long * enlarge_up_to, max(first_size, size))
    return int(size) // DETECTOR_STRIDE * DETECTOR_STRIDE or DETECTOR_STRIDE


HINT_CONFIDENCE = 0.05
"""The first pass also keeps detections this unsure as hints of where indices too small for it
lie: a whole table's far piles show in it only as such hints..."""

HINT_GROUP_LINK = 6.0
"""...grouped where they lie within this many box heights of each other (a pile's indices lie a
step or two apart), a pair's height the geometric mean of theirs: by the larger box, a near
pile's large indices reached a far pile's small hints, and both were searched as one place at
the near indices' resolution (a far pile of six cards not found at all); by the smaller box,
camera-fault photos of one player's piles went astray (silent errors 0.67 -> 1.16 per 100)..."""

MIN_HINTS = 3
"""...and a group of at least this many hints, or holding a sure detection, is a place where
piles may lie. Where the hints make several such places, each is searched again at the
resolution its own indices need (a table's near piles stand larger than its far ones) and turned
as its glyphs stand (`CardReader._find`), instead of one region round all that the first pass
found."""


def hint_groups(hints: np.ndarray, sure: np.ndarray) -> list[np.ndarray]:
    """The hint boxes in groups (HINT_GROUP_LINK), those of MIN_HINTS or holding a sure box
    (`hints` rows are boxes, or boxes each followed by its confidence; `sure`, boxes)."""
    if not len(hints):
        return []
    centres = (hints[:, :2] + hints[:, 2:4]) / 2
    heights = np.maximum(hints[:, 3] - hints[:, 1], hints[:, 2] - hints[:, 0])
    apart = np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
    linked = apart <= HINT_GROUP_LINK * np.sqrt(heights[:, None] * heights[None, :])
    count, labels = connected_labels(linked)
    groups = [hints[labels == label] for label in range(count)]
    return [
        group
        for group in groups
        if len(group) >= MIN_HINTS
        or (len(sure) and any((sure == box).all(axis=1).any() for box in group))
    ]


UNREAD_HINTS = 6
"""A group of at least this many hints with no card read in or near it (`unread_places`) is a
place where a whole pile may be missing..."""
UNREAD_BELOW_PIXELS = 20.0
"""...where its hints stand less than this tall in the photo's own pixels: indices too small
to read (a far player's pile in a 640 px or webcam photo). In a larger photo every hinted
place is searched at full resolution, and a group read as nothing there is no index (a card
back's pattern, a court card's picture: models/HISTORY.md, "Session 42")."""
UNREAD_CONFIDENCE = 0.15
"""...and where the detector's three likeliest hints of the group average at least this: the
patterns of a carpet, bricks or a newspaper in a small photo group as hints too, each barely
likelier than HINT_CONFIDENCE (their three likeliest 0.08-0.14 in edje's 378 x 504 photos;
a far pile's 0.15-0.27 in the table sets' small photos: models/HISTORY.md, "Session 42")."""
UNREAD_OF_READ = 0.5
"""...and where they stand at least this share as tall as the indices read in the photo (their
median): a far pile's stand 0.5-1.1 as tall as the near piles' read in the table sets' small
photos, but printed text, a cat's fur or a book beside one player's large cards in a small,
compressed or dim photo hint at indices 0.2-0.5 as tall as theirs (edje's photos with camera
faults: models/HISTORY.md, "Session 42")."""
UNREAD_MARGIN = 2.0  # glyph heights round a group's hints within which a read card is its own
UNREAD_LIKELIEST = 3  # the hints whose mean confidence tells a group of indices


def unread_places(hinted: np.ndarray, read: PhotoRead) -> tuple[Box, ...]:
    """Places (photo pixels) where the first look's hints (`hinted`: boxes, each followed by
    its confidence) group (`hint_groups`) as indices too small to read and no card of `read`
    lies: whole piles may be missing there."""
    read_heights = [
        max(x2 - x1, y2 - y1)
        for pile in read.piles
        for card in pile
        for x1, y1, x2, y2 in (index.box for index in card.indices)
    ]
    smallest = UNREAD_OF_READ * float(np.median(read_heights)) if read_heights else 0.0
    places: list[Box] = []
    for group in hint_groups(hinted, np.zeros((0, 4))):
        heights = np.maximum(group[:, 3] - group[:, 1], group[:, 2] - group[:, 0])
        height = float(np.median(heights))
        likeliest = float(np.sort(group[:, 4])[-UNREAD_LIKELIEST:].mean())
        if (
            len(group) < UNREAD_HINTS
            or not smallest <= height < UNREAD_BELOW_PIXELS
            or likeliest < UNREAD_CONFIDENCE
        ):
            continue
        x1, y1, x2, y2 = _span(group[:, :4])
        margin = UNREAD_MARGIN * height
        places.append(
            (
                max(0.0, x1 - margin),
                max(0.0, y1 - margin),
                min(float(read.width), x2 + margin),
                min(float(read.height), y2 + margin),
            )
        )
    return _without_cards(places, read)


def still_unread(read: PhotoRead) -> tuple[Box, ...]:
    """`read`'s unread places in which no card of it lies (a read kept from another look may
    have read a place this one did not)."""
    return _without_cards(read.unread_places, read)


def _without_cards(places: Sequence[Box], read: PhotoRead) -> tuple[Box, ...]:
    """The places in which no card of `read` lies."""
    centres = [_centre(np.asarray(card.box)) for pile in read.piles for card in pile]
    return tuple(place for place in places if not any(_inside(centre, place) for centre in centres))


def region_plan(
    boxes: np.ndarray,
    photo_size: tuple[int, int],
    first_size: int,
    index_pixels: float = SECOND_PASS_INDEX_PIXELS,
    measured: np.ndarray | None = None,
    enlarge_up_to: float = 1.0,
    margin_heights: float = SECOND_PASS_MARGIN,
) -> tuple[Region, int]:
    """The region round a place's boxes (`margin_heights` index heights on each side) and the
    size that shows its indices `index_pixels` tall (`_seen_size`), their height measured on
    the `measured` boxes where given (sure detections: a hint's box is looser)."""
    sized = boxes if measured is None or not len(measured) else measured
    # the glyphs' height, whichever way they are turned
    index_height = float(
        np.median(np.maximum(sized[:, 3] - sized[:, 1], sized[:, 2] - sized[:, 0]))
    )
    region = _around(boxes, margin_heights * index_height, photo_size)
    return region, _seen_size(region, index_height, index_pixels, first_size, enlarge_up_to)


def not_overlapped(first: np.ndarray, second: np.ndarray, overlap: float = 0.3) -> list[int]:
    """The positions of the `first` boxes that no `second` box overlaps by more than `overlap`
    (intersection over the smaller box)."""
    return [
        n
        for n, box in enumerate(first)
        if not len(second) or float(overlap_of_smaller(box, second).max()) <= overlap
    ]


def _near_any(box: np.ndarray, others: np.ndarray) -> bool:
    """Whether another box's centre lies within a glyph's size of the box's centre."""
    if not len(others):
        return False
    size = max(box[2] - box[0], box[3] - box[1])
    return bool((_centre_distances(box, others) <= size).any())


def _nearest_distance(box: Box, others: np.ndarray) -> float:
    """How far the box's centre lies from the nearest of the other boxes' centres."""
    return float(_centre_distances(np.asarray(box), others).min())


def _centre_distances(box: np.ndarray, others: np.ndarray) -> np.ndarray:
    """How far the box's centre lies from each of the other boxes' centres."""
    x, y = _centre(box)
    centres = (others[:, :2] + others[:, 2:]) / 2
    return np.hypot(centres[:, 0] - x, centres[:, 1] - y)


def _centre(box: np.ndarray) -> tuple[float, float]:
    return (float(box[0] + box[2]) / 2, float(box[1] + box[3]) / 2)


def _inside(point: tuple[float, float], region: Region | Box) -> bool:
    x, y = point
    return region[0] <= x <= region[2] and region[1] <= y <= region[3]


def _inside_any(point: tuple[float, float], regions: Sequence[Region | Box]) -> bool:
    return any(_inside(point, region) for region in regions)


Region = tuple[int, int, int, int]

PLACE_ENLARGED_UP_TO = 2.0
"""A place's indices too small even in the photo's own pixels (a whole table in a 2 MP photo)
are searched in its region enlarged up to this many times."""

PLACE_CONFIDENCE = 0.1
"""A place's search keeps detections down to this confidence: the calibration gives an unsure
one a low probability, so that it shows as a doubtful card or, below the drop threshold, as a
gap marker where it lies (a whole table's small cards are found less surely)."""

FEW_TO_TURN_BY = 3
HINTS_TO_TURN_BY = 12
"""A place where the first pass was sure of fewer than FEW_TO_TURN_BY indices is turned as its
HINTS_TO_TURN_BY likeliest hints, read by the classifier, stand."""


def parts_to_read_again(own: dict[int, list[IndexRead]]) -> list[tuple[int, list[IndexRead]]]:
    """The parts of a whole table to search again, each as its side's quarter turn and the
    indices it is framed round (`side_view`), from each side's indices (`own`, by quarter turn):
    the near side and every side whose search saw fewer than half its indices turned as it
    stands, whole; of another, its top corners (glyphs standing as the side's player reads them)
    that its search did not see so turned, where there are FEW_TO_TURN_BY of them: a pile of
    that side's that the first look joined to another place (a far pile in the middle of the
    table, searched with a side's piles, lost two of its cards: fresh tables 3636 t00119). Not
    round the side's bottom corners, which stand the other way: searched turned, they read as
    a pile of the side across (t00036)."""
    parts = []
    for up in sorted(own):
        indices = own[up]
        if up == 0 or 2 * sum(index.seen_turned == up for index in indices) < len(indices):
            parts.append((up, indices))
            continue
        missed = [index for index in indices if index.seen_turned != up and index.orientation == up]
        if len(missed) >= FEW_TO_TURN_BY:
            parts.append((up, missed))
    return parts


def side_view(photo: PhotoSource, own: list[IndexRead], up: int) -> DetectorView:
    """A table side's part of the photo (round its indices, `own`) as the detector searches it
    again: turned `up` quarter turns so that its glyphs stand upright, its indices enlarged to
    the size the models read best (`index_pixels`)."""
    boxes = np.array([index.box for index in own])
    region, size = region_plan(
        boxes, photo.size, DETECTOR_STRIDE, index_pixels(up), margin_heights=SIDE_MARGIN
    )
    return detector_view(photo, region, size, up, finer_decoded=True)


@dataclass(frozen=True)
class BoxMapping:
    """How boxes found in a picture the detector saw map back to the photo: the picture was a
    region (top left at `origin`, photo pixels) scaled by `scale` (its pixels a photo pixel),
    then turned `turns` quarter turns anticlockwise from `unturned_size` (width, height)."""

    turns: int
    unturned_size: tuple[int, int]
    scale: float
    origin: tuple[int, int]

    def in_photo(self, boxes: np.ndarray) -> np.ndarray:
        """Boxes found in the picture as photo-pixel boxes."""
        boxes = boxes.reshape(-1, 4)
        if self.turns % 4:
            back = [turn_box(tuple(box), self.unturned_size, self.turns) for box in boxes]
            boxes = np.array(back, dtype=np.float64).reshape(-1, 4)
        x, y = self.origin
        return boxes / self.scale + (x, y, x, y)


@dataclass(frozen=True)
class DetectorView:
    """A region cut from a copy of the photo (`part`; `to_picture`: that copy's pixels a photo
    pixel; `origin`: the region's top left in photo pixels), for the detector to see at `size`
    pixels along its long side, turned `turns` quarter turns anticlockwise. Cutting it may
    decode a copy of the photo; sizing and turning it (`seen`) touch no photo, so they run on
    the workers beside the detector (`parallel_map`)."""

    part: np.ndarray
    size: int
    turns: int
    to_picture: float
    origin: tuple[int, int]
    searches: dict[Hashable, SearchDone] | None = field(default=None, repr=False, compare=False)
    """The photo's searches done (under `search_key`); None: keep none."""

    def search_key(self, fix: PixelFix, confidence: float, detector: IndexDetector) -> Hashable:
        """What makes the detector's search of this view the same as another's: the very
        pixels of the same decoded copy (`part` by its memory, kept alive by the `SearchDone`
        kept under it, as the detector is), and how they are seen and searched."""
        pixels = (self.part.__array_interface__["data"][0], self.part.shape, self.part.strides)
        seen = (self.size, self.turns, self.to_picture, self.origin)
        return (pixels, seen, fix, confidence, id(detector))

    def seen(self) -> tuple[np.ndarray, BoxMapping]:
        """The picture the detector sees (shrunk to `size`, or enlarged, and turned), and how
        what it finds there maps back to the photo."""
        part, size = self.part, self.size
        small, factor = (
            downscale(part, size) if size <= max(part.shape[:2]) else enlarge(part, size)
        )
        seen = np.ascontiguousarray(np.rot90(small, self.turns)) if self.turns % 4 else small
        unturned_size = (small.shape[1], small.shape[0])
        return seen, BoxMapping(self.turns, unturned_size, factor * self.to_picture, self.origin)


def detector_view(
    photo: PhotoSource, region: Region, size: int, turns: int = 0, finer_decoded: bool = False
) -> DetectorView:
    """`region` (photo pixels) cut from the copy of the photo its `size` needs (a finer one
    already decoded, if `finer_decoded`), to be sized and turned for the detector."""
    x1, y1, x2, y2 = region
    needed = round(size * photo.long_side / max(x2 - x1, y2 - y1))
    picture = photo.picture(needed, finer_decoded=finer_decoded)
    to_picture = max(picture.shape[:2]) / photo.long_side
    part = picture[
        round(y1 * to_picture) : round(y2 * to_picture),
        round(x1 * to_picture) : round(x2 * to_picture),
    ]
    return DetectorView(part, size, turns, to_picture, (x1, y1), photo.searches)


@dataclass(frozen=True)
class SearchDone:
    """A detector's search of a photo's view, kept with the photo (`DetectorView.search_key`):
    a whole table's reader searches the same views as the first look that found the table
    (`_read_as_table`), and finds them done. `part` and `detector` are kept so that no other
    picture or detector takes their place in memory while the photo lives."""

    part: np.ndarray
    detector: IndexDetector
    found: np.ndarray
    confidences: np.ndarray


@dataclass(frozen=True)
class PassPlan:
    """Where the second pass looks (photo pixels), at what size (long side, pixels), turned by
    how many quarter turns anticlockwise, and the spans of other places, whose indices it
    leaves to their own pass (and its own place's span, where it searches a place)."""

    region: Region
    size: int
    turns: int = 0
    others: tuple[Region, ...] = ()
    confidence: float | None = None  # the detector's threshold there (None: the settings')
    of_a_table: bool = False  # searched with the table detector (a whole table's place)
    span: Region | None = None

    def elsewhere(self, box: np.ndarray) -> bool:
        """Whether a box found in this pass lies in another place's span: where it lies in
        this place's span too, in a smaller one. Spans may hold one another (a far place
        reaching round a side's pile): each box is left to the place that holds it most
        closely, never to none (a side's pile inside the far place's span, left by each pass
        to the other, lost seven cards: fresh tables 3636 t00038)."""
        centre = _centre(box)
        own = self.span if self.span is not None and _inside(centre, self.span) else None
        return any(
            _inside(centre, span) and (own is None or _area(span) < _area(own))
            for span in self.others
        )


def _area(region: Region) -> int:
    return (region[2] - region[0]) * (region[3] - region[1])


def _span(boxes: np.ndarray) -> Region:
    return (
        int(boxes[:, 0].min()),
        int(boxes[:, 1].min()),
        int(boxes[:, 2].max()) + 1,
        int(boxes[:, 3].max()) + 1,
    )


def _turn_at(box: np.ndarray, plans: list[PassPlan]) -> int:
    """The quarter turn of the first plan whose region holds the box's centre (0: none)."""
    return next((plan.turns for plan in plans if _inside(_centre(box), plan.region)), 0)


def overlap_of_smaller(box: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Intersection of `box` with each of `others`, over the smaller of the two areas."""
    left = np.maximum(box[0], others[:, 0])
    top = np.maximum(box[1], others[:, 1])
    right = np.minimum(box[2], others[:, 2])
    bottom = np.minimum(box[3], others[:, 3])
    inter = np.clip(right - left, 0, None) * np.clip(bottom - top, 0, None)
    area = (box[2] - box[0]) * (box[3] - box[1])
    areas = (others[:, 2] - others[:, 0]) * (others[:, 3] - others[:, 1])
    return inter / np.maximum(np.minimum(area, areas), 1e-9)


def turn_box(box: Box, size: tuple[int, int], quarter_turns: int) -> Box:
    """A box seen in the photo turned `quarter_turns` anticlockwise (as np.rot90 turns it), in
    the photo as it is, of `size` (width, height)."""
    x1, y1, x2, y2 = box
    width, height = size
    for step in range(quarter_turns % 4, 0, -1):
        # undo one anticlockwise turn: (x, y) -> (w - y, x), w the width before that turn
        before_width = width if (step - 1) % 2 == 0 else height
        x1, y1, x2, y2 = before_width - y2, x1, before_width - y1, x2
    return (x1, y1, x2, y2)


def turned_back(read: PhotoRead, size: tuple[int, int], quarter_turns: int) -> PhotoRead:
    """A read of the photo turned `quarter_turns` anticlockwise, with its boxes in the photo
    as it is, of `size` (width, height)."""

    def back(box: Box) -> Box:
        return turn_box(box, size, quarter_turns)

    sides = tuple(SIDES[(SIDES.index(side) + quarter_turns) % 4] for side in read.sides)
    return replace(read.with_boxes(back, *size), sides=sides)


def _as_lists(boxes: np.ndarray, confidences: np.ndarray) -> tuple[list[Box], list[float]]:
    return (
        [tuple(float(v) for v in row) for row in boxes],  # type: ignore[misc]
        [float(c) for c in confidences],
    )


ClassifiedIndex = tuple[tuple[Guess, ...], float, tuple[float, ...]]
"""A crop's top card guesses (given it is an index), the probability that it is an index, and
the probability of each quarter turn of its glyph (empty when the classifier doesn't tell)."""


ClassTables = tuple[np.ndarray, np.ndarray]
"""For each classifier class, its card's position in ALL_CARDS and its quarter turn (-1: none)."""


def summarise(probabilities: np.ndarray, tables: ClassTables, top: int) -> ClassifiedIndex:
    """The classifier's answer over (card, orientation) classes and "no index", as the card
    guesses, the index probability and the orientation probabilities."""
    cards_of, turns_of = tables
    is_card = cards_of >= 0
    cards = np.bincount(cards_of[is_card], probabilities[is_card], minlength=len(ALL_CARDS))
    index_probability = min(1.0, float(cards.sum()))
    scale = 1.0 / max(index_probability, 1e-9)
    best = np.argsort(-cards)[:top]
    guesses = tuple(Guess(ALL_CARDS[i], min(1.0, float(cards[i]) * scale)) for i in best)
    knows = turns_of >= 0
    if not knows.any():
        return guesses, index_probability, ()
    turns = np.bincount(turns_of[knows], probabilities[knows], minlength=QUARTER_TURNS) * scale
    return guesses, index_probability, tuple(float(v) for v in turns)


SHAPE_ODDS_POWER = 2.0
"""The black copy is trusted over the red one by the odds of its best card being right and the
other copy's wrong, against the reverse, raised to this power: a copy clearly surer wins
outright, only copies about as sure leave the read in doubt (on 294 cards of dark-faced kitty
scenes, white ink: 1 -> 31 right cards flagged, 2 -> 23, 3 -> 22; 2 wrong unflagged for each)."""


def read_by_shape(
    classifier: CropClassifier,
    suit_classifier: CropClassifier,
    crops: list[np.ndarray],
    tables: ClassTables,
) -> np.ndarray:
    """The class probabilities of crops whose colours say nothing of their suits, read with the
    suit-shape classifier (`suits_from_shape`): the card classifier reads each crop's
    `ink_shape` printed black and printed red, the suit-shape classifier reads its suit."""
    shapes = [ink_shape(crop) for crop in crops]
    return suits_from_shape(
        classifier.probabilities(shapes),
        classifier.probabilities([ink_tinted(shape, RED_INK) for shape in shapes]),
        suit_classifier.probabilities(shapes),
        tables,
        suit_classifier.names,
    )


def read_by_tint(
    classifier: CropClassifier, crops: list[np.ndarray], tables: ClassTables
) -> np.ndarray:
    """The class probabilities of crops whose colours say nothing of their suits, read without
    a suit-shape classifier (`suits_by_tint`): each crop printed black and printed red."""
    return suits_by_tint(
        classifier.probabilities([ink_tinted(crop, BLACK_INK) for crop in crops]),
        classifier.probabilities([ink_tinted(crop, RED_INK) for crop in crops]),
        tables,
    )


def suits_from_shape(
    in_black: np.ndarray,
    in_red: np.ndarray,
    suits: np.ndarray,
    tables: ClassTables,
    suit_names: Sequence[str],
) -> np.ndarray:
    """Each crop's class probabilities where its colour says nothing of its suit: the card
    classifier's read of the crop printed in each suit's ink (`in_black`, `in_red`), each suit's
    cards from the copy in its colour, weighed by how surely the suit-shape classifier read that
    suit (`suits`, a row a crop, columns `suit_names`: suit letters). Both must agree: the card
    classifier reads a heart printed black as a club or a spade (and a 9 of hearts as an
    upside-down 6 of spades), and the suit-shape classifier alone takes some courts' clubs for
    spades. "Not an index" is each copy's, weighed by how red the suit-shape classifier found
    the suit."""
    cards_of, _ = tables
    is_card = cards_of >= 0
    suit_column = {name: n for n, name in enumerate(suit_names)}
    suit_of = np.array([suit_column[ALL_CARDS[c].suit.value] if c >= 0 else 0 for c in cards_of])
    red_class = np.array([c >= 0 and ALL_CARDS[c].is_red for c in cards_of])
    red_share = suits[:, [suit_column[Suit.HEARTS.value], suit_column[Suit.DIAMONDS.value]]]
    red_share = red_share.sum(axis=1, keepdims=True)
    not_an_index = red_share * in_red + (1.0 - red_share) * in_black
    in_its_ink = np.where(red_class[None, :], in_red, in_black)
    out = np.where(is_card[None, :], in_its_ink * suits[:, suit_of], not_an_index)
    return out / np.maximum(out.sum(axis=1, keepdims=True), 1e-12)


def suits_by_tint(in_black: np.ndarray, in_red: np.ndarray, tables: ClassTables) -> np.ndarray:
    """Each crop's class probabilities where its colour says nothing of its suit, from the
    classifier's reads of it printed in black ink (`in_black`) and in red (`in_red`). The
    classifier learnt black spades and red hearts: it reads a black card's copy in black and a
    red card's copy in red right, but a heart printed black as a club, and a spade printed red
    as a diamond. So each copy is trusted as far as its best card of its own ink's colour is
    surer than the other copy's (SHAPE_ODDS_POWER): where both are about as sure, the read is
    unsure and flagged."""
    cards_of, _ = tables
    red = np.array([card >= 0 and ALL_CARDS[card].is_red for card in cards_of])
    black = (cards_of >= 0) & ~red
    best_black = np.where(black[None, :], in_black, 0.0).max(axis=1)
    best_red = np.where(red[None, :], in_red, 0.0).max(axis=1)
    black_odds = (best_black * (1.0 - best_red)) ** SHAPE_ODDS_POWER
    red_odds = (best_red * (1.0 - best_black)) ** SHAPE_ODDS_POWER
    either = black_odds + red_odds
    red_share = np.where(
        either > 0, red_odds / np.maximum(either, 1e-12), (best_red > best_black).astype(float)
    )[:, None]
    return red_share * in_red + (1.0 - red_share) * in_black


def class_tables(classes: list[IndexClass]) -> ClassTables:
    """The classes as lookup arrays, made once when the classifier is loaded."""
    position = {card: n for n, card in enumerate(ALL_CARDS)}
    cards_of = np.array([position[c.card] if c.card else -1 for c in classes], dtype=np.int64)
    turns_of = np.array(
        [c.orientation if c.orientation is not None else -1 for c in classes], dtype=np.int64
    )
    return cards_of, turns_of


def stretched_copy(picture: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The picture resized to `size` (width, height), stretched along one axis by OpenCV's
    bicubic (a 12 MP photo in 11 ms, Pillow's 190 ms; for the smaller parts and crops Pillow's
    bicubic read better, see `enlarge`). Pillow's bilinear blurred the stretched indices: piles
    right on the test / calibration tables 0.872 / 0.891 -> 0.889 / 0.894, camera-fault scenes
    0.956 -> 0.961."""
    return cv2.resize(picture, size, interpolation=cv2.INTER_CUBIC)


def enlarge(image: np.ndarray, long_side: int) -> tuple[np.ndarray, float]:
    """The image grown so its longer side is `long_side`, and the factor used: bicubically,
    closer than bilinear to the sharp small indices the detector learnt on (a whole table's
    silent errors per 100 cards 2.02 / 1.80 -> 1.57 / 1.20 on the test / calibration tables,
    recall 0.961 / 0.965 -> 0.962 / 0.968; piles right 0.879 / 0.890 -> 0.872 / 0.886)."""
    height, width = image.shape[:2]
    factor = long_side / max(height, width, 1)
    size = (max(1, round(width * factor)), max(1, round(height * factor)))
    return np.asarray(Image.fromarray(image).resize(size, Image.Resampling.BICUBIC)), factor


def downscale(image: np.ndarray, long_side: int) -> tuple[np.ndarray, float]:
    """The image shrunk so its longer side is at most `long_side`, and the factor used, with
    every pixel counted (no aliasing): by Pillow's bilinear filter, which widens with the
    reduction, or beyond PILLOW_SHRINKS_UP_TO pixels by OpenCV's area mean."""
    height, width = image.shape[:2]
    factor = min(1.0, long_side / max(height, width))
    if factor == 1.0:
        return image, 1.0
    size = (max(1, round(width * factor)), max(1, round(height * factor)))
    if height * width > PILLOW_SHRINKS_UP_TO:
        return cv2.resize(image, size, interpolation=cv2.INTER_AREA), factor
    resized = Image.fromarray(image).resize(size, Image.Resampling.BILINEAR, reducing_gap=3.0)
    return np.asarray(resized), factor


PILLOW_SHRINKS_UP_TO = 2_000_000
"""The models were measured on pictures Pillow shrank; a whole table's parts are cut from the
full 12 MP photo, where Pillow's filter costs too much (a 2900x2700 part to 960 px: 75 ms,
OpenCV's area mean 17 ms here). One player's photos, decoded at a reduced scale, read a little
better with Pillow's (harder scenes 0.940 against 0.930, small 0.955 against 0.940), and so did
tables when OpenCV shrank every part cut from the full photo (piles right on 250 test and
calibration tables 0.782 against 0.789)."""


def square_crop(image: np.ndarray, box: Box, padding: float) -> np.ndarray:
    """A square crop centred on the box, its side the box's longer side plus padding; parts
    outside the photo are filled with the nearest edge pixels."""
    x1, y1, x2, y2 = box
    side = max(x2 - x1, y2 - y1) * (1 + 2 * padding)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    left, top = round(cx - side / 2), round(cy - side / 2)
    size = max(2, round(side))
    height, width = image.shape[:2]
    pad_left, pad_top = max(0, -left), max(0, -top)
    pad_right, pad_bottom = max(0, left + size - width), max(0, top + size - height)
    inside = image[max(0, top) : min(height, top + size), max(0, left) : min(width, left + size)]
    if pad_left or pad_top or pad_right or pad_bottom:
        inside = np.pad(inside, ((pad_top, pad_bottom), (pad_left, pad_right), (0, 0)), "edge")
    return inside
