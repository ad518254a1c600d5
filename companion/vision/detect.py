"""Find where tiles lie: the detector network on the photo reduced to ``profile.detect_side`` pixels.

Entry points: ``find_candidates(image_bgr, profile, side=None, border=None, weak=None) -> list[Candidate]``, each
a tile's rough frame (centre, long axis, length, width, in ``image_bgr``'s pixels) and the detector's score, best
first; ``finer_side(candidates, image_side, profile)``, the side at which to look again when the tiles found are
small for the detector (it places small faces loosely), or None; ``busy_region(candidates, width,
height)``, where to look again; ``merged(fine, coarse)``; ``find_seen_through(image_bgr, homography, size,
profile) -> list[(outline, score)]``, the faces it sees in the photo mapped to another view (the table seen
from above), their outlines mapped back. The network marks the centre of every tile face it sees (a heat map
at a quarter of its input) and, at each centre, the face's offset, axis and size; a candidate is a local peak
of that heat. Faces cut by the photo's border
are found too when their centre is in the photo: telling them apart is the reader's stage. One with its
centre beyond the border leaves only a weak peak at the border (``border``, kept apart).

Conventions as in ``companion.vision``: BGR uint8, xy pixels. Raises nothing for an empty photo (no
candidates).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.geometry import apply, quad_of
from companion.vision.nets import blob, network, sigmoid
from companion.vision.profile import Profile

STRIDE = 4  # the heat map is a quarter of the network's input
SIZE_UNIT = 32.0  # sizes come as log(pixels / SIZE_UNIT)
PAD = 32  # the network's input is a multiple of this


@dataclass(frozen=True)
class Candidate:
    centre: np.ndarray  # (2,) xy
    angle: float  # long axis, radians (either direction)
    length: float
    width: float
    score: float  # the detector's heat at the centre, 0..1


def _network_input(image_bgr: np.ndarray, s: float) -> np.ndarray:
    h, w = image_bgr.shape[:2]
    nw, nh = max(1, round(w * s)), max(1, round(h * s))
    small = cv2.resize(image_bgr, (nw, nh), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    ph, pw = -(-nh // PAD) * PAD, -(-nw // PAD) * PAD
    if (ph, pw) != (nh, nw):  # grey beyond the photo, as in training
        small = cv2.copyMakeBorder(small, 0, ph - nh, 0, pw - nw, cv2.BORDER_CONSTANT, value=(127, 127, 127))
    return small


def find_candidates(image_bgr: np.ndarray, profile: Profile, side: int | None = None,
                    region: tuple[int, int, int, int] | None = None,
                    border: list[Candidate] | None = None, weak: list[Candidate] | None = None) -> list[Candidate]:
    """Every place the detector sees a tile face, best first, with the photo scaled to ``side`` pixels on its
    longer side (default ``profile.detect_side``), looking only inside ``region`` (x0, y0, x1, y1) if given.
    Into ``border``, if given, go the places along the photo's border where its heat has a peak below
    ``profile.detect_threshold`` but at least ``profile.border_heat``: a face cut off by the border with its
    centre beyond it, which the detector was not taught to mark, shows so. Into ``weak``, if given, go the
    other places where it has such a peak of at least ``profile.weak_heat``."""
    s = (side or profile.detect_side) / max(image_bgr.shape[:2])
    x0, y0, x1, y1 = region or (0, 0, image_bgr.shape[1], image_bgr.shape[0])
    small = _network_input(image_bgr[y0:y1, x0:x1], s)
    maps = network(profile.detector).run(blob([small]))[0][0]
    heat = sigmoid(maps[0])
    peak = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    found = _candidates(maps, np.nonzero((heat >= peak) & (heat >= profile.detect_threshold)), heat, s, x0, y0)
    rows, cols = -(-round((y1 - y0) * s) // STRIDE), -(-round((x1 - x0) * s) // STRIDE)  # the photo's cells
    low = (heat >= peak) & (heat < profile.detect_threshold)
    if border is not None and profile.border_heat:
        edge = np.zeros_like(heat, bool)
        edge[:rows, :cols] = True
        edge[1:rows - 1, 1:cols - 1] = False
        border.extend(_candidates(maps, np.nonzero(low & edge & (heat >= profile.border_heat)), heat, s, x0, y0))
    if weak is not None and profile.weak_heat:
        inner = np.zeros_like(heat, bool)
        inner[1:rows - 1, 1:cols - 1] = True
        weak.extend(_candidates(maps, np.nonzero(low & inner & (heat >= profile.weak_heat)), heat, s, x0, y0))
    return found


def find_seen_through(image_bgr: np.ndarray, homography: np.ndarray, size: tuple[int, int],
                      profile: Profile) -> list[tuple[np.ndarray, float]]:
    """Every place the detector sees a tile face in ``image_bgr`` mapped by ``homography`` to a view of ``size``
    (width, height) pixels, as it is there (no scaling): each face's outline mapped back to ``image_bgr``'s
    pixels, and the detector's score, best first. (Grey where the view reaches past the photo, as in training.)"""
    view = cv2.warpPerspective(image_bgr, homography, size, flags=cv2.INTER_LINEAR, borderValue=(127, 127, 127))
    back = np.linalg.inv(homography)
    return [(apply(back, quad_of(c.centre, c.angle, c.length, c.width)), c.score)
            for c in find_candidates(view, profile, side=max(size))]


