"""`blackcat lady`: the command-line contract (arguments, JSON, exit status, one-line errors)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from blackcat.cli import main

ANN = "QS AH KH 5H 2H AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS KS AD"  # -68
BEN = (
    "3H 4H 6H 7H 8H 9H 10H JH QH 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AC 3C 4C 5C 6C 7C 8C 9C "
    "10C JC QC KC"
)  # -67


def lady(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["lady", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_json_has_each_player_the_total_and_no_problems(capsys) -> None:
    status, out, err = lady(capsys, "--json", ANN, BEN, "")
    assert status == 0 and not err
    data = json.loads(out)
    assert data == {
        "players": [
            {"cards": ANN.split(), "points": -68, "no_tricks": False},
            {"cards": BEN.split(), "points": -67, "no_tricks": False},
            {"cards": [], "points": 50, "no_tricks": True},
        ],
        "total": -85,
        "problems": [],
    }


def test_cards_are_read_as_blackcat_score_reads_them(capsys) -> None:
    status, out, _ = lady(capsys, "--json", "q♠, ah\tTh", "2c 3C 4c", "5♣,6♣,7♣")
    assert status == 0
    players = json.loads(out)["players"]
    assert players[0]["cards"] == ["QS", "AH", "10H"]
    assert [p["points"] for p in players] == [-61, 0, 0]


def test_the_ace_of_hearts_switch(capsys) -> None:
    _, out, _ = lady(capsys, "--json", "--ace-hearts", "10", ANN, BEN, "")
    data = json.loads(out)
    assert [p["points"] for p in data["players"]] == [-67, -67, 50]
    assert data["total"] == -84
    status, _, err = lady_raises(capsys, "--ace-hearts", "9", ANN, BEN, "")
    assert status == 2 and "--ace-hearts" in err


def lady_raises(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """argparse's own refusals exit through SystemExit."""
    with pytest.raises(SystemExit) as exit_info:
        main(["lady", *args])
    out, err = capsys.readouterr()
    return int(exit_info.value.code or 0), out, err


def test_a_deal_that_fails_a_check_still_scores_and_lists_whose_cards(capsys) -> None:
    ben_misread = BEN.replace("9H", "9D", 1)  # Ben's 9♥ read as a 9♦ that Ben also has
    status, out, _ = lady(capsys, "--json", ANN, ben_misread, "")
    assert status == 0
    data = json.loads(out)
    assert data["players"][1]["points"] == -67 + 9
    assert data["problems"] == [
        "9♦ is in player 2's tricks 2 times: one deck has one; look at player 2's cards",
        "9♥ is in nobody's tricks: look at player 2's cards",
    ]


def test_the_text_report(capsys) -> None:
    status, out, _ = lady(capsys, ANN, BEN[3:], "")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].split()[:4] == ["player", "1", "-68", "18"]
    assert lines[2].split() == ["player", "3", "+50", "no", "trick"]
    assert lines[3].split() == ["Total", "-82"]
    assert "Check these" in out and "3♥ is in nobody's tricks" in out


def test_a_bad_card_exits_2_with_one_line_naming_it(capsys) -> None:
    status, out, err = lady(capsys, "--json", ANN, "QS XX", "")
    assert status == 2 and out == ""
    assert err.count("\n") == 1
    assert "player 2" in err and "'XX'" in err and "(card 2)" in err


@pytest.mark.parametrize("players", [1, 2, 10])
def test_three_to_nine_players(capsys, players: int) -> None:
    status, _, err = lady(capsys, *[""] * players)
    assert status == 2 and err.count("\n") == 1
    assert f"3 to 9 players, got {players}" in err


def test_through_the_installed_command_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "blackcat", "lady", "--json", ANN, BEN, ""],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["total"] == -85
    bad = subprocess.run(
        [sys.executable, "-m", "blackcat", "lady", ANN, "1X", ""],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "'1X'" in bad.stderr
