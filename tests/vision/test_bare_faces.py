"""A face with at most one pip shows little that makes it a tile: the reader must be surer it is one."""

from __future__ import annotations

from companion.vision import Faces, Profile, assemble
from companion.vision import geometry as geo
from companion.vision.read import FaceReading, Peak


def _face(x: float, pips: tuple[int, int], score: float, logo: float = 0.0) -> FaceReading:
    halves = tuple(tuple([Peak(0.95, 0.3)] * n) for n in pips)
    return FaceReading(geo.quad_of((x, 300), 0.0, 160, 80), score, halves, logo)


def test_a_one_pip_face_needs_a_surer_tile_score_than_others():
    faces = [_face(150, (1, 0), 0.9), _face(400, (2, 0), 0.9), _face(650, (0, 1), 0.99), _face(900, (0, 0), 0.9, 0.9)]
    read = {t.pips for t in assemble(Faces(faces, 1100, 600), Profile()).tiles}
    # a plank with a knot is dropped; two pips, a surer tile score, or the logo tile stay
    assert read == {(2, 0), (0, 1), (0, 0)}
    loose = {t.pips for t in assemble(Faces(faces, 1100, 600), Profile(bare_tile_threshold=0.8)).tiles}
    assert loose == {(1, 0), (2, 0), (0, 1), (0, 0)}
