"""Render a labelled synthetic photo: tiles as boxes seen through a perspective camera, on a ground, lit.

Entry point: ``render_scene(seed, *, kind="hand", style=None, size=None, ...)`` returns ``(image_bgr,
label)``: a uint8 BGR photo (already through JPEG compression) and its label dict in the shared label
format (file, width, height, profile, style, tags, tilt_deg, tiles with pips/corners/partial, pip_total,
and for lines of play junctions and legal), plus how it was made (seed, kind, ground, light, jpeg_quality,
and ``set``: the set's colours, pip kind and proportions). Each tile's ``pips_xy`` holds its pips'
centres, per half, in photo pixels (for training and checking a pip reader).

How: the tiles are boxes (2 x 1 x thickness, in tile widths) on the ground plane z = 0; a pinhole camera
tilted 0 to 50 degrees from straight down looks at them. Tops never hide behind anything (nothing rises
above them), so the painter's order is: ground, shadows, side faces far to near, then the tops. Lighting
(sun, shade, dappled, dim warm) multiplies everything; then glare, blur, sensor noise and JPEG.

Conventions: image_bgr, points xy in pixels; ``corners[0]-corners[1]`` is the short edge at the end of
the ``pips[0]`` half. A tile whose top face is cut by the photo's border is labelled ``partial``; tiles
that would sit ambiguously on the border (cut by a hair) are left out of the scene, never mislabelled.
The same seed and arguments give the same photo.

Raises ``UnknownKindError``, ``UnknownStyleError``, ``UnknownGroundError``, ``UnknownLightError`` and
``InvalidSceneError`` (all ``ValueError``, quoting the bad value).
"""

from __future__ import annotations

import dataclasses
import functools
import math

import cv2
import numpy as np

from companion.synth.backgrounds import GROUNDS, render_ground
from companion.synth.faces import face_texture, side_texture, smooth_noise
from companion.synth.layouts import Layout, Placed, footprint, make_layout
from companion.synth.styles import SetStyle, pick_style

LIGHTS = ("sun", "shade", "dappled", "dim-warm", "overcast")

SIZES = ((1280, 720), (1280, 960), (1600, 1200), (1920, 1080), (2048, 1536), (1440, 1080), (1600, 900))
BIG_SIZES = ((4032, 3024), (3024, 4032), (4000, 3000))


class InvalidSceneError(ValueError):
    """A photo size, tile count, tilt or JPEG quality that the generator cannot honour."""


def _check_arguments(size, count, tilt_deg, jpeg_quality) -> None:
    if size is not None and (len(size) != 2 or not all(isinstance(v, int) and 64 <= v <= 10000 for v in size)):
        raise InvalidSceneError(f"invalid size: {size!r} (width and height in pixels, 64 to 10000)")
    if count is not None and not (isinstance(count, int) and 1 <= count <= 28):
        raise InvalidSceneError(f"invalid count: {count!r} (a double-six set has 1 to 28 tiles)")
    if tilt_deg is not None and not 0 <= tilt_deg <= 60:
        raise InvalidSceneError(f"invalid tilt_deg: {tilt_deg!r} (0 is straight down; at most 60)")
    if jpeg_quality is not None and not (isinstance(jpeg_quality, int) and 1 <= jpeg_quality <= 100):
        raise InvalidSceneError(f"invalid jpeg_quality: {jpeg_quality!r} (1 to 100)")


class Camera:
    """A pinhole camera over the ground plane. ``project(points_xyz) -> (n, 2)`` pixel xy."""

    def __init__(self, size: tuple[int, int], f: float, target: np.ndarray, dist: float, tilt: float,
                 yaw: float, roll: float) -> None:
        self.size = size
        self.yaw, self.roll = yaw, roll
        w, h = size
        self.K = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
        ct, st = math.cos(tilt), math.sin(tilt)
        cy, sy = math.cos(yaw), math.sin(yaw)
        rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1.0]])
        fwd = rz @ np.array([0.0, st, -ct])
        right = rz @ np.array([1.0, 0.0, 0.0])
        down = np.cross(fwd, right)
        cr, sr = math.cos(roll), math.sin(roll)
        right, down = cr * right + sr * down, -sr * right + cr * down
        self.R = np.stack([right, down, fwd])
        self.C = np.asarray(target, float) - fwd * dist
        self.t = -self.R @ self.C

    def project(self, pts: np.ndarray) -> np.ndarray:
        pc = pts @ self.R.T + self.t
        uv = pc @ self.K.T
        return uv[:, :2] / uv[:, 2:3]

    def plane_homography(self, z: float) -> np.ndarray:
        """Ground-plane (x, y) at height z -> image xy."""
        m = np.column_stack([self.R[:, 0], self.R[:, 1], self.R[:, 2] * z + self.t])
        return self.K @ m


def _box_points(t: Placed, thickness: float) -> tuple[np.ndarray, np.ndarray]:
    fp = footprint(t)
    bottom = np.column_stack([fp, np.zeros(4)])
    top = np.column_stack([fp, np.full(4, thickness)])
    return bottom, top


