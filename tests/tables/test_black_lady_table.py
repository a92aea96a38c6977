"""A Black Lady game as the app edits it: players, deals, tricks from photos and typing, the
corrections of `black_cat_table` on a deal, the sheet and the checks."""

from __future__ import annotations

import csv
import io

import pytest

from blackcat.games.black_lady import Rules
from blackcat.games.cards import parse_card, parse_pile
from blackcat.i18n import ENGLISH, translator
from blackcat.tables import black_cat_table as ts
from blackcat.tables import black_lady_table as lt
from blackcat.vision.types import Guess, ReadCard

PASSING_DEAL = (  # three players, the 2♣ set aside: every check passes
    "QS AH KH 5H 2H AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS KS AD",
    "3H 4H 6H 7H 8H 9H 10H JH QH 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AC 3C 4C 5C 6C 7C 8C 9C "
    "10C JC QC KC",
    "",
)


def read(code: str, confidence: float = 0.95, *others: str) -> ReadCard:
    guesses = (Guess(parse_card(code), confidence), *(Guess(parse_card(o), 0.01) for o in others))
    return ReadCard(parse_card(code), (0.0, 0.0, 1.0, 1.0), confidence, guesses, ())


def game_of(*texts: str | None) -> lt.LadyGame:
    """A game of len(texts) players and one deal: typed tricks, "" a player who took no trick,
    None a player not in yet."""
    game = lt.new_game([f"P{seat + 1}" for seat in range(len(texts))])
    for seat, text in enumerate(texts):
        if text == "":
            game = lt.mark_no_tricks(game, seat, True)
        elif text is not None:
            game = lt.set_tricks(game, seat, parse_pile(text))
    return game


def test_a_new_game_has_three_players_and_one_empty_deal() -> None:
    game = lt.new_game()
    assert game.names == ("Player 1", "Player 2", "Player 3")
    assert len(game.deals) == 1 and game.deal.empty
    assert lt.sheet(game).deals == ((None, None, None),)
    assert lt.waiting_for(game, 0) == game.names
    with pytest.raises(ts.TableError, match="3 to 9 players"):
        lt.new_game(["A", "B"])
    with pytest.raises(ts.TableError, match="already a player called"):
        lt.new_game(["A", "a", "B"])


def test_no_trick_is_marked_not_guessed() -> None:
    game = game_of("QS AH 3C", None, "")
    assert lt.deal_points(game, 0) == (-51, None, 50)
    assert lt.waiting_for(game, 0) == ("P2",)
    with pytest.raises(ts.TableError, match="P1's tricks hold cards: take them off first"):
        lt.mark_no_tricks(game, 0, True)
    # cards typed for a player marked "no trick": they took tricks after all
    game = lt.set_tricks(game, 2, parse_pile("2H 3H 4H"))
    assert lt.deal_points(game, 0) == (-51, None, -9)
    assert not game.deal.no_tricks


def test_a_photo_adds_every_card_read_whatever_its_row() -> None:
    game = lt.new_game(["Ann", "Ben", "Cat"])
    game = lt.add_photo(game, 0, "photo-a", [[read("QS"), read("AH")], [read("3C")]])
    assert game.deal.tricks(0).cards == parse_pile("QS AH 3C")
    game = lt.add_photo(game, 0, "photo-b", [[read("2H"), read("4D"), read("5D")]])
    assert len(game.deal.table.players[0].piles) == 1  # one set of tricks, two photos
    assert game.deal.tricks(0).cards == parse_pile("QS AH 3C 2H 4D 5D")
    with pytest.raises(ts.TableError, match="already in this deal"):
        lt.add_photo(game, 1, "photo-a", [[read("KD")]])
    game = lt.on_deal(game, ts.remove_photo, "photo-a")
    assert game.deal.tricks(0).cards == parse_pile("2H 4D 5D")


