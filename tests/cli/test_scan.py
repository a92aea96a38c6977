"""`blackcat scan` through a subprocess: the JSON contract, errors, annotation."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from outbound_log import addresses_asked, blackcat_watched

from blackcat.cli.photo_output import (
    BLURRED,
    annotation_names,
    blur_note,
    grid_note,
    photo_source,
    unread_note,
)
from blackcat.cli.scan import (
    _text_report,
    add_arguments,
    photo_to_json,
    pile_count_note,
    players_note,
    text_warnings,
    warnings,
)
from blackcat.games.black_cat import score_player
from blackcat.games.cards import Card, parse_pile
from blackcat.i18n import and_list, translator
from blackcat.vision.image_io import computer_formats
from blackcat.vision.types import Guess, PhotoRead, ReadCard

DATA = Path(__file__).resolve().parents[1] / "vision" / "data"
SCENE_1, SCENE_2 = DATA / "scene_1.jpg", DATA / "scene_2.jpg"
EXAMPLE_PHOTO = Path(__file__).resolve().parents[2] / "app" / "example.jpg"
SCORE_FIELDS = {"queens", "features", "counts", "points"}


def blackcat(
    *args: str | Path, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "blackcat", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=cwd,
    )


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess, Path]:
    folder = tmp_path_factory.mktemp("scan")
    not_a_photo = folder / "notes.txt"
    not_a_photo.write_text("not a photo")
    photos = (SCENE_1, not_a_photo, SCENE_2)
    result = blackcat("scan", "--json", "--annotate", folder / "drawn", *photos)
    return result, folder


def test_one_object_per_photo_and_a_failed_photo_does_not_stop_the_others(scanned) -> None:
    result, _ = scanned
    assert result.returncode == 1, result.stderr
    photos = json.loads(result.stdout)
    assert [photo["image"] for photo in photos] == [
        str(SCENE_1),
        str(Path(photos[1]["image"])),
        str(SCENE_2),
    ]
    assert "not an image" in photos[1]["error"] and "piles" not in photos[1]
    # said on stderr too, in one line, where the JSON on stdout may go to a file; named as the
    # command's other messages are
    assert result.stderr.count("\n") == 1 and Path(photos[1]["image"]).name in result.stderr
    assert result.stderr.startswith(f"blackcat scan: {photos[1]['image']} is not an image")
    assert "Traceback" not in result.stderr


def test_each_pile_carries_cards_confidences_boxes_and_the_score_fields(scanned) -> None:
    photo = json.loads(scanned[0].stdout)[0]
    assert photo["piles"], "scene 1 holds two piles of cards"
    for pile in photo["piles"]:
        assert all(Card.parse(code).code == code for code in pile["cards"])
        assert pile.keys() >= SCORE_FIELDS
        assert len(pile["confidence"]) == len(pile["boxes"]) == len(pile["cards"])
        assert all(len(box) == 4 for box in pile["boxes"])
    assert photo["total"] == sum(pile["points"] for pile in photo["piles"])


def test_the_score_is_what_blackcat_score_gives_for_the_same_cards(scanned) -> None:
    photo = json.loads(scanned[0].stdout)[2]
    piles = [" ".join(pile["cards"]) for pile in photo["piles"]]
    # two decks: a misread card may repeat one, and `score` would refuse that with one deck
    scored = json.loads(blackcat("score", "--json", "--decks", "2", *piles).stdout)
    assert scored["total"] == photo["total"]
    for read, typed in zip(photo["piles"], scored["piles"], strict=True):
        assert {key: read[key] for key in SCORE_FIELDS} == {key: typed[key] for key in SCORE_FIELDS}


def test_annotate_writes_one_picture_per_readable_photo(scanned) -> None:
    drawn = sorted(path.name for path in (scanned[1] / "drawn").iterdir())
    assert drawn == ["scene_1.annotated.jpg", "scene_2.annotated.jpg"]


def test_the_text_report_names_piles_and_total(tmp_path: Path) -> None:
    out = tmp_path / "one.jpg"
    result = blackcat("scan", "--annotate", out, SCENE_2)
    assert result.returncode == 0, result.stderr
    assert "Pile 1:" in result.stdout and "Total:" in result.stdout
    assert "Pile 0" not in result.stdout  # piles counted from 1, as in the app
    assert out.is_file()


def test_missing_models_are_one_clear_line(tmp_path: Path) -> None:
    result = blackcat("scan", "--models", tmp_path, SCENE_1)
    assert result.returncode == 2
    assert "blackcat train" in result.stderr and "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1
    spanish = blackcat("scan", "--lang", "es", "--models", tmp_path, SCENE_1)
    assert spanish.returncode == 2
    assert spanish.stderr.startswith("blackcat scan: no se encuentran los modelos entrenados: ")


def test_a_damaged_model_is_one_clear_line(tmp_path: Path) -> None:
    models = Path(__file__).resolve().parents[2] / "models"
    for model in models.glob("*.onnx"):
        (tmp_path / model.name).write_bytes(model.read_bytes())
    (tmp_path / "index_detector.onnx").write_bytes(b"cut short")
    result = blackcat("scan", "--json", "--models", tmp_path, SCENE_1)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        "blackcat scan: a trained model can't be loaded (cut short or damaged): "
        f"{tmp_path / 'index_detector.onnx'}; export it again into its folder with `blackcat "
        "export --models DIR`, or leave --models out to use the bundled ones\n"
    )


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("calibration.json", '{"raw": [0, 0.5'),  # cut short
        ("calibration.json", '{"weights": []}'),  # JSON of another shape
        ("table_calibration.json", "[0.4]"),
    ],
)
def test_a_damaged_calibration_is_one_clear_line(tmp_path: Path, name: str, text: str) -> None:
    models = Path(__file__).resolve().parents[2] / "models"
    for model in models.glob("*.onnx"):
        (tmp_path / model.name).write_bytes(model.read_bytes())
    (tmp_path / name).write_text(text)
    result = blackcat("scan", "--json", "--models", tmp_path, SCENE_1)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        "blackcat scan: a calibration file can't be read (damaged, or not as `blackcat "
        f"calibrate` writes it): {tmp_path / name}; restore it from the repository, or remove "
        "it and fit it again with `blackcat calibrate`\n"
    )


@pytest.mark.parametrize(
    ("out", "said"),
    [
        ("drawn.txt", "name the drawing as a picture, such as"),
        ("drawn", "name the drawing as a picture, such as"),
        ("scene_1.jpg", "is one of the photos: name another file"),
    ],
)
def test_a_drawing_that_cannot_go_where_annotate_says_stops_before_reading(
    tmp_path: Path, out: str, said: str
) -> None:
    photo = tmp_path / "scene_1.jpg"
    photo.write_bytes(SCENE_1.read_bytes())
    result = blackcat("scan", "--json", "--annotate", tmp_path / out, photo)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith(f"blackcat scan: --annotate {tmp_path / out}")
    assert said in result.stderr and result.stderr.count("\n") == 1
    assert photo.read_bytes() == SCENE_1.read_bytes()


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_photos_help_names_the_computers_pictures_read_too(language: str) -> None:
    parser = argparse.ArgumentParser()
    tr = translator(language)
    add_arguments(parser, tr)
    said = " ".join(parser.format_help().split())
    assert "GIF" in computer_formats()  # and AVIF where this Pillow reads it
    assert and_list(computer_formats(), tr) in said


def test_an_empty_annotate_is_refused_not_taken_for_the_current_folder(tmp_path: Path) -> None:
    result = blackcat("scan", "--json", "--annotate", "", SCENE_1, cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.splitlines()[-1] == (
        "blackcat scan: error: argument --annotate: an empty name: name the drawing as a "
        "picture, such as annotated.jpg, or name a folder to write it into"
    )
    assert not any(tmp_path.iterdir())  # no drawing in the folder it ran in


def test_one_photos_drawing_goes_into_a_folder_named_by_annotate(tmp_path: Path) -> None:
    result = blackcat("scan", "--json", "--annotate", tmp_path, SCENE_2)
    assert result.returncode == 0, result.stderr
    drawing = tmp_path / "scene_2.annotated.jpg"
    assert json.loads(result.stdout)[0]["annotated"] == str(drawing)
    assert drawing.stat().st_size > 0


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc: a place no one writes")
def test_a_drawing_that_could_not_be_written_says_why_in_the_json() -> None:
    result = blackcat("scan", "--json", "--annotate", "/proc/drawn.jpg", SCENE_2)
    assert result.returncode == 1  # the read counts; the drawing asked for is missing
    (photo,) = json.loads(result.stdout)
    assert photo["total"] >= 0 and "annotated" not in photo
    assert photo["annotate_error"].startswith("--annotate /proc/drawn.jpg: the drawing can't be ")
    assert result.stderr.startswith("blackcat scan: --annotate /proc/drawn.jpg")


def test_a_photo_piped_in_reads_as_its_file_does() -> None:
    piped = subprocess.run(
        [sys.executable, "-m", "blackcat", "scan", "--json", "-"],
        input=EXAMPLE_PHOTO.read_bytes(),
        capture_output=True,
        timeout=300,
    )
    assert piped.returncode == 0, piped.stderr
    (read,) = json.loads(piped.stdout)
    (expected,) = json.loads(blackcat("scan", "--json", EXAMPLE_PHOTO).stdout)
    assert read["image"] == "-" and read["total"] == expected["total"] == 36
    assert [pile["cards"] for pile in read["piles"]] == [
        pile["cards"] for pile in expected["piles"]
    ]


@pytest.mark.parametrize("game", ["black-cat", "black-lady"])
def test_the_photo_piped_in_is_named_once(game: str) -> None:
    # the second "-" found standard input read already, and was called an empty photo
    piped = subprocess.run(
        [sys.executable, "-m", "blackcat", "scan", "--json", "--game", game, "-", "-", "x.jpg"],
        input=EXAMPLE_PHOTO.read_bytes(),
        capture_output=True,
        timeout=300,
    )
    assert (piped.returncode, piped.stdout) == (2, b"")
    assert piped.stderr.decode().startswith("blackcat scan: - (the photo piped in) can be named")


def test_json_stays_valid_on_an_ascii_console_and_for_a_name_that_is_not_utf8(
    tmp_path: Path,
) -> None:
    """A console that can't show ♠ gets JSON that escapes it (`\\u2660`, still JSON) and text
    that writes it as a letter (QS); a file name's bytes that are no UTF-8 are escaped too, where
    they would make stdout invalid UTF-8."""
    ascii_console = {**os.environ, "PYTHONIOENCODING": "ascii"}
    as_usual = blackcat("scan", "--json", EXAMPLE_PHOTO)
    on_ascii = blackcat("scan", "--json", EXAMPLE_PHOTO, env=ascii_console)
    assert on_ascii.returncode == 0, on_ascii.stderr
    assert json.loads(on_ascii.stdout) == json.loads(as_usual.stdout)
    text = blackcat("scan", "--lang", "es", EXAMPLE_PHOTO, env=ascii_console)
    assert text.returncode == 0 and "Traceback" not in text.stderr
    assert "Q\u2660" not in text.stdout and "Q\\u2660" not in text.stdout
    assert "Pila 1: QS 6C QH" in text.stdout  # suits as cards are typed
    named = os.fsencode(tmp_path) + b"/pile\xff.jpg"
    raw = subprocess.run(
        [sys.executable, "-m", "blackcat", "scan", "--json", named, EXAMPLE_PHOTO],
        capture_output=True,
        timeout=300,
    )
    assert raw.returncode == 1
    missing, read = json.loads(raw.stdout.decode("utf-8"))
    assert missing["image"] == os.fsdecode(named) and "no such file" in missing["error"]
    assert read["total"] == 36


def test_a_device_named_as_a_photo_is_refused_in_words() -> None:
    result = blackcat("scan", "--json", os.devnull)
    assert result.returncode == 1
    assert json.loads(result.stdout) == [
        {
            "image": os.devnull,
            "error": f"{os.devnull} is not a photo file (a device or a pipe): name a JPEG, PNG, "
            "WebP or HEIC photo",
        }
    ]


def test_an_empty_name_among_the_photos_is_refused_and_the_others_read() -> None:
    result = blackcat("scan", "--json", "", SCENE_2)
    assert result.returncode == 1
    refused, read = json.loads(result.stdout)
    assert refused == {
        "image": "",
        "error": "an empty name is no photo: name a photo file, such as photo.jpg",
    }
    assert read["image"] == str(SCENE_2) and read["piles"]


def test_json_is_all_of_stdout_on_a_machines_first_run(tmp_path: Path) -> None:
    """A new machine (no settings folders): stdout holds the JSON alone, and the reader runs no
    Ultralytics code, which would create its settings (and its analytics) on a first run."""
    env = {**os.environ, "YOLO_CONFIG_DIR": str(tmp_path), "PYTHONIOENCODING": "utf-8"}
    result = blackcat("scan", "--json", SCENE_2, env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)[0]["image"] == str(SCENE_2)
    assert not (tmp_path / "Ultralytics").exists()


def test_a_photo_named_on_the_command_line_is_its_path_and_an_empty_name_stays_empty() -> None:
    assert photo_source("piles/a.jpg") == Path("piles/a.jpg")
    assert photo_source("") == ""  # Path("") would be ".", the current folder


def test_annotation_names_never_collide() -> None:
    photos = [Path("a/ex.png"), Path("a/ex.heic"), Path("b/ex.png"), Path("a/other.jpg")]
    assert annotation_names(photos) == [
        "ex.png.annotated.jpg",
        "ex.heic.annotated.jpg",
        "ex.png-2.annotated.jpg",
        "other.annotated.jpg",
    ]
    assert annotation_names([Path("x/Ex.JPG"), Path("ex.jpg")]) == [
        "Ex.JPG.annotated.jpg",
        "ex.jpg-2.annotated.jpg",
    ]


def test_two_photos_of_one_stem_get_two_drawings(tmp_path: Path) -> None:
    png = tmp_path / "ex.png"
    png.write_bytes(SCENE_1.read_bytes())  # a JPEG under another name: Pillow reads by content
    jpg = tmp_path / "ex.jpg"
    jpg.write_bytes(SCENE_2.read_bytes())
    out = tmp_path / "drawn"
    result = blackcat("scan", "--json", "--annotate", out, png, jpg)
    assert result.returncode == 0, result.stderr
    drawn = sorted(path.name for path in out.iterdir())
    assert drawn == ["ex.jpg.annotated.jpg", "ex.png.annotated.jpg"]
    assert [photo["annotated"] for photo in json.loads(result.stdout)] == [
        str(out / "ex.png.annotated.jpg"),
        str(out / "ex.jpg.annotated.jpg"),
    ]


def test_each_pile_lists_its_gaps_side_grid_and_row_after_every_field_it_had(scanned) -> None:
    photo = json.loads(scanned[0].stdout)[0]
    for pile in photo["piles"]:
        assert list(pile)[-6:] == [
            "doubtful",
            "alternatives",
            "gaps",
            "side",
            "rows_or_columns",
            "in_no_row",
        ]
        assert pile["gaps"] == []  # scene 1 is read exactly: nothing missing
        assert pile["rows_or_columns"] is False  # its piles lie apart
        assert pile["in_no_row"] is False  # kitty rows


def _read_pile(text: str) -> tuple[ReadCard, ...]:
    return tuple(
        ReadCard(
            card=card,
            box=(10.0 * n, 0.0, 10.0 * n + 8, 20.0),
            confidence=0.99,
            alternatives=(Guess(card, 0.99),),
            indices=(),
        )
        for n, card in enumerate(parse_pile(text))
    )


def test_gaps_go_into_the_json_and_the_text_names_them() -> None:
    piles = (_read_pile("QS 6C 5H"), _read_pile("10S 9H"))
    photo = PhotoRead(width=100, height=100, piles=piles, gaps=((1, 3), ()))
    score = score_player([[read.card for read in pile] for pile in piles])
    result = photo_to_json("x.jpg", photo, score, [])
    assert [pile["gaps"] for pile in result["piles"]] == [[1, 3], []]
    text = _text_report("x.jpg", photo, score, [])
    assert "gap in pile 1: a card may be missing before card 1.2 (6♣)" in text
    assert "gap in pile 1: a card may be missing after the last card (5♥)" in text
    assert "pile 2: a card may" not in text


def test_a_read_without_gaps_gives_empty_lists() -> None:
    photo = PhotoRead(width=100, height=100, piles=(_read_pile("QS 6C"),))
    score = score_player([[read.card for read in photo.piles[0]]])
    assert photo_to_json("x.jpg", photo, score, [])["piles"][0]["gaps"] == []


def test_the_text_counts_piles_and_cards_from_1_as_the_app_and_the_json_from_0() -> None:
    """A person reads `1.2`, as the app and the annotated photo number that card; the JSON
    keeps its positions (from 0) and its warnings' words exactly."""
    doubtful = ReadCard(
        card=parse_pile("2H")[0],
        box=(0.0, 0.0, 8.0, 20.0),
        confidence=0.41,
        alternatives=(Guess(parse_pile("2H")[0], 0.41), Guess(parse_pile("2S")[0], 0.3)),
        indices=(),
        doubtful_below=0.5,
    )
    first = _read_pile("KS 9C")
    piles = ((first[0], doubtful, *_read_pile("QS")), _read_pile("9C 4S"))
    photo = PhotoRead(width=100, height=100, piles=piles)
    score = score_player([[read.card for read in pile] for pile in piles])
    text = _text_report("x.jpg", photo, score, text_warnings(photo))
    assert "check pile 1: 1.2 2♥ (41%; or 2♠)" in text
    assert text.splitlines()[2].startswith("Pile 1: K♠ 2♥ Q♠")
    assert "Pile 2: 9♣ 4♠" in text and "Pile 0" not in text
    assert "Q♠ at 1.3 = " in text
    twice = PhotoRead(width=100, height=100, piles=(_read_pile("KS 9C"), _read_pile("4S KS")))
    twice_score = score_player([[read.card for read in pile] for pile in twice.piles])
    text = _text_report("x.jpg", twice, twice_score, text_warnings(twice))
    assert "warning: K♠ (KS) appears 2 times but one deck has only 1: card 1.1, card 2.2" in text
    json_notes = photo_to_json("x.jpg", twice, twice_score, warnings(twice))["warnings"]
    assert json_notes == [
        "card K♠ (KS) appears 2 times but one deck has only 1: pile 0 position 0, pile 1 position 1"
    ]


