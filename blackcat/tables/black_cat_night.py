"""A night of Black Cat: game after game at the same table, as the app edits it.

A `Night` is every game of the night, each its own `black_cat_table.Table` (piles, corrections,
pins, variants), so a finished game can be opened, corrected and re-scored like the game in play
(the last one); the night's sheet follows. Pure functions on frozen dataclasses, like
`black_cat_table`: the app keeps one `Night` and replaces it on every change (undo is a list of
earlier nights).

Players are known across the night by name, whatever its case (a game refuses "ana" beside
"Ana"): the sheet has a row per name, and a rename renames the player in every game. A player
added unnamed gets a "Player N" no game of the night has, so a newcomer never takes the points
of a player who left. Totals add each player's points over the games they played, the game
in play as it stands. A game is won by the one player with the highest total (RULES.md); equal
totals are a tie, which counts as a game won by nobody. A game with one player, or no cards yet,
has no winner.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from blackcat.games.standings import leaders
from blackcat.i18n import ENGLISH, N_, Translator, and_list
from blackcat.tables import black_cat_table as ts
from blackcat.tables import on_screen
from blackcat.tables.spreadsheet import Cell, csv_text

MAX_GAMES = 50
NIGHT_FULL = N_("a night of at most {most} games: start a new night")
GAME_ID_BLOCK = 1_000
"""Game k's players and piles have ids from k * GAME_ID_BLOCK + 1: no two games of a night share
a pile id (the app's widget keys), and all stay below Black Lady's (black_lady_table.ID_BLOCK)."""


@dataclass(frozen=True)
class Night:
    games: tuple[ts.Table, ...]  # in the order played: the last is the game in play
    current: int = 0  # the game on screen
    # new nights started on this one's phones: another phone's "New game" is told apart from
    # its piles typed anew (its question open on this phone closes: helper-72)
    started: int = 0

    @property
    def table(self) -> ts.Table:
        """The game on screen."""
        return self.games[self.current]

    @property
    def in_play(self) -> int:
        """Index of the game in play (the last)."""
        return len(self.games) - 1


# ---------------------------------------------------------------------------------------------
# Building nights


def _numbered(table: ts.Table, index: int) -> ts.Table:
    """The table with its player and pile ids renumbered into game `index`'s block."""
    next_id = index * GAME_ID_BLOCK + 1
    players = []
    for player in table.players:
        piles = tuple(replace(pile, id=next_id + 1 + n) for n, pile in enumerate(player.piles))
        players.append(replace(player, id=next_id, piles=piles))
        next_id += 1 + len(piles)
    return replace(table, players=tuple(players), next_id=next_id)


def night_of(games: Sequence[ts.Table], current: int | None = None) -> Night:
    """A night of these games (each renumbered into its own id block), the last on screen unless
    `current` says otherwise (TableError for no games or too many)."""
    if not games:
        raise ts.TableError(N_("a night has at least one game"))
    if len(games) > MAX_GAMES:
        raise ts.TableError(NIGHT_FULL, most=MAX_GAMES)
    numbered = tuple(_numbered(table, index) for index, table in enumerate(games))
    last = len(numbered) - 1
    return Night(numbered, last if current is None or not 0 <= current <= last else current)


def has_cards(table: ts.Table) -> bool:
    return any(pile.slots for player in table.players for pile in player.piles)


def next_game(night: Night, tr: Translator = ENGLISH) -> Night:
    """A new game after the last, on screen: the players of the game in play, its variants, two
    empty piles each. After the untouched example: a first game of "Player 1" (in `tr`'s
    language)."""
    last = night.games[-1]
    if last.example:
        return Night((ts.new_game(last, tr),), started=night.started)
    if not has_cards(last):
        raise ts.TableError(
            N_("game {number} has no cards yet: play it first"), number=len(night.games)
        )
    if len(night.games) >= MAX_GAMES:
        raise ts.TableError(NIGHT_FULL, most=MAX_GAMES)
    games = (*night.games, _numbered(ts.new_game(last), len(night.games)))
    return Night(games, len(games) - 1, night.started)


def restart(night: Night, tr: Translator = ENGLISH) -> Night:
    """A new night: one game, the players of the game in play with empty piles (after the
    untouched example, "Player 1" in `tr`'s language)."""
    return Night((ts.new_game(night.games[-1], tr),), started=night.started + 1)


def choose_game(night: Night, index: int) -> Night:
    if not 0 <= index < len(night.games):
        raise ts.TableError(N_("that game is no longer in the night"))
    return replace(night, current=index)


def seen_from(arrived: Night, shown: Night) -> Night:
    """A shared night as another phone left it, on this phone's game on screen
    (`on_screen.seen_from`)."""
    return on_screen.seen_from(arrived, shown, lambda sheet: sheet.games)


def moved_on(arrived: Night, shown: Night) -> bool:
    """Whether another phone's night takes this phone to another game (`on_screen.moved_on`)."""
    return on_screen.moved_on(arrived, shown, lambda sheet: sheet.games)


def with_table(night: Night, table: ts.Table) -> Night:
    """The game on screen replaced by `table` (the same night when it is the same table)."""
    return with_game(night, night.current, table)


def with_game(night: Night, index: int, table: ts.Table) -> Night:
    """Game `index` replaced by `table` (the same night when it is the same table)."""
    if table is night.games[index]:
        return night
    games = list(night.games)
    games[index] = table
    return replace(night, games=tuple(games))


def on_table(night: Night, operation: Callable[..., ts.Table], *args: Any) -> Night:
    """A `black_cat_table` operation applied to the game on screen."""
    return with_table(night, operation(night.table, *args))


def game_holding(night: Night, item_id: int) -> int | None:
    """The index of the game with a player or a pile of this id (each game's ids are its own:
    `GAME_ID_BLOCK`); None where none has it."""
    for index, table in enumerate(night.games):
        for player in table.players:
            if player.id == item_id or any(pile.id == item_id for pile in player.piles):
                return index
    return None


def game_with_photo(night: Night, photo: str) -> int | None:
    """The index of the game whose piles hold cards of the photo; None where none does."""
    return next(
        (index for index, table in enumerate(night.games) if ts.photo_owner(table, photo)), None
    )


def on_game_of(
    night: Night, item_id: int | None, operation: Callable[..., ts.Table], *args: Any
) -> Night:
    """A `black_cat_table` operation on the player or pile `item_id` applied to the game that
    holds it, the game it was typed or tapped in: another phone's next game may have come on
    screen since (it went to the new game's piles, or was refused there and lost). The game
    on screen where no game holds it (None: an operation on no player or pile)."""
    index = None if item_id is None else game_holding(night, item_id)
    if index is None:
        return on_table(night, operation, *args)
    return with_game(night, index, operation(night.games[index], *args))


def names_played(night: Night) -> tuple[str, ...]:
    """Every name at any game of the night."""
    return tuple(dict.fromkeys(player.name for table in night.games for player in table.players))


def add_player(night: Night, tr: Translator = ENGLISH) -> Night:
    """One more player at the game on screen, named with a "Player N" (in `tr`'s language) that
    no game of the night has (TableError at a full table)."""
    return on_table(night, ts.add_player, None, tr, names_played(night))


def named_in(night: Night, tr: Translator) -> Night:
    """The players the app named ("Player 2") named in `tr`'s language in every game, for a
    phone in that language (`ts.named_in`): each phone of a shared night says them in its own;
    the same night where nothing changes."""
    games = tuple(ts.named_in(table, tr) for table in night.games)
    if all(game is before for game, before in zip(games, night.games, strict=True)):
        return night
    return replace(night, games=games)


def rename_player(night: Night, player_id: int, name: str) -> Night:
    """A player of the night renamed, by their id in any of its games (a page's name field can be
    a game's that another phone has since moved on from), in every game of the night they played
    (TableError where no game holds them any longer or the name is taken in one of them)."""
    player = find_player(night, player_id)
    if player is None:
        raise ts.TableError(ts.NOT_AT_THE_TABLE)
    return renamed(night, player.name, name)


def find_player(night: Night, player_id: int) -> ts.Player | None:
    """The player with this id in whichever game of the night holds it (each game's ids are its
    own: `GAME_ID_BLOCK`); None where none does."""
    players = (player for table in night.games for player in table.players)
    return next((player for player in players if player.id == player_id), None)


def renamed(night: Night, old: str, new: str) -> Night:
    """The player called `old` called `new` in every game of the night they played (TableError
    where the name is taken in one of them; the night as it was where nobody is called `old`)."""
    games = []
    for table in night.games:
        player = next((p for p in table.players if ts.same_name(p.name, old)), None)
        games.append(table if player is None else ts.rename_player(table, player.id, new))
    return replace(night, games=tuple(games))


def same_player(night: Night, player_id: int | None, index: int) -> int | None:
    """The id, in game `index`, of the player of the game on screen with this id (by name);
    None when they didn't play it."""
    names = {player.id: player.name for player in night.table.players}
    if player_id not in names:
        return None
    table = night.games[index]
    return next((p.id for p in table.players if ts.same_name(p.name, names[player_id])), None)


# ---------------------------------------------------------------------------------------------
# The night's sheet


@dataclass(frozen=True)
class NightScore:
    """Each game's points per player (None: not at that game's table), each game's winners, and
    the night's totals and games won."""

    names: tuple[str, ...]  # everyone who played, in the order they first sat down, as last named
    games: tuple[tuple[int | None, ...], ...]
    winners: tuple[tuple[str, ...], ...]  # per game: one name, several on a tie, or none
    finished: tuple[bool, ...]  # per game: every player has a card down

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(game[seat] or 0 for game in self.games) for seat in range(len(self.names)))

    @property
    def wins(self) -> tuple[int, ...]:
        """Games each player won outright (a tie wins nobody)."""
        won = [winners[0] for winners in self.winners if len(winners) == 1]
        return tuple(won.count(name) for name in self.names)

    @property
    def leaders(self) -> tuple[str, ...]:
        """Everyone with the night's highest total."""
        return leaders(self.names, self.totals)


