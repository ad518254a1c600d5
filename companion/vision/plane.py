"""What the table's plane says of a face: the tiles of a set lie on one plane and share one shape, so the
faces read surely around a place tell what outline a tile has there, whichever way it lies.

Entry points: ``Plane(sure).outline(quad, aspect) -> (4, 2) corners``; ``gaps(quads, ...)``, the
places between two tiles in a row where one or two more would fit; ``ends(quads, ...)``, the places one
tile beyond the ends of a line, in line or crosswise, where it may go on or turn a corner at a tile not
found, and beside a row of tiles side by side; ``Lines(quads).in_line(lengths, ...)``, which faces lie
along which others' axes so many of their lengths away; ``side_by_side(quad, other, ...)``, whether a face
lies against another's long side, and ``split_the_other_way(quad, other)``, the two faces across the square
two such make.
Conventions as in ``companion.vision``.

The camera sees the table through a homography. Its part that makes far things small is undone first:
the cube root of a face's area is exactly an affine function of its place in the photo (it is the place's
distance from the horizon), and a face's two pairs of opposite sides, parallel on the table, meet on the
horizon; the line that fits both of what the sure faces tell gives the horizon, and mapping the photo so
that the horizon goes to infinity (``Plane.level``) leaves a view of the table that is affine everywhere.
There a face read surely gives that affine map up to a turn of the tile: its two sides are the images of
the tile's length and width. A tile turned by any angle has sides that are the same map
applied to the turned length and width; the face's own axis fixes the angle. The outline is predicted
there and mapped back. In that view every tile is one size, so a sure face far from the sure faces' middle
size there (a sliver read surely as a tile) predicts no outline.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.vision import geometry as geo

NEIGHBOURS = 3  # sure faces nearest a face, whose predictions are averaged
# with the perspective undone, a sure face under this share of the sure faces' middle area, or over its inverse,
# is of no tile's size: judged among SIZED_AMONG sure faces or more (a face and five others, as step 4 judges
# sizes; fewer tell the horizon too loosely, one sliver bending it enough to set the true tiles apart)
SIZE_APART, SIZED_AMONG = 0.5, 6
# what a face's vanishing points weigh in the horizon's fit against its size (a few pixels off in a corner turn
# a side by a degree; sizes, where faces are spread, tell more): with them two faces, or one row, give a horizon
VANISHING_WEIGHT = 0.1
SCALE = 1000.0  # photo pixels per unit in the horizon's fit (its three terms then weigh alike)
HORIZON_NEAR = 0.05  # no prediction this near the horizon (a twentieth of the sure faces' mean distance from it)
# a face lies end on against a double's long side where its axis is across the double's (the cosine between them
# below END_ON_COS) and its centre is off the double's middle by less than END_ON_OFF of the double's length
END_ON_COS, END_ON_OFF = 0.5, 0.25


def _sides(quad: np.ndarray) -> np.ndarray:
    """A face's length and width as the columns of a 2x2 matrix (photo pixels)."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = np.asarray(quad, np.float64).tolist()  # (plain floats: as in _in_frame)
    return np.array([[(x2 + x3 - x0 - x1) / 2, (x1 - x0 + x2 - x3) / 2],
                     [(y2 + y3 - y0 - y1) / 2, (y1 - y0 + y2 - y3) / 2]])


def _in_frame(sides: np.ndarray, vector: np.ndarray) -> tuple[float, float] | None:
    """``vector`` in units of a face's length and width (``sides``); None for a degenerate face. (Plain floats:
    called thousands of times a photo, where numpy's solver costs more than the sum.)"""
    (a, b), (c, d) = sides.tolist()
    det = a * d - b * c
    if abs(det) < 1e-6:
        return None
    x, y = float(vector[0]), float(vector[1])
    return (d * x - b * y) / det, (a * y - c * x) / det


