"""A whole face read across two tiles (end to end, or side by side) where the detector saw a tile off its
centre is looked at again as the two tiles, and replaced by them where both are read surely; a face two
tiles long (or wide), read as no tile, is looked at as two tiles end to end (or side by side); a whole face
read with a half of more pips than a tile has is looked at as two tiles side by side; a whole face whose
halves read pips in a line across it is looked at as the tile it is half of."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from companion.vision import Profile, count_pips
from companion.vision import geometry as geo
from companion.vision.looks import missing, splits
from companion.vision.plane import Plane
from companion.vision.read import FaceReading, Peak

from drawing import peaks, read_face, sure_table

LENGTH, WIDTH = 160.0, 80.0


def _tile(x: float, y: float, angle: float = 0.0) -> np.ndarray:
    return geo.quad_of((x, y), angle, LENGTH, WIDTH)


# four tiles read surely far off (they make the table's plane), and two tiles never read by themselves
TABLE = sure_table(LENGTH, WIDTH)
END_TO_END = [(_tile(300, 500), (3, 6)), (_tile(460, 500), (4, 5))]
# read less surely than the tiles (its divider is the seam between them), but surely
ACROSS_THE_ENDS = read_face(_tile(380, 500), (6, 4), 0.85)  # the 3-6's 6 half and the 4-5's 4 half
SIDE_BY_SIDE = [(_tile(300, 500), (3, 6)), (_tile(300, 580), (4, 5))]
ACROSS_THE_SIDES = read_face(_tile(260, 540, np.pi / 2), (3, 4), 0.85)  # the two tiles' left halves


def _reader(tiles: list[tuple[np.ndarray, tuple[int, int]]]):
    """A reader that finds a tile of ``tiles`` from an outline near it (centre within a fifth of a length)
    and otherwise sees no tile (half of one and the ground beyond)."""
    def read_outlines(pyramid, quads, profile, floor=None):
        out = []
        for q in quads:
            near = [(t, p) for t, p in tiles if np.linalg.norm(geo.centre_of(t) - geo.centre_of(q)) < 0.2 * LENGTH]
            out.append(read_face(*near[0]) if near else FaceReading(q, 0.05, ((), ()), 0.0, 1.0))
        return out

    return read_outlines


def _unread(x: float, y: float) -> tuple[np.ndarray, float, float, float]:
    return np.array([x, y]), 0.0, LENGTH, WIDTH


def _pips(faces: list[FaceReading]) -> list[tuple[int, int]]:
    return sorted(count_pips(f, Profile()).pips for f in faces)


def test_a_candidate_off_the_centre_of_a_whole_face_holds_it():
    faces = TABLE + [ACROSS_THE_ENDS]
    # off along it (the 4-5's centre, seen by the detector): held; off across it too: with its place
    assert splits._held_off_centre([_unread(450, 500)], [None], faces, Profile()) == {4: []}
    held = splits._held_off_centre([_unread(450, 530)], [None], faces, Profile())
    assert list(held) == [4] and np.allclose(held[4][0], (450, 530))
    # just outside its outline (the face's looks moved it off the candidate), still held
    assert list(splits._held_off_centre([_unread(450, 545)], [None], faces, Profile())) == [4]
    # near its centre, read, far outside it, or off less than straddle_sides: none
    assert splits._held_off_centre([_unread(390, 500)], [None], faces, Profile()) == {}
    assert splits._held_off_centre([_unread(450, 500)], [ACROSS_THE_ENDS], faces, Profile()) == {}
    assert splits._held_off_centre([_unread(450, 600)], [None], faces, Profile()) == {}
    assert splits._held_off_centre([_unread(450, 500)], [None], faces, Profile(straddle_sides=0.5)) == {}


@pytest.mark.parametrize("tiles, across, frame", [
    (END_TO_END, ACROSS_THE_ENDS, _unread(450, 505)),
    (SIDE_BY_SIDE, ACROSS_THE_SIDES, _unread(290, 585)),
])
def test_a_face_across_two_tiles_gives_way_to_them(monkeypatch, tiles, across, frame):
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader(tiles))
    faces = TABLE + [across]
    split = splits._split_in_two(None, faces, splits._held_off_centre([frame], [None], faces, Profile()), Profile())
    assert split[:4] == TABLE and len(split) == 6
    assert all(any(np.allclose(f.corners, t) for f in split[4:]) for t, _ in tiles)
    assert _pips(split[4:]) == sorted(p for _, p in tiles)


def test_a_true_tile_with_a_candidate_off_its_centre_stays(monkeypatch):
    # the looks beside it take in half of it and the ground beyond: no tile
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader([]))
    faces = TABLE + [ACROSS_THE_ENDS]
    assert splits._split_in_two(None, faces, {4: [np.array([450.0, 530.0])]}, Profile()) == faces


def test_only_both_tiles_read_surely_replace_the_face(monkeypatch):
    # one of the two found: the face stays (a tile and its neighbour's look would do the same)
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader(END_TO_END[:1]))
    faces = TABLE + [ACROSS_THE_ENDS]
    assert splits._split_in_two(None, faces, {4: []}, Profile()) == faces
    # both found, but reading the same tile: one of them is misread
    monkeypatch.setattr("companion.vision.read.read_outlines",
                        _reader([(END_TO_END[0][0], (3, 6)), (END_TO_END[1][0], (6, 3))]))
    assert splits._split_in_two(None, faces, {4: []}, Profile()) == faces
    # both found, but one lies on another whole face
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader(END_TO_END))
    on_it = faces + [read_face(_tile(460, 520), (6, 6))]
    assert splits._split_in_two(None, on_it, {4: []}, Profile()) == on_it
    # both found, but one is read surely elsewhere (a set holds each tile once); read with doubt there, it is
    # that tile that is misread
    twice = faces + [read_face(_tile(1000, 700), (5, 4))]
    assert splits._split_in_two(None, twice, {4: []}, Profile()) == twice
    doubted = faces + [read_face(_tile(1000, 700), (5, 4), 0.6)]
    assert len(splits._split_in_two(None, doubted, {4: []}, Profile())) == len(doubted) + 1
    # both found, but no surer on the whole than the face across them
    sure_across = TABLE + [read_face(ACROSS_THE_ENDS.corners, (6, 4))]
    assert splits._split_in_two(None, sure_across, {4: []}, Profile()) == sure_across


def test_a_face_reading_a_tile_another_face_reads_more_surely_gives_way_to_a_pair_read_less_surely(monkeypatch):
    # 112010: a face across two tiles side by side read a 4-5 (0.75) that a face elsewhere reads more surely; the
    # two tiles, read 0.76 and 0.68, are less sure on the whole, but the face holds no tile of its own
    def read_outlines(pyramid, quads, profile, floor=None):
        out = []
        for q in quads:
            near = [(t, p) for t, p in END_TO_END if np.linalg.norm(geo.centre_of(t) - geo.centre_of(q)) < 0.2 * LENGTH]
            out.append(read_face(*near[0], 0.85) if near else FaceReading(q, 0.05, ((), ()), 0.0, 1.0))
        return out

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    faces = TABLE + [read_face(ACROSS_THE_ENDS.corners, (6, 4))]
    assert splits._split_in_two(None, faces, {4: []}, Profile()) == faces
    outread = faces + [read_face(_tile(1000, 700), (4, 6), 0.99)]
    split = splits._split_in_two(None, outread, {4: []}, Profile())
    assert _pips(split[4:]) == [(3, 6), (4, 5), (4, 6)]
    # read as surely elsewhere, the face still must be outdone
    alike = faces + [read_face(_tile(1000, 700), (4, 6))]
    assert splits._split_in_two(None, alike, {4: []}, Profile()) == alike


@pytest.mark.parametrize("face_whole, pair_whole, heats, split", [
    (0.85, 0.999, (0.97, 0.85), True),   # 113186: the pair read a little less surely, but surely whole
    (0.85, 0.95, (0.97, 0.85), False),   # likelier whole, but not split_odds times: the pips judge
    (0.9999, 0.9, (0.85, 0.97), False),  # 119169: the pair read more surely, but far less surely whole
    (0.99, 0.9, (0.85, 0.97), True),     # less surely whole, but not split_odds times: the pips judge
])
def test_how_surely_a_pair_and_the_face_across_them_are_whole_judges_them_first(monkeypatch, face_whole,
                                                                               pair_whole, heats, split):
    # the reader learned to take a face across two tiles for no tile: a pair split_odds times likelier whole (in
    # odds) than the face replaces it, and one as many times less likely never does, however its pips read
    face_heat, pair_heat = heats

    def read_outlines(pyramid, quads, profile, floor=None):
        out = []
        for q in quads:
            near = [(t, p) for t, p in END_TO_END if np.linalg.norm(geo.centre_of(t) - geo.centre_of(q)) < 0.2 * LENGTH]
            out.append(replace(read_face(*near[0], pair_heat), tile_score=pair_whole) if near else
                       FaceReading(q, 0.05, ((), ()), 0.0, 1.0))
        return out

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    faces = TABLE + [replace(read_face(ACROSS_THE_ENDS.corners, (6, 4), face_heat), tile_score=face_whole)]
    got = splits._split_in_two(None, faces, {4: []}, Profile())
    assert (_pips(got[4:]) == [(3, 6), (4, 5)]) is split and (got == faces) is not split
    # with split_odds 0, the pips alone judge
    assert (splits._split_in_two(None, faces, {4: []}, Profile(split_odds=0)) == faces) is (face_heat > pair_heat)


@pytest.mark.parametrize("heats, split", [((0.89, 0.7), True), ((0.89, 0.6), False), ((0.725, 0.7), False)])
def test_a_pair_read_surely_on_the_whole_replaces_the_face_though_one_tile_is_read_with_doubt(monkeypatch, heats,
                                                                                             split):
    # 107394: two tiles seen end on side by side, read across them with doubt; split, a 4-2 read surely (0.78) and
    # a 4-6 with doubt (0.40) replace the face (here the 3-6 and the 4-5, at those confidences); not a tile read
    # almost without confidence, nor two read with doubt
    def read_outlines(pyramid, quads, profile, floor=None):
        out = []
        for q in quads:
            near = [(t, p, h) for (t, p), h in zip(END_TO_END, heats)
                    if np.linalg.norm(geo.centre_of(t) - geo.centre_of(q)) < 0.2 * LENGTH]
            out.append(read_face(*near[0]) if near else FaceReading(q, 0.05, ((), ()), 0.0, 1.0))
        return out

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    faces = TABLE + [read_face(ACROSS_THE_ENDS.corners, (6, 4), 0.66)]
    found = splits._split_in_two(None, faces, {4: []}, Profile())
    assert (_pips(found[4:]) == [(3, 6), (4, 5)]) is split and (found == faces) is not split


def test_a_pair_with_a_look_on_another_whole_face_takes_no_looks(monkeypatch):
    # the 4-5's place holds a face of its own, of a tile's shape: a look there would stay on it, and a pair on
    # another whole face replaces nothing
    looked: list = []
    reader = _reader(END_TO_END)

    def read_outlines(pyramid, quads, profile, floor=None):
        looked.extend(quads)
        return reader(pyramid, quads, profile)

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    on_it = TABLE + [ACROSS_THE_ENDS, read_face(_tile(460, 520), (6, 6))]
    assert splits._split_in_two(None, on_it, {4: []}, Profile()) == on_it and looked == []
    splits._split_in_two(None, TABLE + [ACROSS_THE_ENDS], {4: []}, Profile())
    assert len(looked) == 2


def test_a_line_read_half_a_tile_off_throughout_gives_way_face_by_face(monkeypatch):
    # three tiles end to end read as two faces across their junctions, each held: the pair through the first
    # face's tiles lies on the second face too, and replaces both (the third tile is left to the gaps' looks)
    line = END_TO_END + [(_tile(620, 500), (2, 5))]
    second = read_face(_tile(540, 500), (5, 2), 0.85)  # the 4-5's 5 half and the 2-5's 2 half
    faces = TABLE + [ACROSS_THE_ENDS, second]
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader(line))
    split = splits._split_in_two(None, faces, {4: [], 5: []}, Profile())
    assert split[:4] == TABLE and len(split) == 6 and _pips(split[4:]) in ([(3, 6), (4, 5)], [(2, 5), (4, 5)])
    # the second face not held (no candidate off its centre): it stands, and so does the first
    assert splits._split_in_two(None, faces, {4: []}, Profile()) == faces
    # both faces read more surely as whole tiles than the looks: a pair of straddles may outscore two true tiles
    # on pips alone, so they stand
    surer = TABLE + [replace(f, tile_score=0.999) for f in (ACROSS_THE_ENDS, second)]
    split = splits._split_in_two(None, surer, {4: [], 5: []}, Profile())
    assert len(split) == 6 and all(a is b for a, b in zip(split, surer))


def test_the_other_face_across_the_same_two_tiles_gives_way_too(monkeypatch):
    other = read_face(_tile(340, 540, np.pi / 2), (6, 5), 0.85)  # the two tiles' right halves
    faces = TABLE + [ACROSS_THE_SIDES, other]
    held = {4: [np.array([290.0, 585.0])]}
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader(SIDE_BY_SIDE))
    split = splits._split_in_two(None, faces, held, Profile())
    assert split[:4] == TABLE and _pips(split[4:]) == [(3, 6), (4, 5)]
    # looks that read the very tiles the two faces read, moved, change nothing
    moved = [(SIDE_BY_SIDE[0][0], (3, 4)), (SIDE_BY_SIDE[1][0], (6, 5))]
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader(moved))
    assert splits._split_in_two(None, faces, held, Profile()) == faces


def test_a_face_two_tiles_long_or_wide_read_as_no_tile_is_looked_at_as_two_tiles(monkeypatch):
    plane = Plane([f.corners for f in TABLE])
    both = FaceReading(geo.quad_of((380, 500), 0.0, 2 * LENGTH, WIDTH), 0.01, ((), ()), 0.0, 0.5)
    halves = missing._halves_of_two([both], plane, Profile())
    assert len(halves) == 2 and all(any(np.allclose(h, t, atol=1.0) for h in halves) for t, _ in END_TO_END)
    # a face of a tile's length, one read as a whole tile, or one 1.5 tiles long: no guess
    assert missing._halves_of_two([ACROSS_THE_ENDS], plane, Profile()) == []
    assert missing._halves_of_two([FaceReading(both.corners, 0.99, ((), ()), 0.0, 0.5)], plane, Profile()) == []
    longer = FaceReading(geo.quad_of((380, 500), 0.0, 1.5 * LENGTH, WIDTH), 0.01, ((), ()), 0.0, 0.5)
    assert missing._halves_of_two([longer], plane, Profile()) == []
    # a face a tile long and two wide: the two tiles side by side (a stack's nearest tile and the one behind it)
    wide = FaceReading(geo.quad_of((300, 540), 0.0, LENGTH, 2 * WIDTH), 0.7, ((), ()), 0.0, 0.5)
    halves = missing._halves_of_two([wide], plane, Profile())
    assert len(halves) == 2 and all(any(np.allclose(h, t, atol=1.0) for h in halves) for t, _ in SIDE_BY_SIDE)
    wider = FaceReading(geo.quad_of((300, 540), 0.0, LENGTH, 1.5 * WIDTH), 0.7, ((), ()), 0.0, 0.5)
    assert missing._halves_of_two([wider], plane, Profile()) == []
    # the gaps' looks find both tiles there
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader(END_TO_END))
    filled = missing._filled(None, TABLE + [both], [], [], Profile())
    assert _pips(filled[5:]) == [(3, 6), (4, 5)]


def test_the_halves_looked_at_do_not_stand_in_for_a_lines_end_looks(monkeypatch):
    # a half's place can lie near where a line found from it goes on: the end looks after it must be made
    plane = Plane([f.corners for f in TABLE])
    both = FaceReading(geo.quad_of((380, 500), 0.0, 2 * LENGTH, WIDTH), 0.01, ((), ()), 0.0, 0.5)
    halves = missing._halves_of_two([both], plane, Profile())
    told: list = []

    def ends(quads, touch, overlap, looked, *rest):
        told.append(list(looked))
        return []

    monkeypatch.setattr(missing, "ends", ends)
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader(END_TO_END))
    filled = missing._filled(None, TABLE + [both], [], [], Profile())
    assert len(filled) == 7 and len(told) == 2  # the first ends, then again past the tiles found
    assert not any(np.allclose(q, h) for h in halves for q in told[1])


def test_a_face_read_as_no_whole_tile_across_two_tiles_end_to_end_is_looked_at_half_a_tile_each_way(monkeypatch):
    # the reader, looking across the junction of two tiles end to end, saw their halves there surely (6-4) but
    # no whole tile: the looks half a tile each way along it find both tiles
    plane = Plane([f.corners for f in TABLE])
    across = FaceReading(ACROSS_THE_ENDS.corners, 0.3, ACROSS_THE_ENDS.peaks, 0.0, 0.5)
    quads = missing._across_a_junction([across], plane, Profile())
    assert len(quads) == 2 and all(any(np.allclose(q, t, atol=1.0) for q in quads) for t, _ in END_TO_END)
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader(END_TO_END))
    assert _pips(missing._filled(None, TABLE + [across], [], [], Profile())[5:]) == [(3, 6), (4, 5)]
    # no looks for a whole face, one read as no tile at all, one with its pips in doubt, or one two tiles long
    doubt = FaceReading(across.corners, 0.3, (peaks(6, 0.97), peaks(4, heats=(0.9, 0.9, 0.9, 0.55))), 0.0, 0.5)
    assert count_pips(doubt, Profile()).confidence < Profile().doubt_below
    longer = FaceReading(geo.quad_of((380, 500), 0.0, 2 * LENGTH, WIDTH), 0.3, across.peaks, 0.0, 0.5)
    for face in (ACROSS_THE_ENDS, FaceReading(across.corners, 0.01, across.peaks, 0.0, 0.5), doubt, longer):
        assert missing._across_a_junction([face], plane, Profile()) == []


def _across(x: float) -> tuple[np.ndarray, float, float, float]:
    """A guess laid across the two tiles side by side (over both their halves at ``x``)."""
    return np.array([x, 540.0]), np.pi / 2, LENGTH, WIDTH


def test_two_guesses_laid_across_two_tiles_side_by_side_are_read_split_the_other_way(monkeypatch):
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader(SIDE_BY_SIDE))
    frames = [_across(260), _across(340)]
    unread = [None, FaceReading(geo.quad_of(*frames[1]), 0.2, ((), ()))]  # read as no tile
    found = splits._unread_pair(None, TABLE + unread[1:], frames, unread, Profile())
    assert found[:4] == TABLE and _pips(found[4:]) == [(3, 6), (4, 5)]  # the face read as no tile gave way
    assert all(any(np.allclose(f.corners, t) for f in found[4:]) for t, _ in SIDE_BY_SIDE)


def test_two_guesses_side_by_side_give_way_only_to_two_tiles_read_surely_nowhere_else(monkeypatch):
    frames = [_across(260), _across(340)]
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader(SIDE_BY_SIDE[:1]))  # one look sees no tile
    assert splits._unread_pair(None, TABLE, frames, [None, None], Profile()) == TABLE
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader(SIDE_BY_SIDE))
    held = TABLE + [read_face(_tile(900, 900), (6, 3))]  # the 3-6 read elsewhere already
    assert splits._unread_pair(None, held, frames, [None, None], Profile()) == held
    read = [read_face(geo.quad_of(*frames[0]), (1, 1)), None]  # a guess read as a whole tile: no pair
    assert splits._unread_pair(None, TABLE, frames, read, Profile()) == TABLE
    apart = [_across(260), _across(420)]  # two guesses a tile's width apart: not side by side
    assert splits._unread_pair(None, TABLE, apart, [None, None], Profile()) == TABLE


# two tiles side by side, seen so steeply that the square they make has a tile's shape: read as one whole face
STEEP_PAIR = [(geo.quad_of((380, 480), 0.0, LENGTH, WIDTH / 2), (4, 5)),
              (geo.quad_of((380, 520), 0.0, LENGTH, WIDTH / 2), (3, 6))]
PHOTO = SimpleNamespace(levels=[np.zeros((800, 1200, 3), np.uint8)])


def _read_as(quad: np.ndarray, halves: tuple[int, int]) -> FaceReading:
    """A whole face through ``quad`` whose halves show ``halves`` pips (more than a tile's, as two tiles' halves)."""
    return FaceReading(quad, 0.99, tuple(peaks(6, 0.97) + peaks(n - 6, 0.97) for n in halves), 0.0, 0.5)


def test_a_face_read_with_a_half_no_tile_has_is_looked_at_as_two_tiles_side_by_side(monkeypatch):
    both = _read_as(_tile(380, 500), (8, 7))
    assert count_pips(both, Profile()).pips == (8, 7)
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader(STEEP_PAIR))
    halved = splits._halved(PHOTO, TABLE + [both], Profile())
    assert halved[:4] == TABLE and _pips(halved[4:]) == [(3, 6), (4, 5)]
    assert all(any(np.allclose(f.corners, t) for f in halved[4:]) for t, _ in STEEP_PAIR)


def test_a_face_with_a_half_no_tile_has_stays_where_its_halves_are_no_tiles(monkeypatch):
    # (it is then reported as a reading the set cannot hold)
    both = _read_as(_tile(380, 500), (8, 7))
    looked: list = []

    def read_outlines(pyramid, quads, profile, floor=None):
        looked.extend(quads)
        return _reader(STEEP_PAIR[:1])(pyramid, quads, profile)

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    assert splits._halved(PHOTO, TABLE + [both], Profile()) == TABLE + [both]
    assert len(looked) == 4  # its halves across its middle and along it
    # a face with halves a tile has is not looked at
    looked.clear()
    assert splits._halved(PHOTO, TABLE + [ACROSS_THE_ENDS], Profile()) == TABLE + [ACROSS_THE_ENDS]
    assert looked == []


def test_past_a_face_replaced_by_one_of_the_two_tiles_it_lay_across_the_other_is_looked_at():
    plane = Plane([f.corners for f in TABLE])
    across = read_face(geo.quad_of((380, 500), 0.0, 1.6 * LENGTH, WIDTH), (6, 6), 0.6)  # the 3-6 and half the 4-5
    tile = read_face(END_TO_END[0][0], (3, 6))
    places = missing._past_the_replaced(plane, TABLE + [across], TABLE + [tile], Profile())
    assert len(places) == 1 and np.allclose(geo.centre_of(places[0]), geo.centre_of(END_TO_END[1][0]), atol=2.0)
    # a face kept, or replaced by a tile it lay on nearly whole, or staggered against it: no look
    assert missing._past_the_replaced(plane, TABLE + [across], TABLE + [across], Profile()) == []
    on_it = read_face(geo.quad_of((310, 500), 0.0, LENGTH, WIDTH), (3, 6))
    assert missing._past_the_replaced(plane, [on_it], [tile], Profile()) == []
    staggered = read_face(geo.quad_of((380, 580), 0.0, LENGTH, WIDTH), (4, 5))
    assert missing._past_the_replaced(plane, [staggered], [tile], Profile()) == []
    # one across two tiles side by side, replaced by one of them: the other beside it
    wide = read_face(geo.quad_of((300, 530), 0.0, LENGTH, 1.6 * WIDTH), (6, 6), 0.6)
    places = missing._past_the_replaced(plane, [wide], [tile], Profile())
    assert len(places) == 1 and np.allclose(geo.centre_of(places[0]), geo.centre_of(SIDE_BY_SIDE[1][0]), atol=2.0)


def test_a_look_that_replaces_a_face_across_two_tiles_end_to_end_leads_to_the_other(monkeypatch):
    across = read_face(geo.quad_of((380, 500), 0.0, 1.6 * LENGTH, WIDTH), (6, 6), 0.6)
    looked: list = []
    reader = _reader(END_TO_END)

    def read_outlines(pyramid, quads, profile, floor=None):
        looked.extend(geo.centre_of(q) for q in quads)
        return reader(pyramid, quads, profile)

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    orphan = geo.quad_of((300, 500), 0.0, LENGTH, WIDTH)  # the detector saw the 3-6; its looks went to the face
    filled = missing._filled(None, TABLE + [across], [orphan], [], Profile())
    assert filled[:4] == TABLE and _pips(filled[4:]) == [(3, 6), (4, 5)]
    assert any(np.allclose(c, (460, 500), atol=2.0) for c in looked)


def _in_a_line(n: int, at: float = 0.55) -> tuple:
    """A half's ``n`` peaks in a line across the face, ``at`` along it (a six's or a four's column)."""
    return tuple(Peak(0.97, at, x) for x in ((-0.27, 0.0, 0.27) if n == 3 else (-0.27, 0.27)))


