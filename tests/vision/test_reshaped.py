"""A face read with doubt is looked at again where the table's plane says a tile lies: through the outline
predicted at its place, and moved along and across the tile (an outline across two tiles); so are the gaps
of rows and the candidates whose looks went to a neighbouring face."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

import companion.vision.looks as looks
from companion.vision import Profile, count_pips
from companion.vision import geometry as geo
from companion.vision.assembly import _judged, _plane_fit
from companion.vision.looks import common, missing, reshape, splits
from companion.vision.plane import Plane
from companion.vision.read import FaceReading, Peak, Pyramid

from drawing import peaks
from test_plane import _camera, _seen

LENGTH, WIDTH = 160.0, 80.0
PHOTO = (2000, 1500)  # (width, height): every tile here lies well inside it
SOURCE = Pyramid(np.zeros((PHOTO[1], PHOTO[0], 3), np.uint8))  # the photo the stand-in readers never look at


@pytest.fixture(autouse=True)
def _read_alike_both_ways(monkeypatch):
    """The stand-in readers see no crops: a face reads on its four looks (``read_both_ways``) as on one."""
    monkeypatch.setattr("companion.vision.read.read_both_ways", lambda pyramid, faces, profile: list(faces))


def _sure(quad: np.ndarray, pips: tuple[int, int], moved: float = 0.5) -> FaceReading:
    halves = tuple(peaks(n) for n in pips)
    return FaceReading(quad, 0.99, halves, 0.0, moved)


def _tile(x: float, y: float) -> np.ndarray:
    return geo.quad_of((x, y), 0.0, LENGTH, WIDTH)


TABLE = [_tile(200, 100), _tile(600, 100), _tile(1000, 100), _tile(300, 300)]  # read surely
MISSED = _tile(460, 300)  # end to end with the last, and never read by itself (a 4-5)


def _across_two() -> FaceReading:
    """The reader's outline across the end of the 300 tile and most of the 460 one, one corner off: a pip of
    each, counted with doubt."""
    quad = _tile(420, 300)
    quad[2] += (8.0, -14.0)
    halves = (peaks(2, heats=(0.97, 0.6)), peaks(1))
    return FaceReading(quad, 0.95, halves, 0.0, 1.0)


def _reader(moved: float = 1.0):
    """A reader that finds a tile from an outline near it (centre within a fifth of a length) and otherwise
    reads the outline it was given across two tiles, unsure."""
    tiles = TABLE + [MISSED]

    def read_outlines(pyramid, quads, profile, floor=None):
        out = []
        for q in quads:
            near = min(tiles, key=lambda t: np.linalg.norm(geo.centre_of(t) - geo.centre_of(q)))
            if np.linalg.norm(geo.centre_of(near) - geo.centre_of(q)) < 0.2 * LENGTH:
                pips = (4, 5) if near is MISSED else PIPS[[t is near for t in TABLE].index(True)]
                out.append(_sure(near, pips, moved))
            else:
                out.append(FaceReading(q, 0.9, ((Peak(0.6, 0.3),), ()), 0.0, moved))
        return out

    return read_outlines


PIPS = [(1, 1), (2, 1), (3, 1), (2, 2)]  # the table's, each tile once


def _faces() -> list[FaceReading]:
    return [_sure(q, p) for q, p in zip(TABLE, PIPS)] + [_across_two()]


def test_a_face_read_as_a_tile_another_face_holds_is_looked_at_again(monkeypatch):
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader())
    # the 460 tile read short at one end, as the 300 tile's 2-2 (its pips not in doubt): one of the two is
    # misread, and the outline the plane predicts there finds the 4-5
    short = MISSED.copy()
    short[2:, 0] -= 30
    twice = FaceReading(short, 0.99, (peaks(2, 0.9), peaks(2, 0.9)), 0.0, 1.0)
    assert count_pips(twice, Profile()).confidence > Profile().doubt_below
    faces = reshape._reshaped(None, _faces()[:-1] + [twice], Profile())
    assert np.allclose(faces[-1].corners, MISSED) and _count(faces[-1]) == (4, 5)


def _count(face: FaceReading) -> tuple[int, int]:
    return count_pips(face, Profile()).pips


def test_a_face_read_surely_but_narrower_than_a_tile_is_looked_at_through_the_tile(monkeypatch):
    # the 460 tile, a 4-5, read through an outline two thirds of its width that leaves out a column of the five:
    # read surely as a 4-4, of no tile's shape; the outline the plane predicts there finds the 4-5
    narrow = geo.quad_of((460, 293), 0.0, LENGTH, 0.65 * WIDTH)
    squeezed = _sure(narrow, (4, 4))
    looked: list = []

    def read_outlines(pyramid, quads, profile, floor=None):
        looked.extend(quads)
        return [_sure(MISSED, (4, 5), 1.0) if np.linalg.norm(geo.centre_of(q) - (460, 300)) < 0.2 * LENGTH
                else FaceReading(q, 0.05, ((), ()), 0.0, 1.0) for q in quads]

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    monkeypatch.setattr(reshape, "_reshaped_again", lambda *args: None)
    faces = [_sure(q, p) for q, p in zip(TABLE, PIPS)]
    plane = Plane([f.corners for f in faces])
    assert _plane_fit(squeezed, plane, Profile()) < Profile().gap_fit
    found = reshape._reshaped(None, faces + [squeezed], Profile())
    assert np.allclose(found[-1].corners, MISSED) and _count(found[-1]) == (4, 5) and len(looked) == 1
    # of a tile's shape, a face read surely is not looked at again
    looked.clear()
    whole = _sure(MISSED, (4, 4))
    assert reshape._reshaped(None, faces + [whole], Profile())[-1] is whole and not looked


def test_an_outline_across_two_tiles_moves_onto_the_tile_not_read(monkeypatch):
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader())
    faces = reshape._reshaped(None, _faces(), Profile())
    assert np.allclose(faces[-1].corners, MISSED) and _count(faces[-1]) == (4, 5)
    assert all(np.allclose(f.corners, q) for f, q in zip(faces, TABLE))  # the sure faces stay
    # without moved looks nothing nearer a tile is found: the doubtful face stays
    kept = reshape._reshaped(None, _faces(), Profile(shift_along=0.0, shift_across=0.0))[-1]
    assert np.allclose(kept.corners, _across_two().corners)


def test_an_outline_across_two_tiles_read_surely_as_a_tile_held_is_moved_where_it_had_not_settled(monkeypatch):
    # read surely as the 2-1 the 600 tile holds, across the 300 tile's end and most of the 460 one: its
    # corners still moved in its last look, so its place is no surer than its reading
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader())
    twice = replace(_across_two(), peaks=(peaks(2, 0.9), peaks(1, 0.9)), moved=20.0)
    assert count_pips(twice, Profile()).confidence > Profile().doubt_below
    faces = reshape._reshaped(None, _faces()[:-1] + [twice], Profile())
    assert np.allclose(faces[-1].corners, MISSED) and _count(faces[-1]) == (4, 5)
    # settled, it is looked at only through the plane's outline at its place, which finds nothing nearer
    settled = replace(twice, moved=1.0)
    assert reshape._reshaped(None, _faces()[:-1] + [settled], Profile())[-1] is settled


# the 460 tile, lying a little off the row's line, and seen a little short: an outline read with doubt on the
# line (its corners still moving, or across two tiles) fits the plane's prediction better than the tile does
OFF_THE_LINE = geo.quad_of((474, 300), 0.0, 0.82 * LENGTH, WIDTH)


def _off_the_line_reader(pyramid, quads, profile, floor=None):
    return [_sure(OFF_THE_LINE, (4, 5)) if np.linalg.norm(geo.centre_of(q) - (474, 300)) < 0.2 * LENGTH
            else FaceReading(q, 0.05, ((), ()), 0.0, 1.0) for q in quads]


@pytest.mark.parametrize("heat, moved, gives_way", [(0.7, 25.0, True), (0.6, 1.0, True), (0.7, 1.0, False)])
def test_a_face_unsettled_or_read_almost_without_confidence_gives_way_to_a_look_read_surely(monkeypatch, heat,
                                                                                           moved, gives_way):
    # its corners still moving, its outline vouches for nothing; read almost without confidence (0.2 sure), it
    # may lie across two tiles; read with doubt (0.4) and settled, it keeps its place: the look fits no better
    face = FaceReading(geo.quad_of((452, 300), 0.0, LENGTH, 0.85 * WIDTH), 0.99, (peaks(3, heat), peaks(5)), 0.0,
                       moved)
    assert count_pips(face, Profile()).confidence < Profile().doubt_below
    table = [_sure(q, p) for q, p in zip(TABLE, PIPS)]
    plane = Plane([f.corners for f in table])
    tile = _sure(OFF_THE_LINE, (4, 5))
    assert _plane_fit(face, plane, Profile()) > _plane_fit(tile, plane, Profile()) >= Profile().gap_fit
    monkeypatch.setattr("companion.vision.read.read_outlines", _off_the_line_reader)
    now = reshape._reshaped(None, table + [face], Profile())[-1]
    if gives_way:
        assert np.allclose(now.corners, OFF_THE_LINE) and _count(now) == (4, 5)
    else:
        assert now is face


@pytest.mark.parametrize("tile_sure", [True, False])
def test_a_look_of_a_tiles_shape_wins_over_a_sliver_read_more_surely(monkeypatch, tile_sure):
    # a face unsettled half a tile beside the 4-5 not read (50020's 0-6): the look through the plane's outline
    # there reads no tile, the look moved away from the tile reads a sliver as a whole tile (its 0-0 read 0.44
    # sure), the look moved onto it the 4-5, with doubt (0.4): of a tile's shape, the 4-5 wins all the same
    face = FaceReading(geo.quad_of((508, 300), 0.0, LENGTH, 0.85 * WIDTH), 0.99, (peaks(3, 0.7), peaks(5)), 0.0, 25.0)
    tile = FaceReading(MISSED, 0.99, (peaks(4, heats=(0.97, 0.97, 0.97, 0.7 if tile_sure else 0.6)), peaks(5)), 0.0,
                       0.5)

    def read_outlines(pyramid, quads, profile, floor=None):
        out = []
        for q in quads:
            centre = geo.centre_of(q)
            if np.linalg.norm(centre - geo.centre_of(MISSED)) < 0.2 * LENGTH:
                out.append(tile)
            elif np.linalg.norm(centre - geo.centre_of(face.corners)) < 0.1 * LENGTH:
                out.append(FaceReading(q, 0.05, ((), ()), 0.0, 1.0))
            else:
                sliver = geo.quad_of(centre, 0.0, 0.35 * LENGTH, 0.6 * WIDTH)
                out.append(FaceReading(sliver, 0.99, ((Peak(0.28, 0.3, 0.0),), ()), 0.0, 0.5))
        return out

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    sliver = read_outlines(None, [geo.quad_of((600, 300), 0.0, LENGTH, WIDTH)], Profile())[0]
    assert count_pips(tile, Profile()).confidence < count_pips(sliver, Profile()).confidence < Profile().doubt_below
    table = [_sure(q, p) for q, p in zip(TABLE, PIPS)]
    now = reshape._reshaped(None, table + [face], Profile())[-1]
    if tile_sure:  # (at least ``candidate_confidence``)
        assert now is tile
    else:  # read almost without confidence, it is no surer a tile than the sliver
        assert now is not tile


def test_an_outline_askew_across_two_tiles_is_looked_at_along_its_nearest_sure_neighbour(monkeypatch):
    # a long thin outline at 35 degrees across the 300 tile's end and the 460 tile: its own axis tells nothing,
    # and only a look along the row (the axis of the 300 tile beside it) finds the 4-5
    def read_outlines(pyramid, quads, profile, floor=None):  # a tile is found only through an outline close to it
        out = []
        for q in quads:
            near = max(TABLE + [MISSED], key=lambda t: geo.iou(t, q))
            if geo.iou(near, q) > 0.7:
                pips = (4, 5) if near is MISSED else PIPS[[t is near for t in TABLE].index(True)]
                out.append(_sure(near, pips))
            else:
                out.append(FaceReading(q, 0.9, ((Peak(0.6, 0.3),), ()), 0.0, 1.0))
        return out

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    askew = FaceReading(geo.quad_of((440, 300), np.radians(35), 1.3 * LENGTH, 0.5 * WIDTH), 0.95,
                        (peaks(2, heats=(0.97, 0.6)), peaks(1)), 0.0, 1.0)
    faces = reshape._reshaped(None, _faces()[:-1] + [askew], Profile())
    assert np.allclose(faces[-1].corners, MISSED) and _count(faces[-1]) == (4, 5)


def _left_end() -> FaceReading:
    """The 460 tile's left half read as a face of its own, its pips in doubt."""
    return FaceReading(geo.quad_of((420, 300), 0.0, WIDTH, WIDTH), 0.95,
                       (peaks(4, heats=(0.97, 0.97, 0.97, 0.6)), peaks(1)), 0.0, 1.0)


