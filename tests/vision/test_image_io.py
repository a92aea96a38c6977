"""Loading photos: formats, EXIF orientation, and clear errors for bad files."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageOps

from blackcat.i18n import translator
from blackcat.vision import image_io
from blackcat.vision.image_io import MAX_PIXELS, ImageReadError, load_image, open_photo


def encoded(image: Image.Image, format: str, **options: object) -> bytes:
    if format == "HEIF":
        from pillow_heif import register_heif_opener

        register_heif_opener()  # for saving; reading must not need it (see below)
    buffer = io.BytesIO()
    image.save(buffer, format=format, **options)
    return buffer.getvalue()


def sample(width: int = 200, height: int = 100) -> Image.Image:
    """Left half red, right half blue: shows which way the image was turned."""
    pixels = np.zeros((height, width, 3), dtype=np.uint8)
    pixels[:, : width // 2] = (255, 0, 0)
    pixels[:, width // 2 :] = (0, 0, 255)
    return Image.fromarray(pixels)


@pytest.mark.parametrize("format", ["JPEG", "PNG", "WEBP", "HEIF"])
def test_each_accepted_format_loads_as_rgb(format: str) -> None:
    image = load_image(encoded(sample(), format))
    assert image.shape == (100, 200, 3)
    assert image.dtype == np.uint8
    assert image[50, 25, 0] > 200 and image[50, 175, 2] > 200


def test_a_heic_photo_loads_in_a_process_where_only_other_photos_were_read(
    tmp_path: Path,
) -> None:
    """pi-heif is imported for HEIC photos alone (it costs each start ~20 ms otherwise), and reads
    what pillow-heif wrote."""
    (tmp_path / "photo.heic").write_bytes(encoded(sample(), "HEIF"))
    (tmp_path / "photo.jpg").write_bytes(encoded(sample(), "JPEG"))
    check = (
        "import sys\n"
        "from blackcat.vision.image_io import load_image\n"
        "assert load_image(sys.argv[1] + '/photo.jpg').shape == (100, 200, 3)\n"
        "assert 'pi_heif' not in sys.modules\n"
        "assert load_image(sys.argv[1] + '/photo.heic').shape == (100, 200, 3)\n"
        "assert 'pi_heif' in sys.modules and 'pillow_heif' not in sys.modules\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", check, str(tmp_path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr


def test_a_path_loads_like_bytes(tmp_path: Path) -> None:
    path = tmp_path / "photo.png"
    sample().save(path)
    assert np.array_equal(load_image(path), load_image(path.read_bytes()))


def test_transparency_is_dropped() -> None:
    image = load_image(encoded(sample().convert("RGBA"), "PNG"))
    assert image.shape == (100, 200, 3)


def test_exif_orientation_is_applied() -> None:
    exif = Image.Exif()
    exif[0x0112] = 6  # the camera was turned: show the stored image turned 90° clockwise
    image = load_image(encoded(sample(), "JPEG", exif=exif.tobytes()))
    assert image.shape == (200, 100, 3)
    assert image[25, 50, 0] > 200  # the red left half is now on top
    assert image[175, 50, 2] > 200


def test_a_file_that_is_not_an_image_says_so(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("eight of diamonds, two of hearts")
    with pytest.raises(ImageReadError, match=r"notes\.txt is not an image.*WebP or HEIC"):
        load_image(path)


def test_a_cut_short_photo_says_it_is_damaged() -> None:
    data = encoded(sample(400, 300), "JPEG")
    with pytest.raises(ImageReadError, match="damaged") as refused:
        load_image(data[: len(data) // 3], name="upload.jpg")
    # in words for a person: no library's text ("image file is truncated", "bytes not processed")
    assert str(refused.value) == (
        "upload.jpg could not be decoded: it may be cut short or damaged; take the photo again "
        "or use another JPEG, PNG, WebP or HEIC file"
    )


def noisy(width: int, height: int) -> Image.Image:
    """A picture with a camera's noise in every pixel."""
    return Image.fromarray(np.random.default_rng(7).integers(0, 256, (height, width, 3), np.uint8))


