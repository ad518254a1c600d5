"""Count the pips on each half of one tile face, and recognise the logo (which reads 0).

Entry points: ``rectify(image_bgr, corners, profile) -> np.ndarray`` (the face warped upright, half 0 on
top) and ``read_face(face_bgr, profile) -> FaceReading``.

How: the face colour is the median of the face; a pixel is "ink" when its Lab distance from the face
colour exceeds ``profile.pip_contrast`` (or a multiple of the face's own spread, for grainy wood). Ink
marks of pip size and round shape are pips; a large mark that is not round is the logo (that half reads
0, whatever small marks it holds); smaller odd marks (grain, knots, glare edges) are ignored but lower the
confidence.

Conventions: ``image_bgr`` is BGR uint8; ``corners`` are (4, 2) xy with corners[0]-corners[1] the short
edge at the end of half 0; the rectified face is ``profile.rect_width`` wide and twice as high. Areas are
in square tile widths. Raises nothing for any face image.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numpy as np

from companion.vision.colour import lab_distance
from companion.vision.profile import Profile


@dataclass(frozen=True)
class HalfReading:
    pips: int
    logo: bool
    confidence: float  # 0..1
    off_centre: float = 0.0  # how far the pips' centroid lies from the half's centre, in tile widths


class _Mark(NamedTuple):
    area: float  # square tile widths
    circularity: float
    edge: bool  # touches the face's edge
    elongation: float  # long over short side of its smallest enclosing rectangle
    centre: tuple[float, float]  # xy, face pixels of its half


@dataclass(frozen=True)
class FaceReading:
    halves: tuple[HalfReading, HalfReading]


def rectify(image_bgr: np.ndarray, corners: np.ndarray, profile: Profile) -> np.ndarray:
    """The face inside ``corners`` warped to an upright ``rect_width`` x ``2 * rect_width`` image."""
    w = profile.rect_width
    dst = np.array([[0, 0], [w, 0], [w, 2 * w], [0, 2 * w]], np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)
    return cv2.warpPerspective(image_bgr, m, (w, 2 * w), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def _marks(ink: np.ndarray, margin: int, outer_top: bool, profile: Profile) -> list[_Mark]:
    """Each mark bigger than a speck on one half.

    ``outer_top``: the half's outer end is its top row (half 0) rather than its bottom row (half 1).
    """
    w = profile.rect_width
    h = ink.shape[0]
    n, labels, stats, cents = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    out = []
    for i in range(1, n):
        area = stats[i, 4] / float(w * w)
        if area < profile.pip_area_min * 0.35:
            continue  # specks
        x, y, bw, bh = stats[i, :4]
        comp = (labels[y:y + bh, x:x + bw] == i).astype(np.uint8)
        contours, _ = cv2.findContours(comp, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        peri = max(1.0, cv2.arcLength(contours[0], True))
        edge = x <= margin or x + bw >= w - margin or (y <= margin if outer_top else y + bh >= h - margin)
        (_, _), (rw, rh), _ = cv2.minAreaRect(contours[0])
        elong = (max(rw, rh) + 1.0) / (min(rw, rh) + 1.0)
        out.append(_Mark(area, float(4 * np.pi * stats[i, 4] / peri ** 2), bool(edge), float(elong),
                         (float(cents[i][0]), float(cents[i][1]))))
    return out


def _is_pip(mark: _Mark, profile: Profile) -> bool:
    # (a leaf or a long chip on a plank is roundish by its outline, but three times as long as wide or more)
    return profile.pip_area_min <= mark.area <= profile.pip_area_max and \
        mark.circularity >= profile.pip_min_circularity and mark.elongation <= profile.pip_max_elongation


def _read_half(marks: list[_Mark], ref: float | None, centre: tuple[float, float], profile: Profile) -> HalfReading:
    """Count one half's pips; ``ref`` is the typical pip area on this tile (None if no clean pip),
    ``centre`` the half's centre (xy, face pixels of the half)."""
    pips, odd_area, logo = 0, 0.0, False
    where = []  # (x, y, how many pips) of the pips counted
    for mark in marks:
        area = mark.area
        if mark.edge and area > profile.pip_area_max:
            odd_area += profile.pip_area_min  # ground or shadow let in by a loose outline, not a mark
        elif _is_pip(mark, profile) and (ref is None or ref / profile.pip_size_ratio <= area
                                         <= ref * profile.pip_size_ratio):
            pips += 1
            where.append((*mark.centre, 1))
        elif area >= profile.logo_min_area and mark.elongation <= profile.logo_max_elongation:
            logo = True  # (a long thin mark is a divider or a seam seen off its place, not the logo)
        elif ref is not None and 1.6 * ref <= area <= 3.5 * ref:
            pips += int(round(area / ref))  # pips close together that ran into one mark
            where.append((*mark.centre, int(round(area / ref))))
            odd_area += 0.5 * profile.pip_area_min
        else:
            odd_area += area
    if logo:
        return HalfReading(0, True, 0.9 if pips <= 2 else 0.7)
    conf = 1.0 - min(0.6, odd_area / max(profile.pip_area_min, 1e-6) * 0.15)
    off = 0.0
    if where:
        # every pip pattern is centred on its half: pips gathered off the centre mean an outline that is
        # shifted or too large (a neighbour's half, the tile's side taken in), whatever the count
        xyw = np.array(where, float)
        mid = (xyw[:, :2] * xyw[:, 2:]).sum(axis=0) / xyw[:, 2].sum()
        off = float(np.linalg.norm(mid - centre)) / profile.rect_width
        conf *= 1.0 - profile.pip_off_centre_cost * float(np.clip(
            (off - profile.pip_off_centre_free) / max(profile.pip_off_centre_span, 1e-6), 0.0, 1.0))
    return HalfReading(pips, False, float(conf), off)