def _bent(monkeypatch, stretch: float) -> np.ndarray:
    """A reader as ``_reader``'s that finds the 460 tile ``stretch`` times as long as the plane predicts (a steep
    view bends the prediction); that outline."""
    bent = geo.quad_of((460, 300), 0.0, stretch * LENGTH, WIDTH)
    reader = _reader()
    monkeypatch.setattr("companion.vision.read.read_outlines", lambda *args, **kwargs: [
        replace(f, corners=bent) if np.allclose(f.corners, MISSED) else f for f in reader(*args, **kwargs)])
    return bent


def test_a_tile_read_as_two_halves_is_read_whole_once(monkeypatch):
    # the 460 tile read apart: its left half with its pips in doubt, its right half surely (as the logo's
    # emblem is; its last look still moved, so it tells the plane nothing): a look through the plane's
    # outline finds the whole tile, which lies on the right half
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader())
    left = _left_end()
    right = _sure(geo.quad_of((500, 300), 0.0, WIDTH, WIDTH), (2, 0), moved=5.0)
    faces = reshape._reshaped(None, _faces()[:-1] + [left, right], Profile())
    assert len(faces) == len(TABLE) + 1
    assert np.allclose(faces[-1].corners, MISSED) and _count(faces[-1]) == (4, 5)
    # a face of a tile's shape under the look is no part of it: the look is refused, and both stay
    whole = _sure(geo.quad_of((540, 300), 0.0, LENGTH, WIDTH), (2, 0), moved=5.0)
    faces = reshape._reshaped(None, _faces()[:-1] + [left, whole], Profile())
    assert len(faces) == len(TABLE) + 2 and faces[-1] is whole
    # the whole look need not fit the plane's outline to gap_fit (a steep view bends the prediction): it fits far
    # better than the halves it takes in
    bent = _bent(monkeypatch, 1.3)  # an IoU of 1 / 1.3 with the outline predicted
    assert geo.iou(bent, MISSED) < Profile().gap_fit
    faces = reshape._reshaped(None, _faces()[:-1] + [left, right], Profile())
    assert len(faces) == len(TABLE) + 1 and np.allclose(faces[-1].corners, bent)


def test_a_part_read_less_surely_than_the_whole_look_gives_way_though_it_fits_nearly_as_well(monkeypatch):
    # a thick tile seen steeply (50171's 6-6): two thirds of it read as a face of their own, surely but less surely
    # than the look through the whole tile, which fits the plane barely better than that part (the plane's outline
    # is bent there): read less surely, the part is part of the tile all the same, and gives way to it
    bent, left = _bent(monkeypatch, 1.2), _left_end()
    part = FaceReading(geo.quad_of((465, 300), 0.0, 0.7 * LENGTH, WIDTH), 0.99,
                       (peaks(4, heats=(0.97, 0.97, 0.97, 0.8)), peaks(4)), 0.0, 0.5)
    look = _sure(bent, (4, 5))
    assert Profile().doubt_below <= count_pips(part, Profile()).confidence < count_pips(look, Profile()).confidence
    fit = common._fit_to(Plane(_judged(_faces()[:-1] + [left, part], Profile())[0]), Profile())
    assert fit(look) - Profile().fit_margin < fit(part) < Profile().gap_fit  # of no tile's shape, but no worse
    faces = reshape._reshaped(None, _faces()[:-1] + [left, part], Profile())
    assert len(faces) == len(TABLE) + 1 and np.allclose(faces[-1].corners, bent) and _count(faces[-1]) == (4, 5)
    # read as surely as the look, the part stands, and the look, lying on it, is refused
    sure_part = replace(part, peaks=look.peaks)
    faces = reshape._reshaped(None, _faces()[:-1] + [left, sure_part], Profile())
    assert len(faces) == len(TABLE) + 2 and faces[-1] is sure_part


def test_a_part_half_within_the_look_read_surely_gives_way_to_it(monkeypatch):
    # a double seen steeply (100236's 6-6): one half read as a tile with doubt, through an outline that strays off
    # the tile, so that a third of it lies beyond the look through the whole tile read surely; more than half of
    # it within that look, it is part of the tile all the same
    bent, left = _bent(monkeypatch, 1.2), _left_end()
    part = FaceReading(geo.quad_of((540, 300), 0.0, 0.7 * LENGTH, WIDTH), 0.99,
                       (peaks(4, heats=(0.97, 0.97, 0.97, 0.8)), peaks(4)), 0.0, 0.5)
    assert 0.5 < geo.inside(part.corners, bent) < 0.7
    faces = reshape._reshaped(None, _faces()[:-1] + [left, part], Profile())
    assert len(faces) == len(TABLE) + 1 and np.allclose(faces[-1].corners, bent) and _count(faces[-1]) == (4, 5)
    # less than half of it within, it is a tile of its own, and the look, lying on it, is refused
    faces = reshape._reshaped(None, _faces()[:-1] + [left, part], replace(Profile(), part_within=0.7))
    assert len(faces) == len(TABLE) + 2 and faces[-1] is part


SIDE_BY_SIDE = {(4, 5): _tile(460, 300), (6, 5): _tile(460, 380)}  # neither read by itself


def _reader_side_by_side(pyramid, quads, profile, floor=None):
    """A reader that finds a tile of ``SIDE_BY_SIDE`` from an outline near it, and otherwise reads across two."""
    out = []
    for q in quads:
        pips, near = min(SIDE_BY_SIDE.items(), key=lambda kv: np.linalg.norm(geo.centre_of(kv[1]) - geo.centre_of(q)))
        if np.linalg.norm(geo.centre_of(near) - geo.centre_of(q)) < 0.2 * LENGTH:
            out.append(_sure(near, pips))
        else:
            out.append(FaceReading(q, 0.9, ((Peak(0.6, 0.3),), ()), 0.0, 1.0))
    return out


