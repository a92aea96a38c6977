"""`blackcat scan --game black-lady`: each photo one player's tricks, read as an unordered set and
scored end to end; the JSON extends `blackcat lady --json` with what the reader saw."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from blackcat.cli.photo_output import BLURRED
from blackcat.cli.scan_lady import _text_report, black_cat_options, deal_to_json, tricks_of
from blackcat.games.black_lady import Rules, check_deal
from blackcat.games.cards import parse_card, parse_pile
from blackcat.i18n import translator
from blackcat.vision.image_io import NOT_AN_IMAGE, ImageReadError
from blackcat.vision.types import Guess, PhotoRead, ReadCard

DATA = Path(__file__).resolve().parents[1] / "vision" / "data"
SCENE_2, SCENE_4 = DATA / "scene_2.jpg", DATA / "scene_4.jpg"
# One player's tricks, spread out in three rows: Q♠ -40, A♥ -11, 10♥ -10, 5♥ -5, J♥ -10 = -76.
TRICKS = [["QS", "AH", "10H"], ["5H", "KD", "2C"], ["JH", "9S", "4D"]]
TRICKS_POINTS = -76
DECK = "anglo"  # a deck the models trained on: this tests the pipeline, not the accuracy


def blackcat(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "blackcat", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
    )


def read(code: str, confidence: float = 0.97) -> ReadCard:
    card = parse_card(code)
    return ReadCard(card, (1.0, 2.0, 3.0, 4.0), confidence, (Guess(card, confidence),), ())


@pytest.fixture(scope="module")
def tricks_photo(tmp_path_factory: pytest.TempPathFactory, card_art: None) -> Path:
    """A photo-like picture of the tricks, rendered from card art (skipped where the card art
    can't be had, as the synthetic-data tests are)."""
    from blackcat.workshop.synth.scene import render_piles

    path = tmp_path_factory.mktemp("lady") / "ann.jpg"
    path.write_bytes(render_piles(TRICKS, deck=DECK, imgsz=960, seed=1).jpeg)
    return path


def test_a_photo_of_spread_tricks_is_read_and_scored_end_to_end(tricks_photo: Path) -> None:
    result = blackcat("scan", "--game", "black-lady", "--json", tricks_photo, SCENE_2, SCENE_4)
    assert result.returncode == 0, result.stderr
    deal = json.loads(result.stdout)
    ann = deal["players"][0]
    assert ann["image"] == str(tricks_photo)
    assert sorted(ann["cards"]) == sorted(code for row in TRICKS for code in row)
    assert ann["points"] == TRICKS_POINTS and ann["no_tricks"] is False
    assert len(ann["confidence"]) == len(ann["boxes"]) == len(ann["alternatives"]) == 9
    assert [p["image"] for p in deal["players"]] == [str(tricks_photo), str(SCENE_2), str(SCENE_4)]
    assert deal["total"] == sum(player["points"] for player in deal["players"])
    # the same cards typed give the same points and the same problems, which say to look at
    # the cards typed where the photos' say to look at the photos
    typed = [" ".join(player["cards"]) for player in deal["players"]]
    lady = json.loads(blackcat("lady", "--json", *typed).stdout)
    assert [p["points"] for p in lady["players"]] == [p["points"] for p in deal["players"]]
    assert deal["problems"] and all("photo" in problem for problem in deal["problems"])
    assert lady["problems"] == [
        problem.replace("photos", "cards").replace("photo", "cards") for problem in deal["problems"]
    ]
    assert "Traceback" not in result.stderr


def test_the_text_report_and_the_ace_switch(tricks_photo: Path) -> None:
    result = blackcat(
        "scan", "--game", "black-lady", "--ace-hearts", "10", tricks_photo, SCENE_2, SCENE_4
    )
    assert result.returncode == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert first.startswith(f"player 1: {tricks_photo}: 9 cards")
    assert any(line.split()[:3] == ["player", "1", "-75"] for line in result.stdout.splitlines())


def test_one_photo_per_player_three_to_nine() -> None:
    result = blackcat("scan", "--game", "black-lady", SCENE_2, SCENE_4)
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "blackcat scan: Black Lady needs 3 to 9 players, got 2: give one photo per player"
    )


def test_black_cat_rules_are_refused() -> None:
    result = blackcat("scan", "--game", "black-lady", "--lucky-tom", SCENE_2, SCENE_2, SCENE_4)
    assert result.returncode == 2
    assert "--lucky-tom is a Black Cat rule" in result.stderr
    namespace = argparse.Namespace(decks=2, lucky_tom=False, music_of_the_night=False)
    assert black_cat_options(namespace) == "--decks"
    namespace = argparse.Namespace(decks=1, lucky_tom=False, music_of_the_night=True)
    assert black_cat_options(namespace) == "--music-of-the-night"
    assert black_cat_options(argparse.Namespace(decks=1, lucky_tom=False)) is None