def _emblem_halves(ink: np.ndarray, split: int, profile: Profile, min_hole: float | None = None) -> tuple[bool, bool]:
    """Which halves the logo's emblem lies on: a large round mark with a hole (a ring), looked for on the
    whole face, since a logo centred over the divider is cut in two by the divider band. Its holes together
    (a divider drawn through the ring splits them, and may join the word mark to it) are at least
    ``min_hole`` (default ``logo_min_hole``) of the mark's area, outline included.
    """
    w = profile.rect_width
    contours, hierarchy = cv2.findContours(ink, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    on = [False, False]
    if hierarchy is None:
        return False, False
    for k, c in enumerate(contours):
        if hierarchy[0][k][3] != -1 or hierarchy[0][k][2] == -1:
            continue  # a hole, or a mark without one
        area = cv2.contourArea(c)
        if area < profile.logo_min_area * w * w:
            continue
        hull = cv2.convexHull(c)
        roundness = 4 * np.pi * cv2.contourArea(hull) / max(cv2.arcLength(hull, True), 1.0) ** 2
        hole, child = 0.0, hierarchy[0][k][2]
        while child != -1:
            hole += cv2.contourArea(contours[child])
            child = hierarchy[0][child][0]
        if roundness < profile.logo_min_roundness or \
                hole < (profile.logo_min_hole if min_hole is None else min_hole) * area:
            continue
        _, y, _, bh = cv2.boundingRect(c)
        on[0] |= y < split - profile.logo_reach * bh
        on[1] |= y + bh > split + profile.logo_reach * bh
    return on[0], on[1]


def _divider_row(ink: np.ndarray, margin: int, profile: Profile) -> int:
    """Row of the divider on the rectified face: the long mark across its middle, else the middle row."""
    w = profile.rect_width
    lo, hi = int(w * (1 - profile.divider_search)), int(w * (1 + profile.divider_search))
    strip = ink[lo:hi, margin:w - margin]
    n, labels, stats, cents = cv2.connectedComponentsWithStats(strip, connectivity=8)
    best, best_key = w, None
    for i in range(1, n):
        bw, bh = stats[i, 2], stats[i, 3]
        if bw >= 0.4 * w and bw >= 3.5 * bh:
            key = abs(cents[i][1] + lo - w)
            if best_key is None or key < best_key:
                best, best_key = int(round(cents[i][1] + lo)), key
    return best


def halves_apart(face_bgr: np.ndarray, profile: Profile) -> float:
    """How far apart the two halves' face colours lie in hue and saturation (Lab a, b units; their medians,
    so the marks count little). A tile is one piece of wood: a shadow across it changes mostly its
    lightness, while half a tile and the ground beyond its end differ in colour."""
    w = profile.rect_width
    m = max(1, int(round(profile.face_margin * w)))
    lab = cv2.cvtColor(face_bgr, cv2.COLOR_BGR2LAB)
    first = np.median(lab[m:w - m, m:w - m].reshape(-1, 3), axis=0)
    second = np.median(lab[w + m:2 * w - m, m:w - m].reshape(-1, 3), axis=0)
    return float(np.hypot(first[1] - second[1], first[2] - second[2]))


def grain_across(face_bgr: np.ndarray, profile: Profile) -> float:
    """How much the face's texture runs across the tile rather than along it: -1 (along) .. 1 (across).

    Wooden tiles are cut with the grain along their length; a "face" whose grain runs across it is a
    piece of a real face taken sideways (a grain line read as a divider). Measured from the structure
    tensor of the rectified face (half 0 on top), inside the bevel margin, away from its marks: the rims of
    pips and of the logo's letters would otherwise decide it on a face with little grain.
    """
    w = profile.rect_width
    m = max(1, int(round(profile.face_margin * w)))
    gray = cv2.cvtColor(face_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gray = cv2.GaussianBlur(gray, (0, 0), 1.0)[m:2 * w - m, m:w - m]
    marks = (np.abs(gray - np.median(gray)) > profile.pip_contrast).astype(np.uint8)  # as the reader sees ink
    marks = cv2.dilate(marks, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))).astype(bool)
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    band = int(round(profile.divider_search * w))  # the divider runs across: leave it out
    mid = gray.shape[0] // 2
    keep = ~marks
    keep[max(0, mid - band):mid + band] = False
    if np.count_nonzero(keep) < 0.1 * keep.size:
        return 0.0  # nothing but marks: no grain to go by
    mag = gx * gx + gy * gy
    keep &= mag <= np.percentile(mag[keep], 75)  # the grain, not the sharp rims of pips
    sxx, syy = float(np.sum(gx[keep] ** 2)), float(np.sum(gy[keep] ** 2))
    # grain along the tile (rows of the rectified face run across it) varies across x: gx dominates; a face
    # with no texture at all (a plain painted face) shows no grain either way, whatever its marks' rims leave
    floor = profile.grain_min_energy * np.count_nonzero(keep)
    return (syy - sxx) / max(sxx + syy + floor, 1e-6)


