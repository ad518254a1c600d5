"""Read every domino tile in a photo: ``read_tiles(image_bgr, profile) -> Reading``.

Stages (one module each): ``find`` finds tile faces on a reduced image, one per divider line;
``pips`` rectifies each face from the full-resolution photo and counts each half (the logo reads 0);
this module ties them together. A face read with doubt is read again through outlines near the found one
(wider, moved along the tile: the finder's outline is loose on hard faces) and the surest reading is kept.
Then the result is checked against the set (each tile once, no half above ``profile.max_pips``): a face
that reads a tile another face holds takes its next reading if another outline gave one, and what still
cannot be is reported in ``Reading.warnings`` with a lowered confidence.

Conventions, stated once for the package: images are BGR uint8 (``image_bgr``); points are ``xy``
float64 (OpenCV order) and arrays are indexed ``[row, col]``; lengths in a profile are relative to the
tile (tile widths) or to the working image, as each field says. ``TileReading.corners`` go around the
face with corners[0]-corners[1] the short edge at the end of ``pips[0]``.

No file or network I/O here (``companion.photo`` loads photos). Raises ``VisionInputError``
(``ValueError``) for an array that is not an image.
"""

from __future__ import annotations

import itertools
import os
from collections import Counter

os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(1 << 26))  # before cv2 is imported anywhere

from dataclasses import dataclass, field  # noqa: E402
from typing import Callable  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from companion.rules.tiles import Tile  # noqa: E402
from companion.vision.find import find_faces  # noqa: E402
from companion.vision.pips import FaceReading, grain_across, halves_apart, read_face, rectify  # noqa: E402
from companion.vision.profile import Profile  # noqa: E402

__all__ = ["Profile", "Reading", "TileReading", "VisionInputError", "read_tiles", "NO_TILE_WARNING"]

NO_TILE_WARNING = "no tile found in the photo"


class VisionInputError(ValueError):
    """An array that is not a BGR (or gray) uint8 image."""


@dataclass(frozen=True)
class TileReading:
    pips: tuple[int, int]
    corners: np.ndarray  # (4, 2) float64 xy in the photo's pixels
    confidence: float  # 0..1


@dataclass(frozen=True)
class Reading:
    tiles: list[TileReading] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _where(point: np.ndarray, width: int, height: int) -> str:
    x, y = point
    horiz = "left" if x < width / 3 else "right" if x > 2 * width / 3 else "centre"
    vert = "top" if y < height / 3 else "bottom" if y > 2 * height / 3 else "middle"
    return f"{vert} {horiz}".replace("middle centre", "centre")


def _edge_name(corners: np.ndarray, width: int, height: int) -> str:
    names = []
    if corners[:, 0].min() < 1:
        names.append("left")
    if corners[:, 0].max() > width - 2:
        names.append("right")
    if corners[:, 1].min() < 1:
        names.append("top")
    if corners[:, 1].max() > height - 2:
        names.append("bottom")
    return " and ".join(names) or "nearest"


def _check_image(image_bgr: np.ndarray) -> np.ndarray:
    if not isinstance(image_bgr, np.ndarray) or image_bgr.dtype != np.uint8:
        raise VisionInputError(f"expected a uint8 image array, got {type(image_bgr).__name__}"
                               f"{'' if not isinstance(image_bgr, np.ndarray) else ' of ' + str(image_bgr.dtype)}")
    if image_bgr.ndim == 2:
        return cv2.cvtColor(image_bgr, cv2.COLOR_GRAY2BGR)
    if image_bgr.ndim != 3 or image_bgr.shape[2] not in (3, 4) or min(image_bgr.shape[:2]) < 8:
        raise VisionInputError(f"expected an image of shape (h, w, 3), got {image_bgr.shape}")
    if image_bgr.shape[2] == 4:
        return cv2.cvtColor(image_bgr, cv2.COLOR_BGRA2BGR)
    return image_bgr


