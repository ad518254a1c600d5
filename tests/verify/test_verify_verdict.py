"""The verdict over a read layout: legal, illegal, tiles in doubt, and the annotated picture."""

from __future__ import annotations

import math

import numpy as np
import pytest

from companion.verifier import (
    VerdictError,
    annotate,
    describe_junction,
    headline,
    settled_by_line,
    verify_image,
    verify_scan,
    with_notes,
)
from companion.vision import Reading, TileReading, hard_to_read
from companion.vision.junctions import JunctionConfig

W = 40.0


def tile(a, b, centre, angle_deg, confidence=0.99):
    t = math.radians(angle_deg)
    axis = np.array([math.cos(t), math.sin(t)])
    side = np.array([-math.sin(t), math.cos(t)])
    c = np.array(centre, dtype=float)
    end_a, end_b = c - axis * W, c + axis * W
    corners = [end_a - side * W / 2, end_a + side * W / 2, end_b + side * W / 2, end_b - side * W / 2]
    return {"pips": [a, b], "corners": [[float(x), float(y)] for x, y in corners], "confidence": confidence}


def scan(*tiles, warnings=()):
    return {"file": "table.jpg", "width": 400, "height": 300, "tiles": list(tiles),
            "pip_total": sum(sum(t["pips"]) for t in tiles), "warnings": list(warnings)}


def line(*values, confidences=None, y=150.0):
    """Tiles a-b laid end to end along x, 2 px apart."""
    confidences = confidences or [0.99] * len(values)
    return [tile(a, b, (60 + i * (2 * W + 2), y), 0, c) for i, ((a, b), c) in enumerate(zip(values, confidences))]


def test_a_matching_line_is_legal_and_keeps_the_contract_shape():
    verdict = verify_scan(scan(*line((6, 4), (4, 2), (2, 2))))
    assert list(verdict) == ["file", "tiles", "junctions", "legal", "warnings"]
    assert verdict["junctions"] == [{"tiles": [0, 1], "pips": [4, 4], "ok": True},
                                    {"tiles": [1, 2], "pips": [2, 2], "ok": True}]
    assert verdict["legal"] is True and verdict["warnings"] == []


def test_one_wrong_junction_makes_the_layout_illegal():
    verdict = verify_scan(scan(*line((6, 4), (4, 2), (3, 1))))
    assert verdict["legal"] is False
    assert [j["ok"] for j in verdict["junctions"]] == [True, False]
    assert verdict["junctions"][1]["pips"] == [2, 3]
    assert verdict["warnings"] == []  # both tiles read surely: a wrong play, not a misread
    assert "DOES NOT MATCH" in describe_junction(verdict, 1)


def test_a_tile_in_doubt_on_a_mismatch_is_named():
    verdict = verify_scan(scan(*line((6, 4), (4, 2), (3, 1), confidences=[0.99, 0.99, 0.3])))
    assert verdict["legal"] is False
    assert verdict["warnings"] == [
        "tile 3 (3-1) is in doubt (read with confidence 0.30); junction 2-3 may be misread"]


def test_a_reading_under_the_doubt_line_is_named_and_one_above_it_is_not():
    # Readings under 0.5 are often wrong, those above it seldom (see JunctionConfig.doubt_confidence).
    verdict = verify_scan(scan(*line((6, 4), (4, 2), (3, 1), confidences=[0.99, 0.99, 0.45])))
    assert verdict["warnings"] == [
        "tile 3 (3-1) is in doubt (read with confidence 0.45); junction 2-3 may be misread"]
    verdict = verify_scan(scan(*line((6, 4), (4, 2), (3, 1), confidences=[0.99, 0.99, 0.6])))
    assert verdict["legal"] is False and verdict["warnings"] == []


def test_a_tile_read_twice_is_in_doubt():
    verdict = verify_scan(scan(*line((6, 4), (4, 2), (3, 1), (2, 4))))
    assert verdict["legal"] is False
    assert any(w.startswith("tile 2 (4-2) is in doubt (read as 4-2 like tile 4)") for w in verdict["warnings"])


def test_a_low_confidence_tile_on_matching_junctions_raises_no_doubt():
    verdict = verify_scan(scan(*line((6, 4), (4, 2), confidences=[0.99, 0.2])))
    assert verdict["legal"] is True and verdict["warnings"] == []


