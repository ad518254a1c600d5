"""Where the tiles lie on the ground: scattered hands, touching rows, crowds, the full set, lines of play.

Entry point: ``make_layout(rng, kind, count=None, wrong=None)`` returns a ``Layout``: the tiles placed on
the ground plane and, for a line of play, its junctions. ``KINDS`` lists the kinds.

Conventions: ground units are tile widths (a tile's face is 2 x 1); ``Placed.angle`` (radians) is the
direction from the ``pips[0]`` half to the ``pips[1]`` half. Tiles never overlap; "touching" tiles lie a
hair apart (0 to 3 % of a width), as real ones pushed together do.

Raises ``UnknownKindError`` (``ValueError``) for a kind that does not exist.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from companion.rules.tiles import double_set

KINDS = ("hand", "touching", "crowd", "full-set", "layout")

ALL_TILES: tuple[tuple[int, int], ...] = tuple((t.high, t.low) for t in double_set(6))


class UnknownKindError(ValueError):
    """A photo kind that the generator does not know."""


@dataclass(frozen=True)
class Placed:
    """One tile on the ground."""

    pips: tuple[int, int]
    cx: float
    cy: float
    angle: float


@dataclass(frozen=True)
class Junction:
    """Two tiles of a line of play that meet: their indexes and the touching halves' values."""

    tiles: tuple[int, int]
    pips: tuple[int, int]

    @property
    def ok(self) -> bool:
        return self.pips[0] == self.pips[1]


@dataclass
class Layout:
    tiles: list[Placed] = field(default_factory=list)
    junctions: list[Junction] | None = None
    tags: list[str] = field(default_factory=list)


def footprint(t: Placed, grow: float = 0.0) -> np.ndarray:
    """The face's four corners (4, 2) on the ground, in label order (corners[0]-[1]: the pips[0] end)."""
    c, s = math.cos(t.angle), math.sin(t.angle)
    ax, ay = np.array([c, s]), np.array([-s, c])
    hl, hw = 1.0 + grow, 0.5 + grow
    ctr = np.array([t.cx, t.cy])
    return np.array([ctr - ax * hl - ay * hw, ctr - ax * hl + ay * hw, ctr + ax * hl + ay * hw, ctr + ax * hl - ay * hw])


def _overlap(p: np.ndarray, q: np.ndarray) -> bool:
    """Separating-axis test for two convex quads."""
    for poly in (p, q):
        for i in range(4):
            e = poly[(i + 1) % 4] - poly[i]
            n = np.array([-e[1], e[0]])
            a, b = p @ n, q @ n
            if a.max() <= b.min() or b.max() <= a.min():
                return False
    return True


def _fits(t: Placed, placed: list[Placed], gap: float) -> bool:
    f = footprint(t, gap / 2)
    return all(not _overlap(f, footprint(o, gap / 2)) for o in placed)


def _set_tiles(top: int) -> tuple[tuple[int, int], ...]:
    return ALL_TILES if top == 6 else tuple((t.high, t.low) for t in double_set(top))


def _values(rng: np.random.Generator, n: int, logo_bias: float = 0.25, top: int = 6) -> list[tuple[int, int]]:
    """n distinct tiles, each randomly oriented; the logo tile (0-0) turns up more often than 1 in 28."""
    tiles = _set_tiles(top)
    idx = list(rng.permutation(len(tiles))[:n])
    zero = tiles.index((0, 0))
    if zero not in idx and n < len(tiles) and rng.random() < logo_bias:
        idx[int(rng.integers(0, n))] = zero
    out = []
    for i in idx:
        a, b = tiles[i]
        out.append((a, b) if rng.random() < 0.5 else (b, a))
    return out


def _row(rng: np.random.Generator, values: list[tuple[int, int]], x: float, y: float, ang: float,
         side_by_side: bool) -> list[Placed]:
    """Tiles touching in a row: long sides together (side by side) or end to end."""
    c, s = math.cos(ang), math.sin(ang)
    step_axis = np.array([-s, c]) if side_by_side else np.array([c, s])
    pitch = 1.0 if side_by_side else 2.0
    out = []
    pos = np.array([x, y])
    for v in values:
        jitter = float(rng.normal(0, 0.02))
        flip = math.pi if rng.random() < 0.5 else 0.0
        out.append(Placed(v, float(pos[0]), float(pos[1]), ang + flip + jitter))
        pos = pos + step_axis * (pitch + float(rng.uniform(0.0, 0.03)) + abs(jitter) * 1.2)
        pos = pos + np.array([c, s]) * float(rng.normal(0, 0.08)) * side_by_side
    return out


