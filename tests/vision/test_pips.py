"""The pip reader on rectified faces drawn with known answers (half 0 on top, ``rect_width`` wide)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.vision.pips import halves_apart, read_face
from companion.vision.profile import Profile
from drawing import LAYOUTS

PROFILE = Profile()
W = PROFILE.rect_width
WOOD = (120, 180, 215)  # pale pine, BGR
INK = (30, 30, 35)


def blank_face(colour=WOOD) -> np.ndarray:
    rng = np.random.default_rng(1)
    face = np.full((2 * W, W, 3), colour, np.float32) + rng.normal(0, 2.0, (2 * W, W, 1))
    return np.clip(face, 0, 255).astype(np.uint8)


def pip_face(pips: tuple[int, int], *, divider: bool = True, radius: float = 0.09) -> np.ndarray:
    face = blank_face()
    if divider:
        cv2.line(face, (int(0.12 * W), W), (int(0.88 * W), W), INK, max(2, int(0.04 * W)), cv2.LINE_AA)
    for half, n in enumerate(pips):
        for dx, dy in LAYOUTS[n]:
            centre = (int(round((0.5 + 0.27 * dx) * W)), int(round((half + 0.5 + 0.27 * dy) * W)))
            cv2.circle(face, centre, int(round(radius * W)), INK, -1, cv2.LINE_AA)
    return face


def logo_face(*, centre_y: float, bar: bool, word: bool = True) -> np.ndarray:
    """The double-blank: a ring emblem (two rings) with a word mark beside it, as the giant set has."""
    face = blank_face()
    c = (W // 2, int(round(centre_y * W)))
    r = 0.3 * W
    cv2.circle(face, c, int(r), INK, max(1, int(0.06 * W)), cv2.LINE_AA)
    cv2.circle(face, c, int(0.72 * r), INK, max(1, int(0.025 * W)), cv2.LINE_AA)
    if bar:  # the divider drawn straight through the emblem
        cv2.line(face, (int(0.1 * W), W), (int(0.9 * W), W), INK, max(2, int(0.04 * W)), cv2.LINE_AA)
    if word:  # letters in a column along the long side, touching the bar
        for k, letter in enumerate("DOMINO"):
            cv2.putText(face, letter, (int(0.08 * W), int((0.55 + 0.16 * k) * W)), cv2.FONT_HERSHEY_DUPLEX,
                        W / 160, INK, max(1, W // 40), cv2.LINE_AA)
    return face


@pytest.mark.parametrize("pips", [(0, 1), (2, 3), (4, 5), (6, 6), (5, 0)])
def test_clean_pips_are_counted_on_each_half(pips):
    reading = read_face(pip_face(pips), PROFILE)
    assert tuple(h.pips for h in reading.halves) == pips
    assert not any(h.logo for h in reading.halves)
    assert min(h.confidence for h in reading.halves) >= 0.9


@pytest.mark.parametrize("bar", [False, True])
def test_an_emblem_centred_over_the_divider_reads_as_the_logo(bar):
    # the divider band cuts such a ring into two arcs, each too small to be the logo on its own, and the
    # word mark's round letters look like pips: the ring is judged on the whole face
    reading = read_face(logo_face(centre_y=0.9, bar=bar), PROFILE)
    assert all(h.logo and h.pips == 0 for h in reading.halves)


def test_an_emblem_on_one_half_makes_that_half_the_logo():
    reading = read_face(logo_face(centre_y=0.5, bar=False, word=False), replace(PROFILE, blank_needs_logo=False))
    assert reading.halves[0].logo and reading.halves[0].pips == 0
    assert not reading.halves[1].logo


def test_a_faint_emblem_out_of_focus_is_still_the_logo():
    # the ring printed paler than the star at its middle, and blurred: the star sets the face's strongest
    # contrast, and the thin ring falls short of the pips' threshold for most of its way round
    face = blank_face()
    c, r = (W // 2, W // 2), 0.34 * W
    for radius, width in ((r, 0.05), (0.72 * r, 0.025)):
        cv2.circle(face, c, int(radius), (75, 110, 135), max(1, int(width * W)), cv2.LINE_AA)
    star = [(c[0] + r * (0.55 if k % 2 == 0 else 0.25) * np.cos(np.pi * k / 6 - np.pi / 2),
             c[1] + r * (0.55 if k % 2 == 0 else 0.25) * np.sin(np.pi * k / 6 - np.pi / 2)) for k in range(12)]
    cv2.fillPoly(face, [np.round(star).astype(np.int32)], INK, cv2.LINE_AA)
    cv2.line(face, (int(0.1 * W), W), (int(0.9 * W), W), INK, max(2, int(0.04 * W)), cv2.LINE_AA)
    face = cv2.GaussianBlur(face, (0, 0), 2.0)
    assert not any(h.logo for h in read_face(face, replace(PROFILE, logo_ink_ratio=1.0)).halves)
    reading = read_face(face, PROFILE)
    assert all(h.logo and h.pips == 0 for h in reading.halves)


def word_along(face: np.ndarray, half: int) -> np.ndarray:
    """``face`` with the word mark written along the middle of ``half``, as the giant set's logo tile has it."""
    for k, letter in enumerate("DOMINO"):
        cv2.putText(face, letter, (int(0.36 * W), int((half + 0.14 + 0.14 * k) * W)), cv2.FONT_HERSHEY_DUPLEX,
                    W / 190, INK, max(1, W // 40), cv2.LINE_AA)
    return face


def test_the_word_mark_beyond_the_emblem_reads_blank_with_it():
    # the logo is on the double-blank only, so the half across the divider from the emblem is blank too,
    # and as sure: its letters (an O may read as a pip) are no pips
    face = word_along(logo_face(centre_y=0.5, bar=True, word=False), 1)
    assert read_face(face, replace(PROFILE, blank_needs_logo=False)).halves[1].pips > 0  # the letters alone
    reading = read_face(face, PROFILE)
    assert all(h.logo and h.pips == 0 for h in reading.halves)
    assert min(h.confidence for h in reading.halves) >= PROFILE.logo_confidence


def test_a_wide_emblem_out_of_focus_is_still_the_logo():
    # so wide a ring raises the face's median around it: tested against that, part of the ring was lost and
    # the emblem, no longer closed, read as a pip
    face = blank_face()
    c, r = (W // 2, W // 2), 0.44 * W
    cv2.circle(face, c, int(r), INK, max(1, int(0.06 * W)), cv2.LINE_AA)
    cv2.circle(face, c, int(0.72 * r), INK, max(1, int(0.025 * W)), cv2.LINE_AA)
    star = [(c[0] + r * (0.55 if k % 2 == 0 else 0.25) * np.cos(np.pi * k / 6 - np.pi / 2),
             c[1] + r * (0.55 if k % 2 == 0 else 0.25) * np.sin(np.pi * k / 6 - np.pi / 2)) for k in range(12)]
    cv2.fillPoly(face, [np.round(star).astype(np.int32)], INK, cv2.LINE_AA)
    cv2.line(face, (int(0.1 * W), W), (int(0.9 * W), W), INK, max(2, int(0.04 * W)), cv2.LINE_AA)
    reading = read_face(cv2.GaussianBlur(face, (0, 0), 3), PROFILE)
    assert all(h.logo and h.pips == 0 for h in reading.halves)


def test_pips_are_no_emblem():
    # six pips close together in a half are round marks, but none has a hole
    reading = read_face(pip_face((6, 6), radius=0.11), PROFILE)
    assert not any(h.logo for h in reading.halves)
    assert tuple(h.pips for h in reading.halves) == (6, 6)


@pytest.mark.parametrize("angle", [0, 35, 90])
def test_a_leaf_is_no_pip(angle):
    # a leaf (or a long chip) lying on a tile, or on a plank taken for one, is as big as a pip and roundish
    # by its outline, but three times as long as wide or more
    face = pip_face((3, 0))
    cv2.ellipse(face, (W // 2, int(1.5 * W)), (int(0.17 * W), int(0.05 * W)), angle, 0, 360, (40, 70, 90), -1,
                cv2.LINE_AA)
    reading = read_face(face, PROFILE)
    assert tuple(h.pips for h in reading.halves) == (3, 0)


def test_a_shadow_over_one_half_leaves_the_halves_one_colour_but_the_ground_does_not():
    face = pip_face((2, 5))
    dark = face.copy()
    dark[W:] = (dark[W:] * 0.6).astype(np.uint8)  # the shadow of a neighbour over one half
    ground = face.copy()
    ground[W + 4:] = (128, 130, 132)  # half a tile and the grey deck beyond its end
    limit = PROFILE.halves_max_apart
    assert halves_apart(face, PROFILE) < 0.2 * limit
    assert halves_apart(dark, PROFILE) < limit  # (the shadow lowers the saturation a little)
    assert halves_apart(ground, PROFILE) > 2 * limit


def shaded(face: np.ndarray, *, darker: float, soft: float = 6.0) -> np.ndarray:
    """``face`` with a shadow (light multiplied by ``darker``) over its lower-left part, soft-edged."""
    yy, xx = np.mgrid[0:2 * W, 0:W].astype(np.float32)
    inside = (yy - 1.1 * W) - 1.2 * (xx - 0.2 * W)  # > 0 below a slanted edge
    light = 1.0 - (1.0 - darker) / (1.0 + np.exp(-inside / soft))
    return np.clip(face * light[..., None], 0, 255).astype(np.uint8)


@pytest.mark.parametrize("pips", [(4, 2), (4, 5), (6, 3)])
def test_shade_over_part_of_a_face_is_no_ink(pips):
    # the shade differs from the face's median colour as much as a pip does, but not from the face around
    # it; the pips inside it still stand out from their shaded surroundings
    reading = read_face(shaded(pip_face(pips), darker=0.45), PROFILE)
    assert tuple(h.pips for h in reading.halves) == pips
    assert not any(h.logo for h in reading.halves)


# per half, how far (tile widths) its pips are moved: sideways, towards the tile's ends, both
@pytest.mark.parametrize("shift", [((0.14, 0.0), (0.14, 0.0)), ((0.0, -0.13), (0.0, 0.13)),
                                   ((-0.1, -0.1), (-0.1, 0.1))])
def test_pips_gathered_off_their_halfs_centre_lower_the_confidence(shift):
    """Every pip pattern is centred on its half: pips gathered to one side (an outline shifted onto a
    neighbour, or taking in the tile's side) are still counted, but the reading says it is in doubt."""
    def face_with(offsets):
        face = blank_face()
        cv2.line(face, (int(0.12 * W), W), (int(0.88 * W), W), INK, max(2, int(0.04 * W)), cv2.LINE_AA)
        for half, n in enumerate((2, 3)):
            for dx, dy in LAYOUTS[n]:
                centre = (int(round((0.5 + offsets[half][0] + 0.18 * dx) * W)),
                          int(round((half + 0.5 + offsets[half][1] + 0.18 * dy) * W)))
                cv2.circle(face, centre, int(round(0.08 * W)), INK, -1, cv2.LINE_AA)
        return face

    centred, off = read_face(face_with(((0.0, 0.0), (0.0, 0.0))), PROFILE), read_face(face_with(shift), PROFILE)
    assert tuple(h.pips for h in centred.halves) == tuple(h.pips for h in off.halves) == (2, 3)
    assert max(h.off_centre for h in centred.halves) < 0.03 < 0.12 < min(h.off_centre for h in off.halves)
    assert min(h.confidence for h in off.halves) <= 0.75 < 0.9 <= min(h.confidence for h in centred.halves)
