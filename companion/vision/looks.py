"""Every face the networks see in a photo: ``find_faces(image_bgr, profile) -> Faces``.

The detector guesses where tiles lie (``detect``: on the photo reduced to about 768 pixels, again finer where
tiles are small), and the reader looks at each guess (``read``: the face's corners and pips, twice, the second
time square on to the corners the first look found). Then come the looks that put right what those got wrong, in
the order ``find_faces`` takes them (each documented where it is defined):

- ``_reshaped``: a face read with doubt far from the outline that the faces read surely around it predict
  (``plane``) is looked at through that outline, and moved and turned.
- ``_resplit``: two whole faces side by side are read split the other way where that reads two tiles read
  nowhere else, or reads them far more surely (and again once the gaps are filled).
- ``_unstraddled``: a face across the junction of two tiles end to end (a double half a tile short of a line's
  next face) is looked at half a tile each way along it.
- ``_split_in_two``: a face that holds a guess left unread off its centre is looked at as the two tiles, end
  to end or side by side, that the reader took for one.
- ``_unread_pair``: two guesses side by side read as no tile are looked at as their square split the other way.
- ``_orphans`` and ``_filled``: looks in the gaps of rows, beyond the ends of lines, at the guesses left unread
  and at the detector's weak peaks.
- ``_halved``: a face too large for a tile is looked at as its two halves, and a tile's half read as a whole
  face as the tile twice its size.
- ``_logo_sought``: the logo tile, looked for on the photo scaled for it.
- ``_last_of_set``: where the faces read all the set's tiles but one or two, those are looked for.
- ``read_both_ways``: a face read with doubt is read once more, straight and turned end for end, each also
  mirrored, and judged on the four looks.
- ``_cut_at_border``: tiles cut off by the photo's border, named in a warning and never read.

``Faces`` holds the faces with the reader's scores; which of them are tiles ``assemble`` decides. Where to
look again, and which look takes a face's place, the looks decide with ``assemble``'s judges (which faces are
read surely, how far a face lies from the plane's outline, which are cut off by the border).

Raises ``VisionInputError`` (``ValueError``) for an array that is not an image.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Callable

import cv2
import numpy as np

from companion.vision import geometry as geo
from companion.vision.assemble import (
    _choosable, _cut_off, _fit_by_others, _judged, _logo_vouched, _marks, _one_per_face, _plane_fit,
    _predicted_by_others, _sized_like_tiles)
from companion.vision.detect import Candidate, busy_region, find_candidates, finer_side, merged
from companion.vision.profile import Profile
from companion.vision.plane import Lines, Plane, ends, gaps, next_in_line, side_by_side, split_the_other_way
from companion.vision.read import (
    FaceReading, Pyramid, count_pips, face_colour, read_both_ways, read_faces, read_outlines)


class VisionInputError(ValueError):
    """An array that is not a BGR (or gray) uint8 image."""


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


@dataclass(frozen=True)
class Faces:
    """What the networks saw in a photo, before any threshold but the detector's: every face the reader
    looked at, with its corners in photo pixels, and the photo's size."""

    faces: list[FaceReading]
    width: int
    height: int
    cut: list[np.ndarray] = field(default_factory=list)  # tiles cut off by the border, seen apart from the faces


def find_faces(image_bgr: np.ndarray, profile: Profile, *, photo_scale: float = 1.0,
               finer: Callable[[float], tuple[np.ndarray, float]] | None = None) -> Faces:
    """The networks' stages of ``read_tiles`` (same arguments): every candidate face, read."""
    image_bgr = _check_image(image_bgr)
    height, width = image_bgr.shape[:2]
    at_border: list = []  # the detector's weak peaks along the border: tiles cut off, their centre beyond it
    weak: list = []  # and inside it: a tile staggered against a neighbour, its peak merged into the neighbour's
    candidates = find_candidates(image_bgr, profile, border=at_border, weak=weak)
    side = finer_side(candidates, max(height, width), profile)
    # one source for the second look and the reading: the finest either needs, decoded once
    need = photo_scale * max(height, width) / side if side else np.inf  # photo pixels per pixel, at most
    shortest = min((c.length for c in candidates), default=np.inf)
    if shortest < profile.read_min_length:
        need = min(need, photo_scale * shortest / profile.read_min_length)
    source, source_scale = image_bgr, 1.0  # source pixels per image_bgr pixel
    if finer is not None and photo_scale > 1.0 and need < photo_scale:
        finer_image, finer_scale = finer(max(1.0, need))
        if finer_scale < photo_scale:
            source, source_scale = _check_image(finer_image), photo_scale / finer_scale
    frames, weak_frames = _frames(candidates, source_scale), _frames(weak, source_scale)
    if side:
        coarse = [replace(c, centre=c.centre * source_scale, length=c.length * source_scale,
                          width=c.width * source_scale) for c in candidates]
        region = busy_region(coarse, source.shape[1], source.shape[0])
        fine_weak: list = []  # (a small tile's heat may peak weakly at the finer look only)
        fine = find_candidates(source, profile, side=min(side, max(source.shape[:2])), region=region, weak=fine_weak)
        frames = [(c.centre, c.angle, c.length, c.width) for c in merged(fine, coarse)]
        weak_frames += _frames(fine_weak, 1.0)
    pyramid = Pyramid(source)
    read = read_faces(pyramid, frames, profile)
    beside: list[np.ndarray] = []  # the other tile where a face read lay across two
    faces = _reshaped(pyramid, [f for f in read if f is not None], profile, beside)
    faces = _resplit(pyramid, faces, profile)
    looked: list[FaceReading] = []  # the faces looked along as straddles, or found so
    faces = _unstraddled(pyramid, faces, profile, looked)
    faces = _split_in_two(pyramid, faces, _held_off_centre(frames, read, faces, profile), profile)
    faces = _unread_pair(pyramid, faces, frames, read, profile)
    orphans, beside_orphans = _orphans(frames, read, faces, (source.shape[1], source.shape[0]), profile)
    faces = _filled(pyramid, faces, orphans, beside_orphans + beside, profile, weak_frames)
    faces = _unstraddled(pyramid, faces, profile, looked)  # and the faces that filled a gap
    faces = _resplit(pyramid, faces, profile)  # (a face that filled a gap may read a tile read already)
    faces = _halved(pyramid, faces, profile)
    faces = _logo_sought(image_bgr, source_scale, pyramid, faces, profile)
    faces = _last_of_set(pyramid, faces, frames, profile)
    faces = read_both_ways(pyramid, faces, profile)
    cut = _cut_at_border(pyramid, faces, _frames(at_border, source_scale), profile)
    to_photo = photo_scale / source_scale  # source pixels -> photo pixels
    faces = [replace(f, corners=(f.corners + 0.5) * to_photo - 0.5,
                     colour=face_colour(pyramid, f.corners) if f.tile_score >= profile.tile_threshold else None)
             for f in faces]
    return Faces(faces, round(width * photo_scale), round(height * photo_scale),
                 [(q + 0.5) * to_photo - 0.5 for q in cut])


def _frames(candidates: list[Candidate], scale: float) -> list[tuple[np.ndarray, float, float, float]]:
    """The detector's ``candidates`` as frames (centre, angle, length, width) in pixels ``scale`` times as fine."""
    return [(c.centre * scale, c.angle, c.length * scale, c.width * scale) for c in candidates]


