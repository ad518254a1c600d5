"""Property-based checks of score_round over random end-of-round hands (hypothesis)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import Ending, double_set, hand_pips, score_round


@st.composite
def round_hands(draw, min_players=2, max_players=4):
    players = draw(st.integers(min_players, max_players))
    tiles = draw(st.permutations(double_set()))
    sizes = [draw(st.integers(0 if i == 0 else 1, 5)) for i in range(players)]
    hands, at = {}, 0
    for i, size in enumerate(sizes):
        hands[f"P{i}"] = tuple(tiles[at:at + size])
        at += size
    return hands


@settings(max_examples=200, deadline=None)
@given(round_hands())
def test_block_and_classic_agree_on_the_winner_and_differ_by_the_formula(hands):
    block = score_round("block", hands)
    classic = score_round("classic", hands)
    assert (block.winner, block.how) == (classic.winner, classic.how)
    if block.winner is None:
        assert block.points == classic.points == 0
        return
    own = hand_pips(hands[block.winner])
    assert all(hand_pips(h) >= own for h in hands.values())
    assert classic.points - block.points == (len(hands) - 2) * own
    assert block.points >= 0 and sum(block.scores.values()) == block.points


@settings(max_examples=200, deadline=None)
@given(round_hands())
def test_a_round_is_a_domino_exactly_when_someone_holds_nothing(hands):
    result = score_round("star" if len(hands) == 4 else "lucky-draw" if len(hands) == 3 else "block", hands)
    assert (result.how is Ending.DOMINO) == any(not h for h in hands.values())
    data = result.to_json()
    assert sum(h["pips"] for h in data["hands"].values()) == sum(hand_pips(h) for h in hands.values())
