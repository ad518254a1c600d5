"""Junction geometry on constructed tiles: lines, crosswise doubles, spinners, corners, near misses."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.vision.junctions import (
    Junction,
    JunctionConfig,
    JunctionKind,
    TileOutlineError,
    find_holes,
    find_junctions,
    line_of_play,
    prune_loops,
)

W = 40.0  # tile width in pixels; a tile is 2 W long


@dataclass(frozen=True)
class FakeTile:
    pips: tuple[int, int]
    corners: np.ndarray
    confidence: float = 0.95


def tile(a: int, b: int, centre: tuple[float, float], angle_deg: float, width: float = W) -> FakeTile:
    """A tile whose axis runs from the ``a`` end to the ``b`` end at ``angle_deg`` (0 = towards +x)."""
    t = math.radians(angle_deg)
    axis = np.array([math.cos(t), math.sin(t)])
    side = np.array([-math.sin(t), math.cos(t)])
    c = np.array(centre, dtype=float)
    end_a, end_b = c - axis * width, c + axis * width
    corners = np.array([end_a - side * width / 2, end_a + side * width / 2,
                        end_b + side * width / 2, end_b - side * width / 2])
    return FakeTile((a, b), corners)


def summary(junctions: tuple[Junction, ...]) -> list[tuple[tuple[int, int], tuple[int, int], str, bool]]:
    return [(j.tiles, j.pips, j.kind.value, j.ok) for j in junctions]


def test_a_straight_line_meets_end_to_end():
    gap = 2.0
    tiles = [tile(6, 4, (0, 0), 0), tile(4, 2, (2 * W + gap, 0), 0), tile(5, 2, (4 * W + 2 * gap, 0), 180)]
    assert summary(find_junctions(tiles)) == [
        ((0, 1), (4, 4), "end-to-end", True),
        ((1, 2), (2, 2), "end-to-end", True),
    ]


def test_the_touching_half_follows_the_corner_order_not_the_reading_order():
    # 4-6 laid with its 6 end pointing at the next tile's 6 end.
    tiles = [tile(4, 6, (0, 0), 0), tile(6, 1, (2 * W, 0), 0)]
    (junction,) = find_junctions(tiles)
    assert junction.halves == (1, 0) and junction.pips == (6, 6) and junction.ok


def test_a_crosswise_double_touches_with_its_long_sides():
    # 6-4 -> [4-4 crosswise] -> 4-1: the line runs along x, the double stands along y.
    tiles = [tile(6, 4, (-1.5 * W, 0), 0), tile(4, 4, (0, 0), 90), tile(4, 1, (1.5 * W, 0), 0)]
    assert summary(find_junctions(tiles)) == [
        ((0, 1), (4, 4), "crosswise", True),
        ((1, 2), (4, 4), "crosswise", True),
    ]


def test_a_crosswise_tile_read_as_a_non_double_cannot_match():
    tiles = [tile(6, 4, (-1.5 * W, 0), 0), tile(4, 3, (0, 0), 90)]
    (junction,) = find_junctions(tiles)
    assert junction.kind is JunctionKind.CROSSWISE
    assert junction.pips == (4, 3) and not junction.ok


def test_a_spinner_branches_four_ways():
    spinner = tile(5, 5, (0, 0), 90)  # crosswise: long sides face -x and +x, ends face -y and +y
    tiles = [
        spinner,
        tile(3, 5, (-1.5 * W, 0), 0),   # west arm, its 5 end against the west long side
        tile(5, 2, (1.5 * W, 0), 0),    # east arm
        tile(1, 5, (0, -2 * W), 90),    # north arm, in line with the spinner, 5 end against its end
        tile(5, 6, (0, 2 * W), 90),     # south arm
    ]
    assert summary(find_junctions(tiles)) == [
        ((0, 1), (5, 5), "crosswise", True),
        ((0, 2), (5, 5), "crosswise", True),
        ((0, 3), (5, 5), "end-to-end", True),
        ((0, 4), (5, 5), "end-to-end", True),
    ]


def test_a_line_turns_a_corner_with_the_end_against_the_next_tiles_half():
    # 6-4 along x; 4-3 stands along y just past its end, its 4 half beside the 4 end of 6-4.
    tiles = [tile(6, 4, (0, 0), 0), tile(4, 3, (1.5 * W, W / 2), 90)]
    assert summary(find_junctions(tiles)) == [((0, 1), (4, 4), "corner", True)]


def test_a_line_turns_a_corner_with_the_next_end_against_the_last_half():
    # 6-4 along x; 4-3 hangs below the 4 half, its 4 end against the long side.
    tiles = [tile(6, 4, (0, 0), 0), tile(4, 3, (W / 2, 1.5 * W), 90)]
    assert summary(find_junctions(tiles)) == [((0, 1), (4, 4), "corner", True)]


def test_a_corner_on_the_wrong_half_is_a_mismatch():
    tiles = [tile(6, 4, (0, 0), 0), tile(3, 4, (1.5 * W, W / 2), 90)]
    assert summary(find_junctions(tiles)) == [((0, 1), (4, 3), "corner", False)]


def test_tiles_side_by_side_are_not_a_junction():
    stacked = [tile(6, 4, (0, 0), 0), tile(4, 1, (0, W + 1), 0)]
    brick = [tile(6, 4, (0, 0), 0), tile(4, 1, (W, W + 1), 0)]
    assert find_junctions(stacked) == ()
    assert find_junctions(brick) == ()


def test_a_double_laid_at_a_corner_lies_alongside_the_last_half():
    # 6-4 along x ends at x = W; the line turns towards +y with 4-4 laid crosswise to the new
    # direction: it lies along x beside the 4 half, sticking out half a tile past the end.
    tiles = [tile(6, 4, (0, 0), 0), tile(4, 4, (W / 2, W + 1), 0), tile(4, 2, (W / 2, 2.5 * W + 2), 90)]
    assert summary(find_junctions(tiles)) == [
        ((0, 1), (4, 4), "alongside", True),
        ((1, 2), (4, 4), "crosswise", True),
    ]
    wrong_half = [tile(4, 6, (0, 0), 0), tile(4, 4, (W / 2, W + 1), 0)]
    assert summary(find_junctions(wrong_half)) == [((0, 1), (6, 4), "alongside", False)]


def test_ends_offset_by_half_a_tile_are_not_a_junction():
    tiles = [tile(6, 4, (0, 0), 0), tile(4, 2, (2 * W, W / 2), 0)]
    assert find_junctions(tiles) == ()


def test_tiles_far_apart_are_not_a_junction():
    tiles = [tile(6, 4, (0, 0), 0), tile(4, 2, (2 * W + W, 0), 0)]
    assert find_junctions(tiles) == ()


def test_a_mismatch_is_reported_with_both_values():
    tiles = [tile(6, 4, (0, 0), 0), tile(3, 2, (2 * W, 0), 0)]
    (junction,) = find_junctions(tiles)
    assert junction.pips == (4, 3) and not junction.ok
    assert junction.to_dict() == {"tiles": [0, 1], "pips": [4, 3], "ok": False}


def test_no_tiles_no_junctions():
    assert find_junctions([]) == ()
    assert find_junctions([tile(1, 2, (0, 0), 0)]) == ()


def test_bad_outlines_are_refused_with_the_input_quoted():
    bad = FakeTile((1, 2), np.zeros((3, 2)))
    with pytest.raises(TileOutlineError, match="tile 0"):
        find_junctions([bad])
    with pytest.raises(TileOutlineError, match="nan"):
        find_junctions([FakeTile((1, 2), np.full((4, 2), np.nan))])


def test_config_out_of_range_is_refused():
    with pytest.raises(ValueError, match="max_gap"):
        JunctionConfig(max_gap=-1)
    with pytest.raises(ValueError, match="loose_angle_deg"):
        JunctionConfig(loose_angle_deg=10)
    with pytest.raises(ValueError, match="loose_overlap"):
        JunctionConfig(loose_overlap=0.8)


def _askew(a: int, b: int, end: tuple[float, float], angle_deg: float) -> FakeTile:
    """A tile whose ``a`` end's middle lies at ``end``, its axis turned ``angle_deg`` from +x."""
    t = math.radians(angle_deg)
    return tile(a, b, (end[0] + W * math.cos(t), end[1] + W * math.sin(t)), angle_deg)