def test_the_card_corrections_of_black_cat_apply_to_a_deal() -> None:
    game = lt.new_game(["Ann", "Ben", "Cat"])
    game = lt.add_photo(game, 1, "p", [[read("QS"), read("5D", 0.4, "5H"), read("2C", 0.2)]])
    pile = game.deal.tricks(1)
    assert [slot.doubtful for slot in pile.slots] == [False, True, True]
    game = lt.on_deal(game, ts.replace_card, pile.id, 1, parse_card("5H"))  # the next guess
    game = lt.on_deal(game, ts.delete_card, pile.id, 2)  # not a card
    assert game.deal.tricks(1).cards == parse_pile("QS 5H")
    assert lt.deal_points(game, 0) == (None, -45, None)


def test_every_doubtful_card_confirmed_at_once() -> None:
    game = lt.new_game(["Ann", "Ben", "Cat"])
    game = lt.add_photo(game, 0, "p", [[read("QS", 0.5), read("5D"), read("2H", 0.3)]])
    game = lt.confirm_all(game, 0)
    assert [slot.doubtful for slot in game.deal.tricks(0).slots] == [False, False, False]
    assert game.deal.tricks(0).cards == parse_pile("QS 5D 2H")


def test_deals_make_the_sheet_and_its_running_totals() -> None:
    game = game_of("QS AH 3C", "2H 3H 4H", "")
    with pytest.raises(ts.TableError, match="deal 1 has no tricks"):
        lt.next_deal(lt.restart(game))
    game = lt.next_deal(game)
    assert game.current == 1 and game.deal.empty
    game = lt.mark_no_tricks(game, 0, True)
    game = lt.set_tricks(game, 1, parse_pile("QS 2D 3D"))
    game = lt.set_tricks(game, 2, parse_pile("AH 4D 5D"))
    sheet = lt.sheet(game)
    assert sheet.deals == ((-51, -9, 50), (50, -40, -11))
    assert sheet.totals == (-1, -49, 39) and sheet.winners == ("P3",)
    game = lt.choose_deal(game, 0)
    assert game.deal.tricks(0).cards == parse_pile("QS AH 3C")
    game = lt.remove_deal(game, 0)
    assert lt.sheet(game).deals == ((50, -40, -11),)


def test_a_deal_taken_off_leaves_the_deal_on_screen_on_screen() -> None:
    game = lt.set_tricks(lt.next_deal(game_of("QS AH 3C", "2H 3H 4H", "")), 0, parse_pile("KS"))
    game = lt.set_tricks(lt.next_deal(game), 0, parse_pile("KD"))  # 3 deals, on the 3rd
    assert lt.remove_deal(game, 1).deal == game.deal  # one before it: the same deal, one left
    assert lt.remove_deal(game, 1).current == 1
    last_gone = lt.remove_deal(game, 2)
    assert last_gone.current == 1 and last_gone.deal == game.deals[1]  # the one now last
    first, middle = lt.choose_deal(game, 0), lt.choose_deal(game, 1)
    assert lt.remove_deal(first, 2).deal == first.deal
    assert lt.remove_deal(middle, 0).deal == middle.deal  # not the deal after it
    with pytest.raises(ts.TableError, match="no longer on the sheet"):
        lt.remove_deal(game, 3)


def test_the_ace_switch_rescores_every_deal() -> None:
    game = lt.set_rules(game_of("AH 2C 3C", "", ""), Rules(ace_hearts=10))
    assert lt.deal_points(game, 0) == (-10, 50, 50)


def test_checks_name_players_by_name() -> None:
    game = game_of("QS AH 5D", "5D 2H 3H", None)
    (doubled,) = lt.problems(game, 0)
    assert doubled.players == ("P1", "P2") and "5♦ is in the tricks of P1 and P2" in doubled.message


def test_players_change_only_before_the_first_card() -> None:
    game = lt.add_player(lt.new_game())
    assert game.names == ("Player 1", "Player 2", "Player 3", "Player 4")
    game = lt.remove_player(game, 0)
    assert game.names == ("Player 2", "Player 3", "Player 4")
    with pytest.raises(ts.TableError, match="at least 3 players"):
        lt.remove_player(game, 0)
    game = lt.set_tricks(game, 0, parse_pile("QS"))
    with pytest.raises(ts.TableError, match="start a new game"):
        lt.add_player(game)
    game = lt.rename(game, 0, "Ann")
    assert game.names[0] == "Ann" and game.deal.table.players[0].name == "Ann"


