"""How often Undo in a shared game refuses, and merges wrong: every pair of common changes, one
phone's (taken back) and another phone's made since, on a Black Cat table, a night and a Black
Lady game (`blackcat.tables.taking_back.take_back`; helper-77's count, helper-81's oracle).

    .venv/bin/python workshop/undo_refusals.py [--list]

Black Cat table: the refusals, and those where the two changes commute (made the other way
round, the same players and piles: Undo could have merged). A night and a Black Lady game: the
refusals, and merges that break a rule of the game or lose a change: what this phone alone
changed not as it was, or what the other phone alone changed not as it left it (a Black Lady
seat's cards counted as a set, a deal known by its serial).
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from blackcat.games.cards import parse_card, parse_pile
from blackcat.tables import black_cat_night as nt
from blackcat.tables import black_cat_table as ts
from blackcat.tables import black_lady_table as lt
from blackcat.tables.taking_back import take_back
from blackcat.vision.types import ReadCard

Change = tuple[str, Callable[[Any], Any]]


def reads(*codes: str) -> list[list[ReadCard]]:
    return [[ReadCard(parse_card(code), (0.0, 0.0, 1.0, 1.0), 0.99, (), ()) for code in codes]]


# ---------------------------------------------------------------------------------------------
# A Black Cat table


def a_table() -> ts.Table:
    table = ts.new_table(
        ("Ann", "Ben", "Cy"),
        piles=[
            [parse_pile("5C 6C 7C"), parse_pile("QH 2D")],
            [parse_pile("2S"), ()],
            [parse_pile("KD 9H"), ()],
        ],
    )
    return ts.place_photo(table, table.players[2].id, "ph0", reads("AD", "3D"))


def table_changes(base: ts.Table) -> list[Change]:
    """Changes named by what they do to `base`'s players and piles."""
    found: list[Change] = []
    for player in base.players:
        found += [
            (f"add pile {player.name}", lambda t, p=player: ts.add_pile(t, p.id)),
            (f"rename {player.name}", lambda t, p=player: ts.rename_player(t, p.id, p.name + "x")),
            (f"remove {player.name}", lambda t, p=player: ts.remove_player(t, p.id)),
        ]
        for at, pile in enumerate(player.piles):
            name = f"{player.name}.{at}"
            found += [
                (f"remove pile {name}", lambda t, q=pile: ts.remove_pile(t, q.id)),
                (f"type at the end of {name}", lambda t, q=pile: _typed(t, q.id, "AS")),
                (f"clear {name}", lambda t, q=pile: ts.set_cards(t, q.id, ())),
                (f"join {name}", lambda t, q=pile: ts.join_with_next(t, q.id)),
            ]
            if len(pile.slots) >= 2:
                found += [
                    (f"split {name}", lambda t, q=pile: ts.split_pile(t, q.id, 1)),
                    (f"move a card of {name}", lambda t, q=pile: ts.move_card(t, q.id, 0, 1)),
                ]
            found += [
                (f"give {name} to {o.name}", lambda t, q=pile, o=o: ts.give_pile(t, q.id, o.id))
                for o in base.players
                if o.id != player.id
            ]
            found += [
                (
                    f"a card of {name} to pile {to}",
                    lambda t, q=pile, r=other: ts.move_card_to_pile(t, q.id, 0, r.id),
                )
                for to, other in enumerate(player.piles)
                if to != at and pile.slots
            ]
    for player in base.players:
        for photo, codes in (("ph1", ("JS", "JC")), ("ph2", ("8S",))):
            rows = reads(*codes)
            found += [
                (
                    f"{photo} to {player.name}",
                    lambda t, p=player, r=rows, k=photo: ts.place_photo(t, p.id, k, r),
                ),
                (
                    f"{photo} to {player.name}, 2 rows",
                    lambda t, p=player, r=rows, k=photo: ts.place_photo(t, p.id, k, r + r),
                ),
                (
                    f"{photo} given to {player.name}",
                    lambda t, p=player, k=photo: ts.reassign_photo(t, k, p.id),
                ),
            ]
    found += [(f"remove {k}", lambda t, k=k: ts.remove_photo(t, k)) for k in ("ph0", "ph1", "ph2")]
    found += [
        ("add player", lambda t: ts.add_player(t, "Dee")),
        ("add a player called Annx", lambda t: ts.add_player(t, "Annx")),
    ]
    return found


