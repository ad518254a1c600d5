"""The reader's training samples: outlines across two touching tiles, which it must learn to turn down."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.training import samples
from companion.vision import geometry as geo


def _tile(x: float, y: float, angle: float = 0.0) -> np.ndarray:
    return geo.quad_of((x, y), angle, 100.0, 50.0)


@pytest.mark.parametrize("order", [[0, 1, 2, 3], [2, 3, 0, 1]])
def test_two_tiles_end_to_end_give_the_outline_across_their_seam(order):
    b = _tile(200, 100)[order]  # whichever end of the second comes first
    (q,) = samples.straddles([_tile(100, 100), b])
    centre, angle, length, width = geo.frame_of(q)
    assert np.allclose(centre, (150, 100)) and length == pytest.approx(100) and width == pytest.approx(50)


def test_two_tiles_side_by_side_give_the_outline_across_their_long_seam():
    (q,) = samples.straddles([_tile(100, 100), _tile(100, 150)])
    centre, _, length, width = geo.frame_of(q)
    assert np.allclose(centre, (100, 125)) and length == pytest.approx(100) and width == pytest.approx(50)


@pytest.mark.parametrize("other", [_tile(400, 100), _tile(100, 300), _tile(175, 100, np.pi / 2), _tile(150, 100)])
def test_tiles_apart_crossed_or_overlapping_give_none(other):
    assert samples.straddles([_tile(100, 100), other]) == []


def test_a_row_of_three_gives_its_two_seams():
    found = samples.straddles([_tile(100, 100), _tile(200, 100), _tile(300, 100)])
    assert sorted(round(geo.frame_of(q)[0][0]) for q in found) == [150, 250]


def _photo_of_two_touching_tiles() -> samples.PoolPhoto:
    tiles = [{"corners": _tile(x, 150).tolist(), "pips": [1, 2], "pips_xy": [[], []], "partial": False}
             for x in (150, 250)]
    return samples.PoolPhoto(np.full((300, 400, 3), 128, np.uint8), {"set": {}, "tiles": tiles})


@pytest.mark.parametrize("seed", range(12))
def test_a_straddling_negative_is_a_crop_centred_on_the_seam(monkeypatch, seed):
    looks = []  # the crops' matrices
    monkeypatch.setattr(samples, "_crop", lambda photo, matrix, length: looks.append(matrix) or photo.levels[0])
    samples._negative(_photo_of_two_touching_tiles(), np.random.default_rng(seed), straddle_share=1.0)
    middle = geo.apply(np.linalg.inv(geo.as_homography(looks[0])), np.array([[geo.CROP_W / 2, geo.CROP_H / 2]]))[0]
    assert abs(middle[0] - 200) < 25 and abs(middle[1] - 150) < 25  # nearer the seam than either tile's middle
