"""What the looks share: where a face lies (``_under``, ``_faces_on``, ``_on_another``), whether it was read
surely (``_read_surely``), outlines moved along and across a face (``_moved``) or laid along the nearest sure face
(``_along_the_nearest``), a look's fit to the plane (``_fit_to``), one look more where its corners still moved
(``_one_look_more``), whether a look where a tile may lie is taken (``_taken``) and whether it is far likelier
whole than a face (``_far_likelier_whole``), a face's halves (``_halves``) and the detector's candidates as frames
(``_frames``).
"""

from __future__ import annotations

import functools
from typing import Callable

import cv2
import numpy as np

from companion.vision import geometry as geo
from companion.vision import read as reader
from companion.vision.assembly import _judged, _plane_fit
from companion.vision.detect import Candidate
from companion.vision.plane import Plane
from companion.vision.profile import Profile
from companion.vision.read import FaceReading, Pyramid, count_pips


def _frames(candidates: list[Candidate], scale: float) -> list[tuple[np.ndarray, float, float, float]]:
    """The detector's ``candidates`` as frames (centre, angle, length, width) in pixels ``scale`` times as fine."""
    return [(c.centre * scale, c.angle, c.length * scale, c.width * scale) for c in candidates]


def _under(point: np.ndarray, faces: list[FaceReading]) -> list[FaceReading]:
    """The faces whose outline holds ``point`` (xy)."""
    xy = (float(point[0]), float(point[1]))
    return [f for f in faces if cv2.pointPolygonTest(f.corners.astype(np.float32), xy, False) >= 0]


def _read_surely(face: FaceReading, profile: Profile) -> bool:
    """Whether ``face`` is read as a whole tile and its pips are sure."""
    return face.tile_score >= profile.tile_threshold and count_pips(face, profile).confidence >= profile.doubt_below


def _on_another(face: FaceReading, k: int, faces: list[FaceReading], profile: Profile,
                besides: list[int] = ()) -> bool:
    """Whether ``face`` (a new look at ``faces[k]``, or at a gap for -1) lies on other faces read as whole
    tiles, but those ``besides``: more than ``profile.same_face_overlap`` of it, or of one of them, on them
    (an outline across two)."""
    others = [other.corners for j, other in enumerate(faces)
              if j != k and j not in besides and other.tile_score >= profile.tile_threshold]
    area = cv2.contourArea(face.corners.astype(np.float32))
    shared = sum(cv2.intersectConvexConvex(face.corners.astype(np.float32), q.astype(np.float32))[0] for q in others)
    return shared > profile.same_face_overlap * area or \
        any(geo.overlap(face.corners, q) > profile.same_face_overlap for q in others)


def _faces_on(quads: list[np.ndarray], faces: list[FaceReading], overlap: float) -> list[list[FaceReading]]:
    """For each outline of ``quads``, the ``faces`` it overlaps by more than ``overlap`` (``geo.overlap``)."""
    corners = np.array([f.corners for f in faces]).reshape(-1, 4, 2)
    low, high = corners.min(axis=1), corners.max(axis=1)
    on = []
    for quad in quads:
        q = np.asarray(quad)
        near = np.flatnonzero(np.all((low < q.max(axis=0)) & (high > q.min(axis=0)), axis=1))
        on.append([faces[k] for k in near if geo.overlap(q, faces[k].corners) > overlap])
    return on


def _moved(outline: np.ndarray, along: float, across: float) -> list[np.ndarray]:
    """``outline`` moved each way along its tile by ``along`` of its length and across it by ``across`` of its
    width (none for 0)."""
    q = np.asarray(outline, np.float64)
    length = (q[2] + q[3] - q[0] - q[1]) / 2
    width = (q[1] - q[0] + q[2] - q[3]) / 2
    steps = [s * length for s in (along, -along) if s] + [s * width for s in (across, -across) if s]
    return [q + step for step in steps]


def _one_look_more(pyramid: Pyramid, face: FaceReading, profile: Profile) -> FaceReading:
    """``face`` (a look through an outline) looked at once more through its corners where it is a whole tile, or
    may be one (``profile.shaped_tile_threshold``: ``assemble`` keeps such a face where it has a tile's shape),
    whose corners still moved more than ``profile.settled_px``."""
    if face.tile_score >= profile.shaped_tile_threshold and face.moved > profile.settled_px:
        return reader.read_outlines(pyramid, [face.corners], profile, floor=profile.tile_threshold)[0]
    return face


def _fit_to(plane: Plane, profile: Profile) -> Callable[[FaceReading], float]:
    """``_plane_fit`` against ``plane``, worked out once a face (the face is kept with it, so its id stays its own)."""
    known: dict[int, tuple[FaceReading, float]] = {}

    def fit(face: FaceReading) -> float:
        if id(face) not in known:
            known[id(face)] = (face, _plane_fit(face, plane, profile))
        return known[id(face)][1]

    return fit


