"""Find tile faces on a reduced image, one per divider line.

Entry point: ``find_faces(work_bgr, profile) -> FaceSearch``.

How: every tile has a line (painted or grooved) across the middle of its face. Thin elongated "ink"
marks (darker, or lighter, than their neighbourhood; one mask per polarity) are divider candidates.
From each candidate the face colour is sampled on both sides of the line (both sides must match, and
be plain enough and light enough for the set), then each of the face's four edges is searched along
rays leaving the divider: the first place where the distance from the face colour rises on most rays
(pips, read as face, rise on a few rays only). A side with no visible edge mirrors the opposite one or
takes the set's usual proportions. A long side may slant far from square to the divider (a tile turned
across a steep view is a sheared parallelogram): each ray then finds its own edge and a line is fitted
through the rays that agree. Where a weaker edge lies nearer than the strong one (the seam between
touching tiles), the face it bounds is a second candidate; so is the face that ends halfway to a parallel
divider straight ahead or beside it (tiles of one wood pushed together, their seams too faint to see).
A divider found in part (shorter than the photo's clear dividers: faint, or broken by grain) is run on
along its axis while it still stands out, and fitted again. The logo tile, often without a divider, gets a
stand-in for one from its emblem and word mark (``emblem.logo_axes``) and is fitted the same way.
Each side gets a line fitted through its edge points (so a face seen at a slant comes out as a trapezoid)
and the quadrilateral is checked against what a tile looks like: aspect, divider at the centre and
parallel to the short sides, mostly face-coloured inside, and standing out from what lies around it on
part of its outline (unless neighbours show where it is). A seam between
two tiles laid end to end looks like a divider too, but its face overlaps two real ones, so of
overlapping candidates the largest set that does not overlap is kept (in a chain of n tiles, the n
dividers beat the n-1 seams), each counting as its score squared too.
Then a second look where the faces kept leave room: a faint divider run into a seam, a joint of the
ground or a tile's edge makes one mark that is no line, so the straight runs inside such marks (Hough)
are fitted as dividers too, if as long as the kept faces' dividers and with pips on both sides. Seams
are such runs as well, so these faces need a mark on each half and never displace a face kept before.
A long divider is fitted on a reduced copy of its window (everything is relative to its length).

Conventions: images are BGR uint8 (``work_bgr``: the photo reduced by ``FaceSearch.scale``); points
are ``xy`` float64 in working-image pixels; masks are indexed ``[row, col]``. Corners go around the
face with corners[0]-corners[1] the short edge at one end (which end is the pips[0] half is settled
later, by ``pips.read_face``).

Does not read pips and does no file I/O. Raises nothing for any image of the right type (an image
with no tile gives an empty result).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Callable

import cv2
import numpy as np

from companion.vision.colour import lab_distance
from companion.vision.emblem import emblem_face, emblems, logo_axes, logo_faces
from companion.vision.profile import Profile
from companion.vision.regions import face_regions


@dataclass(frozen=True)
class Face:
    """One tile face found on the working image."""

    corners: np.ndarray  # (4, 2) float64 xy, around the face, corners[0]-corners[1] a short edge
    divider: tuple[float, float]  # divider centre, xy
    score: float  # 0..1, how tile-like the region is
    cut_off: bool  # touches the image border


@dataclass(frozen=True)
class FaceSearch:
    faces: list[Face] = field(default_factory=list)
    scale: float = 1.0  # working image = photo * scale


@dataclass
class _Line:
    label: int  # its ink component; -1: no divider seen (a face found as a region, or from the emblem)
    center: np.ndarray  # xy
    along: np.ndarray  # unit vector along the line
    length: float
    thickness: float
    box: tuple[int, int, int, int]  # x, y, w, h


def _odd(n: float) -> int:
    n = max(3, int(round(n)))
    return n if n % 2 else n + 1


def ink_masks(gray: np.ndarray, profile: Profile) -> list[np.ndarray]:
    """Pixels markedly darker, and (per ``profile.ink_polarity``) lighter, than their neighbourhood.

    One mask per polarity: a light face on a dark ground is itself "light ink", so the two are kept apart.
    """
    k = _odd(max(profile.ink_window * max(gray.shape), profile.ink_window_min))
    g = gray.astype(np.float32)
    if profile.ink_blur > 0:  # photo noise breaks faint grooves into specks
        g = cv2.GaussianBlur(g, (0, 0), profile.ink_blur)
    mean = cv2.blur(g, (k, k))
    # contrast relative to the local brightness (dim light, dark wood), within bounds
    contrast = np.clip(profile.ink_contrast_rel * mean, profile.ink_contrast_min, profile.ink_contrast)
    masks = []
    for level in (1.0,) + tuple(profile.ink_extra_levels):  # fainter levels catch shallow grooves
        if profile.ink_polarity in ("dark", "both"):
            masks.append(g < mean - contrast * level)
        if profile.ink_polarity in ("light", "both"):
            masks.append(g > mean + contrast * level)
    return masks


def line_masks(gray: np.ndarray, profile: Profile) -> list[np.ndarray]:
    """Thin marks darker (and, per ``profile.ink_polarity``, lighter) than what lies right beside them.

    One mask per polarity and size in ``profile.line_kernels``: the black-hat (top-hat) of that size keeps
    lines and specks narrower than it, measured against the surface next to them rather than a wide mean
    that mixes face and ground.
    """
    masks = []
    for size in profile.line_kernels:
        k = _odd(size)
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        if profile.ink_polarity in ("dark", "both"):
            masks.append(cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, kernel) >= profile.line_contrast)
        if profile.ink_polarity in ("light", "both"):
            masks.append(cv2.morphologyEx(gray, cv2.MORPH_TOPHAT, kernel) >= profile.line_contrast)
    return masks


def _as_line(pts: np.ndarray, area: int, label: int, box, profile: Profile, max_len: float) -> _Line | None:
    """The mark made of ``pts`` (xy float32) as a divider candidate, or None when it is no thin line."""
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(pts)
    rw, rh = rw + 1.0, rh + 1.0
    length, thick = max(rw, rh), min(rw, rh)
    if length < profile.divider_min_len or length > max_len:
        return None
    if length / thick < profile.divider_min_aspect or area / (rw * rh) < profile.divider_min_fill:
        return None
    theta = np.deg2rad(angle if rw >= rh else angle + 90.0)
    along = np.array([np.cos(theta), np.sin(theta)])
    return _Line(label, np.array([cx, cy]), along, float(length), float(thick), box)


def _thin_part(comp: np.ndarray) -> np.ndarray:
    """A mark without its thick blobs: a divider that runs into a pip comes out on its own."""
    dt = cv2.distanceTransform(cv2.copyMakeBorder(comp, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0),
                               cv2.DIST_L2, 3)[1:-1, 1:-1]
    t = 0.5 * float(dt.max())
    if t < 1.0:
        return np.zeros_like(comp)
    k = _odd(2 * t + 1)
    thick = cv2.dilate((dt > t).astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return comp & (1 - thick)


def _elongated(labels: np.ndarray, n: int, stats: np.ndarray, profile: Profile) -> np.ndarray:
    """Per component: long and thin enough to be a divider, judged from its second moments (vectorised)."""
    flat = labels.ravel()
    where = np.flatnonzero(flat)  # ink pixels only
    lab = flat[where]
    ys, xs = np.divmod(where, labels.shape[1])
    # centred on each component's box corner to keep the sums small and exact enough
    x = (xs - stats[lab, 0]).astype(np.float64)
    y = (ys - stats[lab, 1]).astype(np.float64)
    area = np.maximum(stats[:, 4].astype(np.float64), 1.0)
    mx, my = np.bincount(lab, x, n) / area, np.bincount(lab, y, n) / area
    sxx = np.bincount(lab, x * x, n) / area - mx ** 2
    syy = np.bincount(lab, y * y, n) / area - my ** 2
    sxy = np.bincount(lab, x * y, n) / area - mx * my
    half_tr, det = (sxx + syy) / 2, sxx * syy - sxy ** 2
    root = np.sqrt(np.maximum(half_tr ** 2 - det, 0.0))
    big, small = half_tr + root, np.maximum(half_tr - root, 1e-6)
    length = np.sqrt(12 * big)  # a bar of length l has variance l^2/12 along it
    thick = np.sqrt(12 * small) + 1.0
    return (length / thick >= 0.6 * profile.divider_min_aspect) & (length >= 0.6 * profile.divider_min_len)


def _line_candidates(ink: np.ndarray, profile: Profile) -> tuple[np.ndarray, list[_Line], np.ndarray]:
    """The ink's components (labels), the thin lines among them, and the marks of a divider's size that
    gave none (rows of x, y, w, h, label): a divider joined to something may still run straight inside one."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    max_len = profile.divider_max_len * min(ink.shape)
    lines = []
    side = np.maximum(stats[:, 2], stats[:, 3]).astype(np.float64)
    # a line of length l and thickness t has area l*t and a box side of at least l/sqrt(2): blobs go first
    maybe = ((side >= profile.divider_min_len * 0.7) & (stats[:, 4] >= profile.divider_min_len)
             & (side <= max_len * 1.5) & (stats[:, 4] <= 2.2 / profile.divider_min_aspect * side ** 2))
    maybe[0] = False
    sized = maybe.copy()
    if np.count_nonzero(maybe) > 64:  # many marks (grass, gravel): judge their shape by moments first
        maybe &= _elongated(labels, n, stats, profile)
    if profile.split_max_area > 0:
        maybe |= (stats[:, 4] >= 3 * profile.divider_min_len) & (stats[:, 4] <= profile.split_max_area * ink.size)
    maybe[0] = False
    for i in np.flatnonzero(maybe):
        x, y, w, h, area = stats[i]
        comp = (labels[y:y + h, x:x + w] == i).astype(np.uint8)
        ys, xs = np.nonzero(comp)
        line = _as_line(np.column_stack([xs + x, ys + y]).astype(np.float32), area, i, (x, y, w, h), profile,
                        max_len)
        if line is not None:
            lines.append(line)
            continue
        if area < 3 * profile.divider_min_len or area > profile.split_max_area * ink.size:
            continue
        thin = _thin_part(comp)
        m, sub, sub_stats, _ = cv2.connectedComponentsWithStats(thin, connectivity=8)
        for j in range(1, m):
            if sub_stats[j, 4] < profile.divider_min_len:
                continue
            ys, xs = np.nonzero(sub == j)
            line = _as_line(np.column_stack([xs + x, ys + y]).astype(np.float32), int(sub_stats[j, 4]), i,
                            (x, y, w, h), profile, max_len)
            if line is not None:
                lines.append(line)
    found = np.zeros(n, bool)
    found[[ln.label for ln in lines]] = True
    rest = np.flatnonzero(sized & ~found & (side >= profile.straight_min_len * profile.divider_min_len))
    return labels, lines, np.column_stack([stats[rest, :4], rest])


