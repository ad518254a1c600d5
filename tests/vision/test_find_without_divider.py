"""Faces found without their divider: as a region of face colour, and the logo tile from its emblem."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.vision import read_tiles
from companion.vision.emblem import _covered_ring, emblems, logo_faces
from companion.vision.find import ink_masks
from companion.vision.profile import Profile
from companion.vision.regions import face_regions
from tests.vision.drawing import LAYOUTS, draw_tile, table


def _lawn(width: int = 640, height: int = 480) -> np.ndarray:
    rng = np.random.default_rng(3)
    img = np.full((height, width, 3), (40, 120, 60), np.uint8)  # BGR: green
    return np.clip(img + rng.normal(0, 6, img.shape), 0, 255).astype(np.uint8)


def _frame(centre, angle_deg: float, width: float):
    a = np.radians(angle_deg)
    along = np.array([np.cos(a), np.sin(a)])
    across = np.array([-along[1], along[0]])
    c = np.asarray(centre, float)
    return lambda x, y: c + (x * across + y * along) * width  # x across, y along, in tile widths


def _plain_face(img, centre, angle_deg, width, face=(170, 215, 235)) -> np.ndarray:
    at = _frame(centre, angle_deg, width)
    corners = np.array([at(-0.5, -1), at(0.5, -1), at(0.5, 1), at(-0.5, 1)])
    cv2.fillConvexPoly(img, np.round(corners).astype(np.int32), face, cv2.LINE_AA)
    return corners


def _pipped_tile_without_divider(img, centre, angle_deg, width, pips) -> np.ndarray:
    corners = _plain_face(img, centre, angle_deg, width)
    at = _frame(centre, angle_deg, width)
    for half, n in enumerate(pips):
        for dx, dy in LAYOUTS[n]:
            p = at(dx * 0.25, (-0.5 if half == 0 else 0.5) + dy * 0.25)
            cv2.circle(img, tuple(np.round(p).astype(int)), max(2, int(round(width * 0.085))), (20, 20, 20), -1,
                       cv2.LINE_AA)
    return corners


def _logo_tile(img, centre, angle_deg, width) -> np.ndarray:
    """A double-blank with no divider: a ring emblem in one half, a bar of "lettering" along the other."""
    corners = _plain_face(img, centre, angle_deg, width)
    at = _frame(centre, angle_deg, width)
    e = tuple(np.round(at(0, -0.5)).astype(int))
    cv2.circle(img, e, int(round(0.33 * width)), (25, 25, 25), max(2, int(round(0.07 * width))), cv2.LINE_AA)
    cv2.circle(img, e, int(round(0.1 * width)), (40, 40, 200), -1, cv2.LINE_AA)
    for k in range(4):  # letters
        p = at(0, 0.15 + 0.18 * k)
        cv2.circle(img, tuple(np.round(p).astype(int)), int(round(0.07 * width)), (25, 25, 25), -1, cv2.LINE_AA)
    return corners


def _corner_error(quad: np.ndarray, truth: np.ndarray) -> float:
    """Largest distance from a true corner to the nearest corner of ``quad``."""
    return float(max(np.linalg.norm(quad - t, axis=1).min() for t in truth))


def test_a_tile_with_no_visible_divider_is_found_as_a_region_of_its_colour():
    img = _lawn()
    truths = [_pipped_tile_without_divider(img, (200, 240), 20, 70, (3, 5)),
              _pipped_tile_without_divider(img, (450, 230), 100, 70, (6, 2))]
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB)
    profile = Profile()
    inks = ink_masks(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), profile)[:2]
    quads = face_regions(lab, inks, profile)
    for truth in truths:
        assert min(_corner_error(q, truth) for q in quads) < 0.15 * 70
    read = sorted(tuple(sorted(t.pips)) for t in read_tiles(img, profile).tiles)
    assert read == [(2, 6), (3, 5)]


def test_no_region_is_found_on_a_bare_lawn():
    img = _lawn()
    profile = Profile()
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB)
    inks = ink_masks(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), profile)[:2]
    assert face_regions(lab, inks, profile) == []
    assert read_tiles(img, profile).tiles == []


def test_the_logo_tile_without_a_divider_is_found_from_its_emblem_and_reads_blank():
    img = _lawn()
    truth = _logo_tile(img, (330, 250), 35, 90)
    profile = Profile()
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    inks = ink_masks(gray, profile)[:2]
    quads = logo_faces(cv2.cvtColor(img, cv2.COLOR_BGR2LAB), inks, profile)
    assert min(_corner_error(q, truth) for q in quads) < 0.15 * 90
    tiles = read_tiles(img, profile).tiles
    assert [t.pips for t in tiles] == [(0, 0)]


def test_an_emblem_crossed_by_the_divider_is_still_a_ring():
    """The emblem drawn over the divider, pale on dark wood: the divider sticks out of the ring on both
    sides, so the ring is no longer round as a whole, but most of its outline still lies on one circle."""
    img = np.full((480, 640, 3), (150, 150, 155), np.uint8)  # grey concrete
    at = _frame((320, 240), 20, 110)
    corners = np.array([at(-0.5, -1), at(0.5, -1), at(0.5, 1), at(-0.5, 1)])
    cv2.fillConvexPoly(img, np.round(corners).astype(np.int32), (40, 60, 95), cv2.LINE_AA)  # dark wood
    pale = (225, 230, 235)
    e = tuple(np.round(at(0, -0.1)).astype(int))
    cv2.circle(img, e, int(round(0.3 * 110)), pale, max(2, int(round(0.06 * 110))), cv2.LINE_AA)
    cv2.circle(img, e, int(round(0.2 * 110)), pale, max(1, int(round(0.025 * 110))), cv2.LINE_AA)
    p, q = at(-0.42, 0), at(0.42, 0)  # the divider, through the emblem and well beyond its ring
    cv2.line(img, tuple(np.round(p).astype(int)), tuple(np.round(q).astype(int)), pale, 4, cv2.LINE_AA)
    profile = Profile()
    inks = ink_masks(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), profile)[:2]
    quads = logo_faces(cv2.cvtColor(img, cv2.COLOR_BGR2LAB), inks, profile)
    assert quads and min(_corner_error(q, corners) for q in quads) < 0.2 * 110


def _emblem_in_grain(tilt: float) -> tuple[np.ndarray, tuple[float, float], float]:
    """Pine with dark grain lines running into the emblem's ring, the divider drawn through it and through
    the star at its middle; seen ``tilt`` (the ring an ellipse of axes 1 : tilt). Returns the image, the
    emblem's centre and its outer diameter."""
    img = np.full((600, 800, 3), (120, 175, 210), np.uint8)
    rng = np.random.default_rng(5)
    img = np.clip(img + rng.normal(0, 3, img.shape), 0, 255).astype(np.uint8)
    ink, c, r = (45, 55, 70), (400, 300), 34
    axes = (r, int(round(r * tilt)))
    for y in (-0.9, -0.5, 0.3, 0.8):  # grain along the tile, running into the ring (printed over inside it)
        cv2.line(img, (80, int(c[1] + y * axes[1])), (720, int(c[1] + y * axes[1]) + 2), ink, 2, cv2.LINE_AA)
    cv2.ellipse(img, c, axes, 0, 0, 360, (120, 175, 210), -1, cv2.LINE_AA)
    cv2.ellipse(img, c, axes, 0, 0, 360, ink, 5, cv2.LINE_AA)
    cv2.ellipse(img, c, (int(0.72 * axes[0]), int(0.72 * axes[1])), 0, 0, 360, ink, 2, cv2.LINE_AA)
    star = [(c[0] + r * (0.55 if k % 2 == 0 else 0.25) * np.cos(np.pi * k / 6),
             c[1] + r * tilt * (0.55 if k % 2 == 0 else 0.25) * np.sin(np.pi * k / 6)) for k in range(12)]
    cv2.fillPoly(img, [np.round(star).astype(np.int32)], ink, cv2.LINE_AA)
    cv2.line(img, (c[0], 200), (c[0], 400), ink, 4, cv2.LINE_AA)  # the divider, across the tile
    return img, c, 2 * r + 5


