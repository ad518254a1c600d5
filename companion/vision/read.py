"""Read each found tile: the reader network on a crop around it, twice.

Entry points: ``read_faces(pyramid, frames, profile) -> list[FaceReading | None]``, one per frame (a
candidate's centre, axis, length and width in the photo's pixels; None for a second outline of a face),
``read_outlines(pyramid, quads, profile)`` (a face looked at through a given outline),
``read_both_ways(pyramid, faces, profile)`` (the faces read with doubt judged on a look straight and one
turned end for end) and ``count_pips(face, profile) -> Count``. The first look crops the frame as
the detector gave it; the reader marks the face's four corners and the pips. The second look crops exactly
those corners (a homography, so a face seen at a slant is read square on) and the reader marks them again:
its pips are counted there, each half on its side of the crop's middle, and its corners are the face's
outline. The four corners are chosen to make a tile's shape (nearly a parallelogram, even at a slant). It also
says whether the face is a double-blank carrying a logo (the set's profile says whether it has one).

A pip is a local peak of the reader's pip heat of at least ``profile.pip_threshold``; a half is doubtful
when a counted pip is faint or an uncounted peak is strong (its next reading is then kept too, for the set
to settle between). The reader also says whether the crop is one whole tile (``tile_score``): half a tile
and the ground beyond it, two tiles side by side or a patch of ground are not.

Conventions as in ``companion.vision``. Raises nothing: a crop beyond the photo reads as grey.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import NamedTuple

import cv2
import numpy as np

from companion.vision import geometry as geo
from companion.vision.nets import blob, network, sigmoid
from companion.vision.profile import Profile

STRIDE = 2  # the reader's maps are half the crop's size
COLOUR_SIZE = (64, 32)  # a face is sampled for its colour at this size (pixels, length and width)
MID_X = geo.CROP_W / 2
MID_Y = float(geo.CANONICAL[:, 1].mean())  # the face's long axis in the crop
FACE_BOX = geo.CANONICAL.min(axis=0).astype(int), geo.CANONICAL.max(axis=0).astype(int)  # its place in the crop
FIRST_BATCH = 8  # first looks, best candidates first: a later guess inside a face already read is skipped
# crops the reader reads at once: a batch's working memory stays in the cache (0.44 ms a crop in batches of 8,
# 0.65 in batches of 32, one thread, stop 47's machine)
READ_BATCH = 8
PAIRED_MOST = 7  # a half's pips paired one by one as mirror images, at most (the pairings grow as n!!)
BEFORE = np.array([[1, 1, 1], [1, 0, 0], [0, 0, 0]], np.uint8)  # a cell's neighbours before it, row by row
# read_both_ways' looks, each through the face's corners in this order (the face where the reader learned it, in
# the crop's middle), and the steps (rows, columns) that turn its map back: straight, turned end for end,
# mirrored across the face's long axis, mirrored and turned (flipping the straight crop instead sets the face a
# pixel off that place each way, and read so, the four looks put 21 fewer of 3,450 photos right)
BOTH_WAYS = (((0, 1, 2, 3), (1, 1)), ((2, 3, 0, 1), (-1, -1)), ((1, 0, 3, 2), (-1, 1)), ((3, 2, 1, 0), (1, -1)))


class Peak(NamedTuple):
    """A local peak of the pip heat on a face: its heat and its distance from the middle line (tile widths)."""

    heat: float
    from_middle: float
    across: float = 0.0  # its distance from the face's long axis (tile widths, signed)
    shade: float = 0.0  # how much lighter (+) or darker (-) it is than the face's wood (a fraction of white)


@dataclass(frozen=True)
class FaceReading:
    corners: np.ndarray  # (4, 2) xy in the photo, clockwise, [0]-[1] the end of the first half
    tile_score: float  # 0..1: the reader's belief that this is one whole tile
    peaks: tuple[tuple[Peak, ...], tuple[Peak, ...]]  # each half's pip peaks, strongest first
    logo_score: float = 0.0  # 0..1: the reader's belief that this is a double-blank carrying a logo
    moved: float = 0.0  # how far (crop pixels) the last look's corners lay from where that look put them
    colour: tuple[float, float, float] | None = None  # the face's median colour, CIE Lab (see ``face_colour``)
    straight: float | None = None  # read both ways (``read_both_ways``): how sure the straight look's count was


@dataclass(frozen=True)
class Count:
    pips: tuple[int, int]
    confidence: float  # 0..1: how sure the count is (its least sure half)
    others: tuple[tuple[tuple[int, int], float], ...]  # next readings, the least sure half's first


class Pyramid:
    """A photo and its halvings (by area), made as they are needed."""

    def __init__(self, image_bgr: np.ndarray, most: int = 4) -> None:
        self.levels = [image_bgr]
        self.most = most

    def level(self, k: int) -> np.ndarray:
        while len(self.levels) <= k:
            self.levels.append(cv2.resize(self.levels[-1], None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA))
        return self.levels[k]

    def crop(self, matrix: np.ndarray, length: float) -> np.ndarray:
        k = geo.source_level(length, self.most)
        while k > 0 and min(self.levels[0].shape[:2]) / 2 ** k < 16:
            k -= 1
        return geo.warp_crop(self.level(k), geo.scaled(matrix, 0.5 ** k))


def face_colour(pyramid: Pyramid, corners: np.ndarray) -> tuple[float, float, float]:
    """The median colour, as CIE L*a*b*, of the rim of the face inside ``corners``: a band from 1/25 to 1/8
    of a tile width in from its outline, clear of the photo behind it and of the pips (which may cover half
    of a face of a double-nine or double-twelve set): the wood or plastic of the tile."""
    length, width = COLOUR_SIZE
    level = geo.source_level(geo.frame_of(corners)[2] * geo.FACE_L / length, pyramid.most)
    rect = np.float32([[0, width], [0, 0], [length, 0], [length, width]])  # clockwise, [0]-[1] an end
    matrix = geo.scaled(cv2.getPerspectiveTransform(np.asarray(corners, np.float32), rect), 0.5 ** level)
    face = cv2.warpPerspective(pyramid.level(level), matrix, (length, width), flags=cv2.INTER_LINEAR)
    outer, inner = round(width / 25), round(width / 8)
    rim = np.zeros((width, length), bool)
    rim[outer:width - outer, outer:length - outer] = True
    rim[inner:width - inner, inner:length - inner] = False
    lab = cv2.cvtColor(face[rim][None].astype(np.float32) / 255.0, cv2.COLOR_BGR2LAB)[0]
    return tuple(float(v) for v in np.median(lab, axis=0))  # type: ignore[return-value]


def _run(crops: list[np.ndarray], profile: Profile) -> tuple[np.ndarray, np.ndarray]:
    net = network(profile.reader)
    maps, kinds = [], []
    for start in range(0, len(crops), READ_BATCH):
        m, k = net.run(blob(crops[start:start + READ_BATCH]), ["maps", "tile"])
        maps.append(sigmoid(m)), kinds.append(sigmoid(k))
    return np.concatenate(maps), np.concatenate(kinds)  # (n, 5, h, w) and (n, 2): a whole tile, a logo


def _highest(heats: np.ndarray) -> np.ndarray:
    """Each heat map's highest peak to a fraction of a cell, in crop pixels: (n, 2)."""
    n, h, w = heats.shape
    i, j = np.divmod(heats.reshape(n, -1).argmax(axis=1), w)
    return _refined(heats, np.arange(n), i, j)


