"""Draw simple synthetic domino tiles with known answers (ivory face, black pips, black divider)."""

from __future__ import annotations

import cv2
import numpy as np

# pip positions in a half, in half-widths from the half's centre (x across, y along the tile)
LAYOUTS = {
    0: [], 1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def draw_tile(img: np.ndarray, centre: tuple[float, float], angle_deg: float, width: float,
              pips: tuple[int, int], face=(200, 235, 240), ink=(20, 20, 20)) -> np.ndarray:
    """Draw an upright-rectangle tile rotated by ``angle_deg``; returns its corners (pips[0] end first)."""
    a = np.radians(angle_deg)
    along = np.array([np.cos(a), np.sin(a)])  # from the pips[0] half to the pips[1] half
    across = np.array([-along[1], along[0]])
    c = np.asarray(centre, float)

    def at(x: float, y: float) -> np.ndarray:  # x across, y along, in tile widths from the centre
        return c + (x * across + y * along) * width

    corners = np.array([at(-0.5, -1), at(0.5, -1), at(0.5, 1), at(-0.5, 1)])
    shadow = corners + np.array([3.0, 3.0])
    cv2.fillConvexPoly(img, np.round(shadow).astype(np.int32), (70, 80, 80), cv2.LINE_AA)
    cv2.fillConvexPoly(img, np.round(corners).astype(np.int32), face, cv2.LINE_AA)
    p, q = at(-0.36, 0), at(0.36, 0)
    cv2.line(img, tuple(np.round(p).astype(int)), tuple(np.round(q).astype(int)), ink,
             max(2, int(round(width * 0.05))), cv2.LINE_AA)
    for half, n in enumerate(pips):
        yc = -0.5 if half == 0 else 0.5
        for dx, dy in LAYOUTS[n]:
            centre_px = at(dx * 0.25, yc + dy * 0.25)
            cv2.circle(img, tuple(np.round(centre_px).astype(int)), max(2, int(round(width * 0.085))), ink, -1,
                       cv2.LINE_AA)
    return corners


def table(width: int = 640, height: int = 480, colour=(120, 110, 105)) -> np.ndarray:
    rng = np.random.default_rng(0)
    img = np.full((height, width, 3), colour, np.uint8)
    noise = rng.normal(0, 4, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def peaks(n: int, heat: float = 0.97, heats: tuple[float, ...] | None = None) -> tuple:
    """The reader's pip peaks of a half showing ``n`` (``LAYOUTS``, a quarter tile width apart), strongest
    first: each of heat ``heat``, or ``heats`` in turn."""
    from companion.vision.read import Peak

    heats = heats or (heat,) * n
    return tuple(sorted((Peak(h, 0.5 + 0.25 * y, 0.25 * x) for h, (x, y) in zip(heats, LAYOUTS[n])),
                        key=lambda p: -p.heat))


def read_face(quad: np.ndarray, pips: tuple[int, int], heat: float = 0.97):
    """A face the reader took surely for a whole tile through ``quad``, its halves showing ``pips`` at pip heat
    ``heat``, its corners settled."""
    from companion.vision.read import FaceReading

    return FaceReading(np.asarray(quad, np.float64), 0.99, tuple(peaks(n, heat) for n in pips), 0.0, 0.5)


def sure_table(length: float, width: float) -> list:
    """Four tiles ``length`` x ``width`` read surely far off, all along the photo's x axis: they make the table's
    plane."""
    from companion.vision.geometry import quad_of

    return [read_face(quad_of(c, 0.0, length, width), p)
            for c, p in [((200, 100), (1, 1)), ((600, 100), (2, 1)), ((1000, 100), (3, 1)), ((1000, 300), (2, 2))]]
