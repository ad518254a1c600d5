"""Learn a set profile from one photo of the whole set, laid out face up.

Entry points: ``calibrate(image_bgr, *, name, max_pips=6, progress=None) -> Calibration`` and
``reconcile(reading, max_pips) -> Reconciliation`` (what a reading holds against what the set must
contain). ``Calibration.profile_json(source)`` is the profile file's contents; ``Calibration.picture(image)``
the annotated picture of what was recognised.

How: the contents of a set are known (every tile of a double-``max_pips`` set exactly once: 28, 55 or 91
tiles), so a candidate profile can be judged on the photo without any labels: the more tiles of the set it
reads exactly once, and the fewer readings it makes that the set cannot hold (a tile twice, a half above
``max_pips``), the better. Each candidate is also tried on two other views of the same photo (tilted
away and dimmed; reduced), which still show the whole set: of the candidates that read the photo itself
right, the one that reads the most over all three views wins, as the likeliest to read the set's next
photos. ``calibrate``

1. tries the shipped profiles and variations of what describes a set's look (ink darker or lighter
   than the face, a lowest face lightness or none, thin-line divider search on or off; ``BASES``),
2. each with and without a logo on the double-blank (``blank_needs_logo``, ``logo_min_area``); the
   logo is learned from the double-blank: when a candidate reads it, a big mark on its face means the
   set has a logo and only candidates that expect one are kept (else a plain plank would read 0-0);
3. measures the tiles it recognised (their proportions, face colour, pip contrast and size) and tries
   the profile narrowed to those measurements (tile aspect, lowest face lightness, pip size); a
   refinement is kept only when it reads the photo and its views at least as well;
4. reports the result with ``Reconciliation``: ``ok`` only when every tile of the set was read exactly
   once and nothing else was read (a tile cut off by the border is named when tiles are missing).

A calibration makes about 17 candidates and 30 to 50 readings (``companion.vision.read_tiles``), a
fraction of a second to a few seconds each for a phone photo; ``progress`` is told of each candidate.
What it does not do: it never writes files (the command line does), and it cannot see a misreading that
swaps two tiles of the set with each other.

Conventions as in ``companion.vision``: ``image_bgr`` BGR uint8, corners xy in the photo's pixels.
Raises ``VisionInputError`` (``ValueError``) for an array that is not an image and ``ValueError`` for a
``max_pips`` other than 6, 9 or 12.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field, fields, replace
from typing import Callable

import cv2
import numpy as np

from calibration import load_profile
from companion.rules.tiles import Tile, double_set
from companion.vision import Reading, TileReading, read_tiles
from companion.vision.pips import rectify
from companion.vision.profile import Profile

__all__ = ["calibrate", "reconcile", "Calibration", "Reconciliation", "SETS", "BASES"]

SETS = {"double-six": 6, "double-nine": 9, "double-twelve": 12}

# Step 1's candidates: (label, shipped profile, overrides). Ordered from the most general; on a tie the
# earlier one wins. "light ink" variants are for dark wood with light pips (the shipped ivory and
# twelve-color profiles look for dark ink on a light face only).
BASES: tuple[tuple[str, str, dict], ...] = (
    ("giant-wood", "giant-wood", {}),
    ("ivory", "ivory", {}),
    ("twelve-color", "twelve-color", {}),
    ("giant-wood, dark ink", "giant-wood", {"ink_polarity": "dark"}),
    ("giant-wood, light ink", "giant-wood", {"ink_polarity": "light"}),
    ("ivory, any face", "ivory", {"face_min_lightness": 0.0}),
    ("ivory, light ink", "ivory", {"ink_polarity": "light", "face_min_lightness": 0.0}),
)

# Step 2: does the double-blank carry a logo? (label, overrides)
LOGO_VARIANTS: tuple[tuple[str, dict], ...] = (
    ("logo on the double-blank", {"blank_needs_logo": True, "logo_min_area": Profile.logo_min_area}),
    ("no logo", {"blank_needs_logo": False, "logo_min_area": 1.0}),
)

LOGO_CONTRAST = 40.0  # Lab distance from the face that makes a pixel part of a mark on the double-blank
LOGO_AREA = 0.05  # a mark this big (square tile widths) on the double-blank is a logo

# Other views of the photo each candidate is also judged on (see ``_views``)
TILT_INSET = 0.12  # the far edge of the "tilted" view is narrowed by this fraction of the width on each side
DIM_GAIN = 0.55  # the "dim" view's brightness, relative to the photo
SMALL_SCALE = 0.6  # the "smaller" view's size, relative to the photo
VIEW_SLACK = 3  # a candidate reading this many tiles fewer than the best so far is not tried on the views

# Step 3's margins around what was measured (the next photos are lit and tilted differently)
ASPECT_HEADROOM = 1.25  # tile_aspect_max = this x the longest-looking recognised tile
LIGHTNESS_HEADROOM = 0.5  # face_min_lightness = this x the darkest recognised face (a dim photo halves it)
PIP_AREA_HEADROOM = 2.5  # pip areas may be this many times smaller or larger than those measured


@dataclass(frozen=True)
class Reconciliation:
    """What a reading of a whole-set photo holds against the set's contents."""

    max_pips: int
    once: tuple[Tile, ...]  # tiles of the set read exactly once
    missing: tuple[Tile, ...]  # tiles of the set not read at all
    twice: tuple[tuple[Tile, int], ...]  # tiles of the set read more than once, with how often
    outside: tuple[tuple[int, int], ...]  # readings the set cannot hold (a half above max_pips)
    cut_off: int = 0  # tiles left out because the photo's border cuts them

    @property
    def expected(self) -> int:
        return len(double_set(self.max_pips))

    @property
    def ok(self) -> bool:
        # a "cut off" warning beside a complete set is a mark on the ground near the border, not a tile
        return len(self.once) == self.expected and not self.twice and not self.outside

    @property
    def score(self) -> tuple[int, int]:
        """Higher is better: tiles read once, less every reading too many."""
        surplus = sum(n - 1 for _, n in self.twice) + len(self.outside)
        return (len(self.once) - surplus, -surplus)

    def problems(self) -> list[str]:
        """Each way the reading falls short of the set, as short phrases (empty when ``ok``)."""
        out = []
        if self.missing:
            out.append(f"not found: {', '.join(str(t) for t in self.missing)}")
        if self.twice:
            out.append("read more than once: " + ", ".join(f"{t} x{n}" for t, n in self.twice))
        if self.outside:
            out.append(f"not in a double-{self.max_pips} set: " + ", ".join(f"{a}-{b}" for a, b in self.outside))
        if self.cut_off and self.missing:
            out.append(f"{self.cut_off} tile{'s' if self.cut_off > 1 else ''} cut off by the photo's border")
        return out

    def summary(self) -> str:
        head = f"{len(self.once)} of {self.expected} tiles read exactly once"
        return head if self.ok else f"{head}; " + "; ".join(self.problems())


