"""Learn a set profile from one photo of the whole set, laid out face up.

Entry points: ``calibrate(image_bgr, *, name, max_pips=6, progress=None) -> Calibration`` and
``reconcile(reading, max_pips) -> Reconciliation`` (what a reading holds against what the set must
contain). ``Calibration.profile_json(source)`` is the profile file's contents; ``Calibration.picture(image)``
the annotated picture of what was recognised.

How: the contents of a set are known (every tile of a double-``max_pips`` set exactly once: 28, 55 or 91
tiles), so the photo labels itself once it is read right. ``calibrate``

1. lets the networks look at the photo once (``companion.vision.find_faces``, with a low detector
   threshold so that nothing the set shows is missed);
2. reads what they saw under the starting profile's thresholds and, if that is not the whole set exactly
   once, under a grid of other thresholds (how sure a crop must be of holding a whole tile, how strong a
   pip's mark must be) and with and without a logo on the double-blank, and keeps the reading that
   reconciles with the set, or else the one that comes closest (and refuses, naming the tiles it could not
   reconcile); where no reading reconciles, it looks again at only the places the starting profile's own
   detector threshold keeps, and reads those the same way (the low threshold can bring in a patch of
   ground that the reader takes surely for a tile, a 1-0 beside the set's own);
3. learns from the reconciled reading: each threshold that read it is kept where the photo shows it well
   inside its gap, else set halfway (in log-odds) across the gap: the pip threshold's between the faintest
   pip of the set and the strongest mark that is not one, the tile threshold's between the least sure tile
   and the surest thing that is not a tile; the plausible proportions come from the tiles' own; the
   double-blank says whether the set has a logo (the reader's belief that it is the logo tile), and if so
   the logo threshold's gap lies between it and the likeliest other face; and it checks that the learned
   profile reads the photo as the whole set. A set's faint pips (worn paint, pale burns) so get a lower
   threshold, its knots and logo a higher one. A photo of a set laid out face up is easier than a photo of
   play, so a threshold that it shows to be well placed is not moved: halfway points learned from it read
   later photos of the set worse than the start's (failing photos of three generated sets, 900 in all: 29
   against 21).

It also measures what describes the set (the tiles' proportions, the face's colour), kept as a comment in
the profile. What it does not do: it never writes files
(the command line does), and it cannot see a misreading that swaps two tiles of the set with each other.

Conventions as in ``companion.vision``: ``image_bgr`` BGR uint8, corners xy in the photo's pixels.
Raises ``VisionInputError`` (``ValueError``) for an array that is not an image and ``ValueError`` for a
``max_pips`` other than 6, 9 or 12.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, fields, replace
from typing import Callable

import cv2
import numpy as np

from calibration import load_profile
from companion.rules.tiles import Tile, double_set
from companion.vision import Faces, Reading, assemble, find_faces, geometry as geo
from companion.vision.profile import Profile

__all__ = ["calibrate", "reconcile", "Calibration", "Reconciliation", "SETS"]

SETS = {"double-six": 6, "double-nine": 9, "double-twelve": 12}

START_READER = "reader-all-sets.onnx"  # a set calibrated is another set: the reader that learned every style
LOOK_THRESHOLD = 0.1  # the detector's threshold while calibrating: every candidate is looked at
TILE_GRID = (0.5, 0.35, 0.65, 0.2, 0.8)  # thresholds tried when the start does not read the set (in order)
PIP_GRID = (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8)
LEARNED_RANGE = (0.2, 0.8)  # learned thresholds stay in this range
ASPECT_HEADROOM = (0.65, 1.35)  # plausible proportions: this far beyond the set's own (a slanted view shortens)


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
class Calibration:
    """The outcome: the profile learned, its reading of the photo and how that reconciles with the set."""

    profile: Profile
    reading: Reading
    check: Reconciliation
    steps: tuple[str, ...]  # how the profile was made ("giant-wood", "pip threshold 0.42", ...)
    learned: dict = field(default_factory=dict)  # what was measured on the recognised tiles

    @property
    def ok(self) -> bool:
        return self.check.ok

    def profile_json(self, source: str = "") -> dict:
        """The profile file's contents: the fields that differ from the defaults (and the set's size and logo), with
        ``_about`` and ``_learned`` comments."""
        default = Profile()
        data: dict = {
            "_about": (f"Learned by companion calibrate from {source or 'a photo'} of the whole double-"
                       f"{self.profile.max_pips} set ({self.check.summary()}): {', '.join(self.steps)}."),
            "_learned": self.learned,
        }
        for f in fields(Profile):
            value = getattr(self.profile, f.name)
            if f.name in ("name", "max_pips", "logo") or value != getattr(default, f.name):
                data[f.name] = value
        return data

    def picture(self, image_bgr: np.ndarray) -> np.ndarray:
        """``image_bgr`` with every tile read outlined and, below, the verdict."""
        from companion.scanner import annotate  # the scanner's drawing, so the picture looks like scan's

        verdict = f"calibration {self.profile.name!r}: " + ("OK, " if self.ok else "REFUSED, ") + self.check.summary()
        logo = self.learned.get("double_blank_logo")
        notes = [verdict, "learned: " + ", ".join(self.steps)]
        if logo is not None:
            notes.append(f"the double-blank {'carries a logo' if logo else 'is plain'}; it reads 0-0 either way")
        return annotate(image_bgr, Reading(self.reading.tiles, notes + list(self.reading.warnings)),
                        self.profile.doubt_below)


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def _halfway(low: float, high: float) -> float:
    """The point halfway between two probabilities in log-odds, kept in ``LEARNED_RANGE``."""
    mid = 1.0 / (1.0 + math.exp(-(_logit(low) + _logit(high)) / 2))
    return round(float(min(max(mid, LEARNED_RANGE[0]), LEARNED_RANGE[1])), 3)


def _kept_or_halfway(start: float, low: float, high: float) -> float:
    """``start`` where the photo leaves it well inside its gap, from ``low`` (the strongest of what must fall
    below it) to ``high`` (the weakest of what must pass): a quarter of the gap or more, in log-odds, from
    either side; else the point halfway."""
    lo, hi = _logit(low), _logit(high)
    if lo + (hi - lo) / 4 <= _logit(start) <= hi - (hi - lo) / 4:
        return start
    return _halfway(low, high)


def _told(threshold: float, start: float) -> str:
    return f"kept at {threshold}" if threshold == start else f"{threshold}"


def _kept_faces(found: Faces, reading: Reading) -> tuple[list, list]:
    """The faces behind the reading's tiles, and the faces that were looked at but are no tile of it."""
    tiles, others = [], []
    for face in found.faces:
        same = [t for t in reading.tiles if np.allclose(t.corners, face.corners)]
        (tiles if same else others).append(face)
    return tiles, others


