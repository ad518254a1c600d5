"""The last looks of ``find_faces``: the logo tile, on the photo scaled for it (``_logo_sought``), the set's last
tiles where the faces read all of them but one or two (``_last_of_set``), and tiles cut off by the photo's border,
named in a warning and never read (``_cut_at_border``).
"""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np

from companion.vision import detect
from companion.vision import geometry as geo
from companion.vision import read as reader
from companion.vision.assembly import (
    _cut_off, _fit_by_others, _judged, _logo_vouched, _marks, _plane_fit, _predicted_by_others)
from companion.vision.looks.common import (
    _along_the_nearest, _frames, _moved, _on_another, _one_look_more, _read_surely, _taken, _under)
from companion.vision.plane import Plane
from companion.vision.profile import Profile
from companion.vision.read import FaceReading, Pyramid, count_pips


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
    frames = _frames(detect.find_candidates(image_bgr, profile, side=profile.logo_look_side), source_scale)
    # (a face read with doubt may be a tile close to the camera read through an outline off it, and give way)
    frames = [frame for frame in frames
              if not _under(frame[0], [f for f in whole if id(f) not in read_ids and _read_surely(f, profile)])]
    looks = [_one_look_more(pyramid, face, profile) for face in reader.read_faces(pyramid, frames, profile)
             if face is not None]
    in_part = [_one_look_more(pyramid, face, profile)
               for face in reader.read_outlines(pyramid, _logo_places(faces, sure, profile), profile,
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
             for face in reader.read_outlines(pyramid, places, profile, floor=profile.tile_threshold)] if places else []
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
    for face in reader.read_faces(pyramid, frames, profile) if frames else []:
        if face is None or face.tile_score < profile.border_tile_sure or (
                profile.logo and not _marks(face, profile) and face.logo_score < profile.logo_threshold):
            continue
        if _cut_off(face.corners, width, height, profile) and not any(
                geo.overlap(face.corners, q) > profile.same_face_overlap for q in [f.corners for f in whole] + cut):
            cut.append(face.corners)
    return cut