def _cut_at_border(pyramid: Pyramid, faces: list[FaceReading], frames: list[tuple[np.ndarray, float, float, float]],
                   profile: Profile) -> list[np.ndarray]:
    """The outlines of tiles cut off by the photo's border (``_cut_off``) read at ``frames`` (the detector's weak
    peaks along it) that lie on no whole face of ``faces``: named in a warning, never read. The reader must be
    as sure as ``profile.border_tile_sure`` that such a look is a tile, and a plain blank face is none (with
    ``profile.logo``): planks, a cloth's squares and marks on the ground at the border are read as tiles cut
    off more often than tiles are."""
    height, width = pyramid.levels[0].shape[:2]
    whole = [f for f in faces if f.tile_score >= profile.tile_threshold]
    frames = [frame for frame in frames if not _under(frame[0], whole)]
    cut: list[np.ndarray] = []
    for face in read_faces(pyramid, frames, profile) if frames else []:
        if face is None or face.tile_score < profile.border_tile_sure or (
                profile.logo and not _marks(face, profile) and face.logo_score < profile.logo_threshold):
            continue
        if _cut_off(face.corners, width, height, profile) and not any(
                geo.overlap(face.corners, q) > profile.same_face_overlap for q in [f.corners for f in whole] + cut):
            cut.append(face.corners)
    return cut


def _logo_sought(image_bgr: np.ndarray, source_scale: float, pyramid: Pyramid, faces: list[FaceReading],
                 profile: Profile) -> list[FaceReading]:
    """``faces`` and, where none of them was read as the set's logo tile so that it stands by its reading or its shape
    (``_logo_vouched``: one read as the logo less surely and of no tile's shape is left out as a score card would be;
    one that nothing judges may be the logo's emblem read apart), the logo tile the detector saw with the photo scaled
    to ``profile.logo_look_side`` (``image_bgr``, ``source_scale`` of it to ``pyramid``'s pixels): a candidate on no
    whole face read surely but those read as the logo, read as a whole tile, settled (it may take one look more), as the
    logo at least as surely as ``profile.logo_sure`` and on no other whole face but smaller ones that lie on it (more
    than ``profile.same_face_overlap`` of them: parts of it read apart, as a logo tile close to the camera is, or its
    emblem's half) and those read as the logo (the same tile, read less surely), which give way to it; the surest such.
    Also looked at (``_logo_places``): the tile the faces read surely predict where a bare face or one read as the logo
    has no tile's shape, the logo tile outlined in part; a look there is taken as a look of the detector's is, but read
    as the logo as surely as ``profile.logo_threshold`` will do where it stands (``_logo_vouched``). A face read as the
    logo that nothing vouches for may give way to a tile a look there reads surely (``_tiles_for_cards``), and a look
    that reads a tile is judged as one at a candidate left unread is (``_taken``), and may take the place of a face read
    with doubt: the detector's heat dips for tiles as for the logo, and a tile close to the camera is framed better at
    the coarser scale."""
    whole = [f for f in faces if f.tile_score >= profile.tile_threshold]
    if not profile.logo or not profile.logo_look_side:
        return faces
    logo_read = [f for f in whole if f.logo_score >= profile.logo_threshold]
    sure = _judged(faces, profile)[0]
    # a face read as the logo that stands only as nothing judges its shape (a hand of a tile or two) may be the
    # emblem of a logo tile close to the camera, read apart from its word mark: the detector looks all the same
    if any(_logo_vouched(f, sure, profile, unjudged=False) for f in logo_read):
        return faces
    read_ids = {id(f) for f in logo_read}
    frames = _frames(find_candidates(image_bgr, profile, side=profile.logo_look_side), source_scale)
    # (a face read with doubt may be a tile close to the camera read through an outline off it, and give way)
    frames = [frame for frame in frames
              if not _under(frame[0], [f for f in whole if id(f) not in read_ids and _read_surely(f, profile)])]
    looks = [_one_look_more(pyramid, face, profile) for face in read_faces(pyramid, frames, profile)
             if face is not None]
    in_part = [_one_look_more(pyramid, face, profile)
               for face in read_outlines(pyramid, _logo_places(faces, sure, profile), profile,
                                         floor=profile.tile_threshold)]

    def parts(face: FaceReading) -> list[int]:  # the whole faces smaller or read as the logo, on it
        area = cv2.contourArea(face.corners.astype(np.float32))
        return [k for k, f in enumerate(faces) if f.tile_score >= profile.tile_threshold and
                (cv2.contourArea(f.corners.astype(np.float32)) < area or id(f) in read_ids) and
                geo.overlap(f.corners, face.corners) > profile.same_face_overlap]

    logos = [face for face in looks if face.tile_score >= profile.tile_threshold and
             face.logo_score >= profile.logo_sure and face.moved <= profile.settled_px and
             not _on_another(face, -1, faces, profile, besides=parts(face))]
    logos += [face for face in in_part if face.tile_score >= profile.tile_threshold and
              face.logo_score >= profile.logo_threshold and face.moved <= profile.settled_px and
              _logo_vouched(face, sure, profile) and not _on_another(face, -1, faces, profile, besides=parts(face))]
    if logos:
        logo = max(logos, key=lambda face: face.logo_score)
        gone = set(parts(logo))
        faces = [face for k, face in enumerate(faces) if k not in gone] + [logo]
    faces = _tiles_for_cards(faces, looks, sure, profile)
    # a tile the detector saw only at this scale, read and judged as at a candidate left unread (``_filled``)
    return _taken(list(faces), [face for face in looks if face.logo_score < profile.logo_threshold], 0, Plane(sure),
                  profile)


def _tiles_for_cards(faces: list[FaceReading], looks: list[FaceReading], sure: list[np.ndarray],
                     profile: Profile) -> list[FaceReading]:
    """``faces``, each whole face read as the logo tile that nothing vouches for (``_logo_vouched``: it would be
    left out as a score card) giving way to the surest of ``looks`` on it (more than ``profile.same_face_overlap``
    of it or of the look) that reads a tile surely (``profile.doubt_below``), whole and settled, has a tile's
    shape there (its fit to what the other faces read surely predict at least ``profile.gap_fit``) and lies on
    no other whole face: the reader's outline lay across a tile and what lies beside it, and saw an emblem."""
    cards = [k for k, f in enumerate(faces) if f.tile_score >= profile.tile_threshold and
             f.logo_score >= profile.logo_threshold and not _logo_vouched(f, sure, profile)]
    taken: dict[int, FaceReading] = {}
    for look in looks:
        if look.tile_score < profile.tile_threshold or look.logo_score >= profile.logo_threshold or \
                look.moved > profile.settled_px or count_pips(look, profile).confidence < profile.doubt_below:
            continue
        on = [k for k in cards if geo.overlap(faces[k].corners, look.corners) > profile.same_face_overlap]
        if len(on) != 1 or _on_another(look, -1, faces, profile, besides=on):
            continue
        fit = _fit_by_others(look, [q for q in sure if q is not faces[on[0]].corners], profile)
        if fit is None or fit < profile.gap_fit:
            continue
        held = taken.get(on[0])
        if held is None or count_pips(look, profile).confidence > count_pips(held, profile).confidence:
            taken[on[0]] = look
    return [taken.get(k, face) for k, face in enumerate(faces)]


