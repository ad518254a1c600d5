"""Where no face was read as the set's logo tile, the detector looks again at another scale: its heat dips for
some tiles at one scale and not another, and a logo tile close to the camera is too large for it."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from companion.vision import Profile, count_pips
from companion.vision import geometry as geo
from companion.vision.detect import Candidate
from companion.vision.looks import last
from companion.vision.read import FaceReading

from drawing import peaks

LENGTH, WIDTH = 160.0, 80.0
IMAGE = np.zeros((600, 1000, 3), np.uint8)


def _tile(x: float, y: float) -> np.ndarray:
    return geo.quad_of((x, y), 0.0, LENGTH, WIDTH)


TILES = [FaceReading(_tile(x, 100), 0.99, (peaks(2), peaks(3)), 0.0, 0.5) for x in (200, 400, 600)]
LOGO = _tile(500, 400)


def _detector(places: list[tuple[float, float]], calls: list[int]):
    def find(image_bgr, profile, side=None, region=None):
        calls.append(side)
        return [Candidate(np.array(p, float), 0.0, LENGTH, WIDTH, 0.5) for p in places]
    return find


def _reader(logo_score: float, seen: list):
    def read(pyramid, frames, profile):  # every look is a whole tile, settled, read as the logo so surely
        seen.extend(frames)
        return [FaceReading(geo.quad_of(*frame), 0.99, ((), ()), logo_score, 0.5) for frame in frames]
    return read


def _outlines_read(logo_at: tuple[float, float] | None, seen: list | None = None):
    """A reader that sees the logo tile (``LOGO``) through an outline centred within 10 pixels of ``logo_at``,
    settled, and no tile through any other."""
    def read(pyramid, quads, profile, floor=None):
        if seen is not None:
            seen.extend(quads)
        near = [logo_at is not None and np.hypot(*(geo.centre_of(q) - logo_at)) < 10 for q in quads]
        return [FaceReading(LOGO, 0.99, ((), ()), 0.999, 0.5) if hit else FaceReading(q, 0.02, ((), ()), 0.0, 30.0)
                for q, hit in zip(quads, near)]
    return read


def test_a_logo_tile_the_first_look_missed_is_found_at_another_scale(monkeypatch):
    calls, seen = [], []
    monkeypatch.setattr("companion.vision.detect.find_candidates", _detector([(500, 400), (400, 100)], calls))
    monkeypatch.setattr("companion.vision.read.read_faces", _reader(0.999, seen))
    found = last._logo_sought(IMAGE, 1.0, None, TILES, Profile())
    assert calls == [Profile().logo_look_side]
    assert len(seen) == 1  # the candidate on a whole face is not looked at
    assert len(found) == len(TILES) + 1 and np.allclose(found[-1].corners, LOGO)
    assert count_pips(found[-1], Profile()).pips == (0, 0)


def test_a_face_read_as_the_logo_less_surely_than_logo_sure_is_not_taken(monkeypatch):
    monkeypatch.setattr("companion.vision.detect.find_candidates", _detector([(500, 400)], []))
    monkeypatch.setattr("companion.vision.read.read_faces", _reader(0.97, []))  # as surely as a score card can be
    assert len(last._logo_sought(IMAGE, 1.0, None, TILES, Profile())) == len(TILES)
    assert len(last._logo_sought(IMAGE, 1.0, None, TILES, Profile(logo_sure=0.95))) == len(TILES) + 1


def test_no_look_where_the_logo_was_read_or_the_set_has_none(monkeypatch):
    calls = []
    monkeypatch.setattr("companion.vision.detect.find_candidates", _detector([(500, 400)], calls))
    monkeypatch.setattr("companion.vision.read.read_faces", _reader(0.999, []))
    with_logo = TILES + [replace(TILES[0], corners=_tile(800, 100), logo_score=0.99)]
    assert last._logo_sought(IMAGE, 1.0, None, with_logo, Profile()) == with_logo
    assert last._logo_sought(IMAGE, 1.0, None, TILES, Profile(logo=False)) == TILES
    assert last._logo_sought(IMAGE, 1.0, None, TILES, Profile(logo_look_side=0)) == TILES
    assert calls == []


def test_a_logo_read_in_part_that_nothing_judges_is_looked_for_all_the_same(monkeypatch):
    # a hand of one tile, the logo tile close to the camera (a generated photo, seed 83043): its emblem, read
    # apart as the logo 0.9 surely, stands only as nothing judges its shape; at the coarser scale the detector
    # sees the whole tile, which the emblem gives way to
    emblem = FaceReading(geo.quad_of((520, 400), 0.0, 0.5 * LENGTH, 0.9 * WIDTH), 0.99, ((), ()), 0.9, 0.5)
    calls = []
    monkeypatch.setattr("companion.vision.detect.find_candidates", _detector([(500, 400)], calls))
    monkeypatch.setattr("companion.vision.read.read_faces", _reader(0.999, []))
    found = last._logo_sought(IMAGE, 1.0, None, [emblem], Profile())
    assert calls == [Profile().logo_look_side]
    assert len(found) == 1 and np.allclose(found[0].corners, LOGO)
    # read as the logo as surely as logo_sure, it stands, and the detector does not look again
    calls.clear()
    sure = replace(emblem, logo_score=0.99)
    assert last._logo_sought(IMAGE, 1.0, None, [sure], Profile()) == [sure] and calls == []


def test_a_logo_found_on_a_whole_face_is_not_taken(monkeypatch):
    # a candidate beside a whole face, whose look spreads over it: the reader's outline across two tiles
    monkeypatch.setattr("companion.vision.detect.find_candidates", _detector([(500, 190)], []))
    monkeypatch.setattr("companion.vision.read.read_faces", lambda pyramid, frames, profile: [
        FaceReading(_tile(440, 120), 0.99, ((), ()), 0.999, 0.5) for _ in frames])
    assert len(last._logo_sought(IMAGE, 1.0, None, TILES, Profile())) == len(TILES)


def test_smaller_faces_lying_mostly_within_the_logo_tile_give_way_to_it(monkeypatch):
    # the logo tile close to the camera, its emblem's half read apart as a tile of its own: it gives way
    half = FaceReading(geo.quad_of((520, 400), 0.0, 0.6 * LENGTH, 0.9 * WIDTH), 0.9, (peaks(1), peaks(1)), 0.2, 0.5)
    close = _tile(560, 400)
    # off the half read apart
    monkeypatch.setattr("companion.vision.detect.find_candidates", _detector([(600, 400)], []))
    monkeypatch.setattr("companion.vision.read.read_faces", lambda pyramid, frames, profile: [
        FaceReading(close, 0.99, ((), ()), 0.999, 0.5) for _ in frames])
    found = last._logo_sought(IMAGE, 1.0, None, TILES + [half], Profile())
    assert len(found) == len(TILES) + 1 and np.allclose(found[-1].corners, close)
    assert all(face is not half for face in found)
    # a whole tile as large, lying across it, does not give way: the look lies on another tile
    across = replace(half, corners=_tile(460, 400))
    assert last._logo_sought(IMAGE, 1.0, None, TILES + [across], Profile()) == TILES + [across]


def test_a_face_read_as_the_logo_that_would_not_stand_is_looked_at_again(monkeypatch):
    # the logo tile read 0.9 surely as the logo with an outline too long for a tile there (IoU 1 / 1.3 with the
    # outline the tiles around it predict): it would be left out as a score card might, so the detector looks
    # again, and a look on it that reads the logo tile surely takes its place
    tiles = [FaceReading(_tile(x, 100), 0.99, (peaks(a), peaks(b)), 0.0, 0.5)
             for x, (a, b) in zip((200, 400, 600), ((2, 3), (1, 4), (5, 6)))]
    long = FaceReading(geo.quad_of((500, 400), 0.0, 1.3 * LENGTH, WIDTH), 0.99, ((), ()), 0.9, 0.5)
    calls, seen = [], []
    monkeypatch.setattr("companion.vision.detect.find_candidates", _detector([(500, 400)], calls))
    monkeypatch.setattr("companion.vision.read.read_faces", _reader(0.999, seen))
    # the looks at its tile's outline see none
    monkeypatch.setattr("companion.vision.read.read_outlines", _outlines_read(None))
    found = last._logo_sought(IMAGE, 1.0, None, tiles + [long], Profile())
    assert calls == [Profile().logo_look_side] and len(seen) == 1
    assert len(found) == len(tiles) + 1 and np.allclose(found[-1].corners, LOGO)
    # a look no surer than logo_sure leaves it as it was
    monkeypatch.setattr("companion.vision.read.read_faces", _reader(0.97, []))
    assert last._logo_sought(IMAGE, 1.0, None, tiles + [long], Profile()) == tiles + [long]
    # read as the logo so surely that it stands, or of a tile's shape there, it is not looked at again
    calls.clear()
    for face in (replace(long, logo_score=0.99), replace(long, corners=LOGO)):
        assert last._logo_sought(IMAGE, 1.0, None, tiles + [face], Profile()) == tiles + [face]
    assert calls == []


def test_a_face_taken_for_a_score_card_gives_way_to_a_tile_the_detector_sees_there(monkeypatch):
    # a far tile read as the logo 0.75 surely through an outline too long for a tile there: it would be left out as
    # a score card. The detector's look there reads a 4-5 surely, of a tile's shape: it takes the face's place
    # (the third thousand's 83002, a 6-3 at the top of a crowd)
    tiles = [FaceReading(_tile(x, 100), 0.99, (peaks(a), peaks(b)), 0.0, 0.5)
             for x, (a, b) in zip((200, 400, 600), ((2, 3), (1, 4), (5, 6)))]
    card = FaceReading(geo.quad_of((500, 400), 0.0, 1.3 * LENGTH, WIDTH), 0.99, ((), ()), 0.75, 0.5)
    monkeypatch.setattr("companion.vision.detect.find_candidates", _detector([(500, 400)], []))
    monkeypatch.setattr("companion.vision.read.read_outlines", _outlines_read(None))

    def reading(heat: float, corners: np.ndarray = LOGO):
        return lambda pyramid, frames, profile: [FaceReading(corners, 0.99, (peaks(4, heat), peaks(5, heat)), 0.0, 0.5)
                                                 for _ in frames]
    monkeypatch.setattr("companion.vision.read.read_faces", reading(0.97))
    found = last._logo_sought(IMAGE, 1.0, None, tiles + [card], Profile())
    assert found[:3] == tiles and len(found) == 4 and np.allclose(found[3].corners, LOGO)
    assert count_pips(found[3], Profile()).pips == (4, 5)
    # a look read with doubt, or of no tile's shape there, leaves the face as it was (to be left out and named)
    for read in (reading(0.3), reading(0.97, geo.quad_of((500, 400), 0.0, 1.4 * LENGTH, WIDTH))):
        monkeypatch.setattr("companion.vision.read.read_faces", read)
        assert last._logo_sought(IMAGE, 1.0, None, tiles + [card], Profile()) == tiles + [card]


def test_a_tile_the_detector_sees_only_at_the_logos_scale_is_taken_as_at_a_candidate_left_unread(monkeypatch):
    # its heat dips at one scale and not at another: a 4-5 read surely through the logo look's guess, settled and
    # of a tile's shape there, on no whole face, is a tile the first look missed (the held-out 81707 and 83721)
    tiles = [FaceReading(_tile(x, 100), 0.99, (peaks(a), peaks(b)), 0.0, 0.5)
             for x, (a, b) in zip((200, 400, 600), ((2, 3), (1, 4), (5, 6)))]
    monkeypatch.setattr("companion.vision.detect.find_candidates", _detector([(500, 400)], []))
    monkeypatch.setattr("companion.vision.read.read_outlines", _outlines_read(None))

    def reading(corners: np.ndarray = LOGO, moved: float = 0.5):
        return lambda pyramid, frames, profile: [FaceReading(corners, 0.99, (peaks(4), peaks(5)), 0.0, moved)
                                                 for _ in frames]
    monkeypatch.setattr("companion.vision.read.read_faces", reading())
    found = last._logo_sought(IMAGE, 1.0, None, tiles, Profile())
    assert found[:3] == tiles and len(found) == 4 and count_pips(found[3], Profile()).pips == (4, 5)
    # one twice a tile's length there, or still moving, is not
    for read in (reading(geo.quad_of((500, 400), 0.0, 2 * LENGTH, WIDTH)), reading(moved=30.0)):
        monkeypatch.setattr("companion.vision.read.read_faces", read)
        assert last._logo_sought(IMAGE, 1.0, None, tiles, Profile()) == tiles


def test_a_blank_face_of_no_tiles_shape_is_looked_at_through_the_tile_the_others_predict(monkeypatch):
    # the logo tile outlined in part, its word mark's half alone, read 0-0 and not as the logo: looks through
    # the outline the tiles around it predict at its place, and a quarter of a tile each way along, find it
    # (the benchmark's 50092 and 50214)
    tiles = [FaceReading(_tile(x, 100), 0.99, (peaks(a), peaks(b)), 0.0, 0.5)
             for x, (a, b) in zip((200, 400, 600), ((2, 3), (1, 4), (5, 6)))]
    part = FaceReading(geo.quad_of((460, 400), 0.0, 0.6 * LENGTH, WIDTH), 0.99, ((), ()), 0.01, 0.5)
    seen = []
    monkeypatch.setattr("companion.vision.detect.find_candidates", _detector([], []))
    monkeypatch.setattr("companion.vision.read.read_outlines", _outlines_read((500, 400), seen))
    found = last._logo_sought(IMAGE, 1.0, None, tiles + [part], Profile())
    assert [tuple(np.round(geo.centre_of(q))) for q in seen] == [(460, 400), (500, 400), (420, 400)]
    assert found == tiles + [found[-1]] and np.allclose(found[-1].corners, LOGO)  # the part gave way
    # so is one read with doubt whose emblem's centre was taken for a pip (50238; not being whole, it is left
    # for the faces' choice, where the logo tile read surely on it wins)
    seen.clear()
    doubtful = replace(part, tile_score=0.5, peaks=(peaks(1), ()))
    found = last._logo_sought(IMAGE, 1.0, None, tiles + [doubtful], Profile())
    assert len(seen) == 3 and found[:-1] == tiles + [doubtful] and np.allclose(found[-1].corners, LOGO)
    # a blank face of a tile's shape, one with two pips or more, or one taken for no tile, is not looked at so
    seen.clear()
    for face in (replace(part, corners=_tile(460, 400)), replace(part, peaks=(peaks(1), peaks(1))),
                 replace(part, tile_score=0.01)):
        assert last._logo_sought(IMAGE, 1.0, None, tiles + [face], Profile()) == tiles + [face]
    assert seen == []
    # a look that reads the logo tile less surely than logo_sure stands only with a tile's shape there
    monkeypatch.setattr("companion.vision.read.read_outlines", lambda pyramid, quads, profile, floor=None: [
        FaceReading(geo.quad_of((500, 400), 0.0, 1.3 * LENGTH, WIDTH), 0.99, ((), ()), 0.97, 0.5) for _ in quads])
    assert last._logo_sought(IMAGE, 1.0, None, tiles + [part], Profile()) == tiles + [part]


def test_a_face_read_with_doubt_gives_way_to_a_tile_the_detector_sees_on_it_at_the_logos_scale(monkeypatch):
    # a tile close to the camera read through an outline off it, its pips in doubt: at the coarser scale the
    # detector frames it better, and the look there reads it surely, of a tile's shape (the held-out 83844, a 1-1)
    tiles = [FaceReading(_tile(x, 100), 0.99, (peaks(a), peaks(b)), 0.0, 0.5)
             for x, (a, b) in zip((200, 400, 600), ((2, 3), (1, 4), (5, 6)))]
    off = FaceReading(geo.quad_of((530, 390), 0.3, 0.7 * LENGTH, WIDTH), 0.99, (peaks(2, 0.6), peaks(1, 0.6)), 0.0, 0.5)
    assert count_pips(off, Profile()).confidence < Profile().doubt_below
    seen = []
    monkeypatch.setattr("companion.vision.detect.find_candidates", _detector([(500, 400)], []))
    monkeypatch.setattr("companion.vision.read.read_outlines", _outlines_read(None))

    def read(pyramid, frames, profile):
        seen.extend(frames)
        return [FaceReading(LOGO, 0.99, (peaks(1), peaks(1)), 0.0, 0.5) for _ in frames]
    monkeypatch.setattr("companion.vision.read.read_faces", read)
    found = last._logo_sought(IMAGE, 1.0, None, tiles + [off], Profile())
    assert len(seen) == 1 and found[:3] == tiles and len(found) == 4 and np.allclose(found[3].corners, LOGO)
    # the same face read surely is not looked at
    seen.clear()
    sure = replace(off, peaks=(peaks(2), peaks(1)))
    assert last._logo_sought(IMAGE, 1.0, None, tiles + [sure], Profile()) == tiles + [sure] and seen == []