def test_an_outline_across_two_tiles_side_by_side_finds_both(monkeypatch):
    # one face read across the 4-5 and the 6-5 beside it, its pips in doubt, one corner off: a look moved
    # across it takes its place, and the other tile's outline is handed on, where a look finds it once the faces
    # are settled
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader_side_by_side)
    quad = _tile(460, 340)
    quad[2] += (8.0, -14.0)
    across = FaceReading(quad, 0.95, (peaks(4, heats=(0.97, 0.97, 0.97, 0.6)), peaks(5)), 0.0, 1.0)
    beside: list[np.ndarray] = []
    faces = reshape._reshaped(None, _faces()[:-1] + [across], Profile(), beside)
    assert len(faces) == len(TABLE) + 1 and len(beside) == 1
    faces = missing._filled(None, faces, [], beside, Profile())
    assert sorted((_count(f), tuple(geo.centre_of(f.corners))) for f in faces[len(TABLE):]) == \
        [((4, 5), (460.0, 300.0)), ((6, 5), (460.0, 380.0))]
    # the 6-5 read already: no outline is handed on
    beside = []
    faces = reshape._reshaped(None, _faces()[:-1] + [_sure(SIDE_BY_SIDE[(6, 5)], (6, 5)), across], Profile(), beside)
    assert sorted(_count(f) for f in faces[len(TABLE):]) == [(4, 5), (6, 5)] and beside == []


def _unsettled_first(calls: list):
    """``_reader()`` whose looks through a new outline have not settled (their corners moved 15 pixels), and
    whose looks through the corners it found have; each call's outlines go to ``calls``."""
    reader = _reader()
    found: list[np.ndarray] = []

    def read_outlines(pyramid, quads, profile, floor=None):
        calls.append(quads)
        out = []
        for quad, face in zip(quads, reader(pyramid, quads, profile)):
            again = any(np.allclose(quad, corners) for corners in found)
            found.append(face.corners)
            out.append(face if again else replace(face, moved=15.0))
        return out

    return read_outlines


def test_a_look_whose_corners_still_moved_is_looked_at_once_more(monkeypatch):
    calls = []
    monkeypatch.setattr("companion.vision.read.read_outlines", _unsettled_first(calls))
    faces = reshape._reshaped(None, _faces(), Profile())
    assert np.allclose(faces[-1].corners, MISSED) and _count(faces[-1]) == (4, 5)
    assert any(np.allclose(quad, MISSED) for quads in calls for quad in quads)  # the look through what it found


def _recording(looked: list):
    """``_reader()``, each outline it is given going to ``looked``."""
    reader = _reader()

    def read_outlines(pyramid, quads, profile, floor=None):
        looked.extend(quads)
        return reader(pyramid, quads, profile)

    return read_outlines


def test_a_look_onto_a_tile_already_read_is_refused(monkeypatch):
    looked: list = []
    monkeypatch.setattr("companion.vision.read.read_outlines", _recording(looked))
    faces = _faces()
    faces.insert(-1, _sure(MISSED, (4, 5)))
    assert np.allclose(reshape._reshaped(None, faces, Profile())[-1].corners, _across_two().corners)
    # and it takes no look through a place on that tile (of a tile's shape there): the look would stay on it
    assert not any(geo.overlap(q, MISSED) > Profile().same_face_overlap for q in looked)


@pytest.mark.parametrize("profile", [Profile(settled_px=0.5), Profile(fit_margin=0.5)])
def test_a_look_that_has_not_settled_or_fits_no_better_is_refused(monkeypatch, profile):
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader(moved=1.0))
    assert np.allclose(reshape._reshaped(None, _faces(), profile)[-1].corners, _across_two().corners)


def test_a_tile_missing_from_the_gap_in_a_row_is_looked_for_there(monkeypatch):
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader())
    row = _faces()[:-1] + [_sure(_tile(620, 300), (6, 6))]  # 300 and 620: room for one
    filled = missing._filled(None, row, [], [], Profile())
    assert len(filled) == len(row) + 1 and np.allclose(filled[-1].corners, MISSED) and _count(filled[-1]) == (4, 5)
    assert len(missing._filled(None, row, [], [], Profile(gap_most=0))) == len(row)


def test_a_tile_found_beside_may_close_a_row_with_room_left(monkeypatch):
    # the 6-6 at 620 is found only through an outline handed on (beside); with the 300 tile it leaves room for
    # one in their row, where the next round of looks finds the 4-5
    far, reader = _tile(620, 300), _reader()

    def read_outlines(pyramid, quads, profile, floor=None):
        return [_sure(far, (6, 6)) if np.linalg.norm(geo.centre_of(q) - geo.centre_of(far)) < 0.2 * LENGTH else f
                for q, f in zip(quads, reader(pyramid, quads, profile))]

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    filled = missing._filled(None, _faces()[:-1], [], [far], Profile())
    assert sorted(_count(f) for f in filled[len(TABLE):]) == [(4, 5), (6, 6)]
    assert len(missing._filled(None, _faces()[:-1], [], [far], Profile(end_rounds=0))) == len(TABLE) + 1


def test_a_tile_in_a_gap_whose_corners_still_moved_is_looked_at_once_more(monkeypatch):
    calls = []
    monkeypatch.setattr("companion.vision.read.read_outlines", _unsettled_first(calls))
    row = _faces()[:-1] + [_sure(_tile(620, 300), (6, 6))]
    filled = missing._filled(None, row, [], [], Profile())
    assert len(filled) == len(row) + 1 and np.allclose(filled[-1].corners, MISSED) and len(calls) > 1


@pytest.mark.parametrize("seen", [
    FaceReading(np.zeros((4, 2)), 0.05, ((), ()), 0.0, 1.0),  # ground
    FaceReading(np.zeros((4, 2)), 0.96, ((Peak(0.6, 0.3),), ()), 0.0, 1.0),  # the sides of the tiles around it
])
def test_a_gap_that_shows_no_tile_read_surely_stays_empty(monkeypatch, seen):
    def look(pyramid, quads, profile, floor=None):
        return [FaceReading(q, seen.tile_score, seen.peaks, 0.0, 1.0) for q in quads]

    monkeypatch.setattr("companion.vision.read.read_outlines", look)
    row = _faces()[:-1] + [_sure(_tile(620, 300), (6, 6))]
    assert len(missing._filled(None, row, [], [], Profile())) == len(row)


def test_a_look_a_quarter_on_each_of_two_tiles_lies_on_them():
    a, c = _sure(_tile(300, 300), (1, 1)), _sure(_tile(460, 380), (2, 1))
    between = _sure(_tile(380, 340), (3, 1))  # a quarter of it on each
    assert common._on_another(between, -1, [a, c], Profile())
    assert not common._on_another(between, -1, [a], Profile())


def _staggered() -> tuple[FaceReading, FaceReading, FaceReading]:
    """Two tiles side by side, staggered by half a tile (a 3-4 and a 1-2 below it, half a tile on), and the face
    across them that reads the 4 of one and the 1 of the other as a tile of its own, more surely than either."""
    upper, lower = _sure(_tile(380, 300), (3, 4), 0.5), _sure(_tile(460, 380), (1, 2), 0.5)
    across = geo.quad_of((420, 340), np.pi / 2, LENGTH, WIDTH)
    first_in_upper = cv2.pointPolygonTest(upper.corners.astype(np.float32),
                                          tuple(map(float, geo.centre_of(common._halves(across)[0]))), False) > 0
    return upper, lower, _sure(across, (4, 1) if first_in_upper else (1, 4))


def test_a_face_across_two_staggered_tiles_gives_way_to_the_two():
    upper, lower, across = _staggered()
    found = common._staggered([across], [across, upper, lower], lambda face: 1.0, Profile())
    assert len(found) == 2 and found[0] is upper and found[1] is lower
    # looks that read other pips than the face's halves are other tiles: the face stays
    other = _sure(lower.corners, (5, 2), 0.5)
    assert common._staggered([across], [across, upper, other], lambda face: 1.0, Profile()) == [across]
    # and so it does where a look lies on another face found, or has no tile's shape there
    beside = _sure(_tile(560, 380), (6, 6))
    assert common._staggered([across, beside], [across, upper, lower], lambda face: 1.0, Profile())[0] is across
    shaped = lambda face: 0.5 if face is lower else 1.0  # noqa: E731
    assert common._staggered([across], [across, upper, lower], shaped, Profile()) == [across]


def test_a_look_read_surely_takes_the_place_of_the_pieces_of_its_tile_framed_apart():
    # the 460 tile framed as two pieces, each taken for a whole tile, their pips in doubt; seen from above, the
    # detector framed it whole, and the look there reads its 4-5 surely
    pieces = [FaceReading(geo.quad_of((440, 300), 0.0, 0.75 * LENGTH, WIDTH), 0.93, (peaks(2, 0.55), peaks(3, 0.55)),
                          0.0, 0.5),
              FaceReading(geo.quad_of((520, 300), 0.0, 0.25 * LENGTH, WIDTH), 0.89, (peaks(1, 0.55), ()), 0.0, 0.5)]
    assert all(count_pips(f, Profile()).confidence < Profile().doubt_below for f in pieces)
    look = _sure(MISSED, (4, 5))
    plane = Plane(TABLE)
    fit = lambda face: 1.0 if face is look else 0.5  # noqa: E731
    found = common._taken(_faces()[:-1] + pieces, [look], 0, plane, Profile(), fit, [True])
    assert len(found) == len(TABLE) + 1 and found[-1] is look and not any(f is p for f in found for p in pieces)
    # read with doubt, it takes the place of one face only
    doubtful = FaceReading(MISSED, 0.99, (peaks(4), peaks(5, heats=(0.97,) * 4 + (0.7,))), 0.0, 0.5)
    assert Profile().candidate_confidence <= count_pips(doubtful, Profile()).confidence < Profile().doubt_below
    fit_doubtful = lambda face: 1.0 if face is doubtful else 0.5  # noqa: E731
    assert common._taken(_faces()[:-1] + pieces, [doubtful], 0, plane, Profile(), fit_doubtful)[-2:] == pieces
    # nor does it where one of them is read surely
    sure = [pieces[0], _sure(pieces[1].corners, (0, 1))]
    assert common._taken(_faces()[:-1] + sure, [look], 0, plane, Profile(), fit, [True])[-2:] == sure