def _last_of_set(pyramid: Pyramid, faces: list[FaceReading], frames: list[tuple[np.ndarray, float, float, float]],
                 profile: Profile) -> list[FaceReading]:
    """``faces`` and the tiles of the set that none of them reads, looked for where the whole faces read all
    the set's tiles but at most ``profile.set_missing_most`` (a full set, or nearly: the set says what the
    tiles not found must read). Looked at: each candidate's ``frames`` and each face read with doubt
    (``_judged``) where no face lies that was read surely (a whole tile, its pips sure, a tile read once),
    through the outline the faces read surely predict there and along the nearest of them and across it (a
    tile seen steeply is read only from a look along it). A look that reads a missing tile at least
    ``profile.candidate_confidence`` surely, whole, settled, of a tile's shape there (``profile.candidate_fit``)
    and on no other whole face is that tile, surest first; the whole faces it lies on give way if each was
    read less surely or reads a tile another face reads too."""
    if not profile.set_missing_most:
        return faces

    def tile(face: FaceReading) -> tuple[int, int]:
        return tuple(sorted(count_pips(face, profile).pips))  # type: ignore[return-value]

    whole = [f for f in faces if f.tile_score >= profile.tile_threshold]
    held = Counter(tile(f) for f in whole)
    missing = {(a, b) for a in range(profile.max_pips + 1) for b in range(a, profile.max_pips + 1)} - set(held)
    if not missing or len(missing) > profile.set_missing_most:
        return faces
    sure, doubtful, _ = _judged(faces, profile)
    if len(sure) < 2:
        return faces
    plane = Plane(sure)
    surely = [f for f in whole if _read_surely(f, profile) and held[tile(f)] == 1]
    places, outlines = [], []
    for quad in [geo.quad_of(*frame) for frame in frames] + [faces[k].corners for k in doubtful]:
        outline = plane.outline(quad, profile.tile_aspect)
        if outline is not None and not _under(geo.centre_of(quad), surely) and \
                not any(geo.iou(outline, seen) >= profile.gap_fit for seen in outlines):
            outlines.append(outline)
            places.extend([outline, *_along_the_nearest(plane, quad, profile.tile_aspect)])
    looks = [_one_look_more(pyramid, face, profile)
             for face in read_outlines(pyramid, places, profile, floor=profile.tile_threshold)] if places else []
    found = [face for face in looks if tile(face) in missing and face.tile_score >= profile.tile_threshold and
             face.moved <= profile.settled_px and
             count_pips(face, profile).confidence >= profile.candidate_confidence and
             _plane_fit(face, plane, profile) >= profile.candidate_fit]
    for face in sorted(found, key=lambda f: -count_pips(f, profile).confidence):
        confidence = count_pips(face, profile).confidence
        under = [k for k, other in enumerate(faces) if other.tile_score >= profile.tile_threshold
                 and geo.overlap(face.corners, other.corners) > profile.same_face_overlap]
        if tile(face) not in missing or _on_another(face, -1, faces, profile, besides=under) or any(
                any(faces[k] is f for f in surely) or
                (count_pips(faces[k], profile).confidence >= confidence and held[tile(faces[k])] == 1)
                for k in under):
            continue
        faces = [f for k, f in enumerate(faces) if k not in under] + [face]
        missing.discard(tile(face))
    return faces


def _logo_places(faces: list[FaceReading], sure: list[np.ndarray], profile: Profile) -> list[np.ndarray]:
    """Where the logo tile, outlined in part, may lie: the outline the faces read surely (``sure``) predict
    at each face of ``faces`` taken for a tile at all (``profile.second_look_floor``) that shows at most one
    pip (its emblem's centre may read as one) or was read as the logo, and has no tile's shape there (its fit
    below ``profile.gap_fit``); and that outline moved ``profile.shift_along`` of a tile each way along."""
    outlines = []
    for face in faces:
        if face.tile_score < profile.second_look_floor or (
                sum(count_pips(face, profile).pips) > 1 and face.logo_score < profile.logo_threshold):
            continue
        outline = _predicted_by_others(face, sure, profile)
        if outline is not None and geo.iou(face.corners, outline) < profile.gap_fit:
            outlines += [outline, *_moved(outline, profile.shift_along, 0.0)]  # it may lie at either end
    return outlines