@pytest.mark.parametrize("tilt", [1.0, 0.7])
def test_an_emblem_joined_to_grain_and_crossed_by_the_divider_is_a_ring(tilt):
    # its outline runs off along the grain and the divider, so neither its roundness nor its outline on one
    # circle tells it; its holes still fill an ellipse with ink all round it
    img, c, d = _emblem_in_grain(tilt)
    profile = Profile()
    inks = ink_masks(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), profile)[:2]
    found = emblems(cv2.cvtColor(img, cv2.COLOR_BGR2LAB), inks, profile)
    assert any(np.linalg.norm(centre - c) < 0.1 * d and abs(size - d) < 0.2 * d for centre, size, _ in found)


def _covered_rings(img: np.ndarray, profile: Profile) -> int:
    """How many marks of ``img`` pass as an emblem from their holes (``_covered_ring``)."""
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB)
    count = 0
    for ink in ink_masks(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), profile)[:2]:
        contours, hierarchy = cv2.findContours(ink.astype(np.uint8), cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
        for k, c in enumerate(contours if hierarchy is not None else []):
            holes, child = [], hierarchy[0][k][2]
            while child != -1:
                holes.append(contours[child])
                child = hierarchy[0][child][0]
            if hierarchy[0][k][3] == -1 and holes:
                count += _covered_ring(lab, ink, holes, profile) is not None
    return count


def test_a_check_cloth_holds_no_emblem_found_from_its_holes():
    # each dark cell is edged by ink on its inside: a hole with ink all round it, and little ink further
    # out; only its colour (darker than the cells around it) tells it from a ring drawn on one face
    img = np.zeros((720, 960, 3), np.uint8)
    yy, xx = np.mgrid[0:720, 0:960]
    u, v = ((xx + yy) // 100) % 2, ((xx - yy) // 100) % 2  # squares turned 45 degrees
    img[:] = np.where((u + v)[..., None] == 2, (40, 110, 30), np.where((u + v)[..., None] == 1, (110, 170, 110),
                                                                       (225, 230, 225))).astype(np.uint8)
    img = cv2.GaussianBlur(img, (0, 0), 3.0)
    assert _covered_rings(img, replace(Profile(), emblem_face_same=99.0)) > 10  # the cells look like rings
    assert _covered_rings(img, Profile()) == 0


def test_two_tiles_end_to_end_with_no_seam_between_them_are_two_faces():
    """Two divider-less tiles laid end to end, the seam between them too faint to see: one region of face
    colour twice as long as a tile, judged as two tiles."""
    img = _lawn()
    at = _frame((320, 240), 15, 64)
    first = _pipped_tile_without_divider(img, tuple(at(0, -1)), 15, 64, (3, 5))
    second = _pipped_tile_without_divider(img, tuple(at(0, 1)), 15, 64, (6, 2))
    tiles = read_tiles(img, Profile()).tiles
    assert sorted(tuple(sorted(t.pips)) for t in tiles) == [(2, 6), (3, 5)]
    for truth in (first, second):
        assert min(_corner_error(t.corners, truth) for t in tiles) < 0.2 * 64


def _word(img, at, x: float, y0: float, y1: float, letters: int = 5) -> None:
    """A row of blocky "letters" along the tile at ``x`` across, from ``y0`` to ``y1`` along (tile widths)."""
    for k in range(letters):
        y = y0 + (y1 - y0) * k / (letters - 1)
        quad = np.array([at(x - 0.09, y - 0.04), at(x + 0.09, y - 0.04), at(x + 0.09, y + 0.04), at(x - 0.09, y + 0.04)])
        cv2.fillConvexPoly(img, np.round(quad).astype(np.int32), (25, 25, 25), cv2.LINE_AA)


def _logo_face(img, centre, angle_deg, width, *, over_divider: bool) -> np.ndarray:
    """The double-blank of the wooden set, no divider: the emblem in one half with the word along the other,
    or the emblem over the middle with the word beside it, along the tile."""
    corners = _plain_face(img, centre, angle_deg, width, face=WOOD)
    at = _frame(centre, angle_deg, width)
    e, r = (at(-0.08, 0), 0.27) if over_divider else (at(0, -0.5), 0.35)
    e = tuple(np.round(e).astype(int))
    cv2.circle(img, e, int(round(r * width)), (25, 25, 25), max(2, int(round(0.06 * width))), cv2.LINE_AA)
    cv2.circle(img, e, int(round(0.12 * width)), (40, 40, 200), -1, cv2.LINE_AA)
    if over_divider:
        _word(img, at, 0.34, -0.6, 0.6)
    else:
        _word(img, at, 0, 0.1, 0.9)
    return corners


WOOD = (120, 170, 205)  # BGR: pale pine


@pytest.mark.parametrize("over_divider", [False, True])
@pytest.mark.parametrize("angle", [10, 55])
def test_the_logo_tile_between_tiles_of_its_wood_is_outlined_from_its_word_mark(over_divider, angle):
    """The logo tile pushed against two tiles of the same wood, one end to end and one side by side: its
    outline cannot be traced by colour alone (it runs on into theirs), but the word mark tells which way
    the tile runs and where its middle is, and its edges are found from there as from a divider."""
    img = table()
    a = np.radians(angle)
    along, across = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    width, centre = 70.0, np.array([320.0, 240.0])
    truth = _logo_face(img, centre, angle, width, over_divider=over_divider)
    draw_tile(img, tuple(centre + 2 * width * along), angle, width, (3, 5), face=WOOD)
    draw_tile(img, tuple(centre + width * across), angle, width, (6, 2), face=WOOD)
    tiles = read_tiles(img, Profile()).tiles
    logo = [t for t in tiles if t.pips == (0, 0)]
    assert len(logo) == 1 and _corner_error(logo[0].corners, truth) < 0.15 * width
    assert sorted(tuple(sorted(t.pips)) for t in tiles) == [(0, 0), (2, 6), (3, 5)]
