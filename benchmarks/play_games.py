"""Play many seeded rounds per preset and print how fast the rules engine is and how rounds end.

Usage: .venv/bin/python benchmarks/play_games.py [GAMES_PER_PRESET] (default 2000)

Prints, per preset: rounds played, rounds per second, the share that went out (domino), blocked and
tied, and the mean winning score; then the one-player games' win rates for the first-choice and
random choosers. Random players only, 4 seats (3 for Lucky Draw would also do), seeds 0..N-1.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.rules import Ending, PRESETS  # noqa: E402
from companion.rules.game import play_round  # noqa: E402
from companion.rules.solo import play_draw_solitaire, play_knock_out, play_solitaire, random_choice  # noqa: E402


def main(games: int) -> None:
    print(f"{'preset':<15}{'rounds':>8}{'per s':>9}{'domino':>9}{'blocked':>9}{'tie':>7}{'mean pts':>10}")
    for name, preset in PRESETS.items():
        if preset.solo:
            continue
        players = [f"P{i}" for i in range(min(4, preset.players[1]))]
        ends: Counter = Counter()
        points = 0
        start = time.perf_counter()
        for seed in range(games):
            result = play_round(preset, players, seed=seed).result
            ends[result.how] += 1
            points += result.points
        took = time.perf_counter() - start
        print(f"{name:<15}{games:>8}{games / took:>9.0f}{ends[Ending.DOMINO] / games:>9.1%}"
              f"{ends[Ending.BLOCKED] / games:>9.1%}{ends[Ending.TIE] / games:>7.1%}{points / games:>10.1f}")
    print(f"\n{'one-player game':<16}{'games':>7}{'per s':>9}{'won (first)':>13}{'won (random)':>14}")
    for name, play in (("solitaire", play_solitaire), ("draw-solitaire", play_draw_solitaire),
                       ("knock-out", play_knock_out)):
        start = time.perf_counter()
        first = sum(play(random.Random(s)).won for s in range(games))
        rand = sum(play(random.Random(s), random_choice(random.Random(s))).won for s in range(games))
        took = time.perf_counter() - start
        print(f"{name:<16}{games:>7}{2 * games / took:>9.0f}{first / games:>13.1%}{rand / games:>14.1%}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
