"""The table as link text: everything a reload must keep comes back, and a damaged or old link
is one sentence, never a traceback."""

from __future__ import annotations

import base64
import contextlib
import json
import random
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blackcat.games.black_cat import Variants
from blackcat.games.black_lady import Rules
from blackcat.games.cards import ALL_CARDS, parse_card, parse_pile
from blackcat.i18n import translator
from blackcat.tables import black_cat_night as nt
from blackcat.tables import black_lady_table as lt
from blackcat.tables import table_link
from blackcat.tables.black_cat_table import (
    Slot,
    Table,
    add_player,
    confirm_card,
    new_table,
    pin_queen,
    place_photo,
    reads_lost,
    rename_player,
    replace_card,
    restore_reads,
    score_table,
    set_cards,
)
from blackcat.tables.table_link import (
    GAPS,
    NIGHT,
    LinkError,
    decode_lady,
    decode_night,
    decode_table,
    encode_lady,
    encode_night,
    encode_table,
)
from blackcat.vision.types import Guess, ReadCard


def read(code: str, x: float = 0.0, confidence: float = 0.4) -> ReadCard:
    guesses = (Guess(parse_card(code), confidence), Guess(parse_card("2S"), 0.3))
    return ReadCard(parse_card(code), (x, 0.0, x + 10.0, 20.0), confidence, guesses, ())


PHOTO = "a1b2c3d4e5f6a7b8c9d0"
ROWS = ((read("8D"), read("2H", 20.0), read("8H", 40.0)), (read("KS", 0.0),))


def on_server(photo: str, place: int) -> ReadCard | None:
    """The server's copy of the photo's reads."""
    flat = [r for row in ROWS for r in row]
    return flat[place] if photo == PHOTO and place < len(flat) else None


def index_on_server(photo: str, card: ReadCard) -> int | None:
    flat = [r for row in ROWS for r in row]
    return flat.index(card) if photo == PHOTO and card in flat else None


def edited_table() -> Table:
    """Two players, a photo, a correction, a confirmation, a pin and two variants."""
    table = new_table(
        ("Ann", "Ben"),
        Variants(decks=2, lucky_tom=True),
        piles=[[parse_pile("QS 2C 3H 7H"), parse_pile("")], [(), parse_pile("10s 10h")]],
    )
    ann, ben = (player.id for player in table.players)
    table = pin_queen(table, table.players[0].piles[0].id, 0, 7)
    table = place_photo(table, ben, PHOTO, ROWS)
    photo_pile = table.players[1].piles[0].id
    table = replace_card(table, photo_pile, 1, parse_card("2S"))
    table = confirm_card(table, photo_pile, 2)
    return rename_player(table, ann, "Anna")


def shape(table: Table) -> list:
    """Everything about the table but the ids."""
    return [
        *(
            (player.name, [[slot_shape(s) for s in p.slots] for p in player.piles])
            for player in table.players
        ),
        table.variants,
    ]


def slot_shape(slot: Slot) -> tuple:
    return slot.card, slot.pin, slot.checked, slot.read, slot.photo


def test_a_table_comes_back_with_its_reads_while_the_server_has_the_photo() -> None:
    table = edited_table()
    link = decode_table(encode_table(table, 1, index_on_server), on_server)
    assert link.selected == 1
    assert shape(link.table) == shape(table)
    assert not link.table.example
    photo_pile = link.table.players[1].piles[0]
    assert [s.doubtful for s in photo_pile.slots] == [True, False, False]  # 8D still to check
    assert score_table(link.table).score.players[0].total == score_table(table).players[0].total


def test_cards_of_a_photo_the_server_no_longer_has_lose_their_reads_not_their_photo() -> None:
    table = edited_table()
    link = decode_table(encode_table(table, 0, index_on_server))  # a restarted server
    photo_pile = link.table.players[1].piles[0]
    assert [s.card.code for s in photo_pile.slots] == ["8D", "2S", "8H"]
    assert all(s.read is None for s in photo_pile.slots)  # shown as typed cards
    # they still name the photo and their places in it, in the link made again too (a reload,
    # a share): uploaded again, the photo is known for one on the table already
    assert [s.photo for s in photo_pile.slots] == [PHOTO] * 3
    assert reads_lost(link.table, PHOTO) and not reads_lost(table, PHOTO)
    kept = decode_table(encode_table(link.table, 0, index_on_server)).table
    assert shape(kept) == shape(link.table)
    assert [s.lost_read for s in kept.players[1].piles[0].slots] == [0, 1, 2]
    # read again, it gives them their reads back: the table as it was, the corrected 2S too
    reads = [read for row in ROWS for read in row]
    again = restore_reads(kept, PHOTO, reads)
    assert shape(again) == shape(table) and not reads_lost(again, PHOTO)
    assert [s.doubtful for s in again.players[1].piles[0].slots] == [True, False, False]
    assert restore_reads(again, PHOTO, reads) is again  # nothing lost: no change to undo