def test_a_place_on_pieces_of_a_tile_read_with_doubt_is_looked_through(monkeypatch):
    pieces = [FaceReading(geo.quad_of((440, 300), 0.0, 0.75 * LENGTH, WIDTH), 0.93, (peaks(2, 0.55), peaks(3, 0.55)),
                          0.0, 0.5),
              FaceReading(geo.quad_of((520, 300), 0.0, 0.25 * LENGTH, WIDTH), 0.89, (peaks(1, 0.55), ()), 0.0, 0.5)]
    looked = []

    def read_outlines(pyramid, quads, profile, floor=None):
        looked.extend(quads)
        return [_sure(MISSED, (4, 5)) for _ in quads]

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    plane = Plane(TABLE)
    found = missing._found_at(None, _faces()[:-1] + pieces, [MISSED], 0, plane, Profile(), [True])
    assert len(looked) == 1 and _count(found[-1]) == (4, 5) and len(found) == len(TABLE) + 1
    # where one of them is read surely, the look could take neither's place: none is taken
    looked.clear()
    sure = [pieces[0], _sure(pieces[1].corners, (0, 1))]
    assert missing._found_at(None, _faces()[:-1] + sure, [MISSED], 0, plane, Profile(), [True])[-2:] == sure
    assert not looked


def test_a_look_read_surely_takes_the_place_of_a_face_read_with_doubt_that_fits_as_well():
    # the 460 tile read with doubt through an outline a little askew; a look read surely fits the plane about as
    # well (the plane, told by few faces, cannot tell them apart)
    askew = FaceReading(MISSED + [[0, 0], [0, 0], [10, -12], [10, -12]], 0.99, (peaks(2, 0.55), peaks(5)), 0.0, 0.5)
    assert count_pips(askew, Profile()).confidence < Profile().doubt_below
    look = _sure(MISSED, (4, 5))
    plane = Plane(TABLE)
    for askew_fit, taken in ((0.88, True), (0.98, False)):  # (fitting better by the margin, it stays)
        fit = lambda face: 0.87 if face is look else askew_fit  # noqa: E731
        found = common._taken(_faces()[:-1] + [askew], [look], 0, plane, Profile(), fit, [True])
        assert (found[-1] is look) == taken and len(found) == len(TABLE) + 1
    # a face read surely keeps its place, and a look read with doubt takes none
    held = _sure(askew.corners, (2, 5))
    fit = lambda face: 0.87 if face is look else 0.88  # noqa: E731
    assert common._taken(_faces()[:-1] + [held], [look], 0, plane, Profile(), fit, [True])[-1] is held
    doubtful = FaceReading(MISSED, 0.99, (peaks(4), peaks(5, heats=(0.97,) * 4 + (0.7,))), 0.0, 0.5)
    fit = lambda face: 0.87 if face is doubtful else 0.88  # noqa: E731
    assert common._taken(_faces()[:-1] + [askew], [doubtful], 0, plane, Profile(), fit)[-1] is askew


def test_a_look_read_surely_and_of_a_tiles_shape_takes_the_place_of_a_face_of_none_read_more_surely():
    # a blank end of the 460 tile read as a whole 0-0, more surely than a look reads the tile (101112); so too the
    # logo read on part of a tile (101146): of no tile's shape there, it gives way, as it would in _reshaped
    sliver = _sure(geo.quad_of((500, 300), 0.0, WIDTH, 0.8 * WIDTH), (0, 0))
    look = FaceReading(MISSED, 0.99, (peaks(4, 0.8), peaks(5, 0.8)), 0.0, 0.5)
    assert Profile().doubt_below <= count_pips(look, Profile()).confidence < count_pips(sliver, Profile()).confidence
    plane = Plane(TABLE)
    for sliver_fit, taken in ((0.5, True), (0.84, False)):  # (of a tile's shape, the surer face stays)
        fit = lambda face: 0.95 if face is look else sliver_fit  # noqa: E731
        found = common._taken(_faces()[:-1] + [sliver], [look], 0, plane, Profile(), fit)
        assert (found[-1] is look) == taken and len(found) == len(TABLE) + 1
    # a look read with doubt takes no such place
    doubtful = FaceReading(MISSED, 0.99, (peaks(4, 0.7), peaks(5, 0.7)), 0.0, 0.5)
    fit = lambda face: 0.95 if face is doubtful else 0.5  # noqa: E731
    assert common._taken(_faces()[:-1] + [sliver], [doubtful], 0, plane, Profile(), fit)[-1] is sliver


def test_a_look_read_surely_takes_the_place_of_a_face_read_as_a_tile_another_face_holds():
    # an outline across the end of the 300 tile (the 2-2) and most of the 460 one, read as the 2-2 surely and of a
    # tile's shape (100340): read as a tile another face holds, it is read with doubt, and the look at the 460 tile,
    # fitting no worse by the margin, takes its place
    across = FaceReading(_tile(420, 300), 0.99, (peaks(2, 0.8), peaks(2, 0.8)), 0.0, 0.5)
    look = _sure(MISSED, (4, 5))
    assert Profile().doubt_below <= count_pips(across, Profile()).confidence < count_pips(look, Profile()).confidence
    plane = Plane(TABLE)
    fit = lambda face: 0.95 if face is look else 0.9  # noqa: E731
    found = common._taken(_faces()[:-1] + [across], [look], 0, plane, Profile(), fit)
    assert found[-1] is look and len(found) == len(TABLE) + 1
    # read as a tile no other face holds, it keeps its place
    alone = replace(across, peaks=(peaks(6, 0.8), peaks(6, 0.8)))
    assert common._taken(_faces()[:-1] + [alone], [look], 0, plane, Profile(), fit)[-1] is alone

def test_a_candidate_whose_looks_went_to_a_neighbour_is_looked_at_through_the_plane(monkeypatch):
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader())
    faces = _faces()[:-1]
    # the detector's frame of the 460 tile, loose and turned a little: its own looks found the 300 tile
    orphan = geo.quad_of((470, 290), 0.1, 1.4 * LENGTH, 1.3 * WIDTH)
    filled = missing._filled(None, faces, [orphan], [], Profile())
    assert len(filled) == len(faces) + 1 and np.allclose(filled[-1].corners, MISSED) and _count(filled[-1]) == (4, 5)


def test_a_candidate_centred_off_its_tile_is_looked_at_a_quarter_tile_either_way(monkeypatch):
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader())
    faces = _faces()[:-1]
    orphan = geo.quad_of((460 + 0.3 * LENGTH, 300), 0.0, LENGTH, WIDTH)  # its centre toward the next tile
    filled = missing._filled(None, faces, [orphan], [], Profile())
    assert len(filled) == len(faces) + 1 and np.allclose(filled[-1].corners, MISSED) and _count(filled[-1]) == (4, 5)


def _unread(x: float, y: float) -> tuple[np.ndarray, float, float, float]:
    """A candidate's frame (its looks went to a neighbour)."""
    return np.array([x, y]), 0.0, LENGTH, WIDTH


def test_a_candidate_left_unread_off_the_centre_of_the_face_it_lies_on_names_the_place_beyond_it():
    faces = _faces()[:-1]
    # centred between the 300 tile and the 460 one (the detector saw the two as one): one length beyond
    alone, beside = missing._orphans([_unread(380, 300)], [None], faces, PHOTO, Profile())
    assert alone == [] and len(beside) == 1 and np.allclose(beside[0], MISSED)
    # between the 600 tile and one side by side with it below: one width beside it (and, off the middle
    # between them, where the 600 tile's centre mirrored through the candidate's falls)
    alone, beside = missing._orphans([_unread(600, 100 + 0.3 * WIDTH)], [None], faces, PHOTO, Profile())
    assert alone == [] and len(beside) == 2 and np.allclose(beside[0], _tile(600, 100 + WIDTH))
    assert np.allclose(beside[1], _tile(600, 100 + 0.6 * WIDTH))
    # near the face's centre, or read, it names nothing; on no face, its own outline
    assert missing._orphans([_unread(310, 305)], [None], faces, PHOTO, Profile()) == ([], [])
    assert missing._orphans([_unread(380, 300)], [faces[3]], faces, PHOTO, Profile()) == ([], [])
    assert missing._orphans([_unread(380, 300)], [None], faces, PHOTO, Profile(beside_offset=0.6)) == ([], [])
    alone, beside = missing._orphans([_unread(800, 500)], [None], faces, PHOTO, Profile())
    assert len(alone) == 1 and beside == [] and np.allclose(geo.centre_of(alone[0]), (800, 500))
    # on no face, but on the seam just beside the 600 tile (within a quarter of a width): one width beside it,
    # besides its own outline (the detector split the two tiles across them)
    alone, beside = missing._orphans([_unread(600, 100 + 0.6 * WIDTH)], [None], faces, PHOTO, Profile())
    assert len(alone) == 1 and len(beside) == 1 and np.allclose(beside[0], _tile(600, 100 + WIDTH))
    alone, beside = missing._orphans([_unread(600, 100 + 0.9 * WIDTH)], [None], faces, PHOTO, Profile())
    assert len(alone) == 1 and beside == []


def test_a_tile_staggered_beside_the_face_the_candidate_lay_on_is_found_where_its_centre_mirrors(monkeypatch):
    staggered = _tile(600 + 0.4 * LENGTH, 100 + WIDTH)  # below the 600 tile, shifted along by 0.4 lengths
    faces = _faces()[:-1]
    frame = _unread(600 + 0.2 * LENGTH, 100 + 0.5 * WIDTH)  # the detector's centre between the two
    alone, beside = missing._orphans([frame], [None], faces, PHOTO, Profile())
    assert alone == [] and len(beside) == 2 and np.allclose(beside[1], staggered)

    def read_outlines(pyramid, quads, profile, floor=None):  # finds it only from a look near it
        return [_sure(staggered, (6, 0)) if np.linalg.norm(geo.centre_of(q) - geo.centre_of(staggered)) < 0.2 * LENGTH
                else FaceReading(q, 0.05, ((), ()), 0.0, 1.0) for q in quads]

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    filled = missing._filled(None, faces, alone, beside, Profile())
    assert len(filled) == len(faces) + 1 and np.allclose(filled[-1].corners, staggered)
    assert len(missing._filled(None, faces, alone, beside[:1], Profile())) == len(faces)


