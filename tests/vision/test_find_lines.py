"""Finding dividers as thin lines, and telling a tile's grain from a face taken sideways."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision import read_tiles
from companion.vision.find import _Line, _extended, ink_masks, line_masks
from companion.vision.pips import grain_across
from companion.vision.profile import Profile
from tests.vision.drawing import draw_tile, table


def _dark_tile_on_pale_ground():
    img = np.full((480, 640, 3), (205, 215, 220), np.uint8)  # a pale deck
    corners = draw_tile(img, (320, 240), 25, 90, (5, 2), face=(40, 60, 85), ink=(225, 235, 240))
    # a groove, not a painted line: darker than the dark face
    a = np.radians(25)
    along, across = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    p, q = np.array([320, 240]) - 0.36 * 90 * across, np.array([320, 240]) + 0.36 * 90 * across
    cv2.line(img, tuple(np.round(p).astype(int)), tuple(np.round(q).astype(int)), (10, 15, 25), 4, cv2.LINE_AA)
    return img, corners


def test_a_groove_on_a_dark_tile_is_a_thin_line_though_the_whole_face_is_dark_ink():
    img, _ = _dark_tile_on_pale_ground()
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    dark_mean = ink_masks(gray, Profile())[0]
    edge = np.array([320, 240]) + 0.4 * 90 * np.array([np.cos(np.radians(115)), np.sin(np.radians(115))])
    assert dark_mean[int(edge[1]), int(edge[0])]  # the face near its edge is "dark" against the wide mean
    groove = np.zeros(gray.shape, bool)
    for mask in line_masks(gray, Profile())[::2]:  # the dark ones (ink_polarity "both": dark, light, ...)
        groove |= mask
    assert groove[240, 320]  # the groove's centre
    beside = np.array([320, 240]) + 0.22 * 90 * np.array([np.cos(np.radians(25)), np.sin(np.radians(25))])
    assert not groove[int(round(beside[1])), int(round(beside[0]))]  # plain face between groove and pips


def test_a_dark_tile_with_a_groove_on_a_pale_ground_is_read():
    img, corners = _dark_tile_on_pale_ground()
    reading = read_tiles(img, Profile())
    assert [sorted(t.pips) for t in reading.tiles] == [[2, 5]]
    assert np.linalg.norm(reading.tiles[0].corners.mean(axis=0) - corners.mean(axis=0)) < 10


def test_grain_along_the_tile_reads_negative_and_across_positive():
    profile = Profile()
    w = profile.rect_width
    x = np.arange(w)[None, :]
    y = np.arange(2 * w)[:, None]
    along = np.repeat((128 + 40 * np.sin(x / 3.0)).astype(np.uint8) * np.ones((2 * w, 1), np.uint8), 1, 0)
    across = (128 + 40 * np.sin(y / 3.0)).astype(np.uint8) * np.ones((1, w), np.uint8)
    assert grain_across(cv2.cvtColor(along, cv2.COLOR_GRAY2BGR), profile) < -0.5
    assert grain_across(cv2.cvtColor(across, cv2.COLOR_GRAY2BGR), profile) > 0.5


def test_a_plain_face_with_pips_shows_no_grain_either_way():
    """No texture at all: only the pips' rims vary, and they must not decide the grain."""
    profile = Profile()
    w = profile.rect_width
    face = np.full((2 * w, w, 3), (200, 235, 240), np.uint8)
    for x, y in [(0.25, 0.25), (0.75, 0.75), (0.5, 1.5), (0.25, 1.25), (0.75, 1.75)]:  # a 2 and a 3
        cv2.circle(face, (int(x * w), int(y * w)), int(0.09 * w), (20, 20, 20), -1, cv2.LINE_AA)
    assert abs(grain_across(face, profile)) < 0.05


def _iou(a: np.ndarray, b: np.ndarray, shape) -> float:
    ma, mb = np.zeros(shape, np.uint8), np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(ma, np.round(a).astype(np.int32), 1)
    cv2.fillConvexPoly(mb, np.round(b).astype(np.int32), 1)
    return float((ma & mb).sum() / max(1, (ma | mb).sum()))


def test_a_face_sheared_by_a_steep_view_is_outlined_as_a_parallelogram():
    """A tile turned across a steeply tilted view: its long sides slant some 35 degrees from square to the
    divider. The outline must follow them (a rectangle would read a neighbour's half or the ground)."""
    img = np.full((480, 640, 3), (120, 110, 105), np.uint8)
    corners = draw_tile(img, (320, 240), 90, 90, (3, 5))  # upright: the divider is horizontal
    shear = np.array([[1.0, 0.7, -0.7 * 240], [0.0, 1.0, 0.0]])  # x += 0.7 (y - 240): long sides slant 35 deg
    img = cv2.warpAffine(img, shear, (640, 480), borderMode=cv2.BORDER_REPLICATE)
    sheared = corners @ shear[:, :2].T + shear[:, 2]
    reading = read_tiles(img, Profile())
    assert len(reading.tiles) == 1
    tile = reading.tiles[0]
    assert sorted(tile.pips) == [3, 5]
    assert _iou(tile.corners, sheared, img.shape[:2]) > 0.85