def test_pips_in_a_line_across_each_half_are_a_half_read_whole():
    profile = Profile()
    square = geo.quad_of((340, 500), 0.0, WIDTH, WIDTH)
    assert splits._a_half_read_whole(FaceReading(square, 0.99, (_in_a_line(3), _in_a_line(3)), 0.0, 0.5), profile)
    assert splits._a_half_read_whole(FaceReading(square, 0.99, (_in_a_line(2), _in_a_line(2, 0.45)), 0.0, 0.5),
                                     profile)
    # the set's own twos and threes lie on a diagonal; a half of another count, or one line alone, is no sign
    assert not splits._a_half_read_whole(read_face(_tile(300, 500), (3, 3)), profile)
    assert not splits._a_half_read_whole(read_face(_tile(300, 500), (2, 2)), profile)
    assert not splits._a_half_read_whole(FaceReading(square, 0.99, (_in_a_line(3), peaks(3)), 0.0, 0.5), profile)
    assert not splits._a_half_read_whole(FaceReading(square, 0.99, (_in_a_line(3), peaks(4)), 0.0, 0.5), profile)
    never = Profile(pip_line_along=0.0)
    assert not splits._a_half_read_whole(FaceReading(square, 0.99, (_in_a_line(3), _in_a_line(3)), 0.0, 0.5), never)


