"""Faces across two tiles, or on half of one, looked at as the tiles they hold: two faces side by side read
split the other way (``_resplit``; two guesses read as no tile, ``_unread_pair``), a face across the junction of
two tiles of a line looked at half a tile each way (``_unstraddled``), a face the detector saw two tiles in
looked at as those two (``_held_off_centre``, ``_split_in_two``), a face too large for a tile looked at as its
halves and a tile's half read as a whole face as the tile twice its size (``_halved``).
"""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np

from companion.vision import geometry as geo
from companion.vision import read as reader
from companion.vision.assembly import _choosable, _cut_off, _judged, _one_per_face, _plane_fit, _sized_like_tiles
from companion.vision.looks.common import (
    _faces_on, _halves, _log_odds, _moved, _on_another, _one_look_more, _under)
from companion.vision.plane import HORIZON_NEAR, Lines, Plane, side_by_side, split_the_other_way
from companion.vision.profile import Profile
from companion.vision.read import FaceReading, Pyramid, count_pips


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
    face are taken surest first, and a pair taken for a tile read twice leaves that tile's other face read once,
    so that its square stands. A face cut off by the photo's border is none of these: it will be left out, and
    what is left of a tile there may read as any tile."""
    counts = [count_pips(face, profile) for face in faces]
    height, width = pyramid.levels[0].shape[:2]
    whole = [k for k, face in enumerate(faces) if face.tile_score >= profile.tile_threshold
             and not _cut_off(face.corners, width, height, profile)]
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
             for face in reader.read_outlines(pyramid, across, profile, floor=profile.tile_threshold)]
    faces = list(faces)
    gone: set[int] = set()
    chosen = []
    for n, (k, j) in enumerate(pairs):
        pair = looks[2 * n:2 * n + 2]
        read = [count_pips(face, profile) for face in pair]
        new = [tuple(sorted(c.pips)) for c in read]
        held = Counter(tuple(sorted(counts[i].pips)) for i in (k, j))
        gain = min(_log_odds(f.tile_score) for f in pair) - min(_log_odds(faces[i].tile_score) for i in (k, j))
        if (n < twice or gain >= odds) and new[0] != new[1] and \
                all(face.tile_score >= profile.tile_threshold and face.moved <= profile.settled_px and
                    c.confidence >= profile.candidate_confidence and
                    not _on_another(face, -1, faces, profile, besides=[k, j]) for face, c in zip(pair, read)) and \
                geo.overlap(pair[0].corners, pair[1].corners) <= profile.same_face_overlap:
            chosen.append((n >= twice, -gain, k, j, pair, held, new))
    used: set[int] = set()
    # the tiles as read so far: a pair taken for a tile read twice leaves its other reading once, and the split of
    # a pair must read two tiles read nowhere else
    for later, _, k, j, pair, held, new in sorted(chosen, key=lambda c: c[:2]):
        if k in used or j in used or any(tiles[t] != held[t] for t in new) or \
                (not later and tiles[tuple(sorted(counts[k].pips))] < 2):
            continue
        tiles.subtract(held)
        tiles.update(new)
        used.update((k, j))
        faces[k] = pair[0]
        faces.append(pair[1])
        gone.add(j)
    return [face for n, face in enumerate(faces) if n not in gone]


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
             for face in reader.read_outlines(pyramid, across, profile, floor=profile.tile_threshold)]
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


def _on_the_table(plane: Plane, quads: list[np.ndarray], profile: Profile) -> list[np.ndarray]:
    """``quads`` as seen from straight above (``Plane.from_above``) where ``plane`` tells the camera sees the table
    at least ``profile.above_deg`` from straight down, else as they are: seen steeply, a far face is shorter than
    the near ones, and how many of its lengths away they lie grows with the distance."""
    above = plane.from_above(profile.tile_aspect) if quads else None
    if above is None or above[1] < profile.above_deg:
        return quads
    points = np.concatenate([np.asarray(q, np.float64) for q in quads])
    if np.any(points @ above[0][2, :2] + above[0][2, 2] <= HORIZON_NEAR):
        return quads
    return list(geo.apply(above[0], points).reshape(-1, 4, 2))


def _unstraddled(pyramid: Pyramid, faces: list[FaceReading], profile: Profile,
                 looked: list[FaceReading]) -> list[FaceReading]:
    """``faces``, each whole face read as a double that may lie across two tiles of a line looked at again half
    a tile each way along it. Two tiles laid end to end meet half to matching half, so an outline across their
    junction reads as a double; the line's next tile then lies half a tile beyond its end: another whole face
    in line with it, one and a half lengths from its centre (give or take ``profile.straddle_slack`` of a
    length, off its axis by less than ``profile.gap_slack`` of a width), itself touching a face beyond it end
    to end or a double laid crosswise there (three quarters of a length off, give or take half the slack): a
    line of play, not a row of tiles laid out apart. So is any whole face, double or not (across a
    wrong junction it reads as two unlike halves), that ends half a tile short of a double laid crosswise in a
    line: the double's centre one and a quarter lengths from the face's (give or take half the slack), a face
    in line two lengths from it beyond the double. So is a whole face read as two unlike halves with a face in
    line one and a half lengths off that touches another, with no face between them (tiles pushed together end
    to end meet at any halves; in a line of play, a double laid crosswise lies between such faces), but it gives
    way only where the looks each way both find a tile read surely, not on each other (half a tile along a true
    tile, a look takes in its end and the bare ground, and may read a blank half there). Where the camera sees
    the table steeply, these lengths are the table's (``_on_the_table``). A look is a tile the face
    lay across if it is a whole tile, settled (it may take one look more; in doubt of its pips, it is judged on
    its four looks, ``read_both_ways``), read at least ``profile.candidate_confidence`` surely, not read as the
    face was, of a tile's shape there (its fit to the plane's prediction at least ``profile.gap_fit``) and on no
    other whole face; where one such is read surely (``profile.doubt_below``), the surest replaces the face and
    another is added (the face's other half lies on it, so it may be read with doubt). A straddle given way to
    may leave the next straddle along the line with a tile beyond it (a line read half a tile off throughout),
    so the looks go on for up to ``profile.straddle_rounds`` rounds while they find tiles; ``looked`` (the faces
    looked along already, and the tiles found so) is kept across calls, so that a call after the gaps are filled
    looks along the new faces only."""
    for _ in range(profile.straddle_rounds):  # a straddle given way may leave the next one with a tile beyond it
        whole = [k for k, face in enumerate(faces) if face.tile_score >= profile.tile_threshold]
        plane = Plane(_judged(faces, profile)[0])
        lines = Lines(_on_the_table(plane, [faces[k].corners for k in whole], profile))  # (the faces of ``whole``)
        # (against its end in line, or a double laid crosswise there)
        touching = lines.in_line(1.0, profile.straddle_slack, profile.gap_slack) | \
            lines.in_line(0.75, profile.straddle_slack / 2, profile.gap_slack) & lines.crosswise
        in_a_line = touching.sum(axis=1)[None, :] - touching.T > 0  # [k, j]: j touches a face but k end to end
        beyond = lines.in_line(1.5, profile.straddle_slack, profile.gap_slack) & in_a_line
        # a double laid crosswise in a line, half a tile beyond k, a face in line beyond it
        across_beyond = lines.in_line(1.25, profile.straddle_slack / 2, profile.gap_slack) & lines.crosswise & \
            lines.in_line(2.0, profile.straddle_slack, profile.gap_slack).any(axis=1)[:, None]
        # a face three quarters of a length from both (a double laid crosswise between them): no half tile is bare
        halfway = lines.in_line(0.75, profile.straddle_slack, profile.gap_slack)
        bare = beyond & ~((halfway.astype(int) @ halfway.T.astype(int)) > 0)
        suspects = []
        unlike: set[int] = set()  # faces read as two unlike halves: both tiles must be found
        for n, k in enumerate(whole):
            if any(faces[k] is face for face in looked) or \
                    (profile.logo and faces[k].logo_score >= profile.logo_threshold):
                continue
            pips = count_pips(faces[k], profile).pips
            if (pips[0] == pips[1] and beyond[n].any()) or across_beyond[n].any():
                suspects.append(k)
            elif bare[n].any():
                suspects.append(k)
                unlike.add(k)
        looked.extend(faces[k] for k in suspects)
        looks = [(k, moved) for k in suspects for moved in _moved(faces[k].corners, 0.5, 0.0)]
        if not looks:
            break
        found: dict[int, list[FaceReading]] = {}
        new = reader.read_outlines(pyramid, [q for _, q in looks], profile, floor=profile.tile_threshold)
        new = [_one_look_more(pyramid, face, profile) for face in new]
        # (a whole look, settled, whose pips are in doubt is judged on its four looks, as ``_found_at`` does)
        settled = [n for n, face in enumerate(new)
                   if face.tile_score >= profile.tile_threshold and face.moved <= profile.settled_px]
        for n, face in zip(settled, reader.read_both_ways(pyramid, [new[n] for n in settled], profile)):
            new[n] = face
        for (k, _), face in zip(looks, new):
            count = count_pips(face, profile)
            if face.tile_score < profile.tile_threshold or face.moved > profile.settled_px or \
                    count.confidence < profile.candidate_confidence or \
                    sorted(count.pips) == sorted(count_pips(faces[k], profile).pips) or \
                    _plane_fit(face, plane, profile) < profile.gap_fit or _on_another(face, k, faces, profile):
                continue
            found.setdefault(k, []).append(face)
        # one tile it lay across read surely: the other, the face's other half on it, may be read with doubt
        found = {k: sorted(tiles, key=lambda face: -count_pips(face, profile).confidence)
                 for k, tiles in found.items()
                 if max(count_pips(face, profile).confidence for face in tiles) >= profile.doubt_below
                 and (k not in unlike or _both_sure(tiles, profile))}
        if not found:
            break
        faces = list(faces)
        for k, tiles in found.items():
            faces[k] = tiles[0]
            faces.extend(tiles[1:])
        looked.extend(face for tiles in found.values() for face in tiles)  # a tile found is no straddle
    return faces


def _both_sure(tiles: list[FaceReading], profile: Profile) -> bool:
    """Whether ``tiles`` are the two tiles a face lay across: two looks, each read surely
    (``profile.doubt_below``), not on each other."""
    return len(tiles) == 2 and all(count_pips(f, profile).confidence >= profile.doubt_below for f in tiles) and \
        geo.overlap(tiles[0].corners, tiles[1].corners) <= profile.same_face_overlap


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
    may take one look more), sure of their pips on the whole (``profile.doubt_below``; neither almost without
    confidence, ``profile.candidate_confidence``: 107394's two tiles seen end on side by side, read 0.78 and 0.40
    surely) and surer than the faces they replace: the least sure of the two ``profile.split_odds`` times likelier
    whole (in odds) than the least sure face, or, not as many times less likely, surer of their pips on the whole
    (or each face reads a tile another whole face reads more surely: a set holds each tile once, so such a face
    holds no tile of its own); two tiles of the set read surely nowhere else (nor the very tiles they replace,
    moved), of a tile's shape there (their fit to the plane's prediction at least ``profile.gap_fit``), not on
    each other, and on no other whole face but the ones they replace (a pair whose outlines lie on another takes
    no looks). A face across two tiles reads as a tile of its own (their halves there) nearly as surely as they
    do; the looks beside a true tile take in half of it and the ground or a neighbour beyond, or read across two
    tiles themselves. The reader learned to take a face across two tiles for no tile, and its belief that a face
    is whole tells them apart better than the pips: of the 17 pairs of 4,800 steep and usual photos that passed
    the rest, 10 of the 11 true pairs were 990 to 110,000 times likelier whole than the face they would replace
    (the 11th 2 times less), the 6 false ones 540 to 100,000 times less likely; the pips judged 3 true pairs
    and 2 false ones wrongly. A pair with a look on another face held so replaces that face too, where both
    looks are at least as surely whole tiles (the reader's tile score) as the least sure face they replace: a
    line read half a tile off throughout holds each of its faces, each pair lying on the next face."""
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
    # replaces nothing: it takes no looks; unless that face is held too (a line read half a tile off throughout
    # holds faces that lie across each other's tiles), which the pair then replaces as well, if the reader is at
    # least as sure its two looks are whole tiles as it was of the least sure of those faces (a pair of straddles
    # can outscore two true tiles, one of them read with doubt, on pips alone)
    on = _faces_on([q for _, two, _ in pairs for q in two], [faces[j] for j in whole], profile.same_face_overlap)
    chained = [[j for j in held if j not in replaced and any(f is faces[j] for f in on[2 * n] + on[2 * n + 1])]
               for n, replaced in enumerate(replacing)]
    replacing = [replaced + more for replaced, more in zip(replacing, chained)]
    free = [all(any(f is faces[j] for j in replaced) for f in on[2 * n] + on[2 * n + 1])
            for n, replaced in enumerate(replacing)]
    pairs, replacing = [p for p, ok in zip(pairs, free) if ok], [r for r, ok in zip(replacing, free) if ok]
    chained = [c for c, ok in zip(chained, free) if ok]
    looks = reader.read_outlines(pyramid, [q for _, two, _ in pairs for q in two], profile,
                          floor=profile.tile_threshold) if pairs else []
    looks = [_one_look_more(pyramid, face, profile) for face in looks]
    confidence = {j: count_pips(faces[j], profile).confidence for j in whole}
    tile = {j: tuple(sorted(count_pips(faces[j], profile).pips)) for j in whole}
    # a face whose tile another whole face reads more surely holds no tile of its own (a set holds each once)
    outread = {j for j in whole if any(tile[i] == tile[j] and confidence[i] > confidence[j] for i in whole)}
    odds = np.log(profile.split_odds) if profile.split_odds else np.inf
    best: dict[int, tuple[float, list[FaceReading], list[int]]] = {}
    for n, ((k, _, _), replaced, more) in enumerate(zip(pairs, replacing, chained)):
        pair = looks[2 * n:2 * n + 2]
        counts = [count_pips(face, profile) for face in pair]
        # how much likelier whole (log odds) the least sure look is than the least sure face it replaces: the
        # reader learned to take a face across two tiles for no tile, so this tells a pair from a straddle best
        gain = min(_log_odds(f.tile_score) for f in pair) - min(_log_odds(faces[j].tile_score) for j in replaced)
        elsewhere = {tile[j] for j in whole
                     if j not in replaced and confidence[j] >= profile.doubt_below}  # the tiles read surely elsewhere
        score = float(np.mean([c.confidence for c in counts]))
        tiles = sorted(tuple(sorted(c.pips)) for c in counts)
        if tiles[0] != tiles[1] and not elsewhere & set(tiles) and \
                tiles != sorted(tile[j] for j in replaced) and \
                (gain >= odds or gain > -odds and
                 (score > np.mean([confidence[j] for j in replaced]) or outread.issuperset(replaced))) and \
                (not more or min(f.tile_score for f in pair) >= min(faces[j].tile_score for j in replaced)) and \
                geo.overlap(pair[0].corners, pair[1].corners) <= profile.same_face_overlap and \
                score >= profile.doubt_below and \
                all(face.tile_score >= profile.tile_threshold and face.moved <= profile.settled_px and
                    c.confidence >= profile.candidate_confidence and
                    _plane_fit(face, plane, profile) >= profile.gap_fit and
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


def _halved(pyramid: Pyramid, faces: list[FaceReading], profile: Profile) -> list[FaceReading]:
    """``faces``, each whole face that would be left out as too large for a tile where it lies (a patch across
    two tiles, see ``_sized_like_tiles``) looked at as its two halves across its middle, and each whole face read
    with a half of more pips than the set's tiles have (``profile.max_pips``) looked at so and as its two halves
    along its middle: where both halves are whole tiles, settled, read at least ``profile.candidate_confidence``
    surely, not on each other and on no other whole face, they take its place, the surer split where both ways
    do (the reader read two tiles end to end as one, the logo tile and the tile against its end among them, or
    two tiles side by side seen steeply, whose square is of a tile's shape there). And each whole face whose
    halves read two or three pips in a line across it (``_a_half_read_whole``) is looked at as the tile twice its
    size each of the four ways (``_doubled``): a look so that lies over it, judged as a half is, takes its place,
    and the place of the tile's other half where that is read so too (a double's halves, each read as a whole
    face)."""
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
                  for f in reader.read_outlines(pyramid, outlines, profile, floor=profile.tile_threshold)])
    for face, ways in splits:
        best, surest, kept = None, -1.0, faces
        for way in [[next(looks) for _ in way] for way in ways]:
            if not any(f is face for f in faces):
                break  # (the other half of a tile taken already)
            # the tile twice a half's size may hold its other half, read as a whole face too (a double's halves)
            others = [f for f in faces if f is not face and not (
                len(way) == 1 and any(f is h for h in halves) and
                geo.inside(f.corners, way[0].corners) > 1 - profile.same_face_overlap)]
            sure = min(count_pips(f, profile).confidence for f in way)
            if any(f.tile_score < profile.tile_threshold or f.moved > profile.settled_px for f in way) or \
                    sure < profile.candidate_confidence or sure <= surest or \
                    (len(way) == 2 and geo.overlap(way[0].corners, way[1].corners) > profile.same_face_overlap) or \
                    (len(way) == 1 and geo.inside(face.corners, way[0].corners) <= 1 - profile.same_face_overlap) or \
                    any(_on_another(f, -1, others, profile) for f in way):
                continue
            best, surest, kept = way, sure, others
        if best is not None:
            faces = kept + best
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
