"""What an Undo did, in words: one card, a player, a name, a game or deal, or whose piles; and
what another phone changed in a shared game."""

from __future__ import annotations

from dataclasses import replace

from blackcat.games.black_cat import Variants
from blackcat.games.cards import parse_card, parse_pile
from blackcat.i18n import translator
from blackcat.tables import black_cat_night as nt
from blackcat.tables import black_cat_table as ts
from blackcat.tables import black_lady_table as lt
from blackcat.tables.changes import (
    lady_changed,
    lady_started_anew,
    lady_undone,
    night_changed,
    night_started_anew,
    night_undone,
    table_changed,
    table_undone,
)
from blackcat.vision.types import ReadCard


def two_players() -> ts.Table:
    return ts.new_table(
        ("Ann", "Ben"),
        piles=[
            [parse_pile("5C 6C 7C"), parse_pile("QH")],
            [parse_pile("2S 3S"), ()],
        ],
    )


def read_card(code: str) -> ReadCard:
    return ReadCard(parse_card(code), (0.0, 0.0, 10.0, 20.0), 0.99, (), ())


def pile_id(table: ts.Table, player: int, pile: int) -> int:
    return table.players[player].piles[pile].id


def test_a_changed_card_is_named_with_its_number_and_player() -> None:
    before = two_players()
    after = ts.replace_card(before, pile_id(before, 0, 0), 1, parse_card("3C"))
    assert table_undone(before, after) == "Card 1.2 of Ann is 6♣ again."


def test_a_card_moved_in_a_pile_is_back_in_its_place() -> None:
    before = two_players()
    after = ts.move_card(before, pile_id(before, 0, 0), 0, 2)
    assert table_undone(before, after) == "5♣ is back in its place: card 1.1 of Ann."


def test_a_card_moved_to_the_players_other_pile_is_back_in_its_place() -> None:
    before = two_players()
    after = ts.move_card_to_pile(before, pile_id(before, 0, 0), 2, pile_id(before, 0, 1))
    assert table_undone(before, after) == "7♣ is back in its place: card 1.3 of Ann."


def test_a_deleted_card_is_back_and_an_added_card_out_again() -> None:
    before = two_players()
    deleted = ts.delete_card(before, pile_id(before, 1, 0), 0)
    assert table_undone(before, deleted) == "2♠ is back: card 1.1 of Ben."
    added = ts.insert_card(before, pile_id(before, 1, 1), 0, parse_card("KD"))
    assert table_undone(before, added) == "K♦ is taken out again (it was card 2.1 of Ben)."


def test_a_pile_given_to_another_player_names_both_players_piles() -> None:
    before = two_players()
    after = ts.give_pile(before, pile_id(before, 0, 0), before.players[1].id)
    assert table_undone(before, after) == "The piles of Ann and Ben are as they were."
    one_card = ts.give_pile(before, pile_id(before, 0, 1), before.players[1].id)
    assert table_undone(before, one_card) == "Q♥ is back: card 2.1 of Ann."


def test_a_pin_a_confirmed_card_and_a_dismissed_gap_are_named() -> None:
    before = two_players()
    pinned = ts.pin_queen(before, pile_id(before, 0, 1), 0, 7)
    assert table_undone(before, pinned) == "Q♥ (card 2.1 of Ann) counts as it did."
    confirmed = ts.confirm_card(before, pile_id(before, 1, 0), 1)
    assert table_undone(before, confirmed) == "3♠ (card 1.2 of Ben) is to be checked again."
    gapped = ts._set_gaps(before, pile_id(before, 0, 0), (3,))
    dismissed = ts.dismiss_gap(gapped, pile_id(before, 0, 0), 3)
    assert table_undone(gapped, dismissed) == (
        "The mark of a card that may be missing is back in pile 1 of Ann."
    )
    both = ts.confirm_card(pinned, pile_id(before, 1, 0), 1)  # two players' changes
    assert table_undone(before, both) == "The piles of Ann and Ben are as they were."