def test_deals_never_share_pile_ids() -> None:
    game = lt.next_deal(game_of("QS", "", ""))
    ids = {p.id for deal in game.deals for player in deal.table.players for p in player.piles}
    assert len(ids) == 6


def test_the_number_of_players_is_set_once_keeping_the_names() -> None:
    game = lt.rename(lt.new_game(), 0, "Ann")
    nine = lt.with_players(game, 9)
    assert nine.names[0] == "Ann" and len(nine.names) == 9 and len(set(nine.names)) == 9
    assert lt.with_players(nine, 4).names == ("Ann", "Player 2", "Player 3", "Player 4")
    with pytest.raises(ts.TableError, match="no longer at the table"):  # a page behind
        lt.rename(lt.with_players(nine, 4), 8, "Ivy")
    with pytest.raises(ts.TableError, match="3 to 9 players"):
        lt.with_players(game, 10)
    with pytest.raises(ts.TableError, match="fixed once a deal has cards"):
        lt.with_players(lt.set_tricks(game, 0, parse_pile("QS")), 4)
    assert lt.untouched(lt.new_game()) and not lt.untouched(game)
    assert not lt.untouched(lt.mark_no_tricks(lt.new_game(), 0, True))


def test_a_card_moves_to_another_players_tricks_with_what_was_read() -> None:
    game = lt.add_photo(lt.new_game(), 0, "photo", [[read("QS"), read("2H", 0.3, "3H")]])
    game = lt.move_to_seat(game, 0, 1, 2)
    assert game.deal.tricks(0).cards == parse_pile("QS")
    moved = game.deal.tricks(2).slots
    assert [s.card for s in moved] == [parse_card("2H")] and moved[0].doubtful
    assert moved[0].photo == "photo"
    marked = lt.mark_no_tricks(lt.new_game(), 1, True)
    marked = lt.set_tricks(marked, 0, parse_pile("QS 2H"))
    assert lt.move_to_seat(marked, 0, 0, 1).deal.cards(1) == parse_pile("QS")  # has a trick now
    with pytest.raises(ts.TableError, match="another player's tricks"):
        lt.move_to_seat(game, 0, 0, 0)
    with pytest.raises(ts.TableError, match="no longer in the tricks"):
        lt.move_to_seat(game, 0, 5, 1)


def test_checks_say_photo_only_for_tricks_from_a_photo() -> None:
    typed = game_of("QS AH 3C 4C", "2H", "")
    messages = " ".join(p.message for p in lt.problems(typed, 0))
    assert "photo" not in messages and "look at P1's cards" in messages
    photo = lt.add_photo(lt.new_game(["P1", "P2", "P3"]), 0, "k", [[read("QS"), read("AH")]])
    photo = lt.set_tricks(photo, 1, parse_pile("2H 3H 4H 5H"))
    messages = {p.players: p.message for p in lt.problems(photo, 0)}
    assert "look at P1's photo" in messages[("P1",)]
    assert "look at P2's cards" in messages[("P2",)]


def test_a_check_naming_typed_and_photographed_tricks_says_cards() -> None:
    game = lt.add_photo(
        lt.new_game(["P1", "P2", "P3"]), 0, "k", [[read(c) for c in ["QS", "3C", "4C"]]]
    )
    game = lt.set_tricks(game, 1, parse_pile("2H 3H 4H"))
    game = lt.mark_no_tricks(game, 2, True)
    missing = [p for p in lt.problems(game, 0) if p.kind == "missing"]
    assert missing and all(p.players == ("P1", "P2", "P3") for p in missing)
    assert all(p.message.endswith("look at the cards of P1, P2 and P3") for p in missing)


