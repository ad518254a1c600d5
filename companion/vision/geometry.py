"""The geometry of a tile's face in a photo, shared by the recognizer and the training of its networks.

A face is a quadrilateral of four corners (xy), clockwise as seen in the photo (y runs down), with
``corners[0]-corners[1]`` the short edge at one end. Its *frame* is ``(centre, angle, length, width)``: the
centre (where the diagonals cross, the true centre under perspective), the direction of its long axis from
the ``corners[0]`` end to the other (radians), and its mean length and width in pixels.

The reader sees a face through a *crop*: ``CROP_W x CROP_H`` pixels in which the face, if the crop is right,
fills ``CANONICAL`` (its half at the ``corners[0]`` end on the left, its divider at ``x = CROP_W / 2``).
``frame_to_crop`` maps a frame onto the crop by a rotation and scale (a first look, from the detector's
estimate); ``quad_to_crop`` maps four corners onto it by a homography (the second look, from the corners
the first found).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

CROP_W, CROP_H = 128, 72
FACE_L, FACE_W = 96.0, 48.0  # the face's length and width in the crop
CANONICAL = np.array([[16.0, 60.0], [16.0, 12.0], [112.0, 12.0], [112.0, 60.0]])  # clockwise, [0]-[1] the left end


def clockwise(corners: np.ndarray) -> np.ndarray:
    """The same four corners, reordered if need be to run clockwise in the photo (keeping ``[0]-[1]`` an end)."""
    q = np.asarray(corners, np.float64)
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = q.tolist()  # (plain floats: called thousands of times a photo)
    twice_area = (x0 * y1 - x1 * y0) + (x1 * y2 - x2 * y1) + (x2 * y3 - x3 * y2) + (x3 * y0 - x0 * y3)
    return q if twice_area >= 0 else q[[1, 0, 3, 2]]


def centre_of(corners: np.ndarray) -> np.ndarray:
    """Where the diagonals cross (the mean of the corners if they are degenerate)."""
    q = np.asarray(corners, np.float64)
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = q.tolist()
    d1x, d1y, d2x, d2y = x2 - x0, y2 - y0, x3 - x1, y3 - y1
    den = d1x * d2y - d1y * d2x
    if abs(den) < 1e-9:
        return q.mean(axis=0)
    t = ((x1 - x0) * d2y - (y1 - y0) * d2x) / den
    return np.array([x0 + t * d1x, y0 + t * d1y])


def frame_of(corners: np.ndarray) -> tuple[np.ndarray, float, float, float]:
    """``(centre, angle, length, width)`` of a face given by its corners."""
    q = np.asarray(corners, np.float64)
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = q.tolist()
    ax, ay = (x2 + x3) / 2 - (x0 + x1) / 2, (y2 + y3) / 2 - (y0 + y1) / 2  # from one end's middle to the other's
    width = (math.hypot(x0 - x1, y0 - y1) + math.hypot(x2 - x3, y2 - y3)) / 2
    return centre_of(q), math.atan2(ay, ax), math.hypot(ax, ay), width


def quad_of(centre, angle: float, length: float, width: float) -> np.ndarray:
    """The rectangle of a frame, its corners clockwise in the photo, ``[0]-[1]`` at the end behind the centre."""
    u = np.array([math.cos(angle), math.sin(angle)])
    v = np.array([-u[1], u[0]])  # the axis turned a quarter clockwise in the photo (y down)
    c = np.asarray(centre, np.float64)
    a, b = u * length / 2, v * width / 2
    return np.array([c - a + b, c - a - b, c + a - b, c + a + b])


def frame_to_crop(centre, angle: float, length: float, width: float) -> np.ndarray:
    """2x3 affine matrix from photo xy to crop xy for a face with this frame."""
    s_l, s_w = FACE_L / max(length, 1e-6), FACE_W / max(width, 1e-6)
    c, s = math.cos(angle), math.sin(angle)
    # rotate the axis onto +x, scale along and across, move the centre to the crop's centre
    rot = np.array([[c, s], [-s, c]])
    m = np.diag([s_l, s_w]) @ rot
    t = np.array([CROP_W / 2, CROP_H / 2]) - m @ np.asarray(centre, np.float64)
    return np.column_stack([m, t])


def quad_to_crop(corners: np.ndarray) -> np.ndarray:
    """3x3 homography from photo xy to crop xy that puts ``corners`` (clockwise) on ``CANONICAL``."""
    return cv2.getPerspectiveTransform(np.asarray(corners, np.float32), CANONICAL.astype(np.float32)).astype(np.float64)


def as_homography(matrix: np.ndarray) -> np.ndarray:
    m = np.asarray(matrix, np.float64)
    return m if m.shape == (3, 3) else np.vstack([m, [0.0, 0.0, 1.0]])


def apply(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Points (n, 2) mapped by a 2x3 affine or 3x3 homography."""
    p = np.asarray(points, np.float64).reshape(-1, 2)
    h = as_homography(matrix)
    q = np.column_stack([p, np.ones(len(p))]) @ h.T
    return q[:, :2] / q[:, 2:3]


