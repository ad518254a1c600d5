"""Every worked scoring example of the manuals, as a story, plus each preset's end-of-round formula."""

import pytest

from companion.rules import (
    DuplicateTileError,
    Ending,
    InvalidRoundError,
    MissingTableError,
    PlayerCountError,
    UnknownPresetError,
    double_set,
    find_preset,
    hand_pips,
    parse_hand,
    round_to_five,
    score_round,
)

# Hands with the pip counts the manuals use (each tile once across a round).
NINE, THREE, TWELVE, FOUR, NINETEEN = "6-3", "2-1", "6-6", "4-0", "6-5,4-4"


def test_elakai_example_1_scores_24():
    # "Player 1: 0 points in hand ... In this example, player 1 won the round and would receive 24 points."
    result = score_round("block", {"Player 1": "", "Player 2": NINE, "Player 3": THREE, "Player 4": TWELVE})
    assert (result.winner, result.points, result.how) == ("Player 1", 24, Ending.DOMINO)
    assert "000_619e90587aa65ef7.txt" in result.explanation


def test_elakai_example_2_scores_16():
    # Player 3 holds 3 points, the least, so wins the blocked round: (4-3) + (9-3) + (12-3) = 16.
    result = score_round("block", {"Player 1": FOUR, "Player 2": NINE, "Player 3": THREE, "Player 4": TWELVE})
    assert (result.winner, result.points, result.how) == ("Player 3", 16, Ending.BLOCKED)
    assert "(4-3) + (9-3) + (12-3) = 16" in result.explanation


def test_garden_games_example_3_12_19_9_scores_31():
    result = score_round("block", {"A": THREE, "B": TWELVE, "C": NINETEEN, "D": NINE})
    assert (result.winner, result.points) == ("A", 31)


def test_fundex_block_scores_the_balance_from_each_opponent():
    # "He subtracts the total of his points from the total of each of his opponent's points and scores
    # the balance of points from each." -- the same formula as Elakai and Garden Games.
    result = score_round("block", {"A": "1-0", "B": "5-5", "C": "3-2"})
    assert result.points == (10 - 1) + (5 - 1)


def test_classic_takes_the_opponents_total_minus_the_winners_own():
    # The Garden Games hands under the Classic booklet: 12 + 19 + 9 - 3 = 37, not 31.
    result = score_round("classic", {"A": THREE, "B": TWELVE, "C": NINETEEN, "D": NINE})
    assert (result.winner, result.points) == ("A", 37)
    assert "(12 + 19 + 9) - 3 = 37" in result.explanation


def test_lucky_draw_going_out_scores_the_others_dots():
    result = score_round("lucky-draw", {"A": "", "B": TWELVE, "C": NINETEEN})
    assert result.points == 31


def test_lucky_draw_blocked_subtracts_the_winners_own():
    result = score_round("lucky-draw", {"A": THREE, "B": TWELVE, "C": NINETEEN})
    assert (result.winner, result.points) == ("A", 28)


def test_star_scores_the_losing_players_hands():
    result = score_round("star", {"A": "", "B": TWELVE, "C": NINETEEN, "D": NINE})
    assert (result.winner, result.points) == ("A", 40)


def test_star_blocked_lowest_scores_the_losers_total():
    result = score_round("star", {"A": THREE, "B": TWELVE, "C": NINETEEN, "D": NINE})
    assert (result.winner, result.points, result.how) == ("A", 40, Ending.BLOCKED)


def test_protocol_going_out_scores_the_dots_on_the_table():
    result = score_round("protocol", {"A": "", "B": TWELVE}, table="4-4,4-2,2-2")
    assert (result.winner, result.points) == ("A", 8 + 6 + 4)


def test_protocol_table_can_come_from_the_boneyard():
    hands = {"A": "", "B": TWELVE}
    boneyard = "5-5,5-4"
    expected = 168 - 12 - 19
    assert score_round("protocol", hands, boneyard=boneyard).points == expected


def test_protocol_going_out_without_table_or_boneyard_says_so():
    with pytest.raises(MissingTableError, match="--table"):
        score_round("protocol", {"A": "", "B": TWELVE})


def test_protocol_blocked_fewest_tiles_wins_and_scores_difference_to_heaviest():
    # B holds one tile (12 dots) against A's two and C's three: the fewest tiles win, not the fewest dots.
    result = score_round("protocol", {"A": "2-1,1-0", "B": TWELVE, "C": "6-5,5-4,4-3"})
    assert (result.winner, result.how) == ("B", Ending.BLOCKED)
    assert result.points == (11 + 9 + 7) - 12


def test_protocol_blocked_winner_holding_the_heaviest_hand_scores_0():
    result = score_round("protocol", {"A": "2-1,1-0", "B": TWELVE})
    assert (result.winner, result.points) == ("B", 0)


def test_protocol_blocked_ties_on_tiles_go_to_fewest_dots():
    result = score_round("protocol", {"A": "2-1", "B": TWELVE, "C": "6-5,5-4"})
    assert (result.winner, result.points, result.how) == ("A", 20 - 3, Ending.BLOCKED)


def test_protocol_blocked_equal_tiles_and_dots_is_a_tie():
    result = score_round("protocol", {"A": "2-1", "B": "3-0"})
    assert (result.winner, result.points, result.how) == (None, 0, Ending.TIE)