def score_night(
    night: Night, score: Callable[[ts.Table], ts.TableResult] = ts.score_table
) -> NightScore:
    """The night's sheet; `score` scores a game (the app's keeps each unchanged game's score)."""
    results = [score(table) for table in night.games]
    spelled: dict[str, str] = {}  # each player's name as the last game they played spells it
    for result in results:
        spelled.update((p.name.casefold(), p.name) for p in result.players)
    games = tuple(
        tuple(
            next((p for name, p in result.score.totals.items() if ts.same_name(name, key)), None)
            for key in spelled
        )
        for result in results
    )
    winners = tuple(
        tuple(spelled[name.casefold()] for name in result.decided_winners) for result in results
    )
    finished = tuple(not result.waiting_for for result in results)
    return NightScore(tuple(spelled.values()), games, winners, finished)


def winner_text(winners: Sequence[str], tr: Translator = ENGLISH) -> str:
    """`Ann`, `tie: Ann and Ben`, or nothing (no winner), in `tr`'s language."""
    if len(winners) > 1:
        return tr.gettext("tie: {names}").format(names=and_list(winners, tr))
    return "".join(winners)


def night_line(score: NightScore, tr: Translator = ENGLISH) -> str:
    """Who leads the night, in words, after the games finished (every player's cards down);
    the games still under way are named, their points counted "so far"."""
    top = max(score.totals)
    best = tr.ngettext("{count} point", "{count} points", top).format(count=top)
    finished = sum(score.finished)
    games = tr.ngettext("{count} game", "{count} games", finished).format(count=finished)
    under_way = [str(n + 1) for n, complete in enumerate(score.finished) if not complete]
    shared = len(score.leaders) > 1
    leaders = and_list(score.leaders, tr)
    if not under_way:
        if shared:
            line = tr.gettext("{leaders} share the lead with {points} after {games}.")
        else:
            line = tr.gettext("{leader} leads the night with {points} after {games}.")
        return line.format(leaders=leaders, leader=leaders, points=best, games=games)
    going = tr.ngettext(
        "game {numbers} is under way", "games {numbers} are under way", len(under_way)
    ).format(numbers=and_list(under_way, tr))
    if not finished:
        line = (
            tr.gettext("{leaders} share the lead with {points} so far; {going}.")
            if shared
            else tr.gettext("{leader} leads the night with {points} so far; {going}.")
        )
    elif shared:
        line = tr.gettext("{leaders} share the lead with {points} so far, after {games}; {going}.")
    else:
        line = tr.gettext("{leader} leads the night with {points} so far, after {games}; {going}.")
    return line.format(leaders=leaders, leader=leaders, points=best, games=games, going=going)


def night_csv(night: Night, tr: Translator = ENGLISH) -> str:
    """The night as CSV, in `tr`'s language: a row a game (each player's points, empty where
    they didn't play, and who won), then the totals (and who leads), then the games each player
    won."""
    score = score_night(night)
    lines: list[list[Cell]] = [
        [tr.pgettext("a CSV column", "game"), *score.names, tr.pgettext("a CSV column", "winner")]
    ]
    for index, (points, winners) in enumerate(zip(score.games, score.winners, strict=True)):
        cells = ("" if p is None else p for p in points)
        lines.append([index + 1, *cells, winner_text(winners, tr)])
    lines.append([tr.pgettext("a CSV row", "total"), *score.totals, winner_text(score.leaders, tr)])
    lines.append([tr.pgettext("a CSV row", "won"), *score.wins, ""])
    return csv_text(lines)