def _ink(face_bgr: np.ndarray, profile: Profile,
         strict: bool) -> tuple[np.ndarray, int, np.ndarray, np.ndarray]:
    """The pip-ink mask (uint8 0/1) of a rectified face, its bevel margin cleared, its divider row, and the
    two masks the logo's emblem is looked for in: the ink before it was tested against the face around it
    (a mark as large as the emblem raises the median around its own ring and would lose a part of it
    there), and the same at ``logo_ink_ratio`` of the contrast."""
    w = profile.rect_width
    lab = cv2.cvtColor(face_bgr, cv2.COLOR_BGR2LAB)
    m = max(1, int(round(profile.face_margin * w)))
    inner = lab[m:2 * w - m, m:w - m].reshape(-1, 3)
    face = np.median(inner, axis=0)
    dist = lab_distance(lab, face)
    spread = float(np.percentile(dist[m:2 * w - m, m:w - m], 30))  # pips and shadows take much of a face
    # pips stand out from the face by pip_contrast, or (dim light, dark wood) by half the strongest marks'
    # contrast, but always well above the face's own grain
    strong = float(np.percentile(dist[m:2 * w - m, m:w - m], 99))
    # the lighting multiplies everything: on a face in deep shade the pips stand out by less
    dim = min(1.0, float(face[0]) / profile.pip_lightness_ref) if profile.pip_lightness_ref > 0 and not strict \
        else 1.0
    floor = max(profile.pip_contrast_floor, profile.pip_contrast_min * dim)
    thr = max(floor, profile.pip_contrast_spread * spread,
              min(profile.pip_contrast * dim, profile.pip_contrast_rel * strong))
    if profile.pip_otsu:  # dim light: pips stand out less, but still clearly from the face
        inner_d = dist[m:2 * w - m, m:w - m]
        d8 = np.clip(inner_d * 2, 0, 255).astype(np.uint8)
        otsu, _ = cv2.threshold(d8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        otsu /= 2.0
        upper, lower = inner_d[inner_d > otsu], inner_d[inner_d <= otsu]
        if (upper.size and lower.size and 0.01 <= upper.size / inner_d.size <= 0.35
                and upper.mean() >= profile.pip_contrast_dim and upper.mean() >= profile.pip_otsu_ratio * lower.mean()):
            thr = min(thr, max(otsu, profile.pip_contrast_dim * 0.6))
    ink = plain = dist > thr
    faint = dist > thr * profile.logo_ink_ratio
    k = int(round(profile.pip_background_window * w)) | 1
    if k > 1 and not strict:
        # ink must also stand out from the face around it (its median colour over a window much wider than
        # a pip), so that shade or glare over part of the face is no ink; the lighting multiplies the
        # contrast, so the threshold there scales with the local lightness
        around = cv2.medianBlur(lab, min(k, 255))
        lit = np.clip(around[..., 0].astype(np.float32) / max(float(face[0]), 1.0), 0.0, 1.0)
        ink = ink & (lab_distance(lab, around) > thr * lit)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    ink, plain, faint = (cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, disc) for mask in (ink, plain, faint))
    split = _divider_row(ink, m, profile)
    valid = np.zeros_like(ink)
    valid[m:2 * w - m, m:w - m] = 1
    return ink & valid, split, plain & valid, faint & valid


