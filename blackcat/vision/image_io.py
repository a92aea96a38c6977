"""Load a photo from a path or bytes: EXIF orientation applied, RGB, size checked."""

from __future__ import annotations

import contextlib
import functools
import io
import re
import threading
import time
import warnings
from collections.abc import Hashable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError, features

from blackcat.i18n import N_, TemplateError

if TYPE_CHECKING:
    from blackcat.vision.reader import SearchDone

MAX_PIXELS = 80_000_000
"""Larger photos are refused, but for JPEGs: decoded whole, one would take gigabytes."""

MAX_JPEG_PIXELS = 250_000_000
"""Larger JPEGs are refused. Phones' high-resolution modes take 108 and 200 MP JPEGs, which the
reader mostly decodes at a half, a quarter or an eighth of their size (`Photo.picture`): a
200 MP photo of two piles read in 0.6 s and 160 MB (session 77); one whose cards are small in
it is decoded whole for their crops (600 MB)."""

# Pillow warns from 89 MP and refuses from 179 MP while opening a file, before our own checks
# (`_check_size`) could say what is wrong and what to do. Its limit is the whole process's:
# everything else here opens photos the reader accepted, or pictures of our own.
Image.MAX_IMAGE_PIXELS = MAX_JPEG_PIXELS
# Pillow's warnings of such a photo (refused by `_check_size` in words of ours) and of a file's
# quirks (a phone's damaged EXIF; the photo reads as it is) are no news to a player: they were
# printed above a command's own message, and in the app's log
warnings.filterwarnings("ignore", category=Image.DecompressionBombWarning)
warnings.filterwarnings("ignore", category=UserWarning, module=r"PIL\.")

MIN_SIDE = 100
"""Smaller photos are refused: a card's corner index in them would be a few pixels."""

MAX_FILE_BYTES = 100 * 1024 * 1024
ACCEPTED = N_("JPEG, PNG, WebP or HEIC")  # the phones' formats we read, translated where shown


@functools.cache
def computer_formats() -> tuple[str, ...]:
    """The pictures a computer holds that we read as well as ACCEPTED's photos: AVIF too where
    this install's Pillow reads it."""
    return ("GIF", "BMP", "TIFF", *(("AVIF",) if features.check("avif") else ()))


HOW_TO_PHOTOGRAPH = N_(
    "Lay each pile out in a row with every card's corner showing, photograph from straight "
    "above in good light"
)
"""How a photo of Black Cat's piles reads best: said where one shows no card."""

# what is wrong with a photo and what to do, each filled with the photo's `name` (and the
# figures it names) and translated where it is shown (`ImageReadError.describe`)
NO_SUCH_FILE = N_("{name}: no such file; check the photo's name and folder")
NOT_ALLOWED = N_(
    "{name} can't be opened: permission denied; check the file's permissions or copy it where "
    "you can read it"
)
NOT_READ = N_("{name} could not be read ({reason}): copy it to this computer and try again")
NOT_A_FILE = N_(
    "{name} is not a photo file (a device or a pipe): name a JPEG, PNG, WebP or HEIC photo"
)
NO_NAME = N_("an empty name is no photo: name a photo file, such as {example}")
A_FOLDER = N_("{name} is a folder: name the photos in it, such as {example}")
EMPTY = N_("{name} is empty: use a JPEG, PNG, WebP or HEIC photo")
NOT_AN_IMAGE = N_("{name} is not an image we can read: use a JPEG, PNG, WebP or HEIC photo")
DAMAGED = N_(
    "{name} could not be decoded: it may be cut short or damaged; take the photo again or use "
    "another JPEG, PNG, WebP or HEIC file"
)
PART_MISSING = N_(
    "{name} is damaged: part of the photo is missing (grey), so cards there can't be read; "
    "take the photo again or copy the file again"
)
GARBLED = N_(
    "{name} is damaged: part of the photo's data is garbled, so cards there would be misread; "
    "take the photo again or copy the file again"
)
TOO_MANY_BYTES = N_(
    "{name} is {megabytes} MB, more than the {most} MB we read: use a smaller photo"
)
TOO_MANY_PIXELS = N_(
    "{name} is {width}×{height} ({megapixels} MP), larger than the {most} MP we read: take or "
    "export it at a lower resolution"
)
TOO_MANY_PIXELS_UNSIZED = N_(
    "{name} is larger than the {most} MP we read: take or export it at a lower resolution"
)
TOO_FEW_PIXELS = N_(
    "{name} is only {width}×{height} pixels, too small to read: use the photo as the camera "
    "took it (at least {least} pixels a side)"
)


