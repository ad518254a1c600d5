"""Property-based tests (hypothesis) for the tile and hand parser."""

from hypothesis import given
from hypothesis import strategies as st

import pytest

from companion.rules import (
    DuplicateTileError,
    InvalidHandError,
    InvalidTileError,
    Tile,
    double_set,
    format_hand,
    parse_hand,
)

TILES = st.sampled_from(double_set())
SEPARATORS = st.sampled_from(["-", "|", "/", ":"])
SPACE = st.sampled_from(["", " ", "  "])


@given(st.integers(0, 6), st.integers(0, 6), SEPARATORS, SPACE, SPACE)
def test_any_written_tile_parses_to_the_same_unordered_tile(a, b, sep, pad1, pad2):
    tile = Tile.parse(f"{pad1}{a}{pad2}{sep}{pad2}{b}{pad1}")
    assert tile == Tile(b, a) and tile.pips == a + b and str(tile) == f"{max(a, b)}-{min(a, b)}"
    assert Tile.parse(str(tile)) == tile


@given(st.lists(TILES, unique=True, max_size=28))
def test_format_then_parse_gives_the_hand_back(tiles):
    assert parse_hand(format_hand(tiles)) == tuple(tiles)


@given(st.lists(TILES, unique=True, min_size=1, max_size=27), st.data())
def test_a_tile_twice_is_refused_naming_it(tiles, data):
    twice = data.draw(st.sampled_from(tiles))
    flipped = f"{twice.low}-{twice.high}"
    with pytest.raises(DuplicateTileError) as err:
        parse_hand(format_hand(tiles) + "," + flipped)
    assert str(twice) in str(err.value)


@given(st.integers(7, 99), st.integers(0, 99))
def test_a_half_above_six_is_refused_quoting_it(big, other):
    text = f"{big}-{other}"
    with pytest.raises(InvalidTileError) as err:
        Tile.parse(text)
    assert repr(text) in str(err.value)


@given(st.text(max_size=12))
def test_any_text_parses_or_raises_a_value_error_that_quotes_it(text):
    try:
        tiles = parse_hand(text)
    except (InvalidTileError, InvalidHandError, DuplicateTileError) as exc:
        assert isinstance(exc, ValueError)
        if not isinstance(exc, DuplicateTileError):  # quotes the hand or the bad item in it
            quoted = [text, text.strip(), *text.strip().split(",")]
            assert any(repr(part) in str(exc) for part in quoted)
    else:
        assert all(isinstance(t, Tile) and t in double_set() for t in tiles)
        assert len(set(tiles)) == len(tiles)
