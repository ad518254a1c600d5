"""Tiles no face holds yet: where the candidates the reader left unread may hold one (``_orphans``), where the
detector sees one in a view of the table from above (``_seen_from_above``), and the looks in the gaps of rows,
beyond the ends of lines, at those candidates and at the detector's weak peaks (``_filled``; a look there is
judged by ``_found_at``).
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision import detect
from companion.vision import geometry as geo
from companion.vision import read as reader
from companion.vision.assembly import _cut_off, _judged
from companion.vision.looks.common import (
    _along_the_nearest, _faces_on, _fit_to, _halves, _moved, _one_look_more, _read_surely, _taken, _under)
from companion.vision.plane import HORIZON_NEAR, Plane, ends, gaps, next_in_line
from companion.vision.profile import Profile
from companion.vision.read import FaceReading, Pyramid, count_pips


def _orphans(frames: list[tuple[np.ndarray, float, float, float]], read: list[FaceReading | None],
             faces: list[FaceReading], size: tuple[int, int], profile: Profile) \
        -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Where the candidates' ``frames`` left unread (their looks went to a neighbouring face, or ran off the
    photo of ``size`` (width, height) and read no whole tile: a tile near the border) may hold a tile
    not found: the outlines of those whose centre lies on no face read surely (a whole tile, its pips sure: a face
    read with doubt there may lie across this tile and the next); and beside the one face one lies on (if one;
    on none, the one whole face it lies within ``profile.beside_offset`` of the candidate's width of: its centre
    on the seam of two tiles side by side, which the detector split across them),
    off its centre by ``profile.beside_offset`` of its width across it (or of its length along it), the
    outline one width beside it (one length beyond its end) on that side, and the outline centred where the
    face's centre mirrored through the candidate's falls (unless that is one of those): the detector saw two
    tiles side by side (or end to end, or staggered) as one, its centre between them."""
    alone, beside = [], []
    for frame, face in zip(frames, read):
        if face is not None and (face.tile_score >= profile.tile_threshold
                                 or not _cut_off(face.corners, *size, profile)):
            continue
        under = _under(frame[0], faces)
        if not any(_read_surely(f, profile) for f in under):
            alone.append(geo.quad_of(*frame))
        xy = (float(frame[0][0]), float(frame[0][1]))
        held = under or [f for f in faces if f.tile_score >= profile.tile_threshold and cv2.pointPolygonTest(
            f.corners.astype(np.float32), xy, True) >= -profile.beside_offset * frame[3]]
        if len(held) == 1:
            centre, angle, length, width = geo.frame_of(held[0].corners)
            along = np.array([np.cos(angle), np.sin(angle)])
            across = np.array([-along[1], along[0]])
            off = np.asarray(frame[0], np.float64) - centre
            centres = []
            if abs(off @ across) >= profile.beside_offset * width:
                centres.append(centre + np.sign(off @ across) * width * across)
            if abs(off @ along) >= profile.beside_offset * length:
                centres.append(centre + np.sign(off @ along) * length * along)
            if centres and all(np.linalg.norm(centre + 2 * off - c) >= profile.beside_offset * width
                               for c in centres):
                centres.append(centre + 2 * off)
            beside += [geo.quad_of(c, angle, length, width) for c in centres]
    return alone, beside


