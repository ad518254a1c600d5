"""The table's plane predicts a tile's outline anywhere from the faces read surely around it."""

from __future__ import annotations

import numpy as np

from companion.vision import geometry as geo
from companion.vision.plane import Lines, Plane, ends, gaps, side_by_side, split_the_other_way

# a camera looking at the table at a slant: a homography from the table (cm) to the photo (pixels)
VIEW = np.array([[9.0, 1.5, 400.0], [0.5, 5.0, 300.0], [0.0, 0.004, 1.0]])


def _seen(x: float, y: float, turn_deg: float, length: float = 20.0, view: np.ndarray = VIEW) -> np.ndarray:
    """A tile's face (``length`` by half that, on the table at (x, y), turned) as the camera sees it."""
    t = np.radians(turn_deg)
    along, across = np.array([np.cos(t), np.sin(t)]) * length / 2, np.array([-np.sin(t), np.cos(t)]) * length / 4
    table = np.array([[x, y] - along + across, [x, y] - along - across, [x, y] + along - across,
                      [x, y] + along + across])
    return geo.clockwise(geo.apply(view, table))


SURE = [_seen(0, 0, 10), _seen(30, 5, 80), _seen(-25, 30, -30), _seen(10, 45, 45), _seen(40, 40, 0)]


def test_a_tile_turned_any_way_is_predicted_from_tiles_turned_others():
    for x, y, turn in [(15, 20, 60), (-10, 10, 135), (25, 30, -15)]:
        truth = _seen(x, y, turn)
        assert geo.iou(Plane(SURE).outline(truth, 2.0), truth) > 0.9


def test_an_outline_with_an_end_on_the_next_tile_is_told_from_the_tile():
    truth = _seen(15, 20, 60)
    # the reader took the far end half a tile too far (onto the next tile), so its centre moved too
    wrong = truth.copy()
    wrong[2:] += (truth[2] - truth[1]) / 2
    outline = Plane(SURE).outline(wrong, 2.0)
    assert geo.iou(wrong, outline) < 0.7 < geo.iou(truth, Plane(SURE).outline(truth, 2.0))


def test_lines_tell_which_faces_lie_along_which_so_many_lengths_away():
    # a line at a slant: tiles end to end at 0, 20 and 40 cm, a double crosswise at 55, a tile beside at 20
    line = [_seen(0, 0, 0), _seen(20, 0, 0), _seen(40, 0, 0), _seen(55, 0, 90), _seen(20, 12, 0)]
    lines = Lines(line + [np.zeros((4, 2))])  # and a degenerate face, in line with nothing
    touching = lines.in_line(1.0, 0.25, 0.15)
    assert {(a, b) for a, b in zip(*np.nonzero(touching))} == {(0, 1), (1, 0), (1, 2), (2, 1)}
    # the double lies on the last tile's axis, against its end; seen from the double, the tile lies off its axis
    assert lines.in_line(0.75, 0.1, 0.15)[2, 3] and not lines.in_line(0.75, 0.1, 0.15)[3, 2]
    assert lines.crosswise[2, 3] and lines.crosswise[3, 4] and not lines.crosswise[0, 4]
    assert not lines.in_line(1.0, 0.25, 0.15)[-1].any() and not lines.in_line(1.0, 0.25, 0.15)[:, -1].any()


def test_sure_faces_in_one_row_predict_sizes_off_it_by_the_nearest():
    row = [_seen(x, 0, 0) for x in (-20, 0, 20)]  # no plane of sizes: the slope across the row is unknown
    truth = _seen(0, 12, 0)
    assert geo.iou(Plane(row).outline(truth, 2.0), truth) > 0.8


def test_a_sure_face_of_no_tiles_size_predicts_no_outline_around_it():
    # a sliver of a tile's side read surely as a whole tile (099186: a square a quarter of a tile's size), nearest a
    # tile among the sure faces, once shrank the outline predicted there, and the tile, read right, fitted it badly
    truth = _seen(15, 20, 60)
    sliver = _seen(15, 12, 0, length=8.0)
    assert geo.iou(Plane(SURE + [sliver]).outline(truth, 2.0), truth) > 0.9
    # fewer sure faces tell the view too loosely to tell which is a tile's size: all predict
    assert geo.iou(Plane(SURE[:4] + [sliver]).outline(truth, 2.0), truth) < 0.8


def _camera(tilt_deg: float) -> np.ndarray:
    """The homography of a camera 150 cm from the table, tilted from looking straight down."""
    t = np.radians(tilt_deg)
    turn = np.array([[1, 0, 0], [0, np.cos(t), -np.sin(t)], [0, np.sin(t), np.cos(t)]])
    lens = np.array([[900.0, 0, 640], [0, 900.0, 480], [0, 0, 1]])
    return lens @ np.column_stack([turn[:, 0], turn[:, 1], [0, 0, 150.0]])