def test_a_full_table_fits_in_a_short_link() -> None:
    table = new_table(("Player 1",), piles=[[tuple(ALL_CARDS[:26]), tuple(ALL_CARDS[26:])]])
    for _ in range(3):
        table = add_player(table)
    text = encode_table(table)
    assert len(text) < 600
    assert text.isascii() and not set(text) & set("+/=&?# ")


@settings(max_examples=60, deadline=None)
@given(
    piles=st.lists(st.lists(st.sampled_from(ALL_CARDS), max_size=20), min_size=1, max_size=4),
    players=st.integers(1, 4),
    variants=st.builds(
        Variants,
        decks=st.sampled_from([1, 2]),
        lucky_tom=st.booleans(),
        music_of_the_night=st.booleans(),
    ),
    selected=st.integers(0, 3),
)
def test_any_table_round_trips(piles, players: int, variants: Variants, selected: int) -> None:
    names = [f"P{n}" for n in range(players)]
    table = new_table(names, variants, [[tuple(p) for p in piles]] * players)
    link = decode_table(encode_table(table, selected))
    assert shape(link.table) == shape(table)
    assert link.selected == (selected if selected < players else 0)


def packed(data: object) -> str:
    raw = json.dumps(data).encode()
    return base64.urlsafe_b64encode(zlib.compress(raw)).decode().rstrip("=")


GOOD = {"v": 1, "s": 0, "d": 1, "l": 0, "m": 0, "f": [], "p": [["Ann", [["QS"]]]]}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("not-a-table", "can't be read"),
        (encode_table(edited_table())[:-12], "can't be read"),
        (packed({**GOOD, "v": 99}), "another version of the app"),
        (packed({**GOOD, "p": [["Ann", [["QX"]]]]}), "'QX' is not a card"),
        (packed({**GOOD, "p": [["Ann", [["KS=7"]]]]}), "K♠ can't be pinned to 7"),
        (packed({**GOOD, "p": [["Ann", [["QS@3.0"]]]]}), "can't be read"),
        (packed({**GOOD, "p": [[f"P{n}", [[]]] for n in range(5)]}), "at most 4|1 to 4 players"),
        (packed({**GOOD, "p": [["Ann", [[]]], ["ann", [[]]]]}), "already a player called"),
        (packed({**GOOD, "p": [["<img src=//x.test/p.gif>", [[]]]]}), "a name without <"),
        (packed({**GOOD, "p": [["Ann", []]]}), "has no piles"),
        (packed({**GOOD, "d": 3}), "can't be read"),
        (packed([1, 2, 3]), "can't be read"),
        (packed({**GOOD, "p": "Ann"}), "can't be read"),
        (base64.urlsafe_b64encode(zlib.compress(b"{" * 300_000)).decode(), "can't be read"),
    ],
    ids=[
        "garbage",
        "cut-short",
        "old-version",
        "bad-card",
        "bad-pin",
        "bad-photo-ref",
        "five-players",
        "same-name",
        "markup-name",
        "no-piles",
        "three-decks",
        "not-an-object",
        "players-not-a-list",
        "zip-bomb",
    ],
)
def test_a_damaged_or_old_link_is_one_sentence(text: str, says: str) -> None:
    with pytest.raises(LinkError, match=says) as refused:
        decode_table(text)
    assert "\n" not in str(refused.value)


def test_a_damaged_or_old_link_is_told_in_spanish_its_detail_as_it_is() -> None:
    spanish = translator("es")
    with pytest.raises(LinkError) as damaged:
        decode_table("not-a-table")
    english = table_link.link_error_text(damaged.value)
    assert english == str(damaged.value) and english.startswith(table_link.DAMAGED)
    assert table_link.link_error_text(damaged.value, spanish).startswith(
        "la partida de este enlace no se puede leer"
    )
    detail = LinkError(f"{table_link.DAMAGED}: 'XX' is not a card")
    assert table_link.link_error_text(detail, spanish).endswith(": 'XX' is not a card")
    old = LinkError(table_link.OTHER_VERSION)
    assert "otra versión" in table_link.link_error_text(old, spanish)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_is_a_table_or_a_link_error(text: str) -> None:
    with contextlib.suppress(LinkError):
        decode_table(text)