def _seen_from_above(pyramid: Pyramid, faces: list[FaceReading], profile: Profile) -> list[np.ndarray]:
    """Where the faces read surely (with fewer than two, the whole faces whose corners settled square on; one
    alone tells the view by its corners) tell that the camera sees the table at least ``profile.above_deg`` from
    straight down, the outlines of the faces the detector sees in the photo mapped to a view of the table from
    straight above (tiles ``profile.detect_tile_px`` long there, as its finer look has them; within
    ``profile.above_reach`` tile lengths of those faces, at most ``profile.above_side_most`` pixels a side) whose
    centre lies in the photo on no face read surely: places for ``_filled``. Seen steeply, far tiles are small and
    squashed, and the detector, taught on few such, misses some and frames others loosely: on the 800 steep photos
    of seeds 96000+, 3.4% of the whole tiles had no frame of its first look on half their area (IoU), and 0.5% in
    the view from above (made from the labels' outlines)."""
    sure = _judged(faces, profile)[0]
    if len(sure) < 2:  # (few read surely: the whole faces' outlines tell the table's plane roughly)
        sure = [f.corners for f in faces if f.tile_score >= profile.tile_threshold and f.moved <= profile.square_on_px]
    plane = Plane(sure)
    above = plane.from_above(profile.tile_aspect)
    if above is None or above[1] < profile.above_deg:
        return []
    to_table, image = above[0], pyramid.levels[0]
    height, width = image.shape[:2]
    # the table's part to look at: around the sure faces, and in the photo (not at or past the horizon)
    centres = geo.apply(to_table, plane.centres)
    reach = profile.above_reach * profile.tile_aspect
    low, high = centres.min(axis=0) - reach, centres.max(axis=0) + reach
    grid = np.stack(np.meshgrid(np.linspace(0, width - 1, 9), np.linspace(0, height - 1, 9)), -1).reshape(-1, 2)
    grid = grid[grid @ to_table[2, :2] + to_table[2, 2] > HORIZON_NEAR]
    if not len(grid):
        return []
    seen = geo.apply(to_table, grid)
    low, high = np.maximum(low, seen.min(axis=0)), np.minimum(high, seen.max(axis=0))
    if np.any(high <= low):
        return []
    scale = min(profile.detect_tile_px / profile.tile_aspect, profile.above_side_most / max(high - low))
    view = np.array([[scale, 0.0, -scale * low[0]], [0.0, scale, -scale * low[1]], [0.0, 0.0, 1.0]]) @ to_table
    size = tuple(int(v) for v in np.ceil((high - low) * scale))
    out = []
    for quad, _ in detect.find_seen_through(image, view, size, profile):
        centre = geo.centre_of(quad)
        if np.all(np.isfinite(quad)) and 0 <= centre[0] < width and 0 <= centre[1] < height and \
                not any(_read_surely(f, profile) for f in _under(centre, faces)):
            out.append(quad)
    return out


def _at_weak_peaks(frames: list[tuple[np.ndarray, float, float, float]], faces: list[FaceReading], plane: Plane,
                   profile: Profile) -> list[np.ndarray]:
    """Where at least ``profile.weak_tiles`` whole faces are read, the outlines the plane predicts at the detector's
    weak peaks (``frames``, see ``find_candidates``; of its finer look too, where it made one) that lie on no face
    and within ``profile.weak_near`` tile lengths of a whole face's centre, along the detector's axis and along and
    across the nearest face read surely (``plane``'s): guesses for ``_filled`` to look through, where a tile found
    must be read surely however surely it is whole (the detector all but missed it: planks beside a line of play are
    read as whole tiles there). Where tiles crowd, a tile staggered against a neighbour leaves a peak of its own far
    weaker than a tile's, its heat merged into the neighbour's; of the crowds' missed tiles in 3,450 photos, about
    half had such a peak."""
    whole = [f for f in faces if f.tile_score >= profile.tile_threshold]
    if len(whole) < max(profile.weak_tiles, 1) or len(plane.sure) < 2:  # (too few sure faces predict nothing)
        return []
    centres = np.array([geo.centre_of(f.corners) for f in whole])
    reach = profile.weak_near * np.array([geo.frame_of(f.corners)[2] for f in whole])
    outlines = []
    for frame in frames:
        if _under(frame[0], faces) or not np.any(np.linalg.norm(centres - frame[0], axis=1) < reach):
            continue
        quad = geo.quad_of(*frame)
        outlines += [o for o in (plane.outline(quad, profile.tile_aspect),
                                 *_along_the_nearest(plane, quad, profile.tile_aspect)) if o is not None]
    return outlines


