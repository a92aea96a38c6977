"""An independent audit of Black Cat scoring against RULES.md: a small reference written from the
rules' text alone (cards as the text codes people type, no engine code: not `Card`, its values or
colours), compared with the engine, `blackcat score --json`, a game's winners and a night's
standings, on the rules' worked examples and on random piles."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blackcat.cli import main
from blackcat.games.black_cat import Variants, score_pile, score_table
from blackcat.games.cards import parse_pile
from blackcat.tables import black_cat_night as nt
from blackcat.tables import black_cat_table as ts

# ---------------------------------------------------------------------------------------------
# The reference, from RULES.md: "Cards", "Features", "Queens", "Variants", "Winning"

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)
FIXED_VALUES = {"A": 1, "J": 0, "K": 0} | {str(n): n for n in range(2, 11)}  # Q: 7 or 11
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

Found = tuple[str, tuple[int, ...], int]  # kind, positions, points


@dataclass(frozen=True)
class Rules:
    lucky_tom: bool = False
    music_of_the_night: bool = False


def rank(code: str) -> str:
    return code[:-1]


def is_black(code: str) -> bool:
    return code[-1] in ("S", "C")


def is_face(code: str) -> bool:
    return rank(code) in ("J", "Q", "K")


def rule_features(pile: Sequence[str], queens: Mapping[int, int], rules: Rules) -> list[Found]:
    """Every feature of the pile with these Queen values, each rule read literally."""
    values = [
        queens[i] if rank(code) == "Q" else FIXED_VALUES[rank(code)] for i, code in enumerate(pile)
    ]
    n = len(pile)
    found: list[Found] = []
    # 1. Tomcat: every adjacent pair adding to exactly 10 (Lucky Tom: two 5s are worth 5).
    for i in range(n - 1):
        if values[i] + values[i + 1] == 10:
            fives = rank(pile[i]) == rank(pile[i + 1]) == "5"
            found.append(("tomcat", (i, i + 1), 5 if rules.lucky_tom and fives else 3))
    # 2. Yowler: every 10 (Music of the Night: worth the number of Yowlers in its pile).
    tens = [i for i in range(n) if rank(pile[i]) == "10"]
    found += [("yowler", (i,), len(tens) if rules.music_of_the_night else 1) for i in tens]
    # 3. Jellical Cat: each face card of a maximal one-rank face run with same-rank bread.
    start = 0
    while start < n:
        stop = start + 1
        if is_face(pile[start]):
            while stop < n and rank(pile[stop]) == rank(pile[start]):
                stop += 1
            if start > 0 and stop < n and rank(pile[start - 1]) == rank(pile[stop]):
                found += [("jellical", (i,), 2) for i in range(start, stop)]
        start = stop
    # 4. Black Cat: every stretch of 2+ adjacent black cards adding to exactly 13.
    for first, last in itertools.combinations(range(n), 2):
        stretch = range(first, last + 1)
        if all(is_black(pile[i]) for i in stretch) and sum(values[i] for i in stretch) == 13:
            found.append(("black_cat", tuple(stretch), 6))
    return found


def rule_points(pile: Sequence[str], queens: Mapping[int, int], rules: Rules) -> int:
    return sum(points for _, _, points in rule_features(pile, queens, rules))


@dataclass(frozen=True)
class RuleScore:
    points: int
    queens: dict[int, int]  # the value reported for each Queen
    features: list[Found]


def rule_score(pile: Sequence[str], pins: Mapping[int, int], rules: Rules) -> RuleScore:
    """Queens: every assignment of 7/11 keeping the pins, the highest points; a Queen is
    reported 7 unless every best assignment makes it 11 ("7 where the score doesn't care")."""
    queens = [i for i, code in enumerate(pile) if rank(code) == "Q"]
    scored = []
    for assignment in itertools.product((7, 11), repeat=len(queens)):
        values = dict(zip(queens, assignment, strict=True))
        if all(values[i] == value for i, value in pins.items()):
            scored.append((rule_points(pile, values, rules), values))
    best = max(points for points, _ in scored)
    bests = [values for points, values in scored if points == best]
    reported = {i: 7 if any(values[i] == 7 for values in bests) else 11 for i in queens}
    return RuleScore(best, reported, sorted(rule_features(pile, reported, rules)))


def rule_winners(totals: Mapping[str, int]) -> tuple[str, ...]:
    """RULES.md "Winning": the highest total wins; equal totals are a tie (all of them named)."""
    best = max(totals.values(), default=None)
    return tuple(name for name, total in totals.items() if total == best)


def counts_of(features: Sequence[Found]) -> dict[str, int]:
    found = Counter(kind for kind, _, _ in features)
    return {kind: found[kind] for kind in ("tomcat", "yowler", "jellical", "black_cat")}


# ---------------------------------------------------------------------------------------------
# RULES.md's worked examples, as its table gives them

WORKED = [
    # pile, (Tomcats, Yowlers, Jellical, Black Cats), Queens named, points, the variant's points
    ("8D 2H 8H 10S 6C AH 3D 7D", (3, 1, 0, 0), {}, 10, None),
    (
        "QS 6C QH 5H 5D 8D 2S QD QC 2H 8H 7S 3H 4S 6S",
        (5, 0, 2, 1),
        {0: 7},
        25,
        (Rules(lucky_tom=True), 27),
    ),
    ("KS 9C 4S", (0, 0, 0, 2), {}, 12, None),
    ("6S QS 6C", (0, 0, 1, 2), {1: 7}, 14, None),
    ("QS 2C 3H 7H", (1, 0, 0, 1), {0: 11}, 9, None),
    ("10S 10H KD 10C", (2, 3, 1, 0), {}, 11, (Rules(music_of_the_night=True), 17)),
    ("QC QS", (0, 0, 0, 0), {}, 0, None),
    ("", (0, 0, 0, 0), {}, 0, None),
]
WORKED_IDS = [example[0] or "empty" for example in WORKED]


def engine_variants(rules: Rules, decks: int = 1) -> Variants:
    return Variants(
        decks=decks, lucky_tom=rules.lucky_tom, music_of_the_night=rules.music_of_the_night
    )


def cli_json(*args: str) -> dict:
    """`blackcat score --json ARGS` run in this process, its one line of JSON read back."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["score", "--json", *args]) == 0
    return json.loads(out.getvalue())