def test_gaps_come_back_after_a_reload_and_old_links_have_none() -> None:
    table = new_table(("Ann", "Ben"))
    ben = table.players[1].id
    table = place_photo(table, ben, PHOTO, ROWS, [(0, 3), (1,)])
    link = decode_table(encode_table(table, 1, index_on_server), on_server)
    assert [pile.gaps for pile in link.table.players[1].piles] == [(0, 3), (1,)]
    assert [pile.gaps for pile in link.table.players[0].piles] == [(), ()]
    old = decode_table(packed(GOOD))  # a link from before gaps
    assert old.table.players[0].piles[0].gaps == ()
    assert GAPS not in table_link._json(encode_table(edited_table()))


@pytest.mark.parametrize(
    "gaps", [[[0, 0, 2]], [[0, 3, 0]], [[1, 0, 0]], [[0, 0, "x"]], [[0]], "g", [[-1, 0, 0]]]
)
def test_a_damaged_gap_is_a_link_error(gaps) -> None:
    with pytest.raises(LinkError, match="can't be read"):
        decode_table(packed({**GOOD, GAPS: gaps}))


def test_the_players_the_app_named_come_back_as_such_and_a_name_typed_as_typed() -> None:
    table = new_table(("Player 1", "Player 2", "Ann"), unnamed=(0,))  # "Player 2" typed
    night = nt.Night((table,))
    link = table_link.decode_night(table_link.encode_night(night))
    assert [p.unnamed for p in link.night.table.players] == [True, False, False]
    old = decode_table(packed({**GOOD, "p": [["Player 1", [[]]]]}))  # from before: as typed
    assert not old.table.players[0].unnamed
    assert table_link.UNNAMED not in table_link._json(encode_table(edited_table()))


def test_a_black_lady_games_seats_the_app_named_come_back_as_such() -> None:
    game = lt.rename(lt.opening_game(()), 0, "Ann")
    assert decode_lady(encode_lady(game)).unnamed == {1, 2}
    assert decode_lady(encode_lady(lady_game())).unnamed == frozenset()  # every name typed


@pytest.mark.parametrize("unnamed", [[1], [-1], ["0"], 0, [0.5]])
def test_a_damaged_list_of_the_apps_names_is_a_link_error(unnamed) -> None:
    with pytest.raises(LinkError, match="can't be read"):
        decode_table(packed({**GOOD, table_link.UNNAMED: unnamed}))


# ---------------------------------------------------------------------------------------------
# The compact format, and Black Lady


def first_format(table: Table) -> str:
    """The table as the first format wrote it (a card per JSON string, zlib): old links."""
    photos: list[str] = []
    players = []
    for player in table.players:
        piles = []
        for pile in player.piles:
            cards = []
            for slot in pile.slots:
                text = slot.card.code + (f"={slot.pin}" if slot.pin else "")
                text += "!" if slot.checked else ""
                if slot.photo is not None and slot.read is not None:
                    if slot.photo not in photos:
                        photos.append(slot.photo)
                    text += f"@{photos.index(slot.photo)}.{index_on_server(slot.photo, slot.read)}"
                cards.append(text)
            piles.append(cards)
        players.append([player.name, piles])
    return packed({"v": 1, "s": 0, "d": table.variants.decks, "l": 1, "m": 0, "f": photos,
                   "p": players})  # fmt: skip


def test_a_link_of_the_first_format_still_opens() -> None:
    table = edited_table()
    link = decode_table(first_format(table), on_server)
    assert shape(link.table) == shape(table)


def test_the_compact_link_is_much_shorter_than_the_first_format() -> None:
    table = new_table(
        ("Ann", "Ben", "Cy", "Di"), piles=[[tuple(ALL_CARDS[i::4]), ()] for i in range(4)]
    )
    compact = encode_table(table)
    assert len(compact) < len(first_format(table)) * 0.6, (len(compact), len(first_format(table)))
    assert len(compact) < 150


def test_cards_read_in_order_cost_no_character_for_their_reads() -> None:
    reads = tuple(read(card.code, float(i)) for i, card in enumerate(ALL_CARDS[:20]))
    table = place_photo(new_table(("Ann",)), 1, PHOTO, (reads,))
    flat = list(reads)

    def index(photo: str, card: ReadCard) -> int | None:
        return flat.index(card) if photo == PHOTO else None

    def at(photo: str, place: int) -> ReadCard | None:
        return flat[place] if photo == PHOTO and place < len(flat) else None

    text = encode_table(table, 0, index)
    typed = encode_table(place_photo(new_table(("Ann",)), 1, "other", (reads,)))
    assert len(text) - len(typed) < 45  # the photo key (20 hex digits) and where its reads start
    back = decode_table(text, at).table
    assert [s.read for s in back.players[0].piles[0].slots] == flat


