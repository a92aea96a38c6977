"""A night of Black Cat: game after game by the same players, every game kept (to open, correct
and re-score), the night's totals, games won and CSV."""

from __future__ import annotations

import csv
import io

import pytest

from blackcat.games.black_cat import Variants
from blackcat.games.cards import parse_card, parse_pile
from blackcat.i18n import ENGLISH, translator
from blackcat.tables import black_cat_night as nt
from blackcat.tables import black_cat_table as ts
from blackcat.vision.types import ReadCard


def game(piles: dict[str, tuple[str, str]], variants: Variants | None = None) -> ts.Table:
    """A game of these players with their two piles typed in."""
    return ts.new_table(
        list(piles),
        variants,
        [[parse_pile(text) for text in two] for two in piles.values()],
    )


def play(night: nt.Night, piles: dict[str, tuple[str, str]]) -> nt.Night:
    """The game on screen's piles typed in, player by player (by name)."""
    for player in night.table.players:
        for pile, text in zip(player.piles, piles[player.name], strict=True):
            night = nt.on_table(night, ts.set_cards, pile.id, parse_pile(text))
    return night


GAME_1 = {"Ann": ("QS 2C 3H 7H", "KS 9C 4S"), "Ben": ("8D 2H 8H", "")}  # Ann 21, Ben 6
GAME_2 = {"Ann": ("5H 5D", ""), "Ben": ("10S 10H KD 10C", "")}  # Ann 3, Ben 11
GAME_3 = {"Ann": ("8D 2H", ""), "Ben": ("7C 3D", "")}  # a tie: 3 each


def three_games() -> nt.Night:
    night = nt.Night((game(GAME_1),))
    night = play(nt.next_game(night), GAME_2)
    return play(nt.next_game(night), GAME_3)


def test_next_game_keeps_the_players_and_variants_with_empty_piles() -> None:
    first = game(GAME_1, Variants(lucky_tom=True))
    night = nt.next_game(nt.Night((first,)))
    assert len(night.games) == 2 and night.current == 1 and night.games[0] is first
    table = night.table
    assert [p.name for p in table.players] == ["Ann", "Ben"]
    assert all(len(p.piles) == 2 and not any(pile.slots for pile in p.piles) for p in table.players)
    assert table.variants == Variants(lucky_tom=True)


def test_no_two_games_share_an_id() -> None:
    night = three_games()
    ids = [
        id_
        for table in night.games
        for player in table.players
        for id_ in (player.id, *(pile.id for pile in player.piles))
    ]
    assert len(ids) == len(set(ids))
    night = nt.on_table(night, ts.add_pile, night.table.players[0].id)  # ids from its own block
    assert night.table.players[0].piles[-1].id not in ids
    assert max(ids) < 100_000  # below Black Lady's


def test_a_game_without_cards_has_no_next() -> None:
    night = nt.next_game(nt.Night((game(GAME_1),)))
    with pytest.raises(ts.TableError, match="game 2 has no cards yet"):
        nt.next_game(night)


def test_next_game_after_the_untouched_example_starts_the_first_game() -> None:
    night = nt.next_game(nt.Night((ts.example_table(),)))
    assert len(night.games) == 1 and not night.table.example
    assert [p.name for p in night.table.players] == ["Player 1"]


def test_the_sheet_has_every_game_the_totals_and_the_games_won() -> None:
    score = nt.score_night(three_games())
    assert score.names == ("Ann", "Ben")
    assert score.games == ((21, 6), (3, 11), (3, 3))
    assert score.winners == (("Ann",), ("Ben",), ("Ann", "Ben"))
    assert score.totals == (27, 20)
    assert score.wins == (1, 1)  # the tie of game 3 is won by nobody
    assert score.leaders == ("Ann",)
    assert nt.night_line(score) == "Ann leads the night with 27 points after 3 games."


def test_a_correction_to_a_finished_game_moves_the_totals() -> None:
    night = three_games()
    night = nt.choose_game(night, 0)
    ben_pile = night.table.players[1].piles[0]
    night = nt.on_table(night, ts.replace_card, ben_pile.id, 1, parse_card("2S"))  # 8D 2S 8H
    assert nt.score_night(night).games[2] == (3, 3)  # the other games as they were
    night = nt.on_table(night, ts.set_cards, ben_pile.id, parse_pile("10S 10H KD 10C"))
    score = nt.score_night(night)
    assert score.games[0] == (21, 11) and score.totals == (27, 25)
    second = night.table.players[1].piles[1]
    night = nt.on_table(night, ts.set_cards, second.id, parse_pile("8S 2S 8C 2C 8H"))
    score = nt.score_night(night)
    assert score.games[0] == (21, 23)  # Ben wins game 1 now, and leads the night
    assert score.winners[0] == ("Ben",) and score.wins == (0, 2) and score.totals == (27, 37)
    assert score.leaders == ("Ben",) and night.current == 0 and len(night.games) == 3


