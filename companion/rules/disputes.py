"""Settling arguments at the table: is this play legal, could that player have played, what it scores.

Entry points:

- ``build_layout(preset, placements)``: a ``Layout`` from placed tiles in the order they were laid,
  each ``(tile, onto, side)``: ``onto`` is the tile it touches (None for the first tile) and ``side``
  the exit of ``onto`` it goes on (``left``/``right``/``up``/``down`` on the first tile, ``on``/``up``/
  ``down`` on later ones); leave ``side`` None to take the first open exit of ``onto`` that fits.
- ``check_play(preset, layout, tile, onto=None, side=None, *, hand=None)`` -> ``Verdict``: legal or not,
  and why not (no open end shows that number; that side of a double is not open under this preset;
  The Star's star is not complete; that end is covered; the tile is already down or not in the hand).
  Under All Fives the verdict also gives the count of the open ends after the play and its points.
- ``check_stuck(preset, layout, hand, *, boneyard_left)`` -> ``Verdict``: could the player play, so
  was drawing or passing allowed; ``layout`` may also be just the numbers on the open ends.
- ``fives(layout)``: the count of the open ends and the points it is worth now.

Tiles may be given as ``Tile`` or text (``"6-4"``). Raises ``InvalidTileError`` for bad tile text and
``IllegalMoveError`` when ``build_layout`` meets a placement that breaks the rules (naming it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from companion.rules.layout import End, IllegalMoveError, Layout, Move
from companion.rules.presets import Doubles, Preset, find_preset
from companion.rules.tiles import Tile


@dataclass(frozen=True)
class Verdict:
    """The answer to a dispute. ``count``/``points`` are set for All Fives plays."""

    legal: bool
    reason: str
    count: int | None = None
    points: int | None = None


def _tile(value: Tile | str) -> Tile:
    return value if isinstance(value, Tile) else Tile.parse(value)


def _preset(preset: Preset | str) -> Preset:
    return find_preset(preset) if isinstance(preset, str) else preset


def _end(layout: Layout, tile: Tile, onto: Tile | str | None, side: str | None) -> End | None:
    """The end ``tile`` would go on; raises ``IllegalMoveError`` when it cannot be named."""
    if onto is None:
        return None
    onto = _tile(onto)
    at = layout.index_of(onto)
    if at is None:
        raise IllegalMoveError(f"{onto} is not on the table")
    if side is not None:
        for end in layout.open_ends:
            if end.at == at and end.slot == side:
                return end
        return End(at, side, -1)  # not open: Layout.check says why
    ends = [e for e in layout.open_ends if e.at == at]
    if not ends:
        raise IllegalMoveError(f"every end of {onto} is already covered")
    fitting = [e for e in ends if tile.has(e.value)] or ends
    playable = [e for e in fitting if e in layout.playable_ends] or fitting
    return playable[0]


def build_layout(preset: Preset | str,
                 placements: Iterable[tuple[Tile | str, Tile | str | None, str | None]]) -> Layout:
    """The layout made by ``placements`` (see the module docstring)."""
    layout = Layout.for_preset(_preset(preset))
    for number, (tile, onto, side) in enumerate(placements, 1):
        tile = _tile(tile)
        try:
            end = _end(layout, tile, onto, side)
            layout = layout.play(Move(tile, end))
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"placement {number} ({tile} on {onto or 'the empty table'}): {exc}") from None
    return layout


def fives(layout: Layout) -> tuple[int, int]:
    """The All Fives count of the open ends, and the points it scores (the count when a multiple of 5)."""
    count = layout.count()
    return count, count if count and count % 5 == 0 else 0


def check_play(preset: Preset | str, layout: Layout, tile: Tile | str, onto: Tile | str | None = None,
               side: str | None = None, *, hand: Iterable[Tile | str] | None = None,
               crosswise: bool = True) -> Verdict:
    """Is laying ``tile`` on ``onto`` (at ``side``) legal here, and if not, why not."""
    preset = _preset(preset)
    tile = _tile(tile)
    if hand is not None and tile not in {_tile(t) for t in hand}:
        return Verdict(False, f"{tile} is not in the player's hand")
    if onto is None and layout.placed:
        fits = [e for e in layout.playable_ends if tile.has(e.value)]
        if not fits:
            shown = sorted({e.value for e in layout.playable_ends})
            halves = " or a ".join(str(h) for h in dict.fromkeys(tile.halves))
            where = ("the double-six's open sides show" if layout.playable_ends != layout.open_ends
                     else "open ends show")
            return Verdict(False, f"{tile} cannot be played: no open end shows a {halves} "
                                  f"({where} {', '.join(map(str, shown)) or 'nothing'})")
        end = fits[0]
    else:
        try:
            end = _end(layout, tile, onto, side)
        except IllegalMoveError as exc:
            return Verdict(False, str(exc))
    move = Move(tile, end, crosswise if preset.doubles is Doubles.EITHER else True)
    try:
        after = layout.play(move)
    except IllegalMoveError as exc:
        return Verdict(False, str(exc))
    target = "to start" if end is None else f"on the {end.value} of {layout.placed[end.at].tile}"
    if preset.in_play_fives:
        count, points = fives(after)
        scored = f"scores {points}" if points else "is not a multiple of five, so scores nothing"
        return Verdict(True, f"{tile} may go {target}; the open ends then count {count}, which {scored}",
                       count, points)
    return Verdict(True, f"{tile} may go {target}")


def check_stuck(preset: Preset | str, layout: Layout | Iterable[int], hand: Iterable[Tile | str], *,
                boneyard_left: int = 0) -> Verdict:
    """Could a player holding ``hand`` play? ``legal`` says whether drawing (or passing) was allowed.

    ``layout`` is the table, or just the numbers the playable open ends show (``[4, 2]``)."""
    preset = _preset(preset)
    hand = tuple(_tile(t) for t in hand)
    action = "drawing" if preset.draws and boneyard_left else "passing"
    if isinstance(layout, Layout):
        moves = layout.moves(hand)
        if moves:
            m = moves[0]
            spot = "to start" if m.end is None else f"on the open {m.end.value} of {layout.placed[m.end.at].tile}"
            return Verdict(False, f"{action} was not allowed: {m.tile} could be played {spot}")
        ends = layout.describe_ends()
    else:
        shown = [int(v) for v in layout]
        for value in shown:
            if not 0 <= value <= 6:
                raise ValueError(f"invalid open end: {value!r} (0 to 6)")
        fits = [(t, v) for v in shown for t in hand if t.has(v)]
        if fits:
            tile, value = fits[0]
            return Verdict(False, f"{action} was not allowed: {tile} could be played on the open {value}")
        ends = "open ends show " + (", ".join(map(str, shown)) or "nothing")
    if preset.draws and boneyard_left:
        return Verdict(True, f"nothing in the hand fits ({ends}): the player draws until a tile fits")
    return Verdict(True, f"nothing in the hand fits ({ends}) and there is nothing to draw: the player passes")
