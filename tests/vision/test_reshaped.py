"""A face read with doubt is looked at again where the table's plane says a tile lies: through the outline
predicted at its place, and moved along and across the tile (an outline across two tiles)."""

from __future__ import annotations

import numpy as np
import pytest

import companion.vision as vision
from companion.vision import Profile
from companion.vision import geometry as geo
from companion.vision.read import FaceReading, Peak

LENGTH, WIDTH = 160.0, 80.0


def _sure(quad: np.ndarray, pips: tuple[int, int], moved: float = 0.5) -> FaceReading:
    halves = tuple(tuple([Peak(0.97, 0.25)] * n) for n in pips)
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
    halves = ((Peak(0.97, 0.25), Peak(0.6, 0.3)), (Peak(0.97, 0.25),))
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
    monkeypatch.setattr(vision, "read_outlines", _reader())
    # the 460 tile read short at one end, as the 300 tile's 2-2 (its pips not in doubt): one of the two is
    # misread, and the outline the plane predicts there finds the 4-5
    short = MISSED.copy()
    short[2:, 0] -= 30
    twice = FaceReading(short, 0.99, ((Peak(0.9, 0.25),) * 2, (Peak(0.9, 0.25),) * 2), 0.0, 1.0)
    assert vision.count_pips(twice, Profile()).confidence > Profile().doubt_below
    faces = vision._reshaped(None, _faces()[:-1] + [twice], Profile())
    assert np.allclose(faces[-1].corners, MISSED) and _count(faces[-1]) == (4, 5)


def _count(face: FaceReading) -> tuple[int, int]:
    return vision.count_pips(face, Profile()).pips


def test_an_outline_across_two_tiles_moves_onto_the_tile_not_read(monkeypatch):
    monkeypatch.setattr(vision, "read_outlines", _reader())
    faces = vision._reshaped(None, _faces(), Profile())
    assert np.allclose(faces[-1].corners, MISSED) and _count(faces[-1]) == (4, 5)
    assert all(np.allclose(f.corners, q) for f, q in zip(faces, TABLE))  # the sure faces stay
    # without moved looks nothing nearer a tile is found: the doubtful face stays
    kept = vision._reshaped(None, _faces(), Profile(shift_along=0.0, shift_across=0.0))[-1]
    assert np.allclose(kept.corners, _across_two().corners)


def test_a_look_onto_a_tile_already_read_is_refused(monkeypatch):
    monkeypatch.setattr(vision, "read_outlines", _reader())
    faces = _faces()
    faces.insert(-1, _sure(MISSED, (4, 5)))
    assert np.allclose(vision._reshaped(None, faces, Profile())[-1].corners, _across_two().corners)


@pytest.mark.parametrize("profile", [Profile(settled_px=0.5), Profile(fit_margin=0.5)])
def test_a_look_that_has_not_settled_or_fits_no_better_is_refused(monkeypatch, profile):
    monkeypatch.setattr(vision, "read_outlines", _reader(moved=1.0))
    assert np.allclose(vision._reshaped(None, _faces(), profile)[-1].corners, _across_two().corners)


def test_a_tile_missing_from_the_gap_in_a_row_is_looked_for_there(monkeypatch):
    monkeypatch.setattr(vision, "read_outlines", _reader())
    row = _faces()[:-1] + [_sure(_tile(620, 300), (6, 6))]  # 300 and 620: room for one
    filled = vision._filled(None, row, Profile())
    assert len(filled) == len(row) + 1 and np.allclose(filled[-1].corners, MISSED) and _count(filled[-1]) == (4, 5)
    assert len(vision._filled(None, row, Profile(gap_most=0))) == len(row)


@pytest.mark.parametrize("seen", [
    FaceReading(np.zeros((4, 2)), 0.05, ((), ()), 0.0, 1.0),  # ground
    FaceReading(np.zeros((4, 2)), 0.96, ((Peak(0.6, 0.3),), ()), 0.0, 1.0),  # the sides of the tiles around it
])
def test_a_gap_that_shows_no_tile_read_surely_stays_empty(monkeypatch, seen):
    def look(pyramid, quads, profile, floor=None):
        return [FaceReading(q, seen.tile_score, seen.peaks, 0.0, 1.0) for q in quads]

    monkeypatch.setattr(vision, "read_outlines", look)
    row = _faces()[:-1] + [_sure(_tile(620, 300), (6, 6))]
    assert len(vision._filled(None, row, Profile())) == len(row)


def test_a_look_a_quarter_on_each_of_two_tiles_lies_on_them():
    a, c = _sure(_tile(300, 300), (1, 1)), _sure(_tile(460, 380), (2, 1))
    between = _sure(_tile(380, 340), (3, 1))  # a quarter of it on each
    assert vision._on_another(between, -1, [a, c], Profile())
    assert not vision._on_another(between, -1, [a], Profile())