def test_each_pile_says_whose_side_it_faces_and_players_come_in_seat_order() -> None:
    piles = (_read_pile("QS 6C 5H"), _read_pile("10S 9H"), _read_pile("KD 10C"), _read_pile("2S"))
    photo = PhotoRead(width=100, height=100, piles=piles, sides=("far", "left", "near", "far"))
    score = score_player([[read.card for read in pile] for pile in piles])
    result = photo_to_json("x.jpg", photo, score, [])
    assert [pile["side"] for pile in result["piles"]] == ["far", "left", "near", "far"]
    points = [pile["points"] for pile in result["piles"]]
    assert result["players"] == [
        {"side": "near", "piles": [2], "points": points[2]},
        {"side": "left", "piles": [1], "points": points[1]},
        {"side": "far", "piles": [0, 3], "points": points[0] + points[3]},
    ]
    assert list(result)[-3:] == ["players", "blurred", "unread_places"]  # after every field
    text = _text_report("x.jpg", photo, score, [])
    assert "near side (the photographer's): pile 3" in text
    assert "left side: pile 2" in text
    assert "far side: piles 1, 4" in text


def test_a_whole_tables_side_with_other_than_two_piles_is_said() -> None:
    piles = tuple(_read_pile(text) for text in ("QS", "10S", "KD", "2S", "3S", "4S"))
    sides = ("near", "near", "far", "far", "far", "left")
    photo = PhotoRead(width=100, height=100, piles=piles, sides=sides)
    assert pile_count_note(photo) == [  # in seat order: near, left, far, right
        "the left side has 1 pile, where a player has two: check that none was split, joined or "
        "missed",
        "the far side has 3 piles, where a player has two: check that none was split, joined or "
        "missed",
    ]
    spanish = pile_count_note(photo, translator("es"))
    assert spanish[1].startswith("el lado de enfrente tiene 3 pilas")
    # one player's photo of one pile, or three, is no whole table: nothing to say
    one_player = PhotoRead(width=100, height=100, piles=piles[:3])
    assert pile_count_note(one_player) == []