def test_players_back_gone_renamed_and_rules() -> None:
    before = two_players()
    removed = ts.remove_player(before, before.players[1].id)
    assert table_undone(before, removed) == "Ben is back at the table."
    added = ts.add_player(before, tr=translator("en"))
    newcomer = added.players[-1].name
    assert table_undone(before, added) == f"{newcomer} is off the table again."
    renamed = ts.rename_player(before, before.players[0].id, "Bea")
    assert table_undone(before, renamed) == "Bea is called Ann again."
    ruled = ts.set_variants(before, Variants(decks=2))
    assert table_undone(before, ruled) == "The rules are as they were."
    assert table_undone(before, before) == "The last change is undone."


def test_said_in_spanish() -> None:
    before = two_players()
    after = ts.replace_card(before, pile_id(before, 0, 0), 1, parse_card("3C"))
    assert table_undone(before, after, translator("es")) == "La carta 1.2 de Ann vuelve a ser 6♣."
    removed = ts.remove_player(before, before.players[1].id)
    assert table_undone(before, removed, translator("es")) == "Ben vuelve a la mesa."


def test_a_night_says_which_game_is_back() -> None:
    played = nt.night_of([two_players()])
    following = nt.next_game(played)
    assert night_undone(played, following) == "Game 1 is back on screen."
    two = nt.night_of([two_players(), two_players()])
    assert night_undone(two, nt.choose_game(two, 0)) == "Game 2 is back on screen."
    assert night_undone(two, nt.restart(two)) == "The night's 2 games are back."
    card = nt.on_table(two, ts.delete_card, pile_id(two.table, 0, 0), 2)
    assert night_undone(two, card) == "7♣ is back: card 1.3 of Ann."


def lady_game() -> lt.LadyGame:
    game = lt.new_game(("Ann", "Ben", "Cy"))
    game = lt.set_tricks(game, 0, parse_pile("QS AH"))
    return lt.set_tricks(game, 1, parse_pile("2H 3H"))


def test_a_lady_game_says_deals_marks_and_tricks() -> None:
    game = lady_game()
    following = lt.next_deal(game)
    assert lady_undone(game, following) == "Deal 1 is back on screen."
    assert lady_undone(following, lt.remove_deal(following, 0)) == (
        "Deal 1 is back on the score sheet."
    )
    two_deals = lt.set_tricks(following, 0, parse_pile("KH"))
    assert lady_undone(two_deals, lt.restart(two_deals)) == "The game's 2 deals are back."
    marked = lt.mark_no_tricks(game, 2, True)
    assert lady_undone(game, marked) == "The “no trick” mark of Cy is as it was."
    changed = lt.set_tricks(game, 1, parse_pile("2H 4H"))
    assert lady_undone(game, changed) == "Card 2 of Ben is 3♥ again."
    moved = lt.set_tricks(lt.move_to_seat(game, 0, 1, 1), 1, parse_pile("2H 4H AH"))
    assert lady_undone(game, moved) == "The tricks of Ann and Ben are as they were."
    assert lady_undone(game, lt.rename(game, 2, "Dee")) == "Dee is called Cy again."


def test_the_example_back_and_a_lady_game_of_other_players_back() -> None:
    example = ts.example_table()
    assert table_undone(example, ts.new_game(example)) == "The example is back."
    # a first photo took its place, as a new game of "Player 1": not "Player 1 is called
    # Example again.", its cards gone unsaid
    photo = ts.place_photo(example, example.players[0].id, "p", [[read_card("AS")]])
    assert table_undone(example, photo) == "The example is back."
    # a card of the example's own changed: that card is said
    changed = ts.replace_card(example, pile_id(example, 0, 0), 0, parse_card("3C"))
    assert table_undone(example, changed).startswith("Card 1.1 of Example is ")
    night = nt.Night((example,))
    assert night_undone(night, nt.next_game(night)) == "The example is back."
    game = lt.new_game(("Ann", "Ben", "Cy"))  # no tricks in yet: the players may change
    assert lady_undone(game, lt.with_players(game, 4)) == "Back to 3 players."
    assert lady_undone(game, lt.with_players(game, 4), translator("es")) == (
        "Vuelven a ser 3 jugadores."
    )


def test_two_cards_alike_are_no_card_moved() -> None:
    """Two decks (or a card read twice): a pin beside two 5♣ is a pin, not a 5♣ moved."""
    table = ts.new_table(("Ann",), Variants(decks=2), [[parse_pile("5C 5C QH"), ()]])
    pile = pile_id(table, 0, 0)
    assert table_undone(table, ts.pin_queen(table, pile, 2, 7)) == (
        "Q♥ (card 1.3 of Ann) counts as it did."
    )


