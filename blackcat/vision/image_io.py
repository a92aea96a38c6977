"""Load a photo from a path or bytes: EXIF orientation applied, RGB, size checked."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

MAX_PIXELS = 80_000_000
"""Larger photos are refused: no phone takes them, and decoding one would take gigabytes."""

MIN_SIDE = 100
"""Smaller photos are refused: a card's corner index in them would be a few pixels."""

MAX_FILE_BYTES = 100 * 1024 * 1024
ACCEPTED = "JPEG, PNG, WebP or HEIC"


class ImageReadError(ValueError):
    """A photo that can't be used, with what went wrong and what to do."""


def _register_heic() -> None:
    try:
        from pillow_heif import register_heif_opener
    except ImportError:  # pragma: no cover - pillow-heif is a dependency
        return
    register_heif_opener()


def load_image(source: str | Path | bytes, *, name: str | None = None) -> np.ndarray:
    """The photo as an upright RGB array (height, width, 3) of uint8."""
    _register_heic()
    label = name or (str(source) if not isinstance(source, bytes) else "the photo")
    data = _read_bytes(source, label)
    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
            if width * height > MAX_PIXELS:
                raise ImageReadError(
                    f"{label} is {width}×{height} ({width * height / 1e6:.0f} MP), larger than the "
                    f"{MAX_PIXELS // 1_000_000} MP we read: take or export it at a lower resolution"
                )
            if min(width, height) < MIN_SIDE:
                raise ImageReadError(
                    f"{label} is only {width}×{height} pixels, too small to read: use the photo "
                    f"as the camera took it (at least {MIN_SIDE} pixels a side)"
                )
            image.load()
            ImageOps.exif_transpose(image, in_place=True)
            # Each copy of a 12 MP photo costs tens of milliseconds: convert only when needed.
            return np.asarray(image if image.mode == "RGB" else image.convert("RGB"))
    except ImageReadError:
        raise
    except Image.DecompressionBombError:
        raise ImageReadError(
            f"{label} is larger than the {MAX_PIXELS // 1_000_000} MP we read: "
            "take or export it at a lower resolution"
        ) from None
    except UnidentifiedImageError:
        message = f"{label} is not an image we can read: use a {ACCEPTED} photo"
        raise ImageReadError(message) from None
    except (OSError, SyntaxError, ValueError):
        raise ImageReadError(
            f"{label} could not be decoded: it may be cut short or damaged; "
            f"take the photo again or use another {ACCEPTED} file"
        ) from None


def _read_bytes(source: str | Path | bytes, label: str) -> bytes:
    if isinstance(source, bytes):
        data = source
    else:
        path = Path(source)
        if not path.is_file():
            raise ImageReadError(f"{label}: no such file")
        if path.stat().st_size > MAX_FILE_BYTES:
            raise ImageReadError(
                f"{label} is {path.stat().st_size / 2**20:.0f} MB, more than the "
                f"{MAX_FILE_BYTES // 2**20} MB we read: use a smaller photo"
            )
        data = path.read_bytes()
    if not data:
        raise ImageReadError(f"{label} is empty: use a {ACCEPTED} photo")
    if len(data) > MAX_FILE_BYTES:
        raise ImageReadError(
            f"{label} is {len(data) / 2**20:.0f} MB, more than the "
            f"{MAX_FILE_BYTES // 2**20} MB we read: use a smaller photo"
        )
    return data
