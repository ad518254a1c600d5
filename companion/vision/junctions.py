"""Where the tiles of a line of play meet: junction geometry over tile outlines.

Entry point: ``find_junctions(tiles, config=JunctionConfig()) -> tuple[Junction, ...]``.

A *junction* is a place where the short edge (an *end*) of one tile lies against part of another tile:

- ``END_TO_END``: the end of one tile against the end of another (a line, or the arm of a spinner that
  leaves from the spinner's end);
- ``CROSSWISE``: an end against the middle of a long side (a double laid crosswise, or a spinner's side
  arm). A double shows the same value on both halves, so both of its halves are "the touching half";
  when the crosswise tile was read as a non-double the junction cannot match, and the half reported is
  the one that differs;
- ``CORNER``: an end against a long side away from its middle (a line that turns a corner); the touching
  half of the long-side tile is the half the contact lies on.

Tiles lying side by side along their long edges never form a junction: only an end can touch.

Conventions: points are ``xy`` pixels of the photo; each tile is anything with ``pips`` (two ints) and
``corners`` (4 x 2, xy, in order around the face, ``corners[0]``-``corners[1]`` being the short edge at
the end of the ``pips[0]`` half), such as ``companion.vision.TileReading``. Distances are measured in
units of the tile's own size along the direction measured, so the rules hold at any scale and survive
perspective (a far tile is small, and each pair is judged by its own sizes). Every threshold lives in
``JunctionConfig``.

This module only does geometry and the match check; it reads no files and knows nothing of rule presets
(whether a play was allowed at all is ``companion.rules``' business).

Raises ``TileOutlineError`` (a ``ValueError``) for an outline that is not four finite points.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field
from typing import Protocol, Sequence

import numpy as np


class TileOutlineError(ValueError):
    """A tile outline that is not four finite xy points, or a tile without two pip values."""


class JunctionKind(enum.Enum):
    """How two tiles meet."""

    END_TO_END = "end-to-end"
    """An end against an end: tiles in line (or a spinner's end arm)."""
    CROSSWISE = "crosswise"
    """An end against the middle of a long side: a double laid crosswise or a spinner's side arm."""
    CORNER = "corner"
    """An end against a long side off its middle: the line turns a corner there."""


@dataclass(frozen=True)
class JunctionConfig:
    """Every threshold of junction finding, in tile units (scale-free).

    ``max_gap``: how far apart the end and the other tile's edge may be, in half-lengths of the tile
    whose end it is (one half-length is about one tile width, measured along that tile's own axis, so
    perspective foreshortening cancels). Negative gaps (outlines overlapping a little) count alike.
    ``max_angle_deg``: how far from parallel the end and the edge it lies against may be. Perspective
    keeps nearby parallel edges nearly parallel; detection noise adds a few degrees.
    ``min_overlap``: the fraction of the end's length that must lie alongside the other edge. Tiles in
    a brick pattern (ends offset by half a tile) overlap 0.5 and are not a junction.
    ``crosswise_band``: a contact on a long side within this fraction of the tile's length from the
    middle is crosswise (a double's middle); further out it is a corner turn on one half.
    ``doubt_confidence``: a tile read with a confidence below this is "in doubt" (named in a warning
    when it sits on a junction that does not match).
    """

    max_gap: float = 0.3
    max_angle_deg: float = 20.0
    min_overlap: float = 0.6
    crosswise_band: float = 0.15
    doubt_confidence: float = 0.6

    def __post_init__(self) -> None:
        checks = {
            "max_gap": 0 < self.max_gap < 2,
            "max_angle_deg": 0 < self.max_angle_deg < 45,
            "min_overlap": 0 < self.min_overlap <= 1,
            "crosswise_band": 0 <= self.crosswise_band < 0.25,
            "doubt_confidence": 0 <= self.doubt_confidence <= 1,
        }
        for name, good in checks.items():
            if not good:
                raise ValueError(f"JunctionConfig.{name} out of range: {getattr(self, name)!r}")


class TileLike(Protocol):
    pips: tuple[int, int]
    corners: np.ndarray


@dataclass(frozen=True)
class Junction:
    """Two tiles that meet, and whether their touching halves match.

    ``tiles``: indexes into the input, lower first. ``halves``: which half of each tile touches (0 is
    the ``pips[0]`` half); for a crosswise tile the half reported is the one that disagrees, if any.
    ``pips``: the touching halves' values, in the order of ``tiles``. ``point``: the contact, xy pixels.
    ``gap``: how far apart they lie, in tile half-lengths (lower is a surer junction).
    """

    tiles: tuple[int, int]
    halves: tuple[int, int]
    pips: tuple[int, int]
    kind: JunctionKind
    ok: bool
    point: tuple[float, float] = field(compare=False)
    gap: float = field(compare=False, default=0.0)

    def to_dict(self) -> dict:
        """The contract's junction object: ``{"tiles": [i, j], "pips": [a, b], "ok": bool}``."""
        return {"tiles": list(self.tiles), "pips": list(self.pips), "ok": self.ok}


@dataclass(frozen=True)
class _Contact:
    """One end of tile ``i`` lying against an edge of tile ``j`` (a candidate junction)."""

    i: int
    end: int
    j: int
    edge: int  # 0: j's pips[0] end, 2: j's pips[1] end, 1 or 3: a long side
    gap: float
    overlap: float
    along: float  # where on j's axis the contact lies: 0 at the pips[0] end, 1 at the pips[1] end
    point: tuple[float, float]

    @property
    def score(self) -> float:
        return self.overlap - abs(self.gap)


def find_junctions(tiles: Sequence[TileLike], config: JunctionConfig = JunctionConfig()) -> tuple[Junction, ...]:
    """Every junction between the given tiles, ordered by tile indexes.

    Each end of a tile touches at most one other tile (the best candidate), and each pair of tiles meets
    at most once. No tiles or no junctions give an empty tuple.
    """
    outlines = [_outline(index, tile) for index, tile in enumerate(tiles)]
    pips = [_pips(index, tile) for index, tile in enumerate(tiles)]
    best: dict[tuple[int, int], _Contact] = {}
    for i, quad_i in enumerate(outlines):
        for end in (0, 1):
            candidates = [
                contact
                for j, quad_j in enumerate(outlines)
                if j != i
                for contact in _contacts(i, end, quad_i, j, quad_j, config)
            ]
            if not candidates:
                continue
            contact = max(candidates, key=lambda c: c.score)
            pair = (min(i, contact.j), max(i, contact.j))
            if pair not in best or contact.score > best[pair].score:
                best[pair] = contact
    junctions = [_junction(contact, pips, config) for contact in best.values()]
    return tuple(sorted(junctions, key=lambda junction: junction.tiles))


def in_doubt(confidence: float, config: JunctionConfig = JunctionConfig()) -> bool:
    """Whether a reading with this confidence is too unsure to blame a mismatch on the layout."""
    return confidence < config.doubt_confidence


def _outline(index: int, tile: TileLike) -> np.ndarray:
    try:
        quad = np.asarray(tile.corners, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TileOutlineError(f"tile {index}: corners {tile.corners!r} are not numbers") from exc
    if quad.shape != (4, 2) or not np.all(np.isfinite(quad)):
        raise TileOutlineError(f"tile {index}: corners must be four finite xy points, got {tile.corners!r}")
    return quad


def _pips(index: int, tile: TileLike) -> tuple[int, int]:
    values = tuple(tile.pips)
    if len(values) != 2 or not all(isinstance(v, (int, np.integer)) for v in values):
        raise TileOutlineError(f"tile {index}: pips must be two integers, got {tile.pips!r}")
    return int(values[0]), int(values[1])


def _edge(quad: np.ndarray, edge: int) -> tuple[np.ndarray, np.ndarray]:
    return quad[edge], quad[(edge + 1) % 4]


def _contacts(
    i: int, end: int, quad_i: np.ndarray, j: int, quad_j: np.ndarray, config: JunctionConfig
) -> list[_Contact]:
    """Candidate contacts of end ``end`` of tile ``i`` against each edge of tile ``j``."""
    p, q = _edge(quad_i, 2 * end)
    mid = (p + q) / 2
    outward = mid - quad_i.mean(axis=0)
    half_length = float(np.hypot(*outward))
    end_length = float(np.hypot(*(q - p)))
    if half_length == 0 or end_length == 0:
        return []
    outward /= half_length
    along_end = (q - p) / end_length
    if float(np.dot(quad_j.mean(axis=0) - mid, outward)) <= 0:
        return []  # tile j lies behind this end
    max_sin = math.sin(math.radians(config.max_angle_deg))
    axis_start = quad_j[0:2].mean(axis=0)
    axis = quad_j[2:4].mean(axis=0) - axis_start
    axis_sq = float(np.dot(axis, axis))
    found = []
    for edge in range(4):
        r, s = _edge(quad_j, edge)
        edge_length = float(np.hypot(*(s - r)))
        if edge_length == 0 or axis_sq == 0:
            continue
        along_edge = (s - r) / edge_length
        if abs(float(along_end[0] * along_edge[1] - along_end[1] * along_edge[0])) > max_sin:
            continue
        normal = np.array([-along_edge[1], along_edge[0]])
        if np.dot(normal, outward) < 0:
            normal = -normal
        gap = float(np.dot(r - mid, normal)) / half_length
        if abs(gap) > config.max_gap:
            continue
        lo, hi = sorted((float(np.dot(r - p, along_end)), float(np.dot(s - p, along_end))))
        overlap = (min(hi, end_length) - max(lo, 0.0)) / end_length
        if overlap < config.min_overlap:
            continue
        centre = p + along_end * (max(lo, 0.0) + min(hi, end_length)) / 2
        along = float(np.dot(centre - axis_start, axis)) / axis_sq
        found.append(_Contact(i, end, j, edge, gap, overlap, along, (float(centre[0]), float(centre[1]))))
    return found


def _junction(contact: _Contact, pips: list[tuple[int, int]], config: JunctionConfig) -> Junction:
    i, j = contact.i, contact.j
    value_i = pips[i][contact.end]
    if contact.edge in (0, 2):
        kind = JunctionKind.END_TO_END
        half_j = contact.edge // 2
        ok = pips[j][half_j] == value_i
    elif abs(contact.along - 0.5) <= config.crosswise_band:
        kind = JunctionKind.CROSSWISE
        # Both halves of a crosswise double touch: report one that disagrees, if any.
        wrong = [half for half in (0, 1) if pips[j][half] != value_i]
        half_j = wrong[0] if wrong else (0 if contact.along < 0.5 else 1)
        ok = not wrong
    else:
        kind = JunctionKind.CORNER
        half_j = 0 if contact.along < 0.5 else 1
        ok = pips[j][half_j] == value_i
    value_j = pips[j][half_j]
    if i < j:
        tiles, halves, values = (i, j), (contact.end, half_j), (value_i, value_j)
    else:
        tiles, halves, values = (j, i), (half_j, contact.end), (value_j, value_i)
    return Junction(tiles, halves, values, kind, ok, contact.point, contact.gap)