def cli_flags(rules: Rules) -> list[str]:
    return [
        *(["--lucky-tom"] if rules.lucky_tom else []),
        *(["--music-of-the-night"] if rules.music_of_the_night else []),
    ]


@pytest.mark.parametrize(("pile", "counts", "queens", "points", "variant"), WORKED, ids=WORKED_IDS)
def test_reference_engine_and_cli_give_the_worked_examples(
    pile: str,
    counts: tuple[int, int, int, int],
    queens: dict[int, int],
    points: int,
    variant: tuple[Rules, int] | None,
) -> None:
    codes = pile.split()
    expected_counts = dict(zip(("tomcat", "yowler", "jellical", "black_cat"), counts, strict=True))
    reference = rule_score(codes, {}, Rules())
    assert (reference.points, counts_of(reference.features)) == (points, expected_counts)
    assert queens.items() <= reference.queens.items()  # the table names a Queen it decides
    engine = score_pile(parse_pile(pile))
    assert (engine.points, engine.counts, engine.queen_values) == (
        points,
        expected_counts,
        reference.queens,
    )
    cli = cli_json(pile)
    assert cli["total"] == points and cli["piles"][0]["counts"] == expected_counts
    assert cli["piles"][0]["queens"] == {str(i): v for i, v in reference.queens.items()}
    if variant is not None:
        rules, variant_points = variant
        assert rule_score(codes, {}, rules).points == variant_points
        assert score_pile(parse_pile(pile), variants=engine_variants(rules)).points == (
            variant_points
        )
        assert cli_json(*cli_flags(rules), pile)["total"] == variant_points