def test_checks_in_spanish_say_photo_only_for_tricks_from_a_photo() -> None:
    spanish = translator("es")
    typed = game_of("QS AH 3C 4C", "2H", "")
    messages = " ".join(p.message for p in lt.problems(typed, 0, spanish))
    assert "foto" not in messages and "mira las cartas de P1" in messages
    photo = lt.add_photo(lt.new_game(["P1", "P2", "P3"]), 0, "k", [[read("QS"), read("AH")]])
    photo = lt.set_tricks(photo, 1, parse_pile("2H 3H 4H 5H"))
    messages = {p.players: p.message for p in lt.problems(photo, 0, spanish)}
    assert "mira la foto de P1" in messages[("P1",)]
    assert "mira las cartas de P2" in messages[("P2",)]
    english = {p.players: p.message for p in lt.problems(photo, 0)}
    assert english == {p.players: p.message for p in lt.problems(photo, 0, ENGLISH)}
    assert all("look at" in message for message in english.values())


def test_new_players_are_named_in_spanish_and_named_players_keep_their_names() -> None:
    spanish = translator("es")
    game = lt.new_game(lt.default_names(spanish))
    assert game.names == ("Jugador 1", "Jugador 2", "Jugador 3")
    assert lt.untouched(game, spanish) and lt.untouched(lt.new_game(), spanish)
    assert lt.with_players(game, 4, spanish).names[-1] == "Jugador 4"
    english = lt.with_players(lt.new_game(), 5, spanish)
    assert english.names == ("Player 1", "Player 2", "Player 3", "Jugador 4", "Jugador 5")
    assert lt.default_names() == lt.DEFAULT_NAMES
    assert lt.with_players(lt.new_game(), 4).names[-1] == "Player 4"


def test_black_lady_opens_with_the_nights_black_cat_players() -> None:
    # the same people play both games of a night: they were typed again (helper-63)
    assert lt.opening_names(("Ann", "Ben", "Cat", "Dan")) == ("Ann", "Ben", "Cat", "Dan")
    assert lt.opening_names(("Ann", "Ben")) == ("Ann", "Ben", "Player 3")  # three at least
    assert lt.opening_names(("Ann", "Player 2")) == ("Ann", "Player 2", "Player 3")
    app_named = ("Player 1", "Player 2")
    assert lt.opening_names(app_named, others_unnamed=[0, 1]) == lt.DEFAULT_NAMES  # nobody named
    typed = ("Player 1", "Player 2")  # a person's names, whatever they look like
    assert lt.opening_names(typed, others_unnamed=[1]) == ("Player 1", "Player 2", "Player 3")
    spanish_typed = lt.opening_names(("Jugador 1", "Jugador 2"), translator("es"))
    assert spanish_typed == ("Jugador 1", "Jugador 2", "Jugador 3")
    assert lt.opening_names(()) == lt.DEFAULT_NAMES
    assert lt.opening_names(("Ana", "Bea"), translator("es"))[-1] == "Jugador 3"
    many = tuple(f"P{n}" for n in range(12))
    assert lt.opening_names(many) == many[: lt.MAX_PLAYERS]


def test_the_sheet_as_csv_marks_a_deal_that_fails_its_checks_and_the_totals_that_count_it() -> None:
    game = lt.next_deal(game_of("QS AH 3C", "", "2H 3H 4H"))
    game = lt.set_tricks(game, 1, parse_pile("KH 5S 6S"))
    rows = list(csv.reader(io.StringIO(lt.sheet_csv(game))))
    assert rows[0] == ["deal", "P1", "P2", "P3", "checks"]
    assert rows[1][:4] == ["1", "-51", "50", "-9"] and rows[1][4].startswith("fails: ")
    assert "5♥ is in nobody's tricks" in rows[1][4]  # each problem, as the page says it
    assert rows[2] == ["2", "", "-10", "", "waiting for P1 and P3"]  # as the page says it
    assert rows[3] == ["total", "-51", "40", "-9", "counts deal 1, which fails its checks"]
    passing = list(csv.reader(io.StringIO(lt.sheet_csv(game_of(*PASSING_DEAL)))))
    assert [row[-1] for row in passing] == ["checks", "passes", ""]
    spanish = list(csv.reader(io.StringIO(lt.sheet_csv(game, translator("es")))))
    assert spanish[0] == ["mano", "P1", "P2", "P3", "comprobaciones"]
    assert spanish[1][4].startswith("no cuadra: ") and "5♥" in spanish[1][4]
    assert spanish[2][4] == "a la espera de P1 y P3"
    assert spanish[3] == [
        "total",
        "-51",
        "40",
        "-9",
        "cuenta la mano 1, que no cuadra",
    ]