def test_a_tile_the_detector_saw_as_one_with_its_neighbour_is_found_beside_it(monkeypatch):
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader())
    faces = _faces()[:-1]
    orphans = missing._orphans([_unread(380, 300)], [None], faces, PHOTO, Profile())
    filled = missing._filled(None, faces, *orphans, Profile())
    assert len(filled) == len(faces) + 1 and np.allclose(filled[-1].corners, MISSED) and _count(filled[-1]) == (4, 5)
    assert len(missing._filled(None, faces, [], [], Profile())) == len(faces)


def test_where_the_detector_saw_a_tile_a_look_read_with_doubt_is_kept_but_not_in_a_gap(monkeypatch):
    def doubtful(pyramid, quads, profile, floor=None):  # every look finds the 460 tile, its pips in doubt
        return [FaceReading(MISSED, 0.9, (peaks(4), peaks(4) + (Peak(0.3, 0.3),)),
                            0.0, 1.0) for _ in quads]

    monkeypatch.setattr("companion.vision.read.read_outlines", doubtful)
    confidence = count_pips(doubtful(None, [MISSED], None)[0], Profile()).confidence
    assert Profile().candidate_confidence <= confidence < Profile().doubt_below
    faces = _faces()[:-1]
    orphan = geo.quad_of((470, 290), 0.1, 1.4 * LENGTH, 1.3 * WIDTH)
    assert np.allclose(missing._filled(None, faces, [orphan], [], Profile())[-1].corners, MISSED)
    assert len(missing._filled(None, faces, [orphan], [], Profile(candidate_confidence=0.5))) == len(faces)
    row = faces + [_sure(_tile(620, 300), (6, 6))]  # a gap at 460, and no candidate there
    assert len(missing._filled(None, row, [], [], Profile())) == len(row)
    # unless the reader is as sure it is a whole tile as ``guess_tile_sure``: then it is kept, read with doubt
    filled = missing._filled(None, row, [], [], Profile(guess_tile_sure=0.85))
    assert len(filled) == len(row) + 1 and np.allclose(filled[-1].corners, MISSED)


def test_a_face_across_two_tiles_gives_way_to_a_look_that_fits_a_tile(monkeypatch):
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader())
    straddle = _across_two()  # (in doubt, but suppose the moved looks had not found the 460 tile)
    faces = _faces()[:-1] + [straddle]
    orphan = geo.quad_of((470, 300), 0.0, LENGTH, WIDTH)
    filled = missing._filled(None, faces, [orphan], [], Profile())
    assert len(filled) == len(faces) and np.allclose(filled[-1].corners, MISSED) and _count(filled[-1]) == (4, 5)
    # a face that fits a tile as well as the look does is kept: the look lies on it
    kept = missing._filled(None, faces, [orphan], [], Profile(fit_margin=0.9))
    assert np.allclose(kept[-1].corners, straddle.corners)


def test_a_candidate_left_unread_for_a_neighbours_first_look_is_read_after_all(monkeypatch):
    from companion.vision import read

    a, b = _tile(300, 300), _tile(460, 300)
    frames = [(geo.centre_of(q), 0.0, LENGTH, WIDTH) for q in (a, b, b, a)]
    calls = []

    def read_frames(pyramid, frames, which, profile, out):
        calls.append(sorted(which))
        if len(calls) == 1:  # the first look at frame 0 took in the 460 tile too; 1, 2 and 3 were left unread
            out[0] = _sure(a, (2, 2))
        else:  # read again, frame 1 finds the 460 tile and frame 2 the 300 tile once more
            out[1], out[2] = _sure(b, (4, 5)), _sure(a + 3.0, (2, 2))

    monkeypatch.setattr(read, "_read_frames", read_frames)
    out = read.read_faces(None, frames, Profile())
    assert calls == [[0, 1, 2, 3], [1, 2]]  # frame 3 lies on the face read: not read again
    assert np.allclose(out[0].corners, a) and np.allclose(out[1].corners, b) and out[2] is None and out[3] is None


def test_the_tile_where_a_line_turns_is_looked_for_there(monkeypatch):
    row = [_sure(_tile(140, 300), (1, 1)), _sure(_tile(300, 300), (2, 1))]
    arm = _sure(geo.quad_of((420, 180), np.pi / 2, LENGTH, WIDTH), (6, 5))  # leaves from MISSED's side

    def read_outlines(pyramid, quads, profile, floor=None):  # finds MISSED from a look near it, else ground
        return [_sure(MISSED, (4, 5)) if np.linalg.norm(geo.centre_of(q) - geo.centre_of(MISSED)) < 0.2 * LENGTH
                else FaceReading(q, 0.05, ((), ()), 0.0, 1.0) for q in quads]

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    filled = missing._filled(None, row + [arm], [], [], Profile(end_touch=0.15))
    assert len(filled) == 4 and np.allclose(filled[-1].corners, MISSED) and _count(filled[-1]) == (4, 5)
    assert len(missing._filled(None, row + [arm], [], [], Profile(end_touch=0.0))) == 3


def test_where_the_detector_saw_a_tile_a_look_of_a_looser_shape_is_kept(monkeypatch):
    stretched = geo.quad_of((460, 300), 0.0, LENGTH, 1.4 * WIDTH)  # read too wide: it fits the plane's 0.7
    monkeypatch.setattr("companion.vision.read.read_outlines", lambda pyramid, quads, profile, floor=None: [
        _sure(stretched, (4, 5)) for _ in quads])
    faces = _faces()[:-1]
    orphan = geo.quad_of((470, 290), 0.1, 1.4 * LENGTH, 1.3 * WIDTH)
    assert len(missing._filled(None, faces, [orphan], [], Profile(candidate_fit=0.6))) == len(faces) + 1
    assert len(missing._filled(None, faces, [orphan], [], Profile(candidate_fit=0.8))) == len(faces)
    row = faces + [_sure(_tile(620, 300), (6, 6))]  # a gap at 460, and no candidate there: gap_fit holds
    assert len(missing._filled(None, row, [], [], Profile(candidate_fit=0.6))) == len(row)


def _logo(quad: np.ndarray, moved: float = 1.0) -> FaceReading:
    return FaceReading(quad, 0.99, ((), ()), 0.99, moved)


def test_the_logo_read_as_its_emblem_alone_is_looked_at_through_the_whole_tile(monkeypatch):
    emblem = geo.quad_of((500, 300), 0.0, 0.5 * LENGTH, WIDTH)  # the 460 tile's far half, sure of the logo
    looked = []

    def read_outlines(pyramid, quads, profile, floor=None):  # sees the logo tile from a look near it
        looked.extend(quads)
        return [_logo(MISSED) if np.linalg.norm(geo.centre_of(q) - geo.centre_of(MISSED)) < 0.2 * LENGTH
                else FaceReading(q, 0.05, ((), ()), 0.0, 1.0) for q in quads]

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    faces = [_sure(q, p) for q, p in zip(TABLE, PIPS)] + [_logo(emblem)]
    assert count_pips(faces[-1], Profile()).confidence > Profile().doubt_below
    assert np.allclose(reshape._reshaped(None, faces, Profile())[-1].corners, MISSED)
    # a set without a logo has no emblem to mistake; a logo face of a tile's shape is not looked at again
    assert np.allclose(reshape._reshaped(None, faces, Profile(logo=False))[-1].corners, emblem)
    looked.clear()
    reshape._reshaped(None, [_sure(q, p) for q, p in zip(TABLE, PIPS)] + [_logo(MISSED)], Profile())
    assert looked == []


def test_a_face_whose_pips_are_in_doubt_casts_no_doubt_on_a_face_read_surely_as_the_same_tile():
    # a set holds each tile once: two faces read surely as the 1-0 are both in doubt; but a face whose pips
    # are in doubt (a faint second pip, a junction read across) read 1-0 too leaves the sure one sure
    sure, faint = _sure(_tile(200, 100), (1, 0)), FaceReading(_tile(600, 100), 0.98,
                                                               (peaks(1), peaks(1, heats=(0.3,))), 0.0, 0.5)
    assert count_pips(faint, Profile()).pips in ((1, 0), (0, 1))
    assert count_pips(faint, Profile()).confidence < Profile().doubt_below
    _, doubtful, unsure_pips = _judged([sure, faint], Profile())
    assert doubtful == [1] and unsure_pips == {1}
    _, doubtful, _ = _judged([sure, _sure(_tile(600, 100), (0, 1))], Profile())
    assert doubtful == [0, 1]


def test_the_logo_read_as_its_emblem_alone_with_doubt_is_looked_at_through_the_whole_tile_too(monkeypatch):
    emblem = geo.quad_of((500, 300), 0.0, 0.5 * LENGTH, WIDTH)
    plank = FaceReading(_tile(1000, 500), 0.9, ((), ()), 0.0, 1.0)  # a bare plank read 0-0 too: both in doubt
    monkeypatch.setattr("companion.vision.read.read_outlines", lambda pyramid, quads, profile, floor=None: [
        _logo(MISSED) if np.linalg.norm(geo.centre_of(q) - geo.centre_of(MISSED)) < 0.2 * LENGTH
        else FaceReading(q, 0.05, ((), ()), 0.0, 1.0) for q in quads])
    faces = [_sure(q, p) for q, p in zip(TABLE, PIPS)] + [_logo(emblem), plank]
    assert 4 in _judged(faces, Profile())[1]  # (the emblem is read with doubt)
    assert np.allclose(reshape._reshaped(None, faces, Profile())[4].corners, MISSED)