@pytest.mark.parametrize("more", [[], [tile(5, 3, (6 * W, 0), 0)]])
def test_a_part_of_the_line_read_askew_joins_it_loosely(more):
    # the third tile's outline is turned 28 degrees (a corner taken from the ground): too far for a junction,
    # but a line of play is one piece, and this is the best contact of its part (a tile, or a tile and the next)
    line = [tile(6, 4, (0, 0), 0), tile(4, 2, (2 * W, 0), 0), _askew(2, 5, (3 * W, 0), 28)]
    if more:
        more = [_askew(5, 3, tuple(line[2].corners[2:].mean(axis=0)), 28)]
    assert [j.tiles for j in find_junctions(line + more)] == [(0, 1)] + ([(2, 3)] if more else [])
    junctions, strays = line_of_play(line + more)
    assert summary(junctions) == [((0, 1), (4, 4), "end-to-end", True), ((1, 2), (2, 2), "end-to-end", True)] + (
        [((2, 3), (5, 5), "end-to-end", True)] if more else [])
    assert [j.loose for j in junctions] == [False, True] + [False] * len(more) and strays == ()


def test_no_loose_junction_across_a_gap_nor_for_a_tile_beside_the_line():
    assert line_of_play([tile(6, 4, (0, 0), 0), tile(4, 2, (2 * W + W, 0), 0)]) == ((), ())
    line = [tile(6, 4, (0, 0), 0), tile(4, 2, (2 * W, 0), 0)]
    junctions, _ = line_of_play(line + [tile(1, 3, (2 * W, W), 5)])  # its side against the line's
    assert [j.tiles for j in junctions] == [(0, 1)]