def _filled(pyramid: Pyramid, faces: list[FaceReading], orphans: list[np.ndarray], beside: list[np.ndarray],
            profile: Profile, weak: list[tuple[np.ndarray, float, float, float]] = (),
            above: list[np.ndarray] = ()) -> list[FaceReading]:
    """``faces`` and the tiles found in the gaps of rows, beyond the ends of lines and rows, and where the
    reader lost a candidate: between two whole tiles end to end or side by side with room for one or two
    more (``plane.gaps``), where no whole tile was read, a look through the outline the two predict; a tile
    beyond the end of a line, in line or a double laid crosswise, past a whole face with another against its
    other end, and one a width beyond a whole face with another against its other long side (``plane.ends``);
    at the two halves of a face read as no tile that is two tiles long or wide (``_halves_of_two``), and half a
    tile each way along a face read as no whole tile that is one tile long, its pips sure (``_across_a_junction``);
    at each of the ``orphans`` (outlines of candidates left unread, see ``_orphans``),
    a look through the outline the faces read surely predict there along it, through it moved each way
    along and across (``profile.shift_along``, ``profile.shift_across``), and through the outlines along the
    nearest sure face's axis and across it (the detector's axis may be askew, and a face seen steeply is read
    only from a look along it), and through the tile end to end with a whole face whose end it lies just beyond
    (``_beyond_an_end``); ``beside`` a face a candidate left
    unread lay on (see ``_orphans``), a look through the outline they predict there; and where tiles crowd, at
    the detector's ``weak`` peaks (frames), through the outlines ``_at_weak_peaks`` gives, and in any photo at
    those on no face just beyond a whole face's end, through the tile end to end with it (``_beyond_an_end``); and at
    each of the outlines ``above`` (``_seen_from_above``: the detector frames a tile seen from above closely), a look
    through it and through the outline the plane predicts there, a tile found there read surely however surely it
    is whole (read with doubt, at a weak peak or from above, a look takes only the place of one face of no tile's
    shape read less surely: ``_taken``). A look that is a whole
    tile, sure of its pips (a gap, a half or a line's end is a guess, unless the reader is as sure it is a whole
    tile as ``profile.guess_tile_sure``; a weak peak is a guess without that exception; at an orphan, where the
    detector saw a tile, at least ``profile.candidate_confidence``), settled (a whole tile not yet settled is
    looked at once more), and of a tile's shape there (its fit to the plane's prediction at least
    ``profile.gap_fit``, at an orphan ``profile.candidate_fit``) is a face the detector
    or the reader missed if it lies on no other tile; if it lies on one face only, fits at least
    ``profile.candidate_fit``, and that face fits the plane worse by ``profile.fit_margin`` and is less sure
    of its pips (or has no tile's shape there, the look read surely and of one: a blank sliver, or the logo read
    on part of a tile, 101146), or the look is ``profile.split_odds`` times likelier whole than the face (odds:
    an outline across two tiles, or off one, may read its pips surely and be far less whole), it replaces that face
    (an outline across this tile and the next); read surely, it replaces several such faces it lies on (pieces of
    one tile framed apart), and a face read with doubt (or as the same tile as another face: an outline across a
    tile's end and the next tile, 100340) that fits the plane no better by that margin (a frame a little askew: a
    plane told by few faces cannot tell them apart). Where a look found or replaced a tile, the gaps and ends it
    makes are looked at in turn, and the next tile where the face it replaced lay beyond its end or beside it
    (``_past_the_replaced``), at most ``profile.end_rounds`` times (a line that goes on, a row it closes with room
    left, the other tile of the outline across two).
    ``profile.gap_most`` 0 turns these looks off."""
    if not profile.gap_most:
        return faces
    whole = [f.corners for f in faces if f.tile_score >= profile.tile_threshold]
    plane = Plane(_judged(faces, profile)[0])
    places = gaps(whole, profile.gap_most, profile.gap_slack, np.radians(profile.gap_turn_deg), profile.tile_aspect)
    if profile.end_touch:
        places.extend(ends(whole, profile.end_touch, profile.same_face_overlap, places, profile.tile_aspect,
                           _doubles(faces, profile), plane, np.radians(profile.gap_turn_deg)))
    # a line found to go on is looked along again past the places of gaps and ends looked at already; the looks
    # that follow are of other outlines, and a line's end may lie on one
    looked = list(places)
    places.extend(_halves_of_two(faces, plane, profile))
    places.extend(_across_a_junction(faces, plane, profile))
    at_weak = _at_weak_peaks(list(weak), faces, plane, profile)
    # in any photo, a weak peak just beyond a whole face's end: a tile against it the detector all but missed
    at_weak += _beyond_an_end(plane, [frame[0] for frame in weak if not _under(frame[0], faces)], whole,
                              profile.tile_aspect)
    places.extend(at_weak)
    guesses = len(places)  # (the orphans' places follow: the detector saw a tile there)
    strict = [False] * (guesses - len(at_weak)) + [True] * len(at_weak)  # (the detector all but missed these)
    for quad in orphans:
        outline = plane.outline(quad, profile.tile_aspect)
        if outline is not None:  # (the detector's centre may lie off the tile, toward the neighbour its looks took)
            places.extend([outline, *_moved(outline, profile.shift_along, profile.shift_across)])
            places.extend(_along_the_nearest(plane, quad, profile.tile_aspect))
            places.extend(_beyond_an_end(plane, [geo.centre_of(quad)], whole, profile.tile_aspect))
        elif len(plane.sure) < 2:  # nothing tells a tile's outline there: the detector's own guess
            places.append(quad)
    strict += [False] * (len(places) - len(strict))
    for quad in above:  # (seen from above, the detector frames a tile closely: through its frame, and the plane's)
        places.extend([quad, *[o for o in [plane.outline(quad, profile.tile_aspect)] if o is not None]])
    strict += [True] * (len(places) - len(strict))
    places.extend(o for o in (plane.outline(quad, profile.tile_aspect) for quad in beside) if o is not None)

    found = _found_at(pyramid, list(faces), places, guesses, plane, profile, strict)
    before = faces
    for _ in range(profile.end_rounds if profile.end_touch else 0):  # a tile found may lead to another
        if len(found) == len(before) and all(a is b for a, b in zip(found, before)):
            break  # no tile found or replaced: no line leads anywhere new
        whole = [f.corners for f in found if f.tile_score >= profile.tile_threshold]
        # a tile found may close a row with room left in it, or lead a line on
        more = [q for q in gaps(whole, profile.gap_most, profile.gap_slack, np.radians(profile.gap_turn_deg),
                                profile.tile_aspect)
                if not any(geo.overlap(q, seen) > profile.same_face_overlap for seen in looked)]
        more += ends(whole, profile.end_touch, profile.same_face_overlap, looked + more, profile.tile_aspect,
                     _doubles(found, profile), plane, np.radians(profile.gap_turn_deg))
        # a face replaced by a tile it lay across (an outline across this tile and the next): the next tile
        more += [q for q in _past_the_replaced(plane, before, found, profile)
                 if not any(geo.overlap(q, seen) > profile.same_face_overlap for seen in looked + more)]
        if not more:
            break
        looked.extend(more)
        before, found = found, _found_at(pyramid, list(found), more, len(more), plane, profile)
    return found