@pytest.mark.parametrize("count, rounded", [(7, 5), (8, 10), (0, 0), (2, 0), (3, 5), (10, 10), (13, 15)])
def test_all_fives_rounds_to_the_nearest_five(count, rounded):
    # "if total spots equal seven then round to five points, if total spots equal eight then round to ten"
    assert round_to_five(count) == rounded


def test_all_fives_going_out_scores_each_hand_rounded_plus_play_points():
    result = score_round("all-fives", {"A": "", "B": "6-1", "C": "4-4"}, play_points={"A": 15, "B": 10})
    assert result.points == 15 + 5 + 10
    assert dict(result.scores) == {"A": 30, "B": 10, "C": 0}


def test_all_fives_blocked_scores_rounded_differences():
    result = score_round("all-fives", {"A": "1-0", "B": "6-1", "C": "4-4"})
    assert (result.winner, result.points) == ("A", round_to_five(6) + round_to_five(7))


def test_all_fives_tie_keeps_play_points():
    result = score_round("all-fives", {"A": "2-1", "B": "3-0"}, play_points={"B": 5})
    assert (result.winner, result.points, result.how) == (None, 0, Ending.TIE)
    assert dict(result.scores) == {"A": 0, "B": 5}


def test_blocked_with_two_lowest_hands_is_a_tie():
    result = score_round("block", {"A": "2-1", "B": "3-0", "C": TWELVE})
    assert (result.winner, result.points, result.how) == (None, 0, Ending.TIE)
    assert "tie" in result.explanation


def test_turnover_and_blind_follow_their_chosen_formulas():
    assert score_round("turnover", {"A": "", "B": TWELVE, "C": NINE}).points == 21
    assert score_round("blind", {"A": THREE, "B": TWELVE}).points == 9


def test_scores_sum_into_the_winner_only_without_play_points():
    result = score_round("classic", {"A": "", "B": TWELVE})
    assert dict(result.scores) == {"A": 12, "B": 0}


def test_json_has_the_contract_fields():
    data = score_round("block", {"Ann": "6-4,3-3", "Bob": ""}).to_json()
    assert data["rules"] == "block" and data["winner"] == "Bob" and data["points"] == 16
    assert data["how"] == "domino"
    assert data["hands"]["Ann"] == {"tiles": [[6, 4], [3, 3]], "pips": 16}
    assert data["hands"]["Bob"] == {"tiles": [], "pips": 0}
    assert isinstance(data["explanation"], str)


@pytest.mark.parametrize("call, error, quoted", [
    (lambda: score_round("nope", {"A": "", "B": "1-1"}), UnknownPresetError, "'nope'"),
    (lambda: score_round("block", {"A": "", "B": "6-1"}, table="1-6"), DuplicateTileError, "6-1"),
    (lambda: score_round("block", {"A": "", "B": ""}), InvalidRoundError, "A and B"),
    (lambda: score_round("block", {"A": "1-0"}), PlayerCountError, "2-4 players"),
    (lambda: score_round("star", {"A": "", "B": "1-0"}), PlayerCountError, "4 players"),
    (lambda: score_round("block", {"A": "1-0", "B": "2-0"}, boneyard="6-6"), InvalidRoundError, "boneyard"),
    (lambda: score_round("block", {"A": "", "B": "2-0"}, play_points={"A": 5}), InvalidRoundError, "play"),
    (lambda: score_round("all-fives", {"A": "", "B": "2-0"}, play_points={"A": 7}), InvalidRoundError, "7"),
    (lambda: score_round("all-fives", {"A": "", "B": "2-0"}, play_points={"Z": 5}), InvalidRoundError, "'Z'"),
    (lambda: score_round("solitaire", {"A": ""}), InvalidRoundError, "one-player"),
])
def test_bad_rounds_raise_errors_that_name_the_problem(call, error, quoted):
    with pytest.raises(error) as err:
        call()
    assert quoted in str(err.value)


def test_every_multiplayer_preset_scores_a_domino_round():
    for name in ("block", "all-fives", "protocol", "classic", "star", "blind", "lucky-draw", "turnover"):
        preset = find_preset(name)
        players = max(preset.players[0], 2) if name != "star" else 4
        tiles = double_set()
        hands = {f"P{i}": (tiles[i],) if i else () for i in range(players)}
        result = score_round(preset, hands, table=tiles[10:12])
        assert result.winner == "P0" and result.how is Ending.DOMINO
        others = sum(hand_pips(h) for h in hands.values())
        assert result.points == (hand_pips(tiles[10:12]) if name == "protocol" else
                                 sum(round_to_five(hand_pips(h)) for h in list(hands.values())[1:])
                                 if name == "all-fives" else others)
        assert hand_pips(parse_hand("")) == 0


def test_a_bad_hand_string_names_whose_hand_it_was():
    from companion.rules import InvalidTileError
    with pytest.raises(InvalidTileError) as err:
        score_round("block", {"Ann": "6-4,7-7", "Bob": ""})
    assert str(err.value).startswith("Ann's hand: ") and "'7-7'" in str(err.value)


def test_a_tie_explains_the_presets_choice():
    result = score_round("classic", {"A": "2-1", "B": "3-0"})
    assert "does not say" in result.explanation and "tie" in result.explanation