def test_a_steep_view_is_predicted_far_beyond_the_sure_faces():
    steep = _camera(50)  # a tile looks 161 pixels long at y = -60 and 53 at y = 40
    line = [_seen(0, y, 90, view=steep) for y in (-40, -20, 0)]
    spread = [_seen(0, -40, 90, view=steep), _seen(30, -30, 0, view=steep), _seen(-25, -20, 30, view=steep),
              _seen(10, 0, 60, view=steep)]
    for sure, (x, y, turn) in [(line, (0, 40, 90)), (line, (0, 30, 0)), (line, (0, -60, 90)),
                               (spread, (-30, 40, 45)), (spread, (25, 50, 120))]:
        truth = _seen(x, y, turn, view=steep)
        assert geo.iou(Plane(sure).outline(truth, 2.0), truth) > 0.95
    # (tiles lower in the photo are farther) the horizon is at y = 480 + 900 tan 40 deg = 1235: no tile beyond it
    assert Plane(line).outline(geo.quad_of((640, 1400), 0.0, 20, 10), 2.0) is None
    assert Plane(line).outline(geo.quad_of((640, 1100), 0.0, 20, 10), 2.0) is not None


def test_two_sure_faces_tell_the_horizon_by_where_their_sides_meet():
    # two faces side by side near the camera: their sizes alone cannot tell how tiles shrink up the photo (a
    # tile far off is half their length), the lines of their sides, parallel on the table, can
    steep = _camera(50)
    sure = [_seen(0, -50, 0, view=steep), _seen(0, -40, 0, view=steep)]
    for x, y, turn in [(0, 40, 90), (-20, 30, 0), (30, 20, 45)]:
        truth = _seen(x, y, turn, view=steep)
        assert geo.iou(Plane(sure).outline(truth, 2.0), truth) > 0.9


def test_corners_a_little_off_make_no_horizon_of_a_view_from_straight_above():
    # a pixel off in each corner turns a side by half a degree: sides that meet far off, anywhere
    rng = np.random.default_rng(7)
    above = _camera(0)  # tiles 120 pixels long everywhere
    for _ in range(20):
        sure = [_seen(x, y, turn, view=above) + rng.normal(0, 1.0, (4, 2))
                for x, y, turn in [(-30, -20, 0), (0, -20, 90), (20, 10, 30)]]
        horizon = Plane(sure).level[2]
        sizes = [horizon[:2] @ geo.centre_of(_seen(x, y, 0, view=above)) + horizon[2]
                 for x, y in [(0, 0), (-40, 40), (40, 40), (-40, -40), (40, -40)]]
        assert max(abs(size / sizes[0] - 1) for size in sizes) < 0.15


def test_no_prediction_without_two_sure_faces():
    assert Plane(SURE[:1]).outline(_seen(15, 20, 60), 2.0) is None


def _match(found: list[np.ndarray], truth: list[np.ndarray]) -> bool:
    return len(found) == len(truth) and all(max(geo.iou(f, t) for f in found) > 0.85 for t in truth)


def test_the_gap_of_a_row_end_to_end_holds_the_tiles_missing_from_it():
    t = np.radians(5)
    row = [_seen(d * np.cos(t), 10 + d * np.sin(t), 5) for d in (-20, 0, 20, 40)]  # tiles 20 long, end to end
    assert _match(gaps([row[0], row[3]], 2, 0.3, np.radians(15), 2.0), [row[1], row[2]])
    assert _match(gaps([row[0], row[2], row[3]], 2, 0.3, np.radians(15), 2.0), [row[1]])
    assert gaps(row, 2, 0.3, np.radians(15), 2.0) == []  # a whole row has no gap


def test_the_gap_of_a_row_side_by_side_holds_the_tile_missing_from_it():
    row = [_seen(0, y, 0) for y in (0, 10, 20)]  # tiles 10 wide, side by side
    assert _match(gaps([row[0], row[2]], 2, 0.3, np.radians(15), 2.0), [row[1]])


def test_no_gap_between_tiles_turned_apart_or_not_a_whole_tile_apart():
    assert gaps([_seen(0, 0, 0), _seen(40, 0, 30)], 2, 0.3, np.radians(15), 2.0) == []
    assert gaps([_seen(0, 0, 0), _seen(50, 0, 0)], 2, 0.3, np.radians(15), 2.0) == []  # room for one and a half
    assert gaps([_seen(0, 0, 0), _seen(100, 0, 0)], 2, 0.3, np.radians(15), 2.0) == []  # room for four