def _scatter(rng: np.random.Generator, groups: list[list[Placed]], radius: float, gap: float,
             start: list[Placed] | None = None) -> list[Placed]:
    """Drop groups of tiles (each a rigid cluster) at random places and angles without overlaps."""
    placed: list[Placed] = list(start or [])
    for group in groups:
        gx = np.mean([t.cx for t in group])
        gy = np.mean([t.cy for t in group])
        for attempt in range(400):
            r = radius * (1.0 + attempt / 150)
            ox, oy = rng.uniform(-r, r, 2)
            rot = float(rng.uniform(0, 2 * math.pi))
            c, s = math.cos(rot), math.sin(rot)
            moved = [Placed(t.pips, float(ox + c * (t.cx - gx) - s * (t.cy - gy)),
                            float(oy + s * (t.cx - gx) + c * (t.cy - gy)), t.angle + rot) for t in group]
            if all(_fits(t, placed, gap) for t in moved):
                placed.extend(moved)
                break
    return placed


def _hand(rng: np.random.Generator, n: int, touching: float, top: int = 6) -> Layout:
    values = _values(rng, n, top=top)
    groups: list[list[Placed]] = []
    i = 0
    tags = []
    while i < n:
        if n - i >= 2 and rng.random() < touching:
            side = bool(rng.random() < 0.6)
            k = int(rng.integers(2, min(7 if side else 4, n - i) + 1))  # end to end: at most 4 in a row
            groups.append(_row(rng, values[i:i + k], 0, 0, 0, side))
            tags.append("touching")
            i += k
        else:
            groups.append([Placed(values[i], 0.0, 0.0, 0.0)])
            i += 1
    radius = 1.2 * math.sqrt(n) + 0.5
    tiles = _scatter(rng, groups, radius, gap=float(rng.uniform(0.15, 0.6)))
    return Layout(tiles, None, sorted(set(tags)))