def _candidates(maps: np.ndarray, cells: tuple[np.ndarray, np.ndarray], heat: np.ndarray, s: float, x0: int,
                y0: int) -> list[Candidate]:
    """The frames the detector's ``maps`` give at ``cells`` (rows, columns), best first."""
    found = []
    for i, j in zip(*cells):
        cx = (j * STRIDE + (STRIDE - 1) / 2 + maps[1, i, j] * STRIDE) / s + x0
        cy = (i * STRIDE + (STRIDE - 1) / 2 + maps[2, i, j] * STRIDE) / s + y0
        angle = 0.5 * math.atan2(float(maps[4, i, j]), float(maps[3, i, j]))
        length = SIZE_UNIT * math.exp(float(np.clip(maps[5, i, j], -5, 5))) / s
        width = SIZE_UNIT * math.exp(float(np.clip(maps[6, i, j], -5, 5))) / s
        found.append(Candidate(np.array([cx, cy]), angle, length, width, float(heat[i, j])))
    found.sort(key=lambda c: -c.score)
    return found


def busy_region(candidates: list[Candidate], width: int, height: int) -> tuple[int, int, int, int] | None:
    """The part of a ``width`` x ``height`` photo where the candidates lie, with one and a half of their
    longest around it (x0, y0, x1, y1), or None when that is most of the photo anyway."""
    if not candidates:
        return None
    margin = 1.5 * max(c.length for c in candidates)
    xy = np.array([c.centre for c in candidates])
    x0, y0 = np.floor(np.maximum(xy.min(axis=0) - margin, 0)).astype(int)
    x1, y1 = np.ceil(np.minimum(xy.max(axis=0) + margin, [width, height])).astype(int)
    if (x1 - x0) * (y1 - y0) > 0.7 * width * height:
        return None
    return int(x0), int(y0), int(x1), int(y1)


def finer_side(candidates: list[Candidate], image_side: int, profile: Profile) -> int | None:
    """The longer side (pixels, a multiple of ``PAD``) at which the detector should look again so that the
    smaller tiles it found (their lower quartile) are about ``profile.detect_tile_px`` long, at most
    ``profile.detect_side_most``; None when they are long enough already or there are none."""
    s = profile.detect_side / image_side
    sure = [c.length * s for c in candidates if c.score >= profile.detect_sure]
    if not sure:
        return None
    small = float(np.percentile(sure, 25))
    side = min(profile.detect_side * profile.detect_tile_px / small, profile.detect_side_most)
    if side < profile.detect_side * profile.detect_finer_gain:
        return None
    return int(-(-side // PAD) * PAD)


def merged(fine: list[Candidate], coarse: list[Candidate]) -> list[Candidate]:
    """The finer look's candidates, and the coarser look's whose centre lies on none of them (a face too
    large for the finer look), best first."""
    quads = [quad_of(c.centre, c.angle, c.length, c.width).astype(np.float32) for c in fine]
    extra = [c for c in coarse
             if not any(cv2.pointPolygonTest(q, (float(c.centre[0]), float(c.centre[1])), False) >= 0 for q in quads)]
    return sorted(fine + extra, key=lambda c: -c.score)