def _layout() -> list[FakeTile]:
    """A line with a crosswise double, a spinner arm and a corner turn."""
    return [
        tile(6, 4, (0, 0), 0),
        tile(4, 4, (1.5 * W, 0), 90),
        tile(4, 1, (3 * W, 0), 0),
        tile(1, 2, (4.5 * W, W / 2), 90),
        tile(4, 0, (1.5 * W, -2 * W), 270),
    ]


def _warp(tiles: list[FakeTile], matrix: np.ndarray) -> list[FakeTile]:
    warped = []
    for t in tiles:
        points = np.hstack([t.corners, np.ones((4, 1))]) @ matrix.T
        warped.append(FakeTile(t.pips, points[:, :2] / points[:, 2:]))
    return warped


def _tilted_view(tilt_deg: float, focal: float = 1500.0, distance: float = 900.0) -> np.ndarray:
    """Homography of a camera looking at the table plane tilted by ``tilt_deg`` from overhead."""
    t = math.radians(tilt_deg)
    rotation = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
    camera = np.array([[focal, 0, 800], [0, focal, 600], [0, 0, 1]])
    plane_to_camera = np.column_stack([rotation[:, 0], rotation[:, 1], [0, 0, distance]])
    return camera @ plane_to_camera


def test_the_layout_reads_the_same_seen_at_45_degrees():
    expected = summary(find_junctions(_layout()))
    assert len(expected) == 4
    for tilt in (20, 30, 45):
        assert summary(find_junctions(_warp(_layout(), _tilted_view(tilt)))) == expected


@settings(max_examples=40, deadline=None)
@given(
    scale=st.floats(0.2, 5.0),
    angle=st.floats(0, 360),
    shift=st.tuples(st.floats(-2000, 2000), st.floats(-2000, 2000)),
)
def test_junctions_do_not_depend_on_scale_rotation_or_position(scale, angle, shift):
    t = math.radians(angle)
    similarity = np.array([
        [scale * math.cos(t), -scale * math.sin(t), shift[0]],
        [scale * math.sin(t), scale * math.cos(t), shift[1]],
        [0, 0, 1],
    ])
    assert summary(find_junctions(_warp(_layout(), similarity))) == summary(find_junctions(_layout()))


def _shrunk(t: FakeTile, by: float) -> FakeTile:
    """The outline a reader might find: each end pulled in by ``by`` tile widths."""
    c = t.corners.copy()
    axis = (c[2] + c[3] - c[0] - c[1]) / 4  # one tile width along the axis
    c[0:2] += axis * by
    c[2:4] -= axis * by
    return FakeTile(t.pips, c)


def test_outlines_that_fall_short_of_the_tile_ends_still_meet():
    tiles = [_shrunk(t, 0.2) for t in _layout()]
    assert summary(find_junctions(tiles)) == summary(find_junctions(_layout()))


def test_a_contact_that_closes_a_loop_is_a_stray_not_a_junction():
    def junction(i, j, ok, kind=JunctionKind.END_TO_END, gap=0.01):  # tile i's far half against j's near one
        return Junction((i, j), (1, 0), (1, 1 if ok else 2), kind, ok, (0.0, 0.0), gap)

    line = [junction(0, 1, True), junction(1, 2, True), junction(2, 3, True)]
    stray = junction(0, 3, False, JunctionKind.CORNER)
    kept, strays = prune_loops(line + [stray])
    assert kept == tuple(line) and strays == (stray,)
    assert prune_loops(line) == (tuple(line), ())
    assert prune_loops([]) == ((), ())