@pytest.mark.parametrize("at_least", [None, 200])  # decoded whole, or at a quarter of its size
def test_a_photo_cut_short_behind_its_end_marker_says_part_is_missing(
    at_least: int | None,
) -> None:
    data = encoded(noisy(800, 600), "JPEG", quality=90)
    # a file cut short, ended by an end marker (or a failing card's zeroed sector): decoders
    # fill what is missing with grey and say nothing; its cards there were lost silently
    cut = data[: len(data) // 2] + image_io.JPEG_END
    with pytest.raises(ImageReadError) as refused:
        open_photo(cut, name="night.jpg").picture(at_least)
    assert str(refused.value) == (
        "night.jpg is damaged: part of the photo is missing (grey), so cards there can't be read; "
        "take the photo again or copy the file again"
    )
    whole = open_photo(data, name="night.jpg").picture(at_least)
    assert whole.shape[0] == (600 if at_least is None else 150)


def garbled(data: bytes) -> bytes:
    """A JPEG with a sector of its picture data zeroed partway (a failing memory card): decoders
    go on, making up what follows, and OpenCV and Pillow say nothing."""
    start = len(data) // 2
    return data[:start] + bytes(512) + data[start + 512 :]


@pytest.mark.parametrize("at_least", [None, 200])  # decoded whole, or at a quarter of its size
def test_a_photo_garbled_partway_says_it_is_damaged(at_least: int | None) -> None:
    data = encoded(noisy(800, 600), "JPEG", quality=90)
    with pytest.raises(ImageReadError) as refused:
        open_photo(garbled(data), name="night.jpg").picture(at_least)
    assert str(refused.value) == (
        "night.jpg is damaged: part of the photo's data is garbled, so cards there would be "
        "misread; take the photo again or copy the file again"
    )


def test_bytes_a_webcam_leaves_before_a_restart_marker_are_no_damage() -> None:
    # a Logitech C270's video frames: bytes libjpeg skips (and warns of) before each restart
    # marker; every pixel decodes as without them
    buffer = io.BytesIO()
    noisy(800, 600).save(buffer, "JPEG", quality=90, restart_marker_blocks=64)
    data = buffer.getvalue()
    scan = data.index(b"\xff\xda")
    restart = rb"(\xff[\xd0-\xd7])"
    padded = data[:scan] + re.sub(restart, rb"\0\0\0\0\0\0\0\0\1", data[scan:])
    assert padded != data
    for at_least in (None, 200):
        assert np.array_equal(
            open_photo(padded, name="webcam.jpg").picture(at_least),
            open_photo(data, name="webcam.jpg").picture(at_least),
        )
    # a garbled run before a restart marker leaves more bytes to skip: damage still
    restarts = [found.start() for found in re.finditer(restart, data[scan:])]
    at = scan + restarts[3] - 200
    garbled_run = data[:at] + bytes(range(1, 201)) + data[at + 200 :]
    with pytest.raises(ImageReadError, match="garbled"):
        open_photo(garbled_run, name="webcam.jpg").picture()


def test_a_phones_scan_header_written_unlike_the_standard_is_no_damage() -> None:
    # libjpeg: "Invalid SOS parameters for sequential JPEG" (a scan's last coefficient 62, not
    # 63, in a file that isn't progressive), as some phones write; its pixels decode as taken
    data = encoded(noisy(800, 600), "JPEG", quality=90)
    scan = data.index(b"\xff\xda")
    last_coefficient = scan + 5 + 2 * data[scan + 4] + 1
    odd = bytearray(data)
    odd[last_coefficient] = 62
    assert np.array_equal(open_photo(bytes(odd)).picture(), open_photo(data).picture())


@pytest.mark.parametrize("mode", ["L", "CMYK"])
def test_a_black_and_white_or_cmyk_jpeg_reads_as_pillow_reads_it(mode: str) -> None:
    pixels = np.asarray(noisy(200, 100)).copy()
    pixels[:, :100] = (255, 0, 0)
    picture = Image.fromarray(pixels).convert(mode)
    data = encoded(picture, "JPEG", quality=90)
    with Image.open(io.BytesIO(data)) as image:
        expected = np.asarray(image.convert("RGB")).astype(int)
    loaded = load_image(data).astype(int)
    assert loaded.shape == (100, 200, 3)
    assert np.abs(loaded - expected).max() <= 2


def test_a_grey_picture_or_a_grey_border_is_no_damaged_photo() -> None:
    grey = Image.new("RGB", (400, 300), (128, 128, 128))
    assert np.all(load_image(encoded(grey, "JPEG"), name="grey.jpg") == 128)
    bordered = np.asarray(noisy(400, 300)).copy()
    bordered[-40:] = 128  # a border drawn on the picture, from a row's start (helper-53)
    loaded = load_image(encoded(Image.fromarray(bordered), "JPEG", quality=90), name="b.jpg")
    assert np.all(loaded[-16:] == 128)  # read, its grey border as drawn
    framed = np.asarray(noisy(400, 300)).copy()
    framed[:, :40] = framed[:, -40:] = framed[-40:] = 128  # a grey frame round it (helper-54)
    loaded = load_image(encoded(Image.fromarray(framed), "JPEG", quality=90), name="f.jpg")
    assert np.all(loaded[-16:] == 128)


@pytest.mark.parametrize("size", [(10, 10), (640, 40)])
def test_a_tiny_image_is_too_small_to_read(size: tuple[int, int]) -> None:
    width, height = size
    with pytest.raises(
        ImageReadError, match=f"tiny.png is only {width}×{height} pixels, too small"
    ):
        load_image(encoded(sample(width, height), "PNG"), name="tiny.png")


def test_an_empty_file_says_so() -> None:
    with pytest.raises(ImageReadError, match="empty"):
        load_image(b"", name="upload.jpg")


def test_a_missing_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(ImageReadError, match="no such file"):
        load_image(tmp_path / "absent.jpg")


@pytest.mark.parametrize(
    ("failure", "said"),
    [
        (PermissionError(13, "Permission denied"), " can't be opened: permission denied"),
        (OSError(5, "Input/output error"), " could not be read (Input/output error): copy it"),
        (FileNotFoundError(2, "No such file"), ": no such file"),  # gone since it was looked at
    ],
)
def test_a_file_that_cannot_be_read_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: OSError, said: str
) -> None:
    # a traceback, and `scan` lost the other photos' reads
    photo = tmp_path / "locked.jpg"
    photo.write_bytes(encoded(sample(), "JPEG"))

    def fail(path: Path) -> bytes:
        raise failure

    monkeypatch.setattr(Path, "read_bytes", fail)
    with pytest.raises(ImageReadError, match=re.escape(f"{photo}{said}")):
        open_photo(photo)
    monkeypatch.undo()
    real_stat = Path.stat

    def stat_fails(path: Path, **options: object) -> object:
        if path == photo:
            raise failure
        return real_stat(path, **options)

    monkeypatch.setattr(Path, "stat", stat_fails)  # as in a folder not ours: is_dir fails
    with pytest.raises(ImageReadError, match=re.escape(f"{photo}{said}")):
        open_photo(photo)