def test_scan_warnings_come_first_and_a_loose_tile_is_named():
    loose = tile(5, 5, (300, 40), 90)
    verdict = verify_scan(scan(*line((6, 4), (4, 2)), loose, warnings=["a tile at the right border is cut off"]))
    assert verdict["warnings"] == ["a tile at the right border is cut off",
                                   "tile 3 (5-5) touches no other tile; it was not checked"]


def test_no_tiles_is_legal_and_empty():
    verdict = verify_scan(scan())
    assert verdict["tiles"] == [] and verdict["junctions"] == [] and verdict["legal"] is True


def test_a_malformed_scan_is_refused():
    with pytest.raises(VerdictError, match="tile 0"):
        verify_scan({"file": "x", "tiles": [{"pips": [1], "corners": []}]})
    with pytest.raises(VerdictError, match="not a scan object"):
        verify_scan({"file": "x"})


def test_annotate_marks_good_junctions_green_and_bad_ones_red():
    verdict = verify_scan(scan(*line((6, 4), (4, 2), (3, 1))))
    image = np.full((300, 400, 3), 90, np.uint8)
    out = annotate(image, verdict)
    assert out.shape == image.shape and image.max() == 90  # the input is left alone
    x_good = int(60 + W + 1)  # between tiles 0 and 1
    x_bad = int(60 + 3 * W + 3)  # between tiles 1 and 2
    b, g, r = (int(v) for v in out[150 + 4, x_good])
    assert g > 150 and r < 100
    b, g, r = (int(v) for v in out[150 + 4, x_bad - 6])
    assert r > 150 and g < 100


def test_annotate_refuses_a_grey_image():
    with pytest.raises(VerdictError, match="BGR"):
        annotate(np.zeros((10, 10), np.uint8), verify_scan(scan()))


def test_a_mismatch_met_only_loosely_names_its_tiles_in_doubt():
    t = math.radians(28)
    askew = tile(3, 5, (60 + 3 * W + 2 + W * math.cos(t), 150 + W * math.sin(t)), 28)  # turned, against tile 2
    verdict = verify_scan(scan(*line((6, 4), (4, 2)), askew))
    assert verdict["legal"] is False and verdict["junctions"][1] == {"tiles": [1, 2], "pips": [2, 3], "ok": False}
    assert verdict["warnings"] == [
        "tile 2 (4-2) is in doubt (it lies against tile 3 only loosely, askew or apart: the two may not be joined, "
        "or an outline is misplaced); junction 2-3 may be misread",
        "tile 3 (3-5) is in doubt (it lies against tile 2 only loosely, askew or apart: the two may not be joined, "
        "or an outline is misplaced); junction 2-3 may be misread"]


def test_two_separate_lines_are_named():
    upper = line((6, 4), (4, 2), y=60.0)
    lower = line((5, 5), (5, 1), y=200.0)
    verdict = verify_scan(scan(*upper, *lower))
    assert verdict["legal"] is True
    assert verdict["warnings"] == ["the tiles form 2 separate lines (1, 2; 3, 4); a line of play is one, "
                                   "so a junction between them was probably missed and not checked"]


def test_a_tile_read_the_wrong_way_round_is_in_doubt():
    # 6-4, then 4-2 read as 2-4 (its ends swapped), then 2-1: both of its junctions break.
    verdict = verify_scan(scan(*line((6, 4), (2, 4), (2, 1))))
    assert [j["ok"] for j in verdict["junctions"]] == [False, False]
    assert verdict["warnings"] == ["tile 2 (2-4) is in doubt (read as 2-4, yet as 4-2 every junction of it would "
                                   "match); junctions 1-2, 2-3 may be misread"]


def test_a_tile_on_two_mismatches_is_in_doubt_but_one_wrong_play_is_not():
    two = verify_scan(scan(*line((6, 4), (3, 5), (2, 1))))
    assert two["warnings"] == ["tile 2 (3-5) is in doubt (it sits on 2 mismatched junctions; one wrong play "
                               "breaks only one); junctions 1-2, 2-3 may be misread"]
    one = verify_scan(scan(*line((6, 4), (4, 5), (2, 1))))
    assert one["legal"] is False and one["warnings"] == []


