"""Counting the pips of a face from the reader's peaks."""

from __future__ import annotations

import numpy as np

from companion.vision import Profile
from companion.vision import geometry as geo
from companion.vision.read import FaceReading, count_pips

from drawing import peaks


def _face(first: tuple, second: tuple) -> FaceReading:
    return FaceReading(geo.quad_of((200, 100), 0.0, 160, 80), 0.99, (first, second), 0.0)


def test_a_count_whose_pips_lie_askew_of_the_half_is_in_doubt():
    sure = count_pips(_face(peaks(6), peaks(5)), Profile())
    assert sure.pips == (6, 5) and sure.confidence > Profile().doubt_below
    lost = peaks(6)[:5]  # a pip of the six lost to glare: five, but not a five's pattern
    doubted = count_pips(_face(lost, peaks(5)), Profile())
    assert doubted.pips == (5, 5) and doubted.confidence == Profile().asymmetric_confidence
    assert {pips for pips, _ in doubted.others[:2]} == {(6, 5), (4, 5)}  # a pip lost, or a stray one
    # the faces of larger sets are laid out otherwise: no such doubt there
    assert count_pips(_face(lost, peaks(5)), Profile(max_pips=12, logo=False)).confidence > 0.5
    assert np.isclose(count_pips(_face(lost, peaks(5)), Profile(pip_symmetry=1.0)).confidence, sure.confidence)