LADY_ANN = parse_pile("QS AH KH 5H 2H AS 2S 3S 4S")


def lady_game() -> lt.LadyGame:
    game = lt.new_game(("Ann", "Ben", "Cy", "Di"), Rules(ace_hearts=10))
    game = lt.add_photo(game, 0, PHOTO, ROWS)
    game = lt.on_deal(game, confirm_card, game.deal.tricks(0).id, 1)
    game = lt.set_tricks(game, 1, LADY_ANN)
    game = lt.mark_no_tricks(game, 3, True)
    game = lt.next_deal(game)
    game = lt.set_tricks(game, 2, parse_pile("2C 3C"))
    return lt.choose_deal(game, 0)


def lady_shape(game: lt.LadyGame) -> list:
    return [
        game.names,
        game.rules,
        game.current,
        [
            ([[slot_shape(s) for s in p.piles[0].slots] for p in deal.table.players],
             sorted(deal.table.players.index(p) for p in deal.table.players
                    if p.id in deal.no_tricks))
            for deal in game.deals
        ],
    ]  # fmt: skip


def test_a_black_lady_game_comes_back_from_its_link() -> None:
    game = lady_game()
    back = decode_lady(encode_lady(game, index_on_server), on_server)
    assert lady_shape(back) == lady_shape(game)
    assert lt.sheet(back) == lt.sheet(game)
    assert back.deal.tricks(0).slots[0].doubtful  # the reader's doubt comes back too
    assert lt.next_deal(back).deals[-1].empty  # and the game goes on


def test_a_black_lady_game_of_a_set_number_of_deals_comes_back_with_it() -> None:
    game = lt.set_deals_to_play(lady_game(), 8)
    assert decode_lady(encode_lady(game, index_on_server), on_server).deals_to_play == 8
    assert decode_lady(encode_lady(lady_game(), index_on_server), on_server).deals_to_play is None


def test_a_black_lady_game_comes_back_on_the_deal_it_was_on() -> None:
    game = lt.choose_deal(lady_game(), 1)
    back = decode_lady(encode_lady(game, index_on_server), on_server)
    assert back.current == 1 and lady_shape(back) == lady_shape(game)


def test_a_black_lady_link_is_not_a_black_cat_table() -> None:
    with pytest.raises(LinkError, match="another version"):
        decode_table(encode_lady(lady_game()))
    with pytest.raises(LinkError, match="another version"):
        decode_lady(encode_table(edited_table()))


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({"n": ["Ann", "Ben"], "t": [["", ""]]}, "3 to 9 players"),
        ({"n": ["Ann", "Ben", "Cy"], "t": [["", ""]]}, "tricks for 2 players"),
        ({"n": ["Ann", "Ben", "Cy"], "t": [["A", "A?", ""]]}, "'\\?' is not a card"),
        ({"n": ["Ann", "Ben", "Cy"], "t": [["A@2.0", "", ""]]}, "can't be read"),
        ({"n": ["Ann", "Ben", "Cy"], "t": [["", "", ""]], "a": 12}, "can't be read"),
        ({"n": "Ann", "t": []}, "can't be read"),
        ({"n": ["Ann", "Ben", "[Win](https://x.test)"], "t": [["", "", ""]]}, "a name without"),
        ({"n": ["Ann", "Ben", "Cy"], "t": [["", "", ""]], "e": "8"}, "can't be read"),
        ({"n": ["Ann", "Ben", "Cy"], "t": [["", "", ""], ["", "", ""]], "e": 1}, "on the sheet"),
    ],
)
def test_a_damaged_black_lady_link_is_one_sentence(data: dict, says: str) -> None:
    raw = json.dumps({"v": 2, "g": "lady", **data}).encode()
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    text = "2" + base64.urlsafe_b64encode(deflate.compress(raw) + deflate.flush()).decode()
    with pytest.raises(LinkError, match=says):
        decode_lady(text)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_any_text_is_a_black_lady_game_or_a_link_error(text: str) -> None:
    with contextlib.suppress(LinkError):
        decode_lady("2" + text)


# ---------------------------------------------------------------------------------------------
# A night of Black Cat


def night_shape(night: nt.Night) -> list:
    return [night.current, *(shape(table) for table in night.games)]


