"""A candidate the detector saw whose looks went to a neighbouring face is looked at again where it lies:
also where the face under it was read with doubt, and along the nearest sure face's axis and across it
where its own axis is askew."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.vision import Profile, count_pips
from companion.vision import geometry as geo
from companion.vision.assembly import _judged
from companion.vision.looks import missing
from companion.vision.looks.common import _taken
from companion.vision.plane import Plane, next_in_line
from companion.vision.read import FaceReading

from drawing import read_face, sure_table

LENGTH, WIDTH = 160.0, 80.0
PHOTO = (2000, 1500)  # (width, height): every tile here lies well inside it


def _tile(x: float, y: float, angle: float = 0.0) -> np.ndarray:
    return geo.quad_of((x, y), angle, LENGTH, WIDTH)


# four tiles read surely, all along the photo's x axis (they make the table's plane)
TABLE = sure_table(LENGTH, WIDTH)
HIDDEN = (_tile(400, 500), (6, 4))  # a tile no look found, lying along the others


def _reader(tiles: list[tuple[np.ndarray, tuple[int, int]]]):
    """A reader that finds a tile of ``tiles`` only through an outline near it and along it (centre within a
    fifth of a length, axis within 10 degrees), as the reader finds a thin foreshortened face; otherwise it
    sees no tile."""
    def along(q: np.ndarray, t: np.ndarray) -> bool:
        turn = abs((geo.frame_of(q)[1] - geo.frame_of(t)[1] + np.pi / 2) % np.pi - np.pi / 2)
        return turn < np.radians(10)

    def read_outlines(pyramid, quads, profile, floor=None):
        out = []
        for q in quads:
            near = [(t, p) for t, p in tiles
                    if np.linalg.norm(geo.centre_of(t) - geo.centre_of(q)) < 0.2 * LENGTH and along(q, t)]
            out.append(read_face(*near[0]) if near else FaceReading(q, 0.05, ((), ()), 0.0, 1.0))
        return out

    return read_outlines


@pytest.fixture(autouse=True)
def _read_alike_both_ways(monkeypatch):
    """The stand-in readers see no crops: a face reads on its four looks (``read_both_ways``) as on one."""
    monkeypatch.setattr("companion.vision.read.read_both_ways", lambda pyramid, faces, profile: list(faces))


def _frame(x: float, y: float, angle: float) -> tuple[np.ndarray, float, float, float]:
    return np.array([x, y]), angle, LENGTH, WIDTH


def test_a_candidate_left_unread_on_a_face_read_with_doubt_is_looked_at_where_it_lies():
    frame = _frame(400, 500, 0.0)
    doubtful = read_face(_tile(410, 530), (5, 1), heat=0.55)  # across the hidden tile and the next
    assert count_pips(doubtful, Profile()).confidence < Profile().doubt_below
    alone, beside = missing._orphans([frame], [None], TABLE + [doubtful], PHOTO, Profile())
    assert len(alone) == 1 and len(beside) == 2  # (and the places beside the face it lies on, as ever)
    # on a face read surely, it is not: the detector saw that face (only its places beside it are looked at)
    sure = read_face(_tile(410, 530), (5, 1))
    alone, beside = missing._orphans([frame], [None], TABLE + [sure], PHOTO, Profile())
    assert not alone and len(beside) == 2


def test_an_orphan_askew_is_looked_at_along_the_nearest_sure_face(monkeypatch):
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader([HIDDEN]))
    askew = geo.quad_of((400, 500), np.radians(35), LENGTH, WIDTH)  # the detector's axis, 35 degrees off
    filled = missing._filled(None, list(TABLE), [askew], [], Profile())
    assert len(filled) == len(TABLE) + 1
    assert count_pips(filled[-1], Profile()).pips == (6, 4)
    assert geo.iou(filled[-1].corners, HIDDEN[0]) > 0.95
    # (a tile lying across its neighbours is found so too: the look across the nearest sure face)
    across = (_tile(400, 500, np.pi / 2), (6, 4))
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader([across]))
    filled = missing._filled(None, list(TABLE), [askew], [], Profile())
    assert len(filled) == len(TABLE) + 1 and geo.iou(filled[-1].corners, across[0]) > 0.95


def test_where_the_detector_saw_a_tile_the_surest_look_is_taken_first(monkeypatch):
    # two looks around one candidate: the first takes in half of the neighbour (its pips less sure), the second
    # sees the tile; whichever order they come in, the tile is kept and the other lies on it
    off = read_face(_tile(370, 520), (4, 6), heat=0.8)
    right = read_face(HIDDEN[0], HIDDEN[1])
    assert count_pips(off, Profile()).confidence < count_pips(right, Profile()).confidence

    def read_outlines(pyramid, quads, profile, floor=None):
        return [off if geo.centre_of(q)[0] < 385 else right for q in quads]

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    plane = Plane([f.corners for f in TABLE])
    for places in ([_tile(370, 520), HIDDEN[0]], [HIDDEN[0], _tile(370, 520)]):
        found = missing._found_at(None, list(TABLE), places, 0, plane, Profile())
        assert len(found) == len(TABLE) + 1 and found[-1] is right


def test_the_looks_at_a_candidate_do_not_stand_in_for_a_lines_end_looks(monkeypatch):
    # a line found to go on is looked along again; a look around a candidate near its end is of another outline
    told: list = []

    def ends(quads, touch, overlap, looked, *rest):
        told.append(list(looked))
        return []

    monkeypatch.setattr(missing, "ends", ends)
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader([HIDDEN]))
    askew = geo.quad_of((400, 500), np.radians(35), LENGTH, WIDTH)
    filled = missing._filled(None, list(TABLE), [askew], [], Profile())
    assert len(filled) == len(TABLE) + 1 and len(told) == 2  # the first ends, then again past the tile found
    assert not any(np.linalg.norm(geo.centre_of(q) - (400, 500)) < LENGTH for q in told[1])


def test_with_one_face_read_surely_a_candidate_is_looked_at_through_its_own_frame(monkeypatch):
    # nothing predicts a tile's outline (a plane needs two faces read surely): the detector's own guess is
    # looked through, and a tile read surely there is kept; one read with doubt is not
    lone = TABLE[:1]
    guess = _tile(405, 495)
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader([HIDDEN]))
    filled = missing._filled(None, list(lone), [guess], [], Profile())
    assert len(filled) == 2 and count_pips(filled[-1], Profile()).pips == (6, 4)
    faint = (HIDDEN[0], (6, 4))
    monkeypatch.setattr("companion.vision.read.read_outlines", lambda pyramid, quads, profile, floor=None: [
        read_face(faint[0], faint[1], heat=0.55) if np.linalg.norm(geo.centre_of(q) - (400, 500)) < 40
        else FaceReading(q, 0.05, ((), ()), 0.0, 1.0) for q in quads])
    assert len(missing._filled(None, list(lone), [guess], [], Profile())) == 1


def test_with_one_face_read_surely_a_tile_found_replaces_only_a_face_read_with_doubt(monkeypatch):
    lone = TABLE[:1]
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader([HIDDEN]))
    across = read_face(_tile(420, 510), (5, 1), heat=0.55)  # read with doubt where the tile lies
    filled = missing._filled(None, lone + [across], [_tile(405, 495)], [], Profile())
    assert len(filled) == 2 and count_pips(filled[-1], Profile()).pips == (6, 4)
    held = read_face(_tile(420, 510), (5, 1))  # read surely: it stays
    assert missing._filled(None, lone + [held], [_tile(405, 495)], [], Profile()) == lone + [held]


def test_a_look_less_sure_it_is_whole_is_found_where_step_4_would_keep_it(monkeypatch):
    # a tile score of 0.5 to 0.8 is a tile all the same with a tile's shape there (IoU 0.85) and its pips read
    # surely; not one too wide for a tile there (IoU 0.71), though a look where the detector saw a tile may fit so
    plane = Plane([f.corners for f in TABLE])

    def reader(score: float, heat: float, quad: np.ndarray = HIDDEN[0]):
        face = read_face(quad, HIDDEN[1], heat)
        return lambda pyramid, quads, profile, floor=None: [replace(face, tile_score=score) for _ in quads]

    for score, heat, quad, found in [(0.65, 0.97, HIDDEN[0], True), (0.65, 0.55, HIDDEN[0], False),
                                     (0.4, 0.97, HIDDEN[0], False),
                                     (0.65, 0.97, geo.quad_of((400, 500), 0.0, LENGTH, 1.4 * WIDTH), False)]:
        monkeypatch.setattr("companion.vision.read.read_outlines", reader(score, heat, quad))
        out = missing._found_at(None, list(TABLE), [HIDDEN[0]], 0, plane, Profile())
        assert (len(out) == len(TABLE) + 1) == found, (score, heat)


def test_no_look_goes_through_a_place_where_it_could_neither_be_new_nor_replace_a_face(monkeypatch):
    # below the table, two tiles side by side and a face read across two tiles (too wide for a tile there): a
    # place across the pair lies on both, one on a tile of the pair lies on a face fitting the plane as a tile
    # does (no look could fit better), and neither takes a look; one on the wide face, or on no face, does
    pair = [read_face(_tile(400, 500), (6, 4)), read_face(_tile(400, 500 + WIDTH), (2, 1))]
    wide = read_face(geo.quad_of((800, 500), 0.0, LENGTH, 1.6 * WIDTH), (5, 3))
    across, on_one, on_wide, free = (_tile(400, 500 + WIDTH / 2), _tile(400 + LENGTH / 4, 500),
                                     _tile(800, 500 - WIDTH / 4), _tile(400, 800))
    assert geo.overlap(across, pair[0].corners) > Profile().same_face_overlap < geo.overlap(across, pair[1].corners)
    looked: list = []

    def read_outlines(pyramid, quads, profile, floor=None):
        looked.extend(quads)
        return [FaceReading(q, 0.05, ((), ()), 0.0, 1.0) for q in quads]

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    faces = TABLE + pair + [wide]
    plane = Plane([f.corners for f in TABLE + pair])
    assert missing._found_at(None, list(faces), [across, on_one, on_wide, free], 2, plane, Profile()) == faces
    assert [id(q) for q in looked] == [id(on_wide), id(free)]


def test_where_tiles_crowd_a_weak_peak_beside_them_is_looked_at_and_a_tile_there_must_be_read_surely(monkeypatch):
    # a tile staggered against its neighbours: the detector's peak of it merged into theirs, leaving a weak one
    pips = [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (1, 2), (1, 3)]
    crowd = TABLE + [read_face(_tile(200 + 400 * (k % 4), 700 + 200 * (k // 4)), pips[k]) for k in range(8)]
    peak = _frame(600, 500, np.radians(35))  # on no face, beside the table's tiles; its axis askew
    profile = replace(Profile(), weak_tiles=12)
    plane = Plane(_judged(crowd, profile)[0])
    places = missing._at_weak_peaks([peak], crowd, plane, profile)
    assert len(places) == 3  # along the detector's own axis, and along and across the nearest sure face
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader([(_tile(600, 500), (6, 4))]))
    filled = missing._filled(None, list(crowd), [], [], profile, [peak])
    assert len(filled) == len(crowd) + 1 and count_pips(filled[-1], profile).pips == (6, 4)
    # the detector all but missed it: a look read with doubt is no tile there, however surely whole (a deck's planks)
    planks = replace(read_face(_tile(600, 500), (2, 0), heat=0.7), tile_score=0.995)  # read 0.4 surely
    monkeypatch.setattr("companion.vision.read.read_outlines", lambda pyramid, quads, profile, floor=None: [
        replace(planks, corners=q) if geo.iou(q, planks.corners) > 0.9 else FaceReading(q, 0.05, ((), ()), 0.0, 1.0)
        for q in quads])
    assert len(missing._filled(None, list(crowd), [], [], profile, [peak])) == len(crowd)
    # not where fewer tiles are read (a weak peak there is likelier grass), nor far from them, nor on a face
    assert missing._at_weak_peaks([peak], crowd, plane, replace(profile, weak_tiles=13)) == []
    assert missing._at_weak_peaks([_frame(600, 2500, 0.0)], crowd, plane, profile) == []
    assert missing._at_weak_peaks([_frame(600, 100, 0.0)], crowd, plane, profile) == []


def test_a_candidate_just_beyond_a_faces_end_is_looked_at_as_the_tile_end_to_end_with_it(monkeypatch):
    # the detector's centre for the hidden tile lies near the end of the face before it, 75 pixels off its own:
    # beyond what the looks moved along reach
    before = read_face(_tile(240, 500), (1, 6))
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader([HIDDEN]))
    filled = missing._filled(None, TABLE + [before], [geo.quad_of((325, 505), 0.0, LENGTH, WIDTH)], [], Profile())
    assert len(filled) == len(TABLE) + 2 and geo.iou(filled[-1].corners, HIDDEN[0]) > 0.95
    # a candidate off the face's axis by more than half its width is not in line with it: no such look
    aside = missing._filled(None, TABLE + [before], [geo.quad_of((325, 550), 0.0, LENGTH, WIDTH)], [], Profile())
    assert len(aside) == len(TABLE) + 1


def test_the_tile_next_in_line_lies_against_the_faces_end():
    plane = Plane([f.corners for f in TABLE])
    face = _tile(240, 500)
    assert geo.iou(next_in_line(plane, face, 1), _tile(400, 500)) > 0.95
    assert geo.iou(next_in_line(plane, face, -1), _tile(80, 500)) > 0.95


def test_a_weak_peak_just_beyond_a_faces_end_is_looked_at_as_the_tile_end_to_end_with_it(monkeypatch):
    # in a photo of few tiles, where weak peaks are not looked at otherwise: a tile against a face's end whose
    # peak the detector all but missed (0.08 to 0.2)
    before = read_face(_tile(240, 500), (1, 6))
    peak = _frame(325, 505, 0.0)
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader([HIDDEN]))
    filled = missing._filled(None, TABLE + [before], [], [], Profile(), [peak])
    assert len(filled) == len(TABLE) + 2 and geo.iou(filled[-1].corners, HIDDEN[0]) > 0.95
    # a look there read with doubt is no tile, however surely whole, as at any weak peak
    doubtful = replace(read_face(HIDDEN[0], (2, 0), heat=0.7), tile_score=0.995)
    monkeypatch.setattr("companion.vision.read.read_outlines", lambda pyramid, quads, profile, floor=None: [
        replace(doubtful, corners=q) if geo.iou(q, HIDDEN[0]) > 0.9 else FaceReading(q, 0.05, ((), ()), 0.0, 1.0)
        for q in quads])
    assert len(missing._filled(None, TABLE + [before], [], [], Profile(), [peak])) == len(TABLE) + 1


def test_a_look_less_sure_it_is_whole_whose_corners_still_moved_is_looked_at_once_more(monkeypatch):
    # the first look at a small blank-half tile stopped short of settling, 0.7 sure it is whole; through the
    # corners it stopped at, the next look settles on the tile, and step 4 would keep it (a tile's shape there)
    plane = Plane([f.corners for f in TABLE])
    moving = replace(read_face(HIDDEN[0], HIDDEN[1]), tile_score=0.7, moved=12.0)
    looked: list = []

    def read_outlines(pyramid, quads, profile, floor=None):
        looked.extend(quads)
        return [moving if len(looked) == 1 else replace(moving, moved=1.0) for _ in quads]

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    out = missing._found_at(None, list(TABLE), [HIDDEN[0]], 0, plane, Profile())
    assert len(looked) == 2 and len(out) == len(TABLE) + 1 and out[-1].moved == 1.0
    # one the reader all but takes for no tile (below ``shaped_tile_threshold``) takes no look more
    looked.clear()
    moving = replace(moving, tile_score=0.4)
    assert missing._found_at(None, list(TABLE), [HIDDEN[0]], 0, plane, Profile()) == TABLE and len(looked) == 1


def test_a_whole_look_read_with_doubt_is_judged_on_its_four_looks_before_it_is_taken(monkeypatch):
    # a weak peak's look must be read surely: a tile with a blank half read 0.4 surely through one look, surely
    # on the four (``read_both_ways``), is found; only whole looks that settled are read again
    peak = _frame(400, 500, 0.0)
    doubtful = replace(read_face(HIDDEN[0], HIDDEN[1], heat=0.7), tile_score=0.99)
    assert count_pips(doubtful, Profile()).confidence < Profile().doubt_below
    judged: list = []

    def both_ways(pyramid, faces, profile):
        judged.extend(faces)
        return [replace(read_face(f.corners, HIDDEN[1]), straight=0.4) for f in faces]

    monkeypatch.setattr("companion.vision.read.read_both_ways", both_ways)
    monkeypatch.setattr("companion.vision.read.read_outlines", lambda pyramid, quads, profile, floor=None: [
        replace(doubtful, corners=q) if geo.iou(q, HIDDEN[0]) > 0.9 else FaceReading(q, 0.05, ((), ()), 0.0, 1.0)
        for q in quads])
    before = read_face(_tile(240, 500), (1, 6))
    filled = missing._filled(None, TABLE + [before], [], [], Profile(), [peak])
    assert len(filled) == len(TABLE) + 2 and geo.iou(filled[-1].corners, HIDDEN[0]) > 0.95
    assert judged and all(f.tile_score >= Profile().tile_threshold and f.moved <= Profile().settled_px for f in judged)
    # read with doubt on the four looks too, it is left
    monkeypatch.setattr("companion.vision.read.read_both_ways", lambda pyramid, faces, profile: list(faces))
    assert len(missing._filled(None, TABLE + [before], [], [], Profile(), [peak])) == len(TABLE) + 1


def test_a_candidate_whose_look_ran_off_the_photo_is_looked_at_where_it_lies():
    # a whole tile near the top border, the detector's frame for it half beyond: its look ran off the photo and
    # read no whole tile (0.6), so the candidate is looked at again as one left unread
    frame = _frame(400, 30, 0.0)
    off = replace(read_face(_tile(400, 10), (6, 0)), tile_score=0.6)
    alone, beside = missing._orphans([frame], [off], TABLE + [off], PHOTO, Profile())
    assert len(alone) == 1 and np.allclose(geo.centre_of(alone[0]), (400, 30))
    # one whose look read a whole tile there, or read no tile well inside the photo, is not
    assert missing._orphans([frame], [replace(off, tile_score=0.9)], TABLE + [off], PHOTO, Profile()) == ([], [])
    inside = replace(read_face(_tile(400, 500), (6, 0)), tile_score=0.6)
    assert missing._orphans([_frame(400, 500, 0.0)], [inside], TABLE + [inside], PHOTO, Profile()) == ([], [])


def test_a_tile_the_detector_saw_only_from_above_must_be_read_surely(monkeypatch):
    # read 0.4 surely through its own outline: enough where the detector saw it in the photo, not where it saw it
    # only in the view from above (``_seen_from_above``), which frames far plain wood as well as tiles
    monkeypatch.setattr("companion.vision.read.read_outlines",
                        lambda pyramid, quads, profile, floor=None: [read_face(q, HIDDEN[1], heat=0.7) for q in quads])
    quad = HIDDEN[0]
    assert Profile().candidate_confidence <= count_pips(read_face(quad, (6, 4), 0.7), Profile()).confidence \
        < Profile().doubt_below
    assert len(missing._filled(None, list(TABLE), [quad], [], Profile())) == len(TABLE) + 1
    assert missing._filled(None, list(TABLE), [], [], Profile(), (), [quad]) == TABLE
    # read surely, it is a tile, through the detector's outline from above
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader([HIDDEN]))
    filled = missing._filled(None, list(TABLE), [], [], Profile(), (), [quad])
    assert len(filled) == len(TABLE) + 1 and np.allclose(filled[-1].corners, quad)


def test_a_tile_seen_only_from_above_read_with_doubt_mends_a_face_of_no_tiles_shape_there(monkeypatch):
    # 102066's far 6-3, seen end on: the first look framed it short and wide and read 0-1 almost without confidence;
    # the look from above reads it 0.4 surely through a tile's outline. It adds no tile, but it takes that face's place
    monkeypatch.setattr("companion.vision.read.read_outlines",
                        lambda pyramid, quads, profile, floor=None: [read_face(q, HIDDEN[1], heat=0.7) for q in quads])
    quad = HIDDEN[0]
    stub = read_face(geo.quad_of((400, 500), 0.0, 100, 90), (0, 1), heat=0.55)  # no tile's shape, read with doubt
    look = count_pips(read_face(quad, (6, 4), 0.7), Profile()).confidence
    assert count_pips(stub, Profile()).confidence < look < Profile().doubt_below
    filled = missing._filled(None, TABLE + [stub], [], [], Profile(), (), [quad])
    assert len(filled) == len(TABLE) + 1 and np.allclose(filled[-1].corners, quad)
    assert count_pips(filled[-1], Profile()).pips == (6, 4)
    # not a face of a tile's shape there, nor one read more surely than the look
    for held in (read_face(quad, (0, 1), heat=0.55), read_face(geo.quad_of((400, 500), 0.0, 100, 90), (0, 1))):
        assert missing._filled(None, TABLE + [held], [], [], Profile(), (), [quad])[-1] is held


def test_a_look_that_outdoes_the_face_under_it_in_every_way_takes_its_place():
    # 105370's 0-1: framed 40 pixels onto the grass (read 0.53 surely, 0.85 whole, fit 0.88), then left out for the
    # grass's colour; a look through the tile read it 0.88 surely, 1.0 whole, fit 0.96: short of the fit margin
    plane = Plane([f.corners for f in TABLE])
    held = replace(read_face(geo.quad_of((406, 500), 0.0, 150, 80), (0, 1), heat=0.8), tile_score=0.85)
    look = read_face(_tile(400, 500), (0, 1), heat=0.97)
    assert Profile().doubt_below <= count_pips(held, Profile()).confidence < count_pips(look, Profile()).confidence
    assert _taken(TABLE + [held], [look], 0, plane, Profile())[-1] is look
    # a look that falls short in one way leaves the face be: less surely whole, read no surer, of no better shape
    for short in (replace(look, tile_score=0.85), replace(look, peaks=held.peaks), replace(look, corners=held.corners)):
        assert _taken(TABLE + [held], [short], 0, plane, Profile())[-1] is held


@pytest.mark.parametrize("look_whole, taken", [(0.99999, True), (0.995, False)])
def test_a_look_far_likelier_whole_takes_the_place_of_a_face_read_more_surely(look_whole, taken):
    # 112173: an outline half on a 0-1, half on the floor, read 0-0 0.86 surely, 0.98 whole; a look through the
    # 0-1 read it 0.82 surely, 0.9994 whole. The reader learned such outlines as no tile: a look split_odds times
    # likelier whole (odds) than the face it lies on takes its place however the two read their pips
    plane = Plane([f.corners for f in TABLE])
    held = replace(read_face(_tile(480, 500), (4, 6), heat=0.85), tile_score=0.99)  # across the 6-4 and the next
    look = replace(read_face(*HIDDEN, heat=0.8), tile_score=look_whole)
    assert count_pips(look, Profile()).confidence < count_pips(held, Profile()).confidence
    assert (_taken(TABLE + [held], [look], 0, plane, Profile())[-1] is look) is taken
    # with split_odds 0 the pips judge
    assert _taken(TABLE + [held], [look], 0, plane, Profile(split_odds=0))[-1] is held
