"""read_tiles on tiles drawn with known answers: values, corners, orientation, and the set checks."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from calibration import load_profile
from companion.vision import NO_TILE_WARNING, Faces, Reading, TileReading, VisionInputError, assemble, read_tiles
from companion.vision.assembly import _check_set, _settled_by_set
from companion.vision import geometry as geo
from companion.vision.profile import Profile
from drawing import draw_tile, read_face, table

HAND = [((160, 150), 10, 60, (6, 4)), ((420, 140), 95, 60, (3, 0)), ((300, 340), -35, 60, (5, 2)),
        ((520, 360), 60, 50, (1, 1))]


def _match(reading: Reading, centre, width: float) -> TileReading:
    near = [t for t in reading.tiles if np.linalg.norm(t.corners.mean(axis=0) - centre) < 0.3 * width]
    assert len(near) == 1, f"expected one tile near {centre}, found {len(near)}"
    return near[0]


@pytest.mark.parametrize("profile_name", ["ivory", "giant-wood"])
def test_reads_each_drawn_tile_with_its_corners(profile_name):
    img = table()
    drawn = [(draw_tile(img, c, a, w, p), w, p) for c, a, w, p in HAND]
    reading = read_tiles(img, load_profile(profile_name))
    assert len(reading.tiles) == len(HAND)
    for corners, width, pips in drawn:
        tile = _match(reading, corners.mean(axis=0), width)
        assert sorted(tile.pips) == sorted(pips)
        # corners[0]-corners[1] is the short edge at the pips[0] end
        end = (tile.corners[0] + tile.corners[1]) / 2
        first_end = (corners[0] + corners[1]) / 2
        expect_first = pips[0] if np.linalg.norm(end - first_end) < width * 0.5 else pips[1]
        assert tile.pips[0] == expect_first
        assert np.linalg.norm(tile.corners - tile.corners.mean(axis=0), axis=1).mean() == pytest.approx(
            np.linalg.norm(corners - corners.mean(axis=0), axis=1).mean(), rel=0.15)
        assert 0.0 <= tile.confidence <= 1.0
    assert not reading.warnings


def test_a_face_read_as_a_tile_another_face_holds_takes_its_next_reading():
    box = np.array([[0, 0], [10, 0], [10, 20], [0, 20]], float)
    sure = TileReading((6, 5), box, 0.95)
    doubtful = TileReading((5, 6), box + 50, 0.4)
    settled = _settled_by_set([sure, doubtful], [[], [((6, 4), 0.4)]], Profile())
    assert settled[0] is sure and settled[1].pips == (6, 4) and settled[1].corners is doubtful.corners
    # a reading another face holds is no way out, and without one the tile stays (and is warned of)
    assert _settled_by_set([sure, doubtful], [[], [((6, 5), 0.4)]], Profile()) == [sure, doubtful]
    assert _settled_by_set([sure, doubtful], [[], []], Profile()) == [sure, doubtful]
    # a sure reading keeps what it read: the set's rule then only warns
    surer = TileReading((5, 6), box + 50, 0.9)
    assert _settled_by_set([sure, surer], [[], [((6, 4), 0.9)]], Profile()) == [sure, surer]


def test_a_half_the_set_has_not_takes_the_next_reading_however_surely_it_was_read_and_is_marked_for_checking():
    box = np.array([[0, 0], [10, 0], [10, 20], [0, 20]], float)
    seven = TileReading((7, 0), box, 0.6)  # a stray mark counted as a seventh pip
    (settled,) = _settled_by_set([seven], [[((6, 0), 0.6)]], Profile())
    assert settled.pips == (6, 0) and settled.confidence == Profile().impossible_confidence
    checked, warnings = _check_set([settled], Profile())
    assert warnings == ["tile 1 (6|0) is hard to read; check it"]
    # with no next reading the set can hold, the half stays, and is warned of
    assert _settled_by_set([seven], [[((8, 0), 0.6)]], Profile()) == [seven]
    assert "a half above 6" in _check_set([seven], Profile())[1][0]
    # a double-twelve set has sevens
    assert _settled_by_set([seven], [[((6, 0), 0.6)]], Profile(max_pips=12)) == [seven]


def test_empty_photo_says_no_tile():
    reading = read_tiles(table(), load_profile(None))
    assert reading.tiles == []
    assert reading.warnings == [NO_TILE_WARNING]


def test_same_tile_twice_is_warned_with_low_confidence():
    img = table()
    draw_tile(img, (180, 240), 0, 70, (5, 3))
    draw_tile(img, (460, 240), 90, 70, (3, 5))
    # settling off: a doubtful reading could otherwise give way to its next (tested on its own above)
    reading = read_tiles(img, replace(load_profile("ivory"), settle_below=0.0))
    assert [sorted(t.pips) for t in reading.tiles] == [[3, 5], [3, 5]]
    assert any("5-3" in w and "2 times" in w for w in reading.warnings)
    assert all(t.confidence <= 0.3 for t in reading.tiles)


@pytest.mark.parametrize("centre, angle, edge", [((10, 240), 90, "left"), ((320, 465), 0, "bottom"),
                                                  ((625, 240), 90, "right")])
def test_tile_cut_off_by_the_border_is_left_out_and_named(centre, angle, edge):
    img = table()
    draw_tile(img, (320, 200), 0, 70, (2, 2))
    draw_tile(img, centre, angle, 70, (6, 1))  # partly beyond the border
    reading = read_tiles(img, load_profile("ivory"))
    assert [t.pips for t in reading.tiles] == [(2, 2)]
    assert any("cut off" in w and edge in w for w in reading.warnings), reading.warnings


def test_the_part_of_a_cut_tile_inside_the_photo_is_left_out_though_outlined_with_one_corner_on_the_border():
    def face(corners, pips):
        return read_face(geo.clockwise(np.asarray(corners, np.float64)), pips)

    # tiles 160 by 80 read surely around (the table seen square on); at the left border, the reader outlined
    # the part inside of a tile laid at 80 degrees with its left side beyond the border: 30 to 64 px wide,
    # one corner on the border (not two, so the border does not cut the outline itself)
    sure = [face(geo.quad_of(c, np.radians(a), 160, 80), p) for c, a, p in
            [((300, 200), 0, (1, 2)), ((600, 200), 0, (3, 4)), ((300, 520), 90, (5, 6)), ((600, 520), 90, (0, 1)),
             ((450, 360), 30, (2, 2)), ((160, 360), 80, (3, 3))]]
    part = face([[0, 433], [63.3, 421.8], [35.5, 264.2], [6, 269]], (4, 2))
    whole = geo.quad_of((120, 700), np.radians(20), 160, 80)
    whole = face(whole - [whole[:, 0].min() - 1, 0], (6, 6))  # a whole tile, a corner just clear of the border
    reading = assemble(Faces([*sure, part, whole], 1000, 800), Profile())
    assert sorted(t.pips for t in reading.tiles) == [(0, 1), (1, 2), (2, 2), (3, 3), (3, 4), (5, 6), (6, 6)]
    assert any("cut off by the left border" in w for w in reading.warnings), reading.warnings


def test_half_above_the_set_is_warned():
    tiles = [TileReading((7, 1), np.zeros((4, 2)), 0.9), TileReading((2, 1), np.zeros((4, 2)), 0.9)]
    checked, warnings = _check_set(tiles, load_profile(None))
    assert checked[0].confidence <= 0.3 and checked[1].confidence == 0.9
    assert len(warnings) == 1 and "above 6" in warnings[0]


def test_rejects_what_is_not_an_image():
    with pytest.raises(VisionInputError, match="uint8"):
        read_tiles(np.zeros((10, 10, 3), np.float32), load_profile(None))
    with pytest.raises(VisionInputError, match="shape"):
        read_tiles(np.zeros((10, 10, 5), np.uint8), load_profile(None))


def test_a_peaks_shade_is_how_much_lighter_or_darker_than_the_wood_it_is():
    import cv2

    from companion.vision.read import _shades

    crop = np.full((geo.CROP_H, geo.CROP_W, 3), 100, np.uint8)
    cv2.circle(crop, (40, 36), 4, (230, 230, 230), -1)  # a light pip
    cv2.circle(crop, (90, 36), 4, (20, 20, 20), -1)  # a dark knot
    light, dark, wood = _shades(crop, np.array([40.0, 90.0, 64.0]), np.array([36.0, 36.0, 20.0]))
    assert light > 0.4 and dark < -0.25 and abs(wood) < 0.01
    assert list(_shades(None, np.array([40.0]), np.array([36.0]))) == [0.0]  # no crop: no shade