def test_the_gap_of_a_line_of_play_holds_a_double_laid_crosswise():
    t = np.radians(5)
    at = [(d * np.cos(t), 10 + d * np.sin(t)) for d in (-15, 0, 15)]  # 20 + 10 + 20 long, end to end
    double = _seen(*at[1], 95)
    found = gaps([_seen(*at[0], 5), _seen(*at[2], 5)], 2, 0.3, np.radians(15), 2.0)
    assert len(found) == 1 and geo.iou(found[0], double) > 0.85


def test_a_crosswise_double_between_the_nearer_pair_wins_over_a_gap_of_a_farther_one():
    # a line of play of tiles 20 long: a tile, a double crosswise (10 along the line, not found), a tile read
    # a little off the row and turned 4 degrees, and one more whose pair with the first leaves room for two
    double = _seen(15, 0, 90)
    first, off, last = _seen(0, 0, 0), _seen(30, 3.0, 4), _seen(60, 0, 0)
    found = gaps([first, last, off], 2, 0.15, np.radians(15), 2.0)
    assert any(geo.iou(q, double) > 0.75 for q in found)


def test_the_tile_where_a_line_turns_is_a_place_to_look():
    corner = _seen(40, 0, 0)  # missed: the row ends against it, and the next arm leaves from its side
    row = [_seen(0, 0, 0), _seen(20, 0, 0)]
    for other in (_seen(45, -15, 90), _seen(55, 5, 90)):  # an arm from its side; an arm its end lies against
        places = ends(row + [other], 0.15, 0.3)
        assert len(places) == 4  # and beyond the row's other end, each in line and crosswise
        assert sum(geo.iou(q, corner) > 0.8 for q in places) == 1
        assert sum(geo.iou(q, _seen(-20, 0, 0)) > 0.8 for q in places) == 1


def test_a_line_may_go_on_past_a_tile_not_found_at_either_end():
    places = ends([_seen(0, 0, 0), _seen(20, 0, 0), _seen(40, 0, 0)], 0.15, 0.3)
    assert len(places) == 4
    assert all(any(geo.iou(q, _seen(x, 0, 0)) > 0.8 for q in places) for x in (-20, 60))
    # or end at a double laid crosswise, as long along the line as a tile is wide, foreshortened as it is
    for x in (-15, 55):
        double = _seen(x, 0, 90)
        crosswise = [q for q in places if geo.iou(q, double) > 0.8]
        assert len(crosswise) == 1 and geo.iou(crosswise[0], double) > 0.9
        end = (crosswise[0][0] + crosswise[0][1]) / 2  # [0]-[1] is one of the double's ends, as the reader wants
        assert min(np.linalg.norm(end - (double[k] + double[k + 1]) / 2) for k in (0, 2)) < 10
    # a place a face already covers, or one taken by another look, is not given again
    assert len(ends([_seen(0, 0, 0), _seen(20, 0, 0), _seen(40, 0, 0)], 0.15, 0.3, [_seen(61, 1, 0)])) == 2


def test_past_the_end_of_a_line_seen_at_a_slant_the_next_tile_is_as_small_as_the_plane_says():
    steep = _camera(55)
    sure = [_seen(0, y, 90, view=steep) for y in (-40, -20, 0)] + [_seen(30, -30, 0, view=steep)]
    beyond = _seen(0, 20, 90, view=steep)  # four fifths as long as the last tile of the line
    # the last face moved on by its length is too large and its centre too far
    assert max(geo.iou(q, beyond) for q in ends(sure, 0.15, 0.3)) < 0.8
    assert max(geo.iou(q, beyond) for q in ends(sure, 0.15, 0.3, plane=Plane(sure))) > 0.95


def test_nothing_beyond_a_tile_that_ends_no_line_nor_row():
    assert ends([_seen(20, 0, 0), _seen(45, -15, 90)], 0.15, 0.3) == []  # two tiles of a hand
    assert ends([_seen(0, 0, 0), _seen(24, 0, 0)], 0.15, 0.3) == []  # ends a fifth of a length apart
    assert ends([_seen(0, 0, 0), _seen(0, 14, 0)], 0.15, 0.3) == []  # sides two fifths of a width apart


