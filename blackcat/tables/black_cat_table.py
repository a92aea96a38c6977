"""The score table the app edits, as values: players, their piles, each card with what the photo
reader said about it, Queen pins and variants; scoring it; and the CSV/JSON exports.

Pure functions on frozen dataclasses: the app keeps one `Table` in its session and replaces it on
every change (which also makes undo a list of earlier tables). Scoring is the engine's
(`blackcat.games.black_cat`); nothing here knows about Streamlit or images. Positions are
0-based, as in the engine; people see 1-based card numbers (`card_number`), as on the annotated
photo.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from blackcat.games.black_cat import (
    FEATURE_KINDS,
    DuplicateCard,
    PlayerScore,
    TableScore,
    Variants,
    feature_name,
    find_duplicates,
    score_player,
)
from blackcat.games.cards import (  # card_number: how people see a card, pile 1 card 3 is 1.3
    QUEEN_VALUES,
    Card,
    CardParseError,
    card_number,
    likely_meant,
    parse_pile,
)
from blackcat.games.report import pile_score_to_json
from blackcat.games.standings import leaders
from blackcat.i18n import ENGLISH, LANGUAGES, N_, TemplateError, Translator, and_list, translator
from blackcat.tables.spreadsheet import Cell, csv_text
from blackcat.vision.types import Guess, ReadCard

MAX_PLAYERS = 4
PILES_PER_PLAYER = 2
EXAMPLE_PLAYER = N_("Example")  # named in the page's language when the example is made
EXAMPLE_PILES: tuple[str, ...] = (
    "QS 6C QH 5H 5D 8D 2S QD QC 2H 8H 7S 3H 4S 6S",
    "10S 10H KD 10C 9H",
)
"""The example player's piles when there is no photo reader: the piles of the example photo
(`app/example.jpg`), which are the rules' own example pile (25 points: Tomcats, Jellical Cats,
a Black Cat, Queens) and the rules' Yowler example with a 9♥ (11 points)."""


NOT_AT_THE_TABLE = N_("that player is no longer at the table")


class TableError(TemplateError, ValueError):
    """A change the table can't take: why, for the person at the phone, in English as the
    exception's text and in any language by `describe`."""


NOT_A_CARD = N_(
    "“{token}” isn't a card: write a rank (A, 2–10, J, Q, K) and a suit (S, H, D, C or ♠ ♥ ♦ ♣), "
    "e.g. QS 10h 4♠"
)
NOT_THE_CARD_AT = N_(
    "“{token}” (card {number}) isn't a card: write a rank (A, 2–10, J, Q, K) and a suit (S, H, "
    "D, C or ♠ ♥ ♦ ♣), e.g. QS 10h 4♠"
)
MEANT_A_CARD = N_("“{token}” isn't a card: did you mean {card}?")
MEANT_THE_CARD_AT = N_("“{token}” (card {number}) isn't a card: did you mean {card}?")


# ---------------------------------------------------------------------------------------------
# Values


@dataclass(frozen=True)
class Slot:
    """One card of a pile, with where it came from."""

    card: Card
    pin: int | None = None  # a Queen the player fixed to 7 or 11
    read: ReadCard | None = None  # how the photo reader saw it (box, confidence, alternatives)
    photo: str | None = None  # key of the photo it was read from
    checked: bool = False  # the person confirmed or corrected it
    # where its read stood among the photo's reads, while the read is lost with the photo (a
    # link opened after the app let go of the photo): the photo read again gives it back
    lost_read: int | None = None

    @property
    def doubtful(self) -> bool:
        """Read from a photo with low confidence, and nobody has looked at it since."""
        return self.read is not None and self.read.doubtful and not self.checked

    @property
    def alternatives(self) -> tuple[Guess, ...]:
        """The reader's other guesses for this card, best first."""
        if self.read is None:
            return ()
        return tuple(guess for guess in self.read.alternatives if guess.card != self.card)


@dataclass(frozen=True)
class Pile:
    id: int
    slots: tuple[Slot, ...] = ()
    gaps: tuple[int, ...] = ()
    """Positions before which the photo reader thinks a card may be missing (len(slots): after
    the last), ascending; a gap goes once a card is added there or the person dismisses it."""

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(slot.card for slot in self.slots)

    @property
    def pins(self) -> dict[int, int]:
        """Position -> pinned value, for the engine."""
        return {i: slot.pin for i, slot in enumerate(self.slots) if slot.pin is not None}


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    piles: tuple[Pile, ...]
    # named by the app ("Player 2", "Left": `SEAT_NAMES`), never by a person: each phone says it
    # in its own language (`named_in`); a name typed, even "Player 2", is kept as typed
    unnamed: bool = False

    @property
    def piles_with_cards(self) -> int:
        """How many of the player's piles hold a card (an empty one is still to come)."""
        return sum(1 for pile in self.piles if pile.slots)


@dataclass(frozen=True)
class Table:
    players: tuple[Player, ...]
    variants: Variants = field(default_factory=Variants)
    example: bool = False  # the untouched example the app opens with: a first photo replaces it
    next_id: int = 1

    def player(self, player_id: int) -> Player:
        for player in self.players:
            if player.id == player_id:
                return player
        raise TableError(NOT_AT_THE_TABLE)

    def locate(self, pile_id: int) -> tuple[int, int]:
        """(player index, pile index) of a pile."""
        for player_index, player in enumerate(self.players):
            for pile_index, pile in enumerate(player.piles):
                if pile.id == pile_id:
                    return player_index, pile_index
        raise TableError(N_("that pile is no longer on the table"))

    def pile(self, pile_id: int) -> Pile:
        player_index, pile_index = self.locate(pile_id)
        return self.players[player_index].piles[pile_index]

    @property
    def piles_by_name(self) -> dict[str, list[tuple[Card, ...]]]:
        return {player.name: [pile.cards for pile in player.piles] for player in self.players}


# ---------------------------------------------------------------------------------------------
# Building tables


def _take_ids(table: Table, count: int) -> tuple[Table, list[int]]:
    ids = list(range(table.next_id, table.next_id + count))
    return replace(table, next_id=table.next_id + count), ids


def new_table(
    names: Sequence[str] = ("Player 1",),
    variants: Variants | None = None,
    piles: Sequence[Sequence[Sequence[Card]]] | None = None,
    unnamed: Collection[int] = (),
) -> Table:
    """Players with the given names, each with `piles[i]` (or two empty piles); the players at
    the places `unnamed` have the app's names (`Player.unnamed`)."""
    if not 1 <= len(names) <= MAX_PLAYERS:
        raise TableError(N_("a table has 1 to {most} players"), most=MAX_PLAYERS)
    table = Table(players=(), variants=variants or Variants())
    for index, name in enumerate(names):
        cards = piles[index] if piles is not None else [()] * PILES_PER_PLAYER
        table, ids = _take_ids(table, len(cards) + 1)
        player = Player(
            ids[0],
            _checked_name(table, name, None),
            tuple(
                Pile(pile_id, tuple(Slot(c) for c in pile))
                for pile_id, pile in zip(ids[1:], cards, strict=True)
            ),
            unnamed=index in unnamed,
        )
        table = replace(table, players=(*table.players, player))
    return table


