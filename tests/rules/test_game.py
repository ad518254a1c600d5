"""Whole rounds from seeded deals, by random and greedy players: the invariants hold at every step.

GAMES_PER_PRESET (2000) rounds per preset by random players, and a third as many by greedy against
random, run by default; set COMPANION_GAMES to change it. benchmarks/play_games.py times the engine.
"""

import os
import random
from collections import Counter

import pytest

from companion.rules import Ending, double_set, find_preset, hand_pips, round_to_five
from companion.rules.game import GreedyPlayer, RandomPlayer, deal, play_match, play_round
from companion.rules.layout import IllegalMoveError, Move
from companion.rules.presets import BlockedWinner, EndScoring

GAMES_PER_PRESET = int(os.environ.get("COMPANION_GAMES", "2000"))
MULTI = ["block", "all-fives", "protocol", "classic", "star", "blind", "lucky-draw", "turnover"]
ALL_TILES = set(double_set())


def seats(name, seed):
    preset = find_preset(name)
    low, high = preset.players
    return [f"P{i}" for i in range(random.Random(seed).randint(low, min(high, 6)))]


def expected_points(preset, hands, table, play_points):
    """The formulas of the issue, written out again plainly to check the engine against."""
    pips = {n: hand_pips(h) for n, h in hands.items()}
    out = [n for n, h in hands.items() if not h]
    if out:
        winner = out[0]
    elif preset.blocked_winner is BlockedWinner.FEWEST_TILES:
        key = {n: (len(h), pips[n]) for n, h in hands.items()}
        best = min(key.values())
        leaders = [n for n in hands if key[n] == best]
        winner = leaders[0] if len(leaders) == 1 else None
    else:
        leaders = [n for n in hands if pips[n] == min(pips.values())]
        winner = leaders[0] if len(leaders) == 1 else None
    if winner is None:
        return None, 0
    others = [pips[n] for n in hands if n != winner]
    own = pips[winner]
    rule = preset.end_scoring
    if rule is EndScoring.DIFFERENCES:
        end = sum(o - own for o in others)
    elif rule is EndScoring.OTHERS_MINUS_OWN:
        end = sum(others) - own
    elif rule is EndScoring.LOSERS_TOTAL:
        end = sum(others)
    elif rule is EndScoring.PROTOCOL:
        end = sum(t.pips for t in table) if out else max(pips.values()) - own
    else:
        end = sum(round_to_five(o - own) for o in others)
    return winner, end + play_points.get(winner, 0)


def check_round(name, seed, strategies=None):
    preset = find_preset(name)
    players = seats(name, seed)
    steps = []

    def observe(state):
        place = [*state.boneyard, *state.layout.tiles]
        for hand in state.hands.values():
            place.extend(hand)
        assert len(place) == 28 and set(place) == ALL_TILES, f"{name} seed {seed}: a tile is missing or doubled"
        last = state.last
        if last is not None and last.kind == "draw" and steps:
            before = steps[-1]
            assert not before.layout.can_play(before.hands[last.player]), "drew while able to play"
        if last is not None and last.kind == "pass":
            assert not state.layout.can_play(state.hands[last.player]), "passed while able to play"
            assert not (preset.draws and state.boneyard), "passed with tiles left to draw"
        steps.append(state)

    record = play_round(preset, players, seed=seed, strategies=strategies(players) if strategies else None,
                        observe=observe)
    result = record.result
    winner, points = expected_points(preset, record.hands, record.layout.tiles, record.play_points)
    assert (result.winner, result.points) == (winner, points), f"{name} seed {seed}"
    if result.how is Ending.DOMINO:
        assert record.hands[result.winner] == ()
    else:
        assert not any(record.layout.can_play(h) for h in record.hands.values()), "blocked but playable"
        if preset.draws:
            assert record.boneyard == ()
    for p in record.layout.placed[1:]:  # every tile touches an end that showed one of its halves
        parent = record.layout.placed[p.parent]
        assert p.slot in parent.exits
    return record


@pytest.mark.parametrize("name", MULTI)
def test_random_players_play_seeded_rounds_and_every_invariant_holds(name):
    endings = Counter()
    for seed in range(GAMES_PER_PRESET):
        endings[check_round(name, seed).result.how] += 1
    assert endings[Ending.DOMINO] > 0