class ImageReadError(TemplateError, ValueError):
    """A photo that can't be used: what went wrong and what to do (one of the messages above), in
    English as the exception's text and in any language by `describe`."""


def _register_heif_for(data: bytes) -> None:
    """Let Pillow open `data` if it is a HEIC (HEIF) photo: an ISO media file, whose first box is
    `ftyp`. Other photos don't pay for importing pi-heif (~20 ms at each start)."""
    if data[4:8] != b"ftyp":
        return
    try:
        from pi_heif import register_heif_opener
    except ImportError:  # pragma: no cover - pi-heif is a dependency
        return
    register_heif_opener()


def load_image(source: str | Path | bytes, *, name: str | None = None) -> np.ndarray:
    """The photo as an upright RGB array (height, width, 3) of uint8, at full resolution."""
    return open_photo(source, name=name).picture()


class Photo:
    """A photo checked and ready to decode, at full resolution or, for a JPEG far larger than
    what is asked of it, at a reduced scale (libjpeg scales by 1/2, 1/4 or 1/8 while decoding,
    which is several times faster than decoding it whole). Each scale is decoded once, also
    where reads of the photo run side by side (`CardReader.read`)."""

    def __init__(
        self,
        data: bytes | None,
        label: str,
        size: tuple[int, int],
        array: np.ndarray | None = None,
    ) -> None:
        self.data = data
        self.label = label
        self.size = size  # width, height, upright (after the EXIF orientation)
        self._decoded: dict[int, np.ndarray] = {} if array is None else {1: array}
        self._decoding = threading.Lock()
        self.decode_seconds = 0.0  # spent decoding so far
        # the detector's searches of it, kept as long as the photo: a second reader of the
        # same photo finds them done (`reader.DetectorView.search_key`)
        self.searches: dict[Hashable, SearchDone] = {}

    @classmethod
    def from_array(cls, array: np.ndarray) -> Photo:
        """An already decoded upright RGB photo."""
        height, width = array.shape[:2]
        return cls(None, "the photo", (width, height), array)

    @property
    def long_side(self) -> int:
        return max(self.size)

    def picture(self, at_least: int | None = None, *, finer_decoded: bool = False) -> np.ndarray:
        """The upright RGB photo, its long side at least `at_least` pixels where it can be
        decoded smaller (None: full resolution). `finer_decoded`: a finer copy already decoded
        will do (a part of it is cheaper to shrink than the whole photo to decode again)."""
        reduction = self._reduction(at_least)
        with self._decoding:
            finer = [done for done in self._decoded if done <= reduction]
            if finer_decoded and finer:
                return self._decoded[max(finer)]
            if reduction not in self._decoded:
                started = time.perf_counter()
                self._decoded[reduction] = _decode(self.data or b"", self.label, reduction)
                self.decode_seconds += time.perf_counter() - started
            return self._decoded[reduction]

    def _reduction(self, at_least: int | None) -> int:
        if self.data is None or at_least is None or not self.data.startswith(JPEG_MAGIC):
            return 1
        reduction = 1
        while reduction < 8 and self.long_side / (reduction * 2) >= at_least:
            reduction *= 2
        return reduction


JPEG_MAGIC = b"\xff\xd8"
JPEG_END = b"\xff\xd9"


class TurnedPhoto:
    """A photo seen turned by quarter turns anticlockwise (as np.rot90 turns it); it is decoded
    as the original is, and the original keeps the pictures and the decoding time."""

    def __init__(self, original: Photo, quarter_turns: int) -> None:
        self.original = original
        self.quarter_turns = quarter_turns % 4
        width, height = original.size
        self.size = (height, width) if self.quarter_turns % 2 else (width, height)
        # its pictures are turned afresh at each call: no search of them is found again
        self.searches: dict[Hashable, SearchDone] | None = None

    @property
    def long_side(self) -> int:
        return self.original.long_side

    @property
    def decode_seconds(self) -> float:
        return self.original.decode_seconds

    def picture(self, at_least: int | None = None, *, finer_decoded: bool = False) -> np.ndarray:
        turned = np.rot90(
            self.original.picture(at_least, finer_decoded=finer_decoded), self.quarter_turns
        )
        return np.ascontiguousarray(turned)


def open_photo(source: str | Path | bytes, *, name: str | None = None) -> Photo:
    """The photo's file read and checked (format, size), not yet decoded."""
    label = name or (str(source) if not isinstance(source, bytes) else "the photo")
    data = _read_bytes(source, label)
    _register_heif_for(data)
    most = MAX_JPEG_PIXELS if data.startswith(JPEG_MAGIC) else MAX_PIXELS  # MPO too: a phone's
    with _readable(label, most), Image.open(io.BytesIO(data)) as image:
        width, height = image.size
        _check_size(width, height, label, most)
        # Pillow gives a TIFF's size upright already (and turns its pixels as it loads them)
        turned = orientation(image) in QUARTER_TURNED and image.format != "TIFF"
        size = (height, width) if turned else (width, height)
    return Photo(data, label, size)


