"""Faces read with doubt, looked at again through the outline that the faces read surely around them predict
(``_reshaped``, and once more where a new look still has no tile's shape: ``_reshaped_again``).
"""

from __future__ import annotations

import numpy as np

from companion.vision import geometry as geo
from companion.vision import read as reader
from companion.vision.assembly import _judged, _plane_fit
from companion.vision.looks.common import _along_the_nearest, _faces_on, _fit_to, _moved, _on_another, _one_look_more
from companion.vision.plane import Plane
from companion.vision.profile import Profile
from companion.vision.read import FaceReading, Pyramid, count_pips


def _reshaped(pyramid: Pyramid, faces: list[FaceReading], profile: Profile,
              beside: list[np.ndarray] | None = None) -> list[FaceReading]:
    """``faces``, each face read with doubt (not surely a whole tile, its pips in doubt, or read as the same
    tile as another whole face), and each whole face read surely, settled, but of no tile's shape there (its fit
    to the prediction below ``profile.gap_fit``; not the logo: below), looked at again through the outline the
    faces read surely around it predict there, if its own is far from it (overlapping it less than
    ``profile.shape_overlap``: the reader took a corner or an end from a neighbouring tile, or, in a tile seen
    steeply, drew the outline narrower and left out a row of pips); a whole face whose pips are in doubt, or
    whose corners still moved more than ``profile.settled_px`` in its last look, also through that outline moved
    along the tile and across it (the reader took an outline across two tiles) and turned across the face and so
    moved along (it took half a tile for a whole one), and where its own outline is far from that outline, through the
    outline along the nearest sure face's axis and across it, there and moved along (an outline askew across
    two tiles tells no axis; tiles lie along or across their neighbours); but none of these where the look
    through the outline itself took the face's place and was read surely (``profile.doubt_below``): those
    looks are taken after it, only where needed. A new look replaces the face if
    it is a whole tile, surer of its pips (or of a tile's shape, ``profile.gap_fit``, read at least
    ``profile.candidate_confidence`` surely, where the face or the look that took its place has none: a sliver read
    as a whole tile, surely, is no tile all the same), has settled (its corners moved at most ``profile.settled_px`` in
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
    faces mostly within it (more than ``profile.part_within`` of each: a half read through an outline that
    strays off the tile, 100236) that have no tile's shape (fit below ``profile.gap_fit``) and fit worse than it by
    ``profile.fit_margin``, or are read less surely than it (the rest of its tile read apart: the other half, or
    the emblem; two thirds of a thick tile seen steeply, where the plane's outline is bent): they give way to it.
    A new look that still has no tile's shape is looked at once more (``_reshaped_again``). Where a look took a
    face's place, the outline of the surest of its moved or turned looks that is a whole tile, read surely
    (``profile.doubt_below``), settled, of a tile's shape (fit at least ``profile.gap_fit``) and on no face kept
    goes to ``beside``: the face's outline may have lain across two tiles, each look taking one (or across the
    halves of two side by side, which read as tiles too, so it is only a place to look at again once the faces
    are settled). No look goes through an outline on another whole face of a tile's shape (``gap_fit``)."""
    sure, doubtful, unsure_pips = _judged(faces, profile)
    plane = Plane(sure)
    fit = _fit_to(plane, profile)
    # a whole face read surely but of no tile's shape there: its outline may leave out a row of pips
    doubtful += [k for k, face in enumerate(faces) if k not in doubtful and face.tile_score >= profile.tile_threshold
                 and face.moved <= profile.settled_px and fit(face) < profile.gap_fit and
                 not (profile.logo and face.logo_score >= profile.logo_threshold)]

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
        across = _across(faces[k], sure, plane, profile) if best[k][1] < profile.gap_fit else None
        if across is not None:
            looks.append((k, across, 0.0))
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
        new = reader.read_outlines(pyramid, [outline for _, outline, _ in chosen], profile,
                                   floor=profile.tile_threshold)
        # a whole tile not yet settled is looked at once more (a look far off takes more looks)
        again = [n for n, face in enumerate(new) if chosen[n][0] not in logos and
                 face.tile_score >= profile.tile_threshold and face.moved > profile.settled_px]
        for n, face in zip(again, reader.read_outlines(pyramid, [new[n].corners for n in again], profile,
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
                # (a look of a tile's shape wins over one of none however surely that was read: a sliver)
                shaped = face_fit >= profile.gap_fit > held_fit and confidence >= profile.candidate_confidence
                if confidence <= count_pips(held, profile).confidence and not shaped:
                    continue
            # (a face read almost without confidence may lie across two tiles, an outline of a tile's shape too)
            unsure = k not in logos and count_pips(held, profile).confidence < profile.candidate_confidence and \
                count_pips(face, profile).confidence >= profile.doubt_below and face_fit >= profile.gap_fit
            if face_fit <= held_fit + margin and not unsure:
                continue
            # a face of no tile's shape within a look read surely, fitting far worse or read less surely, is part of
            # that tile read apart (its other half, or the logo's emblem alone): the look may lie on it, and takes its
            # place too
            surety = count_pips(face, profile).confidence
            within = [] if surety < profile.doubt_below \
                else [j for j, other in enumerate(faces) if j != k and other.tile_score >= profile.tile_threshold and
                      geo.inside(other.corners, face.corners) > profile.part_within and
                      fit(other) < profile.gap_fit and (fit(other) < face_fit - profile.fit_margin or
                                                        count_pips(other, profile).confidence < surety)]
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


def _across(face: FaceReading, sure: list[np.ndarray], plane: Plane, profile: Profile) -> np.ndarray | None:
    """The outline the other sure faces predict across ``face``'s axis, where ``face`` (settled) fits it at least
    ``profile.gap_fit`` and the one along its axis less: a tile seen end on, as wide in the photo as long, framed
    closely but read across, its sides taken for its ends (102178's far 1-0 read surely as a 0-0, its divider
    along the face read and its one pip on that). Judged by the other sure faces: a face read across bends the
    plane it is part of (102178's fits the turned outline 0.66 by the plane of all, 0.95 by the others')."""
    if face.moved > profile.settled_px:
        return None
    others = Plane([q for q in sure if q is not face.corners]) if any(q is face.corners for q in sure) else plane
    along = others.outline(face.corners, profile.tile_aspect)
    turned = others.outline(np.roll(face.corners, -1, axis=0), profile.tile_aspect)
    if turned is None or geo.iou(face.corners, turned) < profile.gap_fit or \
            (along is not None and geo.iou(face.corners, along) >= profile.gap_fit):
        return None
    return turned


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
    for k, face in zip(again, reader.read_outlines(pyramid, [outlines[k] for k in again], profile,
                                            floor=profile.tile_threshold)):
        if face.tile_score < profile.tile_threshold or face.moved > profile.settled_px or \
                count_pips(face, profile).confidence < profile.doubt_below:
            continue
        face_fit = _plane_fit(face, plane, profile)
        if face_fit > best[k][1] + profile.fit_margin and not _on_another(face, k, faces, profile, besides=parts[k]):
            best[k] = (face, face_fit)