class Plane:
    """What the faces ``sure`` (read surely) tell of the table's plane, worked out once for many places."""

    def __init__(self, sure: list[np.ndarray]) -> None:
        self.sure = list(sure)
        self.centres = np.array([geo.centre_of(q) for q in self.sure]).reshape(-1, 2)
        self.level = np.eye(3)  # the photo to an affine view of the table (left as it is while no horizon is known)
        if len(self.sure) >= 2:
            horizon = _horizon(self.sure, self.centres)
            if horizon[2] > 0 and np.all(self.centres @ horizon[:2] + horizon[2] > HORIZON_NEAR):
                self.level = np.vstack([np.eye(3)[:2], horizon])
        self.unlevel = np.linalg.inv(self.level)
        self.sides = [_sides(geo.apply(self.level, q)) for q in self.sure]
        # with the perspective undone every tile is one size: a sure face far smaller or larger than most (a sliver
        # read as a tile, an outline across two) predicts no tile's outline around it
        areas = np.abs([np.linalg.det(s) for s in self.sides])
        middle = np.median(areas) if len(areas) >= SIZED_AMONG else np.nan
        self.sized = np.flatnonzero(~((areas < SIZE_APART * middle) | (areas > middle / SIZE_APART)))

    def outline(self, quad: np.ndarray, aspect: float) -> np.ndarray | None:
        """The outline a tile of length ``aspect`` times its width has at ``quad``'s centre, lying along
        ``quad``'s axis, as the sure faces (at least two) predict; None with fewer, or past the horizon.
        (Plain floats: asked about fifty times a photo, where small numpy arrays cost five times as much.)"""
        if len(self.sure) < 2:
            return None
        centre = geo.centre_of(quad)
        x, y = float(centre[0]), float(centre[1])
        if x * self.level[2, 0] + y * self.level[2, 1] + self.level[2, 2] <= HORIZON_NEAR:
            return None
        _, angle, _, _ = geo.frame_of(quad)
        here = _mapped(self.level, x, y)
        ahead = _mapped(self.level, x + math.cos(angle), y + math.sin(angle))
        axis = (ahead[0] - here[0], ahead[1] - here[1])
        # each of the nearest sure faces predicts the tile's length and width (vectors on the table); the
        # outline is their mean's
        length, width, count = [0.0, 0.0], [0.0, 0.0], 0
        off = self.centres[self.sized] - centre
        for k in self.sized[np.argsort(off[:, 0] ** 2 + off[:, 1] ** 2)[:NEIGHBOURS]].tolist():
            in_frame = _in_frame(self.sides[k], axis)  # the axis in the sure tile's frame (its length, its width)
            if in_frame is None:
                continue
            a, b = in_frame
            turn = math.atan2(b, aspect * a)  # the tile's turn against the sure tile, on the table
            cos, sin = math.cos(turn), math.sin(turn)
            (s00, s01), (s10, s11) = self.sides[k].tolist()
            length[0] += s00 * cos + s01 * aspect * sin
            length[1] += s10 * cos + s11 * aspect * sin
            width[0] += -s00 * sin / aspect + s01 * cos
            width[1] += -s10 * sin / aspect + s11 * cos
            count += 1
        if not count:
            return None
        lx, ly, wx, wy = length[0] / count / 2, length[1] / count / 2, width[0] / count / 2, width[1] / count / 2
        hx, hy = here
        corners = [(hx - lx + wx, hy - ly + wy), (hx - lx - wx, hy - ly - wy), (hx + lx - wx, hy + ly - wy),
                   (hx + lx + wx, hy + ly + wy)]
        return geo.clockwise(np.array([_mapped(self.unlevel, cx, cy) for cx, cy in corners]))

    def from_above(self, aspect: float) -> tuple[np.ndarray, float] | None:
        """The homography from the photo to the table seen from straight above, a tile ``aspect`` times as long
        as wide and one unit wide there, and how steeply the camera sees the table where the sure faces lie (their
        mean centre: degrees from straight down), as the sure faces tell; None with none. In the affine view each
        face's sides are one map A of a tile's length and width turned by the tile's own turn, so the faces' sides, a
        tile's length scaled to its width, average to A A^T whatever their turns. One face alone tells the view by
        its own corners (roughly: a corner a few pixels off turns the horizon much)."""
        if len(self.sure) == 1:  # (its own corners: a tile's outline seen through the camera)
            table = geo.quad_of((0.0, 0.0), 0.0, aspect, 1.0).astype(np.float32)
            homography = cv2.getPerspectiveTransform(np.asarray(self.sure[0], np.float32), table)
            w = homography[2] @ [*self.centres[0], 1.0]  # (scaled to 1 at the face, as the horizon is)
            return self._angled(homography / w) if np.all(np.isfinite(homography)) and w > 0 else None
        if not self.sure:
            return None
        sides = np.array(self.sides) * [1 / aspect, 1.0]  # (the length scaled to the width)
        try:
            a = np.linalg.cholesky(np.einsum("nij,nkj->ik", sides, sides) / len(sides))
        except np.linalg.LinAlgError:
            return None
        if np.linalg.det(a) * np.mean(np.linalg.det(sides)) < 0:
            a = a @ np.diag([1.0, -1.0])  # (the view as the photo has it, not mirrored)
        to_table = np.eye(3)
        to_table[:2, :2] = np.linalg.inv(a)
        return self._angled(to_table @ self.level)

    def _angled(self, homography: np.ndarray) -> tuple[np.ndarray, float]:
        """``homography`` and how steeply it sees the table at the sure faces' mean centre."""
        # a circle on the table looks an ellipse as much narrower than wide as the cosine of the view's angle
        x, y = self.centres.mean(axis=0)
        u, v, w = homography @ [x, y, 1.0]
        jacobian = (homography[:2, :2] - np.outer([u / w, v / w], homography[2, :2])) / w
        small, large = np.linalg.svd(jacobian, compute_uv=False)[::-1]
        return homography, math.degrees(math.acos(min(small / large, 1.0)))