@pytest.mark.parametrize("name", MULTI)
def test_greedy_against_random(name):
    fives = find_preset(name).in_play_fives

    def strategies(players):
        return {p: GreedyPlayer(fives) if i % 2 == 0 else RandomPlayer(random.Random(i)) for i, p in
                enumerate(players)}
    for seed in range(GAMES_PER_PRESET // 3):
        check_round(name, 10_000 + seed, strategies)


def test_same_seed_same_round():
    a = play_round("block", ["A", "B", "C"], seed=7)
    b = play_round("block", ["A", "B", "C"], seed=7)
    assert a.events == b.events and a.result == b.result


def test_highest_double_starts_and_redeals_when_nobody_has_one():
    redeals = 0
    for seed in range(300):
        d = deal("block", ["A", "B"], random.Random(seed))
        doubles = [t for h in d.hands.values() for t in h if t.is_double]
        assert d.opening == max(doubles) and d.opening in d.hands[d.starter]
        redeals += d.redeals
    assert redeals > 0  # 10 of 28 tiles dealt: nobody holds a double now and then


def test_lucky_draw_three_players_double_six_holder_gets_ten():
    for seed in range(50):
        d = deal("lucky-draw", ["A", "B", "C"], random.Random(seed))
        sizes = {n: len(h) for n, h in d.hands.items()}
        assert sizes[d.starter] == 10 and sorted(sizes.values()) == [9, 9, 10] and d.boneyard == ()
        assert d.opening.high == d.opening.low == 6


def test_blind_draw_for_first_player_goes_to_most_dots():
    for seed in range(50):
        d = deal("blind", ["A", "B", "C", "D"], random.Random(seed))
        assert all(len(h) == 7 for h in d.hands.values())
        for earlier, later in zip(d.first_draw, d.first_draw[1:]):  # the tied top draw again
            top = max(t.pips for t in earlier.values())
            assert set(later) == {n for n, t in earlier.items() if t.pips == top}
        last = d.first_draw[-1]
        assert [n for n, t in last.items() if t.pips == max(x.pips for x in last.values())] == [d.starter]


def test_star_every_play_goes_on_the_double_six_until_the_star_is_complete():
    for seed in range(50):
        record = play_round("star", ["A", "B", "C", "D"], seed=seed)
        plays = [e for e in record.events if e.kind == "play"]
        arms = [e for e in plays[1:] if e.move.end.at == 0]
        assert len(arms) <= 4
        first_off_star = next((i for i, e in enumerate(plays[1:]) if e.move.end.at != 0), None)
        if first_off_star is not None:
            assert first_off_star >= 4


def test_a_cheating_player_is_refused():
    class Cheat:
        def choose(self, layout, moves):
            return Move(moves[0].tile, None)
    with pytest.raises(IllegalMoveError):
        play_round("block", ["A", "B"], seed=1, strategies={"A": Cheat(), "B": Cheat()})


def test_a_match_is_played_to_100():
    match = play_match("classic", ["A", "B", "C"], seed=5)
    assert match.winner is not None
    assert max(match.totals.values()) >= 100


@pytest.mark.parametrize("name", MULTI)
def test_the_layout_accepts_exactly_the_legal_moves_at_every_step(name):
    """At each step of seeded rounds, try every tile not on the table on every exit ever made:
    ``play`` succeeds exactly for the moves ``moves`` lists."""
    from companion.rules.layout import End
    for seed in range(6):
        layouts = []
        play_round(name, seats(name, seed), seed=seed, observe=lambda s: layouts.append(s.layout))
        for layout in layouts[1::4]:
            if not layout.placed:
                continue
            off = [t for t in double_set() if t not in set(layout.tiles)]
            legal = set(layout.moves(off))
            tried = set(layout.open_ends) | {End(i, slot, 0) for i, p in enumerate(layout.placed)
                                             for slot in ("on", "up", "down", "left", "right")}
            for end in tried:
                for tile in off:
                    move = Move(tile, end)
                    try:
                        layout.play(move)
                        accepted = True
                    except IllegalMoveError:
                        accepted = False
                    assert accepted == (move in legal), f"{name} seed {seed}: {move}"


def turns(record):
    """Group events into turns: a new turn starts whenever the player changes."""
    grouped = []
    for event in record.events:
        if grouped and grouped[-1][0] == event.player:
            grouped[-1][1].append(event.kind)
        else:
            grouped.append((event.player, [event.kind]))
    return grouped


def test_blind_turns_up_one_tile_a_turn():
    for seed in range(100):
        record = play_round("blind", ["A", "B", "C"], seed=seed)
        grouped = turns(record)
        assert grouped[0][1][0] == "play" and len(grouped[0][1]) == 2  # set the first, turn up one more
        for _, kinds in grouped[1:]:
            assert len(kinds) == 1 and kinds[0] in ("play", "back")


def test_turnover_keeps_turning_up_while_tiles_fit():
    for seed in range(100):
        record = play_round("turnover", ["A", "B", "C", "D"], seed=seed)
        for player, kinds in turns(record)[:-1]:
            assert all(k == "play" for k in kinds[:-1]) and kinds[-1] == "back", (player, kinds)


def test_drawing_stops_as_soon_as_a_tile_fits():
    for seed in range(100):
        record = play_round("block", ["A", "B"], seed=seed)
        for _, kinds in turns(record):
            assert kinds[-1] in ("play", "pass") or kinds == ["draw"] * len(kinds)
            assert kinds.count("play") <= 1