def example_table(piles: Sequence[str] = EXAMPLE_PILES, tr: Translator = ENGLISH) -> Table:
    """The table the app opens with: one example player (named in `tr`'s language) with typed
    piles."""
    name = tr.gettext(EXAMPLE_PLAYER)
    table = new_table((name,), piles=[[parse_pile(text) for text in piles]])
    return replace(table, example=True)


def example_named(table: Table, tr: Translator) -> Table:
    """The untouched example with its player named in `tr`'s language (the page's language
    changed); any other table as it is: its names are the players'."""
    if not table.example:
        return table
    name = tr.gettext(EXAMPLE_PLAYER)
    players = tuple(replace(player, name=name) for player in table.players)
    return table if players == table.players else replace(table, players=players)


def new_game(table: Table, tr: Translator = ENGLISH) -> Table:
    """The same players with two empty piles each (after the untouched example, a fresh "Player
    1" in `tr`'s language)."""
    if table.example:
        return _example_made_way(table, tr)
    names = [player.name for player in table.players]
    return new_table(names, variants=table.variants, unnamed=unnamed_places(table))


def unnamed_places(table: Table) -> list[int]:
    """The places of the players with the app's names (`Player.unnamed`)."""
    return [index for index, player in enumerate(table.players) if player.unnamed]


def set_variants(table: Table, variants: Variants) -> Table:
    return replace(table, variants=variants)


# ---------------------------------------------------------------------------------------------
# Players


MAX_NAME_LENGTH = 30  # characters: a name fits beside its score on a phone
MARKUP = "<>[]\\`"
"""Characters a name may not hold: the page shows names in Markdown and HTML, where they would
make an image fetched from anywhere, a tag, or a link under other words (a name can come in a
shared link). A bare web address as a name still shows as a link, under its own words."""


PLAYER_NUMBER = N_("Player {number}")


def player_name(number: int, tr: Translator = ENGLISH) -> str:
    """A new player's name until they are named: "Player 1", in `tr`'s language."""
    return tr.gettext(PLAYER_NUMBER).format(number=number)


SEAT_NAMES = {"left": N_("Left"), "far": N_("Across"), "right": N_("Right")}
"""A player a photo of the whole table brings to a table of one is named by where they sit, seen
from the photographer's seat (`seating.players_for_sides`; the near side is the photographer's
own), until someone renames them: an app's name (`Player.unnamed`)."""


def _plain_number(text: str) -> bool:
    return text.isascii() and text.isdigit() and not text.startswith("0")


def name_number(name: str) -> int | None:
    """The number of a name a player has until they are named ("Player 3", "Jugador 3": in any
    language offered); None for any other name."""
    for language in LANGUAGES:
        before, _, after = translator(language).gettext(PLAYER_NUMBER).partition("{number}")
        number = name.removeprefix(before).removesuffix(after)
        if name.startswith(before) and name.endswith(after) and _plain_number(number):
            return int(number)
    return None


def numbered_in(name: str, tr: Translator) -> str | None:
    """A name under a number ("Player 2") as `tr`'s language says it, where that differs; None
    for any other name, or one already in that language."""
    number = name_number(name)
    said = None if number is None else player_name(number, tr)
    return said if said != name else None


def seat_named_in(name: str, tr: Translator) -> str | None:
    """A name by seat (`SEAT_NAMES`: "Left", "Izquierda", "Left 2" where "Left" was taken, in any
    language offered) as `tr`'s language says it, where that differs; None for any other name,
    or one already in that language."""
    for language in LANGUAGES:
        for seat_name in SEAT_NAMES.values():
            there = translator(language).gettext(seat_name)
            number = name.removeprefix(f"{there} ")
            if name == there or (number != name and _plain_number(number)):
                said = tr.gettext(seat_name) + name.removeprefix(there)
                return said if said != name else None
    return None


def app_name_in(name: str, tr: Translator) -> str | None:
    """A name of the app's (`Player.unnamed`: a number's or a seat's) as `tr`'s language says
    it, where that differs; None for any other name, or one already in that language."""
    return numbered_in(name, tr) or seat_named_in(name, tr)


def named_in(table: Table, tr: Translator) -> Table:
    """The players the app named ("Player 2", "Left": `Player.unnamed`) named in `tr`'s
    language, for a phone in that language (the same table where nothing changes); a name a
    person gave stays as given, and so does one whose number another player took in that
    language (a player named "Jugador 3" by hand)."""
    players = list(table.players)
    for index, player in enumerate(players):
        said = app_name_in(player.name, tr) if player.unnamed else None
        taken = any(same_name(other.name, said or "") for other in players if other is not player)
        if said is not None and not taken:
            players[index] = replace(player, name=said)
    return table if players == list(table.players) else replace(table, players=tuple(players))


def same_name(first: str, second: str) -> bool:
    """Whether two names are one player's (whatever their case)."""
    return first.casefold() == second.casefold()


def _checked_name(table: Table, name: str, player_id: int | None) -> str:
    name = " ".join(name.split())
    if not name:
        raise TableError(N_("a player needs a name"))
    if len(name) > MAX_NAME_LENGTH:
        raise TableError(N_("a name of at most {most} characters, please"), most=MAX_NAME_LENGTH)
    if any(character in MARKUP for character in name):
        raise TableError(N_("a name without {characters}, please"), characters=" ".join(MARKUP))
    for other in table.players:
        if other.id != player_id and same_name(other.name, name):
            raise TableError(N_("there is already a player called '{name}'"), name=other.name)
    return name


def _taken(table: Table, elsewhere: Collection[str]) -> set[str]:
    return {name.casefold() for name in (*elsewhere, *(player.name for player in table.players))}


def _free_name(table: Table, tr: Translator, elsewhere: Collection[str]) -> str:
    taken = _taken(table, elsewhere)
    number = len(table.players) + 1
    while player_name(number, tr).casefold() in taken:
        number += 1
    return player_name(number, tr)