def read_tiles(image_bgr: np.ndarray, profile: Profile | None = None, *, photo_scale: float = 1.0,
               full_res: Callable[[], np.ndarray] | None = None) -> Reading:
    """Find and read every whole tile in ``image_bgr``; cut-off tiles and doubts go to ``warnings``.

    Rare options, for a photo decoded reduced (JPEG draft mode): ``photo_scale`` is how many photo pixels
    one pixel of ``image_bgr`` spans (corners and warnings are given in photo pixels), and ``full_res``
    returns the full photo; it is called at most once, and only when a face is narrower than
    ``profile.full_res_below`` pixels of ``image_bgr``, to read such small faces at full resolution.
    """
    profile = profile or Profile()
    image_bgr = _check_image(image_bgr)
    height, width = image_bgr.shape[:2]
    photo_w, photo_h = int(round(width * photo_scale)), int(round(height * photo_scale))
    scale = min(1.0, profile.work_max_side / max(height, width))
    work = image_bgr if scale >= 1.0 else cv2.resize(image_bgr, None, fx=scale, fy=scale,
                                                     interpolation=cv2.INTER_AREA)
    def judge(corners: np.ndarray) -> tuple[float, bool, bool, bool] | None:  # a candidate face read on the working image
        face = rectify(work, corners, profile)
        if profile.max_grain_across < 1 and grain_across(face, profile) > profile.max_grain_across:
            return None  # the grain runs across it: a piece of a face taken sideways
        if profile.halves_max_apart > 0 and halves_apart(face, profile) > profile.halves_max_apart:
            return None  # its halves differ in colour: half a tile and the ground beyond its end
        reading = read_face(face, profile, strict=True)
        logo = any(h.logo for h in reading.halves)
        pips = sum(h.pips for h in reading.halves)
        if profile.blank_needs_logo and not logo and not pips:
            # in dim light a tile's pips fall short of the full contrast: read as the final reading does,
            # clear pips keep a face found from its divider, but they are too faint to mark one found without
            lenient = read_face(face, profile)
            if sum(h.pips for h in lenient.halves) and \
                    min(h.confidence for h in lenient.halves) >= profile.dim_pips_confidence:
                return profile.dim_pips_score, False, False, False
            return None  # nothing on it: a plank, a paving slab or a card, not this set's double-blank
        # two pips or more (all tiles but 0-1, 0-0): clearly a tile, its size a yardstick for the others
        return (min(h.confidence for h in reading.halves), pips >= 2 and not logo, pips > 0 or logo,
                all((h.pips or h.logo) and h.pips <= profile.max_pips for h in reading.halves))

    search = find_faces(work, profile, scale=scale, judge=judge)
    tiles: list[TileReading] = []
    warnings: list[str] = []
    full: list[np.ndarray] = []
    others: list[list[TileReading]] = []  # per tile, its face's other readings
    for face in search.faces:
        corners = (face.corners + 0.5) / scale - 0.5  # in image_bgr pixels
        in_photo = (corners + 0.5) * photo_scale - 0.5
        if face.cut_off:
            centre = np.clip(in_photo.mean(axis=0), 0, [photo_w - 1, photo_h - 1])
            warnings.append(f"a tile cut off by the {_edge_name(in_photo, photo_w, photo_h)} border of the photo "
                            f"(near x={centre[0]:.0f}, y={centre[1]:.0f}, {_where(centre, photo_w, photo_h)}) "
                            "was left out")
            continue
        source, at = image_bgr, corners
        if full_res is not None and photo_scale > 1.0 and \
                np.linalg.norm(corners[0] - corners[1]) < profile.full_res_below:
            if not full:
                full.append(_check_image(full_res()))
            source, at = full[0], in_photo
        ways = []  # this face's readings as tiles (outlines in photo pixels), surest first
        for reading, outline in _readings(source, at, profile):
            pips = (reading.halves[0].pips, reading.halves[1].pips)
            if profile.blank_needs_logo and pips == (0, 0) and not any(h.logo for h in reading.halves):
                if not ways:
                    break  # this set's double-blank carries the logo: a plain blank face is a plank, not a tile
                continue
            in_photo = outline if source is not image_bgr else (outline + 0.5) * photo_scale - 0.5
            conf = face.score * 0.3 + 0.7 * min(h.confidence for h in reading.halves)
            ways.append(TileReading(pips, in_photo.astype(np.float64), float(round(conf, 3))))
        if ways:
            tiles.append(ways[0])
            others.append(ways[1:])
    if not tiles and not warnings:
        warnings.append(NO_TILE_WARNING)
    tiles, more = _check_set(_settled_by_set(tiles, others, profile), profile)
    return Reading(tiles, warnings + more)


