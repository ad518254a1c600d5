"""The rules of the games in the five manuals: tiles, hands, layouts, moves, presets and scoring.

Standard library only; nothing here imports from the rest of companion.

Stable names for the CLI and the dashboard (keep them):

- ``find_preset(name) -> Preset`` (raises ``UnknownPresetError``), ``PRESETS`` (name -> Preset, in the
  order ``companion rules`` lists them), ``preset_names()``; ``Preset.to_json()`` is one entry of
  ``companion rules --json``.
- ``score_round(preset, hands, *, boneyard=None, table=None, play_points=None) -> RoundResult``:
  ``hands`` maps names to tile tuples or hand strings. ``RoundResult.to_json()`` is the object
  ``companion score --json`` prints: rules, winner, points, how, hands {name: {tiles, pips}},
  explanation, and ``scores`` {name: points this round} (the winner's end points plus points made
  during play, for All Fives); a match adds ``scores`` to the totals.
- ``Match(rules, players, target=100)`` with ``add``/``undo``/``standings``/``winner``;
  ``standings(players, rounds)``, ``match_winner(totals, target)``, ``MatchOverError``.
- ``Layout``/``Move``/``End`` (``layout.moves(hand)``, ``layout.play(move)``), ``play_round`` and
  ``play_match`` (seeded; ``RandomPlayer``, ``GreedyPlayer``), ``deal``; disputes: ``build_layout``,
  ``check_play``, ``check_stuck``, ``fives`` -> ``Verdict``; the one-player games in ``solo``.
- ``Ending`` (domino, blocked, tie). Errors are ``ValueError`` subclasses whose message names the input.

Modules: ``tiles`` (Tile, hands), ``presets``, ``scoring``, ``match``, ``layout`` (the table and its
open ends, legal moves), ``game`` (deals, turns, simple players, whole rounds), ``solo`` (the one-player
games) and ``disputes`` (is this play legal, could that player have played).
"""

from companion.rules.disputes import Verdict, build_layout, check_play, check_stuck, fives
from companion.rules.game import GreedyPlayer, RandomPlayer, RoundRecord, deal, play_match, play_round
from companion.rules.layout import End, IllegalMoveError, Layout, Move
from companion.rules.match import Match, MatchOverError, Standing, match_winner, standings
from companion.rules.presets import (
    PRESETS,
    Choice,
    PlayerCountError,
    Preset,
    UnknownPresetError,
    find_preset,
    preset_names,
)
from companion.rules.scoring import (
    Ending,
    InvalidRoundError,
    MissingTableError,
    RoundResult,
    round_to_five,
    score_round,
)
from companion.rules.tiles import (
    DOUBLE_SIX,
    DuplicateTileError,
    InvalidHandError,
    InvalidTileError,
    Tile,
    check_distinct,
    double_set,
    format_hand,
    hand_pips,
    parse_hand,
)

__all__ = [
    "DOUBLE_SIX",
    "End",
    "GreedyPlayer",
    "IllegalMoveError",
    "Layout",
    "Move",
    "RandomPlayer",
    "RoundRecord",
    "Verdict",
    "build_layout",
    "check_play",
    "check_stuck",
    "deal",
    "fives",
    "play_match",
    "play_round",
    "Choice",
    "DuplicateTileError",
    "Ending",
    "InvalidHandError",
    "InvalidRoundError",
    "InvalidTileError",
    "Match",
    "MatchOverError",
    "MissingTableError",
    "PRESETS",
    "PlayerCountError",
    "Preset",
    "RoundResult",
    "Standing",
    "Tile",
    "UnknownPresetError",
    "check_distinct",
    "double_set",
    "find_preset",
    "format_hand",
    "hand_pips",
    "match_winner",
    "parse_hand",
    "preset_names",
    "round_to_five",
    "score_round",
    "standings",
]