def test_a_row_of_tiles_side_by_side_may_go_on_past_a_tile_not_found_at_either_side():
    # a hand laid out side by side, or a stack in a crowd: its outer tiles are looked for too
    row = [_seen(0, 0, 0), _seen(1, 10, 0), _seen(0, 20, 0)]
    for plane in (None, Plane(row)):
        places = ends(row, 0.15, 0.3, plane=plane)
        assert len(places) == 2
        assert all(any(geo.iou(q, _seen(0, y, 0)) > 0.8 for q in places) for y in (-10, 30))


def test_a_line_goes_on_across_a_double_laid_crosswise_at_its_end():
    first, double = _seen(0, 0, 0), _seen(15, 0, 90)  # a tile, then a double crosswise (10 along the line)
    beyond = _seen(30, 0, 0)  # the next tile, not found
    places = ends([first, double], 0.15, 0.3, doubles=[False, True])
    assert sum(geo.iou(q, beyond) > 0.8 for q in places) == 1
    assert not any(geo.iou(q, beyond) > 0.5 for q in ends([first, double], 0.15, 0.3))  # not known as a double
    # a tile side by side with the double (a hand, not a line) leads nowhere across it
    aside = _seen(5, 0, 90)
    assert not any(geo.iou(q, beyond) > 0.5 for q in ends([aside, double], 0.15, 0.3, doubles=[False, True]))


def test_two_tiles_side_by_side_make_a_square_that_splits_the_other_way():
    top, bottom = geo.quad_of((300, 260), 0.0, 160, 80), geo.quad_of((300, 340), 0.0, 160, 80)
    assert side_by_side(bottom, top, 0.15, np.radians(15)) and side_by_side(top, bottom, 0.15, np.radians(15))
    left, right = split_the_other_way(bottom, top)
    for face, centre in ((left, (260, 300)), (right, (340, 300))):  # each upright across both, [0]-[1] an end
        middle, angle, length, width = geo.frame_of(face)
        assert np.allclose(middle, centre) and np.isclose(np.cos(angle), 0, atol=1e-9)
        assert np.isclose(length, 160) and np.isclose(width, 80)


def test_tiles_end_to_end_apart_or_turned_are_not_side_by_side():
    tile = geo.quad_of((300, 300), 0.0, 160, 80)
    for other in (geo.quad_of((460, 300), 0.0, 160, 80),  # end to end
                  geo.quad_of((300, 420), 0.0, 160, 80),  # a width and a half away
                  geo.quad_of((360, 380), 0.0, 160, 80),  # beside it, but off by more than a third of a length
                  geo.quad_of((300, 380), np.radians(30), 160, 80)):  # turned
        assert not side_by_side(tile, other, 0.15, np.radians(15))


def test_a_point_on_the_horizon_maps_infinitely_far_rather_than_failing():
    from companion.vision.plane import _mapped
    level = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.01, -1.0]])  # the horizon is the line y = 100
    assert _mapped(level, 30.0, 100.0) == (np.inf, np.inf)
    assert np.allclose(_mapped(level, 30.0, 200.0), (30.0, 200.0))


def test_the_sure_faces_tell_the_table_from_above_and_how_steeply_it_is_seen():
    for tilt in (0, 25, 50):
        camera = _camera(tilt)
        sure = [_seen(x, y, turn, view=camera) for x, y, turn in [(0, -20, 0), (25, -15, 90), (-20, 5, 30),
                                                                  (5, 15, 60)]]
        to_table, angle = Plane(sure).from_above(2.0)
        assert abs(angle - tilt) < 2.5  # (the faces lie about the point the camera looks at)
        # from above every tile is a rectangle one unit wide and two long, however far and however turned
        for x, y, turn in [(0, 40, 45), (-30, -40, 100), (35, 25, 0)]:
            quad = geo.apply(to_table, _seen(x, y, turn, view=camera))
            _, _, length, width = geo.frame_of(quad)
            assert abs(width - 1) < 0.03 and abs(length - 2) < 0.06
            assert abs(np.dot(quad[1] - quad[0], quad[2] - quad[1])) < 0.03  # square corners
    assert Plane([]).from_above(2.0) is None


def test_one_sure_face_tells_the_table_from_above_by_its_own_corners():
    camera = _camera(45)
    to_table, angle = Plane([_seen(10, -10, 30, view=camera)]).from_above(2.0)
    assert abs(angle - 45) < 5  # (the face lies a little off the point the camera looks at)
    for x, y, turn in [(10, -10, 30), (-30, 30, 100), (35, 25, 0)]:
        quad = geo.apply(to_table, _seen(x, y, turn, view=camera))
        _, _, length, width = geo.frame_of(quad)
        assert abs(width - 1) < 0.01 and abs(length - 2) < 0.02
        assert abs(np.dot(quad[1] - quad[0], quad[2] - quad[1])) < 0.01