def add_player(
    table: Table,
    name: str | None = None,
    tr: Translator = ENGLISH,
    elsewhere: Collection[str] = (),
    by_seat: bool = False,
) -> Table:
    """One more player, with two empty piles; unnamed, a free "Player N" in `tr`'s language,
    free of the `elsewhere` names too (the night's other games: a newcomer must not take the
    points of a player who left). The untouched example makes way for a new game of "Player 1"
    and the new player. `by_seat`: `name` is the app's, a seat's (`SEAT_NAMES`)."""
    table = _example_made_way(table, tr)
    if len(table.players) >= MAX_PLAYERS:
        raise TableError(N_("at most {most} players"), most=MAX_PLAYERS)
    unnamed = name is None or by_seat
    if name is None:
        name = _free_name(table, tr, elsewhere)
    name = _checked_name(table, name, None)
    table, ids = _take_ids(table, PILES_PER_PLAYER + 1)
    player = Player(ids[0], name, tuple(Pile(pile_id) for pile_id in ids[1:]), unnamed)
    return replace(table, players=(*table.players, player), example=False)


def add_players(
    table: Table,
    names: Sequence[str],
    tr: Translator = ENGLISH,
    elsewhere: Collection[str] = (),
    by_seat: bool = False,
) -> Table:
    """Players added after the others in this order (`add_player`: the untouched example makes
    way first), each named as given, or with the first free number after it where another
    player, or an `elsewhere` name, has that name ("Left 2"); `by_seat`: the names are the
    app's, seats' (`SEAT_NAMES` in `tr`'s language). No names: the table as it is."""
    if not names:
        return table
    table = _example_made_way(table, tr)
    for name in names:
        table = add_player(table, _free_as(table, name, elsewhere), tr, by_seat=by_seat)
    return table


def _example_made_way(table: Table, tr: Translator) -> Table:
    """The untouched example's table as a new game of "Player 1" (in `tr`'s language); any
    other table as it is."""
    if not table.example:
        return table
    first = player_name(1, tr)
    return new_table((first,), variants=table.variants, unnamed=(0,))


def _free_as(table: Table, name: str, elsewhere: Collection[str]) -> str:
    taken = _taken(table, elsewhere)
    free, number = name, 1
    while free.casefold() in taken:
        number += 1
        free = f"{name} {number}"
    return free


def remove_player(table: Table, player_id: int) -> Table:
    table.player(player_id)
    if len(table.players) == 1:
        raise TableError(N_("the table needs at least one player"))
    players = tuple(player for player in table.players if player.id != player_id)
    return replace(table, players=players, example=False)


def rename_player(table: Table, player_id: int, name: str) -> Table:
    """The player named `name` by a person: a name of the app's changed is theirs from now on
    (`Player.unnamed`)."""
    before = table.player(player_id).name
    name = _checked_name(table, name, player_id)
    if name == before:
        return _replace_player(table, player_id, lambda player: player)
    return _replace_player(
        table, player_id, lambda player: replace(player, name=name, unnamed=False)
    )


def _replace_player(table: Table, player_id: int, change: Callable[[Player], Player]) -> Table:
    players = tuple(
        change(player) if player.id == player_id else player for player in table.players
    )
    return replace(table, players=players, example=False)


# ---------------------------------------------------------------------------------------------
# Piles


def add_pile(table: Table, player_id: int) -> Table:
    table, (pile_id,) = _take_ids(table, 1)
    return _replace_player(
        table, player_id, lambda player: replace(player, piles=(*player.piles, Pile(pile_id)))
    )


def remove_pile(table: Table, pile_id: int) -> Table:
    player_index, pile_index = table.locate(pile_id)
    player = table.players[player_index]
    if len(player.piles) == 1:
        raise TableError(N_("a player needs at least one pile: clear its cards instead"))
    piles = player.piles[:pile_index] + player.piles[pile_index + 1 :]
    return _replace_player(table, player.id, lambda p: replace(p, piles=piles))


def _set_piles(table: Table, player_index: int, piles: Sequence[Pile]) -> Table:
    player = table.players[player_index]
    return _replace_player(table, player.id, lambda p: replace(p, piles=tuple(piles)))


def _set_slots(table: Table, pile_id: int, slots: Iterable[Slot]) -> Table:
    player_index, pile_index = table.locate(pile_id)
    piles = list(table.players[player_index].piles)
    piles[pile_index] = replace(piles[pile_index], slots=tuple(_valid_pin(s) for s in slots))
    return _set_piles(table, player_index, piles)


def _valid_pin(slot: Slot) -> Slot:
    return slot if slot.pin is None or slot.card.is_queen else replace(slot, pin=None)


def _slot_at(table: Table, pile_id: int, position: int) -> tuple[Pile, Slot]:
    pile = table.pile(pile_id)
    if not 0 <= position < len(pile.slots):
        raise TableError(N_("that card is no longer in the pile"))
    return pile, pile.slots[position]


def pile_text(pile: Pile) -> str:
    """The pile as people type it: `QS 10H 4S`."""
    return " ".join(card.code for card in pile.cards)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Cards typed by a person; TableError names the token that isn't a card."""
    try:
        return parse_pile(text)
    except CardParseError as error:
        meant = likely_meant(error.token)
        at = error.position is not None
        if meant is None:
            template = NOT_THE_CARD_AT if at else NOT_A_CARD
        else:
            template = MEANT_THE_CARD_AT if at else MEANT_A_CARD
        number = error.position + 1 if error.position is not None else None
        raise TableError(template, token=error.token, number=number, card=meant) from None


def set_cards(table: Table, pile_id: int, cards: Sequence[Card]) -> Table:
    """The pile's cards replaced by `cards` (e.g. retyped), keeping what is known of every card
    that stays; a card typed in place of another is a correction of that card (its photo box
    and pin stay with it), and the rest are new cards."""
    old = table.pile(pile_id).slots
    opcodes = retyping_opcodes([slot.card for slot in old], cards)
    gaps = _gaps_after_retyping(table.pile(pile_id).gaps, opcodes, len(old), len(cards))
    table = _set_gaps(table, pile_id, gaps)
    slots: list[Slot] = []
    for tag, a1, a2, b1, b2 in opcodes:
        if tag == "equal":
            slots.extend(old[a1:a2])
            continue
        corrected = min(a2 - a1, b2 - b1) if tag == "replace" else 0
        slots.extend(
            replace(old[a1 + i], card=cards[b1 + i], checked=True) for i in range(corrected)
        )
        slots.extend(Slot(card) for card in cards[b1 + corrected : b2])
    return _set_slots(table, pile_id, slots)


def dismiss_gap(table: Table, pile_id: int, position: int) -> Table:
    """No card is missing at `position` after all: its gap marker goes."""
    pile = table.pile(pile_id)
    return _set_gaps(table, pile_id, tuple(g for g in pile.gaps if g != position))


def _set_gaps(table: Table, pile_id: int, gaps: Iterable[int]) -> Table:
    player_index, pile_index = table.locate(pile_id)
    piles = list(table.players[player_index].piles)
    piles[pile_index] = replace(piles[pile_index], gaps=tuple(sorted(set(gaps))))
    return _set_piles(table, player_index, piles)


def _gaps_after_insert(gaps: Sequence[int], position: int) -> tuple[int, ...]:
    """A card put at `position`: a gap there is filled, the later ones move one on."""
    return tuple(g + (g > position) for g in gaps if g != position)


