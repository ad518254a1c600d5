"""The face geometry the recognizer and its training share: frames, crops and their round trips."""

from __future__ import annotations

import math

import numpy as np
import pytest

from companion.vision import geometry as geo


def test_a_rectangle_s_frame_and_back():
    quad = geo.quad_of((300.0, 200.0), math.radians(30), 120.0, 60.0)
    centre, angle, length, width = geo.frame_of(quad)
    assert centre == pytest.approx([300, 200])
    assert angle == pytest.approx(math.radians(30))
    assert (length, width) == (pytest.approx(120), pytest.approx(60))
    assert np.allclose(geo.clockwise(quad), quad)  # quad_of is clockwise already


def test_clockwise_keeps_the_first_end_and_reverses_the_turn():
    quad = geo.quad_of((0.0, 0.0), 0.0, 100.0, 50.0)
    mirrored = quad[[1, 0, 3, 2]]
    fixed = geo.clockwise(mirrored)
    assert np.allclose(fixed, quad)


def test_the_centre_under_perspective_is_where_the_diagonals_cross():
    quad = np.array([[0.0, 10.0], [0.0, 0.0], [100.0, -20.0], [100.0, 30.0]])  # a trapezoid
    c = geo.centre_of(quad)
    # on both diagonals
    for a, b in ((quad[0], quad[2]), (quad[1], quad[3])):
        d = b - a
        assert abs(d[0] * (c - a)[1] - d[1] * (c - a)[0]) < 1e-6


@pytest.mark.parametrize("angle", [0.0, 0.7, 2.0, -2.5])
def test_a_frame_lands_on_the_canonical_face(angle):
    quad = geo.quad_of((500.0, 300.0), angle, 200.0, 100.0)
    m = geo.frame_to_crop((500.0, 300.0), angle, 200.0, 100.0)
    assert np.allclose(geo.apply(m, quad), geo.CANONICAL, atol=1e-6)
    h = geo.quad_to_crop(quad)
    assert np.allclose(geo.apply(h, quad), geo.CANONICAL, atol=1e-3)


def test_a_crop_from_a_halved_photo_sees_the_same_place():
    img = np.zeros((400, 600, 3), np.uint8)
    img[190:211, 290:311] = 255  # a white square at (300, 200)
    m = geo.frame_to_crop((300.0, 200.0), 0.0, 96.0, 48.0)  # one photo pixel per crop pixel
    full = geo.warp_crop(img, m)
    half = geo.warp_crop(img[::2, ::2].copy(), geo.scaled(m, 0.5))
    for crop in (full, half):
        ys, xs = np.nonzero(crop[..., 0] > 128)
        assert abs(xs.mean() - geo.CROP_W / 2) < 1.5 and abs(ys.mean() - geo.CROP_H / 2) < 1.5


def test_the_source_level_keeps_the_crop_from_shrinking_a_face_by_two_or_more():
    assert geo.source_level(90.0, 4) == 0
    assert geo.source_level(300.0, 4) == 1  # 300 / 2 = 150 >= 96; / 4 = 75 < 96
    assert geo.source_level(2000.0, 2) == 2  # no further than asked
    for length in (50.0, 150.0, 400.0, 900.0):
        k = geo.source_level(length, 6)
        assert geo.FACE_L <= length / 2 ** k < 2 * geo.FACE_L or (k == 0 and length < 2 * geo.FACE_L)


def test_outside_the_photo_the_crop_is_grey():
    img = np.zeros((50, 50, 3), np.uint8)
    crop = geo.warp_crop(img, geo.frame_to_crop((-500.0, -500.0), 0.0, 96.0, 48.0))
    assert (crop == 127).all()


def test_iou_is_shared_area_over_covered_area():
    square = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]])
    assert geo.iou(square, square) == pytest.approx(1.0)
    assert geo.iou(square, square + [5.0, 0.0]) == pytest.approx(1 / 3)
    assert geo.iou(square, square + [20.0, 0.0]) == 0.0