def _warp_into(canvas: np.ndarray, alpha_acc: np.ndarray | None, tex: np.ndarray, H: np.ndarray,
               shade: float | np.ndarray = 1.0) -> np.ndarray | None:
    """Warp ``tex`` by homography ``H`` (texture xy -> image xy) onto ``canvas`` in place (alpha blend).

    Returns the warped alpha over the whole canvas only when ``alpha_acc`` is given (accumulated in it)."""
    h_img, w_img = canvas.shape[:2]
    th, tw = tex.shape[:2]
    corners = np.array([[0, 0, 1], [tw, 0, 1], [tw, th, 1], [0, th, 1]], float) @ H.T
    xy = corners[:, :2] / corners[:, 2:3]
    x0, y0 = np.floor(xy.min(0)).astype(int) - 2
    x1, y1 = np.ceil(xy.max(0)).astype(int) + 2
    x0, y0 = max(0, x0), max(0, y0)
    x1, y1 = min(w_img, x1), min(h_img, y1)
    if x1 <= x0 or y1 <= y0:
        return None
    T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1.0]]) @ H
    size = (int(x1 - x0), int(y1 - y0))
    # texel centres sit at +0.5: shift so that the texture's outer edge maps to the face's edge
    S = np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1.0]])
    M = T @ S
    warped = cv2.warpPerspective(tex, M, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    ones = np.ones((th + 2, tw + 2), np.float32)
    ones[0, :] = ones[-1, :] = ones[:, 0] = ones[:, -1] = 0
    Sa = np.array([[1, 0, 1.0], [0, 1, 1.0], [0, 0, 1.0]])
    a = cv2.warpPerspective(ones, T @ Sa, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    # ones padded by a zero ring: the 0.5 coverage line falls on the face's true edge; where the
    # homography's horizon crosses the region (a side seen nearly edge on) OpenCV gives NaN: nothing there
    a = np.clip(np.nan_to_num(a, nan=0.0), 0, 1)[..., None]
    warped = np.nan_to_num(warped, nan=0.0)
    roi = canvas[y0:y1, x0:x1]
    roi[:] = roi * (1 - a) + warped * shade * a
    if alpha_acc is not None:
        alpha_acc[y0:y1, x0:x1] = np.maximum(alpha_acc[y0:y1, x0:x1], a[..., 0])
    return None


def _rect_to_quad(w: int, h: int, quad: np.ndarray) -> np.ndarray:
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    return cv2.getPerspectiveTransform(src, quad.astype(np.float32))


def _visible_fraction(quad: np.ndarray, size: tuple[int, int]) -> float:
    w, h = size
    area = abs(cv2.contourArea(quad.astype(np.float32)))
    if area <= 0:
        return 0.0
    rect = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    inter, _ = cv2.intersectConvexConvex(quad.astype(np.float32), rect)
    return float(inter) / area


def _inside(quad: np.ndarray, size: tuple[int, int]) -> bool:
    """The face lies wholly inside the photo, clear of the border by a few percent of its width."""
    w, h = size
    margin = 0.06 * float(np.linalg.norm(quad[0] - quad[1])) + 2.0
    return bool((quad[:, 0] >= margin).all() and (quad[:, 0] <= w - 1 - margin).all()
                and (quad[:, 1] >= margin).all() and (quad[:, 1] <= h - 1 - margin).all())


def _target_dist(cam: "Camera") -> float:
    """Distance from the camera to the ground point on its optical axis."""
    return float(-cam.C[2] / cam.R[2][2])


def _recentre(cam: Camera, points: np.ndarray, offset: np.ndarray) -> np.ndarray:
    """The camera target that puts the points' bounding box centre at the image centre (+ offset px)."""
    w, h = cam.size
    uv = cam.project(points)
    mid = (uv.min(0) + uv.max(0)) / 2
    shift = np.array([w / 2, h / 2]) - mid + offset
    Hg = cam.plane_homography(0.0)
    g0 = np.linalg.solve(Hg, np.array([w / 2, h / 2, 1.0]))
    g1 = np.linalg.solve(Hg, np.array([w / 2 - shift[0], h / 2 - shift[1], 1.0]))
    target = cam.C + cam.R[2] * _target_dist(cam)
    return target + np.array([*(g1[:2] / g1[2] - g0[:2] / g0[2]), 0.0])


def _choose_camera(rng: np.random.Generator, layout: Layout, size: tuple[int, int], tilt: float,
                   thickness: float, kind: str, allow_cut: bool) -> Camera:
    w, h = size
    hfov = math.radians(float(rng.uniform(52, 72)))
    f = (max(w, h) / 2) / math.tan(hfov / 2)
    pts = np.concatenate([footprint(t) for t in layout.tiles])
    centre = (pts.min(0) + pts.max(0)) / 2
    yaw = float(rng.uniform(0, 2 * math.pi))
    roll = float(rng.normal(0, math.radians(6))) if rng.random() < 0.85 else float(rng.uniform(-math.pi, math.pi))
    fill = float(rng.uniform(0.55, 0.92))
    if allow_cut and rng.random() < 0.35:
        fill = float(rng.uniform(1.0, 1.35))  # a tight framing: some tiles cut by the border
    target = np.array([centre[0], centre[1], 0.0])
    if allow_cut and fill > 1.0:
        target[:2] += rng.normal(0, 1.0, 2)
    dist = 20.0
    lo, hi = 62.0, 680.0
    tops = np.concatenate([_box_points(t, thickness)[1] for t in layout.tiles])
    for _ in range(6):
        cam = Camera(size, f, target, dist, tilt, yaw, roll)
        target = _recentre(cam, tops, np.zeros(2))
        cam = Camera(size, f, target, dist, tilt, yaw, roll)
        uv = cam.project(tops)
        span_x = (uv[:, 0].max() - uv[:, 0].min()) / w
        span_y = (uv[:, 1].max() - uv[:, 1].min()) / h
        ratio = max(span_x, span_y) / fill
        # keep every tile between about 60 and 700 px long (lengths scale as 1 / ratio); when a steep
        # view of a big spread cannot keep both, the far tiles' 60 px wins
        q = uv.reshape(-1, 4, 2)
        lengths = np.linalg.norm(q[:, 0] - q[:, 3], axis=1)
        need_hi = float(lengths.max()) / hi  # a ratio at least this keeps the longest under hi
        need_lo = float(lengths.min()) / lo  # a ratio at most this keeps the shortest over lo
        fit = ratio
        ratio = min(max(ratio, need_hi), need_lo)
        if not allow_cut:  # everything must stay in the picture, even if that makes far tiles small
            ratio = max(ratio, fit * fill / 0.92)
        dist *= ratio
    cam = Camera(size, f, target, dist, tilt, yaw, roll)
    if allow_cut and fill > 1.0:  # off-centre: some tiles cut by the border
        target = _recentre(cam, tops, rng.normal(0, 0.1, 2) * np.array([w, h]))
    return Camera(size, f, target, dist, tilt, yaw, roll)


def _soft_blur(mask: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur of a 2-D mask; wide blurs are done at a lower resolution (the result is smooth anyway)."""
    if sigma <= 4.0:
        return cv2.GaussianBlur(mask, (0, 0), max(0.5, sigma))
    k = sigma / 4.0
    h, w = mask.shape
    small = cv2.resize(mask, (max(2, int(w / k)), max(2, int(h / k))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), 4.0)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _composite(img: np.ndarray, canvas: np.ndarray, alpha: np.ndarray) -> None:
    """Blend a uint8 layer (canvas, alpha) over the float image, only where the layer has something."""
    x, y, w, h = cv2.boundingRect(alpha)
    if w == 0 or h == 0:
        return
    a = alpha[y:y + h, x:x + w].astype(np.float32)[..., None] / 255.0
    roi = img[y:y + h, x:x + w]
    roi[:] = roi * (1 - a) + canvas[y:y + h, x:x + w].astype(np.float32) / 255.0 * a


def _ground_scale(cam: Camera, x: float, y: float) -> float:
    """Pixels per ground unit around the ground point (x, y)."""
    p = cam.project(np.array([[x, y, 0.0], [x + 0.05, y, 0.0], [x, y + 0.05, 0.0]]))
    a, b = p[1] - p[0], p[2] - p[0]
    return float(np.sqrt(abs(a[0] * b[1] - a[1] * b[0]))) / 0.05


def _visible_ground(cam: Camera, rng: np.random.Generator, n: int) -> np.ndarray:
    """n random ground points (x, y) that the camera sees."""
    w, h = cam.size
    uv = np.column_stack([rng.uniform(0, w, n), rng.uniform(0, h, n), np.ones(n)])
    g = uv @ np.linalg.inv(cam.plane_homography(0.0)).T
    return g[:, :2] / g[:, 2:3]


def _debris(rng: np.random.Generator, img: np.ndarray, cam: Camera, ground: str, tiles: list[Placed]) -> None:
    """Leaves, pebbles, clover and crumbs on the ground: dark and round things that are not pips."""
    density = {"grass": 0.12, "deck": 0.04, "concrete": 0.15, "blanket": 0.02, "table": 0.01}  # per square unit
    w, h = cam.size
    corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], float) @ np.linalg.inv(cam.plane_homography(0.0)).T
    area = abs(cv2.contourArea((corners[:, :2] / corners[:, 2:3]).astype(np.float32)))
    n = min(60, int(rng.poisson(density[ground] * float(rng.uniform(0.2, 1.5)) * area)))
    if n == 0:
        return
    canvas = np.zeros(img.shape, np.uint8)
    alpha = np.zeros(img.shape[:2], np.uint8)
    for x, y in _visible_ground(cam, rng, n):
        scale = _ground_scale(cam, x, y)
        u, v = cam.project(np.array([[x, y, 0.0]]))[0]
        what = rng.random()
        if ground in ("grass", "deck") and what < 0.6:  # a leaf
            size = float(rng.uniform(0.06, 0.22)) * scale
            col = rng.choice([(0.15, 0.40, 0.35), (0.12, 0.30, 0.42), (0.10, 0.20, 0.30), (0.2, 0.42, 0.48)])
            axes = (max(1, int(size)), max(1, int(size * rng.uniform(0.3, 0.5))))
        else:  # a pebble, a clod, a crumb or a bottle cap
            size = float(rng.uniform(0.03, 0.12)) * scale
            col = rng.choice([(0.35, 0.38, 0.40), (0.12, 0.14, 0.16), (0.25, 0.32, 0.4), (0.55, 0.55, 0.55)])
            axes = (max(1, int(size)), max(1, int(size * rng.uniform(0.6, 1.0))))
        c = tuple(int(255 * v_) for v_ in np.clip(np.asarray(col) * rng.uniform(0.8, 1.2), 0, 1))
        ang = float(rng.uniform(0, 180))
        cv2.ellipse(canvas, (int(u), int(v)), axes, ang, 0, 360, c, -1, cv2.LINE_AA)
        cv2.ellipse(alpha, (int(u), int(v)), axes, ang, 0, 360, 255, -1, cv2.LINE_AA)
    _composite(img, canvas, alpha)


def _score_card(rng: np.random.Generator, img: np.ndarray, cam: Camera, tiles: list[Placed]) -> bool:
    """A paper score card lying near the game: ruled lines, names and numbers, a rectangle that is no tile."""
    cw, ch = float(rng.uniform(1.0, 1.6)), float(rng.uniform(1.5, 2.3))  # in tile widths
    for x, y in _visible_ground(cam, rng, 30):
        card = Placed((0, 0), float(x), float(y), float(rng.uniform(0, math.pi)))
        c, s_ = math.cos(card.angle), math.sin(card.angle)
        reach = math.hypot(cw, ch) / 2 + 1.3
        if all(math.hypot(t.cx - x, t.cy - y) > reach for t in tiles):
            break
    else:
        return False
    px = int(np.clip(_ground_scale(cam, x, y) * cw * 1.2, 40, 900))
    py = int(px * ch / cw)
    paper = np.full((py, px, 3), float(rng.uniform(0.85, 0.97)), np.float32)
    paper *= (1 + rng.normal(0, 0.01, (py, px, 1))).astype(np.float32)
    canvas = (paper * 255).astype(np.uint8)
    step = max(4, py // 14)
    for yline in range(step * 2, py, step):
        cv2.line(canvas, (0, yline), (px, yline), (200, 170, 150), max(1, px // 300))
    font = cv2.FONT_HERSHEY_SCRIPT_SIMPLEX
    ink = (int(rng.integers(60, 140)), 40, 30)
    for k, yline in enumerate(range(step * 2, py - step, step)):
        text = str(int(rng.integers(0, 120))) if k else "ANN  BOB"
        cv2.putText(canvas, text, (px // 10 + int(rng.integers(0, px // 6)), yline - step // 5), font,
                    step / 36, ink, max(1, step // 12), cv2.LINE_AA)
    tex = canvas.astype(np.float32) / 255.0
    # texture (u, v) -> ground: the card's centre, rotated; then the ground homography
    ax, ay = np.array([c, s_]) * cw / px, np.array([s_, -c]) * ch / py  # keeps the writing unmirrored
    org = np.array([x, y]) - ax * px / 2 - ay * py / 2
    A = np.array([[ax[0], ay[0], org[0]], [ax[1], ay[1], org[1]], [0, 0, 1.0]])
    _warp_into(img, None, tex, cam.plane_homography(0.0) @ A)
    return True


def _grass_tufts(rng: np.random.Generator, img: np.ndarray, cam: Camera, tiles: list[Placed], thick: float) -> None:
    """Blades of grass standing around each tile's foot, in front of its sides (never above its top)."""
    canvas = np.zeros(img.shape, np.uint8)
    alpha = np.zeros(img.shape[:2], np.uint8)
    for t in tiles:
        fp = footprint(t)
        ctr = fp.mean(0)
        scale = _ground_scale(cam, t.cx, t.cy)
        width = max(1, int(round(0.02 * scale)))
        for i in range(4):
            a_, b_ = fp[i], fp[(i + 1) % 4]
            m = int(rng.integers(8, 30))
            s_ = rng.uniform(0, 1, m)[:, None]
            base = a_ + (b_ - a_) * s_
            out = (base - ctr)
            out /= np.linalg.norm(out, axis=1, keepdims=True)
            base = base + out * rng.uniform(0.0, 0.04, (m, 1))
            tip = base + out * rng.uniform(0.0, 0.1, (m, 1)) + rng.normal(0, 0.04, (m, 2))
            ht = rng.uniform(0.2, 0.85, m) * thick
            p0 = cam.project(np.column_stack([base, np.zeros(m)]))
            p1 = cam.project(np.column_stack([tip, ht]))
            for q0, q1 in zip(p0, p1):
                g = rng.uniform(0.6, 1.3)
                col = (int(np.clip(45 * g, 0, 255)), int(np.clip(120 * g, 0, 255)), int(np.clip(85 * g, 0, 255)))
                cv2.line(canvas, (int(q0[0]), int(q0[1])), (int(q1[0]), int(q1[1])), col, width, cv2.LINE_AA)
                cv2.line(alpha, (int(q0[0]), int(q0[1])), (int(q1[0]), int(q1[1])), 255, width, cv2.LINE_AA)
    _composite(img, canvas, alpha)


class UnknownLightError(ValueError):
    """A lighting name that the generator does not know."""


def _light(rng: np.random.Generator, name: str) -> dict:
    if name not in LIGHTS:
        raise UnknownLightError(f"unknown light: {name!r} (known: {', '.join(LIGHTS)})")
    az = float(rng.uniform(0, 2 * math.pi))
    if name == "sun":
        el = math.radians(float(rng.uniform(25, 70)))
        return dict(level=float(rng.uniform(1.0, 1.15)), tint=(0.94, 0.99, 1.04), shadow=float(rng.uniform(0.45, 0.62)),
                    soft=0.02, el=el, az=az, ambient=0.45, noise=0.012)
    if name == "dappled":
        el = math.radians(float(rng.uniform(35, 75)))
        return dict(level=float(rng.uniform(0.95, 1.1)), tint=(0.95, 1.0, 1.03), shadow=float(rng.uniform(0.35, 0.55)),
                    soft=0.05, el=el, az=az, ambient=0.5, noise=0.014, dapple=float(rng.uniform(0.35, 0.55)))
    if name == "shade":
        return dict(level=float(rng.uniform(0.7, 0.9)), tint=(1.06, 1.0, 0.93), shadow=float(rng.uniform(0.15, 0.3)),
                    soft=0.35, el=math.radians(80), az=az, ambient=0.75, noise=0.018)
    if name == "overcast":
        return dict(level=float(rng.uniform(0.85, 1.0)), tint=(1.02, 1.0, 0.97), shadow=float(rng.uniform(0.12, 0.25)),
                    soft=0.5, el=math.radians(85), az=az, ambient=0.8, noise=0.014)
    # dim warm indoor light (a lamp): dark, orange, noisy, vignetted
    el = math.radians(float(rng.uniform(40, 80)))
    return dict(level=float(rng.uniform(0.3, 0.5)), tint=(0.62, 0.85, 1.12), shadow=float(rng.uniform(0.3, 0.5)),
                soft=0.15, el=el, az=az, ambient=0.55, noise=0.022, vignette=float(rng.uniform(0.25, 0.5)))


_TONE_STEPS = 1024  # table entries per unit of exposure
_TONE_MAX = 4.0  # brighter than this is white anyway


@functools.lru_cache(maxsize=1)
def _tone_table() -> np.ndarray:
    """uint8 output for exposures 0 .. _TONE_MAX: linear, then a soft highlight roll-off (no hard clip)."""
    x = np.arange(int(_TONE_STEPS * _TONE_MAX) + 1, dtype=np.float64) / _TONE_STEPS
    knee = 0.82
    y = np.where(x > knee, knee + (1 - knee) * np.tanh((x - knee) / (1 - knee)), x)
    return np.clip(y * 255 + 0.5, 0, 255).astype(np.uint8)


def _tone(img: np.ndarray, gain: float) -> np.ndarray:
    """Exposure ``gain`` and the camera's tone curve: float image in, uint8 photo out (img is used up)."""
    img *= np.float32(gain * _TONE_STEPS)
    np.clip(img, 0, _TONE_STEPS * _TONE_MAX, out=img)
    return _tone_table()[img.astype(np.uint16)]


def _describe(st: SetStyle) -> dict:
    """The set's look, for the label (colours BGR 0..255, lengths in tile widths)."""
    out = {}
    for key, value in dataclasses.asdict(st).items():
        if key == "name":
            continue
        if key == "value_colors" and value is not None:
            out[key] = [[int(round(255 * v)) for v in colour] for colour in value]
        elif isinstance(value, tuple):
            out[key] = [int(round(255 * v)) for v in value]
        elif isinstance(value, float):
            out[key] = round(value, 3)
        else:
            out[key] = value
    return out


def _frame(rng: np.random.Generator, layout: Layout, size: tuple[int, int], tilt: float, thick: float, kind: str,
           allow_partial: bool) -> tuple[Camera, list[tuple[Placed, np.ndarray, bool]]]:
    """Place the camera and decide what is in the photo: whole tiles, clearly cut tiles (partial) and
    nothing in between (a tile cut by a hair is left out of the scene rather than labelled either way)."""
    cam = _choose_camera(rng, layout, size, tilt, thick, kind, allow_partial)
    w, h = size
    if not allow_partial:  # every tile must be whole: step back until all are well inside
        for _ in range(12):
            quads = [cam.project(_box_points(t, thick)[1]) for t in layout.tiles]
            if all(_inside(q, (w, h)) for q in quads):
                break
            target = _recentre(cam, np.concatenate([_box_points(t, thick)[1] for t in layout.tiles]),
                               np.zeros(2))
            cam = Camera((w, h), cam.K[0, 0], target, _target_dist(cam) * 1.08, tilt, cam.yaw, cam.roll)

    # decide what is in the photo: whole tiles, clearly cut tiles (partial) and nothing in between
    keep: list[tuple[Placed, np.ndarray, bool]] = []
    for t in layout.tiles:
        _, top = _box_points(t, thick)
        quad = cam.project(top)
        frac = _visible_fraction(quad, (w, h))
        inside = _inside(quad, (w, h))
        if inside:
            keep.append((t, quad, False))
        elif 0.15 <= frac <= 0.85 and allow_partial:
            keep.append((t, quad, True))
        elif layout.junctions is not None:
            keep.append((t, quad, not inside))  # lines of play keep every tile (framing avoids cuts)
    return cam, keep


def render_scene(seed: int, *, kind: str = "hand", style: str | None = None, size: tuple[int, int] | None = None,
                 count: int | None = None, wrong: bool | None = None, tilt_deg: float | None = None,
                 ground: str | None = None, light: str | None = None, jpeg_quality: int | None = None,
                 allow_partial: bool | None = None, name: str | None = None, set_seed: int | None = None) -> tuple[np.ndarray, dict]:
    """Render one photo. Returns ``(image_bgr uint8 (h, w, 3), label dict)``; see the module docstring.

    The image has been through JPEG compression once (decoded again), exactly as ``render_photo`` writes it.
    """
    data, label = render_photo(seed, kind=kind, style=style, size=size, count=count, wrong=wrong,
                               tilt_deg=tilt_deg, ground=ground, light=light, jpeg_quality=jpeg_quality,
                               allow_partial=allow_partial, name=name, set_seed=set_seed)
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR), label


def render_photo(seed: int, *, kind: str = "hand", style: str | None = None, size: tuple[int, int] | None = None,
                 count: int | None = None, wrong: bool | None = None, tilt_deg: float | None = None,
                 ground: str | None = None, light: str | None = None, jpeg_quality: int | None = None,
                 allow_partial: bool | None = None, name: str | None = None, set_seed: int | None = None) -> tuple[bytes, dict]:
    """Render one photo as JPEG file bytes and its label dict (arguments as ``render_scene``).

    ``kind``: hand | touching | crowd | full-set | layout. ``style``: a name from ``STYLE_NAMES`` or None
    for a random giant wooden set. ``size``: (width, height) in pixels, random when None. ``count``: the
    number of tiles (random for the kind when None). ``wrong``: for layouts, one wrong junction or none
    (random when None). ``set_seed``: photos given the same set_seed show the same set (for calibration:
    "further photos of the same set"); without it each photo's set is drawn from ``seed``. Other arguments
    fix what is otherwise drawn at random.
    """
    _check_arguments(size, count, tilt_deg, jpeg_quality)
    if kind == "layout" and count is not None and not 5 <= count <= 18:
        raise InvalidSceneError(f"invalid count: {count!r} for a line of play (5 to 18 tiles)")
    rng = np.random.default_rng(seed)
    # one physical set across photos: the same set_seed gives the very same set (colours, pips, thickness)
    st = pick_style(np.random.default_rng(set_seed) if set_seed is not None else rng, style)
    layout = make_layout(rng, kind, count=count, wrong=wrong, top=st.top)
    if size is None:
        size = tuple(BIG_SIZES[int(rng.integers(0, len(BIG_SIZES)))]) if rng.random() < 0.04 else \
            tuple(SIZES[int(rng.integers(0, len(SIZES)))])
        if rng.random() < 0.25:
            size = (size[1], size[0])  # portrait
    w, h = int(size[0]), int(size[1])
    if tilt_deg is None:
        if kind == "layout":
            tilt_deg = float(rng.uniform(20, 45))
        else:
            tilt_deg = float(rng.uniform(0, 12)) if rng.random() < 0.35 else float(rng.uniform(10, 50))
    ground = ground or str(rng.choice(GROUNDS))
    light = light or str(rng.choice(LIGHTS, p=[0.3, 0.2, 0.2, 0.15, 0.15]))
    if allow_partial is None:
        allow_partial = kind in ("hand", "touching", "crowd")
    thick = st.thickness
    tilt = math.radians(tilt_deg)
    cam, keep = _frame(rng, layout, (w, h), tilt, thick, kind, allow_partial)
    if not any(not partial for _, _, partial in keep):  # nothing whole in the picture: frame it loosely
        cam, keep = _frame(rng, layout, (w, h), tilt, thick, kind, False)

    L = _light(rng, light)
    ldir = np.array([math.cos(L["az"]) * math.cos(L["el"]), math.sin(L["az"]) * math.cos(L["el"]), math.sin(L["el"])])

    # ground
    Hg = cam.plane_homography(0.0)
    img = render_ground(rng, ground, np.linalg.inv(Hg), (w, h))

    _debris(rng, img, cam, ground, [t for t, _, _ in keep])
    card = rng.random() < 0.12 and _score_card(rng, img, cam, layout.tiles)

    # shadows and contact darkening, painted in ground coordinates through the homography; both are
    # soft, so they are drawn at a reduced scale ``k`` and scaled up once
    tile_len_px = float(np.median([np.linalg.norm(q[0] - q[3]) for _, q, _ in keep])) if keep else 100.0
    soft = max(1.0, L["soft"] * tile_len_px)
    contact_soft = max(1.0, 0.04 * tile_len_px)
    k = float(np.clip(min(soft, contact_soft) / 2.0, 0.125, 1.0))
    sw, sh_ = max(2, int(round(w * k))), max(2, int(round(h * k)))
    shadow = np.zeros((sh_, sw), np.float32)
    contact = np.zeros((sh_, sw), np.float32)
    for t, _, _ in keep:
        bottom, top = _box_points(t, thick)
        sh = top[:, :2] - top[:, 2:3] * ldir[:2] / ldir[2]
        hull = cv2.convexHull(np.concatenate([bottom[:, :2], sh]).astype(np.float32))[:, 0, :]
        poly = cam.project(np.column_stack([hull, np.zeros(len(hull))])) * k
        cv2.fillPoly(shadow, [np.round(poly * 4).astype(np.int32)], 1.0, cv2.LINE_AA, shift=2)
        fp = cam.project(np.column_stack([footprint(t, 0.04), np.zeros(4)])) * k
        cv2.fillPoly(contact, [np.round(fp * 4).astype(np.int32)], 1.0, cv2.LINE_AA, shift=2)
    shadow = _soft_blur(shadow, soft * k)
    contact = _soft_blur(contact, contact_soft * k)
    dark = 1 - L["shadow"] * np.clip(shadow, 0, 1) - 0.25 * np.clip(contact, 0, 1) * (1 - L["shadow"])
    img *= cv2.resize(dark, (w, h), interpolation=cv2.INTER_LINEAR)[..., None]

    # side faces, far to near
    sides = []
    for t, _, _ in keep:
        bottom, top = _box_points(t, thick)
        ctr = np.array([t.cx, t.cy, thick / 2])
        for i in range(4):
            j = (i + 1) % 4
            mid = (bottom[i] + bottom[j]) / 2
            normal = np.array([*(mid[:2] - ctr[:2]), 0.0])
            normal /= np.linalg.norm(normal)
            if normal @ (cam.C - mid) <= 0:
                continue
            quad3 = np.array([top[i], top[j], bottom[j], bottom[i]])
            dist = float(np.linalg.norm(mid - cam.C))
            end = (i % 2 == 0)  # edges 0-1 and 2-3 are the short ends
            sides.append((dist, quad3, normal, end, t))
    sides.sort(key=lambda s: -s[0])
    for _, quad3, normal, end, t in sides:
        quad = cam.project(quad3)
        length_px = max(np.linalg.norm(quad[0] - quad[1]), 2)
        height_px = max(np.linalg.norm(quad[0] - quad[3]), 2)
        tw_ = int(np.clip(length_px, 4, 1200))
        th_ = int(np.clip(height_px, 4, 400))
        tex = side_texture(rng, th_, tw_, st, end_grain=end)
        lit = L["ambient"] * 0.75 + (1 - L["ambient"]) * max(0.0, float(normal @ ldir)) * 1.1
        _warp_into(img, None, tex, _rect_to_quad(tw_, th_, quad), shade=lit)

    if ground == "grass":
        _grass_tufts(rng, img, cam, [t for t, _, _ in keep], thick)

    # tops
    top_alpha = np.zeros((h, w), np.float32)
    glare_spots = []
    labels_tiles = []
    for t, quad, partial in keep:
        short = max(np.linalg.norm(quad[0] - quad[1]), np.linalg.norm(quad[2] - quad[3]))
        long_ = max(np.linalg.norm(quad[1] - quad[2]), np.linalg.norm(quad[3] - quad[0]))
        width_px = int(np.clip(1.2 * max(short, long_ / 2), 16, 900))
        is_logo = t.pips == (0, 0) and st.logo
        tex, pip_xy = face_texture(rng, t.pips, width_px, st, logo=is_logo, grime=float(rng.uniform(0, 0.5)))
        th_, tw_ = tex.shape[:2]
        # texture (0, th) -> corner 0, (0, 0) -> corner 1, (tw, 0) -> corner 2, (tw, th) -> corner 3: the
        # face seen from above keeps its handedness (the word mark reads, not mirrored)
        src = np.array([[0, th_], [0, 0], [tw_, 0], [tw_, th_]], np.float32)
        Ht = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
        lit = L["ambient"] + (1 - L["ambient"]) * ldir[2]
        _warp_into(img, top_alpha, tex, Ht, shade=lit)
        if rng.random() < st.gloss * 0.35:
            u, v = rng.uniform(0.1, 0.9), rng.uniform(0.1, 0.9)
            p = Ht @ np.array([u * tw_, v * th_, 1.0])
            glare_spots.append((p[:2] / p[2], short * float(rng.uniform(0.25, 0.6)), float(rng.uniform(0.15, 0.45)) * st.gloss))
        pips_xy = []
        for half in pip_xy:  # texel centres sit at +0.5, as _warp_into maps them
            p = np.column_stack([np.asarray(half, float).reshape(-1, 2) + 0.5, np.ones(len(half))]) @ Ht.T
            pips_xy.append([[round(float(x), 2), round(float(y), 2)] for x, y in p[:, :2] / p[:, 2:3]])
        labels_tiles.append({"pips": [int(t.pips[0]), int(t.pips[1])],
                             "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in quad],
                             "partial": bool(partial), "pips_xy": pips_xy})

    # lighting over everything
    # every part of the illumination is smooth: build it at 1/8 resolution and scale it up once
    small = (max(8, w // 8), max(8, h // 8))
    illum = np.full((small[1], small[0]), L["level"], np.float32)
    grad = smooth_noise(rng, small[1], small[0], 2, 2)
    illum *= 1 + 0.07 * grad
    if "dapple" in L:
        d = smooth_noise(rng, small[1], small[0], int(rng.integers(4, 9)), int(rng.integers(4, 9)))
        d = 1.0 / (1.0 + np.exp(-d * float(rng.uniform(2.5, 5.0))))
        illum *= (1 - L["dapple"] * (1 - d))
    photographer = light == "sun" and rng.random() < 0.3
    if photographer:  # the photographer's own shadow reaching in from one side of the frame
        sw, sh_ = max(8, w // 8), max(8, h // 8)
        m = np.zeros((sh_, sw), np.float32)
        side = int(rng.integers(0, 4))
        reach = float(rng.uniform(0.25, 0.6))
        along = float(rng.uniform(0.2, 0.8))
        body_w = float(rng.uniform(0.12, 0.22)) * min(sw, sh_)
        if side in (0, 1):  # from the bottom or top edge
            x = along * sw
            y_edge, y_tip = (sh_, sh_ * (1 - reach)) if side == 0 else (0, sh_ * reach)
            cv2.ellipse(m, (int(x), int((y_edge + y_tip) / 2)), (int(body_w), int(abs(y_edge - y_tip) / 2)), 0, 0, 360, 1.0, -1)
            cv2.circle(m, (int(x), int(y_tip)), int(body_w * 0.55), 1.0, -1)
        else:  # from the left or right edge
            y = along * sh_
            x_edge, x_tip = (0, sw * reach) if side == 2 else (sw, sw * (1 - reach))
            cv2.ellipse(m, (int((x_edge + x_tip) / 2), int(y)), (int(abs(x_edge - x_tip) / 2), int(body_w)), 0, 0, 360, 1.0, -1)
            cv2.circle(m, (int(x_tip), int(y)), int(body_w * 0.55), 1.0, -1)
        m = cv2.GaussianBlur(m, (0, 0), max(1.0, 0.01 * max(sw, sh_)))
        illum *= 1 - float(rng.uniform(0.35, 0.5)) * m
    vignette = L.get("vignette", float(rng.uniform(0.0, 0.15)))  # lens shading, strong under a lamp
    sw, sh_ = small
    yy = ((np.arange(sh_, dtype=np.float32) + 0.5) / sh_ * 2 - 1)[:, None]
    xx = ((np.arange(sw, dtype=np.float32) + 0.5) / sw * 2 - 1)[None, :]
    illum *= 1 - vignette * np.clip((xx ** 2 + yy ** 2) / 2, 0, 1)
    illum = cv2.resize(illum, (w, h), interpolation=cv2.INTER_LINEAR)
    img *= illum[..., None]
    img *= np.asarray(L["tint"], np.float32) * (1 + rng.normal(0, 0.03, 3)).astype(np.float32)  # + white balance error

    # glare on varnished tops
    if glare_spots:
        gl = np.zeros((h, w), np.float32)
        for (gx, gy), r, s in glare_spots:
            cv2.ellipse(gl, (int(gx), int(gy)), (max(1, int(r)), max(1, int(r * 0.6))), float(rng.uniform(0, 180)),
                        0, 360, s, -1, cv2.LINE_AA)
        sig = max(1.0, 0.25 * tile_len_px / 2)
        gl = _soft_blur(gl, sig) * top_alpha
        img += gl[..., None]

    # camera: blur, noise, auto exposure, highlight roll-off, JPEG
    sigma = float(rng.choice([0.0, 0.4, 0.7, 1.0, 1.5])) * max(1.0, max(w, h) / 2000)
    sigma = min(sigma, 0.02 * tile_len_px)  # soft, but a person could still count the pips
    if sigma > 0.2:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    if rng.random() < 0.12 and tile_len_px > 120:  # a little camera shake
        k = int(rng.integers(3, 8))
        kern = np.zeros((k, k), np.float32)
        kern[k // 2, :] = 1.0 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
        kern = cv2.warpAffine(kern, rot, (k, k))
        img = cv2.filter2D(img, -1, kern / max(kern.sum(), 1e-6))
    # sensor noise (shot noise grows with the signal, read noise does not), then the camera's auto
    # exposure: a dim scene is brightened, and its noise with it
    noise = L["noise"] * float(rng.uniform(0.6, 1.4))
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    np.clip(gray, 0.02, 1.0, out=gray)
    shot = rng.standard_normal((h, w), dtype=np.float32)
    shot *= np.sqrt(gray)
    shot *= np.float32(noise)
    img += shot[..., None]
    read = rng.standard_normal((h, w, 3), dtype=np.float32)
    read *= np.float32(noise * 0.35)
    img += read
    lum = float(np.mean(img[::7, ::7]))
    gain = float(np.clip(rng.uniform(0.40, 0.55) / max(lum, 1e-3), 0.75, 2.2))
    img8 = _tone(img, gain)
    quality = jpeg_quality if jpeg_quality is not None else int(rng.integers(62, 96))
    ok, buf = cv2.imencode(".jpg", img8, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # pragma: no cover - OpenCV always encodes a valid uint8 image
        raise RuntimeError("JPEG encoding failed")

    tags = set(layout.tags) | {ground, light, kind} | ({"score-card"} if card else set()) \
        | ({"own-shadow"} if photographer else set())
    if tilt_deg >= 20:
        tags.add("tilted")
    if any(t["partial"] for t in labels_tiles):
        tags.add("partial")
    if any(t["pips"] == [0, 0] for t in labels_tiles):
        tags.add("logo")
    label = {
        "file": name or f"synth-{seed}.jpg",
        "width": w, "height": h, "profile": "giant-wood", "style": st.name, "tags": sorted(tags),
        "tilt_deg": round(float(tilt_deg), 2), "tiles": labels_tiles,
        "pip_total": int(sum(sum(t["pips"]) for t in labels_tiles if not t["partial"])),
        "seed": int(seed), "kind": kind, "ground": ground, "light": light, "jpeg_quality": quality,
        "set": _describe(st),
    }
    if style == "ivory-black":
        label["profile"] = "ivory"
    elif style == "ivory-color":
        label["profile"] = "twelve-color"
    if layout.junctions is not None:  # every tile of a line of play is kept, in order: indexes agree
        label["junctions"] = [{"tiles": [j.tiles[0], j.tiles[1]], "pips": [j.pips[0], j.pips[1]], "ok": j.ok}
                              for j in layout.junctions]
        label["legal"] = all(j.ok for j in layout.junctions)
    return buf.tobytes(), label
