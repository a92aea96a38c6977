"""Whole deals played as a real table plays them, scored by the engine and, independently, from
the rules as written (RULES.md's Black Lady paragraph, the seed `003_cf658a0473078d36.txt` and
the set-aside table of `app/how_black_lady_scores.md`): a shuffled 52-card deck, the set-aside
cards out, the rest dealt evenly, tricks played by following suit, each trick to the highest card
of the suit led; then the engine's points, sheet and CSV against the rules' own arithmetic."""

from __future__ import annotations

import csv
import io
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from blackcat.games.black_lady import Rules, check_deal, score_deal
from blackcat.games.cards import Card, parse_card
from blackcat.tables import black_lady_table as lt

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")  # low to high
DECK = tuple(parse_card(rank + suit) for suit in "SHDC" for rank in RANKS)
# The set-aside table, as the "How we score" panel prints it (not computed from the engine).
SET_ASIDE_TEXT = {
    3: "2C",
    4: "",
    5: "2C 2D",
    6: "2C 2D 2S 3C",
    7: "2C 2D 2S",
    8: "2C 2D 2S 3C",
    9: "2C 2D 2S 3C 3D 3S 4C",
}


def rules_points(card: Card, ace: int) -> int:
    """A card's points, from the rules' words: hearts two to nine minus their face value, tens
    and picture cards of hearts minus ten, the ace of hearts minus eleven (or ten), the queen of
    spades minus forty."""
    code = card.code
    if code == "QS":
        return -40
    if not code.endswith("H"):
        return 0
    rank = code[:-1]
    if rank == "A":
        return -ace
    if rank in ("10", "J", "Q", "K"):
        return -10
    return -int(rank)


def rules_score(taken: list[Card], ace: int) -> int:
    """A player's deal: 50 plus points without a trick, else the sum of their cards."""
    return 50 if not taken else sum(rules_points(card, ace) for card in taken)


def play_deal(players: int, seed: int) -> list[list[Card]]:
    """Each player's tricks after a deal played out: follow suit when you can, any card when you
    can't; the highest card of the suit led takes the trick and leads the next."""
    out = {parse_card(code) for code in SET_ASIDE_TEXT[players].split()}
    deck = [card for card in DECK if card not in out]
    chance = random.Random(seed)
    chance.shuffle(deck)
    assert len(deck) % players == 0  # every player the same number of cards
    hands = [deck[seat::players] for seat in range(players)]
    taken: list[list[Card]] = [[] for _ in range(players)]
    leader = 1 % players  # left of the dealer (seat 0)
    while hands[leader]:
        trick: list[tuple[int, Card]] = []
        for step in range(players):
            seat = (leader + step) % players
            hand = hands[seat]
            led = trick[0][1].suit if trick else None
            legal = [card for card in hand if card.suit == led] or hand
            card = chance.choice(legal)
            hand.remove(card)
            trick.append((seat, card))
        suit = trick[0][1].suit
        winner = max(
            (entry for entry in trick if entry[1].suit == suit),
            key=lambda entry: RANKS.index(entry[1].rank.value),
        )[0]
        taken[winner].extend(card for _, card in trick)
        leader = winner
    return taken


def as_csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


@settings(max_examples=80, deadline=None)
@given(
    players=st.integers(3, 9),
    seeds=st.lists(st.integers(0, 2**32), min_size=1, max_size=4),
    ace=st.sampled_from((11, 10)),
)
def test_deals_played_out_score_as_the_rules_say(players: int, seeds: list[int], ace: int) -> None:
    names = [f"P{seat}" for seat in range(players)]
    game = lt.set_deals_to_play(lt.new_game(names, Rules(ace_hearts=ace)), len(seeds))
    expected_rows = []
    for number, seed in enumerate(seeds):
        tricks = play_deal(players, seed)
        expected = [rules_score(taken, ace) for taken in tricks]
        # the minus points of a deal: 135 (134 with the ace at ten), plus 50 a player without
        assert sum(expected) == -(124 + ace) + 50 * sum(not taken for taken in tricks)
        score = score_deal(tricks, Rules(ace_hearts=ace), names)
        assert list(score.points) == expected
        assert check_deal(tricks, names) == ()
        if number:
            game = lt.next_deal(game)
        for seat, taken in enumerate(tricks):
            if taken:
                game = lt.set_tricks(game, seat, taken)
            else:
                game = lt.mark_no_tricks(game, seat, True)
        expected_rows.append(expected)
    assert lt.over(game)
    totals = [sum(column) for column in zip(*expected_rows, strict=True)]
    best = max(totals)
    rows = as_csv(lt.sheet_csv(game))
    assert rows[0] == ["deal", *names, "checks"]
    for number, expected in enumerate(expected_rows, start=1):
        assert rows[number] == [str(number), *map(str, expected), "passes"]
    assert rows[-2] == ["total", *map(str, totals), ""]
    assert rows[-1] == ["won", *("1" if total == best else "0" for total in totals), ""]


@settings(max_examples=60, deadline=None)
@given(players=st.integers(3, 9), seed=st.integers(0, 2**32), data=st.data())
def test_a_card_misread_in_a_played_deal_fails_its_checks(
    players: int, seed: int, data: st.DataObject
) -> None:
    """Any one card of a played deal read as any other card of the deck: the checks catch it."""
    tricks = play_deal(players, seed)
    holders = [seat for seat, taken in enumerate(tricks) if taken]
    seat = data.draw(st.sampled_from(holders))
    position = data.draw(st.integers(0, len(tricks[seat]) - 1))
    wrong = data.draw(st.sampled_from([card for card in DECK if card != tricks[seat][position]]))
    tricks[seat][position] = wrong
    assert check_deal(tricks) != ()
