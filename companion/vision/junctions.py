"""Where the tiles of a line of play meet: junction geometry over tile outlines.

Entry points: ``find_junctions(tiles, config=JunctionConfig()) -> tuple[Junction, ...]`` (every
contact), ``prune_loops(junctions, config, doubles) -> (kept, strays)`` (the line of play is a tree: a
contact that would close a loop, or play on a half already played on, ``halves_played``, is a stray, not
a junction), ``line_of_play(tiles, config) -> (junctions, strays)`` (both, and the parts left apart
joined by their best looser contacts: the line is one piece),
``in_doubt(confidence, config)``, ``find_holes(tiles, junctions, config) -> tuple[Hole, ...]`` (free ends
that face each other across the room of a tile the reader did not find).

A *junction* is a place where the short edge (an *end*) of one tile lies against part of another tile:

- ``END_TO_END``: the end of one tile against the end of another (a line, or the arm of a spinner that
  leaves from the spinner's end);
- ``CROSSWISE``: an end against the middle of a long side (a double laid crosswise, or a spinner's side
  arm). A double shows the same value on both halves, so both of its halves are "the touching half";
  when the crosswise tile was read as a non-double the junction cannot match, and the half reported is
  the one that differs;
- ``CORNER``: an end against a long side away from its middle (a line that turns a corner); the touching
  half of the long-side tile is the half the contact lies on;
- ``ALONGSIDE``: a double's long side against another tile's long side, mostly along one of its halves
  (a double laid crosswise to the new direction right where the line turns a corner).

Otherwise tiles lying side by side along their long edges never form a junction: in a line of play only
an end touches, or a double's side. Each end touches at most one tile, each pair meets at most once,
and a contact that would close a loop is a stray (``prune_loops``), since a line of play is a tree; so is
one on a half of a tile (not a double) that another contact plays on already, since an open end is
played on once.

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
from dataclasses import dataclass, field, replace
from typing import Collection, Protocol, Sequence

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
    ALONGSIDE = "alongside"
    """A double's long side against another tile's long side, mostly along one of its halves: a double
    laid where the line turns a corner (counted only when one of the two was read as a double)."""


@dataclass(frozen=True)
class JunctionConfig:
    """Every threshold of junction finding, in tile units (scale-free).

    ``max_gap``: how far apart the end and the other tile's edge may be, in half-lengths of the tile
    whose end it is (one half-length is about one tile width, measured along that tile's own axis, so
    perspective foreshortening cancels). Negative gaps (outlines overlapping a little) count alike.
    Tiles pushed together lie 0 to 3 % of a width apart, but outlines found in a photo can fall short of
    a tile's true end by up to a fifth of a width on each side (bevels, shadows, blur), so the default is
    generous; a stray contact that this lets through closes a loop and ``prune_loops`` drops it.
    ``max_angle_deg``: how far from parallel the end and the edge it lies against may be. Perspective
    keeps nearby parallel edges nearly parallel; detection noise adds a few degrees.
    ``min_overlap``: the fraction of the end's length that must lie alongside the other edge. Tiles in
    a brick pattern (ends offset by half a tile) overlap 0.5 and are not a junction.
    ``crosswise_band``: a contact on a long side within this fraction of the tile's length from the
    middle is crosswise (a double's middle); further out it is a corner turn on one half.
    ``doubt_confidence``: a tile read with a confidence below this is "in doubt" (named in a warning
    when it sits on a junction that does not match). It is the recognizer's own line (``doubt_below``): on
    40 generated layout photos (``benchmarks/verify_benchmark.py --count 40``) 31 of the 32 misread tiles
    lay below 0.5, and 104 of the 307 read right; a mismatch is far more often a misread than a wrong play,
    so a tile about as likely misread as not must be named.
    ``max_overlap``: two outlines that overlap by more than this fraction of the smaller one cannot
    both be right (tiles lie side by side, never on top of each other): both are in doubt.
    ``tight_gap``: when a loop is broken (``prune_loops``), contacts at most this far apart (same unit
    as ``max_gap``) are taken before looser ones of any kind. Tiles laid together lie within 0.03 and
    photo outlines fall short by up to a fifth of a width, while a stray contact between two arms lies
    wherever the arms happen to pass, often half a width apart.
    ``loose_angle_deg``, ``loose_overlap``: a line of play is one piece, so a tile that touches no other
    within the bounds above is joined by its best contact within these looser ones (an outline read a
    little askew: a corner taken from the ground or a neighbour), to an end that touches nothing yet.
    ``settle_alone``: a tile read with doubt whose only junction that does not match is one is settled
    (given its next reading where that matches, see ``companion.verifier.settled_by_line``) only when it is
    less sure than this as well: a single mismatch is also what a wrong play leaves, so it takes more doubt
    to explain it away (on 1,000 tuning layouts, 0.45 against 0.5: one photo more right, none less).
    ``settle_shown``: a tile read with less confidence than this whose only mismatched junction is one may
    take what the tile against it shows there (its reading tells less than its neighbour: on 1,300 tuning
    layouts one photo more right at 0.15 or 0.25, none less; at 0.35 a wrong play was hidden).
    ``hole_slack``: two free ends facing each other in line leave room for a missing tile when they lie
    one half-length apart (a double laid crosswise) or two (a tile laid end to end), give or take this
    many half-lengths; also the most the ends may lie off each other's axis, in widths.
    ``small_outline``: tiles that touch lie at one depth and look alike in size, so a tile whose outline's
    size (the root of its area) is below this fraction of a tile it touches may be read from part of the
    tile: it is in doubt (on 1,000 tuning layouts, 14 of the 27 tiles on a junction below 0.75 were
    misread, 17 of 77 below 0.8; of all the tiles on a junction, 0.7%).
    """

    max_gap: float = 0.6
    max_angle_deg: float = 20.0
    min_overlap: float = 0.6
    loose_angle_deg: float = 35.0
    loose_overlap: float = 0.4
    crosswise_band: float = 0.15
    doubt_confidence: float = 0.5
    max_overlap: float = 0.15
    tight_gap: float = 0.25
    hole_slack: float = 0.35
    settle_alone: float = 0.45
    settle_shown: float = 0.25
    small_outline: float = 0.75

    def __post_init__(self) -> None:
        checks = {
            "max_gap": 0 < self.max_gap < 2,
            "max_angle_deg": 0 < self.max_angle_deg < 45,
            "min_overlap": 0 < self.min_overlap <= 1,
            "loose_angle_deg": self.max_angle_deg <= self.loose_angle_deg < 45,
            "loose_overlap": 0 < self.loose_overlap <= self.min_overlap,
            "crosswise_band": 0 <= self.crosswise_band < 0.25,
            "doubt_confidence": 0 <= self.doubt_confidence <= 1,
            "max_overlap": 0 < self.max_overlap < 1,
            "small_outline": 0 <= self.small_outline < 1,
            "tight_gap": 0 <= self.tight_gap <= self.max_gap,
            "hole_slack": 0 < self.hole_slack < 0.5,
            "settle_alone": 0 <= self.settle_alone <= 1,
            "settle_shown": 0 <= self.settle_shown <= self.settle_alone,
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
    ``gap``: how far apart they lie, in tile half-lengths (lower is a surer junction). ``by_end``:
    whether each tile touches with one of its ends (rather than with a long side). ``loose``: found only
    within the looser bounds, for a tile that touched no other (see ``line_of_play``).
    """

    tiles: tuple[int, int]
    halves: tuple[int, int]
    pips: tuple[int, int]
    kind: JunctionKind
    ok: bool
    point: tuple[float, float] = field(compare=False)
    gap: float = field(compare=False, default=0.0)
    by_end: tuple[bool, bool] = field(compare=False, default=(True, True))
    loose: bool = field(compare=False, default=False)

    def to_dict(self) -> dict:
        """The contract's junction object: ``{"tiles": [i, j], "pips": [a, b], "ok": bool}``."""
        return {"tiles": list(self.tiles), "pips": list(self.pips), "ok": self.ok}


@dataclass(frozen=True)
class _Contact:
    """Edge ``edge_i`` of tile ``i`` lying against edge ``edge`` of tile ``j`` (a candidate junction).

    Edges are numbered from their first corner: 0 is the ``pips[0]`` end, 2 the ``pips[1]`` end, 1 and
    3 the long sides.
    """

    i: int
    edge_i: int
    j: int
    edge: int
    gap: float
    overlap: float
    along: float  # where along tile j the contact's middle lies: 0 at the pips[0] end, 1 at the pips[1] end
    point: tuple[float, float]

    @property
    def score(self) -> float:
        return self.overlap - abs(self.gap)


def find_junctions(tiles: Sequence[TileLike], config: JunctionConfig = JunctionConfig()) -> tuple[Junction, ...]:
    """Every junction between the given tiles, ordered by tile indexes.

    Each end of a tile touches at most one other tile (the best candidate), and each pair of tiles meets
    at most once. A double may also lie alongside another tile, long side to long side (a double laid
    where the line turns a corner): that counts as a junction only when one of the two was read as a
    double, since plain tiles side by side are not part of one line. No tiles or no junctions give an
    empty tuple.
    """
    outlines = [_outline(index, tile) for index, tile in enumerate(tiles)]
    pips = [_pips(index, tile) for index, tile in enumerate(tiles)]
    best: dict[tuple[int, int], _Contact] = {}

    def keep(contact: _Contact) -> None:
        pair = (min(contact.i, contact.j), max(contact.i, contact.j))
        if pair not in best or contact.score > best[pair].score:
            best[pair] = contact

    for i, quad_i in enumerate(outlines):
        for edge_i in (0, 2):
            candidates = [
                contact
                for j, quad_j in enumerate(outlines)
                if j != i
                for contact in _contacts(i, edge_i, quad_i, j, quad_j, config)
            ]
            if candidates:
                keep(max(candidates, key=lambda c: c.score))
    for i, quad_i in enumerate(outlines):
        if pips[i][0] != pips[i][1]:
            continue
        for j, quad_j in enumerate(outlines):
            pair = (min(i, j), max(i, j))
            if j == i or pair in best:
                continue
            for edge_i in (1, 3):
                for contact in _contacts(i, edge_i, quad_i, j, quad_j, config):
                    if contact.edge in (1, 3):
                        keep(contact)
    junctions = [_junction(contact, pips, config) for contact in best.values()]
    return tuple(sorted(junctions, key=lambda junction: junction.tiles))


# How readily each kind of contact happens by accident between tiles of different arms (lower: rarer).
_STRAY_LIKENESS = {JunctionKind.END_TO_END: 0, JunctionKind.CROSSWISE: 0, JunctionKind.ALONGSIDE: 1,
                   JunctionKind.CORNER: 2}


def prune_loops(junctions: Sequence[Junction], config: JunctionConfig = JunctionConfig(),
                doubles: Collection[int] = ()) -> tuple[tuple[Junction, ...], tuple[Junction, ...]]:
    """Split contacts into the line of play and stray contacts that would close a loop or play on a half
    already played on.

    A line of play is a tree: each tile joins it at one place. Two tiles of different arms that happen
    to lie against each other close a loop; one contact of each loop is then not a junction. And the open
    end of a tile is played on once: a half of a tile that is not a double (``doubles``: the indexes of
    the tiles read as doubles) touches one other tile, by its end or, where the line turns a corner, by
    its side (``halves_played``). Contacts are taken best first (matching before mismatched; then tight
    ones, within ``config.tight_gap``, before loose ones; then by kind, as a stray contact is most often
    an end against some tile's side and least often end to end; then the tighter fit), keeping each that
    joins two parts not yet joined (Kruskal's spanning tree) on halves not yet played on. Returns ``(kept,
    strays)``, each sorted by tile indexes.
    """
    parent: dict[int, int] = {}

    def root(node: int) -> int:
        while parent.get(node, node) != node:
            node = parent[node]
        return node

    kept, strays = [], []
    def rank(j: Junction) -> tuple:
        return not j.ok, abs(j.gap) > config.tight_gap, _STRAY_LIKENESS[j.kind], abs(j.gap), j.tiles

    played: set[tuple[int, int]] = set()
    for junction in sorted(junctions, key=rank):
        a, b = (root(index) for index in junction.tiles)
        halves = halves_played(junction, doubles)
        if a == b or halves & played:
            strays.append(junction)
        else:
            parent[a] = b
            played |= halves
            kept.append(junction)
    return tuple(sorted(kept, key=lambda j: j.tiles)), tuple(sorted(strays, key=lambda j: j.tiles))


def halves_played(junction: Junction, doubles: Collection[int] = ()) -> set[tuple[int, int]]:
    """The (tile, half) pairs a junction plays on: each tile's touching half, but none of a double (a double
    takes tiles on its ends and sides) nor of a tile met in the middle of its side (it is a double, whatever
    it was read as)."""
    return {(index, half) for index, half, end in zip(junction.tiles, junction.halves, junction.by_end)
            if index not in doubles and (end or junction.kind is not JunctionKind.CROSSWISE)}


def line_of_play(tiles: Sequence[TileLike], config: JunctionConfig = JunctionConfig()
                 ) -> tuple[tuple[Junction, ...], tuple[Junction, ...]]:
    """``(junctions, strays)``: every contact (``find_junctions``) split by ``prune_loops``; then, as a line
    of play is one piece, the parts it falls into are joined by their best contacts within
    ``config.loose_angle_deg`` and ``config.loose_overlap`` (an end against an end or a side, neither end
    touching anything yet nor a half played on), best first, while there are any."""
    pips = [_pips(index, tile) for index, tile in enumerate(tiles)]
    doubles = {index for index, (a, b) in enumerate(pips) if a == b}
    junctions, strays = prune_loops(find_junctions(tiles, config), config, doubles)
    outlines = [_outline(index, tile) for index, tile in enumerate(tiles)]
    loose = replace(config, max_angle_deg=config.loose_angle_deg, min_overlap=config.loose_overlap)
    joined = list(junctions)
    while True:
        part = list(range(len(tiles)))

        def root(index: int) -> int:
            while part[index] != index:
                index = part[index]
            return index

        for junction in joined:
            part[root(junction.tiles[0])] = root(junction.tiles[1])
        used = {(index, edge) for junction in joined for index, edge in _edges_of(junction)}
        played = set().union(*(halves_played(junction, doubles) for junction in joined))
        candidates = [
            (contact.score, junction)
            for a in range(len(tiles)) for b in range(len(tiles)) if root(a) != root(b)
            for edge in (0, 2)
            for contact in _contacts(a, edge, outlines[a], b, outlines[b], loose)
            if (contact.i, contact.edge_i) not in used and (contact.j, contact.edge) not in used
            for junction in [_junction(contact, pips, config)] if not halves_played(junction, doubles) & played
        ]
        if not candidates:
            return tuple(sorted(joined, key=lambda j: j.tiles)), strays
        joined.append(replace(max(candidates, key=lambda c: c[0])[1], loose=True))


def _edges_of(junction: Junction) -> list[tuple[int, int]]:
    """The (tile, edge) pairs a junction takes: an end's edge (0 or 2) for a tile touching by its end."""
    return [(index, 2 * half) for index, half, end in zip(junction.tiles, junction.halves, junction.by_end) if end]


@dataclass(frozen=True)
class Hole:
    """Room for a tile that was not found: the free ends of ``tiles`` face each other in line, ``length``
    half-lengths apart (about 1: a double laid crosswise; about 2: a tile laid end to end).
    ``halves``: which half of each tile faces the hole; ``pips``: those halves' values."""

    tiles: tuple[int, int]
    halves: tuple[int, int]
    pips: tuple[int, int]
    length: int
    point: tuple[float, float] = field(compare=False)


def find_holes(tiles: Sequence[TileLike], junctions: Sequence[Junction],
               config: JunctionConfig = JunctionConfig()) -> tuple[Hole, ...]:
    """Pairs of free ends (ends not on any junction) that face each other in line with room for one tile
    between them and no other outline there: a tile the reader missed, whose junctions went unchecked.

    Distances along the line are in half-lengths of the two tiles (so perspective cancels as in
    ``find_junctions``), across it in widths. Each end is in at most one hole, the best fitting first.
    """
    outlines = [_outline(index, tile) for index, tile in enumerate(tiles)]
    pips = [_pips(index, tile) for index, tile in enumerate(tiles)]
    used = {(index, half) for junction in junctions for index, half, end in
            zip(junction.tiles, junction.halves, junction.by_end) if end}
    ends = []
    for index, quad in enumerate(outlines):
        centre = quad.mean(axis=0)
        for half, edge in ((0, 0), (1, 2)):
            if (index, half) in used:
                continue
            p, q = _edge(quad, edge)
            mid = (p + q) / 2
            reach = float(np.hypot(*(mid - centre)))
            width = float(np.hypot(*(q - p)))
            if reach > 0 and width > 0:
                ends.append((index, half, mid, (mid - centre) / reach, reach, width))
    min_cos = math.cos(math.radians(config.max_angle_deg))
    found = []
    for a, (i, half_i, mid_i, out_i, reach_i, width_i) in enumerate(ends):
        for j, half_j, mid_j, out_j, reach_j, width_j in ends[a + 1:]:
            if i == j or float(np.dot(out_i, out_j)) > -min_cos:
                continue  # the same tile, or ends that do not face each other
            span = mid_j - mid_i
            along = float(np.dot(span, out_i)) / ((reach_i + reach_j) / 2)
            across = abs(float(out_i[0] * span[1] - out_i[1] * span[0])) / ((width_i + width_j) / 2)
            length = round(along)
            if length not in (1, 2) or abs(along - length) > config.hole_slack or across > config.hole_slack:
                continue
            middle = (mid_i + mid_j) / 2
            if any(_inside(middle, quad) for quad in outlines):
                continue  # something was found there
            found.append((abs(along - length) + across, Hole((i, j), (half_i, half_j),
                                                               (pips[i][half_i], pips[j][half_j]), length,
                                                               (float(middle[0]), float(middle[1])))))
    holes, taken = [], set()
    for _, hole in sorted(found, key=lambda item: item[0]):
        sides = set(zip(hole.tiles, hole.halves))
        if sides & taken:
            continue
        taken |= sides
        holes.append(hole)
    return tuple(sorted(holes, key=lambda hole: hole.tiles))


def _inside(point: np.ndarray, quad: np.ndarray) -> bool:
    """Whether ``point`` lies inside the convex outline ``quad`` (either winding)."""
    signs = [float((q - p)[0] * (point - p)[1] - (q - p)[1] * (point - p)[0]) for p, q in zip(quad, np.roll(quad, -1, 0))]
    return all(v > 0 for v in signs) or all(v < 0 for v in signs)


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
    i: int, edge_i: int, quad_i: np.ndarray, j: int, quad_j: np.ndarray, config: JunctionConfig
) -> list[_Contact]:
    """Candidate contacts of edge ``edge_i`` of tile ``i`` against each edge of tile ``j``.

    Distances are in units of tile ``i``'s width measured across ``edge_i`` (twice the distance from
    the tile's centre to that edge's middle for a long side, once for an end), so perspective, which
    shrinks lengths in one direction more than in another, cancels locally.
    """
    p, q = _edge(quad_i, edge_i)
    mid = (p + q) / 2
    outward = mid - quad_i.mean(axis=0)
    reach = float(np.hypot(*outward))
    unit = reach if edge_i in (0, 2) else 2 * reach
    edge_i_length = float(np.hypot(*(q - p)))
    if reach == 0 or edge_i_length == 0:
        return []
    outward /= reach
    along_i = (q - p) / edge_i_length
    if float(np.dot(quad_j.mean(axis=0) - mid, outward)) <= 0:
        return []  # tile j lies behind this edge
    max_sin = math.sin(math.radians(config.max_angle_deg))
    frame_j = _tile_frame(quad_j)
    found = []
    for edge in range(4):
        r, s = _edge(quad_j, edge)
        edge_length = float(np.hypot(*(s - r)))
        if edge_length == 0 or frame_j is None:
            continue
        along_edge = (s - r) / edge_length
        if abs(float(along_i[0] * along_edge[1] - along_i[1] * along_edge[0])) > max_sin:
            continue
        normal = np.array([-along_edge[1], along_edge[0]])
        if np.dot(normal, outward) < 0:
            normal = -normal
        gap = float(np.dot(r - mid, normal)) / unit
        if abs(gap) > config.max_gap:
            continue
        lo, hi = sorted((float(np.dot(r - p, along_i)), float(np.dot(s - p, along_i))))
        lo, hi = max(lo, 0.0), min(hi, edge_i_length)
        overlap = (hi - lo) / edge_i_length
        if overlap < config.min_overlap:
            continue
        centre = p + along_i * (lo + hi) / 2
        mapped = frame_j @ np.array([centre[0], centre[1], 1.0])
        along = float(mapped[0] / mapped[2]) / 2
        found.append(_Contact(i, edge_i, j, edge, gap, overlap, along, (float(centre[0]), float(centre[1]))))
    return found


