"""The tiles of a set lie on one plane: a face far smaller than tiles are where it lies is no tile."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from companion.vision import Faces, Profile, assemble
from companion.vision import geometry as geo
from companion.vision.read import FaceReading, Peak


def _face(x: float, y: float, length: float, pips=(2, 3)) -> FaceReading:
    halves = tuple(tuple([Peak(0.95, 0.3)] * n) for n in pips)
    return FaceReading(geo.quad_of((x, y), 0.3, length, length / 2), 0.99, halves, 0.0)


def _steep_photo() -> list[FaceReading]:
    """Four rows of tiles seen at a slant: 200 px long near the camera (bottom), 80 px far off (top)."""
    faces = []
    for row, (y, length) in enumerate([(150, 80), (350, 120), (600, 160), (850, 200)]):
        for col in range(3):
            faces.append(_face(300 + 350 * col + 40 * row, y, length, pips=(row + 1, col + 4)))
    return faces


def test_far_tiles_of_a_steep_photo_are_kept_though_small():
    reading = assemble(Faces(_steep_photo(), 1400, 1000), Profile())
    assert len(reading.tiles) == 12


def test_marks_far_smaller_than_tiles_where_they_lie_are_dropped():
    marks = [_face(900 + 80 * i, 900, 50, pips=(0, i + 1)) for i in range(3)]  # numbers on a score card, near by
    reading = assemble(Faces(_steep_photo() + marks, 1400, 1000), Profile())
    assert len(reading.tiles) == 12
    assert all(t.corners[:, 1].mean() < 880 or geo.frame_of(t.corners)[2] > 150 for t in reading.tiles)


def test_sizes_judge_nothing_with_size_floor_zero_or_too_few_faces():
    marks = [_face(900 + 80 * i, 900, 50, pips=(0, i + 1)) for i in range(3)]
    assert len(assemble(Faces(_steep_photo() + marks, 1400, 1000), replace(Profile(), size_floor=0.0)).tiles) == 15
    few = [_face(300, 850, 200), _face(650, 850, 200), _face(950, 900, 50, pips=(0, 1))]
    assert len(assemble(Faces(few, 1400, 1000), Profile()).tiles) == 3