def _horizon(sure: list[np.ndarray], centres: np.ndarray) -> np.ndarray:
    """The horizon's line h (h . (x, y, 1) is 0 on it) fitted to the faces ``sure``, scaled so that h . x is a
    face's size against their mean. A face's area is its area on the table times (h . x)^3: the cube root of
    its area is affine in its place. Its opposite sides, parallel on the table, meet on the horizon, where
    h . v is 0 (v the point they meet at, at infinity where they are parallel in the photo too)."""
    sizes = np.cbrt([cv2.contourArea(np.asarray(q, np.float32)) for q in sure])
    corners = np.concatenate([np.asarray(sure, np.float64), np.ones((len(sure), 4, 1))], axis=2)
    meets = [np.cross(np.cross(corners[:, a], corners[:, b]), np.cross(corners[:, c], corners[:, d]))
             for (a, b), (c, d) in (((0, 3), (1, 2)), ((0, 1), (3, 2)))]  # where its long sides meet, and its ends
    meets = np.concatenate(meets) * [1 / SCALE, 1 / SCALE, 1]
    norms = np.linalg.norm(meets, axis=1)
    meets = meets[norms > 0] / norms[norms > 0, None]
    rows = [np.column_stack([centres / SCALE, np.ones(len(sure))]), VANISHING_WEIGHT * meets]
    targets = [sizes / sizes.mean(), np.zeros(len(meets))]
    (a, b, c), *_ = np.linalg.lstsq(np.vstack(rows), np.concatenate(targets), rcond=None)
    return np.array([a / SCALE, b / SCALE, c])


def _mapped(homography: np.ndarray, x: float, y: float) -> tuple[float, float]:
    """The point (x, y) mapped by a 3x3 homography, in plain floats."""
    (h00, h01, h02), (h10, h11, h12), (h20, h21, h22) = homography.tolist()
    w = x * h20 + y * h21 + h22
    if w == 0.0:  # on the horizon: infinitely far, as numpy would have it (and a scan goes on)
        return math.inf, math.inf
    return (x * h00 + y * h01 + h02) / w, (x * h10 + y * h11 + h12) / w