def test_a_photo_read_from_its_bottom_is_one_near_player_and_its_text_names_no_side() -> None:
    piles = (_read_pile("QS 6C"), _read_pile("10S 9H"))
    photo = PhotoRead(width=100, height=100, piles=piles)
    score = score_player([[read.card for read in pile] for pile in piles])
    result = photo_to_json("x.jpg", photo, score, [])
    assert result["players"] == [{"side": "near", "piles": [0, 1], "points": score.total}]
    assert "side" not in _text_report("x.jpg", photo, score, [])


@pytest.fixture(scope="module")
def table_photo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from PIL import Image
    from whole_table import a_whole_table

    path = tmp_path_factory.mktemp("table") / "table.jpg"
    Image.fromarray(a_whole_table({"near": SCENE_1, "far": SCENE_2})).save(path, quality=92)
    return path


def test_a_scan_asks_nothing_of_another_machine(tmp_path: Path, table_photo: Path) -> None:
    """Nothing leaves the player's machine: reading photos of one player and of a whole table,
    and drawing them, on a machine's first run, looks up and connects to no other machine
    (`outbound_log` watches the process's sockets). A library's own C++ code could send
    unseen by that watch: what ONNX Runtime would send it first queues in the home folder (a
    device ID and an events database), so the home folder stays as empty as it was."""
    log = tmp_path / "asked.txt"
    home = tmp_path / "home"
    home.mkdir()
    photos = [str(EXAMPLE_PHOTO), str(table_photo)]
    args = ["scan", "--json", "--annotate", str(tmp_path / "drawn"), *photos]
    command, env = blackcat_watched(args, log)
    env = {**env, "HOME": str(home), "YOLO_CONFIG_DIR": str(home)}
    env.pop("ORT_DISABLE_TELEMETRY", None)  # the scan turns it off itself
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    example, table = json.loads(result.stdout)
    assert example["total"] == 36 and len(table["players"]) == 2
    assert addresses_asked(log) == []
    assert list(home.rglob("*")) == []