def test_options_of_the_other_game_are_refused() -> None:
    players = blackcat("scan", "--game", "black-lady", "--players", "3", SCENE_2, SCENE_2, SCENE_4)
    assert players.returncode == 2 and players.stdout == ""
    assert players.stderr == (
        "blackcat scan: --players is for a photo of a whole Black Cat table: Black Lady's players "
        "are its photos, one each\n"
    )
    for value in ("10", "11"):  # 11, Black Lady's own, said all the same
        ace = blackcat("scan", "--ace-hearts", value, SCENE_2)
        assert ace.returncode == 2 and ace.stdout == ""
        assert ace.stderr == (
            "blackcat scan: --ace-hearts is a Black Lady rule, not Black Cat's: add --game "
            "black-lady\n"
        )


def test_every_row_of_a_photo_belongs_to_the_same_player() -> None:
    rows = ((read("QS"), read("2H")), (read("KD"),))
    assert [r.card.code for r in tricks_of(PhotoRead(10, 10, rows))] == ["QS", "2H", "KD"]
    assert tricks_of(PhotoRead(10, 10, ())) == ()


def test_the_json_of_a_deal_with_a_photo_that_could_not_be_read() -> None:
    refused = ImageReadError(NOT_AN_IMAGE, name="notes.txt")
    reads = [(read("QS"), read("AH", 0.4), read("3C")), refused, ()]
    tricks = [parse_pile("QS AH 3C"), None, ()]
    data = deal_to_json(["a.jpg", "notes.txt", "c.jpg"], reads, Rules(), check_deal(tricks))
    assert data["players"][0] == {
        "image": "a.jpg",
        "cards": ["QS", "AH", "3C"],
        "points": -51,
        "no_tricks": False,
        "confidence": [0.97, 0.4, 0.97],
        "boxes": [[1.0, 2.0, 3.0, 4.0]] * 3,
        "doubtful": [False, True, False],
        "alternatives": [
            [{"card": "QS", "probability": 0.97}],
            [{"card": "AH", "probability": 0.4}],
            [{"card": "3C", "probability": 0.97}],
        ],
        "blurred": False,
        "unread_places": [],
    }
    english = "notes.txt is not an image we can read: use a JPEG, PNG, WebP or HEIC photo"
    assert data["players"][1] == {"image": "notes.txt", "error": english}
    assert data["players"][2]["no_tricks"] is True and data["players"][2]["points"] == 50
    assert data["total"] == -1
    assert data["problems"] == []  # nothing is wrong yet, and player 2 isn't read


