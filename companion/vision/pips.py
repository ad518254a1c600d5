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

import cv2
import numpy as np

from companion.vision.profile import Profile


@dataclass(frozen=True)
class HalfReading:
    pips: int
    logo: bool
    confidence: float  # 0..1


@dataclass(frozen=True)
class FaceReading:
    halves: tuple[HalfReading, HalfReading]


def rectify(image_bgr: np.ndarray, corners: np.ndarray, profile: Profile) -> np.ndarray:
    """The face inside ``corners`` warped to an upright ``rect_width`` x ``2 * rect_width`` image."""
    w = profile.rect_width
    dst = np.array([[0, 0], [w, 0], [w, 2 * w], [0, 2 * w]], np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)
    return cv2.warpPerspective(image_bgr, m, (w, 2 * w), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def _lab_distance(lab: np.ndarray, ref: np.ndarray) -> np.ndarray:
    d = lab.astype(np.float32) - ref.astype(np.float32)
    return np.sqrt(0.25 * d[..., 0] ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)


def _read_half(ink: np.ndarray, profile: Profile) -> HalfReading:
    w = profile.rect_width
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    pips, odd_area, logo = [], 0.0, False
    unit = float(w * w)
    for i in range(1, n):
        area = stats[i, 4] / unit
        if area < profile.pip_area_min * 0.35:
            continue  # specks
        comp = (labels == i).astype(np.uint8)
        contours, _ = cv2.findContours(comp, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        peri = max(1.0, cv2.arcLength(contours[0], True))
        circ = 4 * np.pi * stats[i, 4] / peri ** 2
        if profile.pip_area_min <= area <= profile.pip_area_max and circ >= profile.pip_min_circularity:
            pips.append(area)
        elif area >= profile.logo_min_area:
            logo = True
        else:
            odd_area += area
    if logo:
        return HalfReading(0, True, 0.9 if len(pips) <= 2 else 0.7)
    if pips:
        med = float(np.median(pips))
        kept = [a for a in pips if med / profile.pip_size_ratio <= a <= med * profile.pip_size_ratio]
        odd_area += sum(pips) - sum(kept)
        pips = kept
    conf = 1.0 - min(0.6, odd_area / max(profile.pip_area_min, 1e-6) * 0.15)
    return HalfReading(len(pips), False, float(conf))


def read_face(face_bgr: np.ndarray, profile: Profile) -> FaceReading:
    """Read both halves of a rectified face (half 0 on top)."""
    w = profile.rect_width
    lab = cv2.cvtColor(face_bgr, cv2.COLOR_BGR2LAB)
    m = max(1, int(round(profile.face_margin * w)))
    inner = lab[m:2 * w - m, m:w - m].reshape(-1, 3)
    face = np.median(inner, axis=0)
    dist = _lab_distance(lab, face)
    spread = float(np.percentile(dist[m:2 * w - m, m:w - m], 30))  # pips and shadows take much of a face
    thr = max(profile.pip_contrast, profile.pip_contrast_spread * spread)
    ink = (dist > thr).astype(np.uint8)
    ink = cv2.morphologyEx(ink, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    band = int(round(profile.divider_band * w))
    valid = np.zeros_like(ink)
    valid[m:w - band, m:w - m] = 1
    valid[w + band:2 * w - m, m:w - m] = 1
    ink &= valid
    top = _read_half(ink[:w], profile)
    bottom = _read_half(ink[w:], profile)
    return FaceReading((top, bottom))