def test_a_photo_of_the_table_gives_each_side_its_piles_and_points(table_photo: Path) -> None:
    result = blackcat("scan", "--json", table_photo)
    assert result.returncode == 0, result.stderr
    photo = json.loads(result.stdout)[0]
    sides = [pile["side"] for pile in photo["piles"]]
    assert sides == ["near", "near", "far"]
    assert [player["side"] for player in photo["players"]] == ["near", "far"]
    assert [player["piles"] for player in photo["players"]] == [[0, 1], [2]]
    for player in photo["players"]:
        assert player["points"] == sum(photo["piles"][n]["points"] for n in player["piles"])
    # the far player laid one pile: allowed, and said (issue 28)
    assert photo["warnings"] == [
        "the far side has 1 pile, where a player has two: check that none was split, joined or "
        "missed"
    ]


@pytest.fixture(scope="module")
def light_on_dark_photo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from damaged_models import save_light_on_dark

    return save_light_on_dark(EXAMPLE_PHOTO, tmp_path_factory.mktemp("dark") / "dark.jpg")


@pytest.mark.parametrize(
    ("model", "photo"),
    [
        ("table_detector.onnx", "table_photo"),
        ("table_classifier.onnx", "table_photo"),
        ("suit_classifier.onnx", "light_on_dark_photo"),
    ],
)
def test_a_damaged_model_only_some_photos_need_fails_those_photos_in_its_own_words(
    tmp_path: Path, model: str, photo: str, request: pytest.FixtureRequest
) -> None:
    """A model loaded on first use, found cut short when a photo needs it: that photo gets an
    error entry naming the file and what to do (a traceback ended the scan, and the others'
    reads with it); the photos that don't need it read as ever; failed partway: exit 1."""
    from damaged_models import models_with_one_cut_short

    needing = request.getfixturevalue(photo)
    models = models_with_one_cut_short(tmp_path / "models", model)
    result = blackcat("scan", "--json", "--models", models, needing, EXAMPLE_PHOTO)
    assert result.returncode == 1
    unread, example = json.loads(result.stdout)
    said = (
        f"{needing} was not read: a trained model can't be loaded (cut short or damaged): "
        f"{models / model}; export it again into its folder with `blackcat export --models DIR`, "
        "or leave --models out to use the bundled ones"
    )
    assert unread == {"image": str(needing), "error": said}
    assert example["total"] == 36 and "error" not in example
    assert result.stderr == f"blackcat scan: {said}\n"