def _past_the_replaced(plane: Plane, before: list[FaceReading], after: list[FaceReading],
                       profile: Profile) -> list[np.ndarray]:
    """For each face of ``before`` that ``after`` holds no more (``_taken``: a look that fits the plane better took
    the place of an outline across this tile and the next, or of the pieces of one tile), the new face of ``after``
    that lies on it most; where the old face's centre lies off the new face's along its axis, by more than
    ``profile.beside_offset`` of its length, and in line with it (within half its width of its axis): the outline
    end to end with the new face that way (``next_in_line``), where the next tile lies; where it lies off it
    across, by more than ``profile.beside_offset`` of its width, and beside it (within that share of its length
    along it): the outline a width beside the new face that way."""
    kept, had = {id(face) for face in after}, {id(face) for face in before}
    new = [face for face in after if id(face) not in had]
    out = []
    for old in before:
        if id(old) in kept or not new:
            continue
        q = np.asarray(max(new, key=lambda face: geo.overlap(face.corners, old.corners)).corners, np.float64)
        along, across = (q[2] + q[3] - q[0] - q[1]) / 2, (q[1] + q[2] - q[0] - q[3]) / 2  # its length, its width
        off = geo.centre_of(old.corners) - geo.centre_of(q)
        if abs(off @ along) > profile.beside_offset * (along @ along) and abs(off @ across) < 0.5 * (across @ across):
            out.append(next_in_line(plane, q, 1 if off @ along > 0 else -1, profile.tile_aspect))
        elif abs(off @ across) > profile.beside_offset * (across @ across) and \
                abs(off @ along) < profile.beside_offset * (along @ along):
            place = _moved(q, 0.0, 1.0)[0 if off @ across > 0 else 1]
            outline = plane.outline(place, profile.tile_aspect)
            out.append(place if outline is None else outline)
    return out