def test_the_rules_sheets_named_features_are_the_engines() -> None:
    """The seeds' words: the second example's five Tomcats (5-5, 8-2, 2-8, 7-3, 4-6), its
    Jellical Queens between the twos, its one Black Cat Q♠-6♣ (the Queen as 7, not 6♣-Q♥);
    `QS 2C 3H 7H` with its Queen pinned to 7 (RULES.md: 3 points)."""
    pile = "QS 6C QH 5H 5D 8D 2S QD QC 2H 8H 7S 3H 4S 6S"
    engine = score_pile(parse_pile(pile))
    by_kind = {
        kind: [" ".join(card.code for card in f.cards) for f in engine.features if f.kind == kind]
        for kind in ("tomcat", "jellical", "black_cat")
    }
    assert by_kind == {
        "tomcat": ["5H 5D", "8D 2S", "2H 8H", "7S 3H", "4S 6S"],
        "jellical": ["QD", "QC"],
        "black_cat": ["QS 6C"],
    }
    assert score_pile(parse_pile("QS 2C 3H 7H"), pins={0: 7}).points == 3
    assert rule_score(["QS", "2C", "3H", "7H"], {0: 7}, Rules()).points == 3
    assert cli_json("--queen", "0:0=7", "QS 2C 3H 7H")["total"] == 3


# ---------------------------------------------------------------------------------------------
# Random piles: the engine and the CLI against the reference

# Cards that make features often, beside the whole deck: Queens, faces, black low cards, 5s, 10s.
BUSY_TEXT = "QS QC QH QD KS KC KH JS JC JD AS AC 2S 2C 3C 4S 5H 5D 5S 6C 9C 10S 10H 3H 7D"
BUSY = BUSY_TEXT.split()
card_codes = st.one_of(st.sampled_from(DECK), st.sampled_from(BUSY))
rules_strategy = st.builds(Rules, lucky_tom=st.booleans(), music_of_the_night=st.booleans())
piles = st.lists(card_codes, max_size=14).filter(lambda pile: sum(c[0] == "Q" for c in pile) <= 6)


@st.composite
def pile_with_pins(draw: st.DrawFn) -> tuple[list[str], dict[int, int]]:
    pile = draw(piles)
    queens = [i for i, code in enumerate(pile) if rank(code) == "Q"]
    pinned = draw(st.lists(st.sampled_from(queens), unique=True)) if queens else []
    return pile, {i: draw(st.sampled_from((7, 11))) for i in pinned}


@settings(max_examples=400, deadline=None)
@given(pile_with_pins(), rules_strategy)
def test_engine_scores_random_piles_as_the_rules_do(
    pile_and_pins: tuple[list[str], dict[int, int]], rules: Rules
) -> None:
    pile, pins = pile_and_pins
    reference = rule_score(pile, pins, rules)
    engine = score_pile(parse_pile(" ".join(pile)), pins, engine_variants(rules, decks=2))
    assert engine.points == reference.points
    assert engine.queen_values == reference.queens
    assert rule_points(pile, engine.queen_values, rules) == reference.points  # the 7s lose nothing
    found = sorted((f.kind, f.positions, f.points) for f in engine.features)
    assert found == reference.features
    for feature in engine.features:  # each feature's cards are the pile's at its positions
        assert [card.code for card in feature.cards] == [pile[i] for i in feature.positions]
    assert {queen.position for queen in engine.queens if queen.pinned} == set(pins)


def as_typed(code: str, style: int) -> str:
    """A card as a person may type it (RULES.md "Cards"): as is, lower case, `T` for ten, or
    with its suit's symbol."""
    suit, face = code[-1], code[:-1]
    if style == 1:
        return code.lower()
    if style == 2:
        return ("T" if face == "10" else face) + suit
    if style == 3:
        return face + SYMBOLS[suit]
    return code