def _five_pushed_together(angle: float, step: np.ndarray, ground) -> None:
    pips = [(1, 3), (3, 5), (5, 2), (2, 6), (6, 4)]
    img = table(width=900, height=700, colour=ground)
    truth = [draw_tile(img, tuple(np.array([450, 350]) + k * step), angle, 55, p) for k, p in zip(range(-2, 3), pips)]
    reading = read_tiles(img, Profile())
    assert len(reading.tiles) == 5, angle
    for corners, want in zip(truth, pips):
        best = max(reading.tiles, key=lambda t: _iou(t.corners, corners, img.shape[:2]))
        assert _iou(best.corners, corners, img.shape[:2]) > 0.8, (angle, want)
        assert sorted(best.pips) == sorted(want), (angle, want)


def test_a_chain_of_tiles_pushed_together_is_parted_where_the_dividers_put_the_seams():
    """Five tiles of one wood laid end to end with no visible seam, on a ground of nearly the face's colour:
    the strongest rise beyond each divider is a neighbour's divider or the chain's far end, so only the
    dividers say where one tile stops (halfway between two of them)."""
    for angle in (30, 60):
        a = np.radians(angle)
        _five_pushed_together(angle, 110 * np.array([np.cos(a), np.sin(a)]), (170, 200, 205))


def test_tiles_pushed_together_side_by_side_are_parted_where_the_dividers_put_the_seams():
    """As above, side by side: a long side lies halfway between two dividers."""
    for angle in (0, 30):
        a = np.radians(angle)
        _five_pushed_together(angle, 55 * np.array([-np.sin(a), np.cos(a)]), (185, 215, 220))


def test_a_divider_seen_in_part_is_run_on_to_its_full_length():
    """A faint groove, fainter still over part of its length: the part found (the stronger one) is run on
    along its axis as far as the groove still stands out, and no further."""
    gray = np.full((200, 300), 230.0, np.float32)
    cv2.line(gray, (100, 100), (140, 100), 170.0, 3)  # the part found
    cv2.line(gray, (141, 100), (160, 100), 200.0, 3)  # fainter, below the threshold of the line masks
    found = _Line(0, np.array([120.0, 100.0]), np.array([1.0, 0.0]), 41.0, 3.0, (100, 99, 41, 3))
    longer = _extended(gray, found, Profile())
    assert longer is not None
    assert abs((longer.center[0] - longer.length / 2) - 100) <= 2 and abs((longer.center[0] + longer.length / 2) - 160) <= 2
    alone = np.full((200, 300), 230.0, np.float32)
    cv2.line(alone, (100, 100), (140, 100), 170.0, 3)
    assert _extended(alone, found, Profile()) is None


def _tile_against_a_joint(angle: float):
    """Two plain tiles, and a third whose groove runs edge to edge into a joint of the ground along its side:
    divider, joint and the tile's edge make one mark shaped like a T, no line as a whole."""
    img = table()
    draw_tile(img, (130, 130), 80, 80, (6, 2))
    draw_tile(img, (130, 350), 100, 80, (5, 3))
    a = np.radians(angle)
    along, across = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    centre, width = np.array([420.0, 240.0]), 80
    corners = draw_tile(img, tuple(centre), angle, width, (4, 1))
    for p, q in ((centre - 0.5 * width * across, centre + (0.5 * width + 2) * across),  # the groove
                 (centre + (0.5 * width + 2) * across - 2.2 * width * along,  # the joint
                  centre + (0.5 * width + 2) * across + 2.2 * width * along)):
        cv2.line(img, tuple(np.round(p).astype(int)), tuple(np.round(q).astype(int)), (20, 20, 20), 4, cv2.LINE_AA)
    return img, corners


def test_a_divider_run_into_a_joint_of_the_ground_is_found_from_its_straight_run():
    for angle in (0, 20, -35):
        img, corners = _tile_against_a_joint(angle)
        reading = read_tiles(img, Profile(divider_straights=True))
        assert len(reading.tiles) == 3, angle
        joined = min(reading.tiles, key=lambda t: np.linalg.norm(t.corners.mean(axis=0) - corners.mean(axis=0)))
        assert sorted(joined.pips) == [1, 4], angle
        assert np.abs(joined.corners.mean(axis=0) - corners.mean(axis=0)).max() < 6, angle
        # without the straight runs the T-shaped mark gives no divider, and the tile is missed
        assert len(read_tiles(img, Profile(divider_straights=False)).tiles) == 2, angle