def _full_set(rng: np.random.Generator, top: int = 6) -> Layout:
    n = len(_set_tiles(top))
    values = _values(rng, n, 0.0, top)
    short = {28: 4, 55: 5, 91: 7}.get(n, int(math.sqrt(n)))
    rows, cols = (short, -(-n // short)) if rng.random() < 0.5 else (-(-n // short), short)
    along = rng.random() < 0.5
    gx = (2.0 if along else 1.0) + float(rng.uniform(0.4, 0.9))
    gy = (1.0 if along else 2.0) + float(rng.uniform(0.4, 0.9))
    tiles: list[Placed] = []
    for k, v in enumerate(values):
        r, c = divmod(k, cols)
        for jitter in (1.0, 0.5, 0.0):  # laid out by hand: a little crooked, never overlapping
            ang = (0.0 if along else math.pi / 2) + float(rng.normal(0, 0.05)) * jitter \
                + (math.pi if rng.random() < 0.5 else 0)
            t = Placed(v, c * gx + float(rng.normal(0, 0.05)) * jitter, r * gy + float(rng.normal(0, 0.05)) * jitter, ang)
            if _fits(t, tiles, 0.05):
                break
        tiles.append(t)
    return Layout(tiles, None, ["full-set"])


# ---- lines of play -------------------------------------------------------------------------------------

def _line_of_play(rng: np.random.Generator, n: int, wrong: bool) -> Layout:
    """A game as played: matching halves touch, doubles lie crosswise, maybe a spinner and a corner."""
    for _ in range(200):
        result = _try_line(rng, n, wrong)
        if result is not None:
            return result
    raise RuntimeError("could not lay out a line of play")  # pragma: no cover - 200 tries never all fail


def _try_line(rng: np.random.Generator, n: int, wrong: bool) -> Layout | None:
    unused = set(ALL_TILES)
    tiles: list[Placed] = []
    parents: list[tuple[int, int, int] | None] = []  # (parent index, parent half value, own half value)
    arms: list[dict] = []
    tags: set[str] = set()

    def take(pred) -> tuple[int, int] | None:
        options = sorted(t for t in unused if pred(t))
        if not options:
            return None
        t = options[int(rng.integers(0, len(options)))]
        unused.discard(t)
        return t

    def place(tile: Placed) -> bool:
        if not _fits(tile, tiles, -0.02):
            return False
        tiles.append(tile)
        return True

    spinner = rng.random() < 0.5
    if spinner:
        d = take(lambda t: t[0] == t[1])
        assert d is not None
        tiles.append(Placed(d, 0.0, 0.0, math.pi / 2))  # crosswise to a line along x
        parents.append(None)
        n_arms = int(rng.integers(2, 5))
        dirs = [(1, 0), (-1, 0), (0, 1), (0, -1)][:n_arms]
        for dx, dy in dirs:
            off = 0.5 if dy == 0 else 1.0
            arms.append(dict(p=np.array([dx * off, dy * off]), d=np.array([dx, dy], float), v=d[0], parent=0,
                             last_double=True))
        tags.add("spinner" if n_arms > 2 else "double")
    else:
        t = take(lambda t: t[0] != t[1])
        assert t is not None
        tiles.append(Placed(t, 0.0, 0.0, 0.0))
        parents.append(None)
        arms.append(dict(p=np.array([1.0, 0.0]), d=np.array([1.0, 0.0]), v=t[1], parent=0, last_double=False))
        arms.append(dict(p=np.array([-1.0, 0.0]), d=np.array([-1.0, 0.0]), v=t[0], parent=0, last_double=False))
    stuck = 0
    while len(tiles) < n and stuck < 50:
        arm = arms[int(rng.integers(0, len(arms)))]
        v = arm["v"]
        d = arm["d"]
        turn = (not arm["last_double"]) and len(tiles) > 1 and rng.random() < 0.2
        p = arm["p"]
        if turn:
            side = np.array([-d[1], d[0]]) * (1 if rng.random() < 0.5 else -1)
            p = p - d * 0.5 + side * 0.5
            d = side
        want_double = rng.random() < 0.35
        t = take(lambda t: (t[0] == v or t[1] == v) and ((t[0] == t[1]) == want_double))
        if t is None:
            t = take(lambda t: t[0] == v or t[1] == v)
        if t is None:
            stuck += 1
            continue
        if t[0] == t[1]:
            ctr = p + d * 0.5
            ang = math.atan2(d[1], d[0]) + math.pi / 2
            new_p, new_v = p + d * 1.0, t[0]
            pips = t
        else:
            ctr = p + d * 1.0
            ang = math.atan2(d[1], d[0])
            other = t[1] if t[0] == v else t[0]
            pips = (v, other)  # pips[0] half toward the joint
            new_p, new_v = p + d * 2.0, other
        cand = Placed(pips, float(ctr[0]), float(ctr[1]), ang)
        if not place(cand):
            unused.add(t)
            stuck += 1
            continue
        parents.append((arm["parent"], v, v))
        if turn:
            tags.add("corner")
        if t[0] == t[1]:
            tags.add("double")
        arm.update(p=new_p, d=d, v=new_v, parent=len(tiles) - 1, last_double=t[0] == t[1])
    if len(tiles) < max(5, n - 2):
        return None
    if wrong:
        # replace one leaf tile by one whose touching half does not match: exactly one junction is wrong
        children = {p[0] for p in parents if p is not None}
        leaves = [i for i in range(1, len(tiles)) if i not in children]
        rng.shuffle(leaves)
        done = False
        for i in leaves:
            old = tiles[i]
            par, pv, _ = parents[i]  # type: ignore[misc]
            is_double = old.pips[0] == old.pips[1]
            options = sorted(t for t in unused if (t[0] == t[1]) == is_double and t[0] != pv and t[1] != pv)
            if not options:
                continue
            t = options[int(rng.integers(0, len(options)))]
            unused.discard(t)
            unused.add((max(old.pips), min(old.pips)))
            a, b = t if rng.random() < 0.5 else (t[1], t[0])
            tiles[i] = Placed((a, b), old.cx, old.cy, old.angle)
            parents[i] = (par, pv, a)
            done = True
            break
        if not done:
            return None
        tags.add("wrong-junction")
    junctions = [Junction((par, i), (pv, own)) for i, p in enumerate(parents) if p is not None
                 for par, pv, own in [p]]
    # real play is a little untidy
    rot = float(rng.uniform(0, 2 * math.pi))
    c, s = math.cos(rot), math.sin(rot)
    out: list[Placed] = []
    for t in tiles:
        x, y = c * t.cx - s * t.cy, s * t.cx + c * t.cy
        moved = Placed(t.pips, x + float(rng.normal(0, 0.012)), y + float(rng.normal(0, 0.012)),
                       t.angle + rot + float(rng.normal(0, 0.01)))
        out.append(moved if _fits(moved, out, -0.04) else Placed(t.pips, x, y, t.angle + rot))
    return Layout(out, junctions, sorted(tags | {"layout"}))


def make_layout(rng: np.random.Generator, kind: str, *, count: int | None = None, wrong: bool | None = None,
                top: int = 6) -> Layout:
    """Tiles on the ground for a photo of ``kind`` (see ``KINDS``), from a set whose highest half is ``top``
    (lines of play are always of a double-six set)."""
    if kind not in KINDS:
        raise UnknownKindError(f"unknown kind: {kind!r} (known: {', '.join(KINDS)})")
    if kind == "hand":
        n = count or int(rng.choice([1, 2, 3, 4, 5, 5, 6, 6, 7, 7, 8, 9, 10, 11, 12, 13, 14]))
        return _hand(rng, n, touching=0.2, top=top)
    if kind == "touching":
        n = count or int(rng.integers(3, 13))
        lay = _hand(rng, n, touching=0.9, top=top)
        lay.tags = sorted(set(lay.tags) | {"touching"})
        return lay
    if kind == "crowd":
        n = count or int(rng.integers(15, 29))
        lay = _hand(rng, n, touching=0.35, top=top)
        lay.tags = sorted(set(lay.tags) | {"crowd"})
        return lay
    if kind == "full-set":
        return _full_set(rng, top)
    n = count or int(rng.integers(5, 16))
    return _line_of_play(rng, n, bool(rng.random() < 0.4) if wrong is None else wrong)