def test_a_tile_overlapping_another_is_in_doubt():
    # Tile 2 meets tile 1 wrongly, but its outline half covers tile 3's: one of the two is misplaced.
    first, second = line((6, 4), (3, 2))
    third = tile(5, 1, (60 + 2 * W + 2, 150.0 + W / 2), 0)
    verdict = verify_scan(scan(first, second, third))
    assert verdict["junctions"] == [{"tiles": [0, 1], "pips": [4, 3], "ok": False}]
    assert verdict["warnings"][0].startswith("tile 2 (3-2) is in doubt (its outline overlaps tile 3's")


def test_a_tile_whose_outline_is_far_smaller_than_the_tile_it_touches_is_in_doubt():
    # Tiles that touch lie at one depth: an outline 70% of its neighbour's size took part of a tile.
    first, second, third = line((6, 4), (4, 2), (3, 1))
    corners = np.array(third["corners"])
    end = (corners[0] + corners[1]) / 2  # the end against tile 2 stays where it is

    def shrunk(scale):
        return dict(third, corners=(end + (corners - end) * scale).tolist())

    small = verify_scan(scan(first, second, shrunk(0.7)))
    assert small["junctions"][1] == {"tiles": [1, 2], "pips": [2, 3], "ok": False}
    assert small["warnings"] == ["tile 3 (3-1) is in doubt (its outline is 70% the size of tile 2's, which it "
                                 "touches: it may cover only part of the tile); junction 2-3 may be misread"]
    near = verify_scan(scan(first, second, shrunk(0.8)))
    assert near["junctions"][1]["ok"] is False and near["warnings"] == []


def test_a_leaf_tile_that_would_match_the_other_way_round_is_in_doubt():
    verdict = verify_scan(scan(*line((6, 4), (2, 4))))
    assert verdict["legal"] is False
    assert verdict["warnings"] == ["tile 2 (2-4) is in doubt (read as 2-4, yet as 4-2 every junction of it would "
                                   "match); junction 1-2 may be misread"]


def test_a_crosswise_non_double_is_not_taken_for_a_turned_tile():
    end = tile(6, 4, (60, 150), 0)
    crosswise = tile(4, 3, (60 + 1.5 * W + 2, 150), 90)
    verdict = verify_scan(scan(end, crosswise))
    assert verdict["junctions"] == [{"tiles": [0, 1], "pips": [4, 3], "ok": False}]
    # only a double is laid crosswise: it is named for that, never as read the wrong way round
    assert verdict["warnings"] == ["tile 2 (4-3) is in doubt (read as 4-3, yet tile 1's end lies against the middle "
                                   "of its side, where only a double is laid; or the two are not joined); junction "
                                   "1-2 may be misread"]
    double = tile(3, 3, (60 + 1.5 * W + 2, 150), 90)  # a double laid crosswise that does not match: a wrong play
    assert verify_scan(scan(end, double))["warnings"] == []


def test_the_headline_says_legal_only_when_every_tile_was_checked():
    assert headline(verify_scan(scan(*line((6, 4), (4, 2)))))[1] == "legal"
    loose = tile(5, 5, (300, 40), 90)
    text, kind = headline(verify_scan(scan(*line((6, 4), (4, 2)), loose)))
    assert kind == "unchecked" and text == "NO MISMATCH in 1 junction, but 1 tile not checked"
    apart = headline(verify_scan(scan(*line((6, 4), (4, 2), y=60.0), *line((5, 5), (5, 1), y=200.0))))
    assert apart[1] == "unchecked"


def test_the_headline_asks_to_check_a_tile_in_doubt_before_calling_a_play_wrong():
    wrong = headline(verify_scan(scan(*line((6, 4), (4, 2), (3, 1)))))
    assert wrong == ("NOT LEGAL: 1 of 2 junctions does not match", "illegal")
    unsure = headline(verify_scan(scan(*line((6, 4), (4, 2), (3, 1), confidences=[0.99, 0.99, 0.4]))))
    assert unsure == ("1 of 2 junctions does not match, but tile 3 may be misread: check it", "doubt")


def test_a_legal_line_resting_on_a_tile_read_with_doubt_asks_to_check_it():
    text, kind = headline(verify_scan(scan(*line((6, 4), (4, 2), (2, 1), confidences=[0.99, 0.3, 0.99]))))
    assert kind == "doubt" and text == "LEGAL if tile 2 is read right: 2 junctions match, check it"


def _reading(t: dict, others=()) -> TileReading:
    return TileReading(tuple(t["pips"]), np.array(t["corners"]), t["confidence"], tuple(others))


