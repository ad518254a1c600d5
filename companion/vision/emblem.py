"""Find the logo tile from its emblem: the double-blank often has no divider to start from.

Entry point: ``logo_faces(lab, inks, profile) -> list[np.ndarray]`` (quadrilaterals, working-image xy).

How: the logo's emblem is a ring (a round mark with a hole), so the ink marks that are round outside and
hollow inside are emblem candidates. Around each, the face colour is sampled just outside the ring; then
rays leave the emblem's centre in every direction and each stops where the colour leaves the face colour
for good (ink on the way, the word mark's letters, reads as face). The stopping points outline the face:
a rectangle is fitted through them, and each side is refitted through the points near it, so that a face
seen at a slant comes out as a trapezoid. Whether a candidate really is the logo tile is for the caller
to judge from its contents.

Conventions as in ``find``: ``lab`` is the working image in OpenCV 8-bit Lab, ``inks`` bool masks of marks
darker (lighter) than their neighbourhood; points are ``xy``. Raises nothing for any image.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.colour import lab_distance
from companion.vision.profile import Profile
from companion.vision.regions import tile_quad


def _emblems(ink: np.ndarray, profile: Profile) -> list[tuple[np.ndarray, float]]:
    """(centre xy, outer diameter) of each ring-shaped ink mark: round as a whole, or with most of its
    outline on one circle (a divider drawn through the emblem sticks out of it on both sides)."""
    contours, hierarchy = cv2.findContours(ink.astype(np.uint8), cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if hierarchy is None:
        return []
    out = []
    longer = max(ink.shape)
    for k, c in enumerate(contours):
        if hierarchy[0][k][3] != -1 or hierarchy[0][k][2] == -1:
            continue  # a hole, or a mark without a hole
        area = cv2.contourArea(c)
        hole, child = 0.0, hierarchy[0][k][2]
        while child != -1:
            hole = max(hole, cv2.contourArea(contours[child]))
            child = hierarchy[0][child][0]
        if hole < profile.emblem_min_hole * area:
            continue
        (cx, cy), radius = cv2.minEnclosingCircle(c)
        centre = np.array([cx, cy])
        peri = max(cv2.arcLength(c, True), 1.0)
        if 4 * np.pi * area / peri ** 2 < profile.emblem_min_circularity or area < 0.6 * np.pi * radius ** 2:
            m = cv2.moments(c)  # not round as a whole: is most of its outline on one circle?
            if m["m00"] <= 0 or len(c) < 12:
                continue
            centre = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
            radii = np.linalg.norm(c.reshape(-1, 2) - centre, axis=1)
            radius = float(np.median(radii))
            if np.mean(np.abs(radii - radius) <= profile.emblem_ring_band * radius) < profile.emblem_min_on_circle:
                continue
        if profile.emblem_min_size <= 2 * radius <= profile.emblem_max_size * longer:
            out.append((centre, 2 * radius))
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


def logo_faces(lab: np.ndarray, inks: list[np.ndarray], profile: Profile) -> list[np.ndarray]:
    """Faces around ring-shaped marks, as (4, 2) float64 xy quadrilaterals (working-image pixels).

    ``inks``: bool masks of marks darker (lighter) than their neighbourhood; a logo may be either.
    """
    if profile.emblem_rays <= 0 or not inks:
        return []
    h, w = inks[0].shape
    quads = []
    # one polarity at a time: a pale face on a dark lawn is all "light ink", the logo on it dark ink
    found = [(e, mask) for mask in inks for e in _emblems(mask, profile)]
    for (centre, diameter), ink in found:
        reach = profile.emblem_reach * diameter + 2
        x0, y0 = int(max(0, centre[0] - reach)), int(max(0, centre[1] - reach))
        x1, y1 = int(min(w, centre[0] + reach + 1)), int(min(h, centre[1] + reach + 1))
        win, ink_w = lab[y0:y1, x0:x1].astype(np.float32), ink[y0:y1, x0:x1]
        c = centre - [x0, y0]
        ring = np.zeros(ink_w.shape, np.uint8)
        # just outside the ring: the emblem may sit as near the tile's end as a tenth of its width
        cv2.circle(ring, tuple(int(round(v)) for v in c), int(round(0.57 * diameter)), 1,
                   max(1, int(round(0.04 * diameter))))
        sample = win[(ring > 0) & ~ink_w]
        if len(sample) < 10:
            continue
        face = np.median(sample, axis=0)
        dist = lab_distance(win, face)
        spread = float(np.median(dist[(ring > 0) & ~ink_w])) * 1.4826 + 1.0
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
