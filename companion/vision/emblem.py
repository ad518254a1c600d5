"""Find the logo tile from its emblem: the double-blank often has no divider to start from.

Entry points: ``logo_faces(lab, inks, profile) -> list[np.ndarray]`` (quadrilaterals, working-image xy)
and ``logo_axes(inks, profile, rings) -> list[LogoAxis]`` (where the tile lies, for ``find`` to fit its
edges); ``emblems(lab, inks, profile)`` finds the rings once for both.

How: the logo's emblem is a ring (a round mark with a hole), so the ink marks that are round outside and
hollow inside are emblem candidates. Around each, the face colour is sampled just outside the ring; then
rays leave the emblem's centre in every direction and each stops where the colour leaves the face colour
for good (ink on the way, the word mark's letters, reads as face). The stopping points outline the face:
a rectangle is fitted through them, and each side is refitted through the points near it, so that a face
seen at a slant comes out as a trapezoid. That fails where the tile touches others of its wood (the rays
run on into them), so the word mark printed along the tile also tells which way the tile runs and where
its middle is: a stand-in for the divider, from which ``find`` searches the four edges as it does from a
real one. Whether a candidate really is the logo tile is for the caller to judge from its contents.

Conventions as in ``find``: ``lab`` is the working image in OpenCV 8-bit Lab, ``inks`` bool masks of marks
darker (lighter) than their neighbourhood; points are ``xy``. Raises nothing for any image.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.colour import lab_distance
from companion.vision.profile import Profile
from companion.vision.regions import tile_quad


def _emblems(lab: np.ndarray, ink: np.ndarray, profile: Profile) -> list[tuple[np.ndarray, float]]:
    """(centre xy, outer diameter) of each ring-shaped ink mark: round as a whole, with most of its
    outline on one circle (a divider drawn through the emblem sticks out of it on both sides), or with ink
    all round the ellipse its holes fill (grain lines or the divider joined to it)."""
    contours, hierarchy = cv2.findContours(ink.astype(np.uint8), cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if hierarchy is None:
        return []
    out = []
    longer = max(ink.shape)
    for k, c in enumerate(contours):
        if hierarchy[0][k][3] != -1 or hierarchy[0][k][2] == -1:
            continue  # a hole, or a mark without a hole
        holes, child = [], hierarchy[0][k][2]
        while child != -1:
            holes.append(contours[child])
            child = hierarchy[0][child][0]
        ring = _round_ring(c, holes, profile) or _covered_ring(lab, ink, holes, profile)
        if ring is not None and profile.emblem_min_size <= ring[1] <= profile.emblem_max_size * longer:
            out.append(ring)
    return out


def _round_ring(c: np.ndarray, holes: list[np.ndarray], profile: Profile) -> tuple[np.ndarray, float] | None:
    """(centre, diameter) of the mark outlined by ``c``, with ``holes``, if it is a ring: a large hole, and
    round as a whole or with most of its outline on one circle."""
    area = cv2.contourArea(c)
    if max(cv2.contourArea(h) for h in holes) < profile.emblem_min_hole * area:
        return None
    (cx, cy), radius = cv2.minEnclosingCircle(c)
    centre = np.array([cx, cy])
    peri = max(cv2.arcLength(c, True), 1.0)
    if 4 * np.pi * area / peri ** 2 < profile.emblem_min_circularity or area < 0.6 * np.pi * radius ** 2:
        m = cv2.moments(c)  # not round as a whole: is most of its outline on one circle?
        if m["m00"] <= 0 or len(c) < 12:
            return None
        centre = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
        radii = np.linalg.norm(c.reshape(-1, 2) - centre, axis=1)
        radius = float(np.median(radii))
        if np.mean(np.abs(radii - radius) <= profile.emblem_ring_band * radius) < profile.emblem_min_on_circle:
            return None
    return centre, 2 * radius


def _covered_ring(lab: np.ndarray, ink: np.ndarray, holes: list[np.ndarray],
                  profile: Profile) -> tuple[np.ndarray, float] | None:
    """A ring whose outline tells nothing (joined to grain lines, crossed by the divider): its holes, alone
    or together (a divider across it parts them), fill an ellipse, ink runs nearly all round it, and the
    face inside it is the face outside it."""
    holes = [h for h in holes if cv2.contourArea(h) >= (profile.emblem_min_size / 4) ** 2]
    groups = [holes] + [[h] for h in holes] if len(holes) > 1 else [holes]
    for group in groups[:1 + profile.emblem_max_holes]:
        if not group:
            continue
        x, y, bw, bh = cv2.boundingRect(np.vstack(group))
        pad = max(bw, bh) // 4 + 2
        filled = np.zeros((bh + 2 * pad, bw + 2 * pad), np.uint8)
        cv2.drawContours(filled, [g - [x - pad, y - pad] for g in group], -1, 1, -1)
        size = int(profile.emblem_strip_close * max(bw, bh)) | 1  # the divider's strip between the parts
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        filled = cv2.morphologyEx(filled, cv2.MORPH_CLOSE, disc)
        outer, _ = cv2.findContours(filled, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        rim = max(outer, key=cv2.contourArea)
        if len(rim) < 8:
            continue
        (ex, ey), (a, b), angle = cv2.fitEllipse(rim)
        if max(a, b) < profile.emblem_cover_min_size or min(a, b) < profile.emblem_min_axes * max(a, b) or \
                cv2.contourArea(rim) < profile.emblem_hole_fill * np.pi * a * b / 4:
            continue
        # its outline on the ellipse all round (a square cell of a check cloth bulges at its corners)
        rot = np.deg2rad(angle)
        d = rim.reshape(-1, 2) - [ex, ey]
        u = (d[:, 0] * np.cos(rot) + d[:, 1] * np.sin(rot)) / (a / 2)
        v = (-d[:, 0] * np.sin(rot) + d[:, 1] * np.cos(rot)) / (b / 2)
        if np.mean(np.abs(np.hypot(u, v) - 1) <= profile.emblem_ring_band) < profile.emblem_min_on_circle:
            continue
        centre = np.array([ex, ey]) + [x - pad, y - pad]
        t = np.linspace(0, 2 * np.pi, 72, endpoint=False)
        ux, uy = a / 2 * np.cos(t), b / 2 * np.sin(t)
        ring = np.stack([ux * np.cos(rot) - uy * np.sin(rot), ux * np.sin(rot) + uy * np.cos(rot)], axis=1)

        def on(scale: float) -> tuple[np.ndarray, np.ndarray]:  # (is ink, Lab colour) round the ellipse
            pts = np.round(centre + scale * ring).astype(int)
            ok = (pts[:, 0] >= 0) & (pts[:, 1] >= 0) & (pts[:, 0] < ink.shape[1]) & (pts[:, 1] < ink.shape[0])
            ys, xs = np.clip(pts[:, 1], 0, ink.shape[0] - 1), np.clip(pts[:, 0], 0, ink.shape[1] - 1)
            return ok & ink[ys, xs], np.where(ok[:, None], lab[ys, xs].astype(np.float32), np.nan)

        best, at = max((float(np.mean(on(scale)[0])), scale) for scale in profile.emblem_ring_scales)
        out_ink, out_lab = on(profile.emblem_out_scale)
        # a ring, not a hole in a field of ink (a check cloth's cell): little ink a little further out
        if best < profile.emblem_min_cover or np.mean(out_ink) > profile.emblem_max_cover_out:
            continue
        # ... and drawn on one face: a cell of a check cloth edged by ink inside is darker than around it
        in_ink, in_lab = on(profile.emblem_in_scale)
        ring_ink, ring_lab = on(at)
        inside, outside, mark = (_median(in_lab[~in_ink]), _median(out_lab[~out_ink]), _median(ring_lab[ring_ink]))
        if inside is not None and outside is not None and \
                lab_distance(inside, outside) <= profile.emblem_face_same * lab_distance(mark, outside):
            return centre, float(max(a, b)) * (at + 0.05)
    return None


def _median(colours: np.ndarray) -> np.ndarray | None:
    """The median of the (n, 3) colours sampled inside the image (rows of NaN lie outside it), if any."""
    seen = colours[~np.isnan(colours[:, 0])]
    return np.median(seen, axis=0) if len(seen) else None


@dataclass(frozen=True)
class LogoAxis:
    """Where the logo tile around an emblem lies, as told by its word mark: a stand-in for its divider."""

    centre: np.ndarray  # the tile's middle, xy (working image)
    across: np.ndarray  # unit vector across the tile (along where its divider would be)
    span: float  # about how long its divider would be, pixels
    emblem: np.ndarray  # the emblem's centre, xy
    diameter: float  # the emblem's outer diameter, pixels
    polarity: int  # index of the ink mask the logo was found in
    marks: tuple[int, int, np.ndarray]  # (x0, y0, bool mask): the logo's own ink (emblem, word), face not edge


def emblems(lab: np.ndarray, inks: list[np.ndarray], profile: Profile) -> list[tuple[np.ndarray, float, int]]:
    """Every ring-shaped mark: ``(centre xy, outer diameter, index of the ink mask it is in)``, one polarity
    at a time (a pale face on a dark lawn is all "light ink", the logo on it dark ink)."""
    if profile.emblem_rays <= 0:
        return []
    return [(centre, d, k) for k, ink in enumerate(inks) for centre, d in _emblems(lab, ink, profile)]


def logo_axes(inks: list[np.ndarray], profile: Profile, rings: list[tuple[np.ndarray, float, int]]) -> list[LogoAxis]:
    """The tile around each emblem (``rings``, from ``emblems``), from the word mark printed beside it along
    the tile.

    The word's letters lie in a row along the tile's length: beyond the emblem (a logo in one half; the
    tile's middle lies halfway to the word) or beside it (a logo over the divider; the tile's middle is
    next to the emblem's). A row of letters that merged into one bar counts as a row too. Every reading
    the marks allow is given; the faces they lead to are judged by the caller.
    """
    out = []
    for k, ink in enumerate(inks):
        for centre, diameter in _distinct([(c, d) for c, d, kk in rings if kk == k]):
            out += _axes_around(ink, k, centre, diameter, profile)
    return out


def _distinct(found: list[tuple[np.ndarray, float]]) -> list[tuple[np.ndarray, float]]:
    """One emblem per centre (its inner ring is found as a ring too): the largest."""
    kept: list[tuple[np.ndarray, float]] = []
    for centre, d in sorted(found, key=lambda e: -e[1]):
        if all(np.linalg.norm(centre - c) > 0.25 * dk for c, dk in kept):
            kept.append((centre, d))
    return kept


def _axes_around(ink: np.ndarray, polarity: int, centre: np.ndarray, d: float, profile: Profile) -> list[LogoAxis]:
    h, w = ink.shape
    reach = profile.logo_word_reach * d
    x0, y0 = int(max(0, centre[0] - reach)), int(max(0, centre[1] - reach))
    x1, y1 = int(min(w, centre[0] + reach + 1)), int(min(h, centre[1] + reach + 1))
    crop = ink[y0:y1, x0:x1].astype(np.uint8)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(crop, connectivity=8)
    c = centre - [x0, y0]
    yy, xx = np.mgrid[0:crop.shape[0], 0:crop.shape[1]]
    near_emblem = np.hypot(xx - c[0], yy - c[1]) <= 0.55 * d
    emblem_ids = set(np.unique(labels[near_emblem & (crop > 0)]).tolist()) - {0}
    letters = []  # (centroid, area, component id)
    for j in range(1, n):
        bx, by, bw, bh, area = stats[j]
        if j in emblem_ids or area < profile.logo_letter_min * d * d:
            continue
        if bx == 0 or by == 0 or bx + bw == crop.shape[1] or by + bh == crop.shape[0]:
            continue  # runs on beyond the logo: the ground, a shadow, a neighbour
        if np.hypot(bw, bh) > 2.2 * d:
            continue
        letters.append((cents[j], float(area), j))
    marks_mask = np.isin(labels, list(emblem_ids)) & near_emblem
    rows = _letter_rows(letters, labels, c, d * profile.logo_letter_gap, d)
    out = []
    for axis, word_centre, ids, thin in rows:
        offset = word_centre - c
        dist = float(np.linalg.norm(offset))
        if dist < 1e-6:
            continue
        along = abs(float(offset @ axis)) / dist
        marks = marks_mask | np.isin(labels, ids)
        readings = []
        normal = np.array([-axis[1], axis[0]])
        beyond, beside, divider = profile.logo_word_beyond, profile.logo_word_beside, profile.logo_divider_beside
        if along > 0.8 and beyond[0] * d <= dist <= beyond[1] * d:
            # the word beyond the emblem (a logo in one half): the tile's middle is half a tile's width
            # towards it (the word may be partly found: its own middle is no guide)
            width = profile.logo_width_beyond * d
            readings.append((c + 0.5 * width * np.sign(offset @ axis) * axis, axis, width))
        if along < 0.4 and beside[0] * d <= dist <= beside[1] * d:
            # the word beside the emblem (a logo over the divider): the middle is a little towards it
            readings.append((c + profile.logo_middle_shift * (offset @ normal) * normal, axis,
                             profile.logo_width_over * d))
        if thin and along < 0.4 and divider[0] * d <= dist <= divider[1] * d:
            # no word but the divider next to a logo in one half: the middle is on it, the tile runs across it
            readings.append((word_centre, normal, profile.logo_width_beyond * d))
        for mid, tile_axis, width in readings:
            across = np.array([-tile_axis[1], tile_axis[0]])
            out.append(LogoAxis(mid + [x0, y0], across, profile.divider_span_typical * width, centre, d, polarity,
                                (x0, y0, marks)))
    return out


def _letter_rows(letters: list, labels: np.ndarray, c: np.ndarray, gap_max: float,
                 d: float) -> list[tuple[np.ndarray, np.ndarray, list, bool]]:
    """Rows of marks that may be a word: ``[(unit axis, centre, component ids, whether it is one thin
    line)]``; three marks or more in a row, each at most ``gap_max`` from the next (letters that touch
    the emblem at ``c``, of diameter ``d``, went with it and leave a gap), or one mark long enough to be
    a word whose letters merged (or a divider)."""
    out = []
    pts = np.array([p for p, _, _ in letters]).reshape(-1, 2)
    seen = set()
    for a, b in itertools.combinations(range(len(letters)), 2):
        v = pts[b] - pts[a]
        gap = float(np.linalg.norm(v))
        if gap < 1e-6 or gap > gap_max:
            continue
        v /= gap
        near = np.flatnonzero(np.abs((pts - pts[a]) @ np.array([-v[1], v[0]])) <= 0.12 * d)
        t = (pts[near] - pts[a]) @ v
        order = np.argsort(t)
        t, near = t[order], near[order]
        # the run of marks through a and b with no gap wider than a letter's spacing
        mids = pts[a] + np.outer((t[1:] + t[:-1]) / 2, v)
        hidden = (np.linalg.norm(mids - c, axis=1) < 0.8 * d) & (np.diff(t) <= 2 * gap_max)
        breaks = np.flatnonzero((np.diff(t) > gap_max) & ~hidden)
        k = int(np.searchsorted(t, 0.0))
        lo = breaks[breaks < k].max() + 1 if np.any(breaks < k) else 0
        hi = breaks[breaks >= k].min() + 1 if np.any(breaks >= k) else len(t)
        members = tuple(sorted(near[lo:hi].tolist()))
        if len(members) < 3 or members in seen:
            continue
        seen.add(members)
        idx = list(members)
        vx, vy, _, _ = cv2.fitLine(pts[idx].astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
        out.append((np.array([vx, vy], float), pts[idx].mean(axis=0), [letters[m][2] for m in idx], False))
    for p, area, j in letters:  # one mark: a word run together, or a divider
        ys, xs = np.nonzero(labels == j)
        if len(xs) < 5:
            continue
        evals, evecs = np.linalg.eigh(np.cov(np.vstack([xs, ys]).astype(np.float64)))
        if evals[0] <= 0 or np.sqrt(evals[1] / evals[0]) < 3.0 or np.sqrt(12 * evals[1]) < 0.6 * d:
            continue
        out.append((evecs[:, 1], p, [j], np.sqrt(evals[1] / evals[0]) > 8.0))
    return out


def _outline(dist: np.ndarray, centre: np.ndarray, diameter: float, tol: float, profile: Profile) -> np.ndarray:
    """Where rays from ``centre`` leave the face colour for good: (n, 2) xy, rays that never did left out."""
    angles = np.linspace(0, 2 * np.pi, profile.emblem_rays, endpoint=False)
    step = max(0.5, 0.03 * diameter)
    rs = np.arange(0.55 * diameter, profile.emblem_reach * diameter, step)
    dirs = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    pts = centre[None, None, :] + rs[None, :, None] * dirs[:, None, :]  # (rays, rs, 2)
    flat = pts.reshape(-1, 2).astype(np.float32)
    prof = cv2.remap(dist, flat[:, 0].reshape(1, -1), flat[:, 1].reshape(1, -1), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=1e6).reshape(len(angles), len(rs))
    out = (prof > tol).astype(np.float32)
    run = max(2, int(round(profile.emblem_exit_run * diameter / step)))  # "for good": a run of samples
    kernel = np.ones(run, np.float32)
    sustained = np.array([np.convolve(row, kernel, "valid") >= run - 0.5 for row in out])
    first = np.array([np.argmax(row) if row.any() else -1 for row in sustained])
    r = np.where(first >= 0, rs[np.maximum(first, 0)], np.nan)
    # a ray that slipped out through a gap (to a neighbour of the same colour) is far longer than both
    # rays beside it; along a rectangle's outline, even at a corner, neighbouring rays differ far less
    beside = np.fmax(np.roll(r, 1), np.roll(r, -1))
    keep = np.isfinite(r) & ~(r > profile.emblem_spike * beside)
    return centre + r[keep, None] * dirs[keep]


def emblem_face(lab: np.ndarray, ink: np.ndarray, centre: np.ndarray, diameter: float) -> tuple[np.ndarray, float] | None:
    """The face colour just outside the emblem and its robust spread (Lab units), or None when too little of
    it is seen; ``lab`` float32 or uint8 and ``ink`` cover the same window, ``centre`` is in its pixels."""
    ring = np.zeros(ink.shape, np.uint8)
    # just outside the ring: the emblem may sit as near the tile's end as a tenth of its width
    cv2.circle(ring, tuple(int(round(v)) for v in centre), int(round(0.57 * diameter)), 1,
               max(1, int(round(0.04 * diameter))))
    on = (ring > 0) & ~ink
    sample = lab[on].astype(np.float32)
    if len(sample) < 10:
        return None
    face = np.median(sample, axis=0)
    return face, float(np.median(lab_distance(sample, face))) * 1.4826 + 1.0


def logo_faces(lab: np.ndarray, inks: list[np.ndarray], profile: Profile,
               rings: list[tuple[np.ndarray, float, int]] | None = None) -> list[np.ndarray]:
    """Faces around ring-shaped marks (``rings``, from ``emblems``; found here if not given), as (4, 2)
    float64 xy quadrilaterals (working-image pixels).

    ``inks``: bool masks of marks darker (lighter) than their neighbourhood; a logo may be either.
    """
    if profile.emblem_rays <= 0 or not inks:
        return []
    h, w = inks[0].shape
    quads = []
    rings = emblems(lab, inks, profile) if rings is None else rings
    for centre, diameter, k in rings:
        ink = inks[k]
        reach = profile.emblem_reach * diameter + 2
        x0, y0 = int(max(0, centre[0] - reach)), int(max(0, centre[1] - reach))
        x1, y1 = int(min(w, centre[0] + reach + 1)), int(min(h, centre[1] + reach + 1))
        win, ink_w = lab[y0:y1, x0:x1].astype(np.float32), ink[y0:y1, x0:x1]
        c = centre - [x0, y0]
        colour = emblem_face(win, ink_w, c, diameter)
        if colour is None:
            continue
        face, spread = colour
        dist = lab_distance(win, face)
        tol = float(np.clip(profile.face_tolerance * spread, profile.face_tolerance_min, profile.face_tolerance_max))
        dist[ink_w] = 0.0  # the logo's own marks are on the face
        dist = cv2.GaussianBlur(dist, (0, 0), max(0.7, profile.emblem_blur * diameter))  # grain lines
        quad = tile_quad(_outline(dist, c, diameter, tol, profile), profile)
        if quad is None:
            continue
        quad = quad + [x0, y0]
        if quad.min() >= 1 and (quad[:, 0] < w - 2).all() and (quad[:, 1] < h - 2).all():
            quads.append(quad)  # (rays stopped by the photo's border outline the border, not a face)
    return quads