def _tiles_of(faces: list, reading: Reading) -> list:
    """The reading's tile for each face (in the order of ``faces``)."""
    return [next(t for t in reading.tiles if np.allclose(t.corners, f.corners)) for f in faces]


def _measure(image_bgr: np.ndarray, reading: Reading) -> dict:
    """The set's proportions and face colour, measured on the tiles read (for the profile's comment)."""
    if not reading.tiles:
        return {}
    aspects, faces = [], []
    for t in reading.tiles:
        _, _, length, width = geo.frame_of(t.corners)
        aspects.append(length / max(width, 1e-6))
        crop = geo.warp_crop(image_bgr, geo.quad_to_crop(geo.clockwise(t.corners)))
        x0, y0 = geo.CANONICAL.min(axis=0).astype(int) + 4
        x1, y1 = geo.CANONICAL.max(axis=0).astype(int) - 4
        lab = cv2.cvtColor(crop[y0:y1, x0:x1], cv2.COLOR_BGR2LAB).astype(np.float32)
        face = np.median(lab.reshape(-1, 3), axis=0)
        faces.append(face)
    out = {"tiles_measured": len(reading.tiles),
           "tile_aspect_median": round(float(np.median(aspects)), 3),
           "tile_aspect_range": [round(float(min(aspects)), 3), round(float(max(aspects)), 3)],
           "face_lab_median": [round(float(v), 1) for v in np.median(np.asarray(faces), axis=0)]}
    return out


def _best_reading(found: Faces, base: Profile, max_pips: int) -> tuple[Profile, Reading, Reconciliation]:
    """The start's thresholds, else the grid's, with and without a logo on the double-blank: the reading of
    ``found`` that reconciles with the set (or comes closest)."""
    best = None
    for logo in (base.logo, not base.logo):
        for tile_t in dict.fromkeys((base.tile_threshold,) + TILE_GRID):  # the start's first
            for pip_t in dict.fromkeys((base.pip_threshold,) + PIP_GRID):
                # (a set whose 1-0 the reader is less sure of than the start's one-pip threshold: no stricter)
                for bare_t in dict.fromkeys((base.bare_tile_threshold, min(tile_t, base.bare_tile_threshold))):
                    profile = replace(base, logo=logo, tile_threshold=tile_t, pip_threshold=pip_t,
                                      bare_tile_threshold=bare_t)
                    reading = assemble(found, profile)
                    check = reconcile(reading, max_pips)
                    if best is None or check.score > best[2].score:
                        best = (profile, reading, check)
                    if check.ok:
                        return best
    return best


def _looked_at(image_bgr: np.ndarray, base: Profile, max_pips: int, say: Callable[[str], None]) -> tuple:
    """The detector threshold looked from, the faces found and ``_best_reading`` of them: first every
    candidate; where no reading reconciles, again the places the start's own threshold keeps (the wider
    look can read a patch of ground beside a tile as a tile)."""
    best = None
    for look in dict.fromkeys((min(base.detect_threshold, LOOK_THRESHOLD), base.detect_threshold)):
        say("looking at the photo ..." if best is None else "looking again at fewer places ...")
        found = find_faces(image_bgr, replace(base, detect_threshold=look))
        say(f"{len(found.faces)} places looked at")
        profile, reading, check = _best_reading(found, base, max_pips)
        if best is None or check.score > best[4].score:
            best = (look, found, profile, reading, check)
        if check.ok:
            break
    return best