def _gaps_after_delete(gaps: Sequence[int], position: int) -> tuple[int, ...]:
    """The card at `position` taken out: later gaps move one back (a gap before it now lies
    before the card that followed it)."""
    return tuple(sorted({g - (g > position) for g in gaps}))


def _gaps_after_move(gaps: Sequence[int], position: int, target: int) -> tuple[int, ...]:
    """The card at `position` moved to `target` (its place once moved): each gap stays before
    the card it was before (a gap before the moved card, before the card that followed it)."""
    return tuple(g + (g >= target) for g in _gaps_after_delete(gaps, position))


Opcode = tuple[str, int, int, int, int]
"""As difflib's: `(tag, a1, a2, b1, b2)`, tag `equal`, `replace`, `delete` or `insert`."""


def retyping_opcodes(old: Sequence[Card], typed: Sequence[Card]) -> list[Opcode]:
    """The fewest changes of one card each (kept, corrected, taken out, typed in) that make
    `typed` of `old`, as difflib's opcodes: a card typed where another was is a correction of
    it, where difflib's longest match would take "A♠ A♠" retyped "10♥ A♠" as a 10♥ put first
    and the last A♠ taken out (its photo box then on the other A♠)."""
    rows, columns = len(old) + 1, len(typed) + 1
    cost = [
        [row + column if not row or not column else 0 for column in range(columns)]
        for row in range(rows)
    ]
    for i in range(1, rows):
        for j in range(1, columns):
            cost[i][j] = min(
                cost[i - 1][j - 1] + (old[i - 1] != typed[j - 1]),
                cost[i - 1][j] + 1,
                cost[i][j - 1] + 1,
            )
    steps: list[Opcode] = []
    i, j = len(old), len(typed)
    while i or j:  # from the end: where choices tie, cards typed in or taken out go last
        if j and cost[i][j] == cost[i][j - 1] + 1:
            steps.append(("insert", i, i, j - 1, j))
            j -= 1
        elif i and cost[i][j] == cost[i - 1][j] + 1:
            steps.append(("delete", i - 1, i, j, j))
            i -= 1
        else:
            tag = "equal" if old[i - 1] == typed[j - 1] else "replace"
            steps.append((tag, i - 1, i, j - 1, j))
            i, j = i - 1, j - 1
    opcodes: list[Opcode] = []
    for tag, a1, a2, b1, b2 in reversed(steps):
        if opcodes and opcodes[-1][0] == tag:
            opcodes[-1] = (tag, opcodes[-1][1], a2, opcodes[-1][3], b2)
        else:
            opcodes.append((tag, a1, a2, b1, b2))
    return opcodes


def _gaps_after_retyping(
    gaps: Sequence[int], opcodes: Sequence[Opcode], old_length: int, new_length: int
) -> tuple[int, ...]:
    """Gaps carried through a retyped pile: each stays before the same card (before what
    followed a card taken out); a gap where the person typed a new card in is filled."""
    out = set()
    for gap in gaps:
        if any(tag == "insert" and a1 == gap for tag, a1, _, _, _ in opcodes):
            continue
        if gap >= old_length:
            out.add(new_length)
            continue
        for _, a1, a2, b1, b2 in opcodes:
            if a1 <= gap < a2:
                out.add(b1 + min(gap - a1, b2 - b1))
                break
    return tuple(sorted(out))


def replace_card(table: Table, pile_id: int, position: int, card: Card) -> Table:
    """The card at `position` is really `card` (a checked correction)."""
    pile, slot = _slot_at(table, pile_id, position)
    slots = list(pile.slots)
    slots[position] = replace(slot, card=card, checked=True)
    return _set_slots(table, pile_id, slots)


def confirm_card(table: Table, pile_id: int, position: int) -> Table:
    """The card at `position` was read right."""
    _, slot = _slot_at(table, pile_id, position)
    return replace_card(table, pile_id, position, slot.card)


def insert_card(table: Table, pile_id: int, position: int, card: Card) -> Table:
    """`card` put at `position` (the length of the pile: at the end)."""
    pile = table.pile(pile_id)
    if not 0 <= position <= len(pile.slots):
        raise TableError(N_("that place is no longer in the pile"))
    slots = list(pile.slots)
    slots.insert(position, Slot(card))
    table = _set_gaps(table, pile_id, _gaps_after_insert(pile.gaps, position))
    return _set_slots(table, pile_id, slots)


def delete_card(table: Table, pile_id: int, position: int) -> Table:
    pile, _ = _slot_at(table, pile_id, position)
    table = _set_gaps(table, pile_id, _gaps_after_delete(pile.gaps, position))
    return _set_slots(table, pile_id, pile.slots[:position] + pile.slots[position + 1 :])


def take_off_not_a_card(table: Table, pile_id: int, position: int) -> Table:
    """A card the reader saw where there is none taken off. A pile it leaves empty keeps no gap
    marker (it said a card may be missing after the last card, of no card), and goes where its
    player has more than two (a card of the background read as a pile of its own; helper-51)."""
    table = delete_card(table, pile_id, position)
    if table.pile(pile_id).slots:
        return table
    player_index, _ = table.locate(pile_id)
    if len(table.players[player_index].piles) > PILES_PER_PLAYER:
        return remove_pile(table, pile_id)
    return _set_gaps(table, pile_id, ())


def move_card(table: Table, pile_id: int, position: int, offset: int) -> Table:
    """The card moved `offset` places to the right (negative: left), within the pile."""
    pile, _ = _slot_at(table, pile_id, position)
    target = position + offset
    if not 0 <= target < len(pile.slots):
        raise TableError(N_("the card is already at the end of the pile"))
    slots = list(pile.slots)
    slots.insert(target, slots.pop(position))
    table = _set_slots(table, pile_id, slots)
    return _set_gaps(table, pile_id, _gaps_after_move(pile.gaps, position, target))


def move_card_to_pile(table: Table, pile_id: int, position: int, target_pile_id: int) -> Table:
    """The card moved to the player's other pile: to its start when that pile comes after this
    one, to its end when it comes before (where a row split in the wrong place puts it)."""
    pile, slot = _slot_at(table, pile_id, position)
    player_index, pile_index = table.locate(pile_id)
    target_player, target_index = table.locate(target_pile_id)
    if target_player != player_index or target_index == pile_index:
        raise TableError(N_("a card can only move to another pile of the same player"))
    piles = list(table.players[player_index].piles)
    piles[pile_index] = replace(
        pile,
        slots=pile.slots[:position] + pile.slots[position + 1 :],
        gaps=_gaps_after_delete(pile.gaps, position),
    )
    target = piles[target_index]
    at = 0 if target_index > pile_index else len(target.slots)
    slots = (*target.slots[:at], slot, *target.slots[at:])
    piles[target_index] = replace(target, slots=slots, gaps=_gaps_after_insert(target.gaps, at))
    return _set_piles(table, player_index, piles)