def test_pillows_warnings_of_a_huge_photo_or_a_damaged_exif_are_not_printed(
    tmp_path: Path,
) -> None:
    huge = tmp_path / "huge.jpg"
    huge.write_bytes(jpeg_declaring(20000, 15000))
    damaged = tmp_path / "exif.jpg"  # an EXIF entry pointing past its end
    exif = b"MM\x00\x2a\x00\x00\x00\x08\x00\x01\x01\x0f\x00\x02\x00\x00\x00\x28\x00\x00\x00\x64"
    damaged.write_bytes(encoded(sample(), "JPEG", exif=b"Exif\x00\x00" + exif))
    opened = subprocess.run(
        [sys.executable, "-c", OPEN_BOTH, str(huge), str(damaged)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert opened.returncode == 0, opened.stderr
    assert opened.stdout.split("\n")[:2] == ["refused", "(200, 100)"]
    assert opened.stderr == ""


OPEN_BOTH = """
import sys
from blackcat.vision.image_io import ImageReadError, open_photo
try:
    open_photo(sys.argv[1])
except ImageReadError:
    print("refused")
print(open_photo(sys.argv[2]).picture().shape[1::-1])
"""


def test_a_folder_says_to_name_the_photos_in_it(tmp_path: Path) -> None:
    with pytest.raises(ImageReadError) as refused:
        open_photo(tmp_path)
    assert str(refused.value) == (
        f"{tmp_path} is a folder: name the photos in it, such as {tmp_path / '*.jpg'}"
    )


def test_an_empty_name_is_no_photo_rather_than_the_current_folder() -> None:
    with pytest.raises(ImageReadError) as refused:
        open_photo("")
    assert str(refused.value) == "an empty name is no photo: name a photo file, such as photo.jpg"


def test_each_refusal_reads_in_spanish_with_its_figures(tmp_path: Path) -> None:
    """What is wrong, in the player's language, the photo's name and figures as in English;
    the exception's own text stays English (JSON and logs)."""
    spanish = translator("es")
    refusals = []
    for source, name in [
        (tmp_path / "absent.jpg", None),
        (tmp_path, None),
        (b"", "vacia.jpg"),
        (b"not a photo", "notas.txt"),
        (encoded(sample(400, 300), "JPEG")[:2000], "cortada.jpg"),
        (encoded(sample(40, 30), "PNG"), "diminuta.png"),
    ]:
        with pytest.raises(ImageReadError) as refused:
            load_image(source, name=name)
        refusals.append(refused.value)
    messages = [refusal.describe(spanish) for refusal in refusals]
    assert messages == [
        f"{tmp_path / 'absent.jpg'}: no existe ese archivo; comprueba el nombre y la carpeta de "
        "la foto",
        f"{tmp_path} es una carpeta: indica las fotos que contiene, como {tmp_path / '*.jpg'}",
        "vacia.jpg está vacío: usa una foto JPEG, PNG, WebP o HEIC",
        "notas.txt no es una imagen que podamos leer: usa una foto JPEG, PNG, WebP o HEIC",
        "cortada.jpg no se pudo descodificar: puede estar cortado o dañado; vuelve a hacer la "
        "foto o usa otro archivo JPEG, PNG, WebP o HEIC",
        "diminuta.png mide solo 40×30 píxeles, demasiado pequeña para leerla: usa la foto tal "
        "como la hizo la cámara (al menos 100 píxeles por lado)",
    ]
    assert [refusal.describe() for refusal in refusals] == [str(r) for r in refusals]
    assert str(refusals[2]) == "vacia.jpg is empty: use a JPEG, PNG, WebP or HEIC photo"


def test_a_file_too_large_to_read_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(image_io, "MAX_FILE_BYTES", 2**20)
    big = tmp_path / "big.jpg"
    big.write_bytes(bytes(3 * 2**20))
    for source, name in [(big, None), (big.read_bytes(), "big.jpg")]:
        with pytest.raises(ImageReadError) as refused:
            open_photo(source, name=name)
        assert str(refused.value).endswith(
            "big.jpg is 3 MB, more than the 1 MB we read: use a smaller photo"
        )
        assert refused.value.describe(translator("es")).endswith(
            "big.jpg ocupa 3 MB, más de los 1 MB que leemos: usa una foto más pequeña"
        )


def test_an_absurdly_large_photo_is_refused_before_decoding() -> None:
    side = int(MAX_PIXELS**0.5) + 100
    huge = encoded(Image.new("L", (side, side)), "PNG")
    with pytest.raises(ImageReadError, match="lower resolution"):
        load_image(huge, name="huge.png")


def test_a_jpeg_may_be_larger_than_other_photos_being_read_at_a_reduced_scale(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A phone's 108 or 200 MP JPEG is decoded at a half to an eighth of its size; a PNG (or
    WebP, HEIC) of as many pixels would be decoded whole (here the limits scaled down)."""
    from blackcat.vision import image_io

    monkeypatch.setattr(image_io, "MAX_PIXELS", 1_000_000)
    monkeypatch.setattr(image_io, "MAX_JPEG_PIXELS", 4_000_000)
    photo = open_photo(encoded(sample(2000, 1500), "JPEG"), name="big.jpg")
    assert photo.size == (2000, 1500) and photo.picture(500).shape == (375, 500, 3)
    with pytest.raises(ImageReadError) as refused:
        open_photo(encoded(sample(2000, 1500), "PNG"), name="big.png")
    assert str(refused.value) == (
        "big.png is 2000×1500 (3 MP), larger than the 1 MP we read: take or export it at a lower "
        "resolution"
    )
    with pytest.raises(ImageReadError, match=r"\(5 MP\), larger than the 4 MP we read"):
        open_photo(encoded(sample(2500, 2000), "JPEG"), name="huge.jpg")


def jpeg_declaring(width: int, height: int) -> bytes:
    """A small JPEG whose header declares another size (opening reads no further)."""
    data = bytearray(encoded(sample(16, 16), "JPEG"))
    frame = data.index(b"\xff\xc0")  # SOF0: marker, length, precision, height, width
    data[frame + 5 : frame + 9] = height.to_bytes(2, "big") + width.to_bytes(2, "big")
    return bytes(data)


def test_a_200_mp_phone_jpeg_opens_and_larger_ones_are_refused_in_our_words() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning of Pillow's on the way
        assert open_photo(jpeg_declaring(16320, 12240), name="p.jpg").size == (16320, 12240)
    for width, height, said in ((20000, 15000, "(300 MP), larger"), (30000, 20000, "larger")):
        with pytest.raises(ImageReadError) as refused, warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Pillow's own, from 250 MP: then our message
            open_photo(jpeg_declaring(width, height), name="huge.jpg")
        assert said in str(refused.value) and "than the 250 MP we read" in str(refused.value)


def test_a_phone_jpeg_holding_a_second_picture_is_a_jpeg_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from blackcat.vision import image_io

    monkeypatch.setattr(image_io, "MAX_PIXELS", 1_000_000)
    monkeypatch.setattr(image_io, "MAX_JPEG_PIXELS", 4_000_000)
    buffer = io.BytesIO()
    sample(2000, 1500).save(buffer, "MPO", save_all=True, append_images=[sample(200, 150)])
    assert Image.open(io.BytesIO(buffer.getvalue())).format == "MPO"
    photo = open_photo(buffer.getvalue(), name="phone.jpg")
    assert photo.size == (2000, 1500) and photo.picture(500).shape == (375, 500, 3)


@pytest.mark.parametrize("format", ["PNG", "WEBP"])
def test_a_lossless_png_or_webp_reads_as_its_exact_pixels(format: str) -> None:
    picture = np.array(sample(200, 100).convert("RGB"))
    picture[10:20, 30:40] = (0, 255, 0)
    data = encoded(
        Image.fromarray(picture), format, **({"lossless": True} if format == "WEBP" else {})
    )
    assert np.array_equal(load_image(data), picture)


def test_a_non_image_is_explained_even_after_ultralytics_patched_pillow() -> None:
    """Ultralytics replaces PIL.Image.open with one that loads pi-heif on an unreadable file
    (and would try to pip-install it if missing); the message must stay ours."""
    import ultralytics.utils.patches  # noqa: F401 - applies the patch

    with pytest.raises(ImageReadError, match="not an image"):
        load_image(b"eight of diamonds", name="notes.txt")


def test_a_large_jpeg_is_decoded_at_a_reduced_scale_when_less_is_needed() -> None:
    exif = Image.Exif()
    exif[0x0112] = 6  # stored 2400×1200, shown 1200×2400
    photo = open_photo(encoded(sample(2400, 1200), "JPEG", exif=exif.tobytes()))
    assert photo.size == (1200, 2400)
    reduced = photo.picture(500)
    assert reduced.shape == (600, 300, 3)  # 1/4: the smallest scale keeping 500 px on the long side
    assert reduced[100, 150, 0] > 200 and reduced[500, 150, 2] > 200  # still turned upright
    assert photo.picture().shape == (2400, 1200, 3)
    assert photo.picture(2000).shape == (2400, 1200, 3)  # 1/2 would be short of 2000


def test_reads_side_by_side_decode_each_scale_of_a_photo_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from blackcat.vision import image_io

    decodes = []
    decode = image_io._decode

    def slow_decode(data: bytes, label: str, reduction: int) -> np.ndarray:
        decodes.append(reduction)
        time.sleep(0.05)  # a 12 MP photo's decode: the others ask for it meanwhile
        return decode(data, label, reduction)

    monkeypatch.setattr(image_io, "_decode", slow_decode)
    photo = open_photo(encoded(sample(2400, 1200), "JPEG"))
    with ThreadPoolExecutor(4) as pool:
        pictures = list(pool.map(lambda _: photo.picture(500), range(8)))
    assert decodes == [4]
    assert all(picture is pictures[0] for picture in pictures)


@pytest.mark.parametrize("format", ["JPEG", "PNG", "WEBP", "TIFF"])
@pytest.mark.parametrize("turns", range(1, 9))
def test_a_photo_is_sized_as_it_decodes_upright_in_every_orientation(
    format: str, turns: int
) -> None:
    """Turned as Pillow's `exif_transpose` turns it, and sized so before it is decoded (a TIFF,
    whose size Pillow gives upright already, was sized turned twice)."""
    exif = Image.Exif()
    exif[0x0112] = turns
    options = {"lossless": True} if format == "WEBP" else {"quality": 100}
    data = encoded(sample(200, 120), format, exif=exif.tobytes(), **options)
    expected = np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(data))).convert("RGB"))
    photo = open_photo(data)
    picture = photo.picture()
    assert picture.shape == expected.shape
    assert np.abs(picture.astype(int) - expected).max() <= 8  # a JPEG decoder's rounding
    assert photo.size == (picture.shape[1], picture.shape[0])


def test_formats_without_scaled_decoding_come_whole() -> None:
    photo = open_photo(encoded(sample(800, 400), "PNG"))
    assert photo.picture(100).shape == (400, 800, 3)


def test_a_photo_cut_short_says_so_when_it_is_decoded() -> None:
    data = encoded(sample(800, 400), "JPEG")
    photo = open_photo(data[: len(data) // 3], name="upload.jpg")
    with pytest.raises(ImageReadError, match=r"upload\.jpg could not be decoded"):
        photo.picture(100)


@pytest.mark.parametrize("orientation", range(1, 9))
@pytest.mark.parametrize("reduction", [1, 2, 4])
def test_a_jpeg_decodes_to_pillows_pixels_in_every_orientation(
    orientation: int, reduction: int
) -> None:
    pixels = np.random.default_rng(orientation).integers(0, 256, (192, 320, 3), dtype=np.uint8)
    pixels[:96, :160] = (255, 0, 0)  # a corner to tell the turns apart
    exif = Image.Exif()
    exif[0x0112] = orientation
    data = encoded(Image.fromarray(pixels), "JPEG", exif=exif.tobytes(), quality=90)
    with Image.open(io.BytesIO(data)) as image:
        if reduction > 1:
            image.draft("RGB", (320 // reduction, 192 // reduction))
        expected = np.asarray(ImageOps.exif_transpose(image).convert("RGB"))
    photo = open_photo(data)
    decoded = photo.picture(max(photo.size) // reduction)
    assert decoded.shape == expected.shape
    assert np.array_equal(decoded, expected)


def test_a_jpeg_with_bytes_after_its_end_still_decodes() -> None:
    data = encoded(sample(400, 300), "JPEG") + b"\0" * 64
    assert open_photo(data).picture().shape == (300, 400, 3)


@pytest.mark.parametrize(
    ("mode", "values", "grey"),
    [
        ("I;16", np.array([[0, 257 * 100, 65535]], np.uint16), [0, 100, 255]),
        ("F", np.array([[0.0, 0.5, 1.0]], np.float32), [0, 128, 255]),
        ("I", np.array([[0, 100, 255]], np.int32), [0, 100, 255]),
    ],
    ids=["16-bit", "0-1 floats", "8-bit values in 32 bits"],
)
def test_a_black_and_white_picture_of_more_than_8_bits_keeps_its_greys(
    mode: str, values: np.ndarray, grey: list[int]
) -> None:
    picture = np.repeat(np.repeat(values, 40, axis=1), 120, axis=0)  # 120 x 120
    image = Image.fromarray(picture)
    assert image.mode == mode
    buffer = io.BytesIO()
    image.save(buffer, format="PNG" if mode == "I;16" else "TIFF")
    loaded = load_image(buffer.getvalue())
    assert loaded.shape == (120, 120, 3) and loaded.dtype == np.uint8
    assert loaded[60, ::40].tolist() == [[level] * 3 for level in grey]