def test_a_tight_corner_beats_a_loose_contact_alongside_when_a_loop_is_broken():
    # Tiles 0-1-2 are joined end to end; tile 2 turns a corner onto tile 3 (a tight fit), while a double
    # of another arm lies half a width off tile 3's side (a stray contact, matching by chance).
    def junction(i, j, kind, gap):
        return Junction((i, j), (1, 0), (1, 1), kind, True, (0.0, 0.0), gap)

    line = [junction(0, 1, JunctionKind.END_TO_END, 0.01), junction(1, 2, JunctionKind.END_TO_END, 0.02)]
    corner = junction(2, 3, JunctionKind.CORNER, -0.01)
    loose = junction(0, 3, JunctionKind.ALONGSIDE, 0.5)
    kept, strays = prune_loops(line + [corner, loose])
    assert kept == tuple(line + [corner]) and strays == (loose,)


def test_a_half_is_played_on_once():
    # 3-1 along x, 1-5 end to end on its 1 end; 4-2 stands below the 1 half, its 4 end against the long
    # side: a tile of another arm that lies there by chance, since the 1 end was played on already
    tiles = [tile(3, 1, (0, 0), 0), tile(1, 5, (2 * W + 1, 0), 0), tile(4, 2, (W / 2, 1.5 * W), 90)]
    assert summary(find_junctions(tiles)) == [((0, 1), (1, 1), "end-to-end", True),
                                              ((0, 2), (1, 4), "corner", False)]
    junctions, strays = line_of_play(tiles)
    assert summary(junctions) == [((0, 1), (1, 1), "end-to-end", True)]  # nor joined loosely there
    assert summary(strays) == [((0, 2), (1, 4), "corner", False)]
    # a double takes tiles on its ends and its sides
    tiles[0] = tile(1, 1, (0, 0), 0)
    assert summary(line_of_play(tiles)[0]) == [((0, 1), (1, 1), "end-to-end", True),
                                               ((0, 2), (1, 4), "corner", False)]


def _holes(tiles):
    return [(h.tiles, h.pips, h.length) for h in find_holes(tiles, prune_loops(find_junctions(tiles))[0])]


def test_room_for_a_missing_crosswise_double_is_a_hole():
    # 6-4 -> [4-4 crosswise, not found] -> 4-1
    tiles = [tile(6, 4, (-1.5 * W - 1, 0), 0), tile(4, 1, (1.5 * W + 1, 0), 0)]
    assert _holes(tiles) == [((0, 1), (4, 4), 1)]
    turned = [tile(3, 6, (-1.5 * W, 0), 0), tile(2, 5, (1.5 * W, 0), 180)]
    assert _holes(turned) == [((0, 1), (6, 5), 1)]  # 2-5 lies with its 5 end towards the hole


def test_room_for_a_missing_tile_end_to_end_is_a_hole():
    tiles = [tile(6, 4, (0, 0), 0), tile(2, 1, (4 * W + 4, 0), 0)]
    assert _holes(tiles) == [((0, 1), (4, 2), 2)]


def test_no_hole_in_a_whole_line_nor_between_ends_that_do_not_line_up():
    whole = [tile(6, 4, (-1.5 * W, 0), 0), tile(4, 4, (0, 0), 90), tile(4, 1, (1.5 * W, 0), 0)]
    assert _holes(whole) == []
    offset = [tile(6, 4, (-1.5 * W, 0), 0), tile(4, 1, (1.5 * W, 0.8 * W), 0)]  # off each other's axis
    assert _holes(offset) == []
    too_far = [tile(6, 4, (-1.5 * W, 0), 0), tile(4, 1, (3 * W, 0), 0)]  # 2.5 half-lengths apart
    assert _holes(too_far) == []
    turned = [tile(6, 4, (-1.5 * W, 0), 0), tile(4, 1, (0.5 * W, 1.5 * W), 90)]  # ends not facing
    assert _holes(turned) == []


def test_no_hole_where_a_tile_was_found():
    # Two tiles facing each other across a third found in the gap, askew (touching neither).
    tiles = [tile(6, 4, (-1.5 * W - 1, 0), 0), tile(4, 1, (1.5 * W + 1, 0), 0), tile(5, 5, (0, 0), 45, width=0.4 * W)]
    assert find_junctions(tiles) == ()
    assert _holes(tiles) == []