def test_a_doubtful_tile_on_a_mismatch_takes_the_next_reading_that_matches_its_neighbours():
    first, middle, last = line((6, 4), (5, 2), (2, 1), confidences=[0.99, 0.3, 0.99])
    tiles = [_reading(first), _reading(middle, [((3, 2), 0.3), ((4, 2), 0.3)]), _reading(last)]
    settled, notes = settled_by_line(tiles, 0.5)
    assert settled[1].pips == (4, 2) and settled[1].confidence == 0.3  # still in doubt, so still named
    assert settled[0] is tiles[0] and settled[2] is tiles[2]
    assert notes == ["tile 2 is hard to read: it looks most like 5-2 (confidence 0.30), but as 4-2, its next "
                     "reading, every junction of it matches, so it is taken as 4-2: check it"]


def test_a_doubtful_tile_read_with_its_ends_swapped_is_turned_where_that_matches_its_neighbours():
    first, middle, last = line((6, 4), (2, 4), (2, 1), confidences=[0.99, 0.3, 0.99])
    tiles = [_reading(first), _reading(middle, [((1, 4), 0.3)]), _reading(last)]
    settled, notes = settled_by_line(tiles, 0.5)
    assert settled[1].pips == (4, 2) and notes == [
        "tile 2 is hard to read: it looks most like 2-4 (confidence 0.30), but with its ends the other way round "
        "every junction of it matches, so it is taken as 4-2: check it"]
    sure = [_reading(first), _reading({**middle, "confidence": 0.9}), _reading(last)]
    assert settled_by_line(sure, 0.5) == (sure, [])


def test_a_doubtful_tile_laid_crosswise_may_be_the_double_a_pip_off_its_reading():
    end = tile(6, 4, (60, 150), 0)
    crosswise = {**tile(4, 3, (60 + 1.5 * W + 2, 150), 90), "confidence": 0.3}
    settled, notes = settled_by_line([_reading(end), _reading(crosswise)], 0.5)
    assert settled[1].pips == (4, 4) and notes == [
        "tile 2 is hard to read: it looks most like 4-3 (confidence 0.30), but as the double 4-4 (only a double is "
        "laid crosswise) every junction of it matches, so it is taken as 4-4: check it"]
    two_off = {**crosswise, "pips": [4, 2]}  # not a pip off: left as read
    assert settled_by_line([_reading(end), _reading(two_off)], 0.5)[0][1].pips == (4, 2)
    in_line = [_reading(t) for t in line((6, 4), (3, 4), confidences=[0.99, 0.3])]  # end to end: no double assumed
    assert settled_by_line(in_line, 0.5)[0][1].pips == (4, 3)


def test_a_doubtful_tile_on_two_mismatches_takes_what_the_tiles_against_it_show():
    double = [_reading(t) for t in line((6, 4), (3, 3), (4, 1), confidences=[0.99, 0.3, 0.99])]
    settled, notes = settled_by_line(double, 0.5)
    assert settled[1].pips == (4, 4) and notes == [
        "tile 2 is hard to read: it looks most like 3-3 (confidence 0.30), but as 4-4, what the tiles against it "
        "show, every junction of it matches, so it is taken as 4-4: check it"]
    between = [_reading(t) for t in line((6, 4), (3, 1), (2, 5), confidences=[0.99, 0.3, 0.99])]
    assert settled_by_line(between, 0.5)[0][1].pips == (4, 2)
    # a tile read as a double but laid end to end is none if the tiles against its ends disagree
    in_line = [_reading(t) for t in line((6, 4), (3, 3), (5, 1), confidences=[0.99, 0.3, 0.99])]
    assert settled_by_line(in_line, 0.5)[0][1].pips == (4, 5)
    # the tiles against the sides of a double laid crosswise disagree, or only one junction mismatches (a wrong
    # play): left as read
    crosswise = [_reading(tile(6, 4, (60, 150), 0)), _reading(tile(3, 3, (60 + 1.5 * W + 2, 150), 90, 0.3)),
                 _reading(tile(5, 1, (60 + 3 * W + 4, 150), 0))]
    assert settled_by_line(crosswise, 0.5) == (crosswise, [])
    agree = [crosswise[0], crosswise[1], _reading(tile(4, 1, (60 + 3 * W + 4, 150), 0))]
    assert settled_by_line(agree, 0.5)[0][1].pips == (4, 4)
    one = [_reading(t) for t in line((6, 4), (3, 1), (1, 5), confidences=[0.99, 0.3, 0.99])]
    assert settled_by_line(one, 0.5) == (one, [])
    # where the line turns a corner, the next tile's end lies against the side of the tile read as a double,
    # away from its middle: no double laid crosswise, so each half takes what lies against it
    first, turning = line((5, 4), (3, 3), confidences=[0.99, 0.3])
    corner = [_reading(first), _reading(turning), _reading(tile(6, 1, (60 + 2.5 * W + 2, 150 + 1.5 * W + 2), 90))]
    assert settled_by_line(corner, 0.5)[0][1].pips == (4, 6)


