"""The one-player games can be played from a seeded shuffle and judged."""

import random

import pytest

from companion.rules import Tile, double_set
from companion.rules.layout import IllegalMoveError
from companion.rules.solo import (
    Removal,
    knock_outs,
    play_draw_solitaire,
    play_knock_out,
    play_solitaire,
    random_choice,
    solitaire_removals,
)

T = Tile.parse


def test_solitaire_removes_the_middle_between_two_sharing_a_number():
    # "If the dominoes on the ends (the first and third dominoes) share a common number ... remove the
    # middle domino"
    assert solitaire_removals([T("6-1"), T("3-2"), T("6-4")]) == (Removal(1),)
    assert solitaire_removals([T("6-1"), T("3-2"), T("5-4")]) == ()


def test_solitaire_three_sharing_a_number_may_all_go():
    assert solitaire_removals([T("6-1"), T("6-3"), T("6-4")]) == (Removal(1), Removal(1, True))


def test_solitaire_is_won_only_when_the_row_empties():
    results = [play_solitaire(random.Random(s), random_choice(random.Random(s))) for s in range(500)]
    for result in results:
        assert result.won == (result.left == ())
        laid = [step[1] for step in result.steps if step[0] == "lay"]
        assert sorted(laid) == sorted(double_set())


def test_draw_solitaire_plays_every_tile_once_and_is_judged():
    wins = 0
    for seed in range(1000):
        result = play_draw_solitaire(random.Random(seed), random_choice(random.Random(seed)))
        played = [s[1].tile for s in result.steps if s[0] == "play"]
        assert len(set(played)) == len(played)
        assert result.won == (len(played) == 28)
        wins += result.won
    assert 0 < wins < 1000


def test_knock_out_knocks_two_touching_matching_tiles():
    # "If there are any dominoes whose ends match where they touch, you may 'knock' them out"
    assert knock_outs([(1, 2), (2, 5), (5, 0)]) == (0, 1)


def winnable_line():
    """The 28 tiles as 14 touching pairs that match where they meet (found by a small search)."""
    def pair_up(left):
        if not left:
            return []
        first = left[0]
        for partner in left[1:]:
            common = set(first.halves) & set(partner.halves)
            if common:
                rest = pair_up([t for t in left[1:] if t != partner])
                if rest is not None:
                    v = common.pop()
                    return [((first.other(v), v), (v, partner.other(v)))] + rest
        return None
    return [half for pair in pair_up(list(double_set())) for half in pair]


def test_knock_out_a_winnable_line_is_won():
    line = winnable_line()
    assert sorted(Tile(*p) for p in line) == sorted(double_set())
    result = play_knock_out(random.Random(0), line=line)
    assert result.won and len(result.steps) == 14


def test_knock_out_is_judged_from_seeded_lines():
    for seed in range(500):
        result = play_knock_out(random.Random(seed), random_choice(random.Random(seed)))
        assert result.won == (result.left == ())
        assert len(result.left) + 2 * len(result.steps) == 28
        assert knock_outs(result.left) == ()


def test_a_scripted_step_that_breaks_the_rules_is_refused():
    with pytest.raises(IllegalMoveError):
        play_knock_out(random.Random(1), lambda options: 99, line=winnable_line())