def test_the_logo_read_as_its_emblem_alone_and_turned_is_looked_at_along_its_neighbour(monkeypatch):
    emblem = geo.quad_of((500, 300), np.pi / 2, 0.5 * LENGTH, WIDTH)  # its axis read across the tile's

    def read_outlines(pyramid, quads, profile, floor=None):  # sees the logo tile only from a look along it
        return [_logo(MISSED) if np.linalg.norm(geo.centre_of(q) - geo.centre_of(MISSED)) < 0.2 * LENGTH
                and abs(np.cos(geo.frame_of(q)[1])) > 0.9 else FaceReading(q, 0.05, ((), ()), 0.0, 1.0) for q in quads]

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    faces = [_sure(q, p) for q, p in zip(TABLE, PIPS)] + [_logo(emblem)]
    assert np.allclose(reshape._reshaped(None, faces, Profile())[-1].corners, MISSED)


def test_a_look_at_the_logo_that_sees_a_tile_with_pips_is_refused(monkeypatch):
    emblem = geo.quad_of((500, 300), 0.0, 0.5 * LENGTH, WIDTH)
    monkeypatch.setattr("companion.vision.read.read_outlines", lambda pyramid, quads, profile, floor=None: [
        _sure(MISSED, (4, 5)) for _ in quads])
    faces = [_sure(q, p) for q, p in zip(TABLE, PIPS)] + [_logo(emblem)]
    assert np.allclose(reshape._reshaped(None, faces, Profile())[-1].corners, emblem)


def test_a_face_read_as_the_logo_less_surely_gives_way_to_a_tile_read_surely_through_the_outline(monkeypatch):
    # an outline across the logo's emblem and the next tile's half, read as the logo less surely than the logo
    # tile is read: the look through the outline the plane predicts reads the 4-5 surely, and takes its place
    emblem = geo.quad_of((500, 300), 0.0, 0.5 * LENGTH, WIDTH)
    monkeypatch.setattr("companion.vision.read.read_outlines", lambda pyramid, quads, profile, floor=None: [
        _sure(MISSED, (4, 5)) for _ in quads])
    unsure = replace(_logo(emblem), logo_score=0.9)
    assert Profile().logo_threshold <= 0.9 < Profile().logo_sure
    faces = reshape._reshaped(None, [_sure(q, p) for q, p in zip(TABLE, PIPS)] + [unsure], Profile())
    assert np.allclose(faces[-1].corners, MISSED) and _count(faces[-1]) == (4, 5)


def test_a_line_is_followed_past_the_tiles_found_at_its_end(monkeypatch):
    row = [_sure(_tile(140, 300), (3, 3)), _sure(_tile(300, 300), (6, 1))]
    beyond = [MISSED, _tile(620, 300), _tile(780, 300)]  # three more tiles in the row, none found

    def read_outlines(pyramid, quads, profile, floor=None):  # finds a tile from a look near it, else ground
        out = []
        for q in quads:
            near = [n for n, t in enumerate(beyond)
                    if np.linalg.norm(geo.centre_of(t) - geo.centre_of(q)) < 0.2 * LENGTH]
            out.append(_sure(beyond[near[0]], (4, near[0])) if near else FaceReading(q, 0.05, ((), ()), 0.0, 1.0))
        return out

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    faces = [_sure(q, p) for q, p in zip(TABLE[:2], PIPS[:2])] + row  # (the plane needs sure faces around)
    for rounds, more in ((0, 1), (1, 2), (3, 3)):
        filled = missing._filled(None, faces, [], [], Profile(end_rounds=rounds))
        assert len(filled) == len(faces) + more
        assert all(any(np.allclose(f.corners, t) for f in filled) for t in beyond[:more])


def test_a_double_read_across_two_tiles_of_a_line_gives_way_to_them(monkeypatch):
    # a line along y = 500: 1-3, 3-5, 5-2, 2-6 end to end; an outline across the 5-2 and the 2-6 reads 2-2
    line = {x: _tile(x, 500) for x in (100, 260, 420, 580)}
    pips = {100: (1, 3), 260: (3, 5), 420: (5, 2), 580: (2, 6)}
    straddle = FaceReading(_tile(500, 500), 0.99, (peaks(2), peaks(2)), 0.0, 0.5)
    looked = []

    def read_outlines(pyramid, quads, profile, floor=None):  # a look near a tile finds it
        looked.extend(quads)
        out = []
        for q in quads:
            x = min(line, key=lambda x: abs(geo.centre_of(q)[0] - x))
            out.append(_sure(line[x], pips[x]))
        return out

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    faces = [_sure(line[100], pips[100]), _sure(line[260], pips[260]), straddle]
    found = splits._unstraddled(None, faces, Profile(), [])
    assert sorted(_count(f) for f in found) == [(1, 3), (2, 6), (3, 5), (5, 2)] and len(looked) == 2

    # a real double with its neighbours found against its ends, or one beside a tile that is in no line
    # (a set laid out in rows, apart), is not looked at
    looked.clear()
    double = [_sure(line[260], (3, 5)), _sure(line[420], (5, 5)), _sure(line[580], (5, 6)), _sure(line[100], (1, 3))]
    assert splits._unstraddled(None, double, Profile(), []) == double
    apart = [_sure(_tile(260, 500), (3, 5)), FaceReading(_tile(500, 500), 0.99, (peaks(2), peaks(2)), 0.0, 0.5)]
    assert splits._unstraddled(None, apart, Profile(), []) == apart and not looked


def test_a_face_of_unlike_halves_across_two_tiles_pushed_together_gives_way_only_to_both(monkeypatch):
    # tiles pushed together end to end (a crowd, not a line of play) meet at any halves: 1-3, 3-5, 6-4, 1-2 along
    # y = 500; an outline across the 6-4 and the 1-2 reads 4-1
    line = {x: _tile(x, 500) for x in (100, 260, 420, 580)}
    pips = {100: (1, 3), 260: (3, 5), 420: (6, 4), 580: (1, 2)}
    straddle = _sure(_tile(500, 500), (4, 1))
    found_at = dict(line)

    def read_outlines(pyramid, quads, profile, floor=None):  # a look near a tile found finds it; elsewhere none
        out = []
        for q in quads:
            x = min(line, key=lambda x: abs(geo.centre_of(q)[0] - x))
            out.append(_sure(line[x], pips[x]) if x in found_at else FaceReading(q, 0.05, ((), ()), 0.0, 1.0))
        return out

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    faces = [_sure(line[100], pips[100]), _sure(line[260], pips[260]), straddle]
    found = splits._unstraddled(None, faces, Profile(), [])
    assert sorted(_count(f) for f in found) == [(1, 2), (1, 3), (3, 5), (6, 4)]
    # one look finds a tile, the other the bare ground (half a tile along a true tile): the face stays
    del found_at[580]
    assert splits._unstraddled(None, faces, Profile(), []) == faces


def test_a_double_read_across_two_tiles_half_a_tile_short_of_a_line_that_turns_at_a_crosswise_double(monkeypatch):
    # the line of the test above, begun at a 3-3 laid crosswise against the 3-5's end: the 3-5 touches no tile end
    # to end, but it is a line of play all the same
    line = {x: _tile(x, 500) for x in (260, 420, 580)}
    pips = {260: (3, 5), 420: (5, 2), 580: (2, 6)}

    def read_outlines(pyramid, quads, profile, floor=None):  # a look near a tile finds it
        return [_sure(line[x], pips[x]) for x in (min(line, key=lambda x: abs(geo.centre_of(q)[0] - x))
                                                 for q in quads)]

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    double = _sure(geo.quad_of((140, 500), np.pi / 2, LENGTH, WIDTH), (3, 3))
    straddle = FaceReading(_tile(500, 500), 0.99, (peaks(2), peaks(2)), 0.0, 0.5)
    faces = [double, _sure(line[260], pips[260]), straddle]
    found = splits._unstraddled(None, faces, Profile(), [])
    assert sorted(_count(f) for f in found) == [(2, 6), (3, 3), (3, 5), (5, 2)]
    # a double laid along the line, off the 3-5's end by as much, does not make a line
    apart = [_sure(_tile(140, 500), (3, 3)), *faces[1:]]
    assert splits._unstraddled(None, apart, Profile(), []) == apart


def test_of_the_two_tiles_a_double_lay_across_one_read_surely_lets_the_other_be_read_with_doubt(monkeypatch):
    # the line of the first of these tests; the look at the 2-6 reads its six with doubt (far off, small in the photo)
    line = {x: _tile(x, 500) for x in (100, 260, 420, 580)}
    doubtful = (peaks(2), peaks(6, heats=(0.97,) * 5 + (0.7,)))
    assert Profile().candidate_confidence <= count_pips(FaceReading(line[580], 0.99, doubtful, 0.0, 0.5),
                                                        Profile()).confidence < Profile().doubt_below

    def reader(sure_52: bool):
        def read_outlines(pyramid, quads, profile, floor=None):
            out = []
            for q in quads:
                x = min(line, key=lambda x: abs(geo.centre_of(q)[0] - x))
                out.append(FaceReading(line[x], 0.99, doubtful, 0.0, 0.5) if x == 580
                           else _sure(line[x], (5, 2)) if sure_52
                           else FaceReading(line[x], 0.99, (peaks(5, heats=(0.97,) * 4 + (0.7,)), peaks(2)), 0.0, 0.5))
            return out
        return read_outlines

    straddle = FaceReading(_tile(500, 500), 0.99, (peaks(2), peaks(2)), 0.0, 0.5)
    faces = [_sure(line[100], (1, 3)), _sure(line[260], (3, 5)), straddle]
    monkeypatch.setattr("companion.vision.read.read_outlines", reader(sure_52=True))
    found = splits._unstraddled(None, faces, Profile(), [])
    assert sorted(_count(f) for f in found) == [(1, 3), (2, 6), (3, 5), (5, 2)]
    # with both read with doubt, the double stays
    monkeypatch.setattr("companion.vision.read.read_outlines", reader(sure_52=False))
    assert splits._unstraddled(None, faces, Profile(), []) == faces