def _along_the_nearest(plane: Plane, corners: np.ndarray, aspect: float) -> list[np.ndarray]:
    """The outlines ``plane`` predicts at the centre of ``corners`` along the axis of the nearest of its sure
    faces and across it (tiles lie along or across their neighbours), for a face whose own axis tells nothing."""
    centre = geo.centre_of(corners)
    near = min(plane.sure, key=lambda q: float(np.linalg.norm(geo.centre_of(q) - centre)))
    along = np.asarray(near, np.float64) - geo.centre_of(near) + centre
    return [o for o in (plane.outline(q, aspect) for q in (along, np.roll(along, -1, axis=0))) if o is not None]


def _taken(found: list[FaceReading], looks: list[FaceReading], guesses: int, plane: Plane, profile: Profile,
           fit: Callable[[FaceReading], float] | None = None, strict: list[bool] = ()) -> list[FaceReading]:
    """``found`` (changed in place) and the ``looks`` that are tiles it missed, or that take the place of a face
    of it, as ``_filled`` tells; the first ``guesses`` looks are guesses, the others where the detector saw a tile;
    a look marked ``strict`` must be read surely (a guess however surely it is a whole tile) to be a tile missed;
    read with doubt (at least ``profile.candidate_confidence``), whole, settled and of a tile's shape
    (``profile.gap_fit``), it may only take the place of the one face it lies on that has no tile's shape and is
    read less surely. A look that may take a face's place does so however the two read their pips where it is
    far likelier whole (``_far_likelier_whole``). ``fit``: ``_fit_to(plane, profile)``, if made already."""
    fit = fit or _fit_to(plane, profile)
    # with fewer than two faces read surely nothing tells a tile's shape: where the detector saw a tile, a look
    # is judged on its reading alone (read surely), and takes the place of a face read with doubt only
    unjudged = len(plane.sure) < 2
    # where the detector saw a tile, the surest look is taken first: the looks around it may take in a neighbour
    sure = [min(count_pips(face, profile).confidence, face.tile_score) for face in looks]
    for n in [*range(guesses), *sorted(range(guesses, len(looks)), key=lambda n: -sure[n])]:
        face = looks[n]
        confidence = count_pips(face, profile).confidence
        alone = unjudged and n >= guesses
        face_fit = 1.0 if alone else fit(face)
        # a guess must be read surely, unless it is surely a whole tile; where the detector saw a tile, less surely
        lenient = face.tile_score >= profile.guess_tile_sure and not (n < len(strict) and strict[n])
        floor = (0.0 if lenient else profile.doubt_below) if n < guesses \
            else profile.doubt_below if alone or n < len(strict) and strict[n] else profile.candidate_confidence
        # a look the reader is less sure is whole is a tile all the same where step 4 would keep it: of a tile's
        # shape there, its pips read surely
        shaped = face.tile_score >= profile.shaped_tile_threshold and face_fit >= profile.shaped_fit and \
            confidence >= max(floor, profile.doubt_below) and not alone
        # a strict look read with doubt adds no tile, but a whole one of a tile's shape may mend a face of none there
        mends = n < len(strict) and strict[n] and not alone and profile.candidate_confidence <= confidence < floor \
            and face.tile_score >= profile.tile_threshold and face_fit >= profile.gap_fit
        if (face.tile_score < profile.tile_threshold and not shaped) or face.moved > profile.settled_px or \
                (confidence < floor and not mends) or face_fit < min(profile.gap_fit, profile.candidate_fit):
            continue
        under = [k for k, other in enumerate(found) if other.tile_score >= profile.tile_threshold
                 and geo.overlap(face.corners, other.corners) > profile.same_face_overlap]
        if mends:  # (102066's far 6-3 seen end on, read 0-1 almost without confidence through a frame short and wide)
            if len(under) == 1 and fit(found[under[0]]) < profile.gap_fit and \
                    count_pips(found[under[0]], profile).confidence < confidence and \
                    not _on_another(face, -1, found, profile, under):
                found[under[0]] = face
            continue
        doubted = functools.cache(lambda: set(_judged(found, profile)[1]))  # (asked only where the rest hold)
        if not under and not _on_another(face, -1, found, profile) and \
                face_fit >= (profile.gap_fit if n < guesses else profile.candidate_fit):
            found.append(face)
        elif under and not _on_another(face, -1, found, profile, under) and face_fit >= profile.candidate_fit and \
                (len(under) == 1 or confidence >= profile.doubt_below) and all(
                    (count_pips(found[k], profile).confidence < profile.doubt_below if alone
                     else fit(found[k]) + profile.fit_margin < face_fit or
                     # (read surely, it takes the place of a face read with doubt that fits no better by the margin;
                     # a face read as the same tile as another is read with doubt however sure its pips: _judged;
                     # or the look outdoes the face in every way, by however little: the same tile framed better)
                     confidence >= profile.doubt_below and fit(found[k]) < face_fit + profile.fit_margin and
                     k in doubted() or _outdone(found[k], face, fit, profile)) and
                    # (read surely and of a tile's shape, it takes the place of one face of none however surely that
                    # was read: a blank sliver, or the logo read on part of a tile, as in ``_reshaped``)
                    (count_pips(found[k], profile).confidence < confidence or len(under) == 1 and
                     confidence >= profile.doubt_below and fit(found[k]) < profile.gap_fit <= face_fit)
                    # (or whatever the pips: an outline across two tiles, or off one, is far less whole)
                    or _far_likelier_whole(face, found[k], profile)
                    for k in under):
            found[under[0]] = face  # (read surely, it takes the place of pieces of the one tile framed apart)
            found[:] = [other for k, other in enumerate(found) if k not in under[1:]]
    return _staggered(found, looks, fit, profile)


