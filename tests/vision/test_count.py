"""Counting the pips of a face from the reader's peaks."""

from __future__ import annotations

import numpy as np

from companion.vision import Profile
from companion.vision import geometry as geo
from companion.vision.read import FaceReading, Peak, count_pips

from drawing import peaks


def _face(first: tuple, second: tuple) -> FaceReading:
    return FaceReading(geo.quad_of((200, 100), 0.0, 160, 80), 0.99, (first, second), 0.0)


def test_a_count_whose_pips_lie_askew_of_the_half_is_in_doubt():
    sure = count_pips(_face(peaks(6), peaks(5)), Profile())
    assert sure.pips == (6, 5) and sure.confidence > Profile().doubt_below
    lost = peaks(5)[:3]  # two pips of a five lost to glare: three, not a three's pattern, and no one pip to blame
    doubted = count_pips(_face(lost, peaks(5)), Profile())
    assert doubted.pips == (3, 5) and doubted.confidence == Profile().asymmetric_confidence
    assert {pips for pips, _ in doubted.others[:2]} == {(4, 5), (2, 5)}  # a pip lost, or a stray one
    # the faces of larger sets are laid out otherwise: no such doubt there
    assert count_pips(_face(lost, peaks(5)), Profile(max_pips=12, logo=False)).confidence > 0.5
    assert np.isclose(count_pips(_face(lost, peaks(5)), Profile(pip_symmetry=1.0)).confidence, sure.confidence)


def test_a_mark_that_alone_sets_a_half_askew_is_no_pip():
    one = peaks(1) + (Peak(0.52, 0.2, -0.2),)  # a faint mark off the one's pip, toward a corner
    two = peaks(2) + (Peak(0.51, 0.45, 0.51),)  # a faint mark at the face's edge (a neighbour's pip)
    knot = peaks(1) + (Peak(0.9, 0.2, -0.2),)  # a mark read as surely as a pip
    three = peaks(3) + (Peak(0.9, 0.75, -0.25),)  # a three and a mark where a four's corner would be
    corner = (Peak(0.9, 0.25, 0.27),)  # a lone mark where a corner pip would be, on a blank half
    for first, read in ((one, 1), (two, 2), (knot, 1), (three, 3), (corner, 0)):
        count = count_pips(_face(first, peaks(6)), Profile())
        assert count.pips == (read, 6) and count.confidence == Profile().asymmetric_confidence  # still checked
        # the mark counted is its next reading, and the pip lost where the mark's mirror lies the one after
        assert [pips for pips, _ in count.others[:2]] == [(read + 1, 6), (read + 2, 6)]
    # a faint pip of a pattern, a lone pip off the middle (a one seen through an outline a little off), or a set
    # of another layout: counted as before
    faint_corner = peaks(3, heats=(0.97, 0.97, 0.55))
    assert count_pips(_face(faint_corner, peaks(6)), Profile()).pips == (3, 6)
    assert count_pips(_face((Peak(0.9, 0.35, 0.1),), peaks(6)), Profile()).pips == (1, 6)
    assert count_pips(_face(corner, peaks(6)), Profile(lone_pip_off=0.0)).pips == (1, 6)
    assert count_pips(_face(knot, peaks(6)), Profile(max_pips=12, logo=False)).pips == (2, 6)


def test_of_two_marks_that_could_each_be_the_stray_the_one_that_leaves_the_rest_the_more_symmetric_is():
    # a four and a mark toward a corner pip: five pips, none at the middle to be its own mirror image, so askew;
    # without the mark the four lie square, without the corner pip the rest lie within the bound too (0.16)
    four = peaks(4) + (Peak(0.6, 0.28, 0.09),)
    count = count_pips(_face(four, peaks(6)), Profile())
    assert count.pips == (4, 6) and count.confidence == Profile().asymmetric_confidence
    twice = peaks(2) + (Peak(0.9, 0.72, 0.27),)  # two peaks on one pip: the other pair is the two's
    assert count_pips(_face(twice, peaks(6)), Profile()).pips == (2, 6)


def test_a_count_is_of_the_face_and_profile_asked():
    # counts are cached by a face's peaks: the logo score and the profile are part of what is asked
    marks = peaks(2)
    plain = FaceReading(geo.quad_of((200, 100), 0.0, 160, 80), 0.99, (marks, ()), 0.0)
    logo = FaceReading(plain.corners, 0.99, (marks, ()), 0.99)
    assert count_pips(plain, Profile()).pips == (2, 0)
    assert count_pips(logo, Profile()).pips == (0, 0)  # the logo's marks are no pips
    assert count_pips(logo, Profile(logo=False)).pips == (2, 0)
    assert count_pips(plain, Profile(pip_threshold=0.99)).pips == (0, 0)
    # (a profile's hash is worked out once; equal profiles hash alike, as the cache needs)
    assert hash(Profile(logo=False)) == hash(Profile(logo=False)) != hash(Profile())
    assert {Profile(pip_threshold=0.99): "key"}[Profile(pip_threshold=0.99)] == "key"


def _shaded(half: tuple, shade: float) -> tuple:
    return tuple(p._replace(shade=shade) for p in half)


def test_a_faint_mark_of_the_other_shade_than_the_faces_pips_is_no_pip_but_a_doubt():
    light = _shaded(peaks(6), 0.5)  # light pips on dark wood
    knot = (Peak(0.61, 0.5, 0.0, -0.05),)  # a dark knot at the blank half's middle, read as a one
    count = count_pips(_face(knot, light), Profile())
    assert count.pips == (0, 6)
    assert count.confidence < Profile().doubt_below and count.others[0][0] == (1, 6)  # still checked, as a strong peak
    assert count_pips(_face(knot, light), Profile(shade_apart=0.0)).pips == (1, 6)  # the rule off
    # a faint mark of the pips' shade, or as light as the wood, is counted as before
    assert count_pips(_face((Peak(0.61, 0.5, 0.0, 0.2),), light), Profile()).pips == (1, 6)
    assert count_pips(_face((Peak(0.61, 0.5, 0.0, -0.01),), light), Profile()).pips == (1, 6)
    # so is any mark where the surest pips do not agree on a shade, or only one is sure, or they are near the wood's
    mixed = light[:5] + (light[5]._replace(shade=-0.3),)
    assert count_pips(_face(knot, mixed), Profile()).pips == (1, 6)
    assert count_pips(_face(knot, _shaded(peaks(1), 0.5)), Profile()).pips == (1, 1)
    assert count_pips(_face(knot, _shaded(peaks(6), 0.03)), Profile()).pips == (1, 6)
    # and the other way round: glare (lighter than the wood) on a tile with dark pips
    glare = (Peak(0.7, 0.5, 0.0, 0.25),)
    assert count_pips(_face(glare, _shaded(peaks(4), -0.4)), Profile()).pips == (0, 4)
    # a sure peak of the other shade stays: the reader's surest marks are not second-guessed
    assert count_pips(_face((Peak(0.9, 0.5, 0.0, -0.05),), light), Profile()).pips == (1, 6)
