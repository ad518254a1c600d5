"""The bridge between stored rounds and ``companion.rules``: score one round, add up a match.

Entry points: ``preset_choices()``, ``check_preset(name, players)``, ``preset_game(name)``,
``scores_during_play(name)``,
``score_entry(rules, players, entry)`` (one round: the ``companion score`` object with ``scores``)
and ``tally(players, target, results)`` (the running race and the winner).

Rounds are stored as entered (hands, boneyard, table, play points), never as scores, so undoing or
editing a round simply scores the match again from its entries.

Raises ``UnknownRulesError`` for a preset that does not exist and ``MatchInputError`` (wrapping the
rules' own ``ValueError``, message kept) for hands the preset cannot score.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from companion import rules as _rules
from companion.store.errors import MatchInputError, UnknownRulesError


@dataclass(frozen=True)
class Tally:
    """Where a match stands after some rounds.

    ``scores``: each player's total; ``race``: one list per player of the running totals after
    round 0, 1, 2, ...; ``winner``: the match winner or None; ``won_at``: the round that decided it.
    """

    scores: dict[str, int]
    race: dict[str, list[int]]
    winner: str | None
    won_at: int | None


def preset_choices() -> list[dict[str, Any]]:
    """Every preset a match can use (the one-player games are left out), for the new-match form:
    ``{"name", "game", "manual", "players": [low, high], "target", "in_play"}``."""
    return [{"name": p.name, "game": p.game, "manual": p.manual_title, "players": list(p.players),
             "target": p.target, "in_play": p.in_play_fives}
            for p in _rules.PRESETS.values() if not p.solo]


def check_preset(name: str, players: int) -> tuple[str, int | None]:
    """The preset's canonical name and its own target, checked for a match of ``players``.

    Raises ``UnknownRulesError`` quoting ``name`` (unknown, or a one-player game) and
    ``MatchInputError`` for a player count the preset does not allow."""
    try:
        preset = _rules.find_preset(name)
    except _rules.UnknownPresetError as exc:
        raise UnknownRulesError(str(exc)) from exc
    if preset.solo:
        raise UnknownRulesError(f"{preset.name!r} is a one-player game; a match needs a preset for 2-4 players")
    try:
        preset.check_players(players)
    except _rules.PlayerCountError as exc:
        raise MatchInputError(str(exc)) from exc
    return preset.name, preset.target


def preset_game(name: str) -> str:
    """The game's name as its manual gives it (``"All Fives (Fundex)"``), for page titles."""
    return _rules.find_preset(name).game


def scores_during_play(name: str) -> bool:
    """True for presets (All Fives) whose players score while the round is played."""
    return _rules.find_preset(name).in_play_fives


def score_entry(rules: str, players: Sequence[str], entry: Mapping[str, Any]) -> dict[str, Any]:
    """Score one stored round entry with its preset.

    ``entry``: ``{"hands": {name: "6-4,3-3"}, "boneyard": str|None, "table": str|None,
    "play_points": {name: int}}``. Returns the ``companion score`` object (with the rules'
    ``scores``: what each player adds to their total this round, play points included) plus
    ``play_points``.
    """
    play_points = {name: int(p) for name, p in entry.get("play_points", {}).items() if p}
    try:
        result = _rules.score_round(
            rules, {name: entry["hands"].get(name, "") for name in players},
            boneyard=entry.get("boneyard"), table=entry.get("table"), play_points=play_points or None)
    except ValueError as exc:
        raise MatchInputError(str(exc)) from exc
    out = result.to_json()
    out["play_points"] = play_points
    return out


def tally(players: Sequence[str], target: int, results: Sequence[Mapping[str, Any]], *,
          start: Tally | None = None) -> Tally:
    """Add up rounds in order. The match is won after the first round that takes someone to the
    target or past it with a single highest score (``rules.match_winner``); a tie at the top means
    another round. ``start``: the tally of the rounds before ``results`` (left unchanged)."""
    if start is None:
        scores = {name: 0 for name in players}
        race = {name: [0] for name in players}
        winner: str | None = None
        won_at: int | None = None
    else:
        scores, race = dict(start.scores), {name: list(totals) for name, totals in start.race.items()}
        winner, won_at = start.winner, start.won_at
    played = len(race[players[0]]) - 1 if players else 0
    for n, result in enumerate(results, start=played + 1):
        for name in players:
            scores[name] += int(result["scores"].get(name, 0))
            race[name].append(scores[name])
        if winner is None:
            winner = _rules.match_winner(dict(scores), target)
            won_at = n if winner is not None else None
    return Tally(scores=scores, race=race, winner=winner, won_at=won_at)