def _beyond_an_end(plane: Plane, points: list[np.ndarray], whole: list[np.ndarray], aspect: float) -> list[np.ndarray]:
    """The outlines ``plane`` predicts for a tile end to end with each whole face (``whole``) that one of ``points``
    lies beyond, on the near half of where that tile would lie (from the face's end to half a length past it,
    within half a width of its axis: no tolerance to tune, the place itself). The points are the centres of
    candidates left unread on no face read surely, or of weak peaks on none: the detector's centre for a tile
    against a face's end may lie near that end, half a tile and more off the tile's own, beyond what the looks
    moved along reach."""
    if not points or not whole:
        return []
    quads = np.array([np.asarray(q, np.float64) for q in whole])  # (faces, 4, 2)
    centres = quads.mean(axis=1)
    along = (quads[:, 2] + quads[:, 3] - quads[:, 0] - quads[:, 1]) / 2  # toward the end of corners 2 and 3
    across = (quads[:, 1] - quads[:, 0] + quads[:, 2] - quads[:, 3]) / 2
    length, width = np.linalg.norm(along, axis=1), np.linalg.norm(across, axis=1)
    out = []
    for point in points:
        off = np.asarray(point, np.float64) - centres
        on_axis = np.einsum("ij,ij->i", off, along) / np.maximum(length, 1e-9)
        aside = np.abs(np.einsum("ij,ij->i", off, across)) / np.maximum(width, 1e-9)
        for k in np.flatnonzero((np.abs(on_axis) >= length / 2) & (np.abs(on_axis) <= length) & (aside <= width / 2)):
            out.append(next_in_line(plane, whole[k], 1 if on_axis[k] > 0 else -1, aspect))
    return out


def _halves_of_two(faces: list[FaceReading], plane: Plane, profile: Profile) -> list[np.ndarray]:
    """For each face of ``faces`` not read as a whole tile that is two tiles long where it lies (its length
    twice that of the outline ``plane`` predicts there, give or take twice ``profile.gap_slack`` of a tile),
    or a tile long and two wide, the outlines ``plane`` predicts at its two halves: the detector saw two tiles
    end to end, or side by side, as one face."""
    out = []
    for face in faces:
        tile = plane.outline(face.corners, profile.tile_aspect) if face.tile_score < profile.tile_threshold else None
        if tile is None:
            continue
        (_, _, length, width), (_, _, tile_length, tile_width) = geo.frame_of(face.corners), geo.frame_of(tile)
        if abs(length / tile_length - 2) <= 2 * profile.gap_slack:
            halves = _halves(face.corners)
        elif abs(length / tile_length - 1) <= 2 * profile.gap_slack and \
                abs(width / tile_width - 2) <= 2 * profile.gap_slack:
            halves = _halves(face.corners, along=True)
        else:
            continue
        for half in halves:
            outline = plane.outline(half, profile.tile_aspect)
            if outline is not None:
                out.append(outline)
    return out