def reconcile(reading: Reading, max_pips: int) -> Reconciliation:
    """Compare ``reading`` (of a photo meant to show the whole set) with a double-``max_pips`` set."""
    counts: Counter = Counter()
    outside = []
    for t in reading.tiles:
        a, b = (int(v) for v in t.pips)
        if max(a, b) > max_pips:
            outside.append((max(a, b), min(a, b)))
        else:
            counts[Tile(a, b)] += 1
    every = double_set(max_pips)
    cut = sum("cut off by the" in w for w in reading.warnings)
    return Reconciliation(max_pips=max_pips,
                          once=tuple(t for t in every if counts[t] == 1),
                          missing=tuple(t for t in every if counts[t] == 0),
                          twice=tuple((t, counts[t]) for t in every if counts[t] > 1),
                          outside=tuple(sorted(outside, reverse=True)),
                          cut_off=cut)


@dataclass(frozen=True)
class Trial:
    label: str
    profile: Profile
    reading: Reading
    check: Reconciliation
    seconds: float
    views: tuple[int, ...] | None = None  # tiles read once less surplus, in each other view (None: not tried)

    @property
    def key(self) -> tuple:
        """How candidates are ranked: reading the photo itself right first, then the most tiles reconciled
        over the photo and its other views together (a candidate whose views were not tried ranks last)."""
        views = -10 ** 6 if self.views is None else sum(self.views)
        return (self.check.ok, self.check.score[0] + views, self.check.score)