def test_a_line_read_half_a_tile_off_gives_way_straddle_by_straddle(monkeypatch):
    # 1-3, 3-5 read; then 5-2, 2-6, 6-4 end to end, read as 2-2 (across 5-2 and 2-6) and 6-6 (across 2-6
    # and 6-4). The 2-6 lies under the 6-6 until the 2-2 has given way, so the 6-6 gives way a round later.
    line = {x: _tile(x, 500) for x in (100, 260, 420, 580, 740)}
    pips = {100: (1, 3), 260: (3, 5), 420: (5, 2), 580: (2, 6), 740: (6, 4)}
    looked = []

    def read_outlines(pyramid, quads, profile, floor=None):
        looked.extend(quads)
        return [_sure(line[x], pips[x]) for x in (min(line, key=lambda x: abs(geo.centre_of(q)[0] - x))
                                                 for q in quads)]

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    straddles = [FaceReading(_tile(x, 500), 0.99, (peaks(n), peaks(n)), 0.0, 0.5) for x, n in ((500, 2), (660, 6))]
    faces = [_sure(line[100], pips[100]), _sure(line[260], pips[260]), *straddles]
    found = splits._unstraddled(None, faces, Profile(), [])
    assert sorted(_count(f) for f in found) == [(1, 3), (2, 6), (3, 5), (5, 2), (6, 4)]
    # two looks a straddle, each straddle once, and two along the 3-5: the 2-2 lies one and a half lengths off it
    # and touches the 6-6 (it may have been the straddle)
    assert len(looked) == 6
    looked.clear()
    assert len(splits._unstraddled(None, faces, Profile(straddle_rounds=1), [])) == 4 and len(looked) == 4


def test_a_face_read_across_a_wrong_junction_before_a_crosswise_double_gives_way(monkeypatch):
    # a line along y = 500: 3-2, 1-5 (a wrong junction, 2 against 1), a 5-5 laid crosswise, 5-0. An outline
    # across the 3-2 and the 1-5 reads 2-1, no double; it ends half a tile short of the crosswise double.
    line = {100: _tile(100, 500), 260: _tile(260, 500), 500: _tile(500, 500)}
    pips = {100: (3, 2), 260: (1, 5), 500: (5, 0)}
    double = _sure(geo.quad_of((380, 500), np.pi / 2, LENGTH, WIDTH), (5, 5))
    looked = []

    def read_outlines(pyramid, quads, profile, floor=None):  # a look near a tile finds it
        looked.extend(quads)
        return [_sure(line[x], pips[x]) for x in (min(line, key=lambda x: abs(geo.centre_of(q)[0] - x))
                                                 for q in quads)]

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    straddle = FaceReading(_tile(180, 500), 0.99, (peaks(2), peaks(1)), 0.0, 0.5)
    faces = [straddle, double, _sure(line[500], pips[500])]
    found = splits._unstraddled(None, faces, Profile(), [])
    assert sorted(_count(f) for f in found) == [(1, 5), (3, 2), (5, 0), (5, 5)] and len(looked) == 2

    # with no tile beyond the double (not a line), or the face against the double's side, no look
    looked.clear()
    assert splits._unstraddled(None, faces[:2], Profile(), []) == faces[:2]
    against = [_sure(_tile(260, 500), (1, 5)), double, _sure(line[500], pips[500])]
    assert splits._unstraddled(None, against, Profile(), []) == against and not looked


def test_a_face_read_across_a_junction_far_off_in_a_steep_view_is_judged_on_the_table(monkeypatch):
    # the line of the test above, seen at 45 degrees, its far end away from the camera: there the straddle is
    # shorter than the tiles nearer, and the double and the 5-0 lie 1.40 and 2.41 of its lengths off in the photo
    # (on the table 1.25 and 2); two more tiles, off the line, tell the table's plane
    camera = _camera(45)
    line = {30: _seen(0, 30, 90, view=camera), 10: _seen(0, 10, 90, view=camera), -20: _seen(0, -20, 90, view=camera)}
    pips = {30: (3, 2), 10: (1, 5), -20: (5, 0)}
    looked = []

    def read_outlines(pyramid, quads, profile, floor=None):  # a look near a tile finds it
        looked.extend(quads)
        return [_sure(line[y], pips[y]) for y in (min(line, key=lambda y: np.linalg.norm(
            geo.centre_of(line[y]) - geo.centre_of(q))) for q in quads)]

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    straddle = FaceReading(_seen(0, 20, 90, view=camera), 0.99, (peaks(2), peaks(1)), 0.0, 0.5)
    double = _sure(_seen(0, -5, 0, view=camera), (5, 5))
    aside = [_sure(_seen(40, -30, 0, view=camera), (6, 6)), _sure(_seen(-40, 0, 30, view=camera), (4, 4))]
    faces = [straddle, double, _sure(line[-20], pips[-20]), *aside]
    found = splits._unstraddled(None, faces, Profile(), [])
    assert sorted(_count(f) for f in found) == [(1, 5), (3, 2), (4, 4), (5, 0), (5, 5), (6, 6)] and len(looked) == 2
    # seen from less steeply than ``above_deg``, the photo's own lengths judge: the double lies too far off
    looked.clear()
    assert splits._unstraddled(None, faces, Profile(above_deg=50.0), []) == faces and not looked


LEFT, RIGHT = geo.quad_of((260, 300), np.pi / 2, LENGTH, WIDTH), geo.quad_of((340, 300), np.pi / 2, LENGTH, WIDTH)
TOP, BOTTOM = _tile(300, 260), _tile(300, 340)  # the square LEFT and RIGHT make, split the other way
ELSEWHERE = _tile(800, 300)


def _square_reader(left_pips: tuple[int, int] = (6, 5)):
    """A reader that finds LEFT (a 6-5) and RIGHT (a 5-3) through an outline near either."""
    def read_outlines(pyramid, quads, profile, floor=None):
        out = []
        for q in quads:
            near = min((LEFT, RIGHT), key=lambda t: np.linalg.norm(geo.centre_of(t) - geo.centre_of(q)))
            if np.linalg.norm(geo.centre_of(near) - geo.centre_of(q)) < 0.2 * LENGTH:
                out.append(_sure(near, left_pips if near is LEFT else (5, 3)))
            else:
                out.append(FaceReading(q, 0.1, ((), ()), 0.0, 1.0))
        return out

    return read_outlines


def test_two_tiles_side_by_side_read_across_as_a_tile_read_twice_are_read_the_other_way(monkeypatch):
    # the square of a 6-5 and a 5-3 side by side read across them, as a 5-5 and a 6-3, and a 6-3 elsewhere: a
    # tile read twice gives way to two tiles read nowhere else
    monkeypatch.setattr("companion.vision.read.read_outlines", _square_reader())
    faces = [_sure(TOP, (5, 5)), _sure(BOTTOM, (6, 3)), _sure(ELSEWHERE, (6, 3))]
    resplit = splits._resplit(SOURCE, faces, Profile())
    assert sorted(_count(f) for f in resplit) == [(5, 3), (6, 3), (6, 5)]
    assert any(np.allclose(f.corners, LEFT) for f in resplit) and any(np.allclose(f.corners, RIGHT) for f in resplit)
    # read once each, the two faces across stand
    assert _same(splits._resplit(SOURCE, faces[:2], Profile()), faces[:2])
    # ... as they do where the other way reads a tile already read elsewhere
    monkeypatch.setattr("companion.vision.read.read_outlines", _square_reader(left_pips=(6, 3)))
    assert _same(splits._resplit(SOURCE, faces, Profile()), faces)


def test_a_tile_read_twice_by_a_face_cut_off_by_the_border_splits_no_square(monkeypatch):
    # 110074, 113330: the part inside the photo of a tile cut off by the border, read whole as a tile the square
    # holds, is left out later; the square's two true tiles stand
    monkeypatch.setattr("companion.vision.read.read_outlines", _square_reader())
    faces = [_sure(TOP, (5, 5)), _sure(BOTTOM, (6, 3)), _sure(_tile(40, 300), (6, 3))]
    assert _same(splits._resplit(SOURCE, faces, Profile()), faces)


def test_of_two_squares_each_holding_a_tile_read_twice_one_splits(monkeypatch):
    # 110026: a 6-3 read in two squares; the square whose other split reads surer gives way, and then the other
    # square's 6-3 is read once and stands (splitting both leaves no 6-3 at all)
    shift = np.array([500.0, 0.0])
    others = {0: (LEFT, (6, 5), 0.99999), 1: (RIGHT, (5, 3), 0.99999), 2: (LEFT + shift, (6, 2), 0.999),
              3: (RIGHT + shift, (3, 2), 0.999)}

    def read_outlines(pyramid, quads, profile, floor=None):
        out = []
        for q in quads:
            quad, pips, score = min(others.values(), key=lambda o: np.linalg.norm(geo.centre_of(o[0]) -
                                                                                  geo.centre_of(q)))
            out.append(replace(_sure(quad, pips), tile_score=score))
        return out

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    faces = [_sure(TOP, (5, 5)), _sure(BOTTOM, (6, 3)), _sure(TOP + shift, (6, 3)), _sure(BOTTOM + shift, (2, 2))]
    resplit = splits._resplit(SOURCE, faces, Profile())
    assert sorted(_count(f) for f in resplit) == [(2, 2), (5, 3), (6, 3), (6, 5)]
    assert all(any(f is face for f in resplit) for face in faces[2:])