def _typed(table: ts.Table, pile: int, code: str) -> ts.Table:
    return ts.set_cards(table, pile, (*table.pile(pile).cards, parse_card(code)))


def _players_and_piles(table: ts.Table) -> tuple[object, ...]:
    return tuple((p.name, tuple(ts.pile_text(q) for q in p.piles)) for p in table.players)


def _commute(first: Callable, second: Callable, before: ts.Table, now: ts.Table) -> bool:
    """Whether `second` made on `before`, then `first`, gives the players and piles of `now`."""
    try:
        return _players_and_piles(first(second(before))) == _players_and_piles(now)
    except ts.TableError:
        return False


# ---------------------------------------------------------------------------------------------
# A night


def a_night() -> nt.Night:
    table = ts.new_table(
        ("Ann", "Ben"), piles=[[parse_pile("5C 6C"), parse_pile("QH")], [parse_pile("2S"), ()]]
    )
    night = nt.next_game(nt.night_of([table]))
    return nt.on_table(night, ts.set_cards, night.table.players[0].piles[0].id, parse_pile("KD"))


def night_changes(base: nt.Night) -> list[Change]:
    found: list[Change] = [
        ("next game", nt.next_game),
        ("choose game 1", lambda n: nt.choose_game(n, 0)),
        ("add player", nt.add_player),
        ("rename Ann", lambda n: nt.renamed(n, "Ann", "Anna")),
        ("rename Ben", lambda n: nt.renamed(n, "Ben", "Benny")),
        ("new night", nt.restart),
        ("remove Ben from the last game", _without_ben),
    ]
    for at, game in enumerate(base.games):
        for seat in range(2):
            for pile in range(2):
                pile_id = game.players[seat].piles[pile].id
                code = "AS" if seat else "AH"
                found.append(
                    (
                        f"type in game {at + 1}, {seat}.{pile}",
                        lambda n, g=at, q=pile_id, c=code: _in_game(n, g, _typed, q, c),
                    )
                )
            player = game.players[seat].id
            found.append(
                (
                    f"add a pile in game {at + 1}, {seat}",
                    lambda n, g=at, p=player: _in_game(n, g, ts.add_pile, p),
                )
            )
    return found


def _without_ben(night: nt.Night) -> nt.Night:
    if night.current != len(night.games) - 1:
        return night
    return nt.with_table(night, ts.remove_player(night.table, night.table.players[1].id))


def _in_game(night: nt.Night, at: int, operation: Callable, *args: Any) -> nt.Night:
    games = list(night.games)
    games[at] = operation(games[at], *args)
    return nt.Night(tuple(games), night.current, night.started)


def seen_in_night(night: nt.Night) -> dict[tuple[object, ...], object]:
    found: dict[tuple[object, ...], object] = {("started",): night.started}
    for at, table in enumerate(night.games):
        for player in table.players:
            found["name", at, player.id] = player.name
            for pile in player.piles:
                found["owner", at, pile.id] = player.id
                found["cards", at, pile.id] = pile.slots
    return found


def night_broken(night: nt.Night) -> list[str]:
    return [] if 0 <= night.current < len(night.games) else ["game on screen"]


# ---------------------------------------------------------------------------------------------
# A Black Lady game


def a_lady_game() -> lt.LadyGame:
    game = lt.set_tricks(lt.new_game(("Ann", "Ben", "Cy")), 0, parse_pile("KH 2S 4S"))
    return lt.set_tricks(lt.next_deal(game), 1, parse_pile("QS"))


def three_deals() -> lt.LadyGame:
    return lt.set_tricks(lt.next_deal(a_lady_game()), 2, parse_pile("JD"))


