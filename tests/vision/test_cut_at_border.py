"""A tile cut off by the photo's border with its centre beyond it gives the detector only a weak peak at the
border: a look there that the reader takes surely for a tile cut off is named in a warning, never read."""

from __future__ import annotations

import numpy as np

from companion.vision import Faces, Profile, assemble
from companion.vision import geometry as geo
from companion.vision.looks import last
from companion.vision.read import FaceReading, Pyramid

from drawing import peaks, read_face

WIDTH, HEIGHT = 1000, 600
PYRAMID = Pyramid(np.zeros((HEIGHT, WIDTH, 3), np.uint8))
TILES = [read_face(geo.quad_of((x, 300), 0.0, 160, 80), pips)
         for x, pips in ((300, (2, 3)), (500, (4, 1)), (700, (6, 5)))]
CUT = geo.quad_of((-30, 300), 0.0, 160, 80)  # its centre beyond the left border, 30% of it inside
INSIDE = geo.quad_of((500, 500), 0.0, 160, 80)


def _frame(quad: np.ndarray) -> tuple[np.ndarray, float, float, float]:
    centre, angle, length, width = geo.frame_of(quad)
    return np.clip(centre, 0, [WIDTH - 1, HEIGHT - 1]), angle, length, width  # the peak lies on the border


def _reader(looks: list[FaceReading], seen: list):
    def read(pyramid, frames, profile):
        seen.extend(frames)
        return looks[:len(frames)]
    return read


def test_a_tile_cut_off_found_at_the_border_is_named_and_not_read(monkeypatch):
    seen = []
    monkeypatch.setattr("companion.vision.read.read_faces", _reader([read_face(CUT, (0, 2))], seen))
    cut = last._cut_at_border(PYRAMID, TILES, [_frame(CUT)], Profile())
    assert len(cut) == 1 and np.allclose(cut[0], CUT)
    reading = assemble(Faces(TILES, WIDTH, HEIGHT, cut), Profile())
    assert [t.pips for t in reading.tiles] == [(2, 3), (4, 1), (6, 5)]
    assert len(reading.warnings) == 1 and "cut off by the left border" in reading.warnings[0]


def test_looks_that_are_not_surely_a_tile_cut_off_are_not_named(monkeypatch):
    unsure = FaceReading(CUT, 0.95, (peaks(0), peaks(2)), 0.0, 0.5)
    blank = read_face(CUT, (0, 0))  # a plank at the border: this set's double-blank carries its logo
    inside = read_face(INSIDE, (0, 2))
    on_a_tile = read_face(geo.quad_of((330, 300), 0.0, 160, 80), (0, 2))
    for look in (unsure, blank, inside, on_a_tile):
        monkeypatch.setattr("companion.vision.read.read_faces", _reader([look], []))
        assert last._cut_at_border(PYRAMID, TILES, [_frame(CUT)], Profile()) == []
    monkeypatch.setattr("companion.vision.read.read_faces", _reader([blank], []))
    assert len(last._cut_at_border(PYRAMID, TILES, [_frame(CUT)], Profile(logo=False))) == 1


def test_no_look_at_a_peak_on_a_whole_face_and_a_cut_tile_named_once(monkeypatch):
    seen = []
    monkeypatch.setattr("companion.vision.read.read_faces", _reader([read_face(CUT, (0, 2))], seen))
    assert last._cut_at_border(PYRAMID, TILES, [(np.array([310.0, 300.0]), 0.0, 160.0, 80.0)], Profile()) == []
    assert seen == []
    named = FaceReading(CUT + [2, 0], 0.99, (peaks(0), peaks(2)), 0.0, 0.5)  # found by the scan itself
    reading = assemble(Faces(TILES + [named], WIDTH, HEIGHT, [CUT]), Profile())
    assert sum("cut off" in w for w in reading.warnings) == 1


def test_the_logo_tile_read_whole_with_a_corner_on_the_border_is_named_as_cut_off():
    # its emblem or word mark reads as a whole tile of its own, so its part inside shows no sign of the rest
    def logo(x: float) -> FaceReading:
        return FaceReading(geo.quad_of((x, 450), 0.3, 160, 80), 0.99, ((), ()), 0.999, 0.5)  # turned a little

    reading = assemble(Faces(TILES + [logo(89.0)], WIDTH, HEIGHT), Profile())  # one corner 1 pixel from x = 0
    assert [t.pips for t in reading.tiles] == [(2, 3), (4, 1), (6, 5)]
    assert len(reading.warnings) == 1 and "cut off by the left border" in reading.warnings[0]
    assert (0, 0) in [t.pips for t in assemble(Faces(TILES + [logo(120.0)], WIDTH, HEIGHT), Profile()).tiles]
    # a tile with pips there is read: of the parts of a tile cut off, only the logo's look whole
    pips = read_face(logo(89.0).corners, (3, 3))
    assert (3, 3) in [t.pips for t in assemble(Faces(TILES + [pips], WIDTH, HEIGHT), Profile()).tiles]
    # nor is a face read as the logo with doubt named as one cut off (a speck at the border): it is marked to check
    doubtful = FaceReading(logo(89.0).corners, 0.99, ((), ()), 0.7, 0.5)
    warnings = assemble(Faces(TILES + [doubtful], WIDTH, HEIGHT), Profile()).warnings
    assert len(warnings) == 1 and "check it" in warnings[0]


def test_a_tile_cut_off_casts_no_doubt_on_a_face_read_as_the_same_tile():
    # what is inside of a tile cut off may read as any tile: 099258's 1-0, read 0.95 surely but fitting a steep
    # view's plane loosely, was taken for a tile read twice, so in doubt, and left out as a misshapen speck
    one_pip = read_face(geo.quad_of((500, 150), 0.0, 200, 70), (1, 0))  # fits the plane of TILES 0.72
    cut = read_face(CUT, (0, 1))
    reading = assemble(Faces(TILES + [one_pip, cut], WIDTH, HEIGHT), Profile())
    assert sorted(t.pips for t in reading.tiles) == [(1, 0), (2, 3), (4, 1), (6, 5)]
    assert sum("cut off by the left border" in w for w in reading.warnings) == 1
    # a whole face read so inside the photo still casts doubt on it
    twice = read_face(INSIDE, (0, 1))
    assert (1, 0) not in [t.pips for t in assemble(Faces(TILES + [one_pip, twice], WIDTH, HEIGHT), Profile()).tiles]