def _straight_parts(comp: np.ndarray, at: tuple[int, int], label: int, profile: Profile,
                    max_len: float) -> list[_Line]:
    """Straight runs inside a mark that is no line as a whole: a divider joined to a seam or a tile's edge."""
    min_len = profile.divider_min_len * profile.straight_min_len
    segs = cv2.HoughLinesP(comp * 255, 1, np.pi / 180, int(min_len), minLineLength=min_len,
                           maxLineGap=profile.divider_extend_gap)  # the gaps a divider run on may bridge
    if segs is None:
        return []
    dt = cv2.distanceTransform(cv2.copyMakeBorder(comp, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0),
                               cv2.DIST_L2, 3)[1:-1, 1:-1]
    out = []
    for x0, y0, x1, y1 in segs.reshape(-1, 4).astype(np.float64):
        length = float(np.hypot(x1 - x0, y1 - y0)) + 1.0
        if length > max_len:
            continue
        us = np.linspace(0.0, 1.0, max(2, int(length)))
        xs = np.clip(np.round(x0 + (x1 - x0) * us).astype(int), 0, comp.shape[1] - 1)
        ys = np.clip(np.round(y0 + (y1 - y0) * us).astype(int), 0, comp.shape[0] - 1)
        thick = 2.0 * float(np.median(dt[ys, xs]))
        if thick < 1.0 or length / thick < profile.divider_min_aspect:
            continue
        along = np.array([x1 - x0, y1 - y0]) / (length - 1.0)
        centre = np.array([(x0 + x1) / 2 + at[0], (y0 + y1) / 2 + at[1]])
        out.append(_Line(label, centre, along, length, thick, (at[0], at[1], comp.shape[1], comp.shape[0])))
    return out


def _spots(ink: np.ndarray, labels: np.ndarray, profile: Profile) -> np.ndarray:
    """Small roundish ink marks (pips), slightly grown to cover their soft rims."""
    n, lab2, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    w, h, area = stats[:, 2].astype(float), stats[:, 3].astype(float), stats[:, 4].astype(float)
    side = np.maximum(w, h)
    roundish = (np.minimum(w, h) / np.maximum(side, 1) > 0.5) & (area / np.maximum(w * h, 1) > 0.5)
    small = side <= profile.spot_max_size * max(ink.shape)
    keep = roundish & small
    keep[0] = False
    mask = keep[lab2].astype(np.uint8)
    mask = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    return mask.astype(bool)


def _side_samples(lab: np.ndarray, ink: np.ndarray, line: _Line, sign: float) -> np.ndarray:
    """Lab pixels of a thin strip beside the line, on the side ``sign`` (+1/-1) of its normal."""
    normal = np.array([-line.along[1], line.along[0]])
    h, w = ink.shape
    ts = np.linspace(-0.4, 0.4, 9) * line.length
    ds = (line.thickness / 2 + np.linspace(0.06, 0.2, 4) * line.length) * sign
    pts = line.center + ts[:, None, None] * line.along + ds[None, :, None] * normal
    pts = pts.reshape(-1, 2).round().astype(int)
    ok = (pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)
    pts = pts[ok]
    if len(pts) == 0:
        return np.zeros((0, 3), np.float32)
    keep = ~ink[pts[:, 1], pts[:, 0]]
    if np.count_nonzero(keep) < _MIN_SIDE_SAMPLES:  # the whole face is "ink" (a dark tile on a pale ground)
        keep[:] = True
    return lab[pts[keep, 1], pts[keep, 0]].astype(np.float32)


_MIN_SIDE_SAMPLES = 6  # face samples needed on each side of a divider


@dataclass
class _Candidate:
    line: _Line
    corners: np.ndarray
    mask_box: tuple[int, int, int, int]
    mask: np.ndarray
    score: float
    cut_off: bool


def _order_corners(quad: np.ndarray) -> np.ndarray:
    """Rotate the quadrilateral's corner list so that corners[0]-corners[1] is a short edge."""
    quad = np.asarray(quad, np.float64).reshape(4, 2)
    # consistent direction around the face (clockwise on screen)
    area = 0.5 * np.sum(quad[:, 0] * np.roll(quad[:, 1], -1) - np.roll(quad[:, 0], -1) * quad[:, 1])
    if area < 0:
        quad = quad[::-1]
    lens = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    if lens[0] + lens[2] > lens[1] + lens[3]:
        quad = np.roll(quad, -1, axis=0)
    return quad