def test_a_player_who_joins_later_has_no_points_in_the_games_before() -> None:
    night = nt.next_game(nt.Night((game(GAME_1),)))
    night = nt.on_table(night, ts.add_player, "Cat")
    night = play(night, {**GAME_2, "Cat": ("6S QS 6C", "")})
    score = nt.score_night(night)
    assert score.names == ("Ann", "Ben", "Cat")
    assert score.games == ((21, 6, None), (3, 11, 14))
    assert score.totals == (24, 17, 14) and score.wins == (1, 0, 1)
    text = nt.night_csv(night)
    assert text.splitlines()[1] == "1,21,6,,Ann"


def test_a_newcomer_never_takes_the_points_of_a_player_who_left() -> None:
    numbered = {"Player 1": ("QS 2C", ""), "Player 2": ("", ""), "Player 3": ("10S 10H KD", "")}
    night = nt.next_game(nt.Night((game(numbered),)))
    night = nt.on_table(night, ts.remove_player, night.table.players[2].id)
    night = nt.add_player(night, translator("en"))
    assert [p.name for p in night.table.players] == ["Player 1", "Player 2", "Player 4"]
    score = nt.score_night(night)
    assert score.names[3] == "Player 4" and score.games[0][3] is None and score.totals[3] == 0
    spanish = nt.add_player(night, translator("es"))
    assert spanish.table.players[-1].name == "Jugador 4"  # a name of no game yet


def test_a_player_is_the_same_whatever_the_case_of_their_name() -> None:
    first = game({"ann": ("5H 5D", ""), "Ben": ("AS", "")})
    night = nt.night_of((first, game({"Ann": ("AC", ""), "BEN": ("8D 2H", "")})))
    score = nt.score_night(night)
    assert score.names == ("Ann", "BEN") and score.games == ((3, 0), (0, 3))
    assert score.winners == (("Ann",), ("BEN",)) and score.wins == (1, 1)
    renamed = nt.rename_player(night, night.table.players[0].id, "Anna")
    assert [table.players[0].name for table in renamed.games] == ["Anna", "Anna"]
    assert nt.same_player(night, night.table.players[0].id, 0) == night.games[0].players[0].id


def test_a_rename_renames_the_player_in_every_game() -> None:
    night = three_games()
    night = nt.rename_player(night, night.table.players[1].id, "Benny")
    assert [[p.name for p in table.players] for table in night.games] == [["Ann", "Benny"]] * 3
    assert nt.score_night(night).names == ("Ann", "Benny")
    with pytest.raises(ts.TableError, match="already a player called"):
        nt.rename_player(night, night.table.players[1].id, "ann")


def test_a_player_is_renamed_by_their_id_in_any_game_of_the_night() -> None:
    # a page's name field can be an earlier game's, another phone having started the next one
    night = three_games()
    earlier = night.games[0].players[1].id
    assert earlier not in [player.id for player in night.table.players]
    night = nt.rename_player(night, earlier, "Benny")
    assert [[p.name for p in table.players] for table in night.games] == [["Ann", "Benny"]] * 3
    assert nt.find_player(night, earlier) == night.games[0].players[1]
    removed = nt.on_table(night, ts.remove_player, night.table.players[1].id)
    assert nt.find_player(removed, night.table.players[1].id) is None
    with pytest.raises(ts.TableError, match="no longer at the table"):
        nt.rename_player(removed, night.table.players[1].id, "Ben")


def test_a_game_is_won_only_once_every_player_has_a_card_down() -> None:
    # the first photo of a game made its player the winner, and the night counted it
    night = nt.next_game(nt.Night((game(GAME_1),)))
    first_pile = night.table.players[0].piles[0]
    night = nt.on_table(night, ts.set_cards, first_pile.id, parse_pile("5H 5D"))
    score = nt.score_night(night)
    assert score.winners == (("Ann",), ()) and score.wins == (1, 0)
    ben = night.table.players[1].piles[0]
    night = nt.on_table(night, ts.set_cards, ben.id, parse_pile("AS"))
    assert nt.score_night(night).winners[1] == ("Ann",)


