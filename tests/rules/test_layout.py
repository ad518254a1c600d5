"""The table: open ends, crosswise doubles, spinners per manual, The Star, the All Fives count."""

import pytest

from companion.rules import Tile, find_preset
from companion.rules.layout import IllegalMoveError, Layout, Move


def lay(name, *steps):
    """Lay tiles in turn: each step is (tile, index of the tile it touches, side) or a tile to start."""
    layout = Layout.for_preset(find_preset(name))
    for step in steps:
        if isinstance(step, str):
            layout = layout.play(Move(Tile.parse(step)))
            continue
        tile, at, slot = step
        end = next(e for e in layout.open_ends if e.at == at and e.slot == slot)
        layout = layout.play(Move(Tile.parse(tile), end))
    return layout


def values(layout):
    return sorted(e.value for e in layout.open_ends)


def test_protocol_example_double_four_then_either_end():
    # "if the first double played is a four, then the 2nd player may add any one of their dominoes that
    # contains four dots ... The 3rd player then may match the other end of the double four or the
    # other end of the second domino."
    layout = lay("protocol", "4-4", ("4-2", 0, "left"))
    assert values(layout) == [2, 4]
    assert {m.tile for m in layout.moves([Tile(4, 1), Tile(2, 0), Tile(5, 5)])} == {Tile(4, 1), Tile(2, 0)}


def test_block_doubles_are_spinners_either_end_or_either_side():
    # Garden Games: "may play to either end or either side of a double, giving new directions"
    layout = lay("block", "5-5")
    assert values(layout) == [5, 5, 5, 5]
    layout = lay("block", "5-5", ("5-3", 0, "left"), ("3-3", 1, "on"))
    assert [e.slot for e in layout.open_ends if e.at == 2] == ["on", "up", "down"]


def test_fundex_double_placed_crosswise_gives_two_new_directions():
    layout = lay("block", "6-6", ("6-2", 0, "left"), ("2-2", 1, "on"))
    before = len(lay("block", "6-6", ("6-2", 0, "left")).open_ends)
    assert len(layout.open_ends) == before - 1 + 3


def test_lucky_draw_all_doubles_play_off_all_four_edges():
    layout = lay("lucky-draw", "6-6")
    assert len(layout.open_ends) == 4
    for side in ("left", "right", "up", "down"):
        layout = layout.play(Move(Tile(6, {"left": 0, "right": 1, "up": 2, "down": 3}[side]),
                                  next(e for e in layout.open_ends if e.slot == side)))
    assert values(layout) == [0, 1, 2, 3]


def test_the_star_must_be_completed_before_other_ends():
    layout = lay("star", "6-6", ("6-1", 0, "left"))
    assert {e.at for e in layout.playable_ends} == {0}
    with pytest.raises(IllegalMoveError, match="star is not complete"):
        layout.play(Move(Tile(1, 3), next(e for e in layout.open_ends if e.at == 1)))
    layout = layout.play(Move(Tile(6, 2), layout.playable_ends[0]))
    layout = layout.play(Move(Tile(6, 3), layout.playable_ends[0]))
    layout = layout.play(Move(Tile(6, 4), layout.playable_ends[0]))
    assert layout.star_complete and values(layout) == [1, 2, 3, 4]


def test_the_star_opens_with_the_double_six_and_other_doubles_may_lie_either_way():
    with pytest.raises(IllegalMoveError, match="double-six"):
        lay("star", "5-5")
    layout = lay("star", "6-6", ("6-5", 0, "left"), ("6-4", 0, "right"), ("6-3", 0, "up"), ("6-2", 0, "down"))
    end = next(e for e in layout.open_ends if e.value == 5)
    in_line = layout.play(Move(Tile(5, 5), end, crosswise=False))
    across = layout.play(Move(Tile(5, 5), end, crosswise=True))
    assert not in_line.placed[-1].crosswise and across.placed[-1].crosswise
    assert len(in_line.open_ends) == len(across.open_ends)  # no spinner either way


def test_wrong_number_covered_end_and_tile_already_down_are_refused():
    layout = lay("block", "4-4", ("4-2", 0, "left"))
    with pytest.raises(IllegalMoveError, match="shows a 2"):
        layout.play(Move(Tile(5, 1), next(e for e in layout.open_ends if e.at == 1)))
    with pytest.raises(IllegalMoveError, match="already on the table"):
        layout.play(Move(Tile(4, 2), layout.open_ends[0]))
    from companion.rules.layout import End
    with pytest.raises(IllegalMoveError, match="already covered"):
        layout.play(Move(Tile(4, 1), End(0, "left", 4)))
    with pytest.raises(IllegalMoveError, match="first tile is already down"):
        layout.play(Move(Tile(1, 1)))


def test_all_fives_double_three_counts_six():
    # "Double Dominoes are laid crosswise and count as the total value (double three is six points)."
    layout = lay("all-fives", "6-3", ("3-3", 0, "right"))
    assert layout.count() == 6 + 6


def test_all_fives_counts_a_spinner_until_played_past():
    layout = lay("all-fives", "5-5")
    assert layout.count() == 10
    layout = lay("all-fives", "5-5", ("5-0", 0, "left"))
    assert layout.count() == 10 + 0
    layout = lay("all-fives", "5-5", ("5-0", 0, "left"), ("5-4", 0, "right"))
    assert layout.count() == 0 + 4
    layout = lay("all-fives", "5-5", ("5-0", 0, "left"), ("5-4", 0, "right"), ("5-1", 0, "up"))
    assert layout.count() == 0 + 4 + 1


def test_a_non_double_first_tile_has_two_ends():
    layout = Layout.for_preset(find_preset("turnover")).play(Move(Tile(6, 1)))
    assert values(layout) == [1, 6] and layout.count() == 7
