"""Tiles, hands and the double-N set.

Entry points: ``Tile`` (``Tile.parse("6-4")``, ``str(tile)``), ``parse_hand("6-4,3-3")``,
``format_hand(tiles)``, ``double_set(6)``, ``check_distinct(...)``.

Conventions: a tile is unordered, so ``Tile(4, 6) == Tile(6, 4)`` and both print ``6-4`` (high half
first). A blank half is 0; the Elakai logo face reads 0 too. The default set is double-six; pass
``max_pips=9`` or ``12`` for the larger sets.

Raises ``InvalidTileError`` and ``InvalidHandError`` (both ``ValueError``), whose messages quote the
bad input, and ``DuplicateTileError`` when one tile stands twice among hands, boneyard and table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

DOUBLE_SIX = 6

_TILE_RE = re.compile(r"^\s*(\d{1,2})\s*[-|/:]\s*(\d{1,2})\s*$")


class InvalidTileError(ValueError):
    """A tile that is malformed or not in the set."""


class InvalidHandError(ValueError):
    """A hand that cannot be parsed."""


class DuplicateTileError(ValueError):
    """The same tile appears twice where a set holds it once."""


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """One domino. Stored high half first so that equal tiles compare and hash equal."""

    high: int
    low: int

    def __init__(self, a: int, b: int) -> None:
        for half in (a, b):
            if not isinstance(half, int) or isinstance(half, bool) or half < 0:
                raise InvalidTileError(f"invalid tile half: {half!r}")
        object.__setattr__(self, "high", max(a, b))
        object.__setattr__(self, "low", min(a, b))

    @classmethod
    def parse(cls, text: str, *, max_pips: int = DOUBLE_SIX) -> "Tile":
        """Parse ``"6-4"`` (also ``6|4``, ``6/4``, ``6:4``); halves must be 0..max_pips."""
        if not isinstance(text, str):
            raise InvalidTileError(f"invalid tile: {text!r}")
        match = _TILE_RE.match(text)
        if not match:
            raise InvalidTileError(f"invalid tile: {text!r} (write it as a-b, for example 6-4)")
        a, b = int(match.group(1)), int(match.group(2))
        if a > max_pips or b > max_pips:
            raise InvalidTileError(
                f"invalid tile: {text!r} is not in a double-{_set_name(max_pips)} set"
                f" (halves go from 0 to {max_pips})"
            )
        return cls(a, b)

    @property
    def halves(self) -> tuple[int, int]:
        return (self.high, self.low)

    @property
    def pips(self) -> int:
        """The number of pips on the tile: its count in a hand."""
        return self.high + self.low

    @property
    def is_double(self) -> bool:
        return self.high == self.low

    def has(self, value: int) -> bool:
        return value in (self.high, self.low)

    def other(self, value: int) -> int:
        """The half opposite ``value``; for a double, ``value`` itself."""
        if value == self.high:
            return self.low
        if value == self.low:
            return self.high
        raise ValueError(f"tile {self} has no {value} half")

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __repr__(self) -> str:
        return f"Tile({self.high}, {self.low})"


def _set_name(max_pips: int) -> str:
    return {6: "six", 9: "nine", 12: "twelve"}.get(max_pips, str(max_pips))


def double_set(max_pips: int = DOUBLE_SIX) -> tuple[Tile, ...]:
    """Every tile of a double-``max_pips`` set (28 for double-six), in a fixed order."""
    return tuple(Tile(a, b) for a in range(max_pips + 1) for b in range(a + 1))


def parse_hand(text: str, *, max_pips: int = DOUBLE_SIX) -> tuple[Tile, ...]:
    """Parse a comma-separated hand such as ``"6-4,3-3"``; ``""`` is the empty hand.

    A tile twice in one hand raises ``DuplicateTileError``.
    """
    if not isinstance(text, str):
        raise InvalidHandError(f"invalid hand: {text!r}")
    stripped = text.strip()
    if not stripped:
        return ()
    parts = stripped.split(",")
    tiles = []
    for part in parts:
        if not part.strip():
            raise InvalidHandError(f"invalid hand: {text!r} has an empty item between commas")
        tiles.append(Tile.parse(part, max_pips=max_pips))
    check_distinct({"hand": tiles})
    return tuple(tiles)


def format_hand(tiles: Iterable[Tile]) -> str:
    return ",".join(str(tile) for tile in tiles)


def hand_pips(tiles: Iterable[Tile]) -> int:
    return sum(tile.pips for tile in tiles)


def check_distinct(groups: dict[str, Iterable[Tile]]) -> None:
    """Raise ``DuplicateTileError`` naming the tile and where it stands twice."""
    seen: dict[Tile, str] = {}
    for where, tiles in groups.items():
        for tile in tiles:
            if tile in seen:
                first = seen[tile]
                place = f"twice in {where}" if first == where else f"in {first} and in {where}"
                raise DuplicateTileError(f"tile {tile} appears {place}; a set holds each tile once")
            seen[tile] = where