def _sample(img: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Bilinear samples of a float32 image at xy points of any shape (..., 2); outside reads as +inf."""
    shape = pts.shape[:-1]
    flat = pts.reshape(-1, 2).astype(np.float32)
    out = cv2.remap(img, flat[:, 0].reshape(1, -1), flat[:, 1].reshape(1, -1), cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_CONSTANT, borderValue=float(np.inf))
    return out.reshape(shape)


@dataclass
class _Scan:
    """Rays leaving ``origin + t * across`` along ``direction``: how the face-colour distance rises."""

    origin: np.ndarray
    direction: np.ndarray
    across: np.ndarray
    ts: np.ndarray
    ds: np.ndarray
    rise: np.ndarray  # (rays, ds)
    score: np.ndarray  # (ds,) median rise over the rays (pips rise on a few rays only)
    beyond: np.ndarray  # (rays, ds) past the image's border
    lag: int


def _scan(dist: np.ndarray, origin: np.ndarray, direction: np.ndarray, across: np.ndarray,
          d_range: tuple[float, float], t_half: float, step: float, profile: Profile, rays: int = 15) -> _Scan:
    ts = np.linspace(-t_half, t_half, rays)
    ds = np.arange(d_range[0], d_range[1] + step, step * 0.5)
    pts = origin + ts[:, None, None] * across + ds[None, :, None] * direction
    prof = _sample(dist, pts)  # (rays, ds)
    beyond = ~np.isfinite(prof)
    prof = np.where(beyond, profile.face_tolerance_max * 2, prof)
    lag = max(2, int(np.ceil(profile.edge_baseline / step)))  # rise measured over at least edge_baseline px
    rise = np.zeros_like(prof)
    if prof.shape[1] > 2 * lag:
        rise[:, lag:-lag] = prof[:, 2 * lag:] - prof[:, :-2 * lag]
    score = np.median(rise, axis=0) if rise.size else np.zeros(len(ds))
    return _Scan(origin, direction, across, ts, ds, rise, score, beyond, lag)


def _edge_at(sc: _Scan, idx: int, thresh: float):
    """(distance, edge points xy, strength, at the border) for the edge at index ``idx`` of a scan."""
    d = float(sc.ds[idx])
    win = max(2, int(round(2 * sc.lag)))
    lo, hi = max(0, idx - win), min(len(sc.ds), idx + win + 1)
    per_ray = lo + np.argmax(sc.rise[:, lo:hi], axis=1)
    good = sc.rise[np.arange(len(sc.ts)), per_ray] >= thresh * 0.5
    pts_edge = sc.origin + sc.ts[good, None] * sc.across + sc.ds[per_ray[good], None] * sc.direction
    at_border = bool(sc.beyond[:, min(idx + sc.lag, len(sc.ds) - 1)].mean() > 0.5)
    return d, pts_edge, float(sc.score[idx]), at_border


def _first_rise(score: np.ndarray, profile: Profile, rel: float | None = None) -> tuple[int, float] | None:
    """Index of the first strong rise (then climbed to its peak) and the threshold used; None if none.

    Strong: at least ``edge_min_rise`` and ``rel`` (default ``edge_rel_rise``) of the strongest rise."""
    if score.size == 0 or score.max() < profile.edge_min_rise:
        return None
    thresh = max(profile.edge_min_rise, (profile.edge_rel_rise if rel is None else rel) * score.max())
    idx = int(np.argmax(score >= thresh))
    while idx + 1 < len(score) and score[idx + 1] >= score[idx]:
        idx += 1
    return idx, thresh


def _find_side(dist: np.ndarray, origin: np.ndarray, direction: np.ndarray, across: np.ndarray,
               d_range: tuple[float, float], t_half: float, step: float, profile: Profile):
    """The face's edge on one side: (distance from origin, edge points xy, strength, at border) or None.

    The edge is the first distance where the face-colour distance rises steeply on most rays.
    """
    return _side_options(dist, origin, direction, across, d_range, t_half, step, profile)[0]


def _side_options(dist: np.ndarray, origin: np.ndarray, direction: np.ndarray, across: np.ndarray,
                  d_range: tuple[float, float], t_half: float, step: float, profile: Profile) -> list:
    """``[edge]`` as ``_find_side`` gives it (``[None]`` for none), then a nearer, weaker edge if there is one.

    The strongest rise on a side is often past the face: tiles touching side by side or end to end, wood
    on a wooden deck, where the seam between two faces rises far less than the ground beyond both.
    """
    sc = _scan(dist, origin, direction, across, d_range, t_half, step, profile)
    if sc.beyond.size and sc.beyond[:, 0].mean() > 0.5:  # the border comes before any place the edge could be
        return [(float(sc.ds[0]), np.zeros((0, 2)), 0.0, True)]
    first = _first_rise(sc.score, profile)
    if first is None:
        return [None]
    options = [_edge_at(sc, *first)]
    if 0 < profile.edge_near_rise < profile.edge_rel_rise:
        near = _first_rise(sc.score, profile, profile.edge_near_rise)
        if near is not None and near[0] < first[0] - sc.lag:
            options.append(_edge_at(sc, *near))
    return options


def _slanted_side(dist: np.ndarray, origin: np.ndarray, direction: np.ndarray, across: np.ndarray,
                  d_range: tuple[float, float], t_half: float, step: float, profile: Profile):
    """A long side that may slant well away from square to the divider: ((distance at the divider, edge
    points xy, strength, False) as ``_find_side`` gives an edge, its slope), or None when no straight
    edge is seen.

    A tile turned across a steeply tilted view is a sheared parallelogram: its long sides meet the divider at
    up to ``side_shear_tol`` degrees from square, so rays square to the divider meet the side at distances
    that grow along it and their median rise shows no edge. Here each ray finds its own first strong rise
    and a straight line is fitted through the rays that agree (the two that fit the most others).
    """
    sc = _scan(dist, origin, direction, across, d_range, t_half, step, profile, rays=profile.side_rays)
    if sc.beyond.any():
        return None  # near the photo's border: left to the search square to the divider
    rise = sc.rise
    thresh = max(profile.edge_min_rise, profile.edge_rel_rise * float(np.percentile(rise.max(axis=1), 75)))
    above = rise >= thresh
    seen = above.any(axis=1)
    first = np.argmax(above, axis=1)
    # each ray's first strong rise, climbed to its peak: the first fall at or after it
    falls = np.zeros(rise.shape, bool)
    falls[:, :-1] = rise[:, 1:] < rise[:, :-1]
    falls[:, -1] = True
    falls &= np.arange(rise.shape[1])[None, :] >= first[:, None]
    idx = np.argmax(falls, axis=1)
    if np.count_nonzero(seen) < max(2.0, profile.side_min_rays * len(sc.ts)):
        return None
    t, d, strength = sc.ts[seen], sc.ds[idx[seen]], rise[seen, idx[seen]]
    i, j = np.triu_indices(len(t), 1)
    slope = (d[j] - d[i]) / np.where(t[j] != t[i], t[j] - t[i], 1e-9)
    at0 = d[i] - slope * t[i]
    tol = max(1.5 * step, profile.side_fit_tol * (d_range[0] + d_range[1]))
    agree = np.abs(d[None, :] - (at0[:, None] + slope[:, None] * t[None, :])) <= tol
    agree &= (np.abs(slope) <= np.tan(np.radians(profile.side_shear_tol)))[:, None]
    best = int(np.argmax(agree.sum(axis=1)))
    inl = agree[best]
    if inl.sum() < profile.side_min_rays * len(sc.ts):
        return None
    b, a = np.polyfit(t[inl], d[inl], 1)
    if not d_range[0] <= a <= d_range[1]:
        return None
    pts = origin + t[inl, None] * across + d[inl, None] * direction
    return (float(a), pts, float(np.median(strength[inl])), False), float(b)


def _find_ends(dist: np.ndarray, origin: np.ndarray, axis: np.ndarray, across: np.ndarray,
               d_range: tuple[float, float], t_half: float, step: float, profile: Profile):
    """Both ends of a face at once: the divider is at its middle, so the two ends lie (nearly, a slanted
    view aside) equally far from it. A row of pips rises on one side only; the ends rise on both.

    Returns {+1.0: edge or None, -1.0: edge or None} as ``_find_side`` gives them.
    """
    scans = {sgn: _scan(dist, origin, sgn * axis, across, d_range, t_half, step, profile) for sgn in (1.0, -1.0)}
    if any(sc.beyond.size and sc.beyond[:, 0].mean() > 0.5 for sc in scans.values()):
        return {sgn: _find_side(dist, origin, sgn * axis, across, d_range, t_half, step, profile)
                for sgn in (1.0, -1.0)}
    # allow the ends to differ by end_asymmetry: each side's score, max-filtered over that window
    ds = scans[1.0].ds
    k = max(1, int(round(profile.end_asymmetry / 2 * float(ds.mean()) / max(ds[1] - ds[0], 1e-6)))) \
        if len(ds) > 1 else 1
    kernel = np.ones((1, 2 * k + 1), np.uint8)
    spread = {sgn: cv2.dilate(sc.score.astype(np.float32)[None, :], kernel).ravel() for sgn, sc in scans.items()}
    both = np.minimum(spread[1.0], spread[-1.0])
    first = _first_rise(both, profile)
    if first is None:
        return {sgn: _find_side(dist, origin, sgn * axis, across, d_range, t_half, step, profile)
                for sgn in (1.0, -1.0)}
    idx, thresh = first
    out = {}
    for sgn, sc in scans.items():
        lo, hi = max(0, idx - k), min(len(ds), idx + k + 1)
        out[sgn] = _edge_at(sc, lo + int(np.argmax(sc.score[lo:hi])), thresh)
    return out


def _intersect(p1, d1, p2, d2) -> np.ndarray:
    a = np.array([d1, -d2]).T
    t = np.linalg.solve(a, p2 - p1)
    return p1 + t[0] * d1


@dataclass
class _Window:
    """A divider's neighbourhood, reduced so that the divider is at most ``fit_divider_px`` long."""

    dist: np.ndarray  # distance from the face colour, pips read as face, smoothed
    dist_raw: np.ndarray  # ... as it is
    ink: np.ndarray
    box: tuple[int, int, int, int]  # x0, y0, x1, y1 in the working image
    f: float  # window pixels per working-image pixel
    c: np.ndarray  # divider centre, window xy
    u: np.ndarray  # along the divider
    n: np.ndarray  # across it
    L: float  # divider length, window pixels
    step: float
    tol: float  # face colour tolerance
    shape: tuple[int, int]  # the working image's


def _fits(line: _Line, ink: np.ndarray, spots: np.ndarray, lab: np.ndarray, profile: Profile,
          seams: dict[tuple[str, float], float] | None = None,
          colour: tuple[np.ndarray, float] | None = None) -> list[_Candidate]:
    """The faces that the divider ``line`` may belong to: the one bounded by the strong edges around it, and
    those bounded by nearer, weaker edges where there are some (``_side_options``) or where neighbours laid
    against it put the seams (``seams``, from ``_seams_in_line``); [] if it is no divider.

    ``colour``: the face colour and its spread where known already (a stand-in for the divider of the logo
    tile); else it is sampled on both sides of the line."""
    win = _window(line, ink, spots, lab, profile, colour)
    if win is None:
        return []
    out = []
    for long_sides, guessed_long, sides_at_seams in _long_side_options(win, profile, seams or {}):
        for ends, guessed_ends, ends_at_seams in _end_options(win, long_sides, profile, seams or {}):
            cand = _fit_quad(line, win, {**long_sides, **ends}, guessed_long + guessed_ends, profile,
                             sides_at_seams or ends_at_seams)
            if cand is not None:
                out.append(cand)
    return out


def _window(line: _Line, ink: np.ndarray, spots: np.ndarray, lab: np.ndarray, profile: Profile,
            colour: tuple[np.ndarray, float] | None = None) -> _Window | None:
    """The face colour on both sides of the line (or ``colour``: the colour and its spread) and the window to
    fit it in; None when the two sides are not one plain face of this set (an edge between a tile and the
    ground, grass, a dark deck)."""
    if colour is None:
        side_a = _side_samples(lab, ink, line, 1.0)
        side_b = _side_samples(lab, ink, line, -1.0)
        if len(side_a) < _MIN_SIDE_SAMPLES or len(side_b) < _MIN_SIDE_SAMPLES:
            return None
        med_a, med_b = np.median(side_a, axis=0), np.median(side_b, axis=0)
        both = np.vstack([side_a, side_b])
        face = np.median(both, axis=0)
        spread = np.median(lab_distance(both, face)) * 1.4826 + 1.0
    else:
        face, spread = colour
    tol = float(np.clip(profile.face_tolerance * spread, profile.face_tolerance_min, profile.face_tolerance_max))
    if colour is None and lab_distance(med_a[None], med_b[None])[0] > tol:
        return None  # the two sides differ: an edge between a tile and the background, not a divider
    if spread > profile.max_face_spread:
        return None  # grass, gravel and the like: too busy to be a tile's face
    if face[0] < profile.face_min_lightness:
        return None  # darker than this set's faces can be
    if face[1] < profile.face_min_a:
        return None  # greener than this set's faces can be (grass, moss)
    h, w = ink.shape
    width_max = line.length / profile.divider_span_min
    reach = width_max * profile.tile_aspect_max / 2 + 4
    x0, y0 = int(max(0, line.center[0] - reach)), int(max(0, line.center[1] - reach))
    x1, y1 = int(min(w, line.center[0] + reach + 1)), int(min(h, line.center[1] + reach + 1))
    # a long divider is fitted on a reduced copy of its window: the fit is relative to its length anyway
    f = min(1.0, profile.fit_divider_px / line.length)
    lab_w, spots_w, ink_w = lab[y0:y1, x0:x1], spots[y0:y1, x0:x1], ink[y0:y1, x0:x1]
    if f < 1.0:
        size = (max(8, int(round((x1 - x0) * f))), max(8, int(round((y1 - y0) * f))))
        lab_w = cv2.resize(lab_w, size, interpolation=cv2.INTER_AREA)
        spots_w = cv2.resize(spots_w.astype(np.uint8), size, interpolation=cv2.INTER_NEAREST).astype(bool)
        ink_w = cv2.resize(ink_w.astype(np.uint8), size, interpolation=cv2.INTER_NEAREST).astype(bool)
        f = size[0] / (x1 - x0)
    dist = lab_distance(lab_w, face)
    dist_raw = dist.copy()
    dist[spots_w] = 0.0  # pips read as face, so that they do not look like edges
    dist = cv2.GaussianBlur(dist, (0, 0), max(0.7, line.thickness * f * 0.25))
    u = line.along
    L = line.length * f
    return _Window(dist, dist_raw, ink_w, (x0, y0, x1, y1), f, (line.center - np.array([x0, y0])) * f, u,
                   np.array([-u[1], u[0]]), L, max(1.0, L * profile.edge_step), tol, (h, w))


def _side_pairs(found: dict, axis: str, d_default: float) -> list[tuple[dict, int]]:
    """Two opposite sides from each side's edge options: ``[(sides, how many were guessed)]``, the first
    options first, then (if a side has a nearer one) the last. A side without a visible edge mirrors the
    other one, or lies ``d_default`` away when neither has one."""
    picks = [{sgn: opts[0] for sgn, opts in found.items()}]
    if any(len(opts) > 1 for opts in found.values()):
        picks.append({sgn: opts[-1] for sgn, opts in found.items()})
    out = []
    for pick in picks:
        seen = [edge for edge in pick.values() if edge is not None]
        d_guess = seen[0][0] if seen else d_default
        out.append(({(axis, sgn): edge if edge is not None else (d_guess, np.zeros((0, 2)), 0.0, False)
                     for sgn, edge in pick.items()}, 2 - len(seen)))
    return out


def _long_side_options(win: _Window, profile: Profile,
                       seams: dict[tuple[str, float], float] | None = None) -> list[tuple[dict, int, bool]]:
    """The face's long sides (beyond the divider's ends): ``[(sides, how many were guessed, whether they are
    at seams)]``, the strong edges first, then the nearer weak ones where a side has one, then the sides at
    the seams with neighbours laid side by side (``seams``)."""
    d_range = (win.L * 0.5 / profile.divider_span_max, win.L * 0.5 / profile.divider_span_min)
    found = {sgn: _side_options(win.dist, win.c, sgn * win.u, win.n, d_range, 0.4 * win.L, win.step, profile)
             for sgn in (1.0, -1.0)}
    if profile.side_rays > 0:
        slanted = {sgn: _slanted_side(win.dist, win.c, sgn * win.u, win.n, d_range, profile.side_ray_span * win.L,
                                      win.step, profile) for sgn in (1.0, -1.0)}
        for sgn, sl in slanted.items():  # a side well off square replaces the square search's edge
            if sl is not None and np.degrees(np.arctan(abs(sl[1]))) > profile.divider_angle_tol / 2:
                found[sgn] = [sl[0]]
    out = []
    for sides, guessed in _side_pairs(found, "u", win.L * 0.5 / profile.divider_span_typical):
        if guessed == 0 and profile.side_asymmetry > 0:
            # the divider crosses the middle of the face: a long side much farther away than the other is the
            # far side of a neighbour laid alongside (the seam between them is faint); the nearer one holds
            (d1, _, _, b1), (d2, _, _, b2) = sides[("u", 1.0)], sides[("u", -1.0)]
            if not (b1 or b2) and abs(d1 - d2) > profile.side_asymmetry * (d1 + d2) / 2:
                far = 1.0 if d1 > d2 else -1.0
                sides[("u", far)] = (min(d1, d2), np.zeros((0, 2)), 0.0, False)
                guessed += 1
        out.append((sides, guessed, False))
    seam_pair = _at_seams(win, "u", win.c, found, out, seams or {}, d_range, 0.4 * win.L, profile.side_asymmetry,
                          profile)
    if seam_pair is not None:
        out.append((*seam_pair, True))
    return out


def _seams_in_line(lines: list[_Line], profile: Profile) -> list[dict[tuple[str, float], float]]:
    """Per line, where tiles laid against it would meet it: ``{(axis, sign): distance}`` in working-image
    pixels from its centre, axis "n" across the line (a tile laid end to end) or "u" along it (a tile laid
    side by side).

    Two tiles laid end to end (or side by side) meet halfway between their dividers, so a parallel divider
    of about the same length straight ahead (or slanting a little from straight ahead: a steep view shears
    a tile), a plausible tile length (width) away, marks the seam even where the seam itself is too faint
    to see (tiles of one wood pushed together)."""
    if not lines or profile.seam_max_offset <= 0:
        return [{} for _ in lines]
    centre = np.array([ln.center for ln in lines])
    along = np.array([ln.along for ln in lines])
    length = np.array([ln.length for ln in lines])
    slant = np.tan(np.radians(profile.seam_max_slant))
    out = []
    for k, ln in enumerate(lines):
        normal = np.array([-ln.along[1], ln.along[0]])
        v = centre - ln.center
        du, dn = v @ ln.along, v @ normal
        width = ln.length / profile.divider_span_typical
        alike = ((np.abs(along @ ln.along) > np.cos(np.radians(profile.divider_angle_tol / 2)))
                 & (np.abs(np.log(length / ln.length)) < np.log(1 + profile.seam_length_tol)))
        alike[k] = False
        ahead = (alike & (np.abs(du) < profile.seam_max_offset * ln.length + slant * np.abs(dn))
                 & (np.abs(dn) >= width * profile.tile_aspect_min) & (np.abs(dn) <= width * profile.tile_aspect_max))
        beside = (alike & (np.abs(dn) < profile.seam_max_offset * ln.length + slant * np.abs(du))
                  & (np.abs(du) >= ln.length / profile.divider_span_max)
                  & (np.abs(du) <= ln.length / profile.divider_span_min))
        seams: dict[tuple[str, float], float] = {}
        for axis, ok, d in (("n", ahead, dn), ("u", beside, du)):
            for sgn in (1.0, -1.0):
                near = np.flatnonzero(ok & (np.sign(d) == sgn))
                if near.size:  # the nearest one: a farther one in line lies beyond it
                    seams[(axis, sgn)] = float(np.abs(d[near]).min()) / 2
        out.append(seams)
    return out


def _at_seams(win: _Window, axis: str, origin: np.ndarray, found: dict, options: list, seams: dict,
              d_range: tuple[float, float], t_half: float, asymmetry: float, profile: Profile):
    """The two sides on ``axis`` ("n": the ends, "u": the long sides) at the seams that neighbours' dividers
    put there (``seams``, from ``_seams_in_line``), as ``(sides, how many were guessed)``; None when no seam
    lies nearer than the edges found anyway.

    ``found``: each side's edge options; ``options``: the pairs of sides already made of them. A side with
    no seam of its own takes an edge of theirs as far as the seam (the divider is at the middle), else
    mirrors the seam; a side with no edge of its own (a seam too faint to see, or mirrored) is as good as
    guessed, so that where both readings fit (the seams seen as lines, every line taken for a divider), the
    seen edges win."""
    direction, across = (win.n, win.u) if axis == "n" else (win.u, win.n)
    at = {}
    for sgn in (1.0, -1.0):
        if (axis, sgn) not in seams:
            continue
        d = seams[(axis, sgn)] * win.f
        if not d_range[0] <= d <= d_range[1]:
            continue
        if any(edge is not None and edge[0] <= d * (1 + profile.seam_slack) for edge in found[sgn]):
            continue  # an edge at the seam or before it (tiles apart, the ground between them) is found anyway
        # the seam itself, if faint, is the strongest rise near where the dividers put it
        sc = _scan(win.dist, origin, sgn * direction, across,
                   (d * (1 - profile.seam_slack), d * (1 + profile.seam_slack)), t_half, win.step, profile)
        idx = int(np.argmax(sc.score)) if sc.score.size else -1
        at[sgn] = _edge_at(sc, idx, profile.edge_min_rise) if idx >= 0 and \
            sc.score[idx] >= profile.edge_min_rise else (d, np.zeros((0, 2)), 0.0, False)
    if not at:
        return None
    for sgn in (1.0, -1.0):
        if sgn in at:
            continue
        others = [sides[(axis, sgn)] for sides, *_ in options]
        near = [e for e in others if abs(e[0] - at[-sgn][0]) <= asymmetry * at[-sgn][0]]
        at[sgn] = near[0] if near else (at[-sgn][0], np.zeros((0, 2)), 0.0, False)
    return {(axis, sgn): edge for sgn, edge in at.items()}, sum(1 for edge in at.values() if edge[2] == 0.0)


def _end_options(win: _Window, long_sides: dict, profile: Profile,
                 seams: dict[tuple[str, float], float] | None = None) -> list[tuple[dict, int, bool]]:
    """The face's two ends, given its long sides: ``[(ends, how many were guessed, whether they are at
    seams)]``, first as the long sides, then the ends at the seams with neighbours laid end to end
    (``seams``, working-image pixels)."""
    half_w = (long_sides[("u", 1.0)][0] + long_sides[("u", -1.0)][0]) / 2
    cc = win.c + (long_sides[("u", 1.0)][0] - long_sides[("u", -1.0)][0]) / 2 * win.u
    end_range = (half_w * profile.tile_aspect_min * 0.85, half_w * profile.tile_aspect_max * 1.05)
    if profile.joint_ends:
        found = {sgn: [edge] for sgn, edge in _find_ends(win.dist, cc, win.n, win.u, end_range, 0.75 * half_w,
                                                          win.step, profile).items()}
    else:
        found = {sgn: _side_options(win.dist, cc, sgn * win.n, win.u, end_range, 0.75 * half_w, win.step, profile)
                 for sgn in (1.0, -1.0)}
    out = []
    for ends, guessed in _side_pairs(found, "n", half_w * profile.tile_aspect_typical):
        if guessed == 0 and not (ends[("n", 1.0)][3] or ends[("n", -1.0)][3]):
            # the divider is at the middle: an end much nearer or farther than the other is a misfit
            (d1, _, e1, _), (d2, _, e2, _) = ends[("n", 1.0)], ends[("n", -1.0)]
            if abs(d1 - d2) > profile.end_asymmetry * (d1 + d2) / 2:
                weak = 1.0 if e1 < e2 else -1.0
                ends[("n", weak)] = (ends[("n", -weak)][0], np.zeros((0, 2)), 0.0, False)
                guessed += 1
        out.append((ends, guessed, False))
    seam_pair = _at_seams(win, "n", cc, found, out, seams or {}, end_range, 0.75 * half_w, profile.end_asymmetry,
                          profile)
    if seam_pair is not None:
        out.append((*seam_pair, True))
    return out


def _fit_quad(line: _Line, win: _Window, sides: dict, guessed: int, profile: Profile,
              at_seams: bool = False) -> _Candidate | None:
    """The face bounded by ``sides`` (four edges around the divider), if it looks like a tile's face.

    ``at_seams``: its ends or its long sides are where neighbours laid against it meet it."""
    c, u, n, L, f, tol, dist = win.c, win.u, win.n, win.L, win.f, win.tol, win.dist
    x0, y0, x1, y1 = win.box
    h, w = win.shape
    cc = c + (sides[("u", 1.0)][0] - sides[("u", -1.0)][0]) / 2 * u
    # a side stopped by the photo's border well short of its opposite side: the tile is cut off
    cut_by_border = any(sides[(a, s_)][3] and sides[(a, s_)][0] < (1 - profile.cut_shortfall) * sides[(a, -s_)][0]
                        for a in ("u", "n") for s_ in (1.0, -1.0))
    if guessed > profile.max_guessed_sides:
        return None
    # a line per side: fitted through its edge points when there are enough, else parallel to the axis
    side_lines = {}
    for key, (d, pts, _, _) in sides.items():
        axis, sgn = key
        direction = n if axis == "u" else u
        origin = (c if axis == "u" else cc) + d * sgn * (u if axis == "u" else n)
        if len(pts) >= 5:
            vx, vy, px, py = cv2.fitLine(pts.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            dvec = np.array([vx, vy], float)
            tol = profile.side_shear_tol if axis == "u" else profile.divider_angle_tol  # long sides may shear
            if abs(dvec @ direction) > np.cos(np.radians(tol)):
                direction, origin = dvec, np.array([px, py], float)
        side_lines[key] = (origin, direction)
    try:
        quad = np.array([
            _intersect(*side_lines[("n", 1.0)], *side_lines[("u", -1.0)]),
            _intersect(*side_lines[("n", 1.0)], *side_lines[("u", 1.0)]),
            _intersect(*side_lines[("n", -1.0)], *side_lines[("u", 1.0)]),
            _intersect(*side_lines[("n", -1.0)], *side_lines[("u", -1.0)]),
        ])
    except np.linalg.LinAlgError:
        return None
    quad = _order_corners(quad)
    e = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    short, long_ = (e[0] + e[2]) / 2, (e[1] + e[3]) / 2
    if short <= 0 or not profile.tile_aspect_min <= long_ / short <= profile.tile_aspect_max:
        return None
    if not profile.divider_span_min <= L / short <= profile.divider_span_max:
        return None
    off = float(np.linalg.norm(quad.mean(axis=0) - c))
    if off > profile.divider_center_tol * long_:
        return None
    short_dir = ((quad[1] - quad[0]) + (quad[2] - quad[3])) / 2
    short_dir /= np.linalg.norm(short_dir) + 1e-9
    angle = float(np.degrees(np.arccos(min(1.0, abs(float(short_dir @ u))))))
    if angle > profile.divider_angle_tol:
        return None
    # the face inside must be mostly face-coloured (ink aside)
    filled = np.zeros(dist.shape, np.uint8)
    cv2.fillConvexPoly(filled, np.round(quad).astype(np.int32), 1)
    inside = filled.astype(bool)
    plain = inside & ~win.ink
    if plain.sum() < 10:
        return None
    face_frac = float(np.mean(dist[plain] <= tol))
    if face_frac < profile.min_face_fill:
        return None
    # ... and stand out from what lies around it on a good part of its outline (planks of a deck,
    # paving joints and the like draw lines too, but with the same surface on both sides)
    centre_q = quad.mean(axis=0)
    radius = float(np.linalg.norm(quad - centre_q, axis=1).mean())

    def _grown(by: float) -> np.ndarray:
        out = np.zeros(dist.shape, np.uint8)
        poly = centre_q + (quad - centre_q) * (1 + by * short / max(radius, 1e-6))
        cv2.fillConvexPoly(out, np.round(poly).astype(np.int32), 1)
        return out.astype(bool)

    # (a face between neighbours laid against it needs not: they show where it is, and tiles of one wood
    # on ground of a like colour may stand out nowhere)
    ring = _grown(profile.ring_width / 2) & ~_grown(profile.ring_gap / 2)
    raw = win.dist_raw[ring]
    outside = float(np.mean(raw > profile.ring_tolerance * tol)) if raw.size else 1.0
    if outside < profile.min_outside_contrast and not at_seams:
        return None
    quad_full = quad / f + np.array([x0, y0])
    short = short / f
    if f < 1.0:
        filled = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(filled, np.round(quad / f).astype(np.int32), 1)
        inside = filled.astype(bool)
    # cut off: a corner lies beyond the border by more than a sliver of the tile (a tile that just
    # touches the border, all its pips in view, is kept)
    m = profile.border_margin - profile.cut_tolerance * short
    cut = bool(cut_by_border or (quad_full[:, 0] < m).any() or (quad_full[:, 1] < m).any()
               or (quad_full[:, 0] > w - 1 - m).any() or (quad_full[:, 1] > h - 1 - m).any())
    score = float((1 - off / (profile.divider_center_tol * long_)) * 0.3
                  + (1 - angle / profile.divider_angle_tol) * 0.3 + face_frac * 0.4) * (1 - 0.15 * guessed)
    return _Candidate(line, quad_full, (x0, y0, x1, y1), inside, score, cut)


def _region_candidate(quad: np.ndarray, shape: tuple[int, int], profile: Profile) -> _Candidate:
    """A face found as a region of face colour (no divider seen): its "divider" is the short axis."""
    quad = _order_corners(quad)
    h, w = shape
    centre = quad.mean(axis=0)
    short_vec = ((quad[1] - quad[0]) + (quad[2] - quad[3])) / 2
    short = float(np.linalg.norm(short_vec))
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    box = (max(0, x0), max(0, y0), min(w, x1), min(h, y1))
    mask = np.zeros((max(1, box[3] - box[1]), max(1, box[2] - box[0])), np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad - [box[0], box[1]]).astype(np.int32), 1)
    line = _Line(-1, centre, short_vec / max(short, 1e-9), profile.divider_span_typical * short, 1.0,
                 (box[0], box[1], box[2] - box[0], box[3] - box[1]))
    m = profile.border_margin - profile.cut_tolerance * short
    cut = bool((quad[:, 0] < m).any() or (quad[:, 1] < m).any() or (quad[:, 0] > w - 1 - m).any()
               or (quad[:, 1] > h - 1 - m).any())
    return _Candidate(line, quad, box, mask.astype(bool), profile.region_score, cut)


def _region_readings(quad: np.ndarray, profile: Profile) -> list[np.ndarray]:
    """A region of face colour as one face and, if it is long enough to be two tiles laid end to end (their
    seam too faint to part the region), as its two halves too: the judge and the selection settle which."""
    quad = _order_corners(quad)
    e = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    aspect = (e[1] + e[3]) / (e[0] + e[2])
    whole = [quad] if aspect <= profile.tile_aspect_max else []
    if profile.region_split_aspect <= 0 or aspect < profile.region_split_aspect:
        return whole
    mid_a, mid_b = (quad[1] + quad[2]) / 2, (quad[3] + quad[0]) / 2  # the middles of the long sides
    return whole + [np.array([quad[0], quad[1], mid_a, mid_b]), np.array([mid_b, mid_a, quad[2], quad[3]])]


def _overlap(a: _Candidate, b: _Candidate) -> float:
    ax0, ay0, ax1, ay1 = a.mask_box
    bx0, by0, bx1, by1 = b.mask_box
    x0, y0, x1, y1 = max(ax0, bx0), max(ay0, by0), min(ax1, bx1), min(ay1, by1)
    if x0 >= x1 or y0 >= y1:
        return 0.0
    ma = a.mask[y0 - ay0:y1 - ay0, x0 - ax0:x1 - ax0]
    mb = b.mask[y0 - by0:y1 - by0, x0 - bx0:x1 - bx0]
    inter = np.count_nonzero(ma & mb)
    return inter / max(1, min(np.count_nonzero(a.mask), np.count_nonzero(b.mask)))


def _max_independent(group: list[int], clash, scores, weights, budget: int = 20000) -> list[int] | None:
    """The candidates that do not clash with the most total weight (ties: the highest total score); None
    past ``budget`` steps."""
    steps = [0]

    def solve(nodes: frozenset) -> tuple[tuple[int, float], list[int]] | None:
        steps[0] += 1
        if steps[0] > budget:
            return None
        if not nodes:
            return (0, 0.0), []
        degree = {v: sum(1 for u in nodes if clash[v][u]) for v in nodes}
        v = max(nodes, key=lambda k: degree[k])
        if degree[v] == 0:
            return (round(sum(weights[k] for k in nodes), 6), sum(scores[k] for k in nodes)), list(nodes)
        with_v = solve(frozenset(u for u in nodes if u != v and not clash[v][u]))
        if with_v is None:
            return None
        (cnt, sc), sub = with_v
        with_v = ((round(cnt + weights[v], 6), sc + scores[v]), sub + [v])
        without = solve(nodes - {v})
        if without is None:
            return None
        return max(with_v, without, key=lambda r: r[0])

    result = solve(frozenset(group))
    return None if result is None else result[1]


def _extended(gray: np.ndarray, line: _Line, profile: Profile) -> _Line | None:
    """The line run on along its axis as far as it goes on standing out from what lies beside it (at least
    ``divider_extend_contrast`` of its contrast where it was found, gaps of a pixel or two bridged), at most
    ``divider_extend_max`` of its length further each way; None when it does not grow by at least
    ``divider_extend_short``."""
    reach = profile.divider_extend_max * line.length
    ts = np.arange(-line.length / 2 - reach, line.length / 2 + reach + 0.5, 1.0)
    normal = np.array([-line.along[1], line.along[0]])
    side = line.thickness / 2 + 2.0
    offsets = np.array([0.0, -side, side])
    pts = line.center + ts[:, None, None] * line.along + offsets[None, :, None] * normal  # (steps, 3, 2)
    flat = pts.reshape(-1, 2).astype(np.float32)
    vals = cv2.remap(gray, flat[:, 0].reshape(1, -1), flat[:, 1].reshape(1, -1), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE).reshape(len(ts), 3)
    contrast = (vals[:, 1] + vals[:, 2]) / 2 - vals[:, 0]
    found = np.abs(ts) <= line.length / 2
    c0 = float(np.median(contrast[found]))
    if abs(c0) < 1e-3:
        return None
    on = contrast * np.sign(c0) >= profile.divider_extend_contrast * abs(c0)
    gap = int(profile.divider_extend_gap)
    ends = []
    for direction in (1, -1):
        idx = np.flatnonzero(found)
        k = idx[-1] if direction > 0 else idx[0]
        last, misses = k, 0
        while 0 <= k + direction < len(ts):
            k += direction
            if on[k]:
                last, misses = k, 0
            else:
                misses += 1
                if misses > gap:
                    break
        ends.append(ts[last])
    hi, lo = ends
    if (hi - lo) < line.length * (1 + profile.divider_extend_short):
        return None
    centre = line.center + (hi + lo) / 2 * line.along
    return _Line(line.label, centre, line.along, float(hi - lo), line.thickness, line.box)


def _extended_fits(gray: np.ndarray, lines: list[tuple[_Line, np.ndarray]], fitted: list[list[_Candidate]],
                   spots: np.ndarray, lab: np.ndarray, profile: Profile) -> list[_Candidate]:
    """Faces of dividers found in part (faint, or broken by grain): a line shorter than the photo's clear
    dividers (those with a clear face) is run on along its axis, up to about their length, and fitted
    again."""
    clear = [ln.length for (ln, _), found in zip(lines, fitted)
             if any(c.score >= profile.divider_extend_clear for c in found)]
    if profile.divider_extend_max <= 0 or not clear:
        return []
    typical = float(np.median(clear))
    g = gray.astype(np.float32)
    out = []
    for ln, ink in lines:
        if ln.length < (1 - profile.divider_extend_short) * typical:
            longer = _extended(g, ln, profile)
            if longer is not None and longer.length <= (1 + profile.divider_extend_short) * typical:
                out += _fits(longer, ink, spots, lab, profile)
    return out


def _distinct_lines(lines: list[tuple[_Line, np.ndarray]], profile: Profile) -> list[tuple[_Line, np.ndarray]]:
    """The lines without repeats: one divider is often found in several ink masks (the first is kept)."""
    if not lines:
        return lines
    centre = np.array([ln.center for ln, _ in lines])
    along = np.array([ln.along for ln, _ in lines])
    length = np.array([ln.length for ln, _ in lines])
    cos_same = np.cos(np.radians(profile.dedupe_angle))
    kept = np.zeros(len(lines), bool)
    for k in range(len(lines)):
        near = np.hypot(*(centre - centre[k]).T) < profile.dedupe_near * np.minimum(length, length[k])
        same = (np.abs(along @ along[k]) > cos_same) \
            & (np.abs(length - length[k]) < profile.dedupe_near * np.maximum(length, length[k]))
        kept[k] = not np.any(kept & near & same)
    return [line for line, keep in zip(lines, kept) if keep]


def _size(c: _Candidate) -> float:
    """The longest side of a candidate's face."""
    return float(np.linalg.norm(c.corners - np.roll(c.corners, -1, axis=0), axis=1).max())


def _dedupe(cands: list[_Candidate], profile: Profile) -> list[_Candidate]:
    """One candidate per face: the same divider found in several ink masks gives nearly the same quad."""
    order = sorted(range(len(cands)), key=lambda k: -cands[k].score)
    kept: list[_Candidate] = []
    centres: list[np.ndarray] = []
    sizes: list[tuple[float, float]] = []
    near = profile.dedupe_near
    for k in order:
        c = cands[k]
        centre = c.corners.mean(axis=0)
        # width and length: two faces about one divider, one ending at the seam with a neighbour and one
        # running on over it, share their centre and width
        size = (float(np.linalg.norm(c.corners[0] - c.corners[1])),
                float(np.linalg.norm(c.corners[1] - c.corners[2])))
        if any(np.linalg.norm(centre - o) < near * min(size[0], s_[0])
               and all(abs(a - b) < near * max(a, b) for a, b in zip(size, s_)) for o, s_ in zip(centres, sizes)):
            continue
        kept.append(c)
        centres.append(centre)
        sizes.append(size)
    return kept


def _faces_from_straights(marks: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
                          lines: list[tuple[_Line, np.ndarray]], chosen: list[_Candidate], spots: np.ndarray,
                          lab: np.ndarray, profile: Profile, judge, ref_size: float | None) -> list[_Candidate]:
    """A second look where the faces ``chosen`` leave room: straight runs inside the marks that gave no line
    (``marks``: per thin-line mask its labels, the marks' rows from ``_line_candidates`` and the ink beside
    them), such as a divider joined to a seam or to a tile's edge, fitted as dividers if about as long as the
    chosen faces' dividers. A seam between two tiles is such a run too, so these faces never displace a
    chosen one."""
    width = float(np.median([min(np.linalg.norm(c.corners[0] - c.corners[1]),
                                 np.linalg.norm(c.corners[1] - c.corners[2])) for c in chosen]))
    max_len = profile.divider_max_len * min(spots.shape)
    straights = []
    for labels, rest, ink in marks:
        big = rest[np.maximum(rest[:, 2], rest[:, 3]) >= profile.straight_span_min * width / np.sqrt(2)]
        for x, y, w, h, i in big:
            straights += [(ln, ink) for ln in _straight_parts((labels[y:y + h, x:x + w] == i).astype(np.uint8),
                                                               (x, y), i, profile, max_len)]
    runs = [(ln, ink) for ln, ink in straights
            if profile.straight_span_min * width <= ln.length <= profile.straight_span_max * width
            and not any(cv2.pointPolygonTest(c.corners.astype(np.float32), (float(ln.center[0]), float(ln.center[1])),
                                             False) >= 0 for c in chosen)
            and (not profile.straight_both_marked or _pips_both_sides(spots, ln, width))]
    runs = _distinct_lines(lines + runs, profile)[len(lines):] if runs else []
    if not runs:
        return []
    seams = _seams_in_line([ln for ln, _ in runs], profile)
    cands = [c for (ln, ink), at in zip(runs, seams) for c in _fits(ln, ink, spots, lab, profile, at)
             if _taper(c.corners) <= profile.straight_max_taper]
    # a face with a blank half is too often half a tile and the ground or a neighbour's blank end
    cands, strong = _judged(_dedupe(cands, profile), judge, both_marked=profile.straight_both_marked)
    if ref_size is None and strong:
        ref_size = float(np.median(list(strong.values())))
    cands = [c for c in _above_floor(cands, ref_size, profile)
             if not any(_overlap(c, o) > _SELECT_OVERLAP for o in chosen)]
    return _select(cands, profile, ref_size)


def _pips_both_sides(spots: np.ndarray, line: _Line, width: float) -> bool:
    """Whether pip-like marks lie on both sides of ``line`` within a tile's half of ``width``."""
    normal = np.array([-line.along[1], line.along[0]])
    grid = np.linspace(-0.4, 0.4, 7) * width
    depth = np.linspace(0.1, 0.9, 7) * width
    h, w = spots.shape
    for sign in (1.0, -1.0):
        pts = line.center + grid[:, None, None] * line.along + sign * depth[None, :, None] * normal
        pts = pts.reshape(-1, 2).round().astype(int)
        ok = (pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)
        if not spots[pts[ok, 1], pts[ok, 0]].any():
            return False
    return True


def _taper(quad: np.ndarray) -> float:
    """How many times longer a quadrilateral's longer side is than the side across from it, at most."""
    e = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    return float(max(max(e[0], e[2]) / max(min(e[0], e[2]), 1e-6), max(e[1], e[3]) / max(min(e[1], e[3]), 1e-6)))


def _judged(cands: list[_Candidate], judge, both_marked: bool = False) -> tuple[list[_Candidate], dict[int, float]]:
    """The candidates the judge keeps (``both_marked``: only those it finds marked on each half), their scores
    joined with its verdict; and per divider the size of its smallest clear face."""
    if judge is None:
        return cands, {}
    judged, strong = [], {}
    for c in cands:
        verdict = judge(c.corners)
        if verdict is not None and (verdict[2] or c.line.label >= 0) and (verdict[3] or not both_marked):
            c.score = 0.5 * c.score + 0.5 * float(verdict[0])
            judged.append(c)
            if verdict[1]:  # per divider its smallest clear face: the others may run on over a neighbour
                key = id(c.line)
                strong[key] = min(strong.get(key, np.inf), _size(c))
    return judged, strong


def _above_floor(cands: list[_Candidate], ref_size: float | None, profile: Profile) -> list[_Candidate]:
    """Without the faces far smaller than the clear tiles: a mark on a tile or on the ground."""
    if ref_size is None:
        return cands
    return [c for c in cands if _size(c) >= profile.min_relative_size * ref_size]


_SELECT_OVERLAP = 0.25  # faces overlapping more than this (of the smaller) cannot both be tiles


def _select(cands: list[_Candidate], profile: Profile, ref_size: float | None = None,
            max_overlap: float = _SELECT_OVERLAP) -> list[_Candidate]:
    """The largest (then best-scoring) set of candidates that do not overlap.

    "Largest" counts faces, a face much smaller than the largest face it overlaps (at most ``ref_size``,
    the size of a clear tile) counting as the square of its size relative to ``profile.select_full_size``
    of that: two half-size faces found inside one tile do not outweigh the tile.
    """
    cands = _dedupe(cands, profile)
    n = len(cands)
    sizes = [_size(c) for c in cands]
    clash = [[False] * n for _ in range(n)]
    lo = np.array([c.corners.min(axis=0) for c in cands]).reshape(-1, 2)
    hi = np.array([c.corners.max(axis=0) for c in cands]).reshape(-1, 2)
    near = ((lo[:, None, 0] <= hi[None, :, 0]) & (lo[None, :, 0] <= hi[:, None, 0])
            & (lo[:, None, 1] <= hi[None, :, 1]) & (lo[None, :, 1] <= hi[:, None, 1]))
    for i, j in zip(*np.nonzero(np.triu(near, 1))):  # faces whose boxes do not meet cannot clash
        inside = any(cv2.pointPolygonTest(cands[a].corners.astype(np.float32),
                                          (float(cands[b].line.center[0]), float(cands[b].line.center[1])),
                                          False) >= 0 for a, b in ((i, j), (j, i)))
        if inside or _overlap(cands[i], cands[j]) > max_overlap:
            clash[i][j] = clash[j][i] = True
    # a face counts fully unless it is much smaller than the largest face it clashes with (or, with
    # ref_size, than a clear tile): then as the square of its relative size
    ref = [max([sizes[k]] + [sizes[j] for j in range(n) if clash[k][j]]) for k in range(n)]
    if ref_size:
        ref = [min(r, ref_size) for r in ref]
    # ... and, so that two doubtful faces do not outweigh one clear face they both overlap, as its score
    # to the power select_score_power
    weights = [min(1.0, size / (profile.select_full_size * r)) ** 4 * c.score ** profile.select_score_power
               for size, r, c in zip(sizes, ref, cands)]
    chosen: list[int] = []
    seen = [False] * n
    for start in range(n):
        if seen[start]:
            continue
        group, stack = [], [start]
        seen[start] = True
        while stack:
            k = stack.pop()
            group.append(k)
            for j in range(n):
                if clash[k][j] and not seen[j]:
                    seen[j] = True
                    stack.append(j)
        if len(group) == 1:
            chosen += group
            continue
        best = _max_independent(group, clash, [c.score for c in cands], weights)
        if best is None:  # too tangled to search: greedy by score
            best = []
            for k in sorted(group, key=lambda k: -cands[k].score * weights[k]):
                if not any(clash[k][c] for c in best):
                    best.append(k)
        chosen += best
    return [cands[k] for k in sorted(chosen)]


def _logo_fits(lab: np.ndarray, inks: list[np.ndarray], spots: np.ndarray, profile: Profile,
               rings: list[tuple[np.ndarray, float, int]]) -> list[_Candidate]:
    """Faces of the logo tile, fitted as from a divider around a stand-in for one (``logo_axes``: where its
    word mark says the tile lies); the logo's own marks read as face."""
    out = []
    h, w = spots.shape
    for ax in logo_axes(inks, profile, rings):
        r = int(ax.diameter) + 2
        x0, y0 = int(max(0, ax.emblem[0] - r)), int(max(0, ax.emblem[1] - r))
        colour = emblem_face(lab[y0:y0 + 2 * r, x0:x0 + 2 * r], inks[ax.polarity][y0:y0 + 2 * r, x0:x0 + 2 * r],
                             ax.emblem - [x0, y0], ax.diameter)
        if colour is None:
            continue
        as_face = spots.copy()
        mx, my, marks = ax.marks
        as_face[my:my + marks.shape[0], mx:mx + marks.shape[1]] |= marks
        line = _Line(-1, ax.centre, ax.across, ax.span, 1.0, (0, 0, w, h))
        out += _fits(line, inks[ax.polarity] | spots, as_face, lab, profile, colour=colour)
    return out


def find_faces(work_bgr: np.ndarray, profile: Profile, *, scale: float = 1.0,
               judge: Callable[[np.ndarray], tuple[float, bool, bool, bool] | None] | None = None) -> FaceSearch:
    """Every tile face on ``work_bgr`` (BGR uint8, already reduced by ``scale``).

    ``judge``, if given, is asked about each candidate face before overlapping ones are settled: it gets the
    corners (working-image xy) and returns None for "no tile" (say, a face with nothing on it) or how
    tile-like its contents are (0..1, joins the candidate's score), whether it is clearly a tile (its
    size then sets the smallest size a face may have), whether it bears any mark (a pip or the logo: a
    face found without a divider and with nothing on it is only a pale patch of something) and whether each
    half bears one, with no more pips than the set's halves hold.
    """
    gray = cv2.cvtColor(work_bgr, cv2.COLOR_BGR2GRAY)
    lab = cv2.cvtColor(work_bgr, cv2.COLOR_BGR2LAB)
    masks = ink_masks(gray, profile)
    n_primary = 2 if profile.ink_polarity == "both" else 1
    found_by_mask, spots = [], np.zeros(gray.shape, bool)
    for k, mask in enumerate(masks):
        labels, found, _ = _line_candidates(mask, profile)
        primary = masks[k % n_primary]  # pips and side samples use the first contrast level's ink
        found_by_mask.append((primary, found))
        if k < n_primary:
            spots |= _spots(mask, labels, profile)
    lines, marks = [], []
    for mask, found in found_by_mask:
        if found:
            with_spots = mask | spots
            lines += [(ln, with_spots) for ln in found]
    # the line mask is also the ink beside it (pips included); only its marks are searched again for straight
    # runs: a divider is a thin line, and the wide-window ink's marks hold too many runs (grain, ground)
    for mask in line_masks(gray, profile):
        labels, found, rest = _line_candidates(mask, profile)
        if found or len(rest):
            with_spots = mask | spots
            lines += [(ln, with_spots) for ln in found]
            marks.append((labels, rest, with_spots))
    lines = _distinct_lines(lines, profile)
    seams = _seams_in_line([ln for ln, _ in lines], profile)
    fitted = [_fits(ln, ink, spots, lab, profile, at) for (ln, ink), at in zip(lines, seams)]
    cands = [c for found in fitted for c in found]
    cands += _extended_fits(gray, lines, fitted, spots, lab, profile)
    cands += [_region_candidate(q, gray.shape, profile)
              for region in face_regions(lab, masks[:n_primary], profile) for q in _region_readings(region, profile)]
    rings = emblems(lab, masks[:n_primary], profile)  # the logo tile, its divider often absent
    cands += [_region_candidate(q, gray.shape, profile) for q in logo_faces(lab, masks[:n_primary], profile, rings)]
    cands += _logo_fits(lab, masks[:n_primary], spots, profile, rings)
    cands, strong = _judged(_dedupe(cands, profile), judge)
    ref_size = float(np.median(list(strong.values()))) if strong else None
    chosen = _select(_above_floor(cands, ref_size, profile), profile, ref_size)
    if profile.divider_straights and marks and chosen:
        chosen += _faces_from_straights(marks, lines, chosen, spots, lab, profile, judge, ref_size)
    if chosen:  # a face far smaller than the others is a mark on a tile or on the ground, not a tile
        sizes = [float(np.linalg.norm(c.corners - np.roll(c.corners, -1, axis=0), axis=1).max()) for c in chosen]
        floor = profile.min_relative_size * float(np.median(sizes))
        chosen = [c for c, size in zip(chosen, sizes) if size >= floor]
    faces = [Face(c.corners, (float(c.line.center[0]), float(c.line.center[1])), c.score, c.cut_off) for c in chosen]
    return FaceSearch(faces, scale)
