"""Ground surfaces for synthetic photos: grass, a wooden deck, concrete, a picnic blanket, a table.

Entry point: ``render_ground(rng, kind, pixel_to_ground, size)`` paints the ground as the camera sees it:
each pixel is traced to its point on the ground plane (``pixel_to_ground``: a 3x3 homography from image
xy to ground units) and coloured from a texture laid out in ground units, so that the perspective of
boards, checks and grass is right. ``GROUNDS`` lists the kinds.

Conventions: ground units are tile widths; colours float32 BGR in 0..1 (before lighting).
Raises ``UnknownGroundError`` (``ValueError``) for a kind that does not exist.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from companion.synth.faces import periodic_noise, smooth_noise, wood
from companion.synth.styles import SetStyle, pick_style

GROUNDS = ("grass", "deck", "concrete", "blanket", "table")


class UnknownGroundError(ValueError):
    """A ground kind that the generator does not know."""


def _grass(rng: np.random.Generator) -> tuple[np.ndarray, float]:
    ppu = 96.0  # texture pixels per ground unit
    n = 512
    base = np.asarray(rng.choice([(0.18, 0.45, 0.30), (0.20, 0.50, 0.40), (0.25, 0.48, 0.45), (0.15, 0.38, 0.30)]),
                      np.float32)
    img = np.empty((n, n, 3), np.float32)
    img[:] = base * 0.55
    canvas = (img * 255).astype(np.uint8)
    count = 9000
    xs = rng.uniform(0, n, count)
    ys = rng.uniform(0, n, count)
    lens = rng.uniform(0.1, 0.35, count) * ppu
    angs = rng.normal(rng.uniform(0, np.pi), 0.9, count)
    shades = rng.uniform(0.45, 1.25, count)
    dry = rng.random(count) < rng.uniform(0.0, 0.12)
    for x, y, ln, a, sh, d in zip(xs, ys, lens, angs, shades, dry):
        col = np.array((0.25, 0.55, 0.62)) if d else base
        c = tuple(int(v) for v in np.clip(col * sh * 255, 0, 255))
        x2, y2 = x + ln * np.cos(a), y + ln * np.sin(a)
        for ox in (-n, 0, n):  # draw wrapped copies so the texture tiles
            for oy in (-n, 0, n):
                if -ln <= x + ox <= n + ln and -ln <= y + oy <= n + ln:
                    cv2.line(canvas, (int(x + ox), int(y + oy)), (int(x2 + ox), int(y2 + oy)), c, 2, cv2.LINE_AA)
    img = canvas.astype(np.float32) / 255.0
    return img, ppu


def _deck(rng: np.random.Generator) -> tuple[np.ndarray, float]:
    ppu = 40.0
    board_w = float(rng.uniform(1.1, 1.8))
    boards = 6
    h = int(round(board_w * boards * ppu))
    w = int(round(16 * ppu))
    tone = rng.choice([(0.45, 0.58, 0.70), (0.30, 0.42, 0.55), (0.55, 0.58, 0.60), (0.35, 0.50, 0.65)])
    style = pick_style(rng, "pine-black")
    style = SetStyle(**{**style.__dict__, "wood_light": tuple(np.asarray(tone) * 1.05),
                        "wood_dark": tuple(np.asarray(tone) * 0.7), "grain": float(rng.uniform(0.4, 0.9)),
                        "knots": 1.0})
    img = np.zeros((h, w, 3), np.float32)
    gap = max(2, int(0.06 * ppu))
    for b in range(boards):
        y0, y1 = int(b * board_w * ppu), int((b + 1) * board_w * ppu)
        img[y0:y1] = wood(rng, y1 - y0, w, style, tone=float(rng.uniform(0.8, 1.15)), rings=board_w * 2.5)
        img[y0:y0 + gap] *= 0.25
        img[y0:y1, 0:gap] *= 0.3  # the board's end (the texture repeats there)...
        img[y0:y1] = np.roll(img[y0:y1], int(rng.integers(0, w)), axis=1)  # ...staggered board to board
        for _ in range(int(rng.integers(0, 2))):  # board ends
            x = int(rng.uniform(0, w))
            img[y0:y1, x:x + gap] *= 0.3
    weather = cv2.resize(periodic_noise(rng, 256, 8), (w, h))
    img *= (1 + 0.08 * weather)[..., None]
    return np.clip(img, 0, 1), ppu


def _concrete(rng: np.random.Generator) -> tuple[np.ndarray, float]:
    ppu = 64.0
    n = 512
    grey = float(rng.uniform(0.45, 0.72))
    tint = np.asarray((1.0, 1.0, 1.0)) + rng.normal(0, 0.03, 3)
    v = grey + 0.025 * periodic_noise(rng, n, 5) + 0.03 * periodic_noise(rng, n, 60)
    v += rng.normal(0, 0.045, (n, n)).astype(np.float32)
    speck = rng.random((n, n)) < 0.01
    v[speck] *= rng.uniform(0.4, 1.5)
    img = (v[..., None] * tint[None, None, :]).astype(np.float32)
    img = cv2.GaussianBlur(img, (0, 0), 0.7)
    if rng.random() < 0.5:  # an expansion joint
        y = int(rng.uniform(0, n))
        img[y:y + 3] *= 0.45
    return np.clip(img, 0, 1), ppu


def _blanket(rng: np.random.Generator) -> tuple[np.ndarray, float]:
    ppu = 48.0
    check = float(rng.uniform(0.4, 1.2))
    period = int(round(2 * check * ppu))
    n = period * max(1, 512 // period)
    col_a = np.asarray(rng.choice([(0.15, 0.15, 0.75), (0.65, 0.30, 0.15), (0.20, 0.55, 0.25), (0.10, 0.45, 0.85)]), np.float32)
    col_b = np.asarray((0.92, 0.92, 0.92), np.float32) * float(rng.uniform(0.85, 1.0))
    yy, xx = np.mgrid[0:n, 0:n]
    a = ((xx // (period // 2)) % 2).astype(np.float32)
    b = ((yy // (period // 2)) % 2).astype(np.float32)
    # gingham: where both stripes cross it is the full colour, where one crosses it is half
    mix = (a + b)[..., None] / 2.0
    img = col_b * (1 - mix) + col_a * mix
    weave = rng.normal(0, 0.05, (n, n)).astype(np.float32)
    weave = cv2.GaussianBlur(weave, (0, 0), 0.8) * 1.5
    img *= (1 + weave + 0.04 * np.sin(xx * 2.1)[..., None].squeeze(-1))[..., None]
    return np.clip(img, 0, 1).astype(np.float32), ppu


def _table(rng: np.random.Generator) -> tuple[np.ndarray, float]:
    if rng.random() < 0.6:
        ppu = 40.0
        tone = rng.choice([(0.35, 0.48, 0.62), (0.20, 0.28, 0.38), (0.55, 0.65, 0.72), (0.5, 0.5, 0.5)])
        style = pick_style(rng, "pine-black")
        style = SetStyle(**{**style.__dict__, "wood_light": tuple(np.asarray(tone)),
                            "wood_dark": tuple(np.asarray(tone) * 0.75), "grain": float(rng.uniform(0.3, 0.8)),
                            "knots": 0.3})
        h, w = int(12 * ppu), int(16 * ppu)
        top = wood(rng, h, w, style, rings=12 * 2.0)
        # mirrored copies make the texture repeat without a seam (like book-matched planks)
        top = np.concatenate([top, top[:, ::-1]], axis=1)
        return np.ascontiguousarray(np.concatenate([top, top[::-1]], axis=0)), ppu
    ppu = 32.0
    n = 256
    col = np.asarray(rng.choice([(0.88, 0.88, 0.86), (0.35, 0.55, 0.25), (0.3, 0.3, 0.32), (0.75, 0.80, 0.82)]), np.float32)
    img = col * (1 + 0.03 * periodic_noise(rng, n, 4) + rng.normal(0, 0.015, (n, n)).astype(np.float32))[..., None]
    return np.clip(img, 0, 1).astype(np.float32), ppu


_MAKERS = {"grass": _grass, "deck": _deck, "concrete": _concrete, "blanket": _blanket, "table": _table}
TEXTURE_VARIANTS = 12  # textures per ground kind; each is made once per process and reused


@functools.lru_cache(maxsize=64)
def _texture(kind: str, variant: int) -> tuple[np.ndarray, float]:
    tex, ppu = _MAKERS[kind](np.random.default_rng(1000 + variant * 7919 + GROUNDS.index(kind)))
    tex.setflags(write=False)
    return tex, ppu


@functools.lru_cache(maxsize=64)
def _texture_low(kind: str, variant: int) -> np.ndarray:
    tex, _ = _texture(kind, variant)
    low = cv2.GaussianBlur(tex, (0, 0), 2.0)
    low.setflags(write=False)
    return low


def render_ground(rng: np.random.Generator, kind: str, pixel_to_ground: np.ndarray, size: tuple[int, int],
                  *, work_max: int = 1024) -> np.ndarray:
    """The ground seen by the camera, (h, w, 3) float32 for ``size = (w, h)``.

    Rendered at most ``work_max`` pixels on the long side and scaled up: the ground is background, and
    this keeps a 12-megapixel photo quick.
    """
    if kind not in _MAKERS:
        raise UnknownGroundError(f"unknown ground: {kind!r} (known: {', '.join(GROUNDS)})")
    variant = int(rng.integers(0, TEXTURE_VARIANTS))
    tex, ppu = _texture(kind, variant)
    w, h = size
    s = min(1.0, work_max / max(w, h))
    ww, hh = max(2, int(round(w * s))), max(2, int(round(h * s)))
    uu = ((np.arange(ww, dtype=np.float32) + 0.5) / s - 0.5)[None, :]
    vv = ((np.arange(hh, dtype=np.float32) + 0.5) / s - 0.5)[:, None]
    m = pixel_to_ground
    den = m[2, 0] * uu + m[2, 1] * vv + m[2, 2]
    gx = (m[0, 0] * uu + m[0, 1] * vv + m[0, 2]) / den
    gy = (m[1, 0] * uu + m[1, 1] * vv + m[1, 2]) / den
    ang = float(rng.uniform(0, 2 * np.pi))
    ca, sa = np.cos(ang), np.sin(ang)
    tx = ((ca * gx - sa * gy) * ppu + rng.uniform(0, tex.shape[1])).astype(np.float32)
    ty = ((sa * gx + ca * gy) * ppu + rng.uniform(0, tex.shape[0])).astype(np.float32)
    # texel footprint grows with distance: blur the far texture a little against aliasing
    img = cv2.remap(tex, tx.astype(np.float32), ty.astype(np.float32), cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
    low = _texture_low(kind, variant)
    far = cv2.remap(low, tx.astype(np.float32), ty.astype(np.float32), cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
    du = np.hypot(np.diff(tx, axis=1, append=tx[:, -1:] * 2 - tx[:, -2:-1]),
                  np.diff(ty, axis=1, append=ty[:, -1:] * 2 - ty[:, -2:-1]))
    wfar = np.clip((du - 1.5) / 2.0, 0, 1)[..., None]
    img = img * (1 - wfar) + far * wfar
    # large patches (worn grass, stains, uneven colour) in ground coordinates, so they repeat nowhere
    patch = smooth_noise(rng, 64, 64, 8, 8)
    px = ((gx - gx.min()) / max(1e-6, np.ptp(gx)) * 63).astype(np.float32)
    py = ((gy - gy.min()) / max(1e-6, np.ptp(gy)) * 63).astype(np.float32)
    pv = cv2.remap(patch, px, py, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    img *= (1 + 0.08 * pv)[..., None]
    if (ww, hh) != (w, h):
        img = cv2.resize(img, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.clip(img, 0, 1)