def split_pile(table: Table, pile_id: int, position: int) -> Table:
    """A new pile, right after this one, from the card at `position` to the end."""
    pile, _ = _slot_at(table, pile_id, position)
    if position == 0:
        raise TableError(N_("split after the first card at the earliest"))
    table, (new_id,) = _take_ids(table, 1)
    player_index, pile_index = table.locate(pile_id)
    piles = list(table.players[player_index].piles)
    piles[pile_index : pile_index + 1] = [
        replace(
            pile, slots=pile.slots[:position], gaps=tuple(g for g in pile.gaps if g <= position)
        ),
        Pile(new_id, pile.slots[position:], tuple(g - position for g in pile.gaps if g > position)),
    ]
    return _set_piles(table, player_index, piles)


def join_with_next(table: Table, pile_id: int) -> Table:
    """This pile and the next one of the same player become one pile (this one first)."""
    player_index, pile_index = table.locate(pile_id)
    piles = list(table.players[player_index].piles)
    if pile_index + 1 >= len(piles):
        raise TableError(N_("there is no next pile to join"))
    first, second = piles[pile_index], piles[pile_index + 1]
    gaps = sorted({*first.gaps, *(g + len(first.slots) for g in second.gaps)})
    piles[pile_index : pile_index + 2] = [
        replace(first, slots=first.slots + second.slots, gaps=tuple(gaps))
    ]
    return _set_piles(table, player_index, piles)


def pin_queen(table: Table, pile_id: int, position: int, value: int | None) -> Table:
    """The Queen at `position` fixed to 7 or 11 (None: the best value again)."""
    pile, slot = _slot_at(table, pile_id, position)
    if not slot.card.is_queen:
        raise TableError(
            N_("{card} is not a Queen: only Queens are worth 7 or 11"), card=slot.card.label
        )
    if value is not None and value not in QUEEN_VALUES:
        raise TableError(N_("a Queen is worth 7 or 11"))
    slots = list(pile.slots)
    slots[position] = replace(slot, pin=value)
    return _set_slots(table, pile_id, slots)


# ---------------------------------------------------------------------------------------------
# Photos


def place_photo(
    table: Table,
    player_id: int,
    photo: str,
    rows: Sequence[Sequence[ReadCard]],
    gaps: Sequence[Sequence[int]] = (),
    tr: Translator = ENGLISH,
) -> Table:
    """A read photo's rows given to a player: each row fills the player's next empty pile, or
    becomes a new pile, with the places where the reader thinks a card may be missing (`gaps`,
    one list per row). The untouched example makes way for a new "Player 1" (in `tr`'s
    language) first."""
    seating = ((player_id, tuple(range(len(rows)))),)
    return place_table_photo(table, photo, seating, rows, gaps, tr)


def place_table_photo(
    table: Table,
    photo: str,
    seating: Sequence[tuple[int, Sequence[int]]],
    rows: Sequence[Sequence[ReadCard]],
    gaps: Sequence[Sequence[int]] = (),
    tr: Translator = ENGLISH,
) -> Table:
    """A read photo's rows shared among players: `seating` pairs a player's id with the indexes
    of the rows that are theirs, and each player gets them as `place_photo` gives a player a
    photo of their own piles. The untouched example makes way for a new game first (its players
    by their place at the table)."""
    if not any(rows[index] for _, indexes in seating for index in indexes):
        raise TableError(N_("no cards were found in the photo"))
    if photo_owner(table, photo) is not None:
        raise TableError(
            N_("this photo is already on the table ({owner})"), owner=photo_owner(table, photo)
        )
    places = [table.players.index(table.player(player_id)) for player_id, _ in seating]
    if table.example:
        table = new_game(table, tr)
    for place, (_, indexes) in zip(places, seating, strict=True):
        table = _place_rows(
            table,
            place,
            photo,
            [rows[index] for index in indexes],
            [gaps[index] if index < len(gaps) else () for index in indexes],
        )
    return table


def _place_rows(
    table: Table,
    player_index: int,
    photo: str,
    rows: Sequence[Sequence[ReadCard]],
    gaps: Sequence[Sequence[int]],
) -> Table:
    """The rows with cards given to a player: each fills their next empty pile, or becomes a
    new pile."""
    piles = list(table.players[player_index].piles)
    for row, gaps_of_row in zip(rows, gaps, strict=True):
        if not row:
            continue
        slots = tuple(Slot(read.card, read=read, photo=photo) for read in row)
        empty = next((i for i, pile in enumerate(piles) if not pile.slots), None)
        if empty is None:
            table, (pile_id,) = _take_ids(table, 1)
            piles.append(Pile(pile_id, slots, tuple(gaps_of_row)))
        else:
            piles[empty] = replace(piles[empty], slots=slots, gaps=tuple(gaps_of_row))
    return _set_piles(table, player_index, piles)


def give_pile(table: Table, pile_id: int, player_id: int) -> Table:
    """A pile given to another player, into their first empty pile (else after their last);
    a player left without piles gets two empty ones."""
    player_index, pile_index = table.locate(pile_id)
    giver = table.players[player_index]
    table.player(player_id)
    if giver.id == player_id:
        raise TableError(N_("the pile is already {name}'s"), name=giver.name)
    pile = giver.piles[pile_index]
    kept = giver.piles[:pile_index] + giver.piles[pile_index + 1 :]
    table = _set_piles(table, player_index, kept)
    table = _with_piles(table, player_index)
    return _receive(table, player_id, [pile])


def _with_piles(table: Table, player_index: int) -> Table:
    """The player as they are, or with two empty piles when they have none left."""
    if table.players[player_index].piles:
        return table
    table, ids = _take_ids(table, PILES_PER_PLAYER)
    return _set_piles(table, player_index, [Pile(pile_id) for pile_id in ids])


def _receive(table: Table, player_id: int, given: Sequence[Pile]) -> Table:
    """Piles given to a player: each into their next empty pile, else after their last."""
    target_index = table.players.index(table.player(player_id))
    piles = list(table.players[target_index].piles)
    for pile in given:
        empty = next((i for i, p in enumerate(piles) if not p.slots), None)
        if empty is None:
            piles.append(pile)
        else:
            piles[empty] = pile
    return _set_piles(table, target_index, piles)


def photo_owner(table: Table, photo: str) -> str | None:
    """Name of the player whose piles hold cards from the photo."""
    for player in table.players:
        if any(holds_photo(pile, photo) for pile in player.piles):
            return player.name
    return None


def all_slots(table: Table) -> Iterator[Slot]:
    """Every card on the table, player by player, pile by pile."""
    return (slot for player in table.players for pile in player.piles for slot in pile.slots)