def test_a_damaged_model_only_some_photos_need_is_said_in_the_chosen_language(
    tmp_path: Path, light_on_dark_photo: Path
) -> None:
    from damaged_models import models_with_one_cut_short

    models = models_with_one_cut_short(tmp_path / "models", "suit_classifier.onnx")
    result = blackcat("scan", "--lang", "es", "--models", models, light_on_dark_photo)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.startswith(f"blackcat scan: {light_on_dark_photo} ")
    assert "no se puede cargar un modelo entrenado (cortado o dañado): " in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_told_one_player_the_table_is_read_as_one_players_piles(table_photo: Path) -> None:
    photo = json.loads(blackcat("scan", "--json", "--players", "1", table_photo).stdout)[0]
    assert len(photo["players"]) == 1


def test_told_more_players_than_the_photo_shows_it_says_so(table_photo: Path) -> None:
    result = blackcat("scan", "--players", "3", table_photo)
    assert result.returncode == 0, result.stderr
    assert "3 players expected, piles found on 2 sides of the table" in result.stdout
    assert "far side: pile 3 (" in result.stdout


@pytest.fixture(scope="module")
def three_players_photo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from PIL import Image
    from whole_table import a_whole_table

    path = tmp_path_factory.mktemp("table") / "three.jpg"
    sides = {"near": SCENE_1, "left": DATA / "scene_3.jpg", "far": SCENE_2}
    Image.fromarray(a_whole_table(sides)).save(path, quality=92)
    return path


