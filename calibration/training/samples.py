"""Training samples for the two networks, made from the photos of ``dataset.py`` (numpy and OpenCV only).

``detector_sample(image, label, rng)`` and ``reader_sample(pool_item, rng)`` return an input image (HWC BGR
uint8) and its targets. The photo is changed as a camera, a phone and another set would change it
(``jitter_colour``: exposure, contrast, white balance, colours swapped, grey, blur, noise, JPEG), so that
the networks learn dominoes rather than the generator's palette.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.vision import geometry as geo
from companion.vision.detect import SIZE_UNIT  # (the app's, which reads the detector's sizes)

DETECT_CROP = 384
DETECT_SIDE = 768  # the detector's first look: the photo this many pixels on its longer side (Profile.detect_side)
TILE_PX = (32.0, 110.0)  # its second look: the smaller tiles about Profile.detect_tile_px long, give or take
STRIDE = 4  # the detector's maps are a quarter of its input
READ_STRIDE = 2
PIP_SIGMA = 1.5  # crop pixels
CORNER_SIGMA = 2.0


def jitter_colour(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    x = img.astype(np.float32) / 255.0
    x = x * rng.uniform(0.85, 1.15, 3).astype(np.float32)  # white balance
    if rng.random() < 0.25:
        x = x[..., rng.permutation(3)]
    if rng.random() < 0.1:
        x[:] = x.mean(axis=2, keepdims=True)
    x = x * np.float32(rng.uniform(0.55, 1.4))
    m = x.mean()
    x = (x - m) * np.float32(rng.uniform(0.7, 1.3)) + m
    x = np.clip(x, 0, 1) ** np.float32(rng.uniform(0.7, 1.4))
    if rng.random() < 0.3:
        x = cv2.GaussianBlur(x, (0, 0), float(rng.uniform(0.3, 1.3)))
    if rng.random() < 0.3:
        x = x + rng.normal(0, rng.uniform(0.005, 0.035), x.shape).astype(np.float32)
    out = np.clip(x * 255 + 0.5, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 92))])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def _tiles(label: dict, scale: float) -> list[dict]:
    return [{"corners": geo.clockwise(np.asarray(t["corners"], float) * scale), "partial": t["partial"]}
            for t in label["tiles"]]


def detector_sample(image: np.ndarray, label: dict, rng: np.random.Generator,
                    size: int = DETECT_CROP) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(crop, heat (S, S), regression (7, S, S) with its weight in [6])`` for ``S = size / STRIDE``, from the
    reader's photo (``NNNNNNNN.jpg``) scaled as the detector sees it: as its first look does, the photo about
    ``DETECT_SIDE`` on its longer side, and most often enlarged as its second look does, the smaller tiles
    (lower quartile) about ``TILE_PX`` long.

    regression rows: dx, dy (cells), cos 2a, sin 2a, log(length / SIZE_UNIT), log(width / SIZE_UNIT), weight."""
    tiles = _tiles(label, 1.0)
    lengths = [geo.frame_of(t["corners"])[2] for t in tiles if not t["partial"]]
    s = DETECT_SIDE / max(image.shape[:2]) * math.exp(rng.uniform(math.log(0.65), math.log(1.45)))
    if lengths and rng.random() < 0.7:  # (the second look only ever enlarges)
        tile_px = math.exp(rng.uniform(math.log(TILE_PX[0]), math.log(TILE_PX[1])))
        s = max(s, tile_px / float(np.percentile(lengths, 25)))
    if s < 0.9:  # shrink by area first: a warp alone would alias
        shrunk = cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
        tiles = _tiles(label, shrunk.shape[1] / image.shape[1])
        image, s = shrunk, 1.0
    turn = int(rng.integers(0, 4)) * math.pi / 2 + (float(rng.normal(0, 0.2)) if rng.random() < 0.3 else 0.0)
    flip = rng.random() < 0.5
    h, w = image.shape[:2]
    if tiles and rng.random() < 0.85:
        focus = geo.centre_of(tiles[int(rng.integers(0, len(tiles)))]["corners"])
        focus = focus + rng.normal(0, 0.25 * size / s, 2)
    else:
        focus = np.array([rng.uniform(0, w), rng.uniform(0, h)])
    c, sn = math.cos(turn), math.sin(turn)
    m = s * np.array([[c, -sn], [sn, c]])
    if flip:
        m = m @ np.diag([-1.0, 1.0])
    t = np.array([size / 2, size / 2]) - m @ focus
    affine = np.column_stack([m, t])
    crop = cv2.warpAffine(image, affine, (size, size), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=(127, 127, 127))
    n = size // STRIDE
    heat = np.zeros((n, n), np.float32)
    reg = np.zeros((7, n, n), np.float32)
    owner = np.zeros((n, n), np.float32)
    cells = np.arange(n, dtype=np.float32) * STRIDE + (STRIDE - 1) / 2
    gx, gy = np.meshgrid(cells, cells)
    for tile in tiles:
        q = geo.clockwise(geo.apply(affine, tile["corners"]))
        centre, angle, length, width = geo.frame_of(q)
        if not (0 <= centre[0] < size and 0 <= centre[1] < size) or width < 3:
            continue
        u = np.array([math.cos(angle), math.sin(angle)])
        dx, dy = gx - centre[0], gy - centre[1]
        along, across = dx * u[0] + dy * u[1], -dx * u[1] + dy * u[0]
        sa, sc = max(2.4, 0.1 * length), max(2.4, 0.1 * width)
        g = np.exp(-0.5 * ((along / sa) ** 2 + (across / sc) ** 2)).astype(np.float32)
        i, j = int(centre[1] // STRIDE), int(centre[0] // STRIDE)
        g[i, j] = 1.0
        heat = np.maximum(heat, g)
        mine = (g >= 0.25) & (g > owner)
        owner = np.where(mine, g, owner)
        reg[0][mine] = ((centre[0] - gx) / STRIDE)[mine]
        reg[1][mine] = ((centre[1] - gy) / STRIDE)[mine]
        reg[2][mine] = math.cos(2 * angle)
        reg[3][mine] = math.sin(2 * angle)
        reg[4][mine] = math.log(length / SIZE_UNIT)
        reg[5][mine] = math.log(width / SIZE_UNIT)
    reg[6] = owner
    return jitter_colour(crop, rng), heat, reg


# ---- the reader ------------------------------------------------------------------------------------------

class PoolPhoto:
    """A decoded reader photo, its pyramid (halved by area), its tiles (corners clockwise, pips) and the
    detector's candidates on it (``mine.py``), if it was run: per tile, and on no tile."""

    def __init__(self, image: np.ndarray, label: dict, candidates: list | None = None) -> None:
        self.levels = [image]
        while len(self.levels) < 4 and min(self.levels[-1].shape[:2]) > 64:
            self.levels.append(cv2.resize(self.levels[-1], None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA))
        self.height, self.width = image.shape[:2]
        self.logo = bool(label["set"].get("logo", True))  # this set's double-blank carries the logo
        self.tiles = []
        for t in label["tiles"]:
            q = np.asarray(t["corners"], float)
            order = [0, 1, 2, 3]
            if not np.allclose(geo.clockwise(q), q):
                order = [1, 0, 3, 2]
            self.tiles.append({"corners": q[order], "pips": tuple(t["pips"]),
                               "pips_xy": [np.asarray(h, float).reshape(-1, 2) for h in t["pips_xy"]],
                               "partial": bool(t["partial"])})
        self.lengths = [geo.frame_of(t["corners"])[2] for t in self.tiles]
        self.straddles = straddles([t["corners"] for t in self.tiles if not t["partial"]])
        self.guesses: dict[int, list] = {}
        self.strays: list = []
        for c in candidates or []:
            x, y, angle, length, width = c["frame"]
            frame = (np.array([x, y]), angle, length, width)
            if c["tile"] >= 0:
                self.guesses.setdefault(c["tile"], []).append(frame)
            elif c["tile"] == -1:  # (-2: on a tile, but too far off to learn from)
                self.strays.append(frame)


def straddles(quads: list[np.ndarray]) -> list[np.ndarray]:
    """Outlines across two tiles that touch, end to end (a half of each, the seam at the middle) or side by side
    (a long half of each): what the detector guesses in rows of touching tiles seen steeply, and what the reader
    must take for no tile. Each is the mean of the two outlines' matching corners."""
    frames = [geo.frame_of(q) for q in quads]
    out = []
    for i, (qa, (ca, angle, length, width)) in enumerate(zip(quads, frames)):
        u = np.array([math.cos(angle), math.sin(angle)])
        v = np.array([-u[1], u[0]])
        for qb, (cb, angle_b, _, _) in zip(quads[i + 1:], frames[i + 1:]):
            if abs((angle - angle_b + math.pi / 2) % math.pi - math.pi / 2) > math.radians(15):
                continue
            along, across = abs((cb - ca) @ u), abs((cb - ca) @ v)
            if (0.85 * length < along < 1.25 * length and across < 0.35 * width) or \
                    (along < 0.35 * length and 0.85 * width < across < 1.4 * width):
                shift = cb - ca
                turn = min(range(4), key=lambda r: float(np.abs(np.roll(qb, -r, axis=0) - qa - shift).sum()))
                out.append((qa + np.roll(qb, -turn, axis=0)) / 2)
    return out


def _gauss_map(points: np.ndarray, shape: tuple[int, int], sigma: float) -> np.ndarray:
    """Max of Gaussians at ``points`` (crop px) on the map grid (stride READ_STRIDE), 1 at each point's cell."""
    hh, ww = shape
    out = np.zeros(shape, np.float32)
    xs = np.arange(ww, dtype=np.float32) * READ_STRIDE + (READ_STRIDE - 1) / 2
    ys = np.arange(hh, dtype=np.float32) * READ_STRIDE + (READ_STRIDE - 1) / 2
    for x, y in points:
        j, i = int(math.floor(x / READ_STRIDE)), int(math.floor(y / READ_STRIDE))
        if not (0 <= i < hh and 0 <= j < ww):
            continue
        g = np.exp(-0.5 * (((xs[None, :] - x) / sigma) ** 2 + ((ys[:, None] - y) / sigma) ** 2)).astype(np.float32)
        g[i, j] = 1.0
        out = np.maximum(out, g)
    return out


def _crop(photo: PoolPhoto, matrix: np.ndarray, length: float) -> np.ndarray:
    level = geo.source_level(length, len(photo.levels) - 1)
    return geo.warp_crop(photo.levels[level], geo.scaled(matrix, 0.5 ** level))


JITTER = (1.0, 1.0, 2.0, 4.0)  # how far off a look's starting outline is, in steps of a good guess's error


def _off_frame(centre: np.ndarray, angle: float, length: float, width: float, j: float,
               rng: np.random.Generator) -> tuple[np.ndarray, float, float, float]:
    """A guess at a face's frame, ``j`` times as far off as a good detector guess (centre 4 % of the length along
    and 5 % of the width across, axis 3 degrees, sizes 7 %), its centre still well inside the face (the
    reader learns a guess centred beyond it, between two tiles, as no tile)."""
    u = np.array([math.cos(angle), math.sin(angle)])
    v = np.array([-u[1], u[0]])
    along = float(np.clip(rng.normal(0, 0.04 * j), -0.3, 0.3)) * length
    across = float(np.clip(rng.normal(0, 0.05 * j), -0.3, 0.3)) * width
    return (centre + along * u + across * v, angle + float(rng.normal(0, 0.05 * j)),
            length * math.exp(rng.normal(0, 0.07 * j)), width * math.exp(rng.normal(0, 0.07 * j)))


def _off_quad(q: np.ndarray, length: float, j: float, rng: np.random.Generator) -> np.ndarray:
    """The face's corners ``j`` times as far off as a good look's (1.2 % of the length each), and for a poor
    one also turned and moved as a whole."""
    out = q + rng.normal(0, 0.012 * j * length, (4, 2))
    if j > 1:
        c = q.mean(axis=0)
        turn = float(rng.normal(0, 0.02 * j))
        rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
        out = (out - c) @ rot.T + c + rng.normal(0, 0.02 * j * length, 2)
    return out


def reader_sample(photo: PoolPhoto, rng: np.random.Generator,
                  straddle_share: float = 0.0) -> tuple[np.ndarray, np.ndarray, tuple, float]:
    """``(crop, maps (5, H/2, W/2): pips then corners 0-3, (is a tile, is a logo tile) (0/1 each), weight of
    the maps (0/1))``; ``straddle_share`` of the negatives of a photo with touching tiles lie across two of
    them (``straddles``)."""
    mh, mw = geo.CROP_H // READ_STRIDE, geo.CROP_W // READ_STRIDE
    empty = np.zeros((5, mh, mw), np.float32)
    if not photo.tiles or rng.random() < 0.3:
        return _negative(photo, rng, straddle_share), empty, (0.0, 0.0), 0.0
    k = int(rng.integers(0, len(photo.tiles)))
    tile = photo.tiles[k]
    q, halves = tile["corners"], tile["pips_xy"]
    if rng.random() < 0.5:  # the other end first
        q, halves = q[[2, 3, 0, 1]], halves[::-1]
    centre, angle, length, width = geo.frame_of(q)
    guesses = photo.guesses.get(k, [])
    u = rng.random()
    if guesses and u < 0.25:  # a first look from the detector's own guess
        c, a, ln, wd = guesses[int(rng.integers(0, len(guesses)))]
        matrix = geo.frame_to_crop(c + rng.normal(0, 0.01 * ln, 2), a + (math.pi if rng.random() < 0.5 else 0.0),
                                   ln, wd)
    elif u < 0.6:  # a first look: the detector's frame, as far off as its guesses on hard photos can be
        matrix = geo.frame_to_crop(*_off_frame(centre, angle, length, width, float(rng.choice(JITTER)), rng))
    else:  # a later look: corners found by the one before, off as much as the reader's on a poor first look
        matrix = geo.quad_to_crop(_off_quad(q, length, float(rng.choice(JITTER)), rng))
    crop = _crop(photo, matrix, length)
    visible = [p for h in halves if len(h) for p in h if 0 <= p[0] < photo.width and 0 <= p[1] < photo.height]
    pips = geo.apply(matrix, np.asarray(visible)) if visible else np.zeros((0, 2))
    maps = np.zeros((5, mh, mw), np.float32)
    maps[0] = _gauss_map(pips, (mh, mw), PIP_SIGMA)
    corners = geo.apply(matrix, q)
    for c in range(4):
        maps[1 + c] = _gauss_map(corners[c:c + 1], (mh, mw), CORNER_SIGMA)
    logo = float(tile["pips"] == (0, 0) and photo.logo)
    return jitter_colour(crop, rng), maps, (1.0, logo), 1.0


def _negative(photo: PoolPhoto, rng: np.random.Generator, straddle_share: float = 0.0) -> np.ndarray:
    """A crop that is not one tile: across two touching tiles, half of one and what lies beyond, two at once, one
    turned across, or ground."""
    if photo.straddles and rng.random() < straddle_share:
        q = photo.straddles[int(rng.integers(0, len(photo.straddles)))]
        if rng.random() < 0.5:
            q = q[[2, 3, 0, 1]]
        centre, angle, length, width = geo.frame_of(q)
        if rng.random() < 0.5:  # a first look: the detector's frame there, as near as its good guesses
            matrix = geo.frame_to_crop(*_off_frame(centre, angle, length, width, 1.0, rng))
        else:  # a later look, through corners found across the two
            matrix = geo.quad_to_crop(_off_quad(q, length, float(rng.choice(JITTER)), rng))
        return jitter_colour(_crop(photo, matrix, length), rng)
    if photo.strays and rng.random() < 0.5:  # what the detector took for a tile
        centre, angle, length, width = photo.strays[int(rng.integers(0, len(photo.strays)))]
        matrix = geo.frame_to_crop(centre, angle + (math.pi if rng.random() < 0.5 else 0.0), length, width)
        return jitter_colour(_crop(photo, matrix, length), rng)
    u = rng.random()
    if photo.tiles and u < 0.75:
        tile = photo.tiles[int(rng.integers(0, len(photo.tiles)))]
        centre, angle, length, width = geo.frame_of(tile["corners"])
        axis = np.array([math.cos(angle), math.sin(angle)])
        side = np.array([-axis[1], axis[0]])
        # (centres beyond the face: a guess centred on a tile and along it is a first look, however far off)
        if u < 0.35:  # centred on the seam with the next tile, end to end
            centre = centre + axis * length * rng.choice([-1, 1]) * rng.uniform(0.5, 0.65)
        elif u < 0.5:  # between two tiles side by side
            centre = centre + side * width * rng.choice([-1, 1]) * rng.uniform(0.5, 0.65)
        elif u < 0.6:  # across the tile
            angle += math.pi / 2
            length, width = width * 2, width
        else:  # two tiles' worth
            length, width = (length * rng.uniform(1.8, 2.2), width) if rng.random() < 0.5 \
                else (length, width * rng.uniform(1.8, 2.2))
        matrix = geo.frame_to_crop(centre, angle + rng.normal(0, 0.05), length, width)
    else:
        length = float(np.median(photo.lengths)) if photo.lengths else 0.15 * max(photo.width, photo.height)
        length *= math.exp(rng.normal(0, 0.3))
        centre = np.array([rng.uniform(0, photo.width), rng.uniform(0, photo.height)])
        matrix = geo.frame_to_crop(centre, rng.uniform(0, 2 * math.pi), length, length / 2)
    return jitter_colour(_crop(photo, matrix, length), rng)