def reads_lost(table: Table, photo: str) -> bool:
    """Whether cards of `photo` lie on the table without their reads (`Slot.lost_read`): a
    link opened after the app let go of the photo (`table_link`)."""
    return any(slot.photo == photo and slot.lost_read is not None for slot in all_slots(table))


def restore_reads(table: Table, photo: str, reads: Sequence[ReadCard]) -> Table:
    """The photo, read again, gives its cards on the table their reads back (`reads_lost`):
    each takes the read at its place among the photo's reads, the card itself staying as it is
    (a correction too). The same table where none was lost."""
    if not reads_lost(table, photo):
        return table

    def restored(slot: Slot) -> Slot:
        if slot.photo != photo or slot.lost_read is None:
            return slot
        if slot.lost_read >= len(reads):  # not the photo the link named: typed, as it shows
            return replace(slot, photo=None, lost_read=None)
        return replace(slot, read=reads[slot.lost_read], lost_read=None)

    for pile in [pile for player in table.players for pile in player.piles]:
        if holds_photo(pile, photo):
            table = _set_slots(table, pile.id, (restored(slot) for slot in pile.slots))
    return table


def piles_changed(before: Table, after: Table) -> set[int]:
    """Ids of the piles `after` holds otherwise than `before` did: changed, added or gone (a
    pile given to another player as it was is not changed)."""
    old = {pile.id: pile for player in before.players for pile in player.piles}
    new = {pile.id: pile for player in after.players for pile in player.piles}
    return {pile_id for pile_id in old.keys() | new.keys() if old.get(pile_id) != new.get(pile_id)}


def photos_on(tables: Iterable[Table]) -> set[str]:
    """Keys of the photos any of `tables` holds cards of; a table met twice (a night's Undo
    history shares its unchanged games) is looked at once."""
    distinct = {id(table): table for table in tables}
    return {key for table in distinct.values() for p in table.players for key in photos_of(p)}


def pile_ids_on(tables: Iterable[Table]) -> set[int]:
    """The ids of the piles any of `tables` holds (a table met twice looked at once)."""
    distinct = {id(table): table for table in tables}
    return {pile.id for table in distinct.values() for p in table.players for pile in p.piles}


def photos_of(player: Player) -> list[str]:
    """Keys of the photos the player's cards come from, in the order they first appear."""
    keys = (slot.photo for pile in player.piles for slot in pile.slots if slot.photo)
    return list(dict.fromkeys(keys))


def others_with_photo(table: Table, player: Player, photo: str) -> tuple[str, ...]:
    """The names of the other players holding cards read from `photo` (moved to them, or a
    photo of the whole table's): taking the photo's cards off takes theirs too."""
    return tuple(
        other.name for other in table.players if other.id != player.id and photo in photos_of(other)
    )


PhotoMarks = tuple[tuple[int, int, Slot], ...]  # (pile index, position, slot) of a photo's cards


def photo_marks(player: Player, photo: str) -> PhotoMarks:
    """(pile index, position, slot) of every card of the player read from the photo."""
    return tuple(
        (pile_index, position, slot)
        for pile_index, pile in enumerate(player.piles)
        for position, slot in enumerate(pile.slots)
        if slot.photo == photo
    )


def doubtful_from(table: Table, photo: str) -> int:
    """How many cards read from `photo` are still marked doubtful (orange)."""
    return sum(1 for slot in all_slots(table) if slot.photo == photo and slot.doubtful)


TAKEN_TWICE_FROM = 3  # cards two photos share, at least, to look like the same piles twice


def photo_taken_twice(table: Table, photo: str) -> tuple[str, int] | None:
    """The key of another photo on the table holding at least half of `photo`'s cards or of its
    own (and `TAKEN_TWICE_FROM` or more), the one sharing most, and how many it shares: the same
    piles photographed again (a retake; the whole table after one player's piles), their cards
    counted twice (with two decks nothing else says so). None where none does."""
    return _taken_twice_in(cards_by_photo(table), photo)


def cards_by_photo(table: Table) -> dict[str, Counter[Card]]:
    """The cards read from each photo on the table, photos in the order the table holds them."""
    cards: dict[str, Counter[Card]] = {}
    for slot in all_slots(table):
        if slot.photo is not None:
            cards.setdefault(slot.photo, Counter())[slot.card] += 1
    return cards


def _taken_twice_in(cards: Mapping[str, Counter[Card]], photo: str) -> tuple[str, int] | None:
    """`photo_taken_twice` on the table's `cards_by_photo`."""
    mine = cards.get(photo, Counter())
    shared = {
        key: count
        for key, theirs in cards.items()
        if key != photo
        and (count := (mine & theirs).total()) >= TAKEN_TWICE_FROM
        and 2 * count >= min(mine.total(), theirs.total())
    }
    most = max(shared, key=shared.__getitem__, default=None)
    return None if most is None else (most, shared[most])


def holds_photo(pile: Pile, photo: str) -> bool:
    """Whether the pile holds cards from the photo."""
    return any(slot.photo == photo for slot in pile.slots)


def photo_piles(table: Table, photo: str) -> tuple[tuple[Player, int, Pile], ...]:
    """Every pile holding cards from the photo: its player, its place among their piles, the
    pile; in the table's order."""
    return tuple(
        (player, pile_index, pile)
        for player in table.players
        for pile_index, pile in enumerate(player.piles)
        if holds_photo(pile, photo)
    )


def reseat_photos(table: Table, photos: Sequence[str], moves: Mapping[int, int]) -> Table:
    """Every pile holding cards from `photos` given from its player to another (`moves`: the
    giver's id to the receiver's; players not in it keep theirs), each player's piles in their
    order: the photos of the whole table shared out again from another photographer's seat."""
    handed = {
        pile.id: moves[player.id]
        for photo in photos
        for player, _index, pile in photo_piles(table, photo)
        if moves.get(player.id, player.id) != player.id
    }
    for pile_id, receiver in handed.items():
        table = give_pile(table, pile_id, receiver)
    return table


def reassign_photo(table: Table, photo: str, player_id: int) -> Table:
    """Every pile holding cards from the photo moved to another player, into that player's empty
    piles first; a player left without piles gets two empty ones."""
    table.player(player_id)
    moving: list[Pile] = []
    for player_index, player in enumerate(table.players):
        leaving = [pile for pile in player.piles if holds_photo(pile, photo)]
        if player.id == player_id or not leaving:
            continue
        moving += leaving
        table = _set_piles(
            table, player_index, [p for p in player.piles if not holds_photo(p, photo)]
        )
        table = _with_piles(table, player_index)
    return _receive(table, player_id, moving) if moving else table


