"""Reconciling a reading with the set's contents: the check that lets calibration judge itself."""

import numpy as np
import pytest

from calibration.learn import _looked_at, calibrate, reconcile
from companion.rules.tiles import Tile, double_set
from companion.vision import Reading, TileReading
from companion.vision.profile import Profile

SQUARE = np.array([[0, 0], [10, 0], [10, 20], [0, 20]], float)


def reading_of(pips_list, warnings=()):
    return Reading([TileReading(tuple(p), SQUARE, 0.9) for p in pips_list], list(warnings))


def whole_set(max_pips=6):
    return [(t.high, t.low) for t in double_set(max_pips)]


@pytest.mark.parametrize("max_pips, count", [(6, 28), (9, 55), (12, 91)])
def test_a_whole_set_read_once_reconciles(max_pips, count):
    check = reconcile(reading_of(whole_set(max_pips)), max_pips)
    assert check.ok and check.expected == count and len(check.once) == count
    assert check.problems() == []
    assert check.summary() == f"{count} of {count} tiles read exactly once"


def test_either_order_of_the_halves_is_the_same_tile():
    check = reconcile(reading_of([(b, a) for a, b in whole_set()]), 6)
    assert check.ok


def test_a_misread_tile_is_named_missing_and_its_reading_twice():
    tiles = whole_set()
    tiles[tiles.index((5, 3))] = (5, 2)  # 5-3 read as 5-2
    check = reconcile(reading_of(tiles), 6)
    assert not check.ok
    assert check.missing == (Tile(5, 3),)
    assert check.twice == ((Tile(5, 2), 2),)
    assert check.summary() == "26 of 28 tiles read exactly once; not found: 5-3; read more than once: 5-2 x2"


def test_a_half_above_the_set_is_named_as_not_in_the_set():
    tiles = whole_set()
    tiles.append((7, 1))
    check = reconcile(reading_of(tiles), 6)
    assert not check.ok and check.outside == ((7, 1),)
    assert "not in a double-6 set: 7-1" in check.summary()


def test_nine_is_in_a_double_nine_set_but_not_in_a_double_six():
    assert reconcile(reading_of(whole_set(9)), 9).ok
    assert not reconcile(reading_of(whole_set(9)), 6).ok


def test_a_tile_cut_off_is_named_when_a_tile_is_missing():
    check = reconcile(reading_of(whole_set()[1:], ["a tile cut off by the left border of the photo (...) was left out"]), 6)
    assert check.cut_off == 1 and not check.ok
    assert "1 tile cut off by the photo's border" in check.summary()


def test_more_tiles_read_once_scores_higher_and_surplus_readings_cost():
    full = reconcile(reading_of(whole_set()), 6)
    one_missing = reconcile(reading_of(whole_set()[1:]), 6)
    with_extra = reconcile(reading_of(whole_set()[1:] + [(3, 3), (3, 3)]), 6)
    assert full.score > one_missing.score > with_extra.score


def test_an_empty_image_is_refused_naming_every_tile():
    image = np.full((120, 160, 3), 128, np.uint8)
    result = calibrate(image, name="grey", max_pips=6)
    assert not result.ok and len(result.check.missing) == 28
    assert result.check.summary().startswith("0 of 28 tiles read exactly once; not found: 0-0, 1-0, 1-1")


def test_an_unknown_set_size_is_a_value_error():
    with pytest.raises(ValueError, match="max_pips: 7"):
        calibrate(np.zeros((50, 50, 3), np.uint8), name="x", max_pips=7)


class _Seen:
    """What ``find_faces`` found at one detector threshold (only its threshold matters to the fake assemble)."""

    def __init__(self, threshold):
        self.threshold, self.faces = threshold, []


def _fake_looks(monkeypatch, wide_reading, strict_reading):
    asked = []

    def find_faces(image, profile):
        asked.append(profile.detect_threshold)
        return _Seen(profile.detect_threshold)

    monkeypatch.setattr("calibration.learn.find_faces", find_faces)
    monkeypatch.setattr("calibration.learn.assemble",
                        lambda seen, profile: wide_reading if seen.threshold < 0.2 else strict_reading)
    return asked


def test_a_patch_of_ground_read_as_a_tile_by_the_wide_look_is_left_out_by_a_look_at_fewer_places(monkeypatch):
    asked = _fake_looks(monkeypatch, reading_of(whole_set() + [(1, 0)]), reading_of(whole_set()))
    look, _, _, _, check = _looked_at(np.zeros((60, 80, 3), np.uint8), Profile(), 6, lambda message: None)
    assert asked == [0.1, 0.2] and look == 0.2 and check.ok


def test_the_wide_look_is_the_only_one_when_it_reconciles(monkeypatch):
    asked = _fake_looks(monkeypatch, reading_of(whole_set()), reading_of(whole_set()[1:]))
    look, _, _, _, check = _looked_at(np.zeros((60, 80, 3), np.uint8), Profile(), 6, lambda message: None)
    assert asked == [0.1] and look == 0.1 and check.ok


def test_where_neither_look_reconciles_the_closer_reading_is_kept(monkeypatch):
    asked = _fake_looks(monkeypatch, reading_of(whole_set()[2:]), reading_of(whole_set()[1:]))
    look, _, _, _, check = _looked_at(np.zeros((60, 80, 3), np.uint8), Profile(), 6, lambda message: None)
    assert asked == [0.1, 0.2] and look == 0.2 and not check.ok and check.missing == (Tile(0, 0),)
