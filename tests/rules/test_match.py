"""A match to 100: standings, the winner, the tie-at-the-top rule, undo."""

import pytest

from companion.rules import InvalidRoundError, Match, MatchOverError, score_round


def round_won_by(winner, loser_hand, rules="block"):
    other = "B" if winner == "A" else "A"
    return score_round(rules, {winner: "", other: loser_hand})


def test_rounds_add_up_and_the_first_past_100_wins():
    match = Match("block", ("A", "B"))
    for _ in range(3):
        match = match.add(round_won_by("A", "6-6,6-5,6-4"))  # 33 each
    assert match.totals == {"A": 99, "B": 0} and match.winner is None
    match = match.add(round_won_by("B", "1-0"))
    match = match.add(round_won_by("A", "1-1"))
    assert match.winner == "A"
    assert [s.name for s in match.standings] == ["A", "B"]
    with pytest.raises(MatchOverError, match="A has won"):
        match.add(round_won_by("B", "1-0"))


def test_a_tie_at_the_top_past_the_target_means_another_round():
    # All Fives: both players pass 100 in one round through play points and end equal.
    match = Match("all-fives", ("A", "B"), target=100)
    first = score_round("all-fives", {"A": "", "B": "5-0"}, play_points={"A": 95, "B": 100})
    match = match.add(first)
    assert match.totals == {"A": 100, "B": 100}
    assert match.winner is None
    match = match.add(score_round("all-fives", {"A": "3-0", "B": ""}))  # 3 rounds to 5
    assert match.winner == "B"


def test_undo_recomputes_standings():
    match = Match("classic", ("A", "B")).add(round_won_by("A", "6-6", "classic")).add(
        round_won_by("B", "5-5", "classic"))
    assert match.undo(1).totals == {"A": 0, "B": 10}
    with pytest.raises(InvalidRoundError, match="3"):
        match.undo(3)


def test_rounds_must_fit_the_match():
    match = Match("block", ("A", "B"))
    with pytest.raises(InvalidRoundError, match="classic"):
        match.add(round_won_by("A", "1-1", "classic"))
    with pytest.raises(InvalidRoundError):
        match.add(score_round("block", {"A": "", "C": "1-1"}))