def remove_photo(table: Table, photo: str) -> Table:
    """Every card read from the photo taken off the table; the piles it emptied go too, first
    ones first, while a player keeps as many piles as they had, up to two (a "0 + 3 + 0" of a
    player given a pile of it would stay otherwise)."""
    for player_index, player in enumerate(table.players):
        piles = [
            replace(pile, slots=tuple(s for s in pile.slots if s.photo != photo), gaps=())
            if any(s.photo == photo for s in pile.slots)
            else pile
            for pile in player.piles
        ]
        keep = min(len(piles), PILES_PER_PLAYER)
        for emptied in [p for p, old in zip(piles, player.piles, strict=True) if old.slots]:
            if not emptied.slots and len(piles) > keep:
                piles.remove(emptied)
        if piles != list(player.piles):
            table = _set_piles(table, player_index, piles)
    return table


# ---------------------------------------------------------------------------------------------
# Scores


@dataclass(frozen=True)
class TableResult:
    """The scored table: every player's piles, the winner, and cards that appear too often."""

    score: TableScore
    duplicates: tuple[DuplicateCard, ...]

    @property
    def players(self) -> tuple[PlayerScore, ...]:
        return self.score.players

    @property
    def has_cards(self) -> bool:
        """Whether any card is down: before one, nobody leads."""
        return len(self.waiting_for) < len(self.players)

    @property
    def waiting_for(self) -> tuple[str, ...]:
        """The players without a card down yet: until each has one, nobody wins (the first
        photo of the game made its player the winner, the others' piles still to come)."""
        return tuple(
            player.name for player in self.players if not any(pile.cards for pile in player.piles)
        )

    @property
    def decided_winners(self) -> tuple[str, ...]:
        """Who wins as the page says it: nobody with one player or before every player has a
        card down."""
        if len(self.players) < 2 or self.waiting_for:
            return ()
        return self.score.winners

    @property
    def decided_tie(self) -> bool:
        return len(self.decided_winners) > 1

    def duplicated_at(self, player: str) -> set[tuple[int, int]]:
        """(pile index, position) of the player's cards that appear too often."""
        return {
            (place.pile, place.position)
            for duplicate in self.duplicates
            for place in duplicate.places
            if place.player == player
        }


@dataclass(frozen=True)
class Checks:
    """What a player's piles ask a look at: cards in orange, places a card may be missing, and
    cards on the table more often than the decks allow (one of each misread)."""

    pile_ids: tuple[int, ...]  # the piles with something to check, in the player's order
    doubtful: int = 0
    gaps: int = 0
    too_often: int = 0  # cards, as the warning counts them ("a card is on the table twice")

    def after(self, pile_id: int, player: Player) -> int | None:
        """The first of the player's piles below `pile_id` with something to check."""
        ids = [pile.id for pile in player.piles]
        return next((i for i in ids[ids.index(pile_id) + 1 :] if i in self.pile_ids), None)


def checks_of(player: Player, result: TableResult) -> Checks:
    """The player's checks on the scored table (`result`)."""
    too_often = {player.piles[index].id for index, _ in result.duplicated_at(player.name)}
    return Checks(
        pile_ids=tuple(
            pile.id
            for pile in player.piles
            if pile.gaps or any(slot.doubtful for slot in pile.slots) or pile.id in too_often
        ),
        doubtful=sum(1 for pile in player.piles for slot in pile.slots if slot.doubtful),
        gaps=sum(len(pile.gaps) for pile in player.piles),
        too_often=sum(
            1
            for duplicate in result.duplicates
            if any(place.player == player.name for place in duplicate.places)
        ),
    )


def next_to_check(table: Table, result: TableResult, player_id: int) -> tuple[Player, int] | None:
    """The next player round the table after `player_id` (the table's order, wrapping round)
    whose piles ask a look (`checks_of`), and the id of their first pile that does; None:
    nobody else's."""
    at = [player.id for player in table.players].index(player_id)
    for other in (*table.players[at + 1 :], *table.players[:at]):
        pile_ids = checks_of(other, result).pile_ids
        if pile_ids:
            return other, pile_ids[0]
    return None


def score_table(table: Table) -> TableResult:
    """Score every pile with its pins; duplicates are reported, not raised, so the table still
    scores while a misread card waits for its correction."""
    players = tuple(
        score_player(
            [pile.cards for pile in player.piles],
            {index: pile.pins for index, pile in enumerate(player.piles) if pile.pins},
            table.variants,
            name=player.name,
        )
        for player in table.players
    )
    duplicates = find_duplicates(table.piles_by_name, table.variants.decks)
    return TableResult(TableScore(players), tuple(duplicates))


def describe_duplicate(duplicate: DuplicateCard, tr: Translator = ENGLISH) -> str:
    """`Q♠ is on the table 2 times: Anna card 1.3, Ben card 2.1.`"""
    places = ", ".join(
        tr.gettext("{player} card {number}").format(
            player=place.player, number=card_number(place.pile, place.position)
        )
        for place in duplicate.places
    )
    line = tr.gettext("{card} is on the table {count} times: {places}.")
    return line.format(card=duplicate.card.label, count=len(duplicate.places), places=places)


@dataclass(frozen=True)
class PhotographedTwice:
    """Cards on the table too often because two photos hold the same piles
    (`photo_taken_twice`): taking either photo's cards off leaves each no more often than the
    decks allow."""

    photos: tuple[str, str]  # in the order the table first holds their cards
    duplicates: tuple[DuplicateCard, ...]


@dataclass(frozen=True)
class DuplicateCauses:
    """Why cards are on the table too often: the same piles photographed twice, or not (a
    misread, or a second deck not switched on)."""

    photographed_twice: tuple[PhotographedTwice, ...]
    others: tuple[DuplicateCard, ...]


def duplicate_causes(
    table: Table, duplicates: Sequence[DuplicateCard], photos: Collection[str] | None = None
) -> DuplicateCauses:
    """The table's `duplicates` (`TableResult.duplicates`) told apart by their cause; only
    pairs of `photos` (None: of any) count as photographed twice (the page names the photos
    it shows, whose cards it can take off)."""
    photo_at = {
        (player.name, pile_index, position): slot.photo
        for player in table.players
        for pile_index, pile in enumerate(player.piles)
        for position, slot in enumerate(pile.slots)
    }
    pairs = list(dict.fromkeys(_photos_taken_twice(table, photos)))
    found: dict[tuple[str, str], list[DuplicateCard]] = {}
    others = []
    for duplicate in duplicates:
        held = Counter(photo_at.get((p.player, p.pile, p.position)) for p in duplicate.places)
        pair = next((pair for pair in pairs if _doubled_by(held, pair, duplicate.allowed)), None)
        if pair is None:
            others.append(duplicate)
        else:
            found.setdefault(pair, []).append(duplicate)
    twice = tuple(PhotographedTwice(pair, tuple(found[pair])) for pair in pairs if pair in found)
    return DuplicateCauses(twice, tuple(others))