def _read_outline(source: np.ndarray, at: np.ndarray, profile: Profile) -> FaceReading:
    centre = at.mean(axis=0)  # read a little beyond the outline: pips near a loose edge stay whole
    return read_face(rectify(source, centre + (at - centre) * (1 + profile.read_pad), profile), profile)


def _near_outlines(at: np.ndarray, profile: Profile):
    """Outlines near ``at`` (corners[0]-corners[1] a short edge): wider, and moved along the tile (longer
    ones were tried too: they take in a neighbour's pips more often than they help)."""
    ends = np.array([(at[0] + at[1]) / 2, (at[0] + at[1]) / 2, (at[2] + at[3]) / 2, (at[2] + at[3]) / 2])
    axis = ends[2] - ends[0]
    for widen, shift in itertools.product(profile.refine_widen, profile.refine_shift):
        if (widen, shift) != (1.0, 0.0):
            yield ends + (at - ends) * widen + shift * axis


def _readings(source: np.ndarray, at: np.ndarray, profile: Profile) -> list[tuple[FaceReading, np.ndarray]]:
    """The reading through ``at`` and its outline; when it is doubtful, the surest reading through a nearby
    outline instead if it is surer by ``refine_gain``, followed by the face's other readings (one per tile
    read), surest first."""
    first = _read_outline(source, at, profile)
    sure = min(h.confidence for h in first.halves)
    if sure >= profile.refine_below:
        return [(first, at)]
    ways = [(sure + profile.refine_gain, first, at)]
    for other in _near_outlines(at, profile):
        reading = _read_outline(source, other, profile)
        ways.append((min(h.confidence for h in reading.halves), reading, other))
    ways.sort(key=lambda w: -w[0])  # (stable: the found outline first of equals)
    seen, out = set(), []
    for _, reading, outline in ways:
        pips = tuple(h.pips for h in reading.halves)
        if pips not in seen:
            seen.add(pips)
            out.append((reading, outline))
    return out


def _settled_by_set(tiles: list[TileReading], others: list[list[TileReading]],
                    profile: Profile) -> list[TileReading]:
    """A set holds each tile once and no half above ``max_pips``: where faces read the same tile (or such a
    half), the least sure first takes its face's next reading (``others``: from the nearby outlines of a face
    read with doubt, one of which may take in a neighbour's pip) that no other face holds, if it has one."""
    tiles = list(tiles)
    held = Counter(Tile(*t.pips) for t in tiles)
    for k in sorted(range(len(tiles)), key=lambda k: tiles[k].confidence):
        t = tiles[k]
        if max(t.pips) <= profile.max_pips and held[Tile(*t.pips)] == 1:
            continue
        for other in others[k]:
            if max(other.pips) <= profile.max_pips and not held[Tile(*other.pips)]:
                held[Tile(*t.pips)] -= 1
                held[Tile(*other.pips)] += 1
                tiles[k] = other
                break
    return tiles


def _check_set(tiles: list[TileReading], profile: Profile) -> tuple[list[TileReading], list[str]]:
    """Flag what a double-``max_pips`` set cannot hold: a half above max_pips, the same tile twice."""
    warnings: list[str] = []
    low = set()
    seen: dict[Tile, list[int]] = {}
    for k, t in enumerate(tiles):
        if max(t.pips) > profile.max_pips:
            low.add(k)
            warnings.append(f"tile {k + 1} reads {t.pips[0]}|{t.pips[1]}: a half above {profile.max_pips} "
                            f"is not in a double-{profile.max_pips} set; check it")
            continue
        seen.setdefault(Tile(*t.pips), []).append(k)
    for tile, where in seen.items():
        if len(where) > 1:
            low.update(where)
            warnings.append(f"tile {tile} read {len(where)} times (tiles {', '.join(str(k + 1) for k in where)}); "
                            "a set holds each tile once, so at least one is misread")
    out = [TileReading(t.pips, t.corners, min(t.confidence, 0.3)) if k in low else t for k, t in enumerate(tiles)]
    return out, warnings