@dataclass(frozen=True)
class Calibration:
    """The outcome: the best profile found, its reading of the photo and how that reconciles with the set."""

    profile: Profile
    reading: Reading
    check: Reconciliation
    steps: tuple[str, ...]  # the candidates that made the profile, in order ("ivory", "no logo", ...)
    learned: dict = field(default_factory=dict)  # what was measured on the recognised tiles
    trials: tuple[Trial, ...] = ()

    @property
    def ok(self) -> bool:
        return self.check.ok

    def profile_json(self, source: str = "") -> dict:
        """The profile file's contents: the fields that differ from the defaults (plus the ones that
        describe the set), with ``_about`` and ``_learned`` comments."""
        default = Profile()
        keep = {"name", "max_pips", "ink_polarity", "tile_aspect_min", "tile_aspect_max", "tile_aspect_typical",
                "face_min_lightness", "blank_needs_logo"}
        data: dict = {
            "_about": (f"Learned by companion calibrate from {source or 'a photo'} of the whole double-"
                       f"{self.profile.max_pips} set ({self.check.summary()}), starting from "
                       f"{' + '.join(self.steps)}."),
            "_learned": self.learned,
        }
        for f in fields(Profile):
            value = getattr(self.profile, f.name)
            if f.name in keep or value != getattr(default, f.name):
                data[f.name] = list(value) if isinstance(value, tuple) else value
        return data

    def picture(self, image_bgr: np.ndarray) -> np.ndarray:
        """``image_bgr`` with every tile read outlined (a tile read twice in red) and, below, the verdict."""
        from companion.scanner import annotate  # the scanner's drawing, so the picture looks like scan's

        verdict = f"calibration {self.profile.name!r}: " + ("OK, " if self.ok else "REFUSED, ") + self.check.summary()
        logo = "expects a logo on the double-blank" if self.profile.blank_needs_logo else "expects a plain double-blank"
        notes = [verdict, f"profile from {' + '.join(self.steps)}; it {logo}"]
        return annotate(image_bgr, Reading(self.reading.tiles, notes + list(self.reading.warnings)))


def _measure(image_bgr: np.ndarray, tiles: list[TileReading], profile: Profile) -> dict:
    """Proportions, face colour and pip statistics of the recognised tiles (in the profile's units)."""
    if not tiles:
        return {}
    aspects, face_l, face_lab, contrasts, pip_areas = [], [], [], [], []
    w = profile.rect_width
    for t in tiles:
        q = np.asarray(t.corners, float)
        short = (np.linalg.norm(q[0] - q[1]) + np.linalg.norm(q[2] - q[3])) / 2
        long_ = (np.linalg.norm(q[1] - q[2]) + np.linalg.norm(q[3] - q[0])) / 2
        aspects.append(long_ / max(short, 1e-6))
        lab = cv2.cvtColor(rectify(image_bgr, q, profile), cv2.COLOR_BGR2LAB).astype(np.float32)
        m = max(1, int(round(profile.face_margin * w)))
        inner = lab[m:2 * w - m, m:w - m]
        face = np.median(inner.reshape(-1, 3), axis=0)
        face_l.append(float(face[0]))
        face_lab.append(face)
        dist = np.linalg.norm(inner - face, axis=2)
        if sum(t.pips) == 0:
            continue
        # pips: the marks well beyond the face's own variation, away from the divider band
        band = int(round((1 - profile.divider_band) * w)), int(round((1 + profile.divider_band) * w))
        dist[band[0] - m:band[1] - m] = 0
        thr = max(profile.pip_contrast_min, float(np.percentile(dist, 99)) * 0.5)
        ink = (dist > thr).astype(np.uint8)
        n, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
        areas = sorted(stats[1:, cv2.CC_STAT_AREA] / float(w * w), reverse=True)[: sum(t.pips)]
        if areas:
            contrasts.append(float(np.median(dist[ink > 0])))
            pip_areas += [float(a) for a in areas]
    lab = np.median(np.asarray(face_lab), axis=0)
    out = {
        "tiles_measured": len(tiles),
        "tile_aspect_median": round(float(np.median(aspects)), 3),
        "tile_aspect_range": [round(float(min(aspects)), 3), round(float(max(aspects)), 3)],
        "face_lab_median": [round(float(v), 1) for v in lab],
        "face_lightness_range": [round(float(min(face_l)), 1), round(float(max(face_l)), 1)],
    }
    if contrasts:
        out["pip_contrast_median"] = round(float(np.median(contrasts)), 1)
        out["pip_area_median"] = round(float(np.median(pip_areas)), 4)
        out["pip_area_range"] = [round(float(np.percentile(pip_areas, 5)), 4),
                                 round(float(np.percentile(pip_areas, 95)), 4)]
    return out