def _fits_two_decks(player_piles: Sequence[Sequence[str]]) -> bool:
    return max(Counter(itertools.chain(*player_piles)).values(), default=0) <= 2


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.lists(card_codes, max_size=10), min_size=1, max_size=3).filter(_fits_two_decks),
    rules_strategy,
    st.lists(st.integers(0, 3), min_size=30, max_size=30),
)
def test_cli_json_scores_random_piles_as_the_rules_do(
    player_piles: list[list[str]], rules: Rules, styles: list[int]
) -> None:
    typed = [
        " ".join(as_typed(code, styles[i]) for i, code in enumerate(pile)) for pile in player_piles
    ]
    out = cli_json("--decks", "2", *cli_flags(rules), *typed)
    references = [rule_score(pile, {}, rules) for pile in player_piles]
    assert out["total"] == sum(reference.points for reference in references)
    for pile, reference, scored in zip(player_piles, references, out["piles"], strict=True):
        assert scored["cards"] == pile
        assert scored["points"] == reference.points
        assert scored["queens"] == {str(i): v for i, v in reference.queens.items()}
        assert scored["counts"] == counts_of(reference.features)
        found = sorted((f["kind"], tuple(f["positions"]), f["points"]) for f in scored["features"])
        assert found == reference.features


# ---------------------------------------------------------------------------------------------
# Winners and a night's standings

hands = st.permutations(DECK).map(lambda deck: deck[:24])  # distinct cards: one deck is enough


@st.composite
def game_piles(draw: st.DrawFn) -> dict[str, list[list[str]]]:
    """2-4 players' two piles each, of distinct cards; short, so that ties come often."""
    players = draw(st.integers(2, 4))
    cards = list(draw(hands))
    game: dict[str, list[list[str]]] = {}
    for seat in range(players):
        sizes = draw(st.tuples(st.integers(0, 3), st.integers(0, 3)))
        first, cards = cards[: sizes[0]], cards[sizes[0] :]
        second, cards = cards[: sizes[1]], cards[sizes[1] :]
        game[f"P{seat + 1}"] = [first, second]
    return game


def table_of(game: Mapping[str, list[list[str]]]) -> ts.Table:
    return ts.new_table(
        list(game), piles=[[parse_pile(" ".join(pile)) for pile in two] for two in game.values()]
    )


def rule_totals(game: Mapping[str, list[list[str]]]) -> dict[str, int]:
    return {
        name: sum(rule_score(pile, {}, Rules()).points for pile in two)
        for name, two in game.items()
    }


@settings(max_examples=150, deadline=None)
@given(game_piles())
def test_a_games_winners_are_the_rules(game: dict[str, list[list[str]]]) -> None:
    totals = rule_totals(game)
    winners = rule_winners(totals)
    engine = score_table(
        {name: [parse_pile(" ".join(p)) for p in two] for name, two in game.items()}
    )
    assert engine.totals == totals
    assert engine.winners == winners
    assert engine.is_tie == (len(winners) > 1)
    assert engine.winner == (winners[0] if len(winners) == 1 else None)
    result = ts.score_table(table_of(game))
    everyone_down = all(any(two) for two in game.values())
    assert result.decided_winners == (winners if everyone_down else ())
    board = json.loads(ts.scoreboard_json(table_of(game), result))
    assert {p["player"]: p["total"] for p in board["players"]} == totals
    assert board["winners"] == list(result.decided_winners)
    line = ts.result_line(result)
    best = max(totals.values())
    if everyone_down and len(winners) == 1:
        assert line.startswith(f"{winners[0]} wins with {best} point")
    elif everyone_down:
        assert line.startswith("Tie: ") and all(name in line for name in winners)