def orientation(image: Image.Image) -> int:
    """The EXIF orientation (1-8) a photo was opened with. A PNG's is the one it holds before its
    pixels, as read at opening: Pillow decodes a whole PNG to look for one after them (a 79 MP
    PNG's pixels decoded twice: 1.5 s and 316 MB more, session 77)."""
    if image.format == "PNG" and "exif" not in image.info:
        return 1
    return image.getexif().get(ORIENTATION_TAG, 1)


ORIENTATION_TAG = 0x0112
QUARTER_TURNED = frozenset({5, 6, 7, 8})  # EXIF orientations that swap width and height


def _decode(data: bytes, label: str, reduction: int) -> np.ndarray:
    # OpenCV fills a JPEG cut short with grey: one without its end marker is left to Pillow,
    # which says it is damaged (or decodes what follows the marker's usual place). A WebP
    # decoded by Pillow takes six times its pixels (1.4 GB for 79 MP, OpenCV 0.5; session 77).
    whole_jpeg = data.startswith(JPEG_MAGIC) and data.rstrip(b"\0").endswith(JPEG_END)
    if whole_jpeg:
        decoded = _decode_jpeg(data, label, reduction)
        if decoded is not None:
            return decoded
    if whole_jpeg or (data[:4] == b"RIFF" and data[8:12] == b"WEBP"):
        decoded = _decode_with_opencv(data, label, reduction)
        if decoded is not None:
            return decoded
    with _readable(label), Image.open(io.BytesIO(data)) as image:
        if reduction > 1:
            width, height = image.size
            image.draft("RGB", (-(-width // reduction), -(-height // reduction)))
        turned = orientation(image)  # before loading: the one `open_photo` sized the photo by
        image.load()
        if turned != 1:
            ImageOps.exif_transpose(image, in_place=True)
        if image.mode in DEEP_GREY_MODES:
            return deep_grey_as_rgb(np.asarray(image))
        # Each copy of a 12 MP photo costs tens of milliseconds: convert only when needed.
        return np.asarray(image if image.mode == "RGB" else image.convert("RGB"))


DEEP_GREY_MODES = frozenset({"I;16", "I;16B", "I;16L", "I;16N", "I", "F"})
"""Pillow's modes of black-and-white pictures with more than 8 bits a pixel (a 16-bit PNG or
TIFF): its own conversion to RGB clips their values to 255, a white picture."""


def deep_grey_as_rgb(values: np.ndarray) -> np.ndarray:
    """A black-and-white picture of more than 8 bits a pixel as 8-bit RGB: 16-bit values
    shrunk to 8 bits (values that fit 8 bits kept as they are, 0-1 floats stretched)."""
    top = float(values.max()) if values.size else 0.0
    full = 65535.0 if top > 255 else 255.0 if top > 1 else 1.0
    grey = np.clip(values.astype(np.float32) * (255.0 / full) + 0.5, 0, 255).astype(np.uint8)
    return np.repeat(grey[..., None], 3, axis=2)


def _decode_jpeg(data: bytes, label: str, reduction: int) -> np.ndarray | None:
    """A colour or black-and-white JPEG decoded by libjpeg-turbo (simplejpeg), upright by its
    EXIF orientation: OpenCV's pixels at every scale, in two thirds of its time (41 against 61 ms
    for 12 MP here). Unlike OpenCV and Pillow it says where the data is corrupt and the decoder
    made up what follows: a file damaged partway (a bad sector, a broken transfer) read with its
    cards there misread or lost and nothing said (400 files damaged at random: 216 of the 266
    visibly damaged ones refused, against 84 before; 0 of 135 real photos refused; sessions 86
    and 87), except where libjpeg only skipped bytes before a restart marker (BYTES_SKIPPED). None
    where it is another kind of JPEG (CMYK) or libjpeg can't decode it at all (OpenCV then tries,
    and Pillow says what is wrong)."""
    import simplejpeg

    try:
        height, width, colours, _ = simplejpeg.decode_jpeg_header(data)
    except ValueError:
        return None
    if colours not in ("YCbCr", "Gray"):
        return None
    scaled = {
        "colorspace": "RGB",
        "min_height": -(-height // reduction),
        "min_width": -(-width // reduction),
        "min_factor": reduction,
    }
    try:
        decoded = simplejpeg.decode_jpeg(data, strict=True, **scaled)
    except ValueError as warned:
        try:  # corrupt data libjpeg decodes on from, or a file it can't decode at all
            decoded = simplejpeg.decode_jpeg(data, strict=False, **scaled)
        except ValueError:
            return None
        missing = ends_grey(decoded, reduction)
        if missing or not harmless(str(warned)):
            raise ImageReadError(PART_MISSING if missing else GARBLED, name=label) from None
    with _readable(label), Image.open(io.BytesIO(data)) as image:
        turned = orientation(image)
    return upright(decoded, turned)


BYTES_SKIPPED = re.compile(r"Corrupt JPEG data: (\d+) extraneous bytes before marker 0xd[0-7]")
BYTES_SKIPPED_AT_MOST = 32
"""libjpeg's warning of bytes it skipped before a restart marker, where its decoding starts
afresh, and how many it may skip there with no harm. Webcams (the Logitech C270's video frames,
`mjpg-streamer`'s stills: 1-10 bytes said skipped) and some scanners leave a few there, and every
pixel decodes as without them (two zero bytes before each restart marker of the example: 20
said skipped); session 86 refused such photos as damaged. A run garbled partway mostly leaves
more: of 476 visibly damaged copies of the example saved with restart markers, 417 are still
refused, against 420 with nothing skipped allowed (102 skip 34-6,868 bytes, 3 skip 5-8). Bytes
skipped before the end marker are still taken for damage (a zeroed sector ends so)."""


HEADER_WARNINGS = re.compile(r"Invalid SOS parameters for sequential JPEG")
"""libjpeg's warnings of a header written unlike the standard, after which every pixel decodes
as it was taken: some phones' scan header ("Invalid SOS parameters for sequential JPEG"), whose
photos session 86 refused as damaged. (A warning libjpeg-turbo won't decode on from even
leniently, such as an unknown JFIF revision, leaves the photo to OpenCV, as before.)"""


def harmless(warning: str) -> bool:
    """Whether libjpeg's first warning of a JPEG leaves its pixels as they were taken: a few bytes
    skipped before a restart marker (BYTES_SKIPPED), or a header written unlike the standard
    (HEADER_WARNINGS). Any other (a garbled run, a file cut short, a damaged marker) is damage."""
    skipped = BYTES_SKIPPED.fullmatch(warning)
    if skipped is not None:
        return int(skipped.group(1)) <= BYTES_SKIPPED_AT_MOST
    return HEADER_WARNINGS.match(warning) is not None


def _decode_with_opencv(data: bytes, label: str, reduction: int) -> np.ndarray | None:
    """A WebP, or a JPEG `_decode_jpeg` leaves, decoded by OpenCV (a JPEG's pixels as Pillow's,
    in half the time at full resolution: 55 against 110 ms for 12 MP here, where Pillow's copy
    out of its RGBX buffer takes 50), upright by its EXIF orientation; None where OpenCV can't
    decode it (Pillow then says what is wrong)."""
    import cv2

    flags = {
        1: cv2.IMREAD_COLOR,
        2: cv2.IMREAD_REDUCED_COLOR_2,
        4: cv2.IMREAD_REDUCED_COLOR_4,
        8: cv2.IMREAD_REDUCED_COLOR_8,
    }[reduction] | cv2.IMREAD_IGNORE_ORIENTATION
    # OpenCV 4.10 and later decode straight to RGB: no 12 MP copy to swap the channels
    in_rgb = getattr(cv2, "IMREAD_COLOR_RGB", None)
    if in_rgb is not None:
        flags = (flags & ~cv2.IMREAD_COLOR) | in_rgb
    decoded = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    if decoded is None:
        return None
    if data.startswith(JPEG_MAGIC) and ends_grey(decoded, reduction):
        raise ImageReadError(PART_MISSING, name=label)
    if in_rgb is None:
        decoded = cv2.cvtColor(decoded, cv2.COLOR_BGR2RGB)
    with _readable(label), Image.open(io.BytesIO(data)) as image:
        turned = orientation(image)
    return upright(decoded, turned)


GREY_FILL = 128  # what libjpeg decodes a JPEG's missing blocks as: no coefficient at all


def ends_grey(decoded: np.ndarray, reduction: int) -> bool:
    """Whether a JPEG as stored ends in blocks all exactly mid-grey that begin partway along a
    row of blocks: the blocks libjpeg fills in where the data ran out before the picture did (a
    file cut short behind its end marker, a zeroed sector of a failing card). OpenCV decodes
    such a file without an error: read, it lost the cards there with nothing said (helper-45,
    session 81). No camera's noise leaves pixels all exactly 128; a grey band drawn along a
    picture's bottom starts at a row's start, a grey frame or background is grey at a row's
    start too, and a picture grey from top to bottom is no photo of cards: each is read."""
    block = max(1, 8 // reduction)  # a row of 8x8 blocks, as decoded at this scale
    band = decoded[-block:]
    if not band.size or not np.all(band == GREY_FILL):
        return False
    top = decoded.shape[0] - block
    while top > 0 and np.all(decoded[top - 1] == GREY_FILL):
        top -= 1
    # the row above the grey: the data ran out partway along it, its last blocks grey too and
    # its first not (a grey frame, or a grey background, is grey at both ends)
    edge = decoded[top - 1] if top > 0 else None
    return (
        edge is not None
        and bool(np.all(edge[-block:] == GREY_FILL))
        and not bool(np.all(edge[:block] == GREY_FILL))
    )


def upright(picture: np.ndarray, orientation: int) -> np.ndarray:
    """A picture as stored turned upright by its EXIF orientation (1-8), as Pillow's
    `ImageOps.exif_transpose` turns it."""
    turned = {
        2: lambda p: p[:, ::-1],
        3: lambda p: p[::-1, ::-1],
        4: lambda p: p[::-1],
        5: lambda p: p.transpose(1, 0, 2),
        6: lambda p: np.rot90(p, -1),
        7: lambda p: np.rot90(p, 2).transpose(1, 0, 2),
        8: lambda p: np.rot90(p, 1),
    }.get(orientation)
    return picture if turned is None else np.ascontiguousarray(turned(picture))


def _check_size(width: int, height: int, label: str, most: int) -> None:
    if width * height > most:
        raise ImageReadError(
            TOO_MANY_PIXELS,
            name=label,
            width=width,
            height=height,
            megapixels=f"{width * height / 1e6:.0f}",
            most=most // 1_000_000,
        )
    if min(width, height) < MIN_SIDE:
        raise ImageReadError(TOO_FEW_PIXELS, name=label, width=width, height=height, least=MIN_SIDE)


@contextlib.contextmanager
def _readable(label: str, most: int = MAX_PIXELS) -> Iterator[None]:
    """Pillow's failures as messages a person can act on (`most`: the pixels we read of it)."""
    try:
        yield
    except ImageReadError:
        raise
    except Image.DecompressionBombError:
        raise ImageReadError(TOO_MANY_PIXELS_UNSIZED, name=label, most=most // 1_000_000) from None
    except UnidentifiedImageError:
        raise ImageReadError(NOT_AN_IMAGE, name=label) from None
    except (OSError, SyntaxError, ValueError):
        raise ImageReadError(DAMAGED, name=label) from None


def _read_bytes(source: str | Path | bytes, label: str) -> bytes:
    if isinstance(source, bytes):
        data = source
    else:
        if not str(source):  # Path("") would be the current folder
            raise ImageReadError(NO_NAME, example="photo.jpg")
        try:
            data = _file_bytes(Path(source), label)
        except FileNotFoundError:  # gone since it was looked at
            raise ImageReadError(NO_SUCH_FILE, name=label) from None
        except PermissionError:  # the file's, or its folder's (a stat fails too)
            raise ImageReadError(NOT_ALLOWED, name=label) from None
        except OSError as error:  # a disk or network share failing
            reason = error.strerror or type(error).__name__
            raise ImageReadError(NOT_READ, name=label, reason=reason) from None
    if not data:
        raise ImageReadError(EMPTY, name=label)
    _check_bytes(len(data), label)
    return data


def _file_bytes(path: Path, label: str) -> bytes:
    if path.is_dir():
        raise ImageReadError(A_FOLDER, name=label, example=str(path / "*.jpg"))
    if not path.is_file():
        raise ImageReadError(NOT_A_FILE if path.exists() else NO_SUCH_FILE, name=label)
    _check_bytes(path.stat().st_size, label)
    return path.read_bytes()


def _check_bytes(size: int, label: str) -> None:
    if size > MAX_FILE_BYTES:
        raise ImageReadError(
            TOO_MANY_BYTES,
            name=label,
            megabytes=f"{size / 2**20:.0f}",
            most=MAX_FILE_BYTES // 2**20,
        )


PhotoSource = Photo | TurnedPhoto
"""What the reader reads: a photo, as it is or seen turned."""


def as_photo(image: np.ndarray | PhotoSource) -> PhotoSource:
    """A photo to read: an already decoded upright RGB array becomes one."""
    return Photo.from_array(image) if isinstance(image, np.ndarray) else image
