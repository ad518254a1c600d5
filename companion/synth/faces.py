"""Textures of one tile: the wood (or ivory) surface, the pips, the divider and the logo.

Entry points: ``wood(rng, h, w, style)``, ``face_texture(rng, pips, width_px, style)`` and
``side_texture(rng, h, w, style, end_grain)``. All return float32 BGR images in 0..1 (before lighting).

Conventions: a face texture is ``width_px`` high and ``2 * width_px`` wide; x runs along the tile from the
end of the ``pips[0]`` half (x = 0) to the end of the ``pips[1]`` half; the divider sits at x = width_px.
Pip positions are the usual domino patterns in each square half: up to 6 in two lines of three, 7 to 9 on a
three-by-three grid, 10 to 12 in three lines of four (the double-9 and double-12 sets' patterns).

This module only draws; where the tile ends up in the photo is ``render``'s business.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.synth.styles import SetStyle

# Pip patterns on a half, as (across, along) offsets in units of the style's pip_spread.
_GRID3 = [(a, b) for b in (-1, 0, 1) for a in (-1, 0, 1)]
_FOUR = (-1.0, -1 / 3, 1 / 3, 1.0)
_PATTERNS: dict[int, list[tuple[float, float]]] = {
    0: [],
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    5: [(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
    7: [p for p in _GRID3 if p[0] != 0 or p[1] == 0],
    8: [p for p in _GRID3 if p != (0, 0)],
    9: _GRID3,
    10: [(a, b) for b in (-1, 1) for a in _FOUR] + [(-0.5, 0), (0.5, 0)],
    11: [(a, b) for b in (-1, 1) for a in _FOUR] + [(-2 / 3, 0), (0, 0), (2 / 3, 0)],
    12: [(a, b) for b in (-1, 0, 1) for a in _FOUR],
}

WORDS = ("ELAKAI", "GIANT", "YARD", "DOMINO")


def smooth_noise(rng: np.random.Generator, h: int, w: int, cells_y: int, cells_x: int) -> np.ndarray:
    """Smooth zero-mean noise (about unit variance) of shape (h, w), float32, with the given cell counts."""
    small = rng.standard_normal((max(2, cells_y), max(2, cells_x))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def periodic_noise(rng: np.random.Generator, n: int, cells: float) -> np.ndarray:
    """Smooth noise on an (n, n) torus (it tiles seamlessly), about unit variance, float32.

    ``cells``: roughly how many blobs fit across; built by low-pass filtering white noise in Fourier space."""
    white = rng.standard_normal((n, n))
    f = np.fft.fftfreq(n)[:, None] ** 2 + np.fft.fftfreq(n)[None, :] ** 2
    spec = np.fft.fft2(white) * np.exp(-f * (n / max(cells, 0.5)) ** 2 * 2.0)
    out = np.real(np.fft.ifft2(spec))
    return (out / max(out.std(), 1e-9)).astype(np.float32)


def wood(rng: np.random.Generator, h: int, w: int, style: SetStyle, *, tone: float = 1.0,
         rings: float | None = None) -> np.ndarray:
    """A wood surface (h, w, 3) whose grain runs along x: warped growth rings, fine streaks and knots.

    ``rings``: growth rings across the height (random 3..9 when None)."""
    y = np.linspace(0.0, 1.0, h, dtype=np.float32)[:, None]
    x = np.linspace(0.0, 2.0, w, dtype=np.float32)[None, :] if w >= h else np.linspace(0.0, w / h, w, dtype=np.float32)[None, :]
    rings = float(rng.uniform(3.0, 9.0)) if rings is None else rings
    warp = smooth_noise(rng, h, w, 3, 5) * float(rng.uniform(0.15, 0.45))
    warp += smooth_noise(rng, h, w, 6, 3) * 0.08
    slope = float(rng.normal(0.0, 0.15))
    r = (y + slope * x) * rings + warp + float(rng.uniform(0, 10))
    # knots: push the rings around a centre and darken it
    knot_dark = np.zeros((h, w), np.float32)
    for _ in range(rng.poisson(style.knots)):
        ky, kx = float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.1, 1.9)) * (w / max(h, 1)) / 2.0
        s = float(rng.uniform(0.04, 0.12))
        d2 = ((y - ky) ** 2 + ((x - kx) * 0.6) ** 2) / (s * s)
        r = r + 1.5 * np.exp(-d2 * 0.25)
        knot_dark += np.exp(-d2) * float(rng.uniform(0.5, 1.0))
    t = r - np.floor(r)
    band = np.clip((np.abs(t - 0.5) * 2.0), 0.0, 1.0) ** float(rng.uniform(3.0, 8.0))  # thin late-wood bands
    streak = cv2.resize(rng.standard_normal((h, 1)).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    streak = cv2.GaussianBlur(streak, (1, 0), sigmaX=0.1, sigmaY=max(0.6, h / 300)) if h > 8 else streak
    streak += smooth_noise(rng, h, w, max(2, h // 3), 4) * 0.5
    g = style.grain * (0.65 * band + 0.18 * streak + 0.12 * smooth_noise(rng, h, w, 2, 4)) + 0.25 * knot_dark
    g = np.clip(g + 0.15 * style.grain, 0.0, 1.0)
    light = np.asarray(style.wood_light, np.float32) * tone
    dark = np.asarray(style.wood_dark, np.float32) * tone
    img = light[None, None, :] * (1.0 - g[..., None]) + dark[None, None, :] * g[..., None]
    fine = rng.normal(0.0, 0.015, (h, w, 1)).astype(np.float32)
    return np.clip(img * (1.0 + fine), 0.0, 1.0)


def _disc_mask(h: int, w: int, centres: list[tuple[float, float]], radius: float, soft: float) -> np.ndarray:
    """Antialiased discs (x, y in pixels) as a float mask; ``soft`` widens the edge (pixels)."""
    mask = np.zeros((h, w), np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    edge = max(0.7, soft)
    for cx, cy in centres:
        x0, x1 = int(max(0, cx - radius - 3 * edge)), int(min(w, cx + radius + 3 * edge + 1))
        y0, y1 = int(max(0, cy - radius - 3 * edge)), int(min(h, cy + radius + 3 * edge + 1))
        if x0 >= x1 or y0 >= y1:
            continue
        d = np.sqrt((xx[y0:y1, x0:x1] - cx) ** 2 + (yy[y0:y1, x0:x1] - cy) ** 2)
        m = np.clip((radius - d) / edge + 0.5, 0.0, 1.0)
        mask[y0:y1, x0:x1] = np.maximum(mask[y0:y1, x0:x1], m)
    return mask


def _pip_centres(value: int, half: int, width_px: int, style: SetStyle, rng: np.random.Generator) -> list[tuple[float, float]]:
    s = style.pip_spread * width_px
    cx0 = width_px * (half + 0.5)
    cy0 = width_px * 0.5
    out = []
    for across, along in _PATTERNS[value]:
        if value in (6, 10, 11, 12) and not style.six_along:
            across, along = along, across
        if value in (2, 3) and half == 1 and style.six_along:
            across = -across  # some sets mirror the diagonal on the second half
        jitter = rng.normal(0.0, 0.006 * width_px, 2)
        out.append((cx0 + along * s + jitter[0], cy0 + across * s + jitter[1]))
    return out


def _worn(mask: np.ndarray, style: SetStyle, rng: np.random.Generator, radius: float) -> np.ndarray:
    """The mask with patches of paint worn away (chips about a third of a pip across)."""
    if style.wear <= 0 or radius < 2:
        return mask
    h, w = mask.shape
    cells = max(2, int(w / max(radius * 0.7, 1)))
    noise = smooth_noise(rng, h, w, max(2, int(h / max(radius * 0.7, 1))), cells)
    return mask * (1.0 - style.wear * np.clip(noise, 0.0, 1.0))


def _draw_pips(img: np.ndarray, centres: list[tuple[float, float]], style: SetStyle, rng: np.random.Generator,
               width_px: int, value: int) -> None:
    h, w = img.shape[:2]
    radius = style.pip_radius * width_px * float(rng.uniform(0.95, 1.05))
    if value >= 10:  # four pips in a line: smaller, so that they do not run together
        radius = min(radius, 0.3 * style.pip_spread * width_px)
    color = np.asarray(style.value_colors[value] if style.value_colors else style.pip_color, np.float32)
    if not centres:
        return
    if style.pip_kind == "painted":
        m = _worn(_disc_mask(h, w, centres, radius, 0.6), style, rng, radius)
        img[:] = img * (1 - m[..., None]) + color * m[..., None]
        # a faint sheen on the paint
        sheen = _disc_mask(h, w, [(x - radius * 0.3, y - radius * 0.3) for x, y in centres], radius * 0.35, radius * 0.4)
        img[:] = np.clip(img + (sheen * 0.06)[..., None], 0, 1)
    elif style.pip_kind == "burned":
        halo = _disc_mask(h, w, centres, radius * 1.25, radius * 0.35)
        scorch = np.asarray((0.10, 0.18, 0.28), np.float32)
        img[:] = img * (1 - 0.45 * halo[..., None]) + scorch * (0.45 * halo[..., None])
        m = _worn(_disc_mask(h, w, centres, radius * 0.95, radius * 0.25), style, rng, radius)
        img[:] = img * (1 - m[..., None]) + color * m[..., None]
    else:  # drilled: a recess filled with colour, an inner shadow on one side and a lit rim on the other
        ang = float(rng.uniform(0, 2 * np.pi))
        dx, dy = np.cos(ang) * radius * 0.3, np.sin(ang) * radius * 0.3
        m = _disc_mask(h, w, centres, radius, 0.8)
        img[:] = img * (1 - m[..., None]) + color * m[..., None]
        inner = _disc_mask(h, w, [(x + dx, y + dy) for x, y in centres], radius * 0.95, radius * 0.25)
        shadow = np.clip(m - inner, 0, 1)
        img[:] = img * (1 - 0.5 * shadow[..., None])
        rim = np.clip(_disc_mask(h, w, centres, radius * 1.12, 0.8) - m, 0, 1)
        rim_lit = rim * np.clip(_disc_mask(h, w, [(x - 2 * dx, y - 2 * dy) for x, y in centres], radius * 1.1, radius * 0.3), 0, 1)
        img[:] = np.clip(img * (1 - 0.25 * (rim - rim_lit)[..., None]) + 0.12 * rim_lit[..., None], 0, 1)


def _draw_divider(img: np.ndarray, style: SetStyle, width_px: int, rng: np.random.Generator) -> None:
    h, w = img.shape[:2]
    half_w = max(0.6, style.divider_width * width_px / 2)
    span = style.divider_span * h
    x = np.arange(w, dtype=np.float32)[None, :]
    y = np.arange(h, dtype=np.float32)[:, None]
    cx = width_px + float(rng.normal(0, 0.004 * width_px))
    across = np.clip(half_w + 0.5 - np.abs(x - cx), 0, 1)
    along = np.clip((span / 2 + 0.5 - np.abs(y - h / 2)), 0, 1)
    m = (across * along)[..., None]
    if style.divider_kind == "line":
        img[:] = img * (1 - m) + np.asarray(style.pip_color, np.float32) * m
    else:
        img[:] = img * (1 - 0.55 * m)
        lit = (np.clip(half_w + 1.5 - np.abs(x - cx - half_w - 0.8), 0, 1) * along)[..., None]
        img[:] = np.clip(img + 0.10 * lit * (1 - m), 0, 1)


def _draw_logo(img: np.ndarray, style: SetStyle, width_px: int, rng: np.random.Generator) -> None:
    """The brand's logo on the double-blank: a round emblem and a word mark."""
    h, w = img.shape[:2]
    ss = 4  # supersample for clean edges
    canvas = np.zeros((h * ss, w * ss), np.uint8)
    accent = np.zeros_like(canvas)
    layout = int(rng.integers(0, 2))
    r = width_px * float(rng.uniform(0.30, 0.40))
    if layout == 0:
        ecx, ecy = width_px * 0.5, h * 0.5  # emblem in the first half, word mark along the second
    else:
        ecx, ecy = width_px * 1.0, h * 0.42  # emblem centred over the divider, word mark under it
        r *= 0.8
    c = (int(ecx * ss), int(ecy * ss))
    cv2.circle(canvas, c, int(r * ss), 255, max(1, int(0.06 * width_px * ss)), cv2.LINE_AA)
    cv2.circle(canvas, c, int(r * 0.72 * ss), 255, max(1, int(0.025 * width_px * ss)), cv2.LINE_AA)
    # a stylised emblem inside: a star or a leaf
    k = int(rng.integers(5, 8))
    pts = []
    for i in range(2 * k):
        rr = r * (0.55 if i % 2 == 0 else 0.25)
        a = np.pi * i / k - np.pi / 2
        pts.append((ecx + rr * np.cos(a), ecy + rr * np.sin(a)))
    cv2.fillPoly(accent, [np.round(np.asarray(pts) * ss).astype(np.int32)], 255, cv2.LINE_AA)
    word = str(rng.choice(WORDS))
    font = cv2.FONT_HERSHEY_DUPLEX if rng.random() < 0.5 else cv2.FONT_HERSHEY_TRIPLEX
    if layout == 0:
        box_w, box_h, tx0, ty_mid = width_px * 0.85, width_px * 0.28, width_px * 1.075, h * 0.5
    else:
        box_w, box_h, tx0, ty_mid = width_px * 1.3, width_px * 0.2, width_px * 0.35, h * 0.84
    (tw, th), _ = cv2.getTextSize(word, font, 1.0, 2)
    scale = min(box_w / tw, box_h / th) * ss
    thick = max(1, int(scale * 1.6))
    (tw2, th2), _ = cv2.getTextSize(word, font, scale, thick)
    org = (int(tx0 * ss + (box_w * ss - tw2) / 2), int(ty_mid * ss + th2 / 2))
    cv2.putText(canvas, word, org, font, scale, 255, thick, cv2.LINE_AA)
    m = cv2.resize(canvas, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)[..., None] / 255.0
    a = cv2.resize(accent, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)[..., None] / 255.0
    ink = np.asarray(style.logo_color, np.float32)
    acc = np.asarray(style.logo_accent, np.float32) if rng.random() < 0.6 else ink
    img[:] = img * (1 - 0.9 * m) + ink * 0.9 * m
    img[:] = img * (1 - 0.9 * a) + acc * 0.9 * a