def _log_odds(p: float) -> float:
    """The log odds of ``p``, its ends held a millionth off 0 and 1 (the reader's scores reach 1.0 in float)."""
    p = min(max(p, 1e-6), 1 - 1e-6)
    return float(np.log(p / (1 - p)))


def _far_likelier_whole(look: FaceReading, other: FaceReading, profile: Profile) -> bool:
    """Whether the reader is ``profile.split_odds`` times likelier (odds) that ``look`` is a whole tile than the
    face ``other`` it lies on: an outline across two touching tiles (which it learned as no tile) or off its tile
    reads pips too, at times more surely than the look at the tile, but it is the less whole."""
    return bool(profile.split_odds) and \
        _log_odds(look.tile_score) - _log_odds(other.tile_score) >= np.log(profile.split_odds)


def _outdone(other: FaceReading, look: FaceReading, fit: Callable[[FaceReading], float], profile: Profile) -> bool:
    """Whether ``look``, read surely and of a tile's shape (``profile.gap_fit``), outdoes the face ``other`` it lies
    on in every way, by however little: surer it is a whole tile, its pips read more surely, and of a better shape
    there (``fit``). Then it is the same tile framed better: 105370's 0-1 was framed 40 pixels onto the grass beside
    it (read 0.53 surely, 0.85 whole, fit 0.88), and then left out for the grass's colour; a look through the tile
    read it 0.88 surely, 1.0 whole, fit 0.96, short of the margin a look needs that outdoes a face in shape alone."""
    confidence, shape = count_pips(look, profile).confidence, fit(look)
    return confidence >= profile.doubt_below and shape >= profile.gap_fit and look.tile_score > other.tile_score \
        and confidence > count_pips(other, profile).confidence and shape > fit(other)


def _staggered(found: list[FaceReading], looks: list[FaceReading], fit: Callable[[FaceReading], float],
               profile: Profile) -> list[FaceReading]:
    """``found`` (changed in place), each whole face that lies across two tiles staggered side by side (a half of
    each, end to end) replaced by two ``looks`` that read those tiles: each a whole tile, settled, read surely, of a
    tile's shape there (``profile.gap_fit``), on that face and on no other, apart from each other, one half of the
    face within each and each reading that half's pips on one of its own halves. Such a face is read as surely as a
    tile, and where the detector saw a tile it is taken first."""
    good = [face for face in looks if face.tile_score >= profile.tile_threshold and face.moved <= profile.settled_px
            and count_pips(face, profile).confidence >= profile.doubt_below and fit(face) >= profile.gap_fit]
    for k in range(len(found)):
        face = found[k]
        if face.tile_score < profile.tile_threshold:
            continue
        on = [g for g in good if g is not face and geo.overlap(g.corners, face.corners) > profile.same_face_overlap
              and not _on_another(g, k, found, profile)]
        pips = count_pips(face, profile).pips
        halves = [geo.centre_of(h) for h in _halves(face.corners)]

        def holds(look: FaceReading, half: int) -> bool:
            xy = (float(halves[half][0]), float(halves[half][1]))
            return pips[half] in count_pips(look, profile).pips and \
                cv2.pointPolygonTest(look.corners.astype(np.float32), xy, False) > 0
        pair = next(((a, b) for a in on for b in on if a is not b and holds(a, 0) and holds(b, 1) and
                     geo.overlap(a.corners, b.corners) <= profile.same_face_overlap), None)
        if pair:
            found[k] = pair[0]
            found.append(pair[1])
    return found


def _halves(corners: np.ndarray, along: bool = False) -> list[np.ndarray]:
    """The two halves of the face ``corners`` across its middle (two tiles end to end), or ``along`` it (two tiles
    side by side), each clockwise with [0]-[1] across it, as a tile's end is."""
    q = np.asarray(corners, np.float64)
    if along:
        middle = [(q[0] + q[1]) / 2, (q[3] + q[2]) / 2]
        return [np.array([q[0], middle[0], middle[1], q[3]]), np.array([middle[0], q[1], q[2], middle[1]])]
    middle = [(q[0] + q[3]) / 2, (q[1] + q[2]) / 2]
    return [np.array([q[0], q[1], middle[1], middle[0]]), np.array([middle[0], middle[1], q[2], q[3]])]