def lady_changes(base: lt.LadyGame) -> list[Change]:
    found: list[Change] = [
        ("next deal", lt.next_deal),
        ("choose deal 1", lambda g: lt.choose_deal(g, 0)),
        ("remove deal 1", lambda g: lt.remove_deal(g, 0)),
        ("remove deal 2", lambda g: lt.remove_deal(g, 1)),
        ("rename seat 2", lambda g: lt.rename(g, 1, "Benny")),
        ("rename seat 3", lambda g: lt.rename(g, 2, "Cyrus")),
        ("5 deals to play", lambda g: lt.set_deals_to_play(g, 5)),
        ("6 deals to play", lambda g: lt.set_deals_to_play(g, 6)),
        ("new game", lt.restart),
    ]
    for deal in range(2):
        for seat in range(3):
            code = "AD" if seat else "AC"
            where = f"deal {deal + 1}, seat {seat + 1}"
            found += [
                (f"tricks {where}", lambda g, d=deal, s=seat, c=code: _on(g, d, _more, s, c)),
                (f"no trick {where}", lambda g, d=deal, s=seat: _on(g, d, _no_trick, s)),
                (f"photo {where}", lambda g, d=deal, s=seat: _on(g, d, _photo, s)),
                (f"move {where}", lambda g, d=deal, s=seat: _on(g, d, _moved, s)),
            ]
    return found


def _on(game: lt.LadyGame, deal: int, operation: Callable, *args: Any) -> lt.LadyGame:
    """`operation` on a deal, the deal on screen staying."""
    return lt.choose_deal(operation(lt.choose_deal(game, deal), *args), game.current)


def _more(game: lt.LadyGame, seat: int, code: str) -> lt.LadyGame:
    return lt.set_tricks(game, seat, (*(game.deal.cards(seat) or ()), parse_card(code)))


def _no_trick(game: lt.LadyGame, seat: int) -> lt.LadyGame:
    return lt.mark_no_tricks(game, seat, True)


def _photo(game: lt.LadyGame, seat: int) -> lt.LadyGame:
    return lt.add_photo(game, seat, f"p{seat}", reads("JS", "8D"))


def _moved(game: lt.LadyGame, seat: int) -> lt.LadyGame:
    return lt.move_to_seat(game, seat, 0, (seat + 1) % 3)


def _serial(deal: lt.Deal) -> int:
    return deal.table.players[0].id // lt.ID_BLOCK  # as `lt.Deal.serial`, on older code too


def seen_in_lady(game: lt.LadyGame) -> dict[tuple[object, ...], object]:
    found: dict[tuple[object, ...], object] = {("deals to play",): game.deals_to_play}
    for seat, name in enumerate(game.names):
        found["name", seat] = name
    for deal in game.deals:
        found["deal", _serial(deal)] = True
        for seat, player in enumerate(deal.table.players):
            found["no trick", _serial(deal), seat] = player.id in deal.no_tricks
            for slot, count in Counter(player.piles[0].slots).items():
                found["card", _serial(deal), seat, slot] = count
    return found


def lady_broken(game: lt.LadyGame) -> list[str]:
    broken = []
    if not game.deals or not 0 <= game.current < len(game.deals):
        broken.append("deal on screen")
    if game.deals_to_play is not None and len(game.deals) > game.deals_to_play:
        broken.append("more deals than set")
    for deal in game.deals:
        if [player.name for player in deal.table.players] != list(game.names):
            broken.append("names")
        if any(p.piles[0].slots for p in deal.table.players if p.id in deal.no_tricks):
            broken.append("marked with cards")
    return broken


def lady_mixed(mine: lt.LadyGame, now: lt.LadyGame, back: lt.LadyGame) -> list[str]:
    """Another phone's new game since, and a deal of the old game in the game taken back."""
    serials = {_serial(deal) for deal in now.deals}
    if serials & {_serial(deal) for deal in mine.deals}:
        return []  # no new game (`changes.lady_started_anew`)
    return [] if {_serial(deal) for deal in back.deals} <= serials else ["old deal in new game"]


# ---------------------------------------------------------------------------------------------
# The count