def test_two_faces_side_by_side_give_way_to_the_other_split_read_far_more_surely_whole(monkeypatch):
    # the square of a 5-5 and a 5-3 read across as a 5-5 and a 3-5 (the same two tiles: only the reader's belief
    # tells the splits apart), each 0.99 sure it is whole, the right split 0.99999 sure
    def reader(tile_score: float):
        split = _square_reader(left_pips=(5, 5))
        return lambda pyramid, quads, profile, floor=None: [
            replace(f, tile_score=tile_score) if f.tile_score > 0.5 else f for f in split(pyramid, quads, profile)]

    looked: list = []
    faces = [_sure(TOP, (5, 5)), _sure(BOTTOM, (3, 5))]
    monkeypatch.setattr("companion.vision.read.read_outlines", reader(0.99999))
    resplit = splits._resplit(SOURCE, faces, Profile())
    assert sorted(_count(f) for f in resplit) == [(5, 3), (5, 5)]
    assert any(np.allclose(f.corners, LEFT) for f in resplit) and any(np.allclose(f.corners, RIGHT) for f in resplit)
    # read the other way only ten times surer (in odds), or with the rule off, they stand
    monkeypatch.setattr("companion.vision.read.read_outlines", reader(0.999))
    assert _same(splits._resplit(SOURCE, faces, Profile()), faces)
    monkeypatch.setattr("companion.vision.read.read_outlines", reader(0.99999))
    assert _same(splits._resplit(SOURCE, faces, Profile(split_odds=0)), faces)
    # faces the reader is as sure of as it gets are not looked across
    def counted(pyramid, quads, profile, floor=None):
        looked.extend(quads)
        return reader(0.99999)(pyramid, quads, profile)

    monkeypatch.setattr("companion.vision.read.read_outlines", counted)
    sure = [replace(f, tile_score=1.0) for f in faces]
    assert _same(splits._resplit(SOURCE, sure, Profile()), sure) and not looked


def test_a_face_that_filled_a_gap_as_a_tile_read_already_is_read_the_other_way_too(monkeypatch):
    # the 6-3 across the square is found only by the looks in gaps, after the first resplit: its square is
    # read the other way then too
    monkeypatch.setattr("companion.vision.detect.find_candidates", lambda *args, **kwargs: [])
    monkeypatch.setattr("companion.vision.read.read_faces", lambda *args: [])
    monkeypatch.setattr(looks, "_reshaped", lambda *args: [_sure(TOP, (5, 5)), _sure(ELSEWHERE, (6, 3))])
    for stage in ("_unstraddled", "_halved"):
        monkeypatch.setattr(looks, stage, lambda pyramid, faces, *args: faces)
    monkeypatch.setattr("companion.vision.read.read_both_ways", lambda pyramid, faces, profile: faces)
    monkeypatch.setattr(looks, "_split_in_two", lambda pyramid, faces, held, profile: faces)
    monkeypatch.setattr(looks, "_logo_sought", lambda image, scale, pyramid, faces, profile: faces)
    monkeypatch.setattr(looks, "_filled", lambda pyramid, faces, *args: faces + [_sure(BOTTOM, (6, 3))])
    monkeypatch.setattr("companion.vision.read.read_outlines", _square_reader())
    found = looks.find_faces(np.zeros((600, 1000, 3), np.uint8), Profile()).faces
    assert sorted(_count(f) for f in found) == [(5, 3), (6, 3), (6, 5)]


def _same(faces: list[FaceReading], others: list[FaceReading]) -> bool:
    return len(faces) == len(others) and all(a is b for a, b in zip(faces, others))


def test_a_face_read_with_doubt_but_once_beside_another_keeps_its_place(monkeypatch):
    # (the looks across read as surely as it, or more, as often as not)
    monkeypatch.setattr("companion.vision.read.read_outlines", _square_reader())
    unsure = FaceReading(BOTTOM, 0.99, (peaks(6, heats=(0.97,) * 5 + (0.5,)), peaks(3)), 0.0, 0.5)
    assert count_pips(unsure, Profile()).confidence < Profile().doubt_below
    faces = [_sure(TOP, (5, 5)), unsure]
    assert _same(splits._resplit(SOURCE, faces, Profile()), faces)


@pytest.mark.parametrize("heat, where, replaced", [
    (0.8, MISSED, True),  # read surely (0.6), if less surely than the part: the whole tile takes its place
    (0.7, MISSED, False),  # read with doubt (0.4)
    (0.8, TABLE[3], False),  # lies on the tile beside it
])
def test_a_look_that_took_part_of_a_tile_is_looked_at_once_more_where_the_plane_says(monkeypatch, heat, where,
                                                                                       replaced):
    # a look taken from an outline off the 4-5 settled on its right three quarters, its pips read surely
    part = geo.quad_of((480, 300), 0.0, 0.75 * LENGTH, WIDTH)
    plane = Plane(TABLE)
    faces = [_sure(q, p) for q, p in zip(TABLE, PIPS)] + [_sure(_tile(430, 300), (1, 5))]
    best = {4: (_sure(part, (2, 5)), _plane_fit(_sure(part, (2, 5)), plane, Profile()))}
    seen: list[np.ndarray] = []

    def read_outlines(pyramid, quads, profile, floor=None):
        seen.extend(quads)
        halves = (peaks(4, heats=(0.97, 0.97, 0.97, heat)), peaks(5, heat))
        return [FaceReading(where, 0.99, halves, 0.0, 0.5) for _ in quads]

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    reshape._reshaped_again(None, faces, best, {4: []}, plane, Profile())
    # looked at through the outline the plane predicts at the part's place
    assert len(seen) == 1 and geo.iou(seen[0], plane.outline(part, Profile().tile_aspect)) > 0.99
    assert (count_pips(best[4][0], Profile()).pips == (4, 5)) == replaced


def test_a_look_that_took_a_whole_tile_is_not_looked_at_again(monkeypatch):
    plane = Plane(TABLE)
    whole = _sure(MISSED, (4, 5))
    best = {4: (whole, _plane_fit(whole, plane, Profile()))}
    monkeypatch.setattr("companion.vision.read.read_outlines", lambda *a, **k: pytest.fail("looked at again"))
    reshape._reshaped_again(None, _faces(), best, {4: []}, plane, Profile())
    assert best[4][0] is whole


def test_a_look_through_the_prediction_read_surely_takes_no_moved_looks(monkeypatch):
    # the 4-5 read short at one end, its pips in doubt: the look through the outline the plane predicts finds it
    # surely, and the looks moved along and across it, and turned, are not taken
    looked: list = []
    monkeypatch.setattr("companion.vision.read.read_outlines", _recording(looked))
    short = MISSED.copy()
    short[2:, 0] -= 30
    doubtful = FaceReading(short, 0.99, (peaks(4, heats=(0.97, 0.97, 0.97, 0.6)), peaks(5)), 0.0, 1.0)
    assert count_pips(doubtful, Profile()).confidence < Profile().doubt_below
    faces = reshape._reshaped(None, _faces()[:-1] + [doubtful], Profile())
    assert np.allclose(faces[-1].corners, MISSED) and _count(faces[-1]) == (4, 5)
    assert len(looked) == 1


def test_a_face_read_across_a_tile_seen_end_on_is_looked_at_along_it(monkeypatch):
    # 102178's far 1-0, seen end on at 49 degrees and about as wide in the photo as long: the reader framed it
    # closely but took its sides for its ends, so its divider lay along the face read and its one pip went unseen
    # (read surely as a 0-0, 0.70: a faint mark off its middle line; settled, of no tile's shape); the outline the
    # other faces predict turned across that face fits it, and a look through it reads the 1-0 more surely
    camera = _camera(50)
    truth = _seen(0, 60, 90, view=camera)
    table = [_sure(_seen(x, y, turn, view=camera), pips) for x, y, turn, pips in
             [(-30, -20, 0, (2, 2)), (25, -10, 90, (3, 1)), (0, 20, 30, (6, 4)), (35, 40, 0, (5, 5)),
              (-35, 40, 0, (4, 4)), (-20, 10, 90, (6, 2)), (30, 15, 0, (5, 3)), (-5, -30, 60, (1, 1))]]
    across = FaceReading(np.roll(truth, 1, axis=0), 0.98, ((Peak(0.15, 0.5),), ()), 0.0, 0.9)
    assert _count(across) == (0, 0) and Profile().doubt_below < count_pips(across, Profile()).confidence < 0.9
    looked = []

    def read_outline(q):  # the 1-0 only through an outline on it along it; across it, the 0-0 again
        end = truth[1] - truth[0]
        if geo.iou(q, truth) < 0.5:
            return FaceReading(q, 0.05, ((), ()), 0.0, 1.0)
        if abs((q[1] - q[0]) @ end) > 0.7 * np.linalg.norm(q[1] - q[0]) * np.linalg.norm(end):
            return _sure(truth, (1, 0), 1.0)
        return across

    def read_outlines(pyramid, quads, profile, floor=None):
        looked.extend(quads)
        return [read_outline(q) for q in quads]

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    monkeypatch.setattr(reshape, "_reshaped_again", lambda *args: None)
    plane = Plane([f.corners for f in table])
    turned = plane.outline(truth, Profile().tile_aspect)
    assert _plane_fit(across, plane, Profile()) < Profile().gap_fit < geo.iou(truth, turned)
    found = reshape._reshaped(None, table + [across], Profile())
    assert _count(found[-1]) == (1, 0) and np.allclose(found[-1].corners, truth) and looked