def test_one_player_or_no_cards_wins_nothing() -> None:
    solo = nt.Night((game({"Ann": ("QS 2C 3H 7H", "")}),))
    assert nt.score_night(solo).winners == ((),)
    night = nt.next_game(nt.Night((game(GAME_1),)))
    score = nt.score_night(night)
    assert score.winners == (("Ann",), ()) and score.wins == (1, 0)


def test_a_tie_for_the_lead() -> None:
    ben = {"Ann": ("", ""), "Ben": ("5H 5D", "8D 2H 8H 2D 8C")}  # Ben 15 in game 2
    night = play(nt.next_game(nt.Night((game(GAME_1),))), ben)
    score = nt.score_night(night)
    assert score.totals == (21, 21)
    # Ann has no card down in game 2: one game finished, the second under way
    assert nt.night_line(score) == (
        "Ann and Ben share the lead with 21 points so far, after 1 game; game 2 is under way."
    )


def test_a_one_player_game_is_finished_once_its_player_has_cards() -> None:
    solo = {"Ann": ("QS 2C 3H 7H", "")}
    night = nt.next_game(nt.Night((game(solo),)))
    assert nt.night_line(nt.score_night(play(night, solo))) == (
        "Ann leads the night with 18 points after 2 games."
    )


def test_the_night_counts_the_games_finished_and_names_those_under_way() -> None:
    night = nt.next_game(nt.Night((game(GAME_1),)))  # game 2 just started, nobody's cards in
    assert nt.night_line(nt.score_night(night)) == (
        "Ann leads the night with 21 points so far, after 1 game; game 2 is under way."
    )
    first = nt.choose_game(night, 0)
    empty = nt.on_table(first, ts.set_cards, first.table.players[0].piles[0].id, ())
    ann_out = nt.on_table(empty, ts.set_cards, first.table.players[0].piles[1].id, ())
    spanish = nt.night_line(nt.score_night(ann_out), translator("es"))
    assert spanish.endswith("; las partidas 1 y 2 están en curso.")


def test_the_night_as_csv() -> None:
    rows = list(csv.reader(io.StringIO(nt.night_csv(three_games()))))
    assert rows == [
        ["game", "Ann", "Ben", "winner"],
        ["1", "21", "6", "Ann"],
        ["2", "3", "11", "Ben"],
        ["3", "3", "3", "tie: Ann and Ben"],
        ["total", "27", "20", "Ann"],
        ["won", "1", "1", ""],
    ]
    spanish = list(csv.reader(io.StringIO(nt.night_csv(three_games(), translator("es")))))
    assert spanish[0] == ["partida", "Ann", "Ben", "ganador"]
    assert spanish[3][-1] == "empate: Ann y Ben"
    assert [row[0] for row in spanish[4:]] == ["total", "ganadas"]


def test_choosing_a_game_and_a_new_night() -> None:
    night = three_games()
    assert nt.choose_game(night, 1).table is night.games[1]
    with pytest.raises(ts.TableError):
        nt.choose_game(night, 3)
    ben = night.table.players[1].id
    assert nt.same_player(night, ben, 0) == night.games[0].players[1].id
    fresh = nt.restart(nt.choose_game(night, 0))
    assert len(fresh.games) == 1 and not nt.has_cards(fresh.table)
    assert [p.name for p in fresh.table.players] == ["Ann", "Ben"]


def test_the_same_table_is_the_same_night() -> None:
    night = three_games()
    assert nt.with_table(night, night.table) is night  # no change: nothing for Undo
    ann = night.table.players[0].id
    assert nt.on_table(night, ts.reassign_photo, "no-such-photo", ann) is night


def test_a_night_of_too_many_games_is_refused() -> None:
    with pytest.raises(ts.TableError, match="at most"):
        nt.night_of([game(GAME_1)] * (nt.MAX_GAMES + 1))
    night = nt.night_of([game(GAME_1)] * nt.MAX_GAMES)
    with pytest.raises(ts.TableError, match="at most"):
        nt.next_game(night)


def test_the_example_and_the_game_that_replaces_it_are_named_in_the_players_language() -> None:
    spanish = translator("es")
    example = ts.example_table(tr=spanish)
    assert [player.name for player in example.players] == ["Ejemplo"]
    for after in (
        nt.next_game(nt.Night((example,)), spanish),
        nt.restart(nt.Night((example,)), spanish),
    ):
        assert [player.name for player in after.table.players] == ["Jugador 1"]
    read = ReadCard(parse_card("QS"), (0.0, 0.0, 1.0, 1.0), 0.99, (), ())
    placed = ts.place_photo(example, example.players[0].id, "photo", [[read]], tr=spanish)
    assert [player.name for player in placed.players] == ["Jugador 1"]
    assert [player.name for player in ts.new_game(ts.example_table()).players] == ["Player 1"]