def _refined(heats: np.ndarray, m: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """The peaks at cells ``(i, j)`` of maps ``m`` of ``heats`` to a fraction of a cell (the heat-weighted mean
    of the 5x5 cells around each), in crop pixels: (len(m), 2)."""
    _, h, w = heats.shape
    di, dj = np.mgrid[-2:3, -2:3]
    rows, cols = i[:, None, None] + di, j[:, None, None] + dj  # (len(m), 5, 5)
    inside = (rows >= 0) & (rows < h) & (cols >= 0) & (cols < w)
    weight = np.where(inside, heats[m[:, None, None], rows.clip(0, h - 1), cols.clip(0, w - 1)], 0.0)
    total = np.maximum(weight.sum(axis=(1, 2)), 1e-9)
    x = (cols * weight).sum(axis=(1, 2)) / total
    y = (rows * weight).sum(axis=(1, 2)) / total
    return np.column_stack([x, y]) * STRIDE + (STRIDE - 1) / 2


def _skew(quads: np.ndarray) -> np.ndarray:
    """How far each of ``quads`` (..., 4, 2) is from a parallelogram: the gap between the two ways of closing
    it, in widths. A tile's face is close to one even at a slant; a corner taken from a neighbouring tile is not."""
    q = np.asarray(quads, np.float64)
    end0, end1 = q[..., 0, :] - q[..., 1, :], q[..., 2, :] - q[..., 3, :]
    width = (np.linalg.norm(end0, axis=-1) + np.linalg.norm(end1, axis=-1)) / 2
    return np.linalg.norm(end0 + end1, axis=-1) / np.maximum(width, 1e-9)


def _corners(maps: np.ndarray, profile: Profile) -> np.ndarray:
    """Each crop's face's four corners in crop pixels, (n, 4, 2), from its maps (n, 5, h, w): each corner heat
    map's highest peak, unless those four are far from a parallelogram (``profile.corner_skew``: one was
    taken from a neighbouring tile); then, of the quads with one corner moved to another peak of its map, the
    one of highest heat that is not."""
    n, _, h, w = maps.shape
    best = _highest(maps[:, 1:5].reshape(n * 4, h, w)).reshape(n, 4, 2)
    skewed = np.flatnonzero(_skew(best) > profile.corner_skew)
    if len(skewed):
        best[skewed] = _straightened(maps[skewed, 1:5], best[skewed], profile)
    return best


def _straightened(heats: np.ndarray, best: np.ndarray, profile: Profile) -> np.ndarray:
    """For each crop's corner heat maps ``heats`` (k, 4, h, w) and highest peaks ``best`` (k, 4, 2): of the
    quads with one corner moved to another of the three strongest local peaks of its map (at least
    ``profile.corner_peak_floor`` of its highest), the one of highest heat (against the map's highest) within
    ``profile.corner_skew`` of a parallelogram; its ``best`` where none is. All crops at once: a call each
    would cost more than the work (a third of a photo's looks are skewed)."""
    k, _, h, w = heats.shape
    flat = np.ascontiguousarray(heats, np.float32).reshape(k * 4, h, w)  # map g: corner g % 4 of crop g // 4
    top = flat.reshape(k * 4, -1).max(axis=1)
    # the maps one under another, a row below any heat between them, dilated as one image
    stacked = np.full((k * 4, h + 1, w), -1.0, np.float32)
    stacked[:, :h] = flat
    grown = cv2.dilate(stacked.reshape(-1, w), np.ones((3, 3), np.uint8)).reshape(k * 4, h + 1, w)[:, :h]
    at = np.flatnonzero((flat >= grown) & (flat >= profile.corner_peak_floor * top[:, None, None]))
    g, i, j = np.unravel_index(at, flat.shape)
    heat = flat.reshape(-1)[at]
    order = np.lexsort((-heat, g))  # by map, each map's strongest first
    g, i, j, heat = g[order], i[order], j[order], heat[order]
    first = np.arange(len(g)) - np.searchsorted(g, g) < 3
    g, i, j, heat = g[first], i[first], j[first], heat[first]
    crop, corner = np.divmod(g, 4)
    xy = _refined(flat, g, i, j)
    quads = best[crop]  # (a copy)
    quads[np.arange(len(g)), corner] = xy
    score = np.log(np.maximum(heat, 1e-6)) - np.log(np.maximum(top[g], 1e-6))
    moved = np.abs(xy - best[crop, corner]).max(axis=1) >= STRIDE  # not the highest itself
    ok = np.flatnonzero(moved & (_skew(quads) <= profile.corner_skew))
    ok = ok[np.lexsort((-score[ok], crop[ok]))]  # by crop, each crop's best first (the first of equals)
    chosen = ok[np.r_[True, crop[ok][1:] != crop[ok][:-1]]] if len(ok) else ok
    out = best.copy()
    out[crop[chosen]] = quads[chosen]
    return out


def _inside(point: np.ndarray, quad: np.ndarray) -> bool:
    return cv2.pointPolygonTest(quad.astype(np.float32), (float(point[0]), float(point[1])), False) > 0


def _plausible(quad: np.ndarray, profile: Profile) -> bool:
    """A convex outline of about a tile's proportions."""
    if not cv2.isContourConvex(np.round(quad * 16).astype(np.int32)):
        return False
    _, _, length, width = geo.frame_of(quad)
    return width > 2 and profile.aspect_min <= length / width <= profile.aspect_max


def _shades(crop: np.ndarray | None, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """How much lighter or darker than the face's wood (the median of the face's place in the crop) the crop is
    about each point (crop pixels, a pip's middle: the mean of 5 x 5 pixels about it), as a fraction of white; 0
    without a crop."""
    if crop is None or not len(xs):
        return np.zeros(len(xs))
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    (x0, y0), (x1, y1) = FACE_BOX
    face = grey[y0:y1:2, x0:x1:2].ravel()  # (every other pixel: the same wood, a quarter of the work)
    wood = int(np.partition(face, len(face) // 2)[len(face) // 2])
    at = cv2.blur(grey, (5, 5))[np.clip(ys.astype(np.intp), 0, grey.shape[0] - 1),
                                np.clip(xs.astype(np.intp), 0, grey.shape[1] - 1)]
    return (at.astype(np.float64) - wood) / 255.0


def _peaks(heat: np.ndarray, profile: Profile, found: np.ndarray | None = None,
           crop: np.ndarray | None = None) -> tuple[tuple[Peak, ...], tuple[Peak, ...]]:
    """Each half's local peaks of a crop's pip heat, on the face (or just beyond its outline). ``found``: the
    face's corners as the reader marked them in the crop; the peaks are taken to the face's own frame
    through them, so that a look not quite square on still splits the halves at the face's middle. ``crop``:
    the crop read, for each peak's shade against the wood."""
    peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= profile.pip_floor)
    peaks &= heat > cv2.dilate(heat, BEFORE)  # two cells of a peak's equal heat are one peak (the looks' means tie)
    rows, cols = np.nonzero(peaks)
    xs, ys = cols * STRIDE + (STRIDE - 1) / 2, rows * STRIDE + (STRIDE - 1) / 2
    hot = heat[rows, cols]
    # (a shade tells only where a pip counted may be of the other shade: most faces have none)
    faint = (hot >= profile.pip_threshold) & (hot < profile.shade_sure)
    shades = _shades(crop if profile.shade_apart and faint.any() else None, xs, ys)
    if found is not None and len(xs):
        to_face = cv2.getPerspectiveTransform(found.astype(np.float32), geo.CANONICAL.astype(np.float32))
        xs, ys = geo.apply(to_face, np.column_stack([xs, ys])).T
    x0, y0 = geo.CANONICAL.min(axis=0) - profile.pip_margin * geo.FACE_W
    x1, y1 = geo.CANONICAL.max(axis=0) + profile.pip_margin * geo.FACE_W
    on_face = (xs >= x0) & (xs <= x1) & (ys >= y0) & (ys <= y1)
    halves = []
    for half in (0, 1):
        side = on_face & ((xs < MID_X) if half == 0 else (xs >= MID_X))
        found_peaks = [Peak(float(heat[r, c]), float(abs(x - MID_X) / geo.FACE_W), float((y - MID_Y) / geo.FACE_W),
                            float(shade))
                       for r, c, x, y, shade in zip(rows[side], cols[side], xs[side], ys[side], shades[side])]
        halves.append(tuple(sorted(found_peaks, key=lambda p: -p.heat)))
    return halves[0], halves[1]


def count_pips(face: FaceReading, profile: Profile) -> Count:
    """``_count`` of ``face``'s peaks (the stages ask it of the same face many times a photo)."""
    return _count(face.peaks, face.logo_score, profile)


@lru_cache(maxsize=4096)
def _count(peaks: tuple[tuple[Peak, ...], tuple[Peak, ...]], logo_score: float, profile: Profile) -> Count:
    """The pips of each half at ``profile.pip_threshold``, how sure that is, and the next readings: a half
    is doubtful when a counted pip is faint, an uncounted peak off the middle line is strong, a counted pip
    lies on the middle line, or (in a double-six set) its pips lie askew of the middle of the half. In a
    double-six set a pip that alone sets a half askew is a stray mark, not counted (``_stray``); the half is
    then as doubtful as one askew, with that pip counted, and a pip lost at its mirror, as its next readings.
    In a set with a logo, a face the reader takes for the logo tile is the double-blank: its marks are no pips.
    A fainter pip of the other shade than the face's surest is no pip either (``_unlike``), but the half is as
    doubtful as if it were a strong peak left out."""
    if profile.logo and logo_score >= profile.logo_threshold:
        return Count((0, 0), float(np.clip(2 * logo_score - 1, 0, 1)), ())
    unlike = _unlike(peaks, profile)
    counts, confs, nexts = [], [], []
    for half in peaks:
        counted = [p for p in half if p.heat >= profile.pip_threshold and p not in unlike]
        k = _stray(counted, profile) if profile.max_pips == 6 else None
        stray = k is not None
        if stray:
            counted = counted[:k] + counted[k + 1:]
        weakest = min((p.heat for p in counted), default=1.0)
        # a faint mark on the middle line is the divider, not a missed pip
        strongest = max((p.heat for p in half if (p.heat < profile.pip_threshold or p in unlike)
                         and p.from_middle >= profile.pip_mid_band), default=0.0)
        conf = float(np.clip(1.0 - 2.0 * max(1.0 - weakest, strongest), 0.0, 1.0))
        if counted:
            conf = min(conf, float(np.clip(min(p.from_middle for p in counted) / profile.pip_mid_band, 0, 1)))
        # the next reading: a pip more where a peak left out is stronger than the faintest counted is weak
        fewer, more = max(0, len(counted) - 1), len(counted) + 1
        near = [more, fewer] if 1.0 - weakest < strongest else [fewer, more]
        if stray:  # the mark a pip after all, or a pip lost where its mirror lies
            near = [more, more + 1] if more < profile.max_pips else [more]
        asymmetric = profile.max_pips == 6 and _asymmetry(counted) > profile.pip_symmetry
        if asymmetric or stray:  # a pip lost (to glare, a shadow) or a stray one: either next reading
            conf = min(conf, profile.asymmetric_confidence)
        counts.append(len(counted))
        confs.append(conf)
        nexts.append(near[:2 if asymmetric or stray else 1])
    pips = (counts[0], counts[1])
    others = [((n, pips[1]) if k == 0 else (pips[0], n), confs[k]) for k in (0, 1) if confs[k] < 1.0 for n in nexts[k]]
    others.sort(key=lambda o: o[1])
    return Count(pips, float(min(confs)), tuple(others))


def _unlike(peaks: tuple[tuple[Peak, ...], tuple[Peak, ...]], profile: Profile) -> tuple[Peak, ...]:
    """The fainter pips of ``peaks`` of the other shade than the face's surest: where at least two peaks at least
    ``profile.shade_sure`` hot all lie ``profile.shade_apart`` or more to one side of the wood's shade (lighter,
    say), the peaks hot enough to count (``profile.pip_threshold``) but below ``profile.shade_sure`` that lie
    ``profile.shade_other`` or more to the other side (darker: a knot, a shadow's edge)."""
    if not profile.shade_apart:
        return ()
    sure = [p.shade for half in peaks for p in half if p.heat >= profile.shade_sure]
    if len(sure) < 2 or not (min(sure) >= profile.shade_apart or max(sure) <= -profile.shade_apart):
        return ()
    side = 1.0 if sure[0] > 0 else -1.0
    return tuple(p for half in peaks for p in half
                 if profile.pip_threshold <= p.heat < profile.shade_sure and p.shade * side <= -profile.shade_other)


def _stray(counted: list[Peak], profile: Profile) -> int | None:
    """Which of a half's ``counted`` pips is a stray mark, or None: where the pips lie askew of the middle of the
    half, the one without which the rest lie most nearly symmetric, if they then lie symmetric
    (``profile.pip_symmetry``); a lone pip only at least ``profile.lone_pip_off`` from the middle (a one's pip
    seen through an outline a little off lies askew too). A mark on the wood, a knot or a neighbour's pip
    beside the face is read as surely as a pip at times; where a pip was lost instead, the count is wrong
    either way, and the half is in doubt either way."""
    if len(counted) == 1:
        off = float(np.hypot(counted[0].from_middle - 0.5, counted[0].across))
        return 0 if profile.lone_pip_off and off >= profile.lone_pip_off else None
    if not counted or _asymmetry(counted) <= profile.pip_symmetry:
        return None
    without = [_asymmetry(counted[:k] + counted[k + 1:]) for k in range(len(counted))]
    k = int(np.argmin(without))
    return k if without[k] <= profile.pip_symmetry else None


def _asymmetry(pips: list[Peak]) -> float:
    """How far (tile widths) the pips of a half lie from symmetric about the middle of the half: in the pairing
    of each pip with another as its mirror image that fits best, the farthest a pip's mirror image lies from
    its partner (an odd count's middle pip is its own partner). Every face of a double-six set, 1 to 6, is
    symmetric so. Past ``PAIRED_MOST`` pips (no face of the set), the farthest any pip's mirror image lies from
    the nearest pip, which is never more."""
    if not pips:
        return 0.0
    at = np.array([(p.from_middle - 0.5, p.across) for p in pips])  # from the middle of the half (a square)
    gap = np.linalg.norm(at[:, None, :] + at[None, :, :], axis=2)  # [i, j]: how far j lies from i's mirror image
    if len(pips) > PAIRED_MOST:
        return float(gap.min(axis=1).max())
    return _paired(tuple(range(len(pips))), gap)


def _paired(left: tuple[int, ...], gap: np.ndarray) -> float:
    """The least, over the pairings of the pips ``left`` (at most one alone, where their number is odd), of the
    largest ``gap`` of a pair."""
    if not left:
        return 0.0
    first, rest = left[0], left[1:]
    best = max(float(gap[first, first]), _paired(rest, gap)) if len(left) % 2 else np.inf
    for n, other in enumerate(rest):
        best = min(best, max(float(gap[first, other]), _paired(rest[:n] + rest[n + 1:], gap)))
    return best


def read_faces(pyramid: Pyramid, frames: list[tuple[np.ndarray, float, float, float]],
               profile: Profile) -> list[FaceReading | None]:
    """Read each frame ``(centre, angle, length, width)`` (photo pixels of ``pyramid``'s level 0); one
    reading per frame, in order, or None for a frame the first look took for a second outline of a face
    it was surer of (more than ``profile.same_face_overlap`` of it).

    The first look crops the frame; where the corners it finds lie within ``profile.square_on_px`` of
    where a face belongs in the crop, it saw the face square on and is the reading; so it is within
    ``profile.sure_square_on_px`` where it reads a whole tile (``profile.tile_threshold``) with its pips
    sure (``profile.doubt_below``), counted in the face's frame through those corners. The others are looked
    at again through their corners, up to ``profile.max_looks`` looks in all while the corners still move
    more than that, except a face the first look took for no tile at all (below
    ``profile.second_look_floor``).

    A frame left unread for a first look's outline that the later looks of its face moved off it (a first
    look can take in a neighbour) is read after all, unless it lies on a face read; that reading is dropped
    where it overlaps a whole face read (more than ``profile.same_face_overlap`` of the smaller: the look took
    in the neighbour again) or lies on any face read that much (a small face read as no tile, such as a sliver
    of the neighbour's end, lying partly on a whole tile does not hide the tile)."""
    out: list[FaceReading | None] = [None] * len(frames)
    _read_frames(pyramid, frames, list(range(len(frames))), profile, out)
    read = [face.corners for face in out if face is not None]
    whole = [face.corners for face in out if face is not None and face.tile_score >= profile.tile_threshold]
    orphans = [k for k in range(len(frames)) if out[k] is None and not any(_inside(frames[k][0], q) for q in read)]
    _read_frames(pyramid, frames, orphans, profile, out)
    for k in orphans:  # (its first look may take in the neighbour again; its last look tells)
        if out[k] is not None and (
                any(geo.overlap(out[k].corners, q) > profile.same_face_overlap for q in whole)
                or any(geo.inside(out[k].corners, q) > profile.same_face_overlap for q in read)):
            out[k] = None
    return out


def _read_frames(pyramid: Pyramid, frames: list[tuple[np.ndarray, float, float, float]], which: list[int],
                 profile: Profile, out: list[FaceReading | None]) -> None:
    """``read_faces`` for the frames ``which``, into ``out``."""
    first = {k: geo.frame_to_crop(*frames[k]) for k in which}
    looks: dict[int, tuple] = {}  # frame -> maps, kinds, corners in the crop, outline in the photo, plausible
    sure: list[np.ndarray] = []
    for start in range(0, len(which), FIRST_BATCH):
        batch = [k for k in which[start:start + FIRST_BATCH]
                 if not any(_inside(frames[k][0], q) for q in sure)]  # a second guess at a face already read
        if not batch:
            continue
        crops = [pyramid.crop(first[k], frames[k][2]) for k in batch]
        maps1, kinds1 = _run(crops, profile)
        for k, crop, maps, kinds, found in zip(batch, crops, maps1, kinds1, _corners(maps1, profile)):
            quad = geo.clockwise(geo.apply(np.linalg.inv(geo.as_homography(first[k])), found))
            plausible = _plausible(quad, profile)
            looks[k] = (maps, kinds, found, quad if plausible else geo.quad_of(*frames[k]), plausible, crop)
            if plausible and kinds[0] >= profile.tile_threshold:
                sure.append(quad)
    seen: list[np.ndarray] = []
    again: list[tuple[int, np.ndarray]] = []
    for k in sorted(looks, key=lambda k: -looks[k][1][0]):
        maps, (tile, logo), found, quad, plausible, crop = looks[k]
        if any(geo.overlap(quad, q) > profile.same_face_overlap for q in seen):
            continue
        seen.append(quad)
        moved = float(np.abs(found - geo.CANONICAL).max())
        if (plausible and moved <= profile.square_on_px) or tile < profile.second_look_floor:
            out[k] = FaceReading(quad, float(tile), _peaks(maps[0], profile, crop=crop), float(logo), moved)
            continue
        if plausible and moved <= profile.sure_square_on_px and tile >= profile.tile_threshold:
            face = FaceReading(quad, float(tile), _peaks(maps[0], profile, found, crop), float(logo), moved)
            if count_pips(face, profile).confidence >= profile.doubt_below:
                out[k] = face  # nearly square on and read surely: a look through its corners reads it alike
                continue
        again.append((k, quad))
    _look_again(pyramid, again, profile, out, profile.max_looks - 1)


def read_outlines(pyramid: Pyramid, quads: list[np.ndarray], profile: Profile,
                  floor: float | None = None) -> list[FaceReading]:
    """Read a face through each of ``quads`` (corners in photo pixels of ``pyramid``'s level 0): looks through
    the outline, then through the corners found, while they still move (``profile.max_looks`` - 1 looks) and
    the look is at least ``floor`` sure of a whole tile (default ``profile.second_look_floor``)."""
    out: list[FaceReading | None] = [None] * len(quads)
    _look_again(pyramid, list(enumerate(quads)), profile, out, max(profile.max_looks - 1, 1),
                profile.second_look_floor if floor is None else floor)
    return out  # type: ignore[return-value]


def _look_again(pyramid: Pyramid, again: list[tuple[int, np.ndarray]], profile: Profile,
                out: list[FaceReading | None], looks: int, floor: float = 0.0) -> None:
    """Look at each ``(k, outline)`` through the outline, and again through the corners found while they move
    more than ``profile.square_on_px`` and the look is at least ``floor`` sure of a whole tile, at most
    ``looks`` times; the last look is ``out[k]``."""
    for _ in range(looks):
        if not again:
            break
        crops = [geo.quad_to_crop(q) for _, q in again]
        seen = [pyramid.crop(m, geo.frame_of(q)[2]) for m, (_, q) in zip(crops, again)]
        maps2, kinds2 = _run(seen, profile)
        still = []
        for m, (k, q), crop, maps, (tile, logo), found in zip(crops, again, seen, maps2, kinds2,
                                                               _corners(maps2, profile)):
            corners = geo.clockwise(geo.apply(np.linalg.inv(m), found))
            plausible = _plausible(corners, profile)
            moved = float(np.abs(found - geo.CANONICAL).max())
            out[k] = FaceReading(corners if plausible else q, float(tile),
                                 _peaks(maps[0], profile, found if plausible else None, crop), float(logo), moved)
            if plausible and moved > profile.square_on_px and tile >= floor:
                still.append((k, corners))
        again = still


def read_both_ways(pyramid: Pyramid, faces: list[FaceReading], profile: Profile) -> list[FaceReading]:
    """``faces``, each face read with doubt read again through its corners, once straight and once turned end
    for end, and each of those mirrored across the face's long axis, and judged on the four looks: its pips
    counted on the mean of their pip heats (each turned back), its tile score their mean, its logo score the
    mean of the two unmirrored looks' (the reader never saw the logo's print mirrored). A stray mark or a faint
    pip that one look gets wrong, the others, seeing the face another way round, rarely get wrong the same way;
    a face of the set mirrored is a face of the set. Read with doubt: a whole face whose pips are in doubt (a
    count less sure than ``profile.doubt_below``; not the logo tile), or a face the reader is less sure is whole
    (a tile score from ``profile.shaped_tile_threshold`` up to ``profile.tile_threshold``). A face read both ways
    already is not read again."""
    which = [k for k, face in enumerate(faces) if face.straight is None and (
             profile.shaped_tile_threshold <= face.tile_score < profile.tile_threshold
             or (face.tile_score >= profile.tile_threshold
                 and not (profile.logo and face.logo_score >= profile.logo_threshold)
                 and count_pips(face, profile).confidence < profile.doubt_below))]
    if not which:
        return faces
    crops = [geo.quad_to_crop(faces[k].corners[list(order)]) for order, _ in BOTH_WAYS for k in which]
    lengths = [geo.frame_of(faces[k].corners)[2] for k in which] * len(BOTH_WAYS)
    seen = [pyramid.crop(m, length) for m, length in zip(crops, lengths)]
    maps, kinds = _run(seen, profile)
    maps, kinds = maps.reshape(len(BOTH_WAYS), len(which), *maps.shape[1:]), kinds.reshape(len(BOTH_WAYS), -1, 2)
    found = _corners(maps[0], profile)
    out = list(faces)
    for n, k in enumerate(which):
        heat = np.mean([maps[v, n, 0, ::rows, ::cols] for v, (_, (rows, cols)) in enumerate(BOTH_WAYS)], axis=0)
        corners = geo.clockwise(geo.apply(np.linalg.inv(crops[n]), found[n]))
        out[k] = replace(faces[k], tile_score=float(kinds[:, n, 0].mean()), logo_score=float(kinds[:2, n, 1].mean()),
                         peaks=_peaks(heat, profile, found[n] if _plausible(corners, profile) else None, seen[n]),
                         straight=count_pips(faces[k], profile).confidence)
    return out
