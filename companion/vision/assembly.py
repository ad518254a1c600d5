"""The reading of what ``find_faces`` saw: ``assemble(found, profile) -> Reading``.

It drops what is not a whole tile, names tiles cut off by the photo's border
in a warning, keeps one reading per face, and checks the result against the set (each tile once, no half
above ``profile.max_pips``): where two faces read the same tile, the less sure takes its next reading if no
other face holds it (or, read with doubt and not surely a tile, is left out and named), and what still cannot
be is reported in ``Reading.warnings`` with a lowered confidence. ``Reading.left_out`` holds the outlines of
the faces left out and named in a warning, for the annotated picture.

Its judges (which faces are read surely, ``_judged``; how far a face lies from the plane's outline,
``_plane_fit``; cut off by the border, ``_cut_off``; of a tile's size, ``_sized_like_tiles``) serve
``looks``' looks too.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.rules.tiles import Tile
from companion.vision import geometry as geo
from companion.vision.plane import Plane
from companion.vision.profile import Profile
from companion.vision.read import Count, FaceReading, count_pips

if TYPE_CHECKING:
    from companion.vision.looks import Faces


NO_TILE_WARNING = "no tile found in the photo"


@dataclass(frozen=True)
class TileReading:
    pips: tuple[int, int]
    corners: np.ndarray  # (4, 2) float64 xy in the photo's pixels
    confidence: float  # 0..1
    # the next readings (a doubtful pip counted or not), the least sure half's first, with how sure that half is
    others: tuple[tuple[tuple[int, int], float], ...] = ()


@dataclass(frozen=True)
class Reading:
    tiles: list[TileReading] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # the outlines of faces left out and named in a warning: tiles cut off by the border, a face read as the logo
    # that may be a score card or is not of the set's colour, faces read almost without confidence and of no
    # tile's shape, faces read with doubt as a tile another face reads more surely (photo pixels)
    left_out: list[np.ndarray] = field(default_factory=list)


def _where(point: np.ndarray, width: int, height: int) -> str:
    x, y = point
    horiz = "left" if x < width / 3 else "right" if x > 2 * width / 3 else "centre"
    vert = "top" if y < height / 3 else "bottom" if y > 2 * height / 3 else "middle"
    return f"{vert} {horiz}".replace("middle centre", "centre")


def _edge_name(corners: np.ndarray, width: int, height: int, margin: float) -> str:
    names = []
    if corners[:, 0].min() < -margin:
        names.append("left")
    if corners[:, 0].max() > width - 1 + margin:
        names.append("right")
    if corners[:, 1].min() < -margin:
        names.append("top")
    if corners[:, 1].max() > height - 1 + margin:
        names.append("bottom")
    return " and ".join(names) or "nearest"


def _marks(face: FaceReading, profile: Profile) -> int:
    """How many marks as strong as a pip ``face`` shows, strays too: what tells a tile from a plank is its marks
    (on a tile cut off, what is left of a half's pips lies askew)."""
    return sum(p.heat >= profile.pip_threshold for half in face.peaks for p in half)


def _plane_fit(face: FaceReading, plane: Plane, profile: Profile) -> float:
    """How well ``face`` has a tile's shape at its place: its IoU with the outline ``plane`` predicts there (0
    where it predicts none)."""
    outline = plane.outline(face.corners, profile.tile_aspect)
    return 0.0 if outline is None else geo.iou(face.corners, outline)


def _judged(faces: list[FaceReading], profile: Profile, size: tuple[int, int] | None = None) \
        -> tuple[list[np.ndarray], list[int], set[int]]:
    """The outlines of the faces read surely (a whole tile, its pips sure, read once, its last look settled, and
    not a plain blank where the set's double-blank carries a logo), the faces read with doubt (not surely a whole
    tile, its pips in doubt, or read as the same tile as another whole face with its pips sure: a set holds each
    tile once, but a face whose pips are in doubt casts no doubt on one read surely, nor, given the photo's
    ``size``, one cut off by its border, which will be left out and may read as any tile), and of those the whole
    faces whose pips are in doubt. Faces taken for no tile at all (below ``profile.second_look_floor``) are
    neither."""
    counts = [count_pips(face, profile) for face in faces]
    counted = {k for k, (c, f) in enumerate(zip(counts, faces))
               if f.tile_score >= profile.tile_threshold and c.confidence >= profile.doubt_below and
               not (size and _cut_off(f.corners, *size, profile))}
    times = Counter(tuple(sorted(counts[k].pips)) for k in counted)
    sure, doubtful, unsure_pips = [], [], set()
    for k, (face, count) in enumerate(zip(faces, counts)):
        if face.tile_score < profile.second_look_floor:
            continue
        if face.tile_score >= profile.tile_threshold and count.confidence < profile.doubt_below:
            unsure_pips.add(k)
        if face.tile_score < profile.tile_threshold or k in unsure_pips or \
                times[tuple(sorted(count.pips))] - (k in counted) >= 1:  # read by another face that counts
            doubtful.append(k)
        elif face.moved <= profile.square_on_px and not _plain_blank(face, count, profile):
            sure.append(face.corners)
    return sure, doubtful, unsure_pips


def _plain_blank(face: FaceReading, count: Count, profile: Profile) -> bool:
    """A face read 0-0 and not as the logo, in a set whose double-blank carries it: a plank or a slab, which
    step 4 leaves out however surely it is read."""
    return profile.logo and count.pips == (0, 0) and face.logo_score < profile.logo_threshold


def _cut_off(corners: np.ndarray, photo_w: int, photo_h: int, profile: Profile) -> bool:
    """A face with more than ``profile.cut_area`` of it beyond the border, or with a whole side along the
    border (the reader then sees only the part inside, which may look like a whole tile of its own)."""
    photo = np.array([[0, 0], [photo_w, 0], [photo_w, photo_h], [0, photo_h]], np.float32) - 0.5
    area = cv2.contourArea(corners.astype(np.float32))
    inside, _ = cv2.intersectConvexConvex(corners.astype(np.float32), photo)
    if area <= 0 or inside < (1 - profile.cut_area) * area:
        return True
    return any(np.sum(near) >= 2 for near in _on_border(corners, photo_w, photo_h, profile))


def _on_border(corners: np.ndarray, photo_w: int, photo_h: int, profile: Profile) -> list[np.ndarray]:
    """Which of ``corners`` lie on the left, right, top and bottom border: within half
    ``profile.cut_tolerance`` of the face's width (whole tiles stand a little clear of it)."""
    on = profile.cut_tolerance * geo.frame_of(corners)[3] / 2
    x, y = corners[:, 0], corners[:, 1]
    return [x < on, x > photo_w - 1 - on, y < on, y > photo_h - 1 - on]


def _touches_border(corners: np.ndarray, photo_w: int, photo_h: int, profile: Profile) -> bool:
    """Whether a corner of a face lies on the photo's border (``_on_border``)."""
    return any(near.any() for near in _on_border(corners, photo_w, photo_h, profile))


def _cut_short(face: FaceReading, sure: list[np.ndarray], photo_w: int, photo_h: int, profile: Profile) -> bool:
    """Whether ``face``, a corner on the border, is the part inside the photo of a tile cut off by it: of no
    tile's shape there (its fit to the outline the other faces read surely predict below ``profile.gap_fit``),
    that outline cut off by the border. (The reader may outline the part inside with one corner on the border,
    which ``_cut_off`` does not see.)"""
    if not _touches_border(face.corners, photo_w, photo_h, profile):
        return False
    outline = _predicted_by_others(face, sure, profile)
    return outline is not None and geo.iou(face.corners, outline) < profile.gap_fit and \
        _cut_off(outline, photo_w, photo_h, profile)


def _logo_cut_short(face: FaceReading, count: Count, photo_w: int, photo_h: int, profile: Profile) -> bool:
    """Whether ``face``, kept as the set's logo tile, is the part inside the photo of the logo tile cut off by the
    border: a corner on the border, read surely (``profile.doubt_below``). The logo's emblem and its word mark
    each read as a whole tile of their own, so what is left of a logo tile cut off shows no sign of it. (Of 1,838
    faces kept as the logo in 3,450 generated photos, the 5 with a corner on the border were all such parts, or
    part of a score card; of some 40,000 kept with pips, 5 had one, all whole tiles read right.)"""
    return _touches_border(face.corners, photo_w, photo_h, profile) and \
        min(count.confidence, face.tile_score) >= profile.doubt_below


def assemble(found: Faces, profile: Profile) -> Reading:
    """The reading of what ``find_faces`` saw under ``profile``'s thresholds: whole tiles kept once each, cut
    ones named in warnings, pips counted, and the set's rules applied."""
    photo_w, photo_h = found.width, found.height
    unsure_logo: list[np.ndarray] = []
    faces, shaped, sure = _choosable(found.faces, profile, (photo_w, photo_h))
    kept, cut = _one_per_face(faces, photo_w, photo_h, profile, shaped, sure)
    kept, too_large = _sized_like_tiles(kept, max(photo_w, photo_h), profile)
    if too_large:  # a face across two tiles hid them: choose again without it
        faces = [f for f in faces if not any(f is large for large in too_large)]
        kept, cut = _one_per_face(faces, photo_w, photo_h, profile, shaped, sure)
        kept, _ = _sized_like_tiles(kept, max(photo_w, photo_h), profile)
    # the part inside of a tile cut off, outlined with one corner on the border (after the sizes: as in _halved)
    cut += [f.corners for f, _ in kept if _cut_short(f, sure, photo_w, photo_h, profile)]
    kept = [(f, c) for f, c in kept if not any(f.corners is q for q in cut)]
    cut += [q for q in found.cut if not any(geo.overlap(q, o) > profile.same_face_overlap
                                            for o in cut + [f.corners for f, _ in kept])]
    if profile.logo:  # the set has one logo tile: other faces taken for it are printed marks (a score card)
        logos = [fc for fc in kept if fc[1].pips == (0, 0)]
        surest = max(logos, key=lambda fc: fc[0].logo_score * fc[0].tile_score, default=None)
        kept = [fc for fc in kept if fc[1].pips != (0, 0) or fc is surest]
        if surest is not None and not _logo_vouched(surest[0], sure, profile):
            kept = [fc for fc in kept if fc is not surest]
            unsure_logo = [surest[0].corners]
        elif surest is not None and _logo_cut_short(*surest, photo_w, photo_h, profile):
            kept = [fc for fc in kept if fc is not surest]
            cut.append(surest[0].corners)
    of_colour = _like_the_set(kept, profile)
    # the logo tile read as surely as a score card seldom is, left out by its colour alone, is named
    unlike_logo = [f.corners for f, _ in kept if profile.logo and f.logo_score >= profile.logo_sure and
                   not any(f is g for g, _ in of_colour)]
    # so is a face of at most one mark read surely, not as the logo (a 1-0 in sun beside tiles in shade is left out
    # so, as a speck on a cloth is)
    unlike = [(f, c) for f, c in kept if not any(f is g for g, _ in of_colour) and
              min(c.confidence, f.tile_score) >= profile.doubt_below and
              not (profile.logo and f.logo_score >= profile.logo_threshold)]
    kept, shapeless = _without_shapeless(of_colour, sure, profile)
    kept, strays = _without_strays(kept, sure, profile)

    warnings = []
    for corners in cut:
        centre = np.clip(geo.centre_of(corners), 0, [photo_w - 1, photo_h - 1])
        margin = -profile.cut_tolerance * geo.frame_of(corners)[3] / 2  # the sides it reaches
        warnings.append(f"a tile cut off by the {_edge_name(corners, photo_w, photo_h, margin)} border of the photo "
                        f"(near x={centre[0]:.0f}, y={centre[1]:.0f}, {_where(centre, photo_w, photo_h)}) "
                        "was left out")
    for corners in unsure_logo:
        centre = geo.centre_of(corners)
        warnings.append(f"a face read as the logo tile (near x={centre[0]:.0f}, y={centre[1]:.0f}, "
                        f"{_where(centre, photo_w, photo_h)}) was left out: it is not surely the logo, nor shaped like "
                        "the tiles around it (a score card?)")
    for corners in unlike_logo:
        centre = geo.centre_of(corners)
        warnings.append(f"a face read as the logo tile (near x={centre[0]:.0f}, y={centre[1]:.0f}, "
                        f"{_where(centre, photo_w, photo_h)}) was left out: its colour is not the set's; add it if "
                        "it is the logo tile")
    for gone, why in ((unlike, "read surely ({:.2f}), but its colour is not the set's"),
                      (shapeless, "read almost without confidence ({:.2f}) and has no tile's shape there"),
                      (strays, "read with doubt ({:.2f}), has no tile's shape there and lies partly on a tile read "
                               "surely")):
        for face, count in gone:
            centre = geo.centre_of(face.corners)
            warnings.append(f"a face read as {count.pips[0]}-{count.pips[1]} (near x={centre[0]:.0f}, "
                            f"y={centre[1]:.0f}, {_where(centre, photo_w, photo_h)}) was left out: it was "
                            f"{why.format(min(count.confidence, face.tile_score))}; add it if it is a tile")
    row = float(np.median([geo.frame_of(f.corners)[3] for f, _ in kept])) if kept else 1.0
    kept.sort(key=lambda fc: _reading_order(fc[0], row))
    tiles = [TileReading(c.pips, f.corners, round(min(c.confidence, f.tile_score), 3), tuple(c.others))
             for f, c in kept]
    if not tiles and not warnings:
        warnings.append(NO_TILE_WARNING)
    tiles = _settled_by_set(tiles, [c.others for _, c in kept], profile)
    tiles, twins = _without_lesser_twins(tiles, [f.tile_score for f, _ in kept], profile)
    for t in twins:
        centre = geo.centre_of(t.corners)
        warnings.append(f"a face read as {t.pips[0]}-{t.pips[1]} (near x={centre[0]:.0f}, y={centre[1]:.0f}, "
                        f"{_where(centre, photo_w, photo_h)}) was left out: another face reads that tile more surely, "
                        f"and this one was read less surely ({t.confidence:.2f}); add it if it is a tile")
    tiles, more = _check_set(tiles, profile)
    return Reading(tiles, warnings + more,
                   cut + unsure_logo + unlike_logo + [f.corners for f, _ in unlike + shapeless + strays] +
                   [t.corners for t in twins])


def _without_lesser_twins(tiles: list[TileReading], tile_scores: list[float], profile: Profile) \
        -> tuple[list[TileReading], list[TileReading]]:
    """``tiles`` without, and apart, those that read a tile another reads more surely, by a face the reader is
    less sure is a whole tile than ``profile.twin_tile_sure`` (``tile_scores``, one per tile): a set holds each
    tile once, and such a face is more often specks on a cloth or a plank read as the tile's pips than a tile
    misread. (Until stop 62 only those read with doubt, below ``profile.doubt_below``: a blanket's square with
    a speck or two, seen steeply, read as a 0-1 0.55 surely and 0.93 whole beside the 1-0 read 0.95, stayed.)"""
    surest: dict[Tile, float] = {}
    for t in tiles:
        surest[Tile(*t.pips)] = max(surest.get(Tile(*t.pips), 0.0), t.confidence)
    lesser = [t.confidence < surest[Tile(*t.pips)] and score < profile.twin_tile_sure
              for t, score in zip(tiles, tile_scores)]
    return [t for t, out in zip(tiles, lesser) if not out], [t for t, out in zip(tiles, lesser) if out]


def _choosable(faces: list[FaceReading], profile: Profile, size: tuple[int, int] | None = None) \
        -> tuple[list[FaceReading], set[int], list[np.ndarray]]:
    """The faces the assembly chooses among (all but the bare misshapen ones read with doubt), the ``id``s of
    those of a tile's shape (``_shaped``), and the outlines of the faces read surely (``_judged``, in a photo of
    ``size``)."""
    sure, doubtful, _ = _judged(faces, profile, size)
    plane = Plane(sure)
    return ([f for k, f in enumerate(faces) if not (k in doubtful and _bare_misshapen(f, plane, profile))],
            _shaped(faces, plane, profile), sure)


def _logo_vouched(face: FaceReading, sure: list[np.ndarray], profile: Profile,
                  unjudged: bool = True) -> bool:
    """Whether ``face``, read as the logo tile, may be that tile: read so at least ``profile.logo_sure``, or
    with a tile's shape where it lies (its fit to what the other faces read surely predict, at least
    ``profile.gap_fit``), or, if ``unjudged``, where fewer than two of them predict nothing (a hand of a tile
    or two: a logo tile there, read in part, is likelier than a score card). Score cards with a round print
    were read as the logo tile 0.88 to 0.97 surely in the tuning and fresh photos, and 997 of the 999 logo tiles
    read there from 0.985 (the other two of a tile's shape, fitting 0.94 and 0.98)."""
    if face.logo_score >= profile.logo_sure:
        return True
    fit = _fit_by_others(face, sure, profile)
    return unjudged if fit is None else fit >= profile.gap_fit


def _fit_by_others(face: FaceReading, sure: list[np.ndarray], profile: Profile) -> float | None:
    """How well ``face`` fits the outline the other faces read surely (``sure``, it aside) predict at its place
    (intersection over union); None where fewer than two of them predict nothing."""
    outline = _predicted_by_others(face, sure, profile)
    return None if outline is None else geo.iou(face.corners, outline)


def _predicted_by_others(face: FaceReading, sure: list[np.ndarray], profile: Profile) -> np.ndarray | None:
    """The outline the other faces read surely (``sure``, ``face`` aside) predict at ``face``'s place."""
    return Plane([q for q in sure if q is not face.corners]).outline(face.corners, profile.tile_aspect)


def _without_shapeless(kept: list[tuple[FaceReading, Count]], sure: list[np.ndarray], profile: Profile) \
        -> tuple[list[tuple[FaceReading, Count]], list[tuple[FaceReading, Count]]]:
    """``kept`` without, and apart, the faces read less surely than ``profile.shapeless_below`` (their pips or
    their being a tile) that have no tile's shape where they lie: their fit to what the other faces read surely
    predict is below ``profile.gap_fit``, or, with fewer than two of them, nothing predicts it and they are
    read so on the straight look of ``read_both_ways`` too (a hand of a tile or two has only its reading to
    go by: pale pips on dark wood, or a tile close to the camera, can read 0.35 surely straight and 0.1 both
    ways). Such a face is most often no tile (a score card's numbers, a cloth's square, a plank); a tile read
    so is read wrong more often than right."""
    def shapeless(face: FaceReading, count: Count) -> bool:
        if min(count.confidence, face.tile_score) >= profile.shapeless_below:
            return False
        fit = _fit_by_others(face, sure, profile)
        if fit is None:
            return min(max(count.confidence, face.straight or 0.0), face.tile_score) < profile.shapeless_below
        return fit < profile.gap_fit

    flags = [shapeless(face, count) for face, count in kept]
    return [fc for fc, gone in zip(kept, flags) if not gone], [fc for fc, gone in zip(kept, flags) if gone]


def _without_strays(kept: list[tuple[FaceReading, Count]], sure: list[np.ndarray], profile: Profile) \
        -> tuple[list[tuple[FaceReading, Count]], list[tuple[FaceReading, Count]]]:
    """``kept`` without, and apart, the faces read with doubt (``profile.doubt_below``) that have no tile's shape
    where they lie (``_without_shapeless``) and lie in part on a face read surely (more than
    ``profile.shapeless_on_tile`` of the smaller): an outline that strayed off a tile onto the deck or cloth beside
    it, reading some of its pips (tiles lie beside each other, and a tile's own face read surely has its shape).
    In 8,850 generated photos (stored, steep, at new seeds) five faces were such: four no tile, one a tile read
    wrong (106148's 4-0, read 4-1)."""
    def doubtful(face: FaceReading, count: Count) -> bool:
        return min(count.confidence, face.tile_score) < profile.doubt_below

    read_surely = [f.corners for f, c in kept if not doubtful(f, c)]

    def stray(face: FaceReading, count: Count) -> bool:
        if not doubtful(face, count) or not any(geo.overlap(face.corners, q) > profile.shapeless_on_tile
                                                for q in read_surely):
            return False
        fit = _fit_by_others(face, sure, profile)
        return fit is not None and fit < profile.gap_fit

    flags = [stray(face, count) for face, count in kept]
    return [fc for fc, gone in zip(kept, flags) if not gone], [fc for fc, gone in zip(kept, flags) if gone]


def _bare_misshapen(face: FaceReading, plane: Plane, profile: Profile) -> bool:
    """Whether ``face`` shows little that makes it a tile (at most one mark as strong as a pip, and not the set's
    logo) and has no tile's shape where it lies (its fit to ``plane``'s prediction below ``profile.gap_fit``): a
    square of a checked cloth or a plank with a speck on it. Only faces read with doubt are judged so, and only
    by three faces read surely or more: two tell the horizon only loosely."""
    marks = _marks(face, profile)
    if marks > 1 or (profile.logo and (not marks or face.logo_score >= profile.logo_threshold)) or len(plane.sure) < 3:
        return False
    outline = plane.outline(face.corners, profile.tile_aspect)
    return outline is not None and geo.iou(face.corners, outline) < profile.gap_fit


def _shaped(faces: list[FaceReading], plane: Plane, profile: Profile) -> set[int]:
    """The ``id``s of the faces that have a tile's shape where they lie (their fit to the plane of the faces
    read surely at least ``profile.shaped_fit``), settled, with their pips read surely, among those the reader
    is less sure are whole (``profile.shaped_tile_threshold`` up to ``profile.tile_threshold``) and the whole
    ones with one pip that it is less sure of than ``profile.bare_tile_threshold``: tiles too."""
    maybe = []
    for face in faces:
        if face.moved > profile.settled_px:
            continue
        count = count_pips(face, profile)
        unsure = profile.shaped_tile_threshold <= face.tile_score < profile.tile_threshold or \
            (profile.tile_threshold <= face.tile_score < profile.bare_tile_threshold and sum(count.pips) == 1)
        if unsure and count.confidence >= profile.doubt_below:
            maybe.append(face)
    return {id(f) for f in maybe if _plane_fit(f, plane, profile) >= profile.shaped_fit}


def _one_per_face(faces: list[FaceReading], photo_w: int, photo_h: int, profile: Profile,
                  shaped: set[int] = frozenset(), sure: list[np.ndarray] | None = None) \
        -> tuple[list[tuple[FaceReading, Count]], list[np.ndarray]]:
    """The whole tiles among ``faces`` (and those of them ``shaped``, see ``_shaped``), the surest of each
    place first, with their counts, but for those read with doubt whose last look still moved their corners
    more than ``profile.settled_px``; and the outlines of tiles cut off by the border. Given the outlines of
    the faces read surely (``sure``), of the faces the reader is at least ``profile.whole_sure`` sure are whole
    those of a tile's shape there (``_plane_fit`` at least ``profile.gap_fit``) come first: the tile score
    tells such faces little apart (108036's logo tile laid crosswise, read whole as the logo 1.00 surely, lost
    to its word mark's half read apart, whole 0.9987 surely against 0.9978, which was then left out as a card)."""
    kept: list[tuple[FaceReading, Count]] = []
    cut: list[np.ndarray] = []
    plane = Plane(sure) if sure else None

    def first(face: FaceReading) -> tuple[bool, float]:
        shape = plane is not None and face.tile_score >= profile.whole_sure and \
            _plane_fit(face, plane, profile) >= profile.gap_fit
        return not shape, -face.tile_score

    faces = sorted(faces, key=first)
    boxes = np.array([f.corners for f in faces]).reshape(-1, 4, 2)
    low, high = boxes.min(axis=1), boxes.max(axis=1)
    taken = np.zeros(len(faces), bool)  # kept or cut: only their boxes need be looked at (overlaps are few)
    for n, face in enumerate(faces):
        if face.tile_score < profile.tile_threshold and id(face) not in shaped:
            continue
        corners = face.corners
        near = np.flatnonzero(taken & np.all(low < high[n], axis=1) & np.all(high > low[n], axis=1))
        if any(geo.overlap(corners, faces[m].corners) > profile.same_face_overlap for m in near):
            continue  # the same face found twice
        count = count_pips(face, profile)
        logo, marks = profile.logo and face.logo_score >= profile.logo_threshold, _marks(face, profile)
        if profile.logo and not marks and not logo:
            continue  # this set's double-blank carries its logo: a plain blank face is a plank or a slab
        if marks <= 1 and not logo and face.tile_score < profile.bare_tile_threshold and \
                not (face.tile_score >= profile.tile_threshold and id(face) in shaped):  # (one pip, see _shaped)
            continue  # little on it shows it is a tile: a plank with a knot reads 1-0 (and rarely has its shape)
        if _cut_off(corners, photo_w, photo_h, profile):
            cut.append(corners)
            taken[n] = True
            continue
        if _plain_blank(face, count, profile):
            continue  # whole, a blank face with specks is no tile either (of a cut one, the specks are its pips)
        if face.moved > profile.settled_px and min(count.confidence, face.tile_score) < profile.doubt_below:
            continue  # read with doubt and its outline never settled: no tile's edges (a plank, a card)
        kept.append((face, count))
        taken[n] = True
    return kept, cut


def _sized_like_tiles(kept: list[tuple[FaceReading, Count]], photo_side: int, profile: Profile) \
        -> tuple[list[tuple[FaceReading, Count]], list[FaceReading]]:
    """``kept`` without the faces far smaller or larger than tiles are where they lie, and the faces dropped as too
    large. The tiles lie on one plane, so the cube root of a face's area, proportional to the inverse of its
    depth (a plane's patch is foreshortened as it is shrunk), is an affine function of its place in the photo;
    the bounds are on a face's size (the square root of its area). Against the plane fitted to the rest, the
    smallest face is dropped while it is below ``size_floor`` of it (a mark of a tile's shape), then the largest
    while it is above ``size_ceiling`` (a patch across two tiles), each face judged against at least
    ``size_fit_min`` others (for the ceiling, others whose pips are read at least ``shapeless_below`` surely).
    Small ones go first: a mark bends the plane, and a tile near it would look too large; for the floor the plane
    is fitted without the marks (``_without_marks``). A face is judged only against a sure prediction: where the
    others lie nearly on one line (a line of play), the plane across it is a guess, so a tile off the line is not
    judged too large, and judged too small only where it is below ``size_floor`` of every other tile (those the
    plane without the marks keeps, and the other faces not below the floor of the smallest of them: seen steeply,
    the marks' first plane is the near row's, and far tiles, read surely, were dropped as marks: 102101); nor is a
    face judged too small by a plane that one other face decides (the floor takes the lowest prediction without
    any one of them). A plane steeper than ``size_steepest`` is such a guess however closely the others fit it: a
    line of play's own sizes can fit a slope across the line that no photo of tiles on one plane has."""
    if len(kept) <= profile.size_fit_min:
        return kept, []
    places = np.array([np.append(geo.centre_of(f.corners), 1.0) for f, _ in kept])
    sizes = np.cbrt([cv2.contourArea(np.asarray(f.corners, np.float32)) for f, _ in kept])
    floor, ceiling = profile.size_floor ** (2 / 3), profile.size_ceiling ** (2 / 3)  # of sizes, in cube roots
    keep = np.ones(len(kept), bool)
    # a face is too large only against faces whose pips are read with some confidence: patches of grass read
    # almost without it are no tiles' sizes
    judges = np.array([c.confidence >= profile.shapeless_below for _, c in kept])

    def ratios(larger: bool) -> np.ndarray:
        """Each face's size against the plane fitted to the others, at the end of that prediction nearer to it
        (twice its standard error, the residuals' spread at least ``size_noise`` of a size, below it for the
        floor, above it for the ceiling); 1 (not judged) where that margin is wider than the bound's or the
        plane is too steep (the prediction cannot tell a mark or a patch across two tiles from a tile)."""
        bound = ceiling - 1 if larger else 1 - floor
        out = np.ones(len(kept))
        judged = np.flatnonzero(keep)
        rests = np.repeat(keep[None, :], len(judged), axis=0)
        rests[np.arange(len(judged)), judged] = False
        others = rests.copy()
        if larger:
            rests &= judges
        else:  # marks cluster (the digits of a score card) and bend the plane: fit it without them
            rests = _without_marks(places, sizes, rests, floor)
        planes, spreads = _least_squares_each(places, sizes, rests)  # each judged face's plane, without it
        own_place, weights, counts = places[judged], rests.astype(np.float64), rests.sum(axis=1)
        residual = sizes[None, :] - planes @ places.T  # (counted only within each row's rest)
        # (a share of a size is 2/3 of that share in cube roots)
        sigma = np.maximum(np.sqrt(np.einsum("kn,kn->k", weights, residual ** 2) / np.maximum(counts - 3, 1)),
                           profile.size_noise * 2 / 3 * (weights @ sizes) / np.maximum(counts, 1))
        expected = np.einsum("ki,ki->k", own_place, planes)
        leverage = np.einsum("ki,kij,kj->k", own_place, spreads, own_place)
        if not larger:  # nor may one face drop a tile (a crosswise double alone can fix the slope across a
            # line of play): the lowest prediction without any one of them (Sherman-Morrison), none (-inf)
            # without one that alone fixes a direction
            own = np.einsum("ni,kij,nj->kn", places, spreads, places)
            towards = np.einsum("ni,kij,kj->kn", places, spreads, own_place)
            with np.errstate(divide="ignore", invalid="ignore"):
                without = expected[:, None] - towards * residual / (1 - own)
            without = np.where(rests, np.where(1 - own > 1e-9, without, -np.inf), np.inf)
            expected = np.fmin(expected, without.min(axis=1))
        margin = 2 * sigma * np.sqrt(leverage)
        smallest = np.where(rests, sizes, np.inf).min(axis=1)
        steepness = np.hypot(planes[:, 0], planes[:, 1]) * photo_side / smallest
        # (the other faces not below the floor of the smallest the plane keeps are tiles too)
        smallest = np.where(others & (sizes >= floor * smallest[:, None]), sizes, np.inf).min(axis=1)
        unsure = (expected <= 0) | (margin > bound * expected) | (steepness > profile.size_steepest)
        if larger:  # (too few faces to judge by)
            unsure |= counts < profile.size_fit_min
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = sizes[judged] / (expected + margin if larger else expected - margin)
        # where unsure: not judged, but a mark is still smaller than every tile by the floor
        out[judged] = np.where(unsure, 1.0 if larger else sizes[judged] / smallest, ratio)
        return out

    while keep.sum() > profile.size_fit_min:
        ratio = np.where(keep, ratios(larger=False), np.inf)
        worst = int(np.argmin(ratio))
        if ratio[worst] >= floor:
            break
        keep[worst] = False
    too_large = []
    # the logo tile read as surely as a score card never is: one tile however large (none lies across two)
    logo = np.array([profile.logo and f.logo_score >= profile.logo_sure for f, _ in kept])
    while keep.sum() > profile.size_fit_min:
        ratio = np.where(keep & ~logo, ratios(larger=True), -np.inf)
        worst = int(np.argmax(ratio))
        if ratio[worst] <= ceiling:
            break
        keep[worst] = False
        too_large.append(kept[worst][0])
    return [k for k, ok in zip(kept, keep) if ok], too_large


def _like_the_set(kept: list[tuple[FaceReading, Count]], profile: Profile) -> list[tuple[FaceReading, Count]]:
    """``kept`` without the faces read with doubt whose colour is far from the set's: from the colour of every face
    read surely (``colour_far``, ``colour_sure_min``; the nearest counts, as sun and the shade of leaves tint tiles
    apart), or, showing at most one mark, whose saturation is (``colour_saturation_far``: a pale square of a cloth
    with a speck, tinted like dark wood by warm light; a glare pales a face of many pips read with doubt as much).
    Only the colour (a*, b*) and the saturation are compared, not the lightness itself, which sun and shade
    change far more. A face read as the logo tile is judged so however surely it is read: a score card with a
    round print reads as the logo as surely as the tile does, and only its colour tells it apart. So is a face that
    shows at most one mark (a square of a checked cloth with a speck reads as a 1-0 as surely as a tile does),
    against the other faces read surely: it still tells the set's colour where it is read surely (a hand of one
    1-0)."""
    def sure(face: FaceReading, count: Count) -> bool:
        return min(count.confidence, face.tile_score) >= profile.doubt_below and \
            not (profile.logo and face.logo_score >= profile.logo_threshold)

    told = [k for k, (f, c) in enumerate(kept) if sure(f, c) and f.colour is not None]  # the set's colour
    colours = np.array([kept[k][0].colour for k in told]).reshape(-1, 3)
    saturations = _saturation(colours)

    def like(k: int) -> bool:
        face, count = kept[k]
        if face.colour is None or (sure(face, count) and _marks(face, profile) > 1):
            return True
        others = [n for n, j in enumerate(told) if j != k]
        if len(others) < profile.colour_sure_min:
            return True
        colour = np.asarray(face.colour)
        near = float(np.hypot(*(colours[others, 1:] - colour[1:]).T).min()) <= profile.colour_far and (
            _marks(face, profile) > 1 or
            float(np.abs(saturations[others] - _saturation(colour[None])[0]).min()) <= profile.colour_saturation_far)
        logo = profile.logo and face.logo_score >= profile.logo_sure  # (as surely as a score card seldom is)
        return near or (logo and _of_hue(colour, colours[others], profile))

    return [fc for k, fc in enumerate(kept) if like(k)]


def _of_hue(colour: np.ndarray, colours: np.ndarray, profile: Profile) -> bool:
    """Whether the CIE Lab ``colour`` has the hue of one of ``colours`` (rows) no nearer grey than
    ``profile.colour_far``, within ``profile.logo_hue_far`` degrees, at a chroma within ``profile.logo_chroma_ratio``
    times its: sun and shade change a face's lightness and chroma, not its hue, and the logo's print, sampled with
    its wood, pales it too (a logo tile in sun beside a tile in shade lies 16.9 from it in a*b*; one lit by warm
    light, 0.52 from it in saturation); a score card is near grey."""
    chroma, own = np.hypot(colours[:, 1], colours[:, 2]), float(np.hypot(colour[1], colour[2]))
    turn = np.arctan2(colours[:, 2], colours[:, 1]) - np.arctan2(colour[2], colour[1])
    turn = np.degrees(np.abs(np.arctan2(np.sin(turn), np.cos(turn))))
    ratio = profile.logo_chroma_ratio
    return bool(np.any((chroma >= profile.colour_far) & (turn <= profile.logo_hue_far) &
                       (own <= ratio * chroma) & (own * ratio >= chroma)))


def _saturation(colours: np.ndarray) -> np.ndarray:
    """The chroma over the lightness of each CIE Lab colour (rows): alike in sun and shade, as both scale together."""
    return np.hypot(colours[:, 1], colours[:, 2]) / np.maximum(colours[:, 0], 1.0)


def _without_marks(places: np.ndarray, sizes: np.ndarray, uses: np.ndarray, floor: float) -> np.ndarray:
    """Each row of ``uses`` (a mask of the faces) without the faces smaller than ``floor`` of the plane through the
    others: fitted first to the larger half (marks are small, and a cluster of them fits a plane of its own),
    then to every face not below ``floor`` of it, until that settles (at least three faces are kept: a plane
    needs them). All rows at once: a photo asks this once for each face left out."""
    fits = uses & (sizes >= np.nanmedian(np.where(uses, sizes, np.nan), axis=1)[:, None])
    todo = np.arange(len(uses))
    for _ in range(len(sizes)):
        if not len(todo):
            break
        planes, _ = _least_squares_each(places, sizes, fits[todo])
        trimmed = uses[todo] & (sizes >= floor * (planes @ places.T))
        settled = (trimmed.sum(axis=1) < 3) | np.all(trimmed == fits[todo], axis=1)
        fits[todo[~settled]] = trimmed[~settled]
        todo = todo[~settled]
    return fits


def _least_squares_each(x: np.ndarray, y: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each row of ``masks``, the least-squares ``b`` of ``x[mask] @ b = y[mask]`` and the pseudo-inverse of
    ``x[mask].T @ x[mask]``: (k, d) and (k, d, d). A photo's size plane is fitted hundreds of times, each without
    another face: all at once by their normal equations, but by SVD where those are nearly singular (faces
    nearly in one line)."""
    weights = masks.astype(np.float64)
    grams = np.einsum("kn,ni,nj->kij", weights, x, x)
    # (the determinant against the diagonal's product: 1 for orthogonal columns, 0 for dependent ones)
    poor = ~(np.linalg.det(grams) > 1e-10 * np.prod(np.diagonal(grams, axis1=1, axis2=2), axis=1))
    if not poor.any():
        spreads = np.linalg.inv(grams)
        return np.einsum("kij,kj->ki", spreads, weights @ (x * y[:, None])), spreads
    spreads = np.linalg.pinv(grams)
    solutions = np.einsum("kij,kj->ki", spreads, weights @ (x * y[:, None]))
    for k in np.flatnonzero(poor):
        solutions[k] = np.linalg.lstsq(x[masks[k]], y[masks[k]], rcond=None)[0]
    return solutions, spreads


def _reading_order(face: FaceReading, row: float) -> tuple[int, float]:
    """Rows from the top, left to right within a row (a row is a tile width high)."""
    centre = geo.centre_of(face.corners)
    return int(centre[1] // max(row, 1.0)), float(centre[0])


def _settled_by_set(tiles: list[TileReading], others: list[tuple[tuple[tuple[int, int], float], ...]],
                    profile: Profile) -> list[TileReading]:
    """A set holds each tile once and no half above ``max_pips``: where faces read the same tile, the least
    sure first, if it is less sure than ``profile.settle_below``, takes its next reading (a doubtful pip
    counted or not) if no other face holds that tile. A half above ``max_pips`` is wrong however surely it
    was read: such a reading takes its next so too, at most ``profile.impossible_confidence`` sure (marked
    for checking)."""
    tiles = list(tiles)
    held = Counter(Tile(*t.pips) for t in tiles)
    for k in sorted(range(len(tiles)), key=lambda k: tiles[k].confidence):
        t = tiles[k]
        impossible = max(t.pips) > profile.max_pips
        if not impossible and (t.confidence >= profile.settle_below or held[Tile(*t.pips)] == 1):
            continue
        for pips, _ in others[k]:
            if max(pips) <= profile.max_pips and not held[Tile(*pips)]:
                held[Tile(*t.pips)] -= 1
                held[Tile(*pips)] += 1
                confidence = min(t.confidence, profile.impossible_confidence) if impossible else t.confidence
                tiles[k] = TileReading(pips, t.corners, confidence)
                break
    return tiles


def hard_to_read(index: int, pips: tuple[int, int]) -> str:
    """The warning for the one tile of a photo read with doubt (``tiles[index]``, numbered from 1)."""
    return f"tile {index + 1} ({pips[0]}|{pips[1]}) is hard to read; check it"


def _check_set(tiles: list[TileReading], profile: Profile) -> tuple[list[TileReading], list[str]]:
    """Flag what a double-``max_pips`` set cannot hold (a half above max_pips, the same tile twice) and
    readings in doubt."""
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
    hard = [k for k, t in enumerate(tiles) if k not in low and t.confidence < profile.doubt_below]
    if len(hard) == 1:
        warnings.append(hard_to_read(hard[0], tiles[hard[0]].pips))
    elif hard:
        warnings.append(f"tiles {', '.join(str(k + 1) for k in hard)} are hard to read; check them")
    out = [replace(t, confidence=min(t.confidence, profile.impossible_confidence)) if k in low else t
           for k, t in enumerate(tiles)]
    return out, warnings