def test_the_players_the_app_named_are_named_in_the_language_switched_to_cards_in_or_not() -> None:
    night = nt.Night((ts.new_table(("Player 1", "Ann", "Player 3"), unnamed=(0, 2)),))
    spanish = nt.named_in(night, translator("es"))
    assert [p.name for p in spanish.table.players] == ["Jugador 1", "Ann", "Jugador 3"]
    assert nt.named_in(spanish, translator("es")) is spanish  # nothing more to rename
    pile = night.table.players[1].piles[0].id
    played = nt.on_table(night, ts.set_cards, pile, parse_pile("5H 5D"))
    again = nt.next_game(played)  # the next game's players are the app's names still
    said = nt.named_in(again, translator("es"))
    assert [[p.name for p in table.players] for table in said.games] == [
        ["Jugador 1", "Ann", "Jugador 3"]
    ] * 2
    assert [p.name for p in nt.named_in(said, ENGLISH).table.players] == [
        "Player 1",
        "Ann",
        "Player 3",
    ]
    taken = nt.Night((ts.new_table(("Player 1", "Jugador 1"), unnamed=(0,)),))  # one typed
    assert [p.name for p in nt.named_in(taken, translator("es")).table.players] == [
        "Player 1",
        "Jugador 1",
    ]


def test_a_name_typed_is_kept_as_typed_in_every_language_even_a_numbered_one() -> None:
    night = nt.add_player(nt.Night((ts.new_table(("Ann",)),)))  # "Player 2", the app's
    assert night.table.players[1].unnamed
    typed = nt.rename_player(night, night.table.players[1].id, "Player 7")
    assert not typed.table.players[1].unnamed
    assert nt.named_in(typed, translator("es")) is typed
    kept = nt.rename_player(night, night.table.players[1].id, " Player 2 ")  # the same name
    assert kept.table.players[1].unnamed
    by_hand = nt.Night((ts.new_table(("Ann", "Player 2")),))
    assert nt.named_in(by_hand, translator("es")) is by_hand


def test_another_phones_night_is_seen_on_this_phones_game_unless_a_game_came_or_went() -> None:
    night = three_games()
    looking_back = nt.choose_game(night, 0)
    changed = nt.on_table(night, ts.set_cards, night.table.players[0].piles[0].id, ())
    kept = nt.seen_from(changed, looking_back)  # another phone's change to the game in play
    assert kept.current == 0 and kept.games == changed.games
    assert nt.seen_from(nt.choose_game(night, 1), night) == night  # it looked back: not here
    following = nt.next_game(night)
    assert nt.seen_from(following, looking_back) is following  # the next game: every phone


def test_an_operation_on_a_pile_or_player_goes_to_the_game_that_holds_them() -> None:
    """A card typed in game 1's pile, sent as game 3 came on screen, goes into game 1 (it was
    made on the game on screen, which has no such pile)."""
    night = three_games()
    first_pile = night.games[0].players[1].piles[0]
    assert nt.game_holding(night, first_pile.id) == 0
    assert nt.game_holding(night, night.table.players[0].id) == 2
    assert nt.game_holding(night, 999_999) is None
    typed = nt.on_game_of(night, first_pile.id, ts.set_cards, first_pile.id, parse_pile("7C"))
    assert typed.current == 2 and typed.games[1:] == night.games[1:]
    assert typed.games[0].pile(first_pile.id).cards == parse_pile("7C")
    lucky = nt.on_game_of(night, None, ts.set_variants, Variants(lucky_tom=True))  # no id
    assert lucky.table.variants.lucky_tom and lucky.games[:2] == night.games[:2]


def test_a_photo_given_in_game_1_is_found_there_as_game_3_is_on_screen() -> None:
    night = three_games()
    ann = night.games[0].players[0].id
    read = ReadCard(parse_card("QS"), (0.0, 0.0, 1.0, 1.0), 0.99, (), ())
    given = nt.on_game_of(night, ann, ts.place_photo, ann, "photo", [[read]])
    assert given.current == 2 and given.games[1:] == night.games[1:]
    assert nt.game_with_photo(given, "photo") == 0
    assert nt.game_with_photo(night, "photo") is None