@dataclass(frozen=True)
class Outcome:
    """One pair of changes: this phone's (`mine`) and another phone's since (`theirs`)."""

    mine: str
    theirs: str
    refused: bool
    commute: bool = False
    wrong: tuple[object, ...] = ()


def pairs(before: Any, changes: Callable[[Any], list[Change]]) -> Iterator[tuple]:
    """(this phone's change, the other's, the game after each) for every pair that applies."""
    for mine_name, mine in changes(before):
        try:
            after = mine(before)
        except (ts.TableError, IndexError):
            continue
        if after == before:
            continue
        for their_name, theirs in changes(before):
            try:
                now = theirs(after)
            except (ts.TableError, IndexError):
                continue
            if now != after:
                yield (mine_name, mine), (their_name, theirs), after, now


def lost(was: Mapping, made: Mapping, left: Mapping, got: Mapping) -> list[object]:
    """Each thing this phone alone changed (`was` -> `made`) not as it was, or the other phone
    alone changed (`made` -> `left`) not as it left it, taken back (`got`)."""
    found: list[object] = []
    for key in was.keys() | made.keys() | left.keys():
        if left.get(key) == made.get(key) and got.get(key) != was.get(key):
            found.append(("not undone", key))
        elif was.get(key) == made.get(key) != left.get(key) != got.get(key):
            found.append(("lost", key))
    return found


def seen_at_table(table: ts.Table) -> dict[tuple[object, ...], object]:
    """Each name, pile's player and pile's cards, and how many of each card the table holds."""
    found: dict[tuple[object, ...], object] = {}
    for player in table.players:
        found["name", player.id] = player.name
        for pile in player.piles:
            found["owner", pile.id] = player.id
            found["cards", pile.id] = pile.slots
    for slot, count in Counter(ts.all_slots(table)).items():
        found["count", slot] = count
    return found


def count_tables() -> list[Outcome]:
    before = a_table()
    found = []
    for (mine_name, mine), (their_name, theirs), after, now in pairs(before, table_changes):
        back = take_back(now, before, after)
        commute = back is None and _commute(mine, theirs, before, now)
        seen = (seen_at_table(table) for table in (before, after, now, back)) if back else ()
        wrong = tuple(lost(*seen)) if back else ()
        found.append(Outcome(mine_name, their_name, back is None, commute, wrong))
    return found


def count_sheets(
    start: Any, changes: Callable, seen: Callable, broken: Callable, mixed: Callable | None
) -> list[Outcome]:
    before = start()
    found = []
    for (mine_name, _), (their_name, _), after, now in pairs(before, changes):
        back = take_back(now, before, after)
        wrong: list[object] = []
        if back is not None:
            wrong = broken(back) + (mixed(after, now, back) if mixed else [])
            if not isinstance(before, nt.Night) or after.started == before.started:
                wrong += lost(*(seen(game) for game in (before, after, now, back)))
        found.append(Outcome(mine_name, their_name, back is None, wrong=tuple(wrong)))
    return found


def report(title: str, outcomes: list[Outcome], listed: bool, commuting: bool = False) -> None:
    refused = [o for o in outcomes if o.refused]
    commute = [o for o in refused if o.commute]
    wrong = [o for o in outcomes if o.wrong]
    said = f" ({len(commute)} where the changes commute)" if commuting else ""
    print(
        f"{title}: {len(outcomes)} pairs, {len(refused)} refused{said}, {len(wrong)} merged wrong"
    )
    for outcome in (*refused, *wrong) if listed else wrong:
        mark = "wrong" if outcome.wrong else "C" if outcome.commute else "-"
        print(f"  {mark} {outcome.mine} | {outcome.theirs} {list(outcome.wrong)[:3]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="name each pair refused")
    listed = parser.parse_args().list
    report("Black Cat table", count_tables(), listed, commuting=True)
    night = count_sheets(a_night, night_changes, seen_in_night, night_broken, None)
    report("Night", night, listed)
    for start in (a_lady_game, three_deals):
        lady = count_sheets(start, lady_changes, seen_in_lady, lady_broken, lady_mixed)
        report(f"Black Lady, {len(start().deals)} deals", lady, listed)


if __name__ == "__main__":
    main()
