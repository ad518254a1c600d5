"""The reader's corners: its corner maps' peaks, chosen together so that the four make a tile's shape."""

from __future__ import annotations

import numpy as np

from companion.vision import Profile
from companion.vision import geometry as geo
from companion.vision.read import STRIDE, _corners, _skew


def _maps(peaks: list[list[tuple[tuple[float, float], float]]]) -> np.ndarray:
    """Reader maps (pips, then the four corners) with a round peak of the given heat at each crop point."""
    h, w = geo.CROP_H // STRIDE, geo.CROP_W // STRIDE
    rows, cols = np.mgrid[0:h, 0:w]
    maps = np.zeros((5, h, w), np.float32)
    for k, corner in enumerate(peaks):
        for (x, y), heat in corner:
            cx, cy = (x - (STRIDE - 1) / 2) / STRIDE, (y - (STRIDE - 1) / 2) / STRIDE
            maps[k + 1] = np.maximum(maps[k + 1], heat * np.exp(-((cols - cx) ** 2 + (rows - cy) ** 2) / 1.5))
    return maps


def _one(maps: np.ndarray) -> np.ndarray:
    return _corners(maps[None], Profile())[0]


def test_clear_peaks_give_the_corners():
    maps = _maps([[(tuple(c), 0.9)] for c in geo.CANONICAL])
    assert np.abs(_one(maps) - geo.CANONICAL).max() < 0.5


def test_a_corner_taken_from_a_neighbouring_tile_gives_way_to_the_one_that_makes_a_tile():
    # the third corner's map peaks higher on the next tile's corner, 30 px off; its own corner is there too
    stray = geo.CANONICAL[2] + [8.0, 30.0]
    peaks = [[(tuple(c), 0.9)] for c in geo.CANONICAL]
    peaks[2] = [(tuple(stray), 0.8), (tuple(geo.CANONICAL[2]), 0.5)]
    maps = _maps(peaks)
    assert _skew(np.array([c[0][0] for c in peaks])) > Profile().corner_skew  # the highest peaks: no tile
    assert np.abs(_one(maps) - geo.CANONICAL).max() < 0.5
    # without another peak to choose, the highest stays
    peaks[2] = [(tuple(stray), 0.8)]
    assert np.abs(_one(_maps(peaks))[2] - stray).max() < 0.5


def test_a_slanted_face_is_not_taken_for_a_misplaced_corner():
    # a face seen at a slant: one end an eighth wider, well within a tile's shape; a weaker peak that would
    # square it is not preferred
    slanted = geo.CANONICAL + [[0, 6], [0, 0], [0, 0], [0, 0]]
    peaks = [[(tuple(c), 0.9)] for c in slanted]
    peaks[0].append((tuple(geo.CANONICAL[0]), 0.4))
    assert np.abs(_one(_maps(peaks)) - slanted).max() < 0.5


def test_a_batch_gives_each_crop_its_own_corners():
    square = [[(tuple(c), 0.9)] for c in geo.CANONICAL]
    stray = [list(p) for p in square]
    stray[2] = [(tuple(geo.CANONICAL[2] + [8.0, 30.0]), 0.8), (tuple(geo.CANONICAL[2]), 0.5)]
    slanted = [[(tuple(c), 0.9)] for c in geo.CANONICAL + [[0, 6], [0, 0], [0, 0], [0, 0]]]
    maps = np.stack([_maps(square), _maps(stray), _maps(slanted)])
    together = _corners(maps, Profile())
    assert together.shape == (3, 4, 2)
    for k in range(3):
        assert np.array_equal(together[k], _one(maps[k]))