def _reshaped(pyramid: Pyramid, faces: list[FaceReading], profile: Profile,
              beside: list[np.ndarray] | None = None) -> list[FaceReading]:
    """``faces``, each face read with doubt (not surely a whole tile, its pips in doubt, or read as the same
    tile as another whole face) looked at again through the outline the faces read surely around it predict
    there, if its own is far from it (overlapping it less than ``profile.shape_overlap``: the reader took a
    corner or an end from a neighbouring tile); a whole face whose pips are in doubt, or whose corners still
    moved more than ``profile.settled_px`` in its last look, also through that outline moved along the tile
    and across it (the reader took an outline across two tiles) and turned across the face and so moved along
    (it took half a tile for a whole one), and where its own outline is far from that outline, through the
    outline along the nearest sure face's axis and across it, there and moved along (an outline askew across
    two tiles tells no axis; tiles lie along or across their neighbours); but none of these where the look
    through the outline itself took the face's place and was read surely (``profile.doubt_below``): those
    looks are taken after it, only where needed. A new look replaces the face if
    it is a whole tile, surer of its pips, has settled (its corners moved at most ``profile.settled_px`` in
    its last look), lies on no other whole tile read, and fits the prediction at its own place better
    (intersection over union; a moved or turned look by ``profile.fit_margin``) than the face, unless the face
    had not settled, or its pips were read almost without confidence (below ``profile.candidate_confidence``)
    and the look's surely (``profile.doubt_below``) with a tile's shape there (``profile.gap_fit``). In a set
    with a logo, a whole
    face read as the logo tile, surely or with doubt, is looked at the same way (through the prediction, moved
    and not, and along the nearest sure face's axis and across it, moved either way along) where its outline
    fits what the other sure faces predict less than ``profile.gap_fit`` (the reader often takes the round
    emblem on one half for the face, and the emblem tells no axis); a new look must still be the logo (or, for a
    face read as the logo less surely than ``profile.logo_sure``, a tile read surely and of a tile's shape there:
    the outline lay across the emblem and the next tile), and may take one look more to settle, as may any look
    that is a whole tile. A new look read surely may lie on whole
    faces mostly within it that have no tile's shape (fit below ``profile.gap_fit``) and fit worse than it by
    ``profile.fit_margin`` (the rest of its tile read apart: the other half, or the emblem): they give way to it.
    A new look that still has no tile's shape is looked at once more (``_reshaped_again``). Where a look took a
    face's place, the outline of the surest of its moved or turned looks that is a whole tile, read surely
    (``profile.doubt_below``), settled, of a tile's shape (fit at least ``profile.gap_fit``) and on no face kept
    goes to ``beside``: the face's outline may have lain across two tiles, each look taking one (or across the
    halves of two side by side, which read as tiles too, so it is only a place to look at again once the faces
    are settled). No look goes through an outline on another whole face of a tile's shape (``gap_fit``)."""
    sure, doubtful, unsure_pips = _judged(faces, profile)
    plane = Plane(sure)
    fit = _fit_to(plane, profile)

    looks: list[tuple[int, np.ndarray, float]] = []  # (face, outline to look through, fit margin)
    best: dict[int, tuple[FaceReading, float]] = {}  # face -> the best reading so far and its fit
    for k in doubtful:
        outline = plane.outline(faces[k].corners, profile.tile_aspect)
        if outline is None:
            continue
        # (a face whose corners had not settled has no place to keep: its outline is no surer than its reading)
        best[k] = (faces[k], fit(faces[k]) if faces[k].moved <= profile.settled_px else 0.0)
        if geo.iou(faces[k].corners, outline) < profile.shape_overlap:
            looks.append((k, outline, 0.0))
        # (the moved and turned looks paid off only where the pips are in doubt or the outline had not settled;
        # no look fits better than 1)
        if (k not in unsure_pips and faces[k].moved <= profile.settled_px) or best[k][1] + profile.fit_margin >= 1.0:
            continue
        looks.extend((k, moved, profile.fit_margin) for moved in _moved(outline, profile.shift_along,
                                                                          profile.shift_across))
        # half a tile read as a whole one: the tile lies across the face read
        turned = plane.outline(np.roll(faces[k].corners, -1, axis=0), profile.tile_aspect)
        looks.extend((k, moved, profile.fit_margin) for moved in [turned, *_moved(turned, profile.shift_along, 0.0)])
        # an outline askew across two tiles gives no axis: the tile lies along the nearest sure face, or across it
        if best[k][1] < profile.shape_overlap:
            for square in _along_the_nearest(plane, faces[k].corners, profile.tile_aspect):
                looks.extend((k, moved, profile.fit_margin)
                             for moved in [square, *_moved(square, profile.shift_along, 0.0)])

    # the logo tile read as its round emblem alone: a whole face read as the logo where the other sure faces
    # predict another outline is looked at through that outline, and through it moved along and across
    logos: dict[int, Plane] = {}  # a logo face -> what the other sure faces predict, which judges its fit
    for k, face in enumerate(faces):
        if not profile.logo or face.tile_score < profile.tile_threshold or face.logo_score < profile.logo_threshold:
            continue
        others = Plane([q for q in sure if q is not face.corners])
        outline = others.outline(face.corners, profile.tile_aspect)
        if outline is not None and geo.iou(face.corners, outline) < profile.gap_fit:  # not of a tile's shape
            logos[k] = others
            best[k] = (face, geo.iou(face.corners, outline))
            looks.extend((k, moved, profile.fit_margin)
                         for moved in [outline, *_moved(outline, profile.shift_along, profile.shift_across)])
            # the emblem is round and tells no axis: the tile lies along the nearest sure face or across it,
            # the emblem on one of its halves
            for square in _along_the_nearest(others, face.corners, profile.tile_aspect):
                looks.extend((k, moved, profile.fit_margin) for moved in _moved(square, profile.shift_along, 0.0))

    # a look through a place on another whole face of a tile's shape stays on it (looks move little), and a
    # look on such a face never takes a place: none
    whole = [f for f in faces if f.tile_score >= profile.tile_threshold]
    on = _faces_on([outline for _, outline, _ in looks], whole, profile.same_face_overlap)
    looks = [look for look, under in zip(looks, on)
             if not any(f is not faces[look[0]] and fit(f) >= profile.gap_fit for f in under)]
    parts: dict[int, list[int]] = {}  # face -> the faces its best look takes in (the rest of its tile, read apart)
    aside: dict[int, list[FaceReading]] = {}  # face -> its moved or turned looks read surely, of a tile's shape

    def weigh(chosen: list[tuple[int, np.ndarray, float]]) -> None:  # (looks read together, in a batch)
        if not chosen:
            return
        # a look that is no whole tile is refused, and is not looked at again
        new = read_outlines(pyramid, [outline for _, outline, _ in chosen], profile, floor=profile.tile_threshold)
        # a whole tile not yet settled is looked at once more (a look far off takes more looks)
        again = [n for n, face in enumerate(new) if chosen[n][0] not in logos and
                 face.tile_score >= profile.tile_threshold and face.moved > profile.settled_px]
        for n, face in zip(again, read_outlines(pyramid, [new[n].corners for n in again], profile,
                                                floor=profile.tile_threshold)):
            new[n] = face
        for (k, _, margin), face in zip(chosen, new):
            held, held_fit = best[k]
            if k in logos:  # sure of its reading already: the look must still see the logo (or, where the face
                # is not surely the logo, read a tile surely and have a tile's shape)
                face = _one_look_more(pyramid, face, profile)
                if face.tile_score < profile.tile_threshold or face.moved > profile.settled_px:
                    continue
                face_fit = _plane_fit(face, logos[k], profile)
                if face.logo_score < profile.logo_threshold and (
                        max(faces[k].logo_score, held.logo_score) >= profile.logo_sure or face_fit < profile.gap_fit or
                        count_pips(face, profile).confidence < profile.doubt_below):
                    continue
            elif face.tile_score < profile.tile_threshold or face.moved > profile.settled_px:
                continue
            else:
                confidence, face_fit = count_pips(face, profile).confidence, fit(face)
                if margin and confidence >= profile.doubt_below and face_fit >= profile.gap_fit:
                    aside.setdefault(k, []).append(face)
                if confidence <= count_pips(held, profile).confidence:
                    continue
            # (a face read almost without confidence may lie across two tiles, an outline of a tile's shape too)
            unsure = k not in logos and count_pips(held, profile).confidence < profile.candidate_confidence and \
                count_pips(face, profile).confidence >= profile.doubt_below and face_fit >= profile.gap_fit
            if face_fit <= held_fit + margin and not unsure:
                continue
            # a face of no tile's shape within a look read surely, and fitting far worse, is part of that tile read
            # apart (its other half, or the logo's emblem alone): the look may lie on it, and takes its place too
            within = [] if count_pips(face, profile).confidence < profile.doubt_below \
                else [j for j, other in enumerate(faces) if j != k and other.tile_score >= profile.tile_threshold and
                      geo.inside(other.corners, face.corners) > 1 - profile.same_face_overlap and
                      fit(other) < min(profile.gap_fit, face_fit - profile.fit_margin)]
            if not _on_another(face, k, faces, profile, besides=within):
                best[k] = (face, face_fit)
                parts[k] = within

    # a look through the prediction itself that took a face's place, read surely, leaves its moved and turned
    # looks nothing to find: those are looked through only where none did
    through = {k for k, _, margin in looks if not margin and k not in logos}
    weigh([look for look in looks if look[0] not in through or not look[2]])
    weigh([(k, outline, margin) for k, outline, margin in looks if k in through and margin and
           (best[k][0] is faces[k] or count_pips(best[k][0], profile).confidence < profile.doubt_below)])
    _reshaped_again(pyramid, faces, best, {k: within for k, within in parts.items() if k not in logos}, plane, profile)
    faces = list(faces)
    for k, (face, _) in best.items():
        faces[k] = face
    gone: set[int] = set()
    for k, within in parts.items():  # (two halves that each took the whole tile: the first keeps it)
        if k not in gone:
            gone.update(within)
    faces = [face for j, face in enumerate(faces) if j not in gone]
    # an outline across two tiles: a look moved onto one took its place, and a sure look may lie on the other
    for k in sorted(k for k in parts if k not in logos and k not in gone) if beside is not None else []:
        other = [f for f in aside.get(k, []) if not _on_another(f, -1, faces, profile)]
        if other:
            beside.append(max(other, key=lambda f: count_pips(f, profile).confidence).corners)
    return faces


def _reshaped_again(pyramid: Pyramid, faces: list[FaceReading], best: dict[int, tuple[FaceReading, float]],
                    parts: dict[int, list[int]], plane: Plane, profile: Profile) -> None:
    """``best[k]`` (a look that took the place of face ``k``, and its fit) for each ``k`` of ``parts``, looked at once
    more through the outline ``plane`` predicts at the look's own place where it fits that less than
    ``profile.shape_overlap``: a look through an outline off the tile settles on part of it. The new look
    replaces it if it is a whole tile, settled, read surely (``profile.doubt_below``), lies on no other whole
    face but ``parts[k]`` (the faces the look took in) and fits better by ``profile.fit_margin``; its pips need
    not be surer than those of the part."""
    outlines = {k: plane.outline(best[k][0].corners, profile.tile_aspect) for k in parts
                if best[k][1] < profile.shape_overlap}
    again = [k for k, outline in outlines.items() if outline is not None]
    if not again:
        return
    for k, face in zip(again, read_outlines(pyramid, [outlines[k] for k in again], profile,
                                            floor=profile.tile_threshold)):
        if face.tile_score < profile.tile_threshold or face.moved > profile.settled_px or \
                count_pips(face, profile).confidence < profile.doubt_below:
            continue
        face_fit = _plane_fit(face, plane, profile)
        if face_fit > best[k][1] + profile.fit_margin and not _on_another(face, k, faces, profile, besides=parts[k]):
            best[k] = (face, face_fit)