def test_the_sheets_totals_name_the_deals_that_fail_as_a_list_in_each_language() -> None:
    """ "counts deals 1 and 2", "cuenta las manos 1 y 2": not "1, 2"."""
    game = lt.next_deal(game_of("QS AH 3C", "", "2H 3H 4H"))  # each deal: cards missing
    game = lt.set_tricks(game, 0, parse_pile("QS AH 3C"))
    game = lt.mark_no_tricks(game, 1, True)
    game = lt.set_tricks(game, 2, parse_pile("2H 3H 4H"))
    rows = list(csv.reader(io.StringIO(lt.sheet_csv(game))))
    assert rows[-1][-1] == "counts deals 1 and 2, which fail their checks"
    spanish = list(csv.reader(io.StringIO(lt.sheet_csv(game, translator("es")))))
    assert spanish[-1][-1] == "cuenta las manos 1 y 2, que no cuadran"


def test_typed_tricks_words_say_cards_and_translate_the_rest_as_ever() -> None:
    spanish = lt.typed_words(translator("es"))
    assert spanish.gettext("look at {player}'s photo") == "mira las cartas de {player}"
    assert spanish.pgettext("the letter of a Yowler", "Y") == "M"  # text with a context too
    assert spanish.gettext("Pile points: {points}") == translator("es").gettext(
        "Pile points: {points}"
    )


def test_the_seats_the_app_named_follow_the_language_cards_in_or_not() -> None:
    spanish = translator("es")
    opening = lt.opening_game(())
    assert opening.names == lt.DEFAULT_NAMES and opening.unnamed == {0, 1, 2}
    game = lt.rename(opening, 1, "Jugador 3")  # a name of the player's own
    named = lt.named_in(game, spanish)
    assert named.names == ("Jugador 1", "Jugador 3", "Player 3")  # the number 3 is taken: kept
    assert lt.named_in(named, ENGLISH).names == ("Player 1", "Jugador 3", "Player 3")
    played = lt.next_deal(lt.set_tricks(opening, 0, parse_pile("QS")))
    said = lt.named_in(played, spanish)
    assert said.names == ("Jugador 1", "Jugador 2", "Jugador 3")
    assert [[p.name for p in deal.table.players] for deal in said.deals] == [list(said.names)] * 2
    assert lt.named_in(said, spanish) is said
    typed = lt.new_game(("Ann", "Player 2", "Cat"))  # "Player 2" typed: kept as typed
    assert lt.named_in(typed, spanish) is typed


def test_black_cats_players_named_by_seat_are_said_in_each_phones_language() -> None:
    game = lt.opening_game(("Cat", "Left", "Across"), others_unnamed=(1, 2))
    said = lt.named_in(game, translator("es"))
    assert said.names == ("Cat", "Izquierda", "Enfrente")
    assert lt.named_in(said, ENGLISH).names == game.names
    assert lt.named_in(lt.rename(game, 1, "Dan"), translator("es")).names[1] == "Dan"


def test_the_seats_the_app_named_stay_its_own_as_players_come_and_go() -> None:
    game = lt.rename(lt.opening_game(()), 0, "Ann")
    assert game.unnamed == {1, 2}
    assert lt.with_players(game, 5).unnamed == {1, 2, 3, 4}
    assert lt.remove_player(lt.with_players(game, 5), 1).unnamed == {1, 2, 3}
    assert lt.add_player(game).unnamed == {1, 2, 3}
    assert lt.restart(game).unnamed == {1, 2}
    assert lt.rename(game, 1, " Player 2 ").unnamed == {1, 2}  # its own name again: still
    mixed = lt.opening_game(("Ann", "Player 2"), others_unnamed=[1])
    assert mixed.names == ("Ann", "Player 2", "Player 3") and mixed.unnamed == {1, 2}