def test_with_json_a_photo_that_could_not_be_read_is_said_on_stderr_too(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not a photo")
    result = blackcat("scan", "--game", "black-lady", "--json", SCENE_2, notes, SCENE_4)
    assert result.returncode == 1
    deal = json.loads(result.stdout)  # stdout holds the JSON alone
    assert deal["players"][1]["image"] == str(notes) and "error" in deal["players"][1]
    # stdout may go to a file: the person still hears which photo, in one line
    assert result.stderr == (
        f"blackcat scan: {notes} is not an image we can read: use a JPEG, PNG, WebP or HEIC photo\n"
    )


def test_a_damaged_model_only_some_photos_need_fails_those_photos_in_its_own_words(
    tmp_path: Path,
) -> None:
    """The suit classifier cut short, found so when a light-on-dark photo needs it: that seat's
    photo is not read, said as a photo that can't be read is (a traceback ended the scan)."""
    from damaged_models import models_with_one_cut_short, save_light_on_dark

    models = models_with_one_cut_short(tmp_path / "models", "suit_classifier.onnx")
    dark = save_light_on_dark(SCENE_2, tmp_path / "dark.jpg")
    result = blackcat(
        "scan", "--game", "black-lady", "--json", "--models", models, dark, SCENE_2, SCENE_4
    )
    assert result.returncode == 1
    said = (
        f"{dark} was not read: a trained model can't be loaded (cut short or damaged): "
        f"{models / 'suit_classifier.onnx'}; export it again into its folder with `blackcat "
        "export --models DIR`, or leave --models out to use the bundled ones"
    )
    deal = json.loads(result.stdout)
    assert deal["players"][0] == {"image": str(dark), "error": said}
    assert all("cards" in player for player in deal["players"][1:])
    assert result.stderr == f"blackcat scan: {said}\n"
    text = blackcat("scan", "--game", "black-lady", "--models", models, dark, SCENE_2, SCENE_4)
    assert text.stdout.splitlines()[0] == f"player 1: {said}"
    assert (text.returncode, text.stderr) == (1, "")


def test_the_text_of_a_photo_that_could_not_be_read_names_it_once_in_the_language() -> None:
    reads = [(read("QS"),), ImageReadError(NOT_AN_IMAGE, name="notes.txt"), (read("3C"),)]
    images = ["a.jpg", "notes.txt", "c.jpg"]
    english = _text_report(images, reads, Rules(), []).splitlines()[1]
    assert english == (
        "player 2: notes.txt is not an image we can read: use a JPEG, PNG, WebP or HEIC photo"
    )
    spanish = _text_report(images, reads, Rules(), [], translator("es")).splitlines()[1]
    assert spanish.endswith(
        ": notes.txt no es una imagen que podamos leer: usa una foto JPEG, PNG, WebP o HEIC"
    )
    assert spanish.count("notes.txt") == 1


def test_a_photo_with_no_card_found_says_it_counts_as_no_trick() -> None:
    reads = [(read("QS"),), (), (read("3C"),)]
    lines = _text_report(["a.jpg", "b.jpg", "c.jpg"], reads, Rules(), []).splitlines()
    assert lines[1] == (
        "player 2: b.jpg: 0 cards; no card found, so no trick taken (+50): if player 2 took "
        "tricks, photograph them again, spread out"
    )
    assert "no card found" not in lines[0] + lines[2]
    spanish = _text_report(["a.jpg", "b.jpg", "c.jpg"], reads, Rules(), [], translator("es"))
    assert "+50" in spanish.splitlines()[1] and "no card found" not in spanish


def test_a_blurred_photo_is_said_and_asks_for_a_sharper_one_where_a_card_is_unsure() -> None:
    reads = [(read("QS"), read("AH", 0.4)), (read("3C"),), (read("KD"),)]
    tricks = [parse_pile("QS AH"), parse_pile("3C"), parse_pile("KD")]
    data = deal_to_json(["a.jpg", "b.jpg", "c.jpg"], reads, Rules(), check_deal(tricks), {0, 2})
    assert [player["blurred"] for player in data["players"]] == [True, False, True]
    text = _text_report(["a.jpg", "b.jpg", "c.jpg"], reads, Rules(), [], sharper_wanted={0})
    first, second, *_ = text.splitlines()
    assert BLURRED in first and BLURRED not in second
    spanish = _text_report(
        ["a.jpg", "b.jpg", "c.jpg"], reads, Rules(), [], translator("es"), sharper_wanted={0}
    )
    assert translator("es").gettext(BLURRED) in spanish.splitlines()[0]
    assert translator("es").gettext(BLURRED) != BLURRED


def test_photos_of_one_name_get_a_drawing_each(tmp_path: Path) -> None:
    """`--annotate DIR` with photos of one stem (and one name in two folders): a drawing each,
    named in each player's JSON entry."""
    photos = [tmp_path / "ex.png", tmp_path / "ex.jpg", tmp_path / "b" / "ex.png"]
    photos[2].parent.mkdir()
    for photo, scene in zip(photos, (SCENE_2, SCENE_4, SCENE_2), strict=True):
        photo.write_bytes(scene.read_bytes())  # a JPEG under any name: Pillow reads by content
    out = tmp_path / "drawn"
    result = blackcat("scan", "--game", "black-lady", "--json", "--annotate", out, *photos)
    assert result.returncode == 0, result.stderr
    names = ["ex.png.annotated.jpg", "ex.jpg.annotated.jpg", "ex.png-2.annotated.jpg"]
    assert sorted(path.name for path in out.iterdir()) == sorted(names)
    deal = json.loads(result.stdout)
    assert [player["annotated"] for player in deal["players"]] == [str(out / n) for n in names]


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc: a place no one writes")
def test_drawings_that_could_not_be_written_say_why_in_the_json() -> None:
    photos = [SCENE_2, SCENE_4, SCENE_2]
    result = blackcat("scan", "--game", "black-lady", "--json", "--annotate", "/proc", *photos)
    assert result.returncode == 1  # the deal counts; the drawings asked for are missing
    deal = json.loads(result.stdout)
    for player in deal["players"]:
        assert "annotated" not in player
        assert player["annotate_error"].startswith("--annotate /proc/")


def test_a_photo_with_places_too_small_to_read_asks_for_a_closer_one() -> None:
    reads = [(read("QS"),), (read("3C"),), (read("KD"),)]
    tricks = [parse_pile("QS"), parse_pile("3C"), parse_pile("KD")]
    place = (10.0, 20.0, 110.0, 60.0)
    data = deal_to_json(
        ["a.jpg", "b.jpg", "c.jpg"], reads, Rules(), check_deal(tricks), (), {1: (place,)}
    )
    assert [player["unread_places"] for player in data["players"]] == [[], [list(place)], []]
    photo = PhotoRead(width=200, height=100, piles=(reads[1],), unread_places=(place,))
    text = _text_report(["a.jpg", "b.jpg", "c.jpg"], reads, Rules(), [], closer_wanted={1: photo})
    first, second, *_ = text.splitlines()
    assert "cards may be missing: 1 place" in second and "may be missing" not in first
