"""The one-player games: Solitaire (Classic booklet), the draw game and Knock Out (Fundex).

Entry points, one per game, each playing from a seeded shuffle with a chooser and returning a
``SoloResult`` (won or lost, what is left, every step):

- ``play_solitaire(rng, choose=None, order=None)``: lay the 28 tiles one by one in a row; whenever two
  tiles one apart share a number, the one between them goes; when all three share a number, all three
  may go instead. Legal steps: ``solitaire_removals(row)``.
- ``play_draw_solitaire(rng, choose=None, order=None)``: five tiles face up, one line, draw when stuck.
- ``play_knock_out(rng, choose=None, line=None)``: the 28 tiles end to end; two touching halves that
  match knock both tiles out. Legal steps: ``knock_outs(line)``.

A chooser is ``choose(options) -> option`` (defaults: ``first_choice``); a chooser that returns something
not in ``options`` is refused with ``IllegalMoveError``, so replaying a recorded game with a scripted
chooser judges it. In Knock Out a tile in the line is an oriented pair ``(left half, right half)``.
What each manual leaves open is settled in ``presets.py`` (SOLITAIRE, DRAW_SOLITAIRE, KNOCK_OUT).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Sequence

from companion.rules.layout import IllegalMoveError, Layout, Move
from companion.rules.presets import DRAW_SOLITAIRE
from companion.rules.tiles import Tile, double_set

Chooser = Callable[[tuple], object]


@dataclass(frozen=True)
class SoloResult:
    """How a one-player game ended: ``won``, what was left, and each step taken."""

    game: str
    won: bool
    left: tuple
    steps: tuple
    explanation: str


@dataclass(frozen=True, order=True)
class Removal:
    """Solitaire: remove the tile at ``index`` (``three=False``) or it and both neighbours (``three``)."""

    index: int
    three: bool = False


def first_choice(options: tuple):
    return options[0]


def random_choice(rng: random.Random) -> Chooser:
    return lambda options: rng.choice(options)


def _pick(choose: Chooser, options: tuple):
    pick = choose(options)
    if pick not in options:
        raise IllegalMoveError(f"{pick!r} is not allowed here (allowed: {', '.join(map(str, options))})")
    return pick


def _order(rng: random.Random, order: Sequence[Tile] | None) -> list[Tile]:
    if order is None:
        tiles = list(double_set())
        rng.shuffle(tiles)
        return tiles
    tiles = list(order)
    if sorted(tiles) != sorted(double_set()):
        raise IllegalMoveError("a one-player game uses each of the 28 tiles exactly once")
    return tiles


def solitaire_removals(row: Sequence[Tile]) -> tuple[Removal, ...]:
    """Every removal allowed in ``row``: the middle of three whose outer tiles share a number, or all
    three when all three share one."""
    found = []
    for i in range(1, len(row) - 1):
        a, b, c = set(row[i - 1].halves), set(row[i].halves), set(row[i + 1].halves)
        if a & c:
            found.append(Removal(i))
            if a & b & c:
                found.append(Removal(i, True))
    return tuple(found)


def play_solitaire(rng: random.Random, choose: Chooser | None = None,
                   order: Sequence[Tile] | None = None) -> SoloResult:
    """Solitaire Dominoes. ``choose`` also gets ``None`` as an option: stop removing for now."""
    choose = choose or first_choice
    row: list[Tile] = []
    steps = []
    for tile in _order(rng, order):
        row.append(tile)
        steps.append(("lay", tile))
        while True:
            options = solitaire_removals(row)
            if not options:
                break
            pick = _pick(choose, options + (None,))
            if pick is None:
                break
            steps.append(("remove", pick))
            if pick.three:
                del row[pick.index - 1: pick.index + 2]
            else:
                del row[pick.index]
    won = not row
    why = "every tile was removed" if won else f"{len(row)} tile(s) remain in the row"
    return SoloResult("solitaire", won, tuple(row), tuple(steps), f"Solitaire {'won' if won else 'lost'}: {why}")


def play_draw_solitaire(rng: random.Random, choose: Chooser | None = None,
                        order: Sequence[Tile] | None = None) -> SoloResult:
    """The Fundex one-player draw game: won when all 28 tiles are in the line."""
    choose = choose or first_choice
    pile = _order(rng, order)
    hand, pile = pile[:5], pile[5:]
    layout = Layout.for_preset(DRAW_SOLITAIRE)
    steps: list = []
    while True:
        moves = layout.moves(hand)
        while not moves and pile:
            tile = pile.pop(0)
            hand.append(tile)
            steps.append(("draw", tile))
            moves = layout.moves(hand)
        if not moves:
            break
        move: Move = _pick(choose, moves)
        layout = layout.play(move)
        hand.remove(move.tile)
        steps.append(("play", move))
    won = len(layout.placed) == 28
    why = ("all 28 tiles are in the line" if won else
           f"stuck with {len(hand)} tile(s) in hand and the pile empty")
    return SoloResult("draw-solitaire", won, tuple(hand), tuple(steps), f"Draw game {'won' if won else 'lost'}: {why}")


def knock_outs(line: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """Every ``i`` where the right half of ``line[i]`` matches the left half of ``line[i + 1]``."""
    return tuple(i for i in range(len(line) - 1) if line[i][1] == line[i + 1][0])


def play_knock_out(rng: random.Random, choose: Chooser | None = None,
                   line: Sequence[tuple[int, int]] | None = None) -> SoloResult:
    """Knock Out: won when the line is empty."""
    choose = choose or first_choice
    if line is None:
        line = [(t.high, t.low) if rng.random() < 0.5 else (t.low, t.high) for t in _order(rng, None)]
    else:
        line = [tuple(p) for p in line]
        _order(rng, [Tile(*p) for p in line])
    steps = []
    while True:
        options = knock_outs(line)
        if not options:
            break
        i = _pick(choose, options)
        steps.append(("knock", i, line[i], line[i + 1]))
        del line[i: i + 2]
    won = not line
    why = "the line is empty" if won else f"{len(line)} tile(s) remain and no two touching halves match"
    return SoloResult("knock-out", won, tuple(line), tuple(steps), f"Knock Out {'won' if won else 'lost'}: {why}")