def _bevel(img: np.ndarray, style: SetStyle, width_px: int) -> None:
    h, w = img.shape[:2]
    b = max(1.0, style.bevel * width_px)
    y = np.arange(h, dtype=np.float32)[:, None]
    x = np.arange(w, dtype=np.float32)[None, :]
    d = np.minimum(np.minimum(x + 0.5, w - 0.5 - x), np.minimum(y + 0.5, h - 0.5 - y))
    shade = 1.0 - 0.35 * np.exp(-d / b) + 0.08 * np.exp(-((d - 1.2 * b) / b) ** 2)
    img *= shade[..., None]


def face_texture(rng: np.random.Generator, pips: tuple[int, int], width_px: int, style: SetStyle,
                 *, logo: bool = False, grime: float = 0.0) -> tuple[np.ndarray, list[list[tuple[float, float]]]]:
    """The top face of one tile, (width_px, 2 * width_px, 3) float32 BGR in 0..1, and the centres of its
    pips, per half, in texture pixels (x, y) (a pixel's centre is its index)."""
    width_px = int(max(12, width_px))
    h, w = width_px, 2 * width_px
    img = wood(rng, h, w, style, tone=float(rng.uniform(0.92, 1.06)))
    draw_divider = not (logo and rng.random() < 0.5)
    if draw_divider:
        _draw_divider(img, style, width_px, rng)
    centres: list[list[tuple[float, float]]] = [[], []]
    if logo:
        _draw_logo(img, style, width_px, rng)
    else:
        for half, value in enumerate(pips):
            centres[half] = _pip_centres(value, half, width_px, style, rng)
            _draw_pips(img, centres[half], style, rng, width_px, value)
    if grime > 0:  # dirt, scuffs and faded patches
        g = smooth_noise(rng, h, w, 4, 8)
        img *= (1.0 - grime * np.clip(g, 0, None) * 0.15)[..., None]
    _bevel(img, style, width_px)
    return np.clip(img, 0.0, 1.0), centres


def side_texture(rng: np.random.Generator, h: int, w: int, style: SetStyle, *, end_grain: bool) -> np.ndarray:
    """A side of the box (h, w, 3): long grain on the long sides, rings of end grain on the ends."""
    h, w = max(4, h), max(4, w)
    if not end_grain:
        return wood(rng, h, w, style, tone=0.95)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cy, cx = float(rng.uniform(-2, 3)) * h, float(rng.uniform(-0.5, 1.5)) * w
    rr = np.sqrt((yy - cy) ** 2 + (xx - cx) ** 2) / max(h, 4) * float(rng.uniform(4, 8))
    rr += smooth_noise(rng, h, w, 3, 3) * 0.3
    t = rr - np.floor(rr)
    band = (np.abs(t - 0.5) * 2) ** 4 * style.grain
    light = np.asarray(style.wood_light, np.float32) * 0.85
    dark = np.asarray(style.wood_dark, np.float32) * 0.85
    img = light * (1 - band[..., None]) + dark * band[..., None]
    return np.clip(img * (1 + rng.normal(0, 0.03, (h, w, 1)).astype(np.float32)), 0, 1)