def test_a_first_edit_of_the_example_and_a_new_game_of_one_game_undone() -> None:
    example = ts.example_table()
    fixed = ts.replace_card(example, pile_id(example, 0, 0), 0, parse_card("KS"))
    assert (
        table_undone(example, replace(fixed, example=False)) == "Card 1.1 of Example is Q♠ again."
    )
    night = nt.night_of([two_players()])
    assert night_undone(night, nt.restart(night)) == "The game's cards are back."


def test_a_split_a_join_a_new_pile_and_a_removed_pile_undone_name_the_pile() -> None:
    before = two_players()
    split = ts.split_pile(before, pile_id(before, 0, 0), 1)
    assert table_undone(before, split) == "Pile 1 of Ann is one pile again."
    assert table_undone(split, ts.join_with_next(split, pile_id(split, 0, 0))) == (
        "Piles 1 and 2 of Ann are apart again."
    )
    added = ts.add_pile(before, before.players[1].id)
    assert table_undone(before, added) == "Pile 3 of Ben is gone again."
    removed = ts.remove_pile(before, pile_id(before, 0, 0))
    assert table_undone(before, removed) == "Pile 1 of Ann is back."


def test_a_split_with_another_change_is_said_per_player() -> None:
    before = two_players()
    split = ts.split_pile(before, pile_id(before, 0, 0), 1)
    changed = ts.replace_card(split, pile_id(split, 0, 1), 0, parse_card("KD"))
    assert table_undone(before, changed) == "The piles of Ann are as they were."


def test_a_photo_undone_names_the_players_whose_piles_it_filled() -> None:
    before = two_players()
    rows = [[read_card("AS"), read_card("2H")], [read_card("9D")]]
    photo = ts.place_table_photo(
        before, "photo-1", ((before.players[0].id, (0,)), (before.players[1].id, (1,))), rows
    )
    assert table_undone(before, photo) == (
        "The piles of Ann and Ben are as they were before the photo."
    )
    spanish = table_undone(before, photo, translator("es"))
    assert "Ann y Ben" in spanish and "foto" in spanish


def test_a_card_moved_to_another_players_tricks_is_back_where_it_was() -> None:
    before = lt.set_tricks(lt.new_game(("Ann", "Ben", "Cy")), 0, parse_pile("QS AH 3C"))
    moved = lt.move_to_seat(before, 0, 1, 2)
    assert lady_undone(before, moved) == "A♥ is back: card 2 of Ann."
    both_changed = lt.set_tricks(moved, 1, parse_pile("2D"))
    assert lady_undone(before, both_changed) == "The tricks of Ann, Ben and Cy are as they were."


def test_a_one_card_pile_split_off_or_joined_is_named_as_a_pile_not_a_card_moved() -> None:
    before = ts.new_table(("Ann",), piles=[[parse_pile("QS 2C"), parse_pile("5C 7H 9D")]])
    split = ts.split_pile(before, pile_id(before, 0, 1), 2)  # 9♦ alone in pile 3
    assert table_undone(before, split) == "Pile 2 of Ann is one pile again."
    one_card = ts.new_table(("Ann",), piles=[[parse_pile("QS 2C"), parse_pile("5C")]])
    joined = ts.join_with_next(one_card, pile_id(one_card, 0, 0))
    assert table_undone(one_card, joined) == "Piles 1 and 2 of Ann are apart again."


def test_a_photos_cards_taken_off_and_undone_are_said_to_be_back() -> None:
    before = two_players()
    rows = [[read_card("AS"), read_card("2H")], [read_card("9D")]]
    seating = ((before.players[0].id, (0,)), (before.players[1].id, (1,)))
    placed = ts.place_table_photo(before, "photo-1", seating, rows)
    taken_off = ts.remove_photo(placed, "photo-1")
    assert table_undone(placed, taken_off) == (
        "The photo's cards are back in the piles of Ann and Ben."
    )


