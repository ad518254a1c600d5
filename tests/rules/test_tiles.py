import pytest

from companion.rules import (
    DuplicateTileError,
    InvalidHandError,
    InvalidTileError,
    Tile,
    double_set,
    parse_hand,
)


def test_tile_is_unordered_and_prints_high_first():
    assert Tile(4, 6) == Tile(6, 4)
    assert str(Tile.parse("4-6")) == "6-4"
    assert Tile.parse(" 3 - 3 ").is_double


def test_double_six_set_has_28_distinct_tiles():
    tiles = double_set()
    assert len(tiles) == len(set(tiles)) == 28
    assert sum(t.pips for t in tiles) == 168


@pytest.mark.parametrize("bad", ["7-1", "6", "a-b", "6-4-1", "", "-1-2"])
def test_bad_tiles_quote_the_input(bad):
    with pytest.raises(InvalidTileError) as err:
        Tile.parse(bad)
    assert repr(bad) in str(err.value)


def test_larger_sets_allow_higher_halves():
    assert Tile.parse("12-9", max_pips=12).pips == 21
    with pytest.raises(InvalidTileError):
        Tile.parse("10-0", max_pips=9)


def test_hand_parsing():
    assert parse_hand("") == ()
    assert parse_hand("6-4,3-3") == (Tile(6, 4), Tile(3, 3))
    with pytest.raises(InvalidHandError):
        parse_hand("6-4,,3-3")
    with pytest.raises(DuplicateTileError, match="6-4"):
        parse_hand("6-4,4-6")
