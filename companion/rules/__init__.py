"""The rules of the games in the five manuals: tiles, hands, layouts, moves, presets and scoring.

Standard library only; nothing here imports from the rest of companion.
"""

from companion.rules.tiles import (
    DOUBLE_SIX,
    DuplicateTileError,
    InvalidHandError,
    InvalidTileError,
    Tile,
    check_distinct,
    double_set,
    format_hand,
    hand_pips,
    parse_hand,
)

__all__ = [
    "DOUBLE_SIX",
    "DuplicateTileError",
    "InvalidHandError",
    "InvalidTileError",
    "Tile",
    "check_distinct",
    "double_set",
    "format_hand",
    "hand_pips",
    "parse_hand",
]
