"""Disputes: each message a player at the table might get."""

import pytest

from companion.rules.disputes import build_layout, check_play, check_stuck, fives
from companion.rules.layout import IllegalMoveError


def protocol_table():
    return build_layout("protocol", [("4-4", None, None), ("4-2", "4-4", None)])


def test_no_open_end_shows_that_number():
    verdict = check_play("protocol", protocol_table(), "6-5")
    assert not verdict.legal
    assert verdict.reason == "6-5 cannot be played: no open end shows a 6 or a 5 (open ends show 2, 4)"


def test_that_side_of_the_double_is_not_open_under_protocol():
    verdict = check_play("protocol", protocol_table(), "4-1", "4-4", "up")
    assert not verdict.legal and "that side of 4-4 is not open" in verdict.reason
    assert "protocol" in verdict.reason


def test_the_same_side_is_open_under_block():
    layout = build_layout("block", [("4-4", None, None), ("4-2", "4-4", None)])
    assert check_play("block", layout, "4-1", "4-4", "up").legal


def test_the_star_is_not_complete():
    layout = build_layout("star", [("6-6", None, None), ("6-1", "6-6", None)])
    verdict = check_play("star", layout, "1-3", "6-1")
    assert not verdict.legal and "the star is not complete" in verdict.reason and "3 open side" in verdict.reason
    assert check_play("star", layout, "6-3").legal


def test_a_play_on_the_wrong_number():
    verdict = check_play("protocol", protocol_table(), "4-1", "4-2")
    assert not verdict.legal and verdict.reason == "4-1 does not fit there: that end of 4-2 shows a 2"


def test_covered_end_tile_on_table_and_not_in_hand():
    layout = protocol_table()
    assert "already covered" in check_play("protocol", layout, "4-1", "4-4", "left").reason
    assert "already on the table" in check_play("protocol", layout, "4-2").reason
    assert "not in the player's hand" in check_play("protocol", layout, "2-1", hand=["3-3"]).reason
    assert "is not on the table" in check_play("protocol", layout, "2-1", "1-1").reason


def test_all_fives_play_reports_count_and_points():
    layout = build_layout("all-fives", [("5-5", None, None)])
    scoring = check_play("all-fives", layout, "5-0")
    assert (scoring.legal, scoring.count, scoring.points) == (True, 10, 10)
    assert "scores 10" in scoring.reason
    blank = check_play("all-fives", layout, "5-3")
    assert (blank.count, blank.points) == (13, 0) and "scores nothing" in blank.reason
    assert fives(layout) == (10, 10)


def test_drawing_was_not_allowed_when_a_tile_fits():
    verdict = check_stuck("block", protocol_table(), ["1-0", "4-0"], boneyard_left=3)
    assert not verdict.legal
    assert verdict.reason == "drawing was not allowed: 4-0 could be played on the open 4 of 4-4"


def test_passing_was_not_allowed_when_a_tile_fits():
    verdict = check_stuck("star", build_layout("star", [("6-6", None, None)]), ["6-0"])
    assert not verdict.legal and verdict.reason.startswith("passing was not allowed: 6-0")


def test_draw_or_pass_when_nothing_fits():
    assert "draws until a tile fits" in check_stuck("block", protocol_table(), ["1-0"], boneyard_left=2).reason
    assert "the player passes" in check_stuck("block", protocol_table(), ["1-0"], boneyard_left=0).reason


def test_build_layout_names_a_bad_placement():
    with pytest.raises(IllegalMoveError, match=r"placement 2 \(5-1 on 4-4\)"):
        build_layout("block", [("4-4", None, None), ("5-1", "4-4", None)])


def test_stuck_from_bare_open_end_numbers():
    assert check_stuck("block", [4, 2], ["6-1", "2-0"], boneyard_left=5).reason == \
        "drawing was not allowed: 2-0 could be played on the open 2"
    verdict = check_stuck("lucky-draw", [4, 2], ["6-1"])
    assert verdict.legal and "open ends show 4, 2" in verdict.reason and "passes" in verdict.reason
    with pytest.raises(ValueError, match="7"):
        check_stuck("block", [7], ["6-1"])