@pytest.mark.parametrize("turned", [False, True])
def test_a_six_s_half_read_as_a_three_three_gives_way_to_its_tile(monkeypatch, turned):
    # the 3-6's six half, a square, read as a whole 3-3 (its columns of three each side of a middle); taken either
    # way round, one of the outlines twice its size is the tile
    half = geo.quad_of((340, 500), np.pi / 2 if turned else 0.0, WIDTH, WIDTH * 0.95)
    face = FaceReading(half, 0.99, (_in_a_line(3), _in_a_line(3)), 0.0, 0.5)
    assert count_pips(face, Profile()).pips == (3, 3)
    looked: list = []

    def read_outlines(pyramid, quads, profile, floor=None):
        looked.extend(quads)
        return _reader(END_TO_END[:1])(pyramid, quads, profile)

    monkeypatch.setattr("companion.vision.read.read_outlines", read_outlines)
    halved = splits._halved(PHOTO, TABLE + [face], Profile())
    assert halved[:4] == TABLE and _pips(halved[4:]) == [(3, 6)] and len(looked) == 4
    assert np.allclose(halved[4].corners, END_TO_END[0][0])


def test_a_double_whose_halves_are_each_read_as_a_whole_face_gives_way_to_its_tile(monkeypatch):
    # a 4-4 seen steeply, each square half framed as a whole tile and read 2-2 (two pips each side of its middle):
    # the tile twice the size of either holds the other too, and takes the place of both
    halves = [FaceReading(geo.quad_of((x, 500), 0.0, WIDTH, WIDTH * 0.95), 0.99, (_in_a_line(2), _in_a_line(2)), 0.0,
                          0.5) for x in (260, 340)]
    assert [count_pips(f, Profile()).pips for f in halves] == [(2, 2), (2, 2)]
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader([(_tile(300, 500), (4, 4))]))
    halved = splits._halved(PHOTO, TABLE + halves, Profile())
    assert halved[:4] == TABLE and _pips(halved[4:]) == [(4, 4)]
    assert np.allclose(halved[4].corners, _tile(300, 500))
    # where the other face there reads no half of a tile, the look lies on another face: both stay
    other = read_face(halves[1].corners, (6, 1))
    assert not splits._a_half_read_whole(other, Profile())
    assert splits._halved(PHOTO, TABLE + [halves[0], other], Profile()) == TABLE + [halves[0], other]


def test_a_face_read_in_lines_stays_where_no_tile_twice_its_size_is_read(monkeypatch):
    face = FaceReading(geo.quad_of((340, 500), 0.0, WIDTH, WIDTH), 0.99, (_in_a_line(3), _in_a_line(3)), 0.0, 0.5)
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader([]))
    assert splits._halved(PHOTO, TABLE + [face], Profile()) == TABLE + [face]
    # nor where the tile read there lies beside it rather than over it
    monkeypatch.setattr("companion.vision.read.read_outlines", _reader([(_tile(340, 565), (3, 6))]))
    assert splits._halved(PHOTO, TABLE + [face], Profile()) == TABLE + [face]