def test_a_game_of_a_set_number_of_deals_ends_with_them() -> None:
    game = lt.set_deals_to_play(game_of(*PASSING_DEAL), 2)
    assert not lt.over(game)
    game = lt.next_deal(game)
    for seat, text in enumerate(PASSING_DEAL[:2]):  # P3 took no trick again, not yet said
        game = lt.set_tricks(game, (seat + 1) % 3, parse_pile(text))
    assert not lt.over(game)  # P1's tricks not in yet
    game = lt.mark_no_tricks(game, 0, True)
    assert lt.over(game)
    with pytest.raises(ts.TableError, match="over after 2 deals: play on by setting more"):
        lt.next_deal(game)
    rows = list(csv.reader(io.StringIO(lt.sheet_csv(game))))
    assert rows[-2][:4] == ["total", "-18", "-135", "-17"]
    assert rows[-1] == ["won", "0", "0", "1", ""]  # P3: the fewest minus points
    assert lt.restart(game).deals_to_play == 2  # a new game of as many deals
    longer = lt.set_deals_to_play(game, 3)
    assert not lt.over(longer) and len(lt.next_deal(longer).deals) == 3
    assert "won" not in lt.sheet_csv(longer)
    assert lt.set_deals_to_play(game, None).deals_to_play is None
    with pytest.raises(ts.TableError, match="2 deals are on the sheet already"):
        lt.set_deals_to_play(game, 1)
    with pytest.raises(ts.TableError, match="a game of 1 to 50 deals"):
        lt.set_deals_to_play(game, 51)
    failing = lt.set_tricks(game, 1, parse_pile(PASSING_DEAL[0] + " 2C"))  # set aside, yet in
    assert lt.over(failing) and "won" not in lt.sheet_csv(failing)


def test_a_game_of_one_deal_refuses_the_next_in_the_singular() -> None:
    game = lt.set_deals_to_play(game_of(*PASSING_DEAL), 1)
    with pytest.raises(ts.TableError) as refused:
        lt.next_deal(game)
    said = "the game is over after 1 deal: play on by setting more in its rules"  # "1 deals"
    assert str(refused.value) == said == refused.value.describe(ENGLISH)


def test_another_phones_game_is_seen_on_this_phones_deal_unless_a_deal_came_or_went() -> None:
    game = lt.next_deal(lt.set_tricks(lt.new_game(("Ann", "Ben", "Cy")), 0, parse_pile("QS")))
    looking_back = lt.choose_deal(game, 0)
    changed = lt.set_tricks(game, 1, parse_pile("2H"))
    kept = lt.seen_from(changed, looking_back)
    assert kept.current == 0 and kept.deals == changed.deals
    assert lt.seen_from(lt.choose_deal(game, 0), game) == game
    following = lt.next_deal(lt.set_tricks(game, 0, parse_pile("KH")))
    assert lt.seen_from(following, looking_back) is following


def test_tricks_typed_in_a_deals_pile_go_into_that_deal_whichever_is_on_screen() -> None:
    """Typed in deal 1 as another phone's deal 2 came on screen: into deal 1."""
    game = lt.set_tricks(lt.new_game(("Ann", "Ben", "Cy")), 0, parse_pile("KH 2S 4S"))
    first = game.deal.tricks(1).id
    game = lt.next_deal(game)
    assert lt.deal_holding(game, first) == 0 and lt.deal_holding(game, 999_999) is None
    typed = lt.set_tricks_of(game, first, parse_pile("QS 3D"))
    assert typed.current == 1 and typed.deals[1] == game.deals[1]
    assert lt.tricks_of(typed, first) == parse_pile("QS 3D")
    assert typed.deals[0].tricks(1).cards == parse_pile("QS 3D")
    assert lt.tricks_of(typed, 999_999) is None
