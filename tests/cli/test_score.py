"""`blackcat score` end to end, through a subprocess as a person would run it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from blackcat.games.cards import ALL_CARDS

RULES_PILES = ["8D 2H 8H 10S 6C AH 3D 7D", "KS 9C 4S"]
HEAVY_MODULES = ("torch", "ultralytics", "cv2", "streamlit")


def blackcat_score(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "blackcat", "score", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        env={**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})},
        timeout=60,
        check=False,
    )


def score_json(*args: str) -> dict:
    result = blackcat_score("--json", *args)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


# ---------------------------------------------------------------------------------------------
# Text report


def test_text_report_lists_features_queens_and_totals() -> None:
    result = blackcat_score(*RULES_PILES, "6S QS 6C", "--decks", "2")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Pile 1: 8♦ 2♥ 8♥ 10♠ 6♣ A♥ 3♦ 7♦" in out and "Pile 0" not in out
    assert "Tomcat" in out and "8♦ 2♥" in out
    assert "Yowler" in out and "Jellical Cat" in out
    assert "Black Cat" in out and "K♠ 9♣ 4♠" in out
    assert "Q♠ at 3.2 = 7" in out  # pile 3, card 2: counted from 1, as in the app
    assert "Pile points: 10" in out and "Pile points: 12" in out and "Pile points: 14" in out
    assert out.rstrip().endswith("Total: 36")
    assert result.stderr == ""


def test_cards_typed_without_quotes_get_a_note_on_stderr_and_the_same_scores() -> None:
    # each argument is a pile: QS 6C QH unquoted is three piles of one card, 0 points (helper-63)
    result = blackcat_score("QS", "6C", "QH", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["total"] == 0  # stdout is the JSON alone, as before
    assert 'put them in quotes: "QS 6C QH"' in result.stderr
    assert blackcat_score("QS 6C QH", "5H").stderr == ""  # quoted: nothing to say
    assert blackcat_score("QS", "5H").stderr == ""  # two piles of one card: a player's two


def test_text_report_shows_pins_ties_and_empty_piles() -> None:
    result = blackcat_score("QS 2C 3H", "QC QH", "", "--queen", "0:0=7")
    assert result.returncode == 0, result.stderr
    assert "Q♠ at 1.1 = 7 (pinned)" in result.stdout  # --queen counts from 0, the text from 1
    assert "Q♣ at 2.1 = 7 (either value scores the same)" in result.stdout
    assert "Pile 3: (empty)" in result.stdout


def test_text_report_falls_back_to_codes_on_an_ascii_console() -> None:
    result = blackcat_score(*RULES_PILES, env={"PYTHONIOENCODING": "ascii"})
    assert result.returncode == 0, result.stderr
    assert "Pile 1: 8D 2H 8H 10S 6C AH 3D 7D" in result.stdout
    assert "Total: 22" in result.stdout


# ---------------------------------------------------------------------------------------------
# JSON


def test_json_has_exactly_the_documented_shape() -> None:
    assert score_json("6S QS 6C", "QS 2C 3H 7H", "", "--decks", "2") == {
        "piles": [
            {
                "cards": ["6S", "QS", "6C"],
                "queens": {"1": 7},
                "features": [
                    {"kind": "jellical", "positions": [1], "cards": ["QS"], "points": 2},
                    {"kind": "black_cat", "positions": [0, 1], "cards": ["6S", "QS"], "points": 6},
                    {"kind": "black_cat", "positions": [1, 2], "cards": ["QS", "6C"], "points": 6},
                ],
                "counts": {"tomcat": 0, "yowler": 0, "jellical": 1, "black_cat": 2},
                "points": 14,
            },
            {
                "cards": ["QS", "2C", "3H", "7H"],
                "queens": {"0": 11},
                "features": [
                    {"kind": "tomcat", "positions": [2, 3], "cards": ["3H", "7H"], "points": 3},
                    {"kind": "black_cat", "positions": [0, 1], "cards": ["QS", "2C"], "points": 6},
                ],
                "counts": {"tomcat": 1, "yowler": 0, "jellical": 0, "black_cat": 1},
                "points": 9,
            },
            {
                "cards": [],
                "queens": {},
                "features": [],
                "counts": {"tomcat": 0, "yowler": 0, "jellical": 0, "black_cat": 0},
                "points": 0,
            },
        ],
        "total": 23,
    }


def test_json_accepts_every_card_form() -> None:
    result = score_json("q♠, 10h,Td 4♣")
    assert result["piles"][0]["cards"] == ["QS", "10H", "10D", "4C"]


def test_rules_examples_through_the_cli() -> None:
    result = score_json(*RULES_PILES)
    assert [pile["points"] for pile in result["piles"]] == [10, 12]
    assert result["total"] == 22


# ---------------------------------------------------------------------------------------------
# Pins and variants


def test_queen_pin_changes_the_choice() -> None:
    assert score_json("QS 2C 3H 7H")["piles"][0]["queens"] == {"0": 11}
    pinned = score_json("QS 2C 3H 7H", "--queen", "0:0=7")
    assert pinned["piles"][0]["queens"] == {"0": 7}
    assert pinned["total"] == 3


@pytest.mark.parametrize(
    "args",
    [
        ["--queen", "0:0=7", "--queen", "1:1=7", "QS 2C", "3H QC 2S"],
        ["QS 2C", "3H QC 2S", "--queen", "0:0=7", "--queen", "1:1=7"],
        ["--queen", "0:0=7,1:1=7", "QS 2C", "3H QC 2S"],
        ["--queen", "0:0=7 1:1=7", "QS 2C", "3H QC 2S"],
        ["--queen=0:0=7", "--queen=1:1=7", "QS 2C", "3H QC 2S"],
    ],
    ids=["before", "after", "comma", "space", "equals"],
)
def test_several_pins_in_every_form(args: list[str]) -> None:
    result = score_json(*args)
    assert [pile["queens"] for pile in result["piles"]] == [{"0": 7}, {"1": 7}]
    assert [pile["cards"] for pile in result["piles"]] == [["QS", "2C"], ["3H", "QC", "2S"]]


def test_repeating_the_same_pin_is_fine() -> None:
    result = score_json("QS 2C", "--queen", "0:0=7", "--queen", "0:0=7")
    assert result["piles"][0]["queens"] == {"0": 7}


def test_lucky_tom_switch() -> None:
    assert score_json("5H 5D")["total"] == 3
    assert score_json("5H 5D", "--lucky-tom")["total"] == 5


def test_music_of_the_night_switch() -> None:
    assert score_json("10S 10H KD 10C")["total"] == 11
    assert score_json("10S 10H KD 10C", "--music-of-the-night")["total"] == 17


def test_two_decks_allow_a_card_twice() -> None:
    assert score_json("KS 9C 4S", "KS 9C 4S", "--decks", "2")["total"] == 24


# ---------------------------------------------------------------------------------------------
# Bad input: exit 2, one line naming the problem, never a traceback


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["QS ZZ 4C"], ["'ZZ'", "(card 2)", "pile 1:", "QS"]),
        (["QS", "4C 1H"], ["'1H'", "pile 2:", "(card 2)"]),
        (["KS 9C", "9C"], ["9♣ (9C)", "2 times", "card 1.2, card 2.1", "--decks 2"]),
        (["QS QS", "QS", "--decks", "2"], ["Q♠ (QS)", "3 times", "2 decks have only 2"]),
        (["QS", "--queen", "0-0=7"], ["'0-0=7'", "PILE:POSITION=VALUE"]),
        (["QS", "--queen", "0:0"], ["'0:0'", "PILE:POSITION=VALUE"]),
        (["QS", "--queen", "-1:0=11"], ["'-1:0=11'", "PILE:POSITION=VALUE"]),  # not argparse's
        (["QS", "--queen", ""], ["empty --queen", "PILE:POSITION=VALUE"]),
        (["QS 2C", "--queen", "0:1=7"], ["0:1=7", "2♣ (2C), not a Queen"]),
        (["QS 2C", "--queen", "0:5=7"], ["0:5=7", "outside the pile", "positions 0-1"]),
        (["QS 2C", "--queen", "3:0=7"], ["3:0=7", "no pile 3", "the only pile is 0"]),
        (["QS 2C", "", "--queen", "3:0=7"], ["3:0=7", "no pile 3", "piles are 0-1"]),
        (["QS", "--queen", "0:1=7"], ["0:1=7", "outside the pile", "(1 card, position 0)"]),
        (["QS 2C", "--queen", "0:0=9"], ["0:0=9", "7 or 11"]),
        (["QS 2C", "--queen", "0:0=7", "--queen", "0:0=11"], ["0:0=11", "contradicts", "0:0=7"]),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], expected: list[str]) -> None:
    result = blackcat_score(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("blackcat score: error: ")
    for text in expected:
        assert text in lines[0]


def test_bad_input_on_an_ascii_console_is_still_one_line() -> None:
    result = blackcat_score("KS 9C", "9C", env={"PYTHONIOENCODING": "ascii"})
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "(9C)" in result.stderr


@pytest.mark.parametrize("args", [["--decks", "3", "QS"], [], ["--bogus", "QS"]])
def test_usage_errors_exit_2(args: list[str]) -> None:
    result = blackcat_score(*args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


# ---------------------------------------------------------------------------------------------
# Starts fast: no vision stack


def test_score_does_not_import_the_vision_stack() -> None:
    program = (
        "import json, sys\n"
        "from blackcat.cli import main\n"
        f"code = main(['score', '--json', {RULES_PILES[0]!r}])\n"
        f"heavy = sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY_MODULES!r}))\n"
        "print(json.dumps({'code': code, 'heavy': heavy}), file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=False
    )
    report = json.loads(result.stderr.strip().splitlines()[-1])
    assert report == {"code": 0, "heavy": []}


def test_score_import_time_has_no_vision_stack() -> None:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "blackcat", "score", "QS 2C"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0
    imported = {line.split("|")[-1].strip() for line in result.stderr.splitlines() if "|" in line}
    # importlib.import_module (how cli.py loads score_cli) isn't logged; what it imports is.
    assert "blackcat.games.black_cat" in imported
    assert not {name for name in imported if name.split(".")[0] in HEAVY_MODULES}


def test_many_cards_too_often_are_counted_past_the_first_three() -> None:
    two_decks = " ".join(card.code for card in ALL_CARDS * 2)
    result = blackcat_score(two_decks)
    assert result.returncode == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith("blackcat score: error: A♠ (AS) appears 2 times but one deck has only 1")
    assert line.endswith("; and 49 cards more (misread card? with two decks use --decks 2)")
    assert blackcat_score(two_decks, "--decks", "2").returncode == 0