def test_a_sure_tile_a_tile_held_elsewhere_or_a_reading_that_breaks_another_junction_is_not_settled():
    first, middle, last = line((6, 4), (5, 2), (2, 1), confidences=[0.99, 0.3, 0.99])
    sure = [_reading(first), _reading({**middle, "confidence": 0.9}, [((4, 2), 0.3)]), _reading(last)]
    assert settled_by_line(sure, 0.5) == (sure, [])
    elsewhere = tile(4, 2, (300, 40), 90)  # a 4-2 lies elsewhere on the table: the set holds one
    held = [_reading(first), _reading(middle, [((4, 2), 0.3)]), _reading(last), _reading(elsewhere)]
    assert settled_by_line(held, 0.5)[0][1].pips == (5, 2)
    breaks = [_reading(first), _reading(middle, [((4, 3), 0.3)]), _reading(last)]  # 4 matches, 3 breaks the other
    assert settled_by_line(breaks, 0.5) == (breaks, [])
    # a wrong play read surely on both sides stays a mismatch
    wrong = [_reading(t) for t in line((6, 4), (5, 2), (2, 1))]
    assert settled_by_line(wrong, 0.5) == (wrong, [])


def test_a_photo_s_settled_tile_is_named_once_with_what_it_looked_like(monkeypatch):
    first, middle, last = line((6, 4), (5, 2), (2, 1), confidences=[0.99, 0.3, 0.99])
    read = Reading([_reading(first), _reading(middle, [((4, 2), 0.3)]), _reading(last)], [hard_to_read(1, (5, 2))])
    monkeypatch.setattr("companion.verifier.read_tiles", lambda image, profile: read)
    verdict = verify_image(np.zeros((300, 400, 3), np.uint8))
    assert verdict["legal"] is True and verdict["tiles"][1]["pips"] == [4, 2]
    assert len(verdict["warnings"]) == 1 and verdict["warnings"][0].startswith("tile 2 is hard to read: it looks most like 5-2")
    assert headline(verdict) == ("LEGAL if tile 2 is read right: 2 junctions match, check it", "doubt")


def test_the_notes_band_lists_the_warnings_below_the_picture():
    picture = np.full((300, 400, 3), 90, np.uint8)
    loose = tile(5, 5, (300, 40), 90)
    noted = with_notes(picture, verify_scan(scan(*line((6, 4), (4, 2)), loose)))
    assert noted.shape[1] == 400 and noted.shape[0] > 300
    assert (noted[:300] == picture).all() and noted[300:].max() > 150  # the photo untouched, text below
    assert with_notes(picture, verify_scan(scan(*line((6, 4), (4, 2))))) is picture  # nothing to say


def test_room_for_a_missed_crosswise_double_is_named_with_the_ends_it_would_join():
    # 3-6 -> [6-6 crosswise, not found] -> 2-5: whatever double lies there, one of its junctions breaks.
    verdict = verify_scan(scan(tile(3, 6, (100, 150), 0), tile(2, 5, (100 + 3 * W + 2, 150), 0)))
    assert verdict["junctions"] == [] and verdict["legal"] is True
    assert verdict["warnings"][-1] == (
        "tiles 1 (3-6) and 2 (2-5) face each other in line with room for a double laid crosswise between them: "
        "a tile there was probably not found, and its junctions were not checked; their ends show 6 and 2, "
        "and no double matches both")
    longer = verify_scan(scan(tile(1, 3, (100 - 2 * W - 2, 150), 0), tile(3, 6, (100, 150), 0),
                              tile(2, 5, (100 + 3 * W + 2, 150), 0)))
    assert headline(longer) == ("NO MISMATCH in 1 junction, but a double missed between tiles 2 and 3 cannot "
                                "match both 6 and 2", "unchecked")


