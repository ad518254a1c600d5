"""Playing a round: the deal, who starts, turns, drawing and passing, simple players, the result.

Entry points: ``deal(preset, players, rng)`` -> ``Deal``; ``play_round(preset, players, *, seed=None,
rng=None, strategies=None, observe=None)`` -> ``RoundRecord`` (its ``result`` is the ``score_round``
verdict on the final hands); ``play_match(...)`` plays rounds to the target; the players
``RandomPlayer`` and ``GreedyPlayer``.

Conventions: ``players`` are names in seating order; play moves to the left, which is the next name.
A player is any object with ``choose(layout, moves) -> Move``; the engine checks the move is one of
``moves`` (``IllegalMoveError`` otherwise). ``observe`` is called with a ``TableState`` after the deal
and after every event, so tests can check that every tile is in exactly one place at every step.
How each preset deals, starts, draws, passes and turns up face-down rows is in ``presets.py`` and
docs/rules.md. Randomness comes only from the ``random.Random`` passed in (or ``seed``).

Raises ``PlayerCountError``, ``IllegalMoveError``, ``InvalidRoundError`` (a one-player preset).
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from typing import Callable, Mapping, Protocol, Sequence

from companion.rules.layout import IllegalMoveError, Layout, Move
from companion.rules.match import Match
from companion.rules.presets import Drawing, Preset, Start, find_preset
from companion.rules.scoring import InvalidRoundError, RoundResult, score_round
from companion.rules.tiles import Tile, double_set

MAX_REDEALS = 1000
MAX_EVENTS = 20_000  # a round has at most 28 plays and 28 draws per pass cycle; far below this


class Player(Protocol):
    def choose(self, layout: Layout, moves: tuple[Move, ...]) -> Move: ...


@dataclass
class RandomPlayer:
    """Picks any legal move at random."""

    rng: random.Random

    def choose(self, layout: Layout, moves: tuple[Move, ...]) -> Move:
        return self.rng.choice(moves)


@dataclass
class GreedyPlayer:
    """Scores the most All Fives points it can, then sheds the heaviest tile (ties: the first move)."""

    fives: bool = False

    def choose(self, layout: Layout, moves: tuple[Move, ...]) -> Move:
        def value(move: Move) -> tuple[int, int]:
            made = 0
            if self.fives:
                count = layout.play(move).count()
                made = count if count % 5 == 0 else 0
            return (made, move.tile.pips)
        return max(moves, key=value)


@dataclass(frozen=True)
class Deal:
    """Who holds what before the first play. ``rows`` presets keep the hand order (face-down rows)."""

    players: tuple[str, ...]
    hands: Mapping[str, tuple[Tile, ...]]
    boneyard: tuple[Tile, ...]
    starter: str
    opening: Tile
    redeals: int = 0
    first_draw: tuple[Mapping[str, Tile], ...] = ()  # Blind: each draw for first player (ties redraw)


@dataclass(frozen=True)
class Event:
    """One thing that happened: ``kind`` is play, draw, pass, or back (a row tile sent to the back)."""

    player: str
    kind: str
    tile: Tile | None = None
    move: Move | None = None
    points: int = 0


@dataclass(frozen=True)
class TableState:
    """Where every tile is, at one step."""

    hands: Mapping[str, tuple[Tile, ...]]
    boneyard: tuple[Tile, ...]
    layout: Layout
    play_points: Mapping[str, int]
    last: Event | None = None


@dataclass(frozen=True)
class RoundRecord:
    """A round played out: the deal, every event, the final table and the scored result."""

    deal: Deal
    events: tuple[Event, ...]
    layout: Layout
    hands: Mapping[str, tuple[Tile, ...]]
    boneyard: tuple[Tile, ...]
    play_points: Mapping[str, int]
    result: RoundResult


def _shuffled(rng: random.Random) -> list[Tile]:
    tiles = list(double_set())
    rng.shuffle(tiles)
    return tiles


def deal(preset: Preset | str, players: Sequence[str], rng: random.Random) -> Deal:
    """Deal a round and settle who starts, with which tile. See the module docstring."""
    preset = find_preset(preset) if isinstance(preset, str) else preset
    if preset.solo:
        raise InvalidRoundError(f"{preset.name} is a one-player game: see companion.rules.solo")
    players = tuple(players)
    if len(set(players)) != len(players):
        raise InvalidRoundError(f"players named twice: {list(players)!r}")
    size = preset.hand_size(len(players))
    first_draw: tuple[dict[str, Tile], ...] = ()
    if preset.start is Start.DRAW_ONE:
        first_draw, starter = _draw_for_first(players, rng)
    for redeals in range(MAX_REDEALS):
        tiles = _shuffled(rng)
        hands = {name: tuple(tiles[i * size:(i + 1) * size]) for i, name in enumerate(players)}
        rest = tiles[len(players) * size:]
        if preset.start is Start.HIGHEST_DOUBLE:
            doubles = [(t, n) for n, h in hands.items() for t in h if t.is_double]
            if not doubles:
                continue  # "If no double is drawn, then all dominoes are put back ... to be redrawn."
            opening, starter = max(doubles)
        elif preset.start is Start.DOUBLE_SIX:
            holders = [n for n, h in hands.items() if Tile(6, 6) in h]
            if not holders:
                continue  # Lucky Draw, 3 players: the double-six is the 28th tile; nobody drew it, so redeal
            starter = holders[0]
            opening = Tile(6, 6)
            if rest and len(players) == 3:  # Lucky Draw: the double-six holder draws the 28th tile
                hands[starter] = hands[starter] + tuple(rest)
                rest = []
        elif preset.start is Start.FIRST_SEAT:
            starter = players[0]
            opening = hands[starter][0]
        else:  # DRAW_ONE: the draw above chose the starter
            opening = hands[starter][0]
        return Deal(players, hands, tuple(rest), starter, opening, redeals, first_draw)
    raise RuntimeError(f"no double after {MAX_REDEALS} deals")  # pragma: no cover - p < 1e-300


def _draw_for_first(players: tuple[str, ...], rng: random.Random) -> tuple[tuple[dict[str, Tile], ...], str]:
    """Blind Dominoes: each draws one tile, the most dots goes first; tied players draw again."""
    drawing = list(players)
    draws: list[dict[str, Tile]] = []
    while True:
        this = dict(zip(drawing, _shuffled(rng)))
        draws.append(this)
        top = max(t.pips for t in this.values())
        drawing = [n for n, t in this.items() if t.pips == top]
        if len(drawing) == 1:
            return tuple(draws), drawing[0]


def play_round(
    preset: Preset | str,
    players: Sequence[str],
    *,
    seed: int | None = None,
    rng: random.Random | None = None,
    strategies: Mapping[str, Player] | None = None,
    observe: Callable[[TableState], None] | None = None,
) -> RoundRecord:
    """Deal and play one round to its end with the given players (random ones by default)."""
    preset = find_preset(preset) if isinstance(preset, str) else preset
    rng = rng or random.Random(seed)
    the_deal = deal(preset, players, rng)
    strategies = dict(strategies or {})
    for name in the_deal.players:
        strategies.setdefault(name, RandomPlayer(rng))
    return _Round(preset, the_deal, strategies, observe).run()


class _Round:
    """The mutable state of one round being played (private: callers see frozen snapshots)."""

    def __init__(self, preset: Preset, the_deal: Deal, strategies, observe) -> None:
        self.preset, self.deal, self.strategies, self.observe = preset, the_deal, strategies, observe
        self.order = the_deal.players
        self.hands = {n: deque(h) for n, h in the_deal.hands.items()}
        self.boneyard = list(the_deal.boneyard)
        self.layout = Layout.for_preset(preset)
        self.points = {n: 0 for n in self.order}
        self.events: list[Event] = []

    def snapshot(self) -> TableState:
        return TableState({n: tuple(h) for n, h in self.hands.items()}, tuple(self.boneyard),
                          self.layout, dict(self.points), self.events[-1] if self.events else None)

    def record(self, event: Event) -> None:
        self.events.append(event)
        if len(self.events) > MAX_EVENTS:  # a bug, never a rule: fail loudly instead of looping
            raise RuntimeError(f"{self.preset.name}: round did not end after {MAX_EVENTS} events")
        if self.observe:
            self.observe(self.snapshot())

    def lay(self, name: str, move: Move) -> None:
        if move.tile not in self.hands[name]:
            raise IllegalMoveError(f"{move.tile} is not in {name}'s hand")
        self.layout = self.layout.play(move)
        self.hands[name].remove(move.tile)
        made = 0
        if self.preset.in_play_fives:
            count = self.layout.count()
            if count and count % 5 == 0:
                made = count
                self.points[name] += made
        self.record(Event(name, "play", move.tile, move, made))

    def choose(self, name: str, moves: tuple[Move, ...]) -> Move:
        move = self.strategies[name].choose(self.layout, moves)
        if move not in moves:
            raise IllegalMoveError(f"{name} tried {move}, which is not a legal move here")
        return move

    def run(self) -> RoundRecord:
        if self.observe:
            self.observe(self.snapshot())
        start = self.order.index(self.deal.starter)
        self.lay(self.deal.starter, Move(self.deal.opening))
        rows = self.preset.drawing in (Drawing.ROW_ONCE, Drawing.ROW_CONTINUE)
        if rows:
            self.run_rows(start)
        else:
            self.run_hands(start)
        hands = {n: tuple(h) for n, h in self.hands.items()}
        result = score_round(self.preset, hands, boneyard=tuple(self.boneyard), table=self.layout.tiles,
                             play_points=self.points if self.preset.in_play_fives else None)
        return RoundRecord(self.deal, tuple(self.events), self.layout, hands, tuple(self.boneyard),
                           dict(self.points), result)

    def run_hands(self, start: int) -> None:
        """Hand games: play one tile a turn; a stuck player draws until able (or passes)."""
        if not self.hands[self.order[start]]:
            return
        n, turn, passes = len(self.order), (start + 1) % len(self.order), 0
        while passes < n:
            name = self.order[turn]
            hand = self.hands[name]
            moves = self.layout.moves(hand)
            while not moves and self.preset.draws and self.boneyard:
                tile = self.boneyard.pop()
                hand.append(tile)
                self.record(Event(name, "draw", tile))
                moves = self.layout.moves((tile,))
            if moves:
                self.lay(name, self.choose(name, moves))
                passes = 0
                if not hand:
                    return
            else:
                self.record(Event(name, "pass"))
                passes += 1
            turn = (turn + 1) % n

    def run_rows(self, start: int) -> None:
        """Face-down rows (Blind, turn-over): turn up the front tile; play it, or send it to the back."""
        n = len(self.order)
        once = self.preset.drawing is Drawing.ROW_ONCE
        turn = start  # the opener turns up their next tile straight after setting the first
        while True:
            if any(not h for h in self.hands.values()):
                return
            if not any(self.layout.can_play(h) for h in self.hands.values()):
                return  # blocked: no tile left in any row fits
            name = self.order[turn]
            row = self.hands[name]
            while row:
                tile = row[0]
                moves = self.layout.moves((tile,))
                if not moves:
                    row.rotate(-1)
                    self.record(Event(name, "back", tile))
                    break
                self.lay(name, self.choose(name, moves))
                if once:
                    break
            turn = (turn + 1) % n


def play_match(preset: Preset | str, players: Sequence[str], *, seed: int | None = None,
               strategies: Mapping[str, Player] | None = None, target: int | None = None,
               max_rounds: int = 500) -> Match:
    """Play rounds until the match has a winner (or ``max_rounds``)."""
    preset = find_preset(preset) if isinstance(preset, str) else preset
    rng = random.Random(seed)
    match = Match(preset.name, tuple(players), target or preset.target or 100)
    for _ in range(max_rounds):
        if match.winner is not None:
            break
        match = match.add(play_round(preset, players, rng=rng, strategies=strategies).result)
    return match
