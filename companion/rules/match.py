"""A match: rounds played to a target, with standings and a winner.

Entry points: ``Match(rules, players, target=100)`` (immutable: ``add(result)`` and ``undo(n)`` return
a new ``Match``), ``standings(players, rounds)`` and ``match_winner(totals, target)``.

Conventions (CONTRACTS.md): each round adds its ``RoundResult.scores`` to the players' totals. When a
round takes one or more players to the target or past it, the highest total wins; a tie at the top
means another round. Once there is a winner, further rounds are refused.

Raises ``MatchOverError`` (a round after the match was won), ``InvalidRoundError`` (a round for other
players or another preset, or an undo of a round that does not exist), ``UnknownPresetError``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable

from companion.rules.presets import find_preset
from companion.rules.scoring import InvalidRoundError, RoundResult


class MatchOverError(ValueError):
    """A round was added to a match that already has a winner."""


@dataclass(frozen=True, order=True)
class Standing:
    """One player's total in a match."""

    name: str
    score: int


def totals(players: Iterable[str], rounds: Iterable[RoundResult]) -> dict[str, int]:
    """Each player's total over ``rounds`` (the sum of each round's ``scores``)."""
    result = {name: 0 for name in players}
    for rnd in rounds:
        for name, points in rnd.scores.items():
            result[name] = result.get(name, 0) + points
    return result


def standings(players: Iterable[str], rounds: Iterable[RoundResult]) -> tuple[Standing, ...]:
    """Players by total, highest first; equal totals keep the players' order."""
    players = list(players)
    sums = totals(players, rounds)
    order = sorted(players, key=lambda n: (-sums[n], players.index(n)))
    return tuple(Standing(n, sums[n]) for n in order)


def match_winner(scores: dict[str, int], target: int) -> str | None:
    """The winner once someone has reached ``target``: the single highest total, else None."""
    if not scores or max(scores.values()) < target:
        return None
    top = max(scores.values())
    leaders = [n for n, s in scores.items() if s == top]
    return leaders[0] if len(leaders) == 1 else None


@dataclass(frozen=True)
class Match:
    """Rounds of one preset between fixed players, played to ``target``."""

    rules: str
    players: tuple[str, ...]
    target: int = 100
    rounds: tuple[RoundResult, ...] = ()

    def __post_init__(self) -> None:
        preset = find_preset(self.rules)
        object.__setattr__(self, "rules", preset.name)
        object.__setattr__(self, "players", tuple(self.players))
        if len(set(self.players)) != len(self.players):
            raise InvalidRoundError(f"players named twice: {list(self.players)!r}")
        preset.check_players(len(self.players))
        if not isinstance(self.target, int) or isinstance(self.target, bool) or self.target <= 0:
            raise InvalidRoundError(f"invalid target: {self.target!r} (a positive whole number)")

    @property
    def totals(self) -> dict[str, int]:
        return totals(self.players, self.rounds)

    @property
    def standings(self) -> tuple[Standing, ...]:
        return standings(self.players, self.rounds)

    @property
    def winner(self) -> str | None:
        return match_winner(self.totals, self.target)

    def add(self, result: RoundResult) -> "Match":
        """This match with ``result`` as its next round."""
        if self.winner is not None:
            raise MatchOverError(f"the match is over: {self.winner} has won; no more rounds")
        if result.rules != self.rules:
            raise InvalidRoundError(f"a {result.rules} round cannot be added to a {self.rules} match")
        if set(result.hands) != set(self.players):
            raise InvalidRoundError(
                f"the round's players {sorted(result.hands)!r} are not the match's {sorted(self.players)!r}")
        return replace(self, rounds=self.rounds + (result,))

    def undo(self, n: int) -> "Match":
        """This match without round ``n`` (1 is the first); the later rounds keep their order."""
        if not isinstance(n, int) or not 1 <= n <= len(self.rounds):
            raise InvalidRoundError(f"no round {n!r} to undo (the match has {len(self.rounds)})")
        return replace(self, rounds=self.rounds[: n - 1] + self.rounds[n:])