class Lines:
    """Where each of some faces lies seen from each other, for every pair at once (a photo has hundreds of pairs,
    each too cheap to pay for a call of its own): ``along[a, b]``, how far b's centre lies along a's axis (in
    a's lengths, either way), ``across[a, b]`` how far off it (in a's widths, either side), nan where a is
    degenerate; ``crosswise[a, b]``, whether b's axis lies across a's (their cosine below ``END_ON_COS``)."""

    def __init__(self, quads: list[np.ndarray]):
        sides = np.array([_sides(q) for q in quads]).reshape(-1, 2, 2)
        centres = np.array([geo.centre_of(q) for q in quads]).reshape(-1, 2)
        (a, b), (c, d) = np.moveaxis(sides, 0, -1)[..., None]  # each (n, 1): a face's frame, as in _in_frame
        det = a * d - b * c
        det = np.where(np.abs(det) < 1e-6, np.nan, det)
        x, y = np.moveaxis(centres[None, :, :] - centres[:, None, :], -1, 0)  # [a, b]: b's centre - a's
        self.along, self.across = np.abs((d * x - b * y) / det), np.abs((a * y - c * x) / det)
        axes = sides[:, :, 0]
        norms = np.linalg.norm(axes, axis=1)
        self.crosswise = np.abs(axes @ axes.T) < END_ON_COS * np.maximum(np.outer(norms, norms), 1e-9)
        self.angles = np.arctan2(axes[:, 1], axes[:, 0])  # each face's axis, as ``geo.frame_of`` gives it

    def in_line(self, lengths: float, slack: float, off: float) -> np.ndarray:
        """Which pairs [a, b] have b's centre along a's axis ``lengths`` of a's lengths from its centre (either
        way, give or take ``slack`` of a length), off the axis by less than ``off`` of a's width."""
        return (np.abs(self.along - lengths) < slack) & (self.across < off)

    def side_by_side(self, slack: float, turn_limit: float, aspect: float = 2.0) -> np.ndarray:
        """Which pairs [a, b] have b against a long side of a, along it: axes within ``turn_limit`` (radians),
        b's centre one width across a's axis and level with its centre, give or take ``slack`` of a length (a
        tile ``aspect`` widths long); none where a is degenerate."""
        turns = np.abs((self.angles[:, None] - self.angles[None, :] + np.pi / 2) % np.pi - np.pi / 2)
        with np.errstate(invalid="ignore"):  # (nan for a degenerate face)
            return (turns <= turn_limit) & (self.along < slack) & (np.abs(self.across - 1) < slack * aspect)


def side_by_side(quad: np.ndarray, other: np.ndarray, slack: float, turn_limit: float, aspect: float = 2.0) -> bool:
    """Whether ``other`` lies against a long side of ``quad``, along it (``Lines.side_by_side``)."""
    return bool(Lines([quad, other]).side_by_side(slack, turn_limit, aspect)[0, 1])