def _photos_taken_twice(table: Table, photos: Collection[str] | None) -> Iterator[tuple[str, str]]:
    """Each pair of photos `photo_taken_twice` tells of, in the table's order (once each way)."""
    cards = cards_by_photo(table)  # once: every photo is paired from it
    order = list(cards)
    for photo in order:
        twice = _taken_twice_in(cards, photo)
        if twice is not None and (photos is None or {photo, twice[0]} <= set(photos)):
            first, second = sorted((photo, twice[0]), key=order.index)
            yield first, second


def _doubled_by(held: Counter[str | None], pair: tuple[str, str], allowed: int) -> bool:
    """Whether a card's places (`held`: how many in each photo) come from both photos of the
    pair, and either photo's cards taken off would leave it no more often than `allowed`."""
    total = held.total()
    return all(held[photo] and total - held[photo] <= allowed for photo in pair)


def result_line(result: TableResult, tr: Translator = ENGLISH) -> str:
    """Who won, in words; who leads while some player has no card down yet."""
    score = result.score

    def points(count: int) -> str:
        return tr.ngettext("{count} point", "{count} points", count).format(count=count)

    if len(score.players) == 1:
        player = score.players[0]
        return f"{player.name}: {points(player.total)}."
    if result.waiting_for and result.has_cards:
        to_come = and_list(result.waiting_for, tr)
        # the leaders among those with cards down (a pile of 0 made the others "lead" too)
        down = [player for player in score.players if player.name not in result.waiting_for]
        ahead = leaders([player.name for player in down], [player.total for player in down])
        best = points(max(player.total for player in down))
        if len(ahead) > 1:
            line = tr.gettext("{names} lead with {points} each; still to come: {waiting}.")
            return line.format(names=and_list(ahead, tr), points=best, waiting=to_come)
        line = tr.gettext("{leader} leads with {points}; still to come: {waiting}.")
        return line.format(leader=ahead[0], points=best, waiting=to_come)
    if score.is_tie:
        tied = and_list(score.winners, tr)
        line = tr.gettext("Tie: {names}, {points} each.").format(
            names=tied, points=points(_best(score))
        )
    else:
        line = tr.gettext("{winner} wins with {points}.")
        line = line.format(winner=score.winner, points=points(_best(score)))
    if result.duplicates:  # a card misread as another: the winner may change once it is fixed
        line += " " + tr.gettext(
            "Not final while a card is on the table more often than it can be."
        )
    return line


def _best(score: TableScore) -> int:
    return max(player.total for player in score.players)


# ---------------------------------------------------------------------------------------------
# Exports


def variants_to_json(variants: Variants) -> dict[str, Any]:
    return {
        "decks": variants.decks,
        "lucky_tom": variants.lucky_tom,
        "music_of_the_night": variants.music_of_the_night,
    }


def _standing(result: TableResult, name: str, tr: Translator) -> str:
    """Winner, tie or nothing: nothing with one player or before every player has a card (as the
    page)."""
    if name not in result.decided_winners:
        return ""
    if result.decided_tie:
        return tr.pgettext("a CSV cell", "tie")
    return tr.pgettext("a CSV cell", "winner")


def scoreboard_rows(result: TableResult, tr: Translator = ENGLISH) -> list[list[Cell]]:
    """A header, then one row per player: name, each pile's points, total, and winner/tie; in
    `tr`'s language."""
    most = max((len(player.piles) for player in result.players), default=0)
    pile = tr.pgettext("a CSV column", "pile {number}")
    header: list[Cell] = [
        tr.pgettext("a CSV column", "player"),
        *(pile.format(number=index + 1) for index in range(most)),
        tr.pgettext("a CSV column", "total"),
        tr.pgettext("a CSV column", "result"),
    ]
    rows = [header]
    for player in result.players:
        points = [p.points for p in player.piles] + [""] * (most - len(player.piles))
        rows.append([player.name, *points, player.total, _standing(result, player.name, tr)])
    return rows


def scoreboard_csv(result: TableResult, tr: Translator = ENGLISH) -> str:
    return csv_text(scoreboard_rows(result, tr))


def scoreboard_json(table: Table, result: TableResult) -> str:
    data = {
        "variants": variants_to_json(table.variants),
        "players": [
            {
                "player": player.name,
                "piles": [pile.points for pile in player.piles],
                "total": player.total,
            }
            for player in result.players
        ],
        "winners": list(result.decided_winners),
        "tie": result.decided_tie,
        "duplicates": [describe_duplicate(duplicate) for duplicate in result.duplicates],
    }
    return json.dumps(data, ensure_ascii=False, indent=2)


def pile_rows(result: TableResult, tr: Translator = ENGLISH) -> list[list[Cell]]:
    """A header, then every pile's breakdown: one row per feature, one per Queen, and the pile's
    total; in `tr`'s language (cards as typed: QS 10H)."""
    rows: list[list[Cell]] = [
        [
            tr.pgettext("a CSV column", "player"),
            tr.pgettext("a CSV column", "pile"),
            tr.pgettext("a CSV column", "item"),
            tr.pgettext("a CSV column", "cards"),
            tr.pgettext("a CSV column", "card numbers"),
            tr.pgettext("a CSV column", "points"),
        ]
    ]
    for player in result.players:
        for pile_index, pile in enumerate(player.piles):
            base: list[Cell] = [player.name, pile_index + 1]

            def numbers(positions: Sequence[int], pile_index: int = pile_index) -> str:
                return " ".join(card_number(pile_index, position) for position in positions)

            for kind in FEATURE_KINDS:
                for feature in pile.features:
                    if feature.kind == kind:
                        cards = " ".join(card.code for card in feature.cards)
                        item = feature_name(kind, tr)
                        rows.append(
                            [*base, item, cards, numbers(feature.positions), feature.points]
                        )
            for queen in pile.queens:
                if queen.pinned:
                    how = tr.gettext("Queen = {value} (pinned)")
                else:
                    how = tr.gettext("Queen = {value} (chosen)")
                item = how.format(value=queen.value)
                rows.append([*base, item, queen.card.code, numbers([queen.position]), ""])
            cards = " ".join(card.code for card in pile.cards)
            rows.append([*base, tr.gettext("Pile total"), cards, "", pile.points])
    return rows


def piles_csv(result: TableResult, tr: Translator = ENGLISH) -> str:
    return csv_text(pile_rows(result, tr))


def piles_json(table: Table, result: TableResult) -> str:
    """Every pile in the engine's JSON form (as `blackcat score --json`: positions from 0)."""
    data = {
        "variants": variants_to_json(table.variants),
        "piles": [
            {"player": player.name, "pile": index + 1, **pile_score_to_json(pile)}
            for player in result.players
            for index, pile in enumerate(player.piles)
        ],
    }
    return json.dumps(data, ensure_ascii=False, indent=2)