def test_told_fewer_players_than_the_photo_shows_it_says_so(three_players_photo: Path) -> None:
    told_two = json.loads(blackcat("scan", "--json", "--players", "2", three_players_photo).stdout)
    told_three = json.loads(
        blackcat("scan", "--json", "--players", "3", three_players_photo).stdout
    )
    note = "2 players expected, piles found on 3 sides of the table: check whose piles they are"
    assert note in told_two[0]["warnings"]
    assert len(told_two[0]["players"]) == 2  # the third side's piles went to a neighbour
    assert [player["side"] for player in told_three[0]["players"]] == ["near", "left", "far"]
    assert not any("players expected" in warning for warning in told_three[0]["warnings"])
    told_one = json.loads(blackcat("scan", "--json", "--players", "1", three_players_photo).stdout)
    assert len(told_one[0]["players"]) == 1
    assert (
        "1 player expected, piles found on 3 sides of the table: check whose piles they are"
        in told_one[0]["warnings"]
    )


def test_the_json_says_whether_each_photo_looks_blurred(scanned) -> None:
    photos = json.loads(scanned[0].stdout)
    assert [photo.get("blurred") for photo in photos] == [False, None, False]
    assert list(photos[0])[-4:] == ["players", "blurred", "unread_places", "annotated"]


