"""Find tile faces as regions of face colour, without their divider.

Entry point: ``face_regions(lab, inks, profile) -> list[np.ndarray]`` (quadrilaterals, working-image xy).

Why: a divider can be too faint to find (a shallow groove washed out by sun, a small tile on grass) and the
logo tile often has none, yet the face stands out from the ground as a plain patch of one colour with a
tile's shape. The pips tell which colour that is: the ring just around each round mark is face (on a tile)
or ground (a speck on the lawn). Those ring colours are clustered; for each cluster, the pixels near its
colour are grouped into connected regions, and a region is a face when it fills a tile-shaped
quadrilateral (aspect of a tile, straight sides, holes only where pips and marks are). Tiles of one colour
touching each other merge into one region that has no tile's shape: those are left to the divider search.

Conventions as in ``find``: ``lab`` is the working image in OpenCV 8-bit Lab; points are ``xy``; masks are
indexed ``[row, col]``. Returns quadrilaterals in any corner order. Raises nothing for any image.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.colour import LIGHTNESS_WEIGHT, lab_distance
from companion.vision.profile import Profile

_RING_ANGLES = np.linspace(0, 2 * np.pi, 12, endpoint=False)
_MAX_SAMPLES = 6000  # ring samples clustered (a lawn gives thousands of specks)


def _ring_samples(lab: np.ndarray, ink: np.ndarray, profile: Profile) -> np.ndarray:
    """Lab colours on rings just outside each small round mark of the ``ink`` mask."""
    h, w = lab.shape[:2]
    _, _, stats, cents = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    bw, bh, area = stats[1:, 2], stats[1:, 3], stats[1:, 4]
    side = np.maximum(bw, bh)
    # round, filled and pip-sized (a whole small face is a round-ish "light mark" on dark ground too)
    keep = ((np.minimum(bw, bh) > 0.6 * side) & (area > 0.55 * bw * bh) & (side >= profile.region_spot_min)
            & (side <= profile.region_spot_max * max(h, w)))
    if not keep.any():
        return np.zeros((0, 3), np.float32)
    radius = side[keep] / 2.0
    pts = []
    for grow in profile.region_ring:  # radii of the rings, in mark radii
        r = grow * radius + 1.0
        xs = cents[1:][keep, 0, None] + r[:, None] * np.cos(_RING_ANGLES)[None]
        ys = cents[1:][keep, 1, None] + r[:, None] * np.sin(_RING_ANGLES)[None]
        pts.append(np.stack([xs.ravel(), ys.ravel()], axis=1))
    p = np.round(np.vstack(pts)).astype(int)
    p = p[(p[:, 0] >= 0) & (p[:, 0] < w) & (p[:, 1] >= 0) & (p[:, 1] < h)]
    p = p[~ink[p[:, 1], p[:, 0]]]
    if len(p) > _MAX_SAMPLES:  # evenly thinned: the result must not depend on a random draw
        p = p[np.linspace(0, len(p) - 1, _MAX_SAMPLES).astype(int)]
    return lab[p[:, 1], p[:, 0]].astype(np.float32)


_WEIGHTS = np.array([[LIGHTNESS_WEIGHT, 1.0, 1.0]], np.float32)  # as lab_distance, squared
_BAND_ROWS = 256


def _near(lab: np.ndarray, colour: np.ndarray, tol: float) -> np.ndarray:
    """uint8 mask of the Lab image's pixels within ``tol`` of ``colour``, a band of rows at a time (a float
    copy of a whole photo would be most of the memory a scan may use)."""
    out = np.empty(lab.shape[:2], np.uint8)
    scalar = tuple(float(v) for v in colour) + (0.0,)
    for y in range(0, lab.shape[0], _BAND_ROWS):
        d = cv2.subtract(lab[y:y + _BAND_ROWS].astype(np.float32), scalar)
        out[y:y + _BAND_ROWS] = cv2.transform(cv2.multiply(d, d), _WEIGHTS) < tol * tol
    return out


def tile_quad(points: np.ndarray, profile: Profile, aspect_max: float | None = None) -> np.ndarray | None:
    """The tile-shaped quadrilateral through outline points (n, 2) xy, or None; ``aspect_max`` (default
    the tile's) is the longest it may be for its width.

    The smallest enclosing rectangle gives the four sides; each is then refitted through the points near
    it, so that a face seen at a slant comes out as a trapezoid.
    """
    pts = np.asarray(points, np.float64).reshape(-1, 2)
    if len(pts) < 8:
        return None
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(pts.astype(np.float32))
    short, long_ = min(rw, rh), max(rw, rh)
    if short <= 0 or not profile.tile_aspect_min <= long_ / short <= (aspect_max or profile.tile_aspect_max):
        return None
    box = cv2.boxPoints(((cx, cy), (rw, rh), angle)).astype(np.float64)
    lines = []
    for k in range(4):
        a, b = box[k], box[(k + 1) % 4]
        length = np.linalg.norm(b - a)
        along = (b - a) / (length + 1e-9)
        normal = np.array([-along[1], along[0]])
        t = (pts - a) @ along  # the middle of the side only: corners belong to two sides
        near = (np.abs((pts - a) @ normal) < profile.region_side_band * short) & (t > 0.15 * length) \
            & (t < 0.85 * length)
        if np.count_nonzero(near) >= 3:
            vx, vy, px, py = cv2.fitLine(pts[near].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            d = np.array([vx, vy], float)
            if abs(d @ along) > np.cos(np.radians(profile.divider_angle_tol)):
                lines.append((np.array([px, py], float), d))
                continue
        lines.append((a, along))
    quad = []
    for k in range(4):
        (p1, d1), (p2, d2) = lines[k - 1], lines[k]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return None
        quad.append(p1 + np.linalg.solve(m, p2 - p1)[0] * d1)
    quad = np.array(quad)
    if np.linalg.norm(quad - box, axis=1).max() > 0.5 * short:
        return None  # the refit ran off: not straight sides
    return quad


def _quad(contour: np.ndarray, profile: Profile) -> np.ndarray | None:
    """The tile-shaped quadrilateral a region fills, or None: its outline has straight sides, and holes
    and notches only where pips and marks are."""
    hull = cv2.convexHull(contour)
    hull_area = cv2.contourArea(hull)
    if hull_area < profile.region_min_area or cv2.contourArea(contour) < profile.region_solidity * hull_area:
        return None
    _, (rw, rh), _ = cv2.minAreaRect(hull)
    if hull_area < profile.region_min_fill * rw * rh:
        return None
    # as long as two tiles end to end: their seam may be too faint to part them (``find`` splits it)
    return tile_quad(contour.reshape(-1, 2), profile, 2 * profile.tile_aspect_max)


def face_regions(lab: np.ndarray, inks: list[np.ndarray], profile: Profile) -> list[np.ndarray]:
    """Tile-shaped regions of a face colour, as (4, 2) float64 xy quadrilaterals (working-image pixels).

    ``inks``: bool masks of ``lab``'s size of marks darker (lighter) than their neighbourhood; the small
    round ones are pips, and specks on the ground.
    """
    if profile.region_colours <= 0:
        return []
    quads = []
    for ink in inks:  # dark pips and light pips apart: specks of the other kind would outnumber them
        quads += _regions_of(lab, _ring_samples(lab, ink, profile), profile)
    return quads


def _regions_of(lab: np.ndarray, samples: np.ndarray, profile: Profile) -> list[np.ndarray]:
    """Tile-shaped regions of ``lab`` in the colours that ``samples`` (float32 Lab) cluster into."""
    k = min(profile.region_colours, len(samples) // 20)
    if k < 1:
        return []
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    cv2.setRNGSeed(1)  # k-means++ seeding draws at random: the same photo must give the same answer
    _, member, centres = cv2.kmeans(samples, k, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    member = member.ravel()
    quads = []
    open_k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    for j in range(k):
        mine = samples[member == j]
        if len(mine) < 10:
            continue
        spread = float(np.median(lab_distance(mine, centres[j]))) * 1.4826 + 1.0
        tol = float(np.clip(profile.region_tolerance * spread, profile.face_tolerance_min,
                            profile.face_tolerance_max))
        near = _near(lab, centres[j], tol)
        near = cv2.morphologyEx(near, cv2.MORPH_OPEN, open_k)  # threads of grass between a face and the ground
        contours, _ = cv2.findContours(near, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        for c in contours:
            x, y, bw, bh = cv2.boundingRect(c)
            if x == 0 or y == 0 or x + bw == near.shape[1] or y + bh == near.shape[0]:
                continue  # runs into the photo's border: its shape there is the border's, not a tile's
            if len(c) >= 8:
                q = _quad(c, profile)
                if q is not None:
                    quads.append(q)
    return quads
