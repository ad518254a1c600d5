"""The tiles on the table: the line of play, its open ends, doubles and spinners, and legal moves.

Entry points: ``Layout.for_preset(preset)`` (an empty table), ``layout.moves(hand)``,
``layout.check(move)`` and ``layout.play(move)`` (a new ``Layout``; a layout never changes),
``layout.open_ends`` / ``layout.playable_ends``, ``layout.count()`` (the All Fives count).

Conventions: ``placed`` lists the tiles in the order they were laid; a tile is named by its index
there. Every placed tile has exits ("slots"), each an ``End`` when nothing touches it:

- the first tile: ``left`` (its high half) and ``right`` (its low half); a spinner double also has
  ``up`` and ``down``, its two ends, when the preset makes it a spinner (all doubles under
  ``Spinners.ALL_DOUBLES``; the double-six under ``Spinners.STAR``);
- any later tile: ``on`` (the far half, continuing the line) and, for a spinner double, ``up`` and
  ``down``. Under ``Spinners.STAR`` only the middle double-six is a spinner, and until its four sides
  are covered (the star is complete) every play must go on it.

The All Fives count adds the value of every open end, except that a crosswise double counts both halves
while it is at an arm's end (at most one tile touches it), and nothing once it has been played past.

Raises ``IllegalMoveError`` (a ``ValueError``) whose message says why a move is not allowed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from companion.rules.presets import Doubles, Preset, Spinners
from companion.rules.tiles import Tile

SIX_SIX = Tile(6, 6)
ROOT_SLOTS = ("left", "right", "up", "down")
SPINNER_SLOTS = ("on", "up", "down")


class IllegalMoveError(ValueError):
    """A move the rules do not allow; the message says why."""


@dataclass(frozen=True, slots=True)
class End:
    """An open place to play: exit ``slot`` of placed tile number ``at``, showing ``value``."""

    at: int
    slot: str
    value: int


@dataclass(frozen=True, slots=True)
class Placed:
    """One tile on the table: what it touches (``parent``'s ``slot``), and whether it lies crosswise."""

    tile: Tile
    parent: int | None
    slot: str | None
    crosswise: bool
    exits: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Move:
    """Lay ``tile`` on ``end`` (None for the first tile). ``crosswise`` only matters for a double under
    ``Doubles.EITHER`` (The Star), where the player chooses."""

    tile: Tile
    end: End | None = None
    crosswise: bool = True

    def __str__(self) -> str:
        where = "to start" if self.end is None else f"on #{self.end.at} {self.end.slot} ({self.end.value})"
        return f"{self.tile} {where}"


@dataclass(frozen=True)
class Layout:
    """The table. See the module docstring."""

    spinners: Spinners = Spinners.NONE
    doubles: Doubles = Doubles.IN_LINE
    preset_name: str = ""
    placed: tuple[Placed, ...] = ()
    open_ends: tuple[End, ...] = ()
    _children: tuple[int, ...] = field(default=(), repr=False)

    @classmethod
    def for_preset(cls, preset: Preset) -> "Layout":
        return cls(preset.spinners, preset.doubles, preset.name)

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return tuple(p.tile for p in self.placed)

    @property
    def pips(self) -> int:
        return sum(p.tile.pips for p in self.placed)

    @property
    def star_complete(self) -> bool:
        """Under ``Spinners.STAR``: the middle double-six has all four sides covered."""
        return bool(self.placed) and not any(e.at == 0 for e in self.open_ends)

    @property
    def playable_ends(self) -> tuple[End, ...]:
        """The open ends a tile may go on now (only the star's sides until the star is complete)."""
        if self.spinners is Spinners.STAR and self.placed and not self.star_complete:
            return tuple(e for e in self.open_ends if e.at == 0)
        return self.open_ends

    def index_of(self, tile: Tile) -> int | None:
        for i, p in enumerate(self.placed):
            if p.tile == tile:
                return i
        return None

    def _is_spinner(self, tile: Tile, first: bool) -> bool:
        if not tile.is_double:
            return False
        if self.spinners is Spinners.ALL_DOUBLES:
            return True
        return self.spinners is Spinners.STAR and first and tile == SIX_SIX

    def exits_for(self, tile: Tile, first: bool) -> tuple[str, ...]:
        if first:
            return ROOT_SLOTS if self._is_spinner(tile, True) else ROOT_SLOTS[:2]
        return SPINNER_SLOTS if self._is_spinner(tile, False) else ("on",)

    def moves(self, hand: Iterable[Tile]) -> tuple[Move, ...]:
        """Every legal move for ``hand`` (the first tile: any tile of the hand)."""
        hand = tuple(hand)
        if not self.placed:
            return tuple(Move(t) for t in hand)
        return tuple(Move(t, e) for e in self.playable_ends for t in hand if t.has(e.value))

    def can_play(self, hand: Iterable[Tile]) -> bool:
        hand = tuple(hand)
        if not self.placed:
            return bool(hand)
        return any(t.has(e.value) for e in self.playable_ends for t in hand)

    def check(self, move: Move) -> None:
        """Raise ``IllegalMoveError`` saying why ``move`` is not allowed here; return None if it is."""
        tile = move.tile
        if self.index_of(tile) is not None:
            raise IllegalMoveError(f"{tile} is already on the table")
        if move.end is None:
            if self.placed:
                raise IllegalMoveError(f"{tile} must be laid on an open end: the first tile is already down")
            if self.spinners is Spinners.STAR and tile != SIX_SIX:
                raise IllegalMoveError(f"{tile} cannot start The Star: the double-six goes first, in the middle")
            return
        if not self.placed:
            raise IllegalMoveError(f"{tile} cannot go on an end: the table is empty")
        at, slot = move.end.at, move.end.slot
        if not 0 <= at < len(self.placed):
            raise IllegalMoveError(f"there is no tile number {at} on the table")
        target = self.placed[at]
        if slot not in target.exits:
            if target.tile.is_double and slot in ("up", "down"):
                raise IllegalMoveError(
                    f"that side of {target.tile} is not open: under {self.preset_name or 'these rules'} "
                    f"{'only the middle double-six is' if self.spinners is Spinners.STAR else 'no double is'} "
                    "a spinner, so a double has only two open ends")
            raise IllegalMoveError(f"{target.tile} has no {slot!r} end")
        end = next((e for e in self.open_ends if e.at == at and e.slot == slot), None)
        if end is None:
            raise IllegalMoveError(f"that end of {target.tile} ({slot}) is already covered")
        if end not in self.playable_ends:
            left = sum(1 for e in self.open_ends if e.at == 0)
            raise IllegalMoveError(
                f"the star is not complete: the double-six still has {left} open side(s), and every play "
                "goes on it until all four are covered")
        if not tile.has(end.value):
            raise IllegalMoveError(f"{tile} does not fit there: that end of {target.tile} shows a {end.value}")
        if move.end.value != end.value:
            raise IllegalMoveError(
                f"that end of {target.tile} ({slot}) shows a {end.value}, not a {move.end.value}")

    def play(self, move: Move) -> "Layout":
        """The layout after ``move``; raises ``IllegalMoveError`` if it is not allowed."""
        self.check(move)
        tile = move.tile
        first = move.end is None
        crosswise = tile.is_double and (self.doubles is not Doubles.IN_LINE) and (
            move.crosswise or self.doubles is Doubles.CROSSWISE)
        placed = Placed(tile, None if first else move.end.at, None if first else move.end.slot,
                        crosswise, self.exits_for(tile, first))
        index = len(self.placed)
        if first:
            new_ends = [End(index, s, tile.high if s == "left" else tile.low if s == "right" else tile.high)
                        for s in placed.exits]
            kept: list[End] = []
            children = [0]
        else:
            far = tile.other(move.end.value)
            new_ends = [End(index, s, far) for s in placed.exits]
            kept = [e for e in self.open_ends if e != move.end]
            children = list(self._children) + [0]
            children[move.end.at] += 1
        return Layout(self.spinners, self.doubles, self.preset_name, self.placed + (placed,),
                      tuple(kept + new_ends), tuple(children))

    def count(self) -> int:
        """The All Fives count of the open ends (see the module docstring)."""
        total = 0
        for i, p in enumerate(self.placed):
            opens = [e for e in self.open_ends if e.at == i]
            if not opens:
                continue
            if p.tile.is_double and p.crosswise:
                touching = (p.parent is not None) + self._children[i]
                if touching <= 1:
                    total += p.tile.pips
            else:
                total += sum(e.value for e in opens)
        return total

    def describe_ends(self) -> str:
        ends = self.playable_ends
        if not ends:
            return "no open ends"
        return ", ".join(f"{e.value} on {self.placed[e.at].tile}" for e in ends)