def _across_a_junction(faces: list[FaceReading], plane: Plane, profile: Profile) -> list[np.ndarray]:
    """For each face of ``faces`` not read as a whole tile (nor as no tile at all: ``profile.second_look_floor``)
    but with its pips sure, a tile long where it lies (give or take twice ``profile.gap_slack`` of the outline
    ``plane`` predicts there), the outlines ``plane`` predicts half a tile each way along it: the reader read
    across the junction of two tiles end to end, half of each."""
    out = []
    for face in faces:
        if not profile.second_look_floor <= face.tile_score < profile.tile_threshold or \
                count_pips(face, profile).confidence < profile.doubt_below:
            continue
        tile = plane.outline(face.corners, profile.tile_aspect)
        if tile is not None and abs(geo.frame_of(face.corners)[2] / geo.frame_of(tile)[2] - 1) <= 2 * profile.gap_slack:
            out.extend(_moved(tile, 0.5, 0.0))
    return out


def _doubles(faces: list[FaceReading], profile: Profile) -> list[bool]:
    """For each whole face of ``faces``, in order, whether it reads as a double."""
    return [pips[0] == pips[1] for pips in
            (count_pips(f, profile).pips for f in faces if f.tile_score >= profile.tile_threshold)]


def _found_at(pyramid: Pyramid, found: list[FaceReading], places: list[np.ndarray], guesses: int,
              plane: Plane, profile: Profile, strict: list[bool] = ()) -> list[FaceReading]:
    """``found`` and what the looks through ``places`` find, as ``_filled`` tells (``plane``: what the faces
    read surely predict); the first ``guesses`` places are guesses (gaps, the ends of lines), taken in turn, the
    others where the detector saw a tile, taken surest first; a look marked ``strict`` must be read surely
    (a guess however surely it is a whole tile). A look the reader is less sure is whole (from
    ``profile.shaped_tile_threshold``) counts as whole where ``assemble`` would keep it: of a tile's shape there
    (``profile.shaped_fit``), its pips read surely. A whole look, settled, whose pips are in doubt is judged on
    its four looks (``read_both_ways``) before it is taken or left: a tile with a blank half the detector all but
    missed reads so at times, and must be read surely there. A place on a whole face that fits the plane too
    closely to be replaced, or on two whole faces (but pieces of one tile, each read with doubt), takes no look."""
    fit = _fit_to(plane, profile)
    unjudged = len(plane.sure) < 2  # (nothing tells a tile's shape: see ``_taken``)
    # a look through a place on a whole face stays on it (looks move little), so it can only take that face's
    # place: a place on one fitting the plane too well to be replaced (a look replaces a face it fits better by
    # ``fit_margin``), or on two, takes no look; but a look read surely replaces the pieces of one tile read
    # with doubt
    whole = [f for f in found if f.tile_score >= profile.tile_threshold]
    free = [not on or (len(on) == 1 or all(count_pips(f, profile).confidence < profile.doubt_below for f in on))
            and all(unjudged or fit(f) + profile.fit_margin < 1.0 for f in on)
            for on in _faces_on(places, whole, profile.same_face_overlap)]
    strict = [k < len(strict) and strict[k] for k, ok in enumerate(free) if ok]
    places, guesses = [q for q, ok in zip(places, free) if ok], sum(free[:guesses])
    looks = reader.read_outlines(pyramid, places, profile, floor=profile.tile_threshold) if places else []
    looks = [_one_look_more(pyramid, face, profile) for face in looks]  # (a guess far off takes more looks)
    settled = [k for k, face in enumerate(looks)
               if face.tile_score >= profile.tile_threshold and face.moved <= profile.settled_px]
    for k, face in zip(settled, reader.read_both_ways(pyramid, [looks[k] for k in settled], profile)):
        looks[k] = face
    return _taken(found, looks, guesses, plane, profile, fit, strict)