def test_another_phones_change_names_whose_piles_the_players_or_the_rules() -> None:
    before = two_players()
    ann_first = pile_id(before, 0, 0)
    assert table_changed(before, ts.delete_card(before, ann_first, 0)) == (
        "Another phone took 5♣ off (it was card 1.1 of Ann)."
    )
    assert table_changed(before, ts.insert_card(before, ann_first, 1, parse_card("4H"))) == (
        "Another phone put 4♥ in as card 1.2 of Ann."
    )
    assert table_changed(before, ts.replace_card(before, ann_first, 2, parse_card("7S"))) == (
        "Another phone made card 1.3 of Ann 7♠."
    )
    assert table_changed(before, ts.move_card(before, ann_first, 0, 2)) == (
        "Another phone moved 5♣ to card 1.3 of Ann."
    )
    assert table_changed(before, ts.confirm_card(before, ann_first, 0)) == (
        "Another phone checked 5♣ (card 1.1 of Ann)."
    )
    two_cards = ts.set_cards(before, ann_first, parse_pile("5C 8C 9C"))
    assert table_changed(before, two_cards) == "Another phone changed the piles of Ann."
    given = ts.give_pile(before, ann_first, before.players[1].id)
    assert table_changed(before, given) == "Another phone changed the piles of Ann and Ben."
    assert table_changed(before, ts.rename_player(before, before.players[1].id, "Bo")) == (
        "Another phone changed the players."
    )
    assert table_changed(before, ts.add_player(before)) == "Another phone changed the players."
    assert table_changed(before, ts.set_variants(before, Variants(lucky_tom=True))) == (
        "Another phone changed the rules."
    )
    assert table_changed(before, before) == "The game changed on another phone."
    spanish = translator("es")
    assert table_changed(before, given, spanish) == "Otro móvil cambió las pilas de Ann y Ben."


def test_another_phones_change_to_a_night_or_a_lady_game() -> None:
    played = nt.night_of([two_players()])
    following = nt.next_game(played)
    assert night_changed(played, following) == (
        "Another phone changed the night's games: game 2 is on screen."
    )
    card = nt.on_table(played, ts.delete_card, pile_id(played.table, 1, 0), 0)
    assert night_changed(played, card) == "Another phone took 2♠ off (it was card 1.1 of Ben)."
    game = lady_game()
    assert lady_changed(game, lt.next_deal(game)) == (
        "Another phone changed the deals: deal 2 is on screen."
    )
    assert lady_changed(game, lt.set_tricks(game, 2, parse_pile("KH"))) == (
        "Another phone put K♥ in as card 1 of Cy."  # numbered as tricks are
    )
    assert lady_changed(game, lt.set_tricks(game, 2, parse_pile("KH 2C"))) == (
        "Another phone changed the tricks of Cy."
    )
    assert lady_changed(game, lt.mark_no_tricks(game, 2, True)) == (
        "Another phone changed the tricks of Cy."
    )
    assert lady_changed(game, lt.rename(game, 2, "Dee")) == "Another phone changed the players."


def test_a_new_game_is_told_apart_from_its_cards_typed_anew() -> None:
    played = nt.night_of([two_players()])
    new = nt.restart(played)
    typed = nt.on_table(new, ts.set_cards, pile_id(new.table, 0, 0), parse_pile("7D"))
    assert night_started_anew(played, typed)  # another phone's "New game", a pile typed since
    retyped = nt.on_table(played, ts.set_cards, pile_id(played.table, 0, 0), parse_pile("7D"))
    assert not night_started_anew(played, retyped)
    assert not night_started_anew(played, nt.next_game(played))
    game = lt.set_tricks(lady_game(), 2, parse_pile("KH"))
    assert lady_started_anew(game, lt.set_tricks(lt.restart(game), 0, parse_pile("2C")))
    assert not lady_started_anew(game, lt.next_deal(game))
    assert not lady_started_anew(game, lt.set_tricks(game, 0, parse_pile("2C")))


def test_the_first_deal_taken_off_is_no_new_black_lady_game() -> None:
    game = lt.next_deal(lt.set_tricks(lady_game(), 2, parse_pile("KH")))
    assert not lady_started_anew(game, lt.remove_deal(game, 0))
    assert lady_started_anew(game, lt.add_player(lt.restart(game)))