def test_a_blurred_photo_with_a_flagged_card_asks_for_a_sharper_photo() -> None:
    piles = (_read_pile("QS 6C 5H"),)
    unsure = (replace(piles[0][0], confidence=0.4), *piles[0][1:])
    blurred = PhotoRead(width=100, height=100, piles=(unsure,), sharpness=1.9)
    assert blurred.blurred and blur_note(blurred) == [BLURRED]
    spanish = blur_note(blurred, translator("es"))
    assert spanish[0].startswith("la foto parece borrosa")
    score = score_player([[read.card for read in unsure]])
    assert photo_to_json("x.jpg", blurred, score, blur_note(blurred))["blurred"] is True


def test_no_blur_note_where_the_blurred_photo_is_read_surely_or_the_photo_is_sharp() -> None:
    piles = (_read_pile("QS 6C 5H"),)
    assert blur_note(PhotoRead(width=100, height=100, piles=piles, sharpness=1.9)) == []
    unsure = ((replace(piles[0][0], confidence=0.4), *piles[0][1:]),)
    assert blur_note(PhotoRead(width=100, height=100, piles=unsure, sharpness=3.5)) == []
    assert blur_note(PhotoRead(width=100, height=100, piles=unsure)) == []  # not measured
    gap = PhotoRead(width=100, height=100, piles=piles, gaps=((1,),), sharpness=1.9)
    assert blur_note(gap) == [BLURRED]


