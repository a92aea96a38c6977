"""Undo on one phone of a shared game: this phone's change taken back, another phone's change
made since kept; refused where the two touched the same part of the game."""

from __future__ import annotations

from blackcat.games.cards import parse_pile
from blackcat.tables import black_cat_night as nt
from blackcat.tables import black_cat_table as ts
from blackcat.tables import black_lady_table as lt
from blackcat.tables.taking_back import take_back


def two_players() -> ts.Table:
    return ts.new_table(
        ("Ann", "Ben"), piles=[[parse_pile("5C 6C"), parse_pile("QH")], [parse_pile("2S"), ()]]
    )


def pile_ids(table: ts.Table, player: int) -> list[int]:
    return [pile.id for pile in table.players[player].piles]


def test_with_no_change_since_undo_goes_back_to_the_game_before() -> None:
    before = two_players()
    after = ts.set_cards(before, pile_ids(before, 0)[0], parse_pile("5C 6C 7C"))
    assert take_back(after, before, after) is before


def test_a_change_in_another_pile_since_stays() -> None:
    before = two_players()
    mine = ts.set_cards(before, pile_ids(before, 0)[0], parse_pile("5C 6C 7C"))
    now = ts.set_cards(mine, pile_ids(mine, 1)[0], parse_pile("2S 9H"))  # another phone's
    back = take_back(now, before, mine)
    assert back is not None
    assert back.players[0].piles[0].cards == parse_pile("5C 6C")  # this phone's 7♣ gone
    assert back.players[1].piles[0].cards == parse_pile("2S 9H")  # the other phone's 9♥ kept


def test_a_change_to_the_same_pile_since_is_not_taken_back() -> None:
    before = two_players()
    mine = ts.set_cards(before, pile_ids(before, 0)[0], parse_pile("5C 6C 7C"))
    now = ts.set_cards(mine, pile_ids(mine, 0)[0], parse_pile("5C 6C 7C 8C"))
    assert take_back(now, before, mine) is None


def test_a_player_added_here_goes_and_a_pile_added_there_keeps_its_id() -> None:
    before = two_players()
    mine = ts.add_player(before, "Cy")
    now = ts.add_pile(mine, mine.players[0].id)  # another phone's pile, a fresh id
    back = take_back(now, before, mine)
    assert back is not None
    assert [p.name for p in back.players] == ["Ann", "Ben"]
    assert pile_ids(back, 0) == pile_ids(now, 0)  # the other phone's pile stays
    assert back.next_id == now.next_id  # no id given out twice


def test_a_player_added_here_and_changed_there_stays() -> None:
    before = two_players()
    mine = ts.add_player(before, "Cy")
    cy = mine.players[2]
    now = ts.set_cards(mine, cy.piles[0].id, parse_pile("KD"))
    assert take_back(now, before, mine) is None


def test_a_removed_player_comes_back_beside_another_phones_change() -> None:
    before = two_players()
    mine = ts.remove_player(before, before.players[1].id)
    now = ts.rename_player(mine, mine.players[0].id, "Anna")
    back = take_back(now, before, mine)
    assert back is not None
    assert [p.name for p in back.players] == ["Anna", "Ben"]


def test_a_next_game_taken_back_while_the_other_phone_changed_the_first() -> None:
    night = nt.night_of([two_players()])
    mine = nt.next_game(night)
    first = mine.games[0]
    now = nt.night_of(
        [ts.set_cards(first, pile_ids(first, 1)[0], parse_pile("2S 3S")), mine.games[1]],
        current=1,
    )
    back = take_back(now, night, mine)
    assert back is not None and len(back.games) == 1 and back.current == 0
    assert back.games[0].players[1].piles[0].cards == parse_pile("2S 3S")
    # the new game's cards, typed on the other phone, would go with it: not taken back
    new = mine.games[1]
    typed = nt.night_of(
        [first, ts.set_cards(new, pile_ids(new, 0)[0], parse_pile("KD"))], current=1
    )
    assert take_back(typed, night, mine) is None


def test_black_lady_marks_of_no_trick_are_taken_back_one_by_one() -> None:
    game = lt.new_game()
    mine = lt.mark_no_tricks(game, 0, True)
    now = lt.mark_no_tricks(mine, 1, True)  # another phone's mark
    back = take_back(now, game, mine)
    assert back is not None
    seats = back.deal.table.players
    assert back.deal.no_tricks == {seats[1].id}