def warp_crop(image: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """The crop (``CROP_H x CROP_W``) of ``image`` under a photo-to-crop affine or homography.

    Where the crop reaches past the photo it is mid grey, which the networks learned as "no photo here".
    The caller picks a source image no more than about twice the crop's scale (see ``source_level``), so
    bilinear sampling does not alias."""
    m = np.asarray(matrix, np.float64)
    if m.shape == (2, 3):
        return cv2.warpAffine(image, m, (CROP_W, CROP_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                              borderValue=(127, 127, 127))
    return cv2.warpPerspective(image, m, (CROP_W, CROP_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                               borderValue=(127, 127, 127))


def source_level(length: float, most: int) -> int:
    """How many times (0 .. most) to halve the photo before cropping a face ``length`` pixels long, so that
    the crop shrinks it by less than two."""
    level = 0
    while level < most and length / 2 ** (level + 1) >= FACE_L:
        level += 1
    return level


def overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Area shared by two convex outlines, as a fraction of the smaller."""
    a32, b32 = np.asarray(a, np.float32), np.asarray(b, np.float32)
    area, _ = cv2.intersectConvexConvex(a32, b32)
    smaller = min(cv2.contourArea(a32), cv2.contourArea(b32))
    return float(area) / smaller if smaller > 0 else 0.0


def inside(part: np.ndarray, whole: np.ndarray) -> float:
    """How much of convex outline ``part`` lies within convex outline ``whole``, as a fraction of ``part``."""
    p32, w32 = np.asarray(part, np.float32), np.asarray(whole, np.float32)
    area, _ = cv2.intersectConvexConvex(p32, w32)
    own = cv2.contourArea(p32)
    return float(area) / own if own > 0 else 0.0


def iou(a: np.ndarray, b: np.ndarray) -> float:
    """Area shared by two convex outlines, as a fraction of the area they cover together."""
    a32, b32 = np.asarray(a, np.float32), np.asarray(b, np.float32)
    inter, _ = cv2.intersectConvexConvex(a32, b32)
    union = cv2.contourArea(a32) + cv2.contourArea(b32) - inter
    return float(inter / union) if union > 0 else 0.0


def scaled(matrix: np.ndarray, factor: float) -> np.ndarray:
    """A photo-to-crop matrix for the photo scaled by ``factor`` (a pyramid level: 0.5, 0.25, ...), pixel
    centres kept in place as a reduction by area does."""
    off = 0.5 / factor - 0.5
    to_photo = np.array([[1.0 / factor, 0.0, off], [0.0, 1.0 / factor, off], [0.0, 0.0, 1.0]])
    h = as_homography(matrix) @ to_photo
    return h[:2] if np.asarray(matrix).shape == (2, 3) else h