def test_places_too_small_to_read_go_into_the_json_with_a_warning_and_into_the_text() -> None:
    piles = (_read_pile("QS 6C 5H"),)
    places = ((10.04, 20.0, 300.0, 99.96), (400.0, 0.0, 640.0, 80.0))
    photo = PhotoRead(width=640, height=480, piles=piles, unread_places=places)
    assert photo.unsure  # something to check, though every card is sure
    notes = unread_note(photo)
    assert notes == [
        "cards may be missing: 2 places in the photo show card indices too small to read; take "
        "the photo closer, at the camera's full resolution"
    ]
    one = unread_note(replace(photo, unread_places=places[:1]))
    assert one[0].startswith("cards may be missing: 1 place in the photo shows")
    assert unread_note(photo, translator("es"))[0].startswith("puede que falten cartas: 2 lugares")
    score = score_player([[read.card for read in piles[0]]])
    result = photo_to_json("x.jpg", photo, score, notes)
    assert result["unread_places"] == [[10.0, 20.0, 300.0, 100.0], [400.0, 0.0, 640.0, 80.0]]
    assert result["warnings"] == notes
    assert "warning: cards may be missing: 2 places" in _text_report("x.jpg", photo, score, notes)
    assert unread_note(replace(photo, unread_places=())) == []


def test_piles_of_a_grid_say_so_in_the_json_with_a_warning_and_in_the_text() -> None:
    piles = (_read_pile("QS 6C 5H"), _read_pile("10S 9H 2C"), _read_pile("AD"))
    photo = PhotoRead(width=640, height=480, piles=piles, rows_or_columns=(True, True, False))
    notes = grid_note(photo)
    assert notes == [
        "piles 1, 2 lie in a grid of cards overlapping both ways, which reads as rows as well as "
        "columns: check that each pile holds its own cards, or lay the piles apart and take the "
        "photo again"
    ]
    assert grid_note(photo, translator("es"))[0].startswith("las pilas 1, 2 ")
    score = score_player([[read.card for read in pile] for pile in piles])
    result = photo_to_json("x.jpg", photo, score, notes)
    assert [pile["rows_or_columns"] for pile in result["piles"]] == [True, True, False]
    assert result["warnings"] == notes
    assert "warning: piles 1, 2 lie in a grid" in _text_report("x.jpg", photo, score, notes)
    assert grid_note(replace(photo, rows_or_columns=())) == []


def test_piles_in_no_row_say_so_in_the_json_and_in_the_text() -> None:
    piles = (_read_pile("QS 6C 5H"), _read_pile("10S 9H"))
    photo = PhotoRead(width=640, height=480, piles=piles, gaps=((), (1,)), in_no_row=(True, False))
    score = score_player([[read.card for read in pile] for pile in piles])
    result = photo_to_json("x.jpg", photo, score, [])
    assert [pile["in_no_row"] for pile in result["piles"]] == [True, False]
    assert [pile["gaps"] for pile in result["piles"]] == [[], [1]]
    none = photo_to_json("x.jpg", replace(photo, in_no_row=()), score, [])
    assert [pile["in_no_row"] for pile in none["piles"]] == [False, False]
    text = _text_report("x.jpg", photo, score, [])
    assert "pile 1: its cards lie in no row, scattered or fanned: counted, not ordered" in text
    assert "pile 2: its cards lie" not in text
    assert "gap in pile 2: a card may be missing before card 2.2 (9♥)" in text


def test_the_players_note_counts_in_words_one_player_and_one_side() -> None:
    piles = (_read_pile("QS 6C"), _read_pile("10S 9H"))
    two_sides = PhotoRead(width=100, height=100, piles=piles, sides=("near", "far"))
    one_side = PhotoRead(width=100, height=100, piles=piles)
    assert players_note(two_sides, 1) == [
        "1 player expected, piles found on 2 sides of the table: check whose piles they are"
    ]
    assert players_note(one_side, 2) == [
        "2 players expected, piles found on 1 side of the table: check whose piles they are"
    ]
    assert players_note(one_side, 2, translator("es")) == [
        "se esperaban 2 jugadores y hay pilas en 1 lado de la mesa: comprueba de quién son las "
        "pilas"
    ]
    assert players_note(one_side, 1) == players_note(one_side, None) == []
