"""A night of Black Cat on the app's page through `AppTest`: "Next game" keeps the players, the
night's sheet shows every game with the totals and games won, a finished game is opened and
corrected, and the night survives Undo, a reload and the CSV."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from test_streamlit_app import (  # noqa: F401  (fixtures)
    assert_clean,
    button,
    fresh_caches,
    new_game,
    page_text,
    pile_cards,
    player_ids,
    reload,
    start,
    text_input,
    totals,
    type_pile,
)

from blackcat.tables import black_cat_table as ts


@pytest.fixture
def app(tmp_path: Path) -> AppTest:
    return start(tmp_path)


def run(at: AppTest) -> AppTest:
    at.run()
    assert_clean(at)
    return at


def night_rows(at: AppTest) -> dict[str, list[str]]:
    """The night's sheet, a row a player: total, games won, then each game's points."""
    sheet = next(m.value for m in at.markdown if "bl-sheet with-won" in m.value)
    rows = re.findall(r'<th scope="row" class="name">([^<]*)</th>(.*?)</tr>', sheet)
    cell = r'<td[^>]*>([^<]*)(?:<span class="sr">[^<]*</span>)?</td>'  # shown words
    return {name: re.findall(cell, cells) for name, cells in rows}


def has_night_sheet(at: AppTest) -> bool:
    return any("bl-sheet with-won" in m.value for m in at.markdown)


def show_player(at: AppTest, index: int) -> AppTest:
    at.segmented_control(key="player").set_value(player_ids(at)[index])
    return run(at)


def next_game(at: AppTest) -> AppTest:
    button(at, "➕ Next game").click()
    return run(at)


def choose_game(at: AppTest, number: int) -> AppTest:
    at.segmented_control(key="night-game").set_value(number - 1)
    return run(at)


def two_players(at: AppTest) -> AppTest:
    """A new game of Ann and Ben."""
    new_game(at)
    text_input(at, "Name").input("Ann")
    run(at)
    button(at, "➕ Player").click()
    run(at)
    text_input(at, "Name").input("Ben")
    return run(at)


def play(at: AppTest, ann: str, ben: str) -> AppTest:
    """Ann's and Ben's first piles typed in (Ben's page shown at the end)."""
    show_player(at, 0)
    type_pile(at, 1, ann)
    show_player(at, 1)
    return type_pile(at, 1, ben)


def three_games(at: AppTest) -> AppTest:
    two_players(at)
    play(at, "QS 2C 3H 7H", "8D 2H 8H")  # Ann 9, Ben 6
    next_game(at)
    play(at, "5H 5D", "10S 10H KD 10C")  # Ann 3, Ben 11
    next_game(at)
    return play(at, "KS 9C 4S", "7C 3D")  # Ann 12, Ben 3


def test_next_game_keeps_the_players_and_the_night_shows_every_game(app: AppTest) -> None:
    assert not has_night_sheet(app)  # one game: its scoreboard says it all
    # the example is no game of the night: Next game says it makes way, not that it stays
    assert "the example makes way" in button(app, "➕ Next game").help
    three_games(app)
    assert night_rows(app) == {
        "Ann": ["24", "2", "9", "3", "12"],
        "Ben": ["20", "1", "6", "11", "3"],
    }
    assert "Ann leads the night with 24 points after 3 games." in page_text(app)
    assert "The night: 3 games" in page_text(app)
    assert totals(app) == ["### Ben: 3 points"]  # Ben's page stays shown in each new game
    assert [b.label for b in app.button if b.label.startswith("➕ Next")] == ["➕ Next game"]
    assert "this game stays on the night's sheet" in button(app, "➕ Next game").help
    assert not button(app, "Yes, a new night").disabled  # "New game" is now "New night"


def test_a_correction_to_game_1_after_game_3_moves_the_totals(app: AppTest) -> None:
    three_games(app)
    choose_game(app, 1)
    assert "Game 1, finished" in page_text(app)
    assert totals(app) == ["### Ben: 6 points"]  # the same player, in game 1
    assert pile_cards(app, 1) == "8D 2H 8H"
    type_pile(app, 1, "8D 2H 8H 10S 10H KD 10C")  # Ben's pile, corrected
    assert night_rows(app)["Ben"] == ["31", "2", "17", "11", "3"]
    assert night_rows(app)["Ann"][:2] == ["24", "1"]  # game 1 is Ben's now
    assert "Ben leads the night with 31 points after 3 games." in page_text(app)
    choose_game(app, 3)
    assert ", finished" not in page_text(app) and totals(app) == ["### Ben: 3 points"]


def test_a_tap_scores_only_the_game_it_changed(
    app: AppTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    three_games(app)
    scored: list[ts.Table] = []
    score_table = ts.score_table

    def counted(table: ts.Table) -> ts.TableResult:
        scored.append(table)
        return score_table(table)

    monkeypatch.setattr(ts, "score_table", counted)
    type_pile(app, 1, "7C 3D 2S")  # Ben's pile of game 3
    assert len(scored) == 1  # games 1 and 2 kept their scores: a long night's largest cost
    assert night_rows(app)["Ann"] == ["24", "2", "9", "3", "12"]
    scored.clear()
    choose_game(app, 1)
    assert scored == []  # nothing changed


def test_undo_takes_back_next_game_and_a_game_without_cards_has_no_next(app: AppTest) -> None:
    two_players(app)
    play(app, "QS 2C 3H 7H", "8D 2H 8H")
    next_game(app)
    assert has_night_sheet(app) and pile_cards(app, 1) == ""
    next_game(app)  # game 2 has no cards yet: refused, in words
    assert any("Game 2 has no cards yet" in t.value for t in app.toast)
    button(app, "↶ Undo").click()
    run(app)
    assert not has_night_sheet(app) and pile_cards(app, 1) == "8D 2H 8H"


def test_the_night_survives_a_reload_and_its_csv_is_offered(app: AppTest) -> None:
    three_games(app)
    choose_game(app, 2)
    again = reload(app)
    assert night_rows(again) == night_rows(app)
    assert again.segmented_control(key="night-game").value == 1  # game 2 still on screen
    assert totals(again) == ["### Ben: 11 points"]
    assert not button(again, "↶ Undo").disabled  # the undo history came back too
    labels = [d.label for d in again.download_button]
    assert labels[0] == "Night CSV" and "Scoreboard CSV" in labels  # and the game's own


def test_a_rename_follows_the_player_through_the_night(app: AppTest) -> None:
    three_games(app)
    text_input(app, "Name").input("Benny")  # on Ben's page of game 3
    run(app)
    assert list(night_rows(app)) == ["Ann", "Benny"]
    choose_game(app, 1)
    assert totals(app) == ["### Benny: 6 points"]


def test_a_new_night_asks_once_and_clears_every_game(app: AppTest) -> None:
    three_games(app)
    button(app, "Yes, a new night").click()
    run(app)
    assert not has_night_sheet(app)
    assert [pile_cards(app, n) for n in (1, 2)] == ["", ""]
    assert totals(app) == ["### Ann: 0 points"]
    button(app, "↶ Undo").click()
    run(app)
    assert night_rows(app)["Ann"][0] == "24"


def test_how_we_score_says_how_a_night_is_won(app: AppTest) -> None:
    how = next(e for e in app.expander if "How we score" in e.label)
    assert "a tie wins nobody" in "\n".join(m.value for m in how.markdown)


def test_a_long_nights_games_are_chosen_by_their_numbers_alone() -> None:
    """At 32 games "Game N" took eight rows of a phone's screen above the piles."""
    import night_panel
    import sheet_view

    assert [night_panel.game_choice(3, index) for index in range(3)] == [
        "Game 1",
        "Game 2",
        "Game 3",
    ]
    many = sheet_view.NAMED_IN_FULL + 1
    assert [night_panel.game_choice(many, index) for index in (0, many - 1)] == ["1", str(many)]
    import black_lady_page

    assert black_lady_page.deal_choice(3, 1) == "Deal 2"
    assert black_lady_page.deal_choice(many, many - 1) == str(many)  # a long night's deals too