_TILE_CORNERS = np.array([[0.0, 0.0], [0.0, 1.0], [2.0, 1.0], [2.0, 0.0]])  # a tile's face, in widths


def _tile_frame(quad: np.ndarray) -> np.ndarray | None:
    """The homography from photo xy to the tile's own frame (x from 0 at the pips[0] end to 2), or None.

    Perspective makes a tile's outline a general quadrilateral whose middle is not where straight
    projections put it; the homography through the four corners places a point on the tile exactly.
    """
    rows, rhs = [], []
    for (x, y), (u, v) in zip(quad, _TILE_CORNERS):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs += [u, v]
    try:
        h = np.linalg.solve(np.array(rows), np.array(rhs))
    except np.linalg.LinAlgError:
        return None  # a degenerate outline (three corners in a line)
    return np.append(h, 1.0).reshape(3, 3)


def _junction(contact: _Contact, pips: list[tuple[int, int]], config: JunctionConfig) -> Junction:
    i, j = contact.i, contact.j
    # An end touches with its own half; a long side only ever counts for a double (both halves alike).
    half_i = contact.edge_i // 2 if contact.edge_i in (0, 2) else 0
    value_i = pips[i][half_i]
    if contact.edge in (0, 2):
        kind = JunctionKind.END_TO_END if contact.edge_i in (0, 2) else JunctionKind.CROSSWISE
        half_j = contact.edge // 2
        ok = pips[j][half_j] == value_i
    elif contact.edge_i in (1, 3):
        # A double alongside: the touching half of the other tile is the one its side covers most.
        kind = JunctionKind.ALONGSIDE
        half_j = 0 if contact.along < 0.5 else 1
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
    end_i, end_j = contact.edge_i in (0, 2), contact.edge in (0, 2)
    if i < j:
        tiles, halves, values, by_end = (i, j), (half_i, half_j), (value_i, value_j), (end_i, end_j)
    else:
        tiles, halves, values, by_end = (j, i), (half_j, half_i), (value_j, value_i), (end_j, end_i)
    return Junction(tiles, halves, values, kind, ok, contact.point, contact.gap, by_end)