def edited_night() -> nt.Night:
    """Three games: the edited table (a photo, pins, variants), a game with a gap the reader
    saw, and a game of typed cards; the first game on screen."""
    night = nt.next_game(nt.Night((edited_table(),)))
    ben = night.table.players[1].id
    night = nt.on_table(night, place_photo, ben, PHOTO, ROWS[:1], [(2,)])
    night = nt.next_game(night)
    night = nt.on_table(night, set_cards, night.table.players[0].piles[0].id, parse_pile("7D 3C"))
    return nt.choose_game(night, 0)


def test_a_night_comes_back_from_its_link_with_every_game() -> None:
    night = edited_night()
    back = decode_night(encode_night(night, 1, index_on_server), on_server)
    assert night_shape(back.night) == night_shape(night) and back.selected == 1
    assert [pile.gaps for pile in back.night.games[1].players[1].piles] == [(2,), ()]
    assert back.night.games[0].players[1].piles[0].slots[0].doubtful  # the reader's doubt
    assert nt.score_night(back.night) == nt.score_night(night)
    on_screen = decode_table(encode_night(night, 1, index_on_server), on_server)
    assert on_screen.table == back.night.table and on_screen.selected == 1
    last = decode_night(encode_night(nt.choose_game(night, 2))).night
    assert last.current == 2 and "c" not in table_link._json(encode_night(last))


def test_a_link_of_one_game_is_a_night_of_one_game() -> None:
    table = edited_table()
    assert encode_night(nt.Night((table,))) == encode_table(table)
    assert NIGHT not in table_link._json(encode_table(table))
    old = decode_night(packed(GOOD))  # a link from before nights
    assert len(old.night.games) == 1 and old.night.current == 0
    assert [p.name for p in old.night.table.players] == ["Ann"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_night_of_three_full_games_fits_in_a_short_link(players: int) -> None:
    """Three games of every card of a deck in each, typed: a few hundred characters (about 270
    to 295 for 2 to 4 players; with each player's piles from a photo, about 440 to 600)."""
    names = ["Ann", "Ben", "Cat", "Dan"][:players]
    each = 52 // (2 * players)
    games = []
    shuffled = random.Random(players)
    for _ in range(3):
        deck = shuffled.sample(ALL_CARDS, len(ALL_CARDS))
        piles = [
            [tuple(deck[(2 * p + k) * each : (2 * p + k + 1) * each]) for k in range(2)]
            for p in range(players)
        ]
        games.append(new_table(names, piles=piles))
    text = encode_night(nt.night_of(games))
    assert len(text) < 320, len(text)
    assert text.isascii() and not set(text) & set("+/=&?# ")


@pytest.mark.parametrize(
    "night",
    [{NIGHT: "Ann"}, {NIGHT: [1]}, {NIGHT: [{"q": []}]}, {NIGHT: [], "c": 1}, {"c": -1}],
    ids=["not-a-list", "not-a-game", "no-players", "no-such-game", "negative-game"],
)
def test_a_damaged_night_is_a_link_error(night: dict) -> None:
    with pytest.raises(LinkError, match="can't be read"):
        decode_night(packed({**GOOD, **night}))


@settings(max_examples=40, deadline=None)
@given(
    piles=st.lists(
        st.lists(st.lists(st.sampled_from(ALL_CARDS), max_size=8), min_size=1, max_size=3),
        min_size=1,
        max_size=4,
    ),
    current=st.integers(0, 3),
)
def test_any_night_round_trips(piles, current: int) -> None:
    games = [new_table(["Ann", "Ben"], piles=[[tuple(p) for p in game]] * 2) for game in piles]
    night = nt.night_of(games, current)
    back = decode_night(encode_night(night)).night
    assert night_shape(back) == night_shape(night)


def test_who_photographs_the_whole_table_comes_back_from_the_link() -> None:
    night = edited_night()
    back = decode_night(encode_night(night, 0, index_on_server, photographer=1), on_server)
    assert back.photographer == 1
    assert decode_night(encode_night(night)).photographer is None  # nobody said yet
    assert table_link.PHOTOGRAPHER not in table_link._json(encode_night(night))


@pytest.mark.parametrize("place", [-1, 4, 99])
def test_a_photographer_off_the_table_is_forgotten(place: int) -> None:
    data = table_link._json(encode_night(edited_night()))
    data[table_link.PHOTOGRAPHER] = place
    assert decode_night(table_link._pack(data)).photographer is None


def test_a_damaged_photographer_is_a_link_error() -> None:
    data = table_link._json(encode_night(edited_night()))
    data[table_link.PHOTOGRAPHER] = "Ann"
    with pytest.raises(LinkError):
        decode_night(table_link._pack(data))