def split_the_other_way(quad: np.ndarray, other: np.ndarray) -> list[np.ndarray]:
    """The two outlines across the square that ``quad`` and ``other`` (side by side) make together: each end
    on the outer long side of one of them, [0]-[1] on ``quad``'s."""
    q, o = np.asarray(quad, np.float64), np.asarray(other, np.float64)
    axis = (q[2] + q[3] - q[0] - q[1]) / 2

    def outer(face: np.ndarray, away_from: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        sides = [(face[1], face[2]), (face[3], face[0])]  # its long sides
        far = max(sides, key=lambda s: float(np.linalg.norm((s[0] + s[1]) / 2 - away_from)))
        return tuple(sorted(far, key=lambda p: float(p @ axis)))  # type: ignore[return-value]

    (p, pq), (r, rs) = outer(q, geo.centre_of(o)), outer(o, geo.centre_of(q))
    mid_q, mid_o = (p + pq) / 2, (r + rs) / 2
    return [geo.clockwise(np.array(c)) for c in ([p, mid_q, mid_o, r], [mid_q, pq, rs, mid_o])]


def _outline(centre: np.ndarray, length: np.ndarray, width: np.ndarray) -> np.ndarray:
    """The face with this centre and these sides (vectors in the photo)."""
    return np.array([centre - length / 2 + width / 2, centre - length / 2 - width / 2,
                     centre + length / 2 - width / 2, centre + length / 2 + width / 2])


def gaps(quads: list[np.ndarray], most: int, slack: float, turn_limit: float, aspect: float) -> list[np.ndarray]:
    """Outlines between two faces of ``quads`` that lie in a row, end to end or side by side, with room for
    one to ``most`` tiles between them: where the gap is that many tiles long, give or take ``slack`` (a share
    of a tile), and the two axes are within ``turn_limit`` (radians); or end to end with room for a double
    laid crosswise (a tile ``aspect`` times as long as wide), give or take half that, and off the row by less
    than ``slack`` widths a tile length (an error of the axes grows with the distance). The outlines are
    spaced evenly from one face to the other and change shape as they go (so the perspective's change of
    size is followed); each is given once, and only where no face of ``quads`` lies; where places of two
    pairs meet, the nearer pair's (a line of play seen at a slant can put a crosswise double and the next
    tile where two tiles end to end would lie)."""
    out: list[tuple[float, np.ndarray]] = []  # (how far apart the pair lies, a place between)
    sides = [_sides(q) for q in quads]
    centres = [geo.centre_of(q) for q in quads]
    for i, j in _maybe_in_a_row(np.array(sides).reshape(-1, 2, 2), np.array(centres).reshape(-1, 2), most, slack,
                                turn_limit, aspect):
        a, b = sides[i], sides[j].copy()
        if a[:, 0] @ b[:, 0] < 0:  # the same way round
            b = -b
        cos = a[:, 0] @ b[:, 0] / max(np.linalg.norm(a[:, 0]) * np.linalg.norm(b[:, 0]), 1e-9)
        if cos < np.cos(turn_limit):
            continue
        mean = (a + b) / 2
        in_frame = _in_frame(mean, centres[j] - centres[i])  # in tile lengths and widths
        if in_frame is None:
            continue
        along, across = abs(in_frame[0]), abs(in_frame[1])
        if across < slack * along and abs(along - 1 - 1 / aspect) < slack / 2:  # a double crosswise between
            length, width = mean[:, 1] * aspect, mean[:, 0] / aspect
            out.append((along, _outline((centres[i] + centres[j]) / 2, length, width)))
            continue
        row = along if across < slack else across if along < slack else 0.0  # end to end, side by side
        count = round(row) - 1
        if not 1 <= count <= most or abs(row - round(row)) > slack:
            continue
        for k in range(1, count + 1):
            t = k / (count + 1)
            shape = (1 - t) * a + t * b
            out.append((row, _outline(centres[i] + t * (centres[j] - centres[i]), shape[:, 0], shape[:, 1])))
    free: list[np.ndarray] = []
    for _, q in sorted(out, key=lambda place: place[0]):  # where two places meet, the nearer pair's
        centre = geo.centre_of(q)
        if not any(cv2.pointPolygonTest(np.asarray(p, np.float32), (float(centre[0]), float(centre[1])), False) > 0
                   for p in list(quads) + free):
            free.append(geo.clockwise(q))
    return free


def _maybe_in_a_row(sides: np.ndarray, centres: np.ndarray, most: int, slack: float, turn_limit: float,
                    aspect: float) -> list[tuple[int, int]]:
    """The pairs (i < j) of faces (``sides``, ``centres``) that ``gaps`` may find in a row, judged for all pairs
    at once and a little loosely (``gaps`` judges each of them exactly): most pairs are far from any row."""
    loose = 1e-6
    axes = sides[:, :, 0]
    dot = axes @ axes.T
    norms = np.linalg.norm(axes, axis=1)
    aligned = np.abs(dot) >= (np.cos(turn_limit) - loose) * np.maximum(np.outer(norms, norms), 1e-9)
    mean = (sides[:, None] + np.where(dot < 0, -1.0, 1.0)[:, :, None, None] * sides[None, :]) / 2  # [i, j]
    (a, b), (c, d) = np.moveaxis(mean, (2, 3), (0, 1))
    x, y = np.moveaxis(centres[None, :, :] - centres[:, None, :], -1, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        det = a * d - b * c
        along, across = np.abs((d * x - b * y) / det), np.abs((a * y - c * x) / det)
    crosswise = (across < slack * along + loose) & (np.abs(along - 1 - 1 / aspect) < slack / 2 + loose)
    rows = [(across < slack + loose) & (along > 1.5 - slack - loose) & (along < most + 1.5 + slack + loose),
            (along < slack + loose) & (across > 1.5 - slack - loose) & (across < most + 1.5 + slack + loose)]
    maybe = aligned & (np.abs(det) >= 1e-6 * (1 - loose)) & (crosswise | rows[0] | rows[1])
    return [(i, j) for i, j in zip(*np.nonzero(np.triu(maybe, 1)))]


def ends(quads: list[np.ndarray], touch: float, free: float, taken: list[np.ndarray] = (),
         aspect: float = 2.0, doubles: list[bool] = (), plane: Plane | None = None,
         turn_limit: float = np.radians(15)) -> list[np.ndarray]:
    """Outlines one tile beyond an end of each face of ``quads`` that continues a line (another face lies
    against its other end, within half ``touch`` of its length), in line with it and laid crosswise across
    that end (a double; a tile ``aspect`` times as long as wide), each that no face nor place ``taken``
    overlaps by more than ``free`` (of the smaller), its centre on none. Each place is given once. A line of
    play goes on, or turns a corner, past a tile not found at its end: such a tile has at most one face in a
    row with it, so ``gaps`` does not find it. A face read as a double (``doubles``) may lie crosswise in a
    line: where another face's end lies against the middle of one of its long sides, the line goes on from
    the other side, and a tile is looked for there too. A row of tiles side by side (``side_by_side``, within
    ``touch`` and ``turn_limit``: a hand laid out, a stack in a crowd) goes on past a tile not found too: one
    tile's width beyond a face with another against its other long side. With ``plane``, a place in line
    is the outline it predicts there, its near end against the face's end (a line seen at a slant grows
    smaller as it goes), and a place beside a row the outline it predicts there."""
    sides = [_sides(q) for q in quads]
    centres = np.array([geo.centre_of(q) for q in quads]).reshape(-1, 2)
    reach = np.array([np.linalg.norm(s[:, 0]) for s in sides])  # a face's length: what it can touch

    # how far each face's corners lie from its centre: two outlines that share area lie within the sum
    corner_reach = np.array([np.linalg.norm(np.asarray(q, np.float64) - c, axis=1).max()
                             for q, c in zip(quads, centres)]).reshape(-1)

    def against(region: np.ndarray, skip: int, least: float) -> list[int]:
        """The faces sharing more than ``least`` of area with ``region``."""
        middle = region.mean(axis=0)
        apart = np.linalg.norm(centres - middle, axis=1)
        near = (apart < reach[skip] + reach) & (apart <= np.linalg.norm(region - middle, axis=1).max() + corner_reach)
        return [j for j in np.flatnonzero(near) if j != skip and cv2.intersectConvexConvex(
            region.astype(np.float32), np.asarray(quads[j], np.float32))[0] > least]

    # what a place must stay clear of, with where each lies and how far it reaches (to skip the far ones)
    others = [np.asarray(p, np.float64) for p in [*quads, *taken]]
    other_centres = np.array([geo.centre_of(p) for p in others]).reshape(-1, 2)
    other_reach = np.array([np.linalg.norm(_sides(p)[:, 0]) for p in others])

    def clear(place: np.ndarray, out: list[np.ndarray]) -> bool:
        centre = geo.centre_of(place)
        near = np.linalg.norm(other_centres - centre, axis=1) < other_reach + np.linalg.norm(_sides(place)[:, 0])
        return not any(
            cv2.pointPolygonTest(np.asarray(p, np.float32), (float(centre[0]), float(centre[1])), False) > 0
            or geo.overlap(place, p) > free for p in [*(others[j] for j in np.flatnonzero(near)), *out])

    beside = Lines(quads).side_by_side(touch, turn_limit, aspect)  # which faces lie side by side with which

    # the strip at each end of each face (half ``touch`` of its length) and the faces near enough to share area
    # with it, for every face at once (as ``against`` finds them one by one)
    quad_array = np.array([np.asarray(q, np.float64) for q in quads]).reshape(-1, 4, 2)
    lengths = np.array([s[:, 0] for s in sides]).reshape(-1, 2)
    strips = {}
    for step, far in ((1, np.array([0, 0, 1, 1])), (-1, np.array([-1, -1, 0, 0]))):
        regions = quad_array - far[::-1][None, :, None] * lengths[:, None, :] * touch / 2
        middles = regions.mean(axis=1)
        apart = np.linalg.norm(middles[:, None, :] - centres[None, :, :], axis=2)
        radii = np.linalg.norm(regions - middles[:, None, :], axis=2).max(axis=1)
        near = (apart < reach[:, None] + reach[None, :]) & (apart <= radii[:, None] + corner_reach[None, :])
        np.fill_diagonal(near, False)
        strips[step] = regions.astype(np.float32), near

    out: list[np.ndarray] = []
    for i in range(len(quads)):
        q = np.asarray(quads[i], np.float64)
        length = sides[i][:, 0]
        least = abs(np.linalg.det(sides[i])) * touch / 10
        for step in (1, -1):
            regions, near = strips[step]
            if not any(cv2.intersectConvexConvex(regions[i], np.asarray(quads[j], np.float32))[0] > least
                       for j in np.flatnonzero(near[i])):
                continue  # no line leads here
            place = q + step * length
            if plane is not None:
                place = _next_along(plane, q, step * length, aspect, place)
            # the double across the end is as long along the line as the face is wide, and as wide across it
            # as the face is long: each direction keeps its own foreshortening
            centre, width = centres[i] + step * length * (1 + 1 / aspect) / 2, sides[i][:, 1]
            half_along, half_across = length / aspect / 2, width * aspect / 2
            turned = np.array([centre - half_across - half_along, centre - half_across + half_along,
                               centre + half_across + half_along, centre + half_across - half_along])  # [0]-[1] an end
            found = [p for p in (place, turned) if clear(p, out)]  # (the two overlap: each judged by the rest)
            out.extend(geo.clockwise(p) for p in found)
        # a row of tiles side by side (a hand laid out, a stack in a crowd) goes on past a tile not found too
        width = sides[i][:, 1]
        for j in np.flatnonzero((np.linalg.norm(centres - centres[i], axis=1) < 2 * reach[i]) & beside[i]):
            if j == i:
                continue
            step = -1.0 if (centres[j] - centres[i]) @ width > 0 else 1.0  # away from the face beside it
            place = q + step * width
            if plane is not None:
                place = plane.outline(place, aspect)
                if place is None:
                    continue
            if clear(place, out):
                out.append(geo.clockwise(place))
    # after every end's places: where two meet, the one built from a face along the line is the better guess
    for i in [i for i, double in enumerate(doubles) if double]:
        q, length = np.asarray(quads[i], np.float64), sides[i][:, 0]
        least = abs(np.linalg.det(sides[i])) * touch / 10
        width = sides[i][:, 1]  # from the side of corners 0 and 3 to that of 1 and 2
        for step, near_side in ((1, np.array([1, 0, 0, 1])), (-1, np.array([0, 1, 1, 0]))):
            region = q - np.outer(near_side, step * width / np.linalg.norm(width) * np.linalg.norm(length) * touch / 2)
            if not any(_end_on(quads[j], q) for j in against(region, i, least)):
                continue  # no line leads here
            place = _outline(centres[i] + step * width * (1 + aspect) / 2, step * width * aspect, length / aspect)
            if clear(place, out):
                out.append(geo.clockwise(place))
    return out


def next_in_line(plane: Plane, quad: np.ndarray, step: int, aspect: float = 2.0) -> np.ndarray:
    """The outline ``plane`` predicts for the tile in line beyond the end of ``quad`` (``step`` 1: the end of corners
    2 and 3; -1: of 0 and 1), its near end against that end; ``quad`` moved a length that way where it predicts none."""
    length = step * _sides(quad)[:, 0]
    return _next_along(plane, quad, length, aspect, np.asarray(quad, np.float64) + length)


def _next_along(plane: Plane, quad: np.ndarray, length: np.ndarray, aspect: float, place: np.ndarray) -> np.ndarray:
    """The outline ``plane`` predicts for the tile in line beyond the end of ``quad`` that ``length`` (its axis
    vector) points to, its near end against that end; ``place`` where it predicts none."""
    centre, unit = geo.centre_of(quad), length / np.linalg.norm(length)
    outline = plane.outline(place, aspect)
    for _ in range(2):  # its length fixes where its centre lies, which fixes its length
        if outline is None:
            return place
        reach = np.linalg.norm(_sides(outline)[:, 0])
        outline = plane.outline(place - geo.centre_of(place) + centre + unit * (np.linalg.norm(length) + reach) / 2,
                                aspect)
    return place if outline is None else outline


def _end_on(quad: np.ndarray, double: np.ndarray) -> bool:
    """Whether ``quad`` lies end on against the middle of a long side of ``double`` (laid crosswise in a line):
    its axis across the double's, its centre near the double's middle (``END_ON_COS``, ``END_ON_OFF``)."""
    mine, theirs = _sides(quad), _sides(double)
    cos = abs(mine[:, 0] @ theirs[:, 0]) / max(np.linalg.norm(mine[:, 0]) * np.linalg.norm(theirs[:, 0]), 1e-9)
    along = (geo.centre_of(quad) - geo.centre_of(double)) @ theirs[:, 0] / max(theirs[:, 0] @ theirs[:, 0], 1e-9)
    return cos < END_ON_COS and abs(along) < END_ON_OFF