def calibrate(image_bgr: np.ndarray, *, name: str, max_pips: int = 6, start: Profile | None = None,
              progress: Callable[[str], None] | None = None) -> Calibration:
    """Learn the profile ``name`` for a double-``max_pips`` set from ``image_bgr``, a photo of the whole
    set face up, starting from ``start`` (the giant wooden set's profile, read with ``START_READER``).
    Always returns a ``Calibration``; ``ok`` says whether its profile reads the photo as the whole set."""
    if max_pips not in SETS.values():
        raise ValueError(f"invalid max_pips: {max_pips!r} (6, 9 or 12)")
    say = progress or (lambda message: None)
    base = replace(start or replace(load_profile(None), reader=START_READER), name=name, max_pips=max_pips)
    look, found, profile, reading, check = _looked_at(image_bgr, base, max_pips, say)
    chosen = (reading, check)
    steps = [base.name if start is None else start.name]
    if look > LOOK_THRESHOLD:
        steps.append(f"places of detector heat {look} or more")
    if (profile.tile_threshold, profile.pip_threshold) != (base.tile_threshold, base.pip_threshold):
        steps.append(f"thresholds tried: tile {profile.tile_threshold}, pip {profile.pip_threshold}")
    learned = _measure(image_bgr, reading)
    if not check.ok:
        say("refused: " + check.summary())
        return Calibration(profile, reading, check, tuple(steps), learned)

    # 3. learn the thresholds from the set read right
    tiles, others = _kept_faces(found, reading)
    pips = [p.heat for f in tiles for half in f.peaks for p in half if p.heat >= profile.pip_threshold]
    marks = [p.heat for f in tiles for half in f.peaks for p in half if p.heat < profile.pip_threshold]
    pip_t = _kept_or_halfway(profile.pip_threshold, max(marks, default=0.0), min(pips, default=1.0))
    sure = min((f.tile_score for f in tiles), default=1.0)
    unsure = max((f.tile_score for f in others if f.tile_score < profile.tile_threshold), default=0.0)
    # tiles laid out apart and face up are surer than tiles in a hand will be: never stricter than what read them
    tile_t = min(_kept_or_halfway(profile.tile_threshold, unsure, sure), profile.tile_threshold)
    aspects = [geo.frame_of(t.corners)[2] / geo.frame_of(t.corners)[3] for t in reading.tiles]
    aspect_min = round(float(min(aspects) * ASPECT_HEADROOM[0]), 2)
    aspect_max = round(float(max(aspects) * ASPECT_HEADROOM[1]), 2)
    # the logo: the reader's belief that the double-blank is the logo tile, against every other face's
    blank = next(f for f, t in zip(tiles, _tiles_of(tiles, reading)) if tuple(t.pips) == (0, 0))
    logo = blank.logo_score >= profile.logo_threshold
    others_logo = max((f.logo_score for f in found.faces if f is not blank), default=0.0)
    logo_t = _kept_or_halfway(profile.logo_threshold, others_logo, blank.logo_score) if logo \
        else profile.logo_threshold
    # a face with at most one pip (not the logo) needs a surer tile score: not surer than the set's own 1-0 and 0-1
    bare = [f.tile_score for f, t in zip(tiles, _tiles_of(tiles, reading))
            if sum(t.pips) <= 1 and not (logo and tuple(t.pips) == (0, 0))]
    bare_t = min(base.bare_tile_threshold, math.floor(1000 * min(bare, default=1.0)) / 1000)
    learned["double_blank_logo"] = logo
    learned["logo_score_double_blank"] = round(blank.logo_score, 3)
    learned_profile = replace(profile, pip_threshold=pip_t, tile_threshold=tile_t, logo=logo, logo_threshold=logo_t,
                              bare_tile_threshold=bare_t,
                              aspect_min=min(aspect_min, base.aspect_min), aspect_max=max(aspect_max, base.aspect_max))
    learned.update({"pips_faintest": round(min(pips, default=1.0), 3), "marks_strongest": round(max(marks, default=0.0), 3),
                    "tile_least_sure": round(sure, 3), "not_tile_surest": round(unsure, 3)})
    steps += [f"pip threshold {_told(pip_t, profile.pip_threshold)} (pips from {learned['pips_faintest']}, "
              f"other marks up to {learned['marks_strongest']})",
              f"tile threshold {_told(tile_t, profile.tile_threshold)}",
              f"a logo on the double-blank (threshold {_told(logo_t, profile.logo_threshold)})" if logo
              else "a plain double-blank"]
    reading = assemble(found, learned_profile)
    check = reconcile(reading, max_pips)
    if not check.ok:  # the halfway points must read the photo as well as the thresholds they lie between
        say("the learned thresholds do not read the photo whole; keeping the ones that did")
        learned_profile, reading, check = profile, *chosen
    say(("calibrated: " if check.ok else "refused: ") + check.summary())
    return Calibration(learned_profile, reading, check, tuple(steps), learned)