def _refinements(profile: Profile, learned: dict) -> list[tuple[str, dict]]:
    """Step 3's candidates: the profile narrowed to what was measured, one quantity at a time."""
    out = []
    if "tile_aspect_range" in learned:
        typical = learned["tile_aspect_median"]
        top = min(profile.tile_aspect_max, max(typical, learned["tile_aspect_range"][1]) * ASPECT_HEADROOM)
        if top > profile.tile_aspect_min + 0.3:
            out.append(("measured tile aspect", {"tile_aspect_typical": round(float(typical), 2),
                                                 "tile_aspect_max": round(float(top), 2)}))
    if "face_lightness_range" in learned and profile.ink_polarity == "dark":
        floor = round(LIGHTNESS_HEADROOM * learned["face_lightness_range"][0], 1)
        if floor != profile.face_min_lightness:  # raised to ignore dark ground, or lowered for dim light
            out.append(("measured face lightness", {"face_min_lightness": float(floor)}))
    if "pip_area_range" in learned:
        low = learned["pip_area_range"][0] / PIP_AREA_HEADROOM
        high = learned["pip_area_range"][1] * PIP_AREA_HEADROOM
        low, high = max(low, profile.pip_area_min), min(high, profile.pip_area_max)
        if high > low * 2 and (low, high) != (profile.pip_area_min, profile.pip_area_max):
            out.append(("measured pip size", {"pip_area_min": round(float(low), 4),
                                              "pip_area_max": round(float(high), 4)}))
    return out


def _views(image_bgr: np.ndarray) -> list[tuple[str, np.ndarray]]:
    """Other views of the calibration photo that still show the whole set (``VIEWS``): the photo tilted
    away and dimmed, and the photo reduced. A profile that reads these too is likelier to read the set's
    next photos, which are seldom taken as squarely and as well lit."""
    if image_bgr.ndim == 2 or image_bgr.shape[2] == 4:
        image_bgr = cv2.cvtColor(image_bgr, cv2.COLOR_GRAY2BGR if image_bgr.ndim == 2 else cv2.COLOR_BGRA2BGR)
    h, w = image_bgr.shape[:2]
    ground = np.median(np.concatenate([image_bgr[0], image_bgr[-1], image_bgr[:, 0], image_bgr[:, -1]]), axis=0)
    inset = TILT_INSET * w
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[inset, TILT_INSET * h], [w - inset, TILT_INSET * h], [w, h], [0, h]])
    tilted = cv2.warpPerspective(image_bgr, cv2.getPerspectiveTransform(src, dst), (w, h), flags=cv2.INTER_AREA,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=tuple(float(v) for v in ground))
    dim = np.clip(tilted.astype(np.float32) * np.float32(DIM_GAIN), 0, 255).astype(np.uint8)
    small = cv2.resize(image_bgr, None, fx=SMALL_SCALE, fy=SMALL_SCALE, interpolation=cv2.INTER_AREA)
    return [("tilted and dim", dim), ("smaller", small)]


def _double_blank_has_logo(image_bgr: np.ndarray, trials: list[Trial]) -> bool | None:
    """Whether the double-blank carries a logo: a mark of at least ``LOGO_AREA`` square tile widths on
    the face read as 0-0 by the best candidate that read it exactly once; None when none did."""
    blank = Tile(0, 0)
    for t in trials:
        if blank not in t.check.once:
            continue
        tile = next(r for r in t.reading.tiles if tuple(r.pips) == (0, 0))
        w = t.profile.rect_width
        lab = cv2.cvtColor(rectify(image_bgr, np.asarray(tile.corners, float), t.profile),
                           cv2.COLOR_BGR2LAB).astype(np.float32)
        m = max(1, int(round(t.profile.face_margin * w)))
        inner = lab[m:2 * w - m, m:w - m]
        dist = np.linalg.norm(inner - np.median(inner.reshape(-1, 3), axis=0), axis=2)
        band = int(round((1 - t.profile.divider_band) * w)) - m, int(round((1 + t.profile.divider_band) * w)) - m
        dist[band[0]:band[1]] = 0  # a divider is no logo
        ink = (dist > LOGO_CONTRAST).astype(np.uint8)
        ink = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
        n, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
        largest = max((float(a) for a in stats[1:, cv2.CC_STAT_AREA]), default=0.0) / (w * w)
        return largest >= LOGO_AREA
    return None