def _resplit(pyramid: Pyramid, faces: list[FaceReading], profile: Profile) -> list[FaceReading]:
    """``faces``, with the square that a whole face read as a tile another whole face holds too and a whole face
    side by side with it make (``plane.side_by_side``, within ``profile.gap_slack`` and ``profile.gap_turn_deg``)
    read split the other way where that reads two tiles read nowhere else (a set holds each tile once). Two
    tiles side by side make a square that also splits into two faces across them, each half on another tile
    and the seam between the tiles for a divider, and the reader is at times sure of those. The two looks
    across replace the two faces if both are whole tiles, settled, on no other whole face, and read at least
    as surely as ``profile.candidate_confidence`` (then with doubt below ``profile.doubt_below``). A face
    read with doubt but once keeps its place: the looks across read as surely then as often as not. Where no
    tile is read twice, two whole faces side by side give way as well where the least sure of the looks across
    is ``profile.split_odds`` times likelier whole (in odds) than the least sure of the two: a square of
    halves a, b over c, d splits into a-b and c-d or into a-c and b-d, the same two tiles where a = d or b = c,
    and then only the reader's belief tells the splits apart; of 5,441 pairs read right in 3,450 photos, 2 have
    the split across surer at all (at most 15 times in odds), and of the 12 pairs not both read right, 8 have
    the right split over 25 times surer (a ninth 4.4 times; three read no tile the other way). Pairs sharing a
    face are taken surest first."""
    counts = [count_pips(face, profile) for face in faces]
    whole = [k for k, face in enumerate(faces) if face.tile_score >= profile.tile_threshold]
    tiles = Counter(tuple(sorted(counts[k].pips)) for k in whole)
    if len(whole) < 2:
        return faces
    beside = Lines([faces[k].corners for k in whole]).side_by_side(
        profile.gap_slack, np.radians(profile.gap_turn_deg), profile.tile_aspect)  # [a, b]: whole[b] beside whole[a]
    pairs: list[tuple[int, int]] = []
    for a, k in enumerate(whole):
        if tiles[tuple(sorted(counts[k].pips))] > 1:
            for b in np.flatnonzero(beside[a]):
                if whole[b] != k and all(k not in p and whole[b] not in p for p in pairs):
                    pairs.append((k, whole[b]))
                    break
    twice = len(pairs)
    # pairs whose other split could be surer by ``split_odds``: the least sure face short of the reader's ceiling
    odds = np.log(profile.split_odds) if profile.split_odds else np.inf
    unsure = [a for a, k in enumerate(whole) if _log_odds(faces[k].tile_score) + odds <= _log_odds(1.0)]
    pairs += [(whole[a], whole[b]) for a in unsure for b in np.flatnonzero(beside[a])
              if (b not in unsure or b > a) and not any({whole[a], whole[b]} == set(p) for p in pairs)]
    if not pairs:
        return faces
    across = [q for k, j in pairs for q in split_the_other_way(faces[k].corners, faces[j].corners)]
    looks = [_one_look_more(pyramid, face, profile)
             for face in read_outlines(pyramid, across, profile, floor=profile.tile_threshold)]
    faces = list(faces)
    gone: set[int] = set()
    chosen = []
    for n, (k, j) in enumerate(pairs):
        pair = looks[2 * n:2 * n + 2]
        read = [count_pips(face, profile) for face in pair]
        new = [tuple(sorted(c.pips)) for c in read]
        held = Counter(tuple(sorted(counts[i].pips)) for i in (k, j))
        gain = min(_log_odds(f.tile_score) for f in pair) - min(_log_odds(faces[i].tile_score) for i in (k, j))
        if (n < twice or gain >= odds) and new[0] != new[1] and all(tiles[t] == held[t] for t in new) and \
                all(face.tile_score >= profile.tile_threshold and face.moved <= profile.settled_px and
                    c.confidence >= profile.candidate_confidence and
                    not _on_another(face, -1, faces, profile, besides=[k, j]) for face, c in zip(pair, read)) and \
                geo.overlap(pair[0].corners, pair[1].corners) <= profile.same_face_overlap:
            chosen.append((n >= twice, -gain, k, j, pair))
    used: set[int] = set()
    for _, _, k, j, pair in sorted(chosen, key=lambda c: c[:2]):
        if k in used or j in used:
            continue
        used.update((k, j))
        faces[k] = pair[0]
        faces.append(pair[1])
        gone.add(j)
    return [face for n, face in enumerate(faces) if n not in gone]


def _log_odds(p: float) -> float:
    """The log odds of ``p``, its ends held a millionth off 0 and 1 (the reader's scores reach 1.0 in float)."""
    p = min(max(p, 1e-6), 1 - 1e-6)
    return float(np.log(p / (1 - p)))


def _unread_pair(pyramid: Pyramid, faces: list[FaceReading], frames: list[tuple[np.ndarray, float, float, float]],
                 read: list[FaceReading | None], profile: Profile) -> list[FaceReading]:
    """``faces`` and two tiles side by side where the detector saw them as two tiles laid across them: two of its
    ``frames`` side by side (``side_by_side``), neither read as a whole tile (``read``) nor lying on a whole face,
    looked at through the square they make split the other way (``split_the_other_way``). The looks are kept if
    both are whole tiles, settled (they may take one look more), read surely (``profile.doubt_below``), two
    tiles read nowhere else, not on each other and on no whole face; faces read as no tile that lie on them
    give way."""
    whole = [f for f in faces if f.tile_score >= profile.tile_threshold]
    unread = [geo.quad_of(*frame) for frame, face in zip(frames, read)
              if (face is None or face.tile_score < profile.tile_threshold)
              and not _under(frame[0], whole)]
    turn = np.radians(profile.gap_turn_deg)
    pairs = [(a, b) for i, a in enumerate(unread) for b in unread[i + 1:]
             if side_by_side(a, b, profile.gap_slack, turn, profile.tile_aspect)]
    if not pairs:
        return faces
    across = [q for a, b in pairs for q in split_the_other_way(a, b)]
    looks = [_one_look_more(pyramid, face, profile)
             for face in read_outlines(pyramid, across, profile, floor=profile.tile_threshold)]
    faces = list(faces)
    for n in range(len(pairs)):
        pair = looks[2 * n:2 * n + 2]
        counts = [count_pips(face, profile) for face in pair]
        held = {tuple(sorted(count_pips(f, profile).pips)) for f in faces if f.tile_score >= profile.tile_threshold}
        new = [tuple(sorted(c.pips)) for c in counts]
        if new[0] != new[1] and not held & set(new) and all(
                face.tile_score >= profile.tile_threshold and face.moved <= profile.settled_px and
                c.confidence >= profile.doubt_below and not _on_another(face, -1, faces, profile)
                for face, c in zip(pair, counts)) and \
                geo.overlap(pair[0].corners, pair[1].corners) <= profile.same_face_overlap:
            faces = [f for f in faces if f.tile_score >= profile.tile_threshold or not any(
                geo.overlap(f.corners, p.corners) > profile.same_face_overlap for p in pair)] + pair
    return faces


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