def test_a_tile_whose_only_mismatch_is_one_needs_more_doubt_to_be_settled():
    # one broken junction is also what a wrong play leaves: read at 0.47 the 5-2 stays, though below 0.5
    first, middle, last = line((6, 4), (5, 2), (2, 1), confidences=[0.99, 0.47, 0.99])
    tiles = [_reading(first), _reading(middle, [((4, 2), 0.3)]), _reading(last)]
    assert settled_by_line(tiles, 0.5) == (tiles, [])
    assert settled_by_line(tiles, 0.5, JunctionConfig(settle_alone=0.5))[0][1].pips == (4, 2)
    # on two mismatched junctions the same doubt is enough
    two = [_reading(t) for t in line((6, 4), (3, 3), (4, 1), confidences=[0.99, 0.47, 0.99])]
    assert settled_by_line(two, 0.5)[0][1].pips == (4, 4)


def test_a_tile_read_with_hardly_any_confidence_takes_what_the_tile_against_its_one_mismatch_shows():
    # read 3-1 at 0.2 between a 4 and a 1: its reading tells less than its neighbour, so it is taken as 4-1
    # and named; read at 0.3 (above settle_shown) the one mismatch may be a wrong play, and it stays
    unsure = [_reading(t) for t in line((6, 4), (3, 1), (1, 5), confidences=[0.99, 0.2, 0.99])]
    settled, notes = settled_by_line(unsure, 0.5)
    assert settled[1].pips == (4, 1) and notes == [
        "tile 2 is hard to read: it looks most like 3-1 (confidence 0.20), but as 4-1, what the tiles against it "
        "show, every junction of it matches, so it is taken as 4-1: check it"]
    assert settled_by_line(unsure, 0.5, JunctionConfig(settle_shown=0.1)) == (unsure, [])
    with pytest.raises(ValueError, match="settle_shown"):
        JunctionConfig(settle_shown=0.5)  # not above settle_alone


def test_a_doubtful_tile_read_as_a_tile_held_elsewhere_takes_what_the_tile_against_its_one_mismatch_shows():
    # read 3-1 at 0.3 between a 4 and a 1, and a 3-1 lies elsewhere: a set holds each tile once, so one of
    # the two is misread, and the one on the mismatch is taken as what its neighbour shows
    line_tiles = [_reading(t) for t in line((6, 4), (3, 1), (1, 5), confidences=[0.99, 0.3, 0.99])]
    elsewhere = _reading(tile(3, 1, (300, 40), 90))
    settled, notes = settled_by_line(line_tiles + [elsewhere], 0.5)
    assert settled[1].pips == (4, 1) and settled[3] is elsewhere
    assert notes == ["tile 2 is hard to read: it looks most like 3-1 (confidence 0.30), but as 4-1, what the tiles "
                     "against it show, every junction of it matches, so it is taken as 4-1: check it"]
    assert settled_by_line(line_tiles, 0.5) == (line_tiles, [])  # held by no other tile: a wrong play, maybe


def test_a_doubtful_tile_read_with_a_half_the_set_lacks_takes_what_the_tile_against_its_one_mismatch_shows():
    impossible = [_reading(t) for t in line((6, 4), (9, 1), (1, 5), confidences=[0.99, 0.3, 0.99])]
    assert settled_by_line(impossible, 0.5)[0][1].pips == (4, 1)  # no double-six tile shows a 9
    assert settled_by_line(impossible, 0.5, max_pips=12) == (impossible, [])  # a double-twelve tile may


def test_a_tile_against_a_half_played_on_already_is_named_as_not_joined():
    # 3-1 and 1-5 end to end; 4-2 stands below the 1 half, its 4 end against the long side
    verdict = verify_scan(scan(tile(3, 1, (100, 150), 0), tile(1, 5, (100 + 2 * W + 1, 150), 0),
                               tile(4, 2, (100 + W / 2, 150 + 1.5 * W), 90)))
    assert verdict["legal"] is True and [j["tiles"] for j in verdict["junctions"]] == [[0, 1]]
    assert ("tiles 1 and 3 lie against each other (1 to 4) but the 1 half of tile 1 is joined to tile 2 already, "
            "and an open end is played on once: taken as not joined, not checked") in verdict["warnings"]