def calibrate(image_bgr: np.ndarray, *, name: str, max_pips: int = 6,
              progress: Callable[[str], None] | None = None) -> Calibration:
    """Learn the profile ``name`` for a double-``max_pips`` set from ``image_bgr``, a photo of the whole
    set face up. Always returns a ``Calibration``; ``ok`` says whether its profile reads the photo right."""
    if max_pips not in SETS.values():
        raise ValueError(f"invalid max_pips: {max_pips!r} (6, 9 or 12)")
    say = progress or (lambda message: None)
    trials: list[Trial] = []
    views: list[tuple[str, np.ndarray]] = []  # made on first need, once read_tiles has accepted the image
    best: Trial | None = None

    def trial(label: str, profile: Profile) -> Trial:
        t0 = time.perf_counter()
        reading = read_tiles(image_bgr, profile)
        done = Trial(label, profile, reading, reconcile(reading, max_pips), time.perf_counter() - t0)
        # the other views only for a candidate that could compete: each costs a reading
        if best is None or done.check.score[0] >= best.check.score[0] - VIEW_SLACK:
            done = with_views(done)
        trials.append(done)
        seen = "" if done.views is None else "; other views: " + ", ".join(
            f"{v} {n}" for (n, _), v in zip(views, done.views))
        say(f"{label}: {done.check.summary()}{seen} ({done.seconds:.1f} s)")
        return done

    def with_views(t: Trial) -> Trial:
        if t.views is not None:
            return t
        t0 = time.perf_counter()
        views[:] = views or _views(image_bgr)
        scores = tuple(reconcile(read_tiles(view, t.profile), max_pips).score[0] for _, view in views)
        return replace(t, views=scores, seconds=t.seconds + time.perf_counter() - t0)

    # 1. the shipped profiles and variations of the set's look, 2. each with and without a logo on the
    # double-blank
    for label, shipped, overrides in BASES:
        base = replace(load_profile(shipped), **overrides, name=name, max_pips=max_pips)
        for logo, logo_overrides in LOGO_VARIANTS:
            own = all(getattr(base, k) == v for k, v in logo_overrides.items())
            t = trial(label if own else f"{label}, {logo}", replace(base, **logo_overrides))
            if best is None or t.key > best.key:
                best = t
    # the logo is learned from the double-blank: a big mark on it means the set has a logo, and then a
    # profile that takes any plain face for the double-blank would read planks and paving stones as tiles
    has_logo = _double_blank_has_logo(image_bgr, sorted(trials, key=lambda t: t.key, reverse=True))
    eligible = [t for t in trials if has_logo is None or t.profile.blank_needs_logo == has_logo]
    top = max(t.check.score[0] for t in eligible)
    eligible = [with_views(t) if t.check.score[0] >= top - VIEW_SLACK else t for t in eligible]
    best = max(eligible, key=lambda t: t.key)  # the first of equals: BASES are ordered most general first
    steps = [best.label]
    if has_logo is not None:
        say(f"the double-blank {'carries a logo' if has_logo else 'is plain'}: "
            f"{'only' if len(eligible) < len(trials) else 'all'} candidates {'with' if has_logo else 'without'} "
            "a logo are kept")

    # 3. refine what can be measured on the tiles read once, keeping each refinement that does no harm
    once = set(best.check.once)
    recognised = [t for t in best.reading.tiles if max(t.pips) <= max_pips and Tile(*t.pips) in once]
    learned = _measure(image_bgr, recognised, best.profile)
    if has_logo is not None:
        learned["double_blank_logo"] = has_logo
    for label, overrides in _refinements(best.profile, learned):
        t = trial(f"+ {label}", replace(best.profile, **overrides))
        if t.key >= best.key:
            best, steps = t, steps + [label]
    say(("calibrated: " if best.check.ok else "refused: ") + best.check.summary())
    return Calibration(best.profile, best.reading, best.check, tuple(steps), learned, tuple(trials))