def _along_the_nearest(plane: Plane, corners: np.ndarray, aspect: float) -> list[np.ndarray]:
    """The outlines ``plane`` predicts at the centre of ``corners`` along the axis of the nearest of its sure
    faces and across it (tiles lie along or across their neighbours), for a face whose own axis tells nothing."""
    centre = geo.centre_of(corners)
    near = min(plane.sure, key=lambda q: float(np.linalg.norm(geo.centre_of(q) - centre)))
    along = np.asarray(near, np.float64) - geo.centre_of(near) + centre
    return [o for o in (plane.outline(q, aspect) for q in (along, np.roll(along, -1, axis=0))) if o is not None]


def _unstraddled(pyramid: Pyramid, faces: list[FaceReading], profile: Profile,
                 looked: list[FaceReading]) -> list[FaceReading]:
    """``faces``, each whole face read as a double that may lie across two tiles of a line looked at again half
    a tile each way along it. Two tiles laid end to end meet half to matching half, so an outline across their
    junction reads as a double; the line's next tile then lies half a tile beyond its end: another whole face
    in line with it, one and a half lengths from its centre (give or take ``profile.straddle_slack`` of a
    length, off its axis by less than ``profile.gap_slack`` of a width), itself touching a face beyond it end
    to end (a line of play, not a row of tiles laid out apart). So is any whole face, double or not (across a
    wrong junction it reads as two unlike halves), that ends half a tile short of a double laid crosswise in a
    line: the double's centre one and a quarter lengths from the face's (give or take half the slack), a face
    in line two lengths from it beyond the double. A look is a tile the face lay across if it is a whole tile,
    settled (it may take one look more), sure of its pips, not read as the face was, of a tile's shape there
    (its fit to the plane's prediction at least ``profile.gap_fit``) and on no other whole face; the first
    such replaces the face, a second is added. A straddle given way to may leave the next straddle along the
    line with a tile beyond it (a line read half a tile off throughout), so the looks go on for up to
    ``profile.straddle_rounds`` rounds while they find tiles; ``looked`` (the faces looked along already, and
    the tiles found so) is kept across calls, so that a call after the gaps are filled looks along the new
    faces only."""
    for _ in range(profile.straddle_rounds):  # a straddle given way may leave the next one with a tile beyond it
        whole = [k for k, face in enumerate(faces) if face.tile_score >= profile.tile_threshold]

        lines = Lines([faces[k].corners for k in whole])  # (rows and columns: the faces of ``whole``)
        touching = lines.in_line(1.0, profile.straddle_slack, profile.gap_slack)
        in_a_line = touching.sum(axis=1)[None, :] - touching.T > 0  # [k, j]: j touches a face but k end to end
        beyond = lines.in_line(1.5, profile.straddle_slack, profile.gap_slack) & in_a_line
        # a double laid crosswise in a line, half a tile beyond k, a face in line beyond it
        across_beyond = lines.in_line(1.25, profile.straddle_slack / 2, profile.gap_slack) & lines.crosswise & \
            lines.in_line(2.0, profile.straddle_slack, profile.gap_slack).any(axis=1)[:, None]
        suspects = []
        for n, k in enumerate(whole):
            if any(faces[k] is face for face in looked) or \
                    (profile.logo and faces[k].logo_score >= profile.logo_threshold):
                continue
            pips = count_pips(faces[k], profile).pips
            if (pips[0] == pips[1] and beyond[n].any()) or across_beyond[n].any():
                suspects.append(k)
        looked.extend(faces[k] for k in suspects)
        looks = [(k, moved) for k in suspects for moved in _moved(faces[k].corners, 0.5, 0.0)]
        if not looks:
            break
        plane = Plane(_judged(faces, profile)[0])
        found: dict[int, list[FaceReading]] = {}
        new = read_outlines(pyramid, [q for _, q in looks], profile, floor=profile.tile_threshold)
        for (k, _), face in zip(looks, new):
            face = _one_look_more(pyramid, face, profile)
            count = count_pips(face, profile)
            if face.tile_score < profile.tile_threshold or face.moved > profile.settled_px or \
                    count.confidence < profile.doubt_below or \
                    sorted(count.pips) == sorted(count_pips(faces[k], profile).pips) or \
                    _plane_fit(face, plane, profile) < profile.gap_fit or _on_another(face, k, faces, profile):
                continue
            found.setdefault(k, []).append(face)
        if not found:
            break
        faces = list(faces)
        for k, tiles in found.items():
            faces[k] = tiles[0]
            faces.extend(tiles[1:])
        looked.extend(face for tiles in found.values() for face in tiles)  # a tile found is no straddle
    return faces


def _held_off_centre(frames: list[tuple[np.ndarray, float, float, float]], read: list[FaceReading | None],
                     faces: list[FaceReading], profile: Profile) -> dict[int, list[np.ndarray]]:
    """The whole faces of ``faces`` holding a candidate's centre left unread (``frames``, ``read``; on the
    face or within ``profile.straddle_sides`` of its width outside it) off their centre along their axis by at
    least that share of their length, each with the centres of those that lie off it across it by at least that
    share of its width too: the detector saw a tile there, perhaps one of two that the reader read one face
    across (whose looks moved its outline off them)."""
    held: dict[int, list[np.ndarray]] = {}
    for frame, face in zip(frames, read):
        if face is not None:
            continue
        point = np.asarray(frame[0], np.float64)
        under = [k for k, f in enumerate(faces) if f.tile_score >= profile.tile_threshold and
                 cv2.pointPolygonTest(f.corners.astype(np.float32), (float(point[0]), float(point[1])), True) >=
                 -profile.straddle_sides * geo.frame_of(f.corners)[3]]
        if len(under) != 1:
            continue
        centre, angle, length, width = geo.frame_of(faces[under[0]].corners)
        along = np.array([np.cos(angle), np.sin(angle)])
        if abs((point - centre) @ along) >= profile.straddle_sides * length:
            aside = held.setdefault(under[0], [])
            if abs((point - centre) @ [-along[1], along[0]]) >= profile.straddle_sides * width:
                aside.append(point)
    return held