@settings(max_examples=60, deadline=None)
@given(game_piles(), st.lists(st.sampled_from((None, 7, 11)), min_size=24, max_size=24))
def test_the_apps_pinned_queens_and_piles_json_are_the_rules_and_the_clis(
    game: dict[str, list[list[str]]], pin_choices: list[int | None]
) -> None:
    """Queens pinned in the app's table (None: the best value) score as the rules say, and its
    piles' JSON download is `blackcat score --json`'s for the same piles and pins."""
    table = table_of(game)
    choices = iter(pin_choices)
    pins: dict[tuple[int, int, int], int] = {}
    for seat, player in enumerate(table.players):
        for index, pile in enumerate(player.piles):
            for position, slot in enumerate(pile.slots):
                value = next(choices)
                if slot.card.is_queen and value is not None:
                    table = ts.pin_queen(table, pile.id, position, value)
                    pins[seat, index, position] = value
    downloaded = json.loads(ts.piles_json(table, ts.score_table(table)))["piles"]
    for seat, (name, two) in enumerate(game.items()):
        queens = [f"{i}:{p}={v}" for (s, i, p), v in pins.items() if s == seat]
        cli = cli_json(*(["--queen", ",".join(queens)] if queens else []), *map(" ".join, two))
        mine = [
            {k: v for k, v in pile.items() if k not in ("player", "pile")}
            for pile in downloaded
            if pile["player"] == name
        ]
        assert mine == cli["piles"]
        for index, (pile, scored) in enumerate(zip(two, mine, strict=True)):
            pile_pins = {p: v for (s, i, p), v in pins.items() if (s, i) == (seat, index)}
            reference = rule_score(pile, pile_pins, Rules())
            assert scored["points"] == reference.points
            assert scored["queens"] == {str(i): v for i, v in reference.queens.items()}


@settings(max_examples=60, deadline=None)
@given(st.lists(game_piles(), min_size=1, max_size=4))
def test_a_nights_standings_are_the_rules(games: list[dict[str, list[list[str]]]]) -> None:
    """Totals add each player's games; a game is won by its single highest total once every
    player has a card down (a tie wins nobody); the night is led by the highest total."""
    night = nt.night_of([table_of(game) for game in games])
    sheet = nt.score_night(night)
    names = list(dict.fromkeys(name for game in games for name in game))
    assert sheet.names == tuple(names)
    totals = {name: 0 for name in names}
    wins = dict.fromkeys(names, 0)
    for game, points, winners in zip(games, sheet.games, sheet.winners, strict=True):
        game_totals = rule_totals(game)
        for name, total in game_totals.items():
            totals[name] += total
        assert points == tuple(game_totals.get(name) for name in names)
        decided = rule_winners(game_totals) if all(any(two) for two in game.values()) else ()
        assert winners == decided
        if len(decided) == 1:
            wins[decided[0]] += 1
    assert sheet.totals == tuple(totals.values())
    assert sheet.wins == tuple(wins.values())
    assert sheet.leaders == rule_winners(totals)


# ---------------------------------------------------------------------------------------------
# Cards that are no cards of the deck, and a card twice


@pytest.mark.parametrize("token", ["JK", "joker", "1S", "11H", "0C", "QX", "10"])
def test_a_card_not_in_the_deck_is_refused_by_the_cli(token: str) -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        assert main(["score", "--json", f"QS {token} 4S"]) == 2
    assert "card 2" in err.getvalue() and repr(token) in err.getvalue()


def test_a_card_twice_needs_two_decks_and_three_times_is_refused_even_then() -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        assert main(["score", "QS 4S", "4S"]) == 2
        assert main(["score", "--decks", "2", "4S 4S", "4S"]) == 2
    assert "4♠ (4S) appears 2 times" in err.getvalue()
    assert "4♠ (4S) appears 3 times" in err.getvalue()
    assert cli_json("--decks", "2", "QS 4S", "4S")["total"] == 0  # 7 + 4: no feature
