"""Where the faces read hold all the set's tiles but one or two, those missing are looked for where the
detector saw a tile and no face was read surely: the set says what such a look must read."""

from __future__ import annotations

import numpy as np

from companion.vision import Profile, count_pips
from companion.vision import geometry as geo
from companion.vision.looks import last
from companion.vision.read import FaceReading

from drawing import read_face

LENGTH, WIDTH = 100.0, 50.0
SET = [(a, b) for a in range(7) for b in range(a, 7)]  # the 28 tiles of a double-six set
PLACES = [(100.0 + 130 * (k % 4), 100.0 + 80 * (k // 4)) for k in range(len(SET))]  # a full set in 7 rows of 4


def _quad(place: tuple[float, float]) -> np.ndarray:
    return geo.quad_of(place, 0.0, LENGTH, WIDTH)


def _full_set_but(*gone: int) -> list[FaceReading]:
    return [read_face(_quad(p), t) for k, (p, t) in enumerate(zip(PLACES, SET)) if k not in gone]


def _frames(*at: int) -> list[tuple[np.ndarray, float, float, float]]:
    return [(np.array(PLACES[k]), 0.0, LENGTH, WIDTH) for k in at]


def _outlines_read(tile_at: dict[int, tuple[int, int]], seen: list, confidence_heat: float = 0.97):
    """A reader that sees tile ``tile_at[k]`` (whole, settled) through an outline centred within 10 pixels of
    ``PLACES[k]``, and no tile through any other."""
    def read(pyramid, quads, profile, floor=None):
        seen.extend(quads)
        out = []
        for q in quads:
            hit = [k for k in tile_at if np.hypot(*(geo.centre_of(q) - PLACES[k])) < 10]
            out.append(read_face(_quad(PLACES[hit[0]]), tile_at[hit[0]], confidence_heat) if hit
                       else FaceReading(q, 0.01, ((), ()), 0.0, 40.0))
        return out
    return read


def _tiles(faces: list[FaceReading]) -> list[tuple[int, int]]:
    return [count_pips(f, Profile()).pips for f in faces if f.tile_score >= Profile().tile_threshold]


def test_the_one_tile_missing_is_found_where_the_detector_saw_a_tile(monkeypatch):
    seen = []
    monkeypatch.setattr("companion.vision.read.read_outlines", _outlines_read({5: SET[5]}, seen))
    found = last._last_of_set(None, _full_set_but(5), _frames(0, 5), Profile())
    assert sorted(map(tuple, map(sorted, _tiles(found)))) == SET
    assert seen and all(np.hypot(*(geo.centre_of(q) - PLACES[5])) < 2 * LENGTH for q in seen)  # not on tile 0


def test_a_look_that_reads_a_tile_held_already_is_not_taken(monkeypatch):
    monkeypatch.setattr("companion.vision.read.read_outlines", _outlines_read({5: SET[6]}, []))
    assert len(last._last_of_set(None, _full_set_but(5), _frames(5), Profile())) == len(SET) - 1


def test_no_look_while_more_tiles_are_missing_or_where_turned_off(monkeypatch):
    seen = []
    monkeypatch.setattr("companion.vision.read.read_outlines", _outlines_read({5: SET[5]}, seen))
    three_gone = _full_set_but(5, 9, 20)
    assert last._last_of_set(None, three_gone, _frames(5), Profile()) == three_gone
    one_gone = _full_set_but(5)
    assert last._last_of_set(None, one_gone, _frames(5), Profile(set_missing_most=0)) == one_gone
    assert not seen
    assert len(last._last_of_set(None, _full_set_but(5, 9), _frames(5), Profile())) == len(SET) - 1


def test_a_face_reading_a_tile_another_face_reads_too_gives_way(monkeypatch):
    # the tile at place 5 read surely as place 6's tile: the set's 5th tile missing, the 6th read twice
    faces = _full_set_but(5) + [read_face(_quad(PLACES[5]), SET[6])]
    monkeypatch.setattr("companion.vision.read.read_outlines", _outlines_read({5: SET[5]}, []))
    found = last._last_of_set(None, faces, [], Profile())
    assert sorted(map(tuple, map(sorted, _tiles(found)))) == SET and len(found) == len(SET)


def test_no_look_where_a_face_was_read_surely(monkeypatch):
    # place 5 read surely as a tile of its own (SET[5]); the look there reads the missing one (SET[0])
    faces = _full_set_but(0)
    monkeypatch.setattr("companion.vision.read.read_outlines", _outlines_read({5: SET[0]}, []))
    assert last._last_of_set(None, faces, _frames(5), Profile()) == faces


def test_a_face_read_with_doubt_gives_way_only_to_a_surer_look(monkeypatch):
    # place 5's tile read with doubt (faint pips) as place 9's, whose tile was not found: the set's 5th is missing
    profile = Profile()
    faces = _full_set_but(5, 9) + [read_face(_quad(PLACES[5]), SET[9], 0.7)]
    doubt = count_pips(faces[-1], profile).confidence
    monkeypatch.setattr("companion.vision.read.read_outlines", _outlines_read({5: SET[5]}, []))
    found = last._last_of_set(None, faces, [], profile)
    assert _tiles(found)[-1] == SET[5] and len(found) == len(faces)
    monkeypatch.setattr("companion.vision.read.read_outlines", _outlines_read({5: SET[5]}, [], 0.65))
    less_sure = count_pips(read_face(_quad(PLACES[5]), SET[5], 0.65), profile).confidence
    assert profile.candidate_confidence <= less_sure < doubt < profile.doubt_below
    assert last._last_of_set(None, faces, [], profile) == faces