def _split_in_two(pyramid: Pyramid, faces: list[FaceReading], held: dict[int, list[np.ndarray]],
                  profile: Profile) -> list[FaceReading]:
    """``faces``, each face ``held`` (see ``_held_off_centre``) replaced by the two tiles it may lie across where
    looks find both: tiles end to end, through the face moved half a tile each way along it; tiles side by
    side, through the square it makes with the place beside it toward a candidate held off it across, split
    the other way (a face read in that place gives way too). The two looks must be whole tiles, settled (they
    may take one look more), sure of their pips and surer on the whole than the faces they replace, two tiles
    of the set read surely nowhere else (nor the very tiles they replace, moved), of a tile's shape there
    (their fit to the plane's prediction at least ``profile.gap_fit``), not on each other, and on no other
    whole face but the ones they replace (a pair whose outlines lie on another takes no looks). A face across
    two tiles reads as a tile of its own (their halves there) nearly as surely as they do; the looks beside a
    true tile take in half of it and the ground or a neighbour beyond, or read across two tiles themselves."""
    if not held:
        return faces
    pairs: list[tuple[int, list[np.ndarray], np.ndarray | None]] = []  # face, two outlines, the neighbour's
    for k, aside in held.items():
        corners = faces[k].corners
        pairs.append((k, _moved(corners, 0.5, 0.0), None))
        beside = _moved(corners, 0.0, 1.0)  # its neighbours' places, one each side
        for side in {min((0, 1), key=lambda n: float(np.linalg.norm(geo.centre_of(beside[n]) - point)))
                     for point in aside}:
            pairs.append((k, split_the_other_way(corners, beside[side]), beside[side]))
    plane = Plane(_judged(faces, profile)[0])
    whole = [j for j, face in enumerate(faces) if face.tile_score >= profile.tile_threshold]
    replacing = [[k] + [j for j in whole if neighbour is not None and j != k and
                        geo.overlap(faces[j].corners, neighbour) > profile.same_face_overlap]
                 for k, _, neighbour in pairs]
    # a look through a place on another whole face stays on it (looks move little), so a pair with one there
    # replaces nothing: it takes no looks
    on = _faces_on([q for _, two, _ in pairs for q in two], [faces[j] for j in whole], profile.same_face_overlap)
    free = [all(any(f is faces[j] for j in replaced) for f in on[2 * n] + on[2 * n + 1])
            for n, replaced in enumerate(replacing)]
    pairs, replacing = [p for p, ok in zip(pairs, free) if ok], [r for r, ok in zip(replacing, free) if ok]
    looks = read_outlines(pyramid, [q for _, two, _ in pairs for q in two], profile,
                          floor=profile.tile_threshold) if pairs else []
    looks = [_one_look_more(pyramid, face, profile) for face in looks]
    confidence = {j: count_pips(faces[j], profile).confidence for j in whole}
    best: dict[int, tuple[float, list[FaceReading], list[int]]] = {}
    for n, ((k, _, _), replaced) in enumerate(zip(pairs, replacing)):
        pair = looks[2 * n:2 * n + 2]
        counts = [count_pips(face, profile) for face in pair]
        elsewhere = {tuple(sorted(count_pips(faces[j], profile).pips)) for j in whole
                     if j not in replaced and confidence[j] >= profile.doubt_below}  # the tiles read surely elsewhere
        score = float(np.mean([c.confidence for c in counts]))
        tiles = sorted(tuple(sorted(c.pips)) for c in counts)
        if tiles[0] != tiles[1] and not elsewhere & set(tiles) and \
                tiles != sorted(tuple(sorted(count_pips(faces[j], profile).pips)) for j in replaced) and \
                score > np.mean([confidence[j] for j in replaced]) and \
                geo.overlap(pair[0].corners, pair[1].corners) <= profile.same_face_overlap and \
                all(face.tile_score >= profile.tile_threshold and face.moved <= profile.settled_px and
                    c.confidence >= profile.doubt_below and _plane_fit(face, plane, profile) >= profile.gap_fit and
                    not _on_another(face, -1, faces, profile, besides=replaced) for face, c in zip(pair, counts)):
            if score > best.get(k, (-1.0,))[0]:
                best[k] = (score, pair, replaced)
    gone: set[int] = set()
    new: list[FaceReading] = []
    for _, pair, replaced in sorted(best.values(), key=lambda b: -b[0]):  # (two faces across the same tiles)
        if not gone.intersection(replaced) and not any(geo.overlap(f.corners, g.corners) > profile.same_face_overlap
                                                        for f in pair for g in new):
            gone.update(replaced)
            new.extend(pair)
    return [face for j, face in enumerate(faces) if j not in gone] + new


def _one_look_more(pyramid: Pyramid, face: FaceReading, profile: Profile) -> FaceReading:
    """``face`` (a look through an outline) looked at once more through its corners where it is a whole tile, or
    may be one (``profile.shaped_tile_threshold``: ``assemble`` keeps such a face where it has a tile's shape),
    whose corners still moved more than ``profile.settled_px``."""
    if face.tile_score >= profile.shaped_tile_threshold and face.moved > profile.settled_px:
        return read_outlines(pyramid, [face.corners], profile, floor=profile.tile_threshold)[0]
    return face


def _fit_to(plane: Plane, profile: Profile) -> Callable[[FaceReading], float]:
    """``_plane_fit`` against ``plane``, worked out once a face (the face is kept with it, so its id stays its own)."""
    known: dict[int, tuple[FaceReading, float]] = {}

    def fit(face: FaceReading) -> float:
        if id(face) not in known:
            known[id(face)] = (face, _plane_fit(face, plane, profile))
        return known[id(face)][1]

    return fit


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


def _read_surely(face: FaceReading, profile: Profile) -> bool:
    """Whether ``face`` is read as a whole tile and its pips are sure."""
    return face.tile_score >= profile.tile_threshold and count_pips(face, profile).confidence >= profile.doubt_below


def _under(point: np.ndarray, faces: list[FaceReading]) -> list[FaceReading]:
    """The faces whose outline holds ``point`` (xy)."""
    xy = (float(point[0]), float(point[1]))
    return [f for f in faces if cv2.pointPolygonTest(f.corners.astype(np.float32), xy, False) >= 0]