def read_face(face_bgr: np.ndarray, profile: Profile, *, strict: bool = False) -> FaceReading:
    """Read both halves of a rectified face (half 0 on top).

    ``strict``: keep the full pip contrast on dark faces too (for judging whether a candidate is a tile at
    all: dark ground and shadows hold faint round specks).
    """
    w = profile.rect_width
    m = max(1, int(round(profile.face_margin * w)))
    ink, split, plain, faint = _ink(face_bgr, profile, strict)
    emblem = _emblem_halves(plain, split, profile)
    if not any(emblem) and profile.logo_ink_ratio < 1:
        emblem = _emblem_halves(faint, split, profile, profile.logo_faint_hole)
    band = int(round(profile.divider_band * w))
    ink[max(0, split - band):split + band] = 0  # the divider, and pips' shadows beside it
    marks = (_marks(ink[:split], m, True, profile), _marks(ink[split:], m, False, profile))
    clean = [mark.area for half in marks for mark in half if _is_pip(mark, profile)]
    ref = float(np.median(clean)) if clean else None
    centres = ((w / 2, w / 2), (w / 2, 1.5 * w - split))  # each half's centre, on its own part of the face
    top, bottom = (HalfReading(0, True, profile.logo_confidence) if emblem[k] else
                   _read_half(marks[k], ref, centres[k], profile) for k in (0, 1))
    if profile.blank_needs_logo and top.logo != bottom.logo:
        # the logo is on the double-blank only: the other half holds its word mark, whose letters are no pips
        logo = top if top.logo else bottom
        top, bottom = logo, logo
    return FaceReading((top, bottom))
