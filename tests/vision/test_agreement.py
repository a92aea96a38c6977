"""A photo's other reads agreeing with the kept one, card by card."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from blackcat.games.cards import parse_pile
from blackcat.vision.agreement import (
    agreed,
    agreement_share,
    same_place,
    with_probability,
    without_corners_read_as_others,
)
from blackcat.vision.calibration import Calibration
from blackcat.vision.reader import agreeing_reads
from blackcat.vision.types import Guess, IndexRead, PhotoRead, ReadCard

AGREEING = Calibration(agreement=(-0.14, 0.85, 1.5))


def card_at(code: str, x: float, confidence: float = 0.85) -> ReadCard:
    card = parse_pile(code)[0]
    index = IndexRead((x, 100.0, x + 20.0, 140.0), 0.9, (Guess(card, confidence),))
    return ReadCard(card, index.box, confidence, (Guess(card, confidence),), (index,))


def read_of(*piles: tuple[ReadCard, ...], sides: tuple[str, ...] = ()) -> PhotoRead:
    return PhotoRead(640, 480, tuple(piles), sides=sides)


def test_indices_a_little_apart_are_at_the_same_place_and_a_card_away_are_not() -> None:
    assert same_place(card_at("7S", 100), card_at("7S", 104))
    assert not same_place(card_at("7S", 100), card_at("7S", 160))


def test_the_share_counts_the_other_reads_with_the_same_card_at_the_same_place() -> None:
    mine = card_at("7S", 100)
    same = read_of((card_at("7S", 103),))
    other_card = read_of((card_at("AS", 100),))
    elsewhere = read_of((card_at("7S", 300),))
    assert agreement_share(mine, [same, other_card]) == 0.5
    assert agreement_share(mine, [same, same, elsewhere, read_of()]) == 0.5
    assert agreement_share(mine, [other_card]) == 0.0


def test_a_card_the_other_reads_agree_with_is_surer_than_one_they_read_otherwise() -> None:
    kept = read_of((card_at("7S", 100), card_at("KD", 200)))
    others = [read_of((card_at("7S", 101), card_at("QD", 200)))] * 3
    first, second = agreed(kept, others, AGREEING).piles[0]
    assert (first.agreement, second.agreement) == (1.0, 0.0)
    assert first.confidence > 0.9 > 0.85 > second.confidence  # unflagged; flagged
    assert not first.doubtful and second.doubtful
    assert agreed(kept, [], AGREEING) is kept  # read one way: as it is


def test_without_agreement_weights_only_the_share_is_noted() -> None:
    kept = read_of((card_at("7S", 100),))
    (card,) = agreed(kept, [read_of()], Calibration()).piles[0]
    assert card.agreement == 0.0 and card.confidence == 0.85


def test_only_one_players_read_kept_among_them_counts_the_others() -> None:
    first, second = read_of((card_at("7S", 100),)), read_of((card_at("7S", 100),))
    assert agreeing_reads(first, [first, second]) == [second]
    turned = read_of((card_at("7S", 100),), sides=("left",))
    assert agreeing_reads(turned, [turned, second]) == [second]  # one player, turned
    table = read_of((card_at("7S", 100),), (card_at("KD", 300),), sides=("near", "far"))
    assert agreeing_reads(table, [table, second]) == []
    assert agreeing_reads(read_of(), [first, second]) == []  # not one of the reads: merged


def test_a_card_read_only_in_a_gap_stays_as_flagged_as_it_was() -> None:
    in_gap = card_at("9H", 100, confidence=0.89)
    in_gap = replace(in_gap, indices=(replace(in_gap.indices[0], in_gap=True),), doubtful_below=0.9)
    kept = read_of((in_gap,))
    (card,) = agreed(kept, [read_of((card_at("9H", 100),))] * 3, AGREEING).piles[0]
    assert card == in_gap and card.doubtful


@given(
    st.floats(0.01, 0.99),
    st.lists(st.floats(0.0, 1.0), min_size=1, max_size=3),
    st.floats(0.01, 0.99),
)
def test_other_guesses_never_outrank_the_card_nor_outweigh_its_doubt(
    before: float, shares: list[float], after: float
) -> None:
    total = sum(shares) or 1.0
    others = [min(before, (1 - before) * share / total) for share in shares]  # as merged
    codes = parse_pile("2C 3C 4C")[: len(others)]
    card = card_at("9H", 100, confidence=before)
    guesses = (card.alternatives[0], *map(Guess, codes, others))
    changed = with_probability(replace(card, alternatives=guesses), after)
    assert changed.confidence == changed.alternatives[0].probability == after
    rest = [guess.probability for guess in changed.alternatives[1:]]
    assert all(p <= after + 1e-9 for p in rest) and sum(rest) <= 1 - after + 1e-9


def test_a_card_whose_corners_read_two_cards_is_made_no_surer() -> None:
    card = card_at("10S", 100, confidence=0.77)
    other = IndexRead(
        (300.0, 400.0, 320.0, 440.0),
        0.8,
        (Guess(card.card, 0.54), Guess(parse_pile("KS")[0], 0.45)),
    )
    split = replace(card, indices=(*card.indices, other))
    agreeing = [read_of((card_at("10S", 100),))] * 3
    (kept,) = agreed(read_of((split,)), agreeing, AGREEING).piles[0]
    assert kept.confidence == 0.77 and kept.agreement == 1.0
    (lowered,) = agreed(read_of((split,)), [read_of()] * 3, AGREEING).piles[0]
    assert lowered.confidence < 0.77  # disagreeing reads still make it less sure
    (surer,) = agreed(read_of((card,)), agreeing, AGREEING).piles[0]
    assert surer.confidence > 0.9  # one index: the other reads' crops confirm it


def test_a_flagged_lone_corner_most_other_reads_join_to_a_card_read_there_is_dropped() -> None:
    # a four-index card's glared far corner read apart as another card: the other reads join
    # that corner to the card (the 8S) the kept read reads a card's width away
    eight = card_at("8S", 100)

    def read_with_corner_at(x: float, confidence: float = 0.6) -> tuple[PhotoRead, PhotoRead]:
        corner = card_at("3S", x, confidence=confidence)
        joined = read_of((replace(eight, indices=(*eight.indices, *corner.indices)),))
        return read_of((eight, corner, card_at("5S", 400))), joined

    kept, joined = read_with_corner_at(220)
    kept_cards = [
        card.card for card in without_corners_read_as_others(kept, [joined, joined]).piles[0]
    ]
    assert tuple(kept_cards) == parse_pile("8S 5S")
    # one other read alone, or half of them not joining it, or the corner sure: it stays
    assert len(without_corners_read_as_others(kept, [joined]).piles[0]) == 3
    assert len(without_corners_read_as_others(kept, [joined, read_of(), read_of()]).piles[0]) == 3
    sure, joined = read_with_corner_at(220, confidence=0.95)
    assert len(without_corners_read_as_others(sure, [joined, joined]).piles[0]) == 3
    # an index lying across at another angle (its box wide where the 8S's are tall) is another
    # card's, which the other reads mistook
    wide = card_at("3S", 220, confidence=0.6)
    wide = replace(wide, indices=(replace(wide.indices[0], box=(210.0, 110.0, 250.0, 130.0)),))
    across = read_of((eight, wide, card_at("5S", 400)))
    assert len(without_corners_read_as_others(across, [joined, joined]).piles[0]) == 3
    # an index right beside the 8S's is a fanned neighbour's, which the other reads mistook
    beside, joined = read_with_corner_at(130)
    assert len(without_corners_read_as_others(beside, [joined, joined]).piles[0]) == 3


def test_a_flagged_lone_card_the_other_reads_read_as_itself_or_as_no_kept_card_stays() -> None:
    kept = read_of((card_at("8S", 100), card_at("3S", 220, confidence=0.6)))
    alike = read_of((card_at("8S", 100), card_at("3S", 221)))
    stranger = card_at("9D", 100)
    far_corner = card_at("9D", 220).indices[0]
    other_card = read_of((replace(stranger, indices=(*stranger.indices, far_corner)),))
    assert len(without_corners_read_as_others(kept, [alike, alike]).piles[0]) == 2
    assert len(without_corners_read_as_others(kept, [other_card, other_card]).piles[0]) == 2


def test_a_pile_left_with_no_card_goes_and_the_others_keep_their_sides_and_gaps() -> None:
    eight = card_at("8S", 100)
    corner = card_at("3S", 220, confidence=0.6)
    joined = read_of((replace(eight, indices=(*eight.indices, *corner.indices)),))
    kept = replace(
        read_of((eight,), (corner,), (card_at("5S", 400),), sides=("near", "near", "left")),
        gaps=((1,), (0,), (1,)),
    )
    cleared = without_corners_read_as_others(kept, [joined, joined])
    assert [[card.card for card in pile] for pile in cleared.piles] == [
        list(parse_pile("8S")),
        list(parse_pile("5S")),
    ]
    assert cleared.sides == ("near", "left") and cleared.gaps == ((1,), (1,))