def _filled(pyramid: Pyramid, faces: list[FaceReading], orphans: list[np.ndarray], beside: list[np.ndarray],
            profile: Profile, weak: list[tuple[np.ndarray, float, float, float]] = ()) -> list[FaceReading]:
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
    those on no face just beyond a whole face's end, through the tile end to end with it (``_beyond_an_end``).
    A look that is a whole
    tile, sure of its pips (a gap, a half or a line's end is a guess, unless the reader is as sure it is a whole
    tile as ``profile.guess_tile_sure``; a weak peak is a guess without that exception; at an orphan, where the
    detector saw a tile, at least ``profile.candidate_confidence``), settled (a whole tile not yet settled is
    looked at once more), and of a tile's shape there (its fit to the plane's prediction at least
    ``profile.gap_fit``, at an orphan ``profile.candidate_fit``) is a face the detector
    or the reader missed if it lies on no other tile; if it lies on one face only, fits at least
    ``profile.candidate_fit``, and that face fits the plane worse by ``profile.fit_margin`` and is less sure
    of its pips, it replaces that face (an outline across this tile and the next). Where a look found or replaced
    a tile, the gaps and ends it makes are looked at in turn, and the next tile where the face it replaced lay
    beyond its end or beside it (``_past_the_replaced``), at most ``profile.end_rounds`` times (a line that goes
    on, a row it closes with room left, the other tile of the outline across two). ``profile.gap_most`` 0 turns
    these looks off."""
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
    """For each face of ``before`` that ``after`` holds another face in place of (``_taken``: a look that fits
    the plane better took the place of an outline across this tile and the next) and whose centre lies off the new
    face's along its axis, by more than ``profile.beside_offset`` of its length, and in line with it (within half
    its width of its axis): the outline end to end with the new face that way (``next_in_line``), where the next
    tile lies; and whose centre lies off it across, by more than ``profile.beside_offset`` of its width, and beside
    it (within that share of its length along it): the outline a width beside the new face that way."""
    out = []
    for old, new in zip(before, after):
        if old is new:
            continue
        q = np.asarray(new.corners, np.float64)
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


def _halved(pyramid: Pyramid, faces: list[FaceReading], profile: Profile) -> list[FaceReading]:
    """``faces``, each whole face that would be left out as too large for a tile where it lies (a patch across
    two tiles, see ``_sized_like_tiles``) looked at as its two halves across its middle, and each whole face read
    with a half of more pips than the set's tiles have (``profile.max_pips``) looked at so and as its two halves
    along its middle: where both halves are whole tiles, settled, read at least ``profile.candidate_confidence``
    surely, not on each other and on no other whole face, they take its place, the surer split where both ways
    do (the reader read two tiles end to end as one, the logo tile and the tile against its end among them, or
    two tiles side by side seen steeply, whose square is of a tile's shape there). And each whole face whose
    halves read two or three pips in a line across it (``_a_half_read_whole``) is looked at as the tile twice its
    size each of the four ways (``_doubled``): a look so that lies over it, judged as a half is, takes its place."""
    height, width = pyramid.levels[0].shape[:2]
    choosable, shaped, _ = _choosable(faces, profile)
    kept, _ = _one_per_face(choosable, width, height, profile, shaped)
    _, too_large = _sized_like_tiles(kept, max(width, height), profile)
    impossible = [f for f in faces if f.tile_score >= profile.tile_threshold and not any(f is g for g in too_large)
                  and max(count_pips(f, profile).pips) > profile.max_pips]
    halves = [f for f in faces if f.tile_score >= profile.tile_threshold and _a_half_read_whole(f, profile)]
    splits = [(f, [_halves(f.corners)]) for f in too_large] + \
        [(f, [_halves(f.corners), _halves(f.corners, along=True)]) for f in impossible] + \
        [(f, [[q] for q in _doubled(f.corners)]) for f in halves]
    if not splits:
        return faces
    outlines = [q for _, ways in splits for way in ways for q in way]
    looks = iter([_one_look_more(pyramid, f, profile)
                  for f in read_outlines(pyramid, outlines, profile, floor=profile.tile_threshold)])
    for face, ways in splits:
        others = [f for f in faces if f is not face]
        best, surest = None, -1.0
        for way in ([next(looks) for _ in way] for way in ways):
            sure = min(count_pips(f, profile).confidence for f in way)
            if any(f.tile_score < profile.tile_threshold or f.moved > profile.settled_px for f in way) or \
                    sure < profile.candidate_confidence or sure <= surest or \
                    (len(way) == 2 and geo.overlap(way[0].corners, way[1].corners) > profile.same_face_overlap) or \
                    (len(way) == 1 and geo.inside(face.corners, way[0].corners) <= 1 - profile.same_face_overlap) or \
                    any(_on_another(f, -1, others, profile) for f in way):
                continue
            best, surest = way, sure
        if best is not None:
            faces = others + best
    return faces


def _a_half_read_whole(face: FaceReading, profile: Profile) -> bool:
    """Whether each half of ``face`` counts two or three pips in a line across the face (within
    ``profile.pip_line_along`` of each other along it): no face of the set, but a four's or a six's half of a tile
    read as a whole face, two pips or three each side of the middle it takes for a divider."""
    lines = []
    for half in face.peaks:
        along = [p.from_middle for p in half if p.heat >= profile.pip_threshold]
        lines.append(len(along) in (2, 3) and max(along) - min(along) < profile.pip_line_along)
    return all(lines)


def _doubled(corners: np.ndarray) -> list[np.ndarray]:
    """The outlines twice the face ``corners``' size of which it is a half: beyond either end, and beyond either
    long side (a square half read as a whole face may be taken either way round); each clockwise with [0]-[1]
    an end of the face's width."""
    q = np.asarray(corners, np.float64)
    along0, along1 = q[3] - q[0], q[2] - q[1]  # [0]-[1] is an end
    across0, across1 = q[1] - q[0], q[2] - q[3]
    return [np.array([q[0], q[1], q[2] + along1, q[3] + along0]),
            np.array([q[0] - along0, q[1] - along1, q[2], q[3]]),
            np.array([q[1], q[2], q[3] - across1, q[0] - across0]),
            np.array([q[1] + across0, q[2] + across1, q[3], q[0]])]


def _halves(corners: np.ndarray, along: bool = False) -> list[np.ndarray]:
    """The two halves of the face ``corners`` across its middle (two tiles end to end), or ``along`` it (two tiles
    side by side), each clockwise with [0]-[1] across it, as a tile's end is."""
    q = np.asarray(corners, np.float64)
    if along:
        middle = [(q[0] + q[1]) / 2, (q[3] + q[2]) / 2]
        return [np.array([q[0], middle[0], middle[1], q[3]]), np.array([middle[0], q[1], q[2], middle[1]])]
    middle = [(q[0] + q[3]) / 2, (q[1] + q[2]) / 2]
    return [np.array([q[0], q[1], middle[1], middle[0]]), np.array([middle[0], middle[1], q[2], q[3]])]


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
    others where the detector saw a tile, taken surest first; a guess marked ``strict`` must be read surely
    however surely it is a whole tile. A look the reader is less sure is whole (from
    ``profile.shaped_tile_threshold``) counts as whole where ``assemble`` would keep it: of a tile's shape there
    (``profile.shaped_fit``), its pips read surely. A whole look, settled, whose pips are in doubt is judged on
    its four looks (``read_both_ways``) before it is taken or left: a tile with a blank half the detector all but
    missed reads so at times, and must be read surely there. A place on two whole faces, or on one that fits the
    plane too closely to be replaced, takes no look."""
    fit = _fit_to(plane, profile)
    unjudged = len(plane.sure) < 2  # (nothing tells a tile's shape: see ``_taken``)
    # a look through a place on a whole face stays on it (looks move little), so it can only take that face's
    # place: a place on two whole faces, or on one fitting the plane too well to be replaced, takes no look
    whole = [f for f in found if f.tile_score >= profile.tile_threshold]
    # (a look replaces a face it fits better by ``fit_margin``)
    free = [not on or len(on) == 1 and (unjudged or fit(on[0]) + profile.fit_margin < 1.0)
            for on in _faces_on(places, whole, profile.same_face_overlap)]
    strict = [k < len(strict) and strict[k] for k, ok in enumerate(free) if ok]
    places, guesses = [q for q, ok in zip(places, free) if ok], sum(free[:guesses])
    looks = read_outlines(pyramid, places, profile, floor=profile.tile_threshold) if places else []
    looks = [_one_look_more(pyramid, face, profile) for face in looks]  # (a guess far off takes more looks)
    settled = [k for k, face in enumerate(looks)
               if face.tile_score >= profile.tile_threshold and face.moved <= profile.settled_px]
    for k, face in zip(settled, read_both_ways(pyramid, [looks[k] for k in settled], profile)):
        looks[k] = face
    return _taken(found, looks, guesses, plane, profile, fit, strict)


def _taken(found: list[FaceReading], looks: list[FaceReading], guesses: int, plane: Plane, profile: Profile,
           fit: Callable[[FaceReading], float] | None = None, strict: list[bool] = ()) -> list[FaceReading]:
    """``found`` (changed in place) and the ``looks`` that are tiles it missed, or that take the place of a face
    of it, as ``_filled`` tells; the first ``guesses`` looks are guesses, the others where the detector saw a tile;
    a guess marked ``strict`` must be read surely however surely it is a whole tile. ``fit``: ``_fit_to(plane,
    profile)``, if made already."""
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
            else profile.doubt_below if alone else profile.candidate_confidence
        # a look the reader is less sure is whole is a tile all the same where step 4 would keep it: of a tile's
        # shape there, its pips read surely
        shaped = face.tile_score >= profile.shaped_tile_threshold and face_fit >= profile.shaped_fit and \
            confidence >= max(floor, profile.doubt_below) and not alone
        if (face.tile_score < profile.tile_threshold and not shaped) or face.moved > profile.settled_px or \
                confidence < floor or face_fit < min(profile.gap_fit, profile.candidate_fit):
            continue
        under = [k for k, other in enumerate(found) if other.tile_score >= profile.tile_threshold
                 and geo.overlap(face.corners, other.corners) > profile.same_face_overlap]
        if not under and not _on_another(face, -1, found, profile) and \
                face_fit >= (profile.gap_fit if n < guesses else profile.candidate_fit):
            found.append(face)
        elif len(under) == 1 and not _on_another(face, under[0], found, profile) and \
                face_fit >= profile.candidate_fit and \
                (count_pips(found[under[0]], profile).confidence < profile.doubt_below if alone
                 else fit(found[under[0]]) + profile.fit_margin < face_fit) and \
                count_pips(found[under[0]], profile).confidence < confidence:
            found[under[0]] = face
    return found


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
