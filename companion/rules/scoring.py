"""End-of-round scoring from the hands left over, per preset and manual.

Entry point: ``score_round(preset, hands, *, boneyard=None, table=None, play_points=None)`` returns a
``RoundResult``: the winner (or None), the points, how the round ended (``Ending``), the hands, a
``scores`` map (what each player adds to their total this round: the winner's end points plus any
points made during play), and an explanation that quotes the preset's manual.

Conventions: someone with an empty hand went out (``Ending.DOMINO``); otherwise the round was blocked
and the preset's ``blocked_winner`` rule picks the winner, or nobody (``Ending.TIE``, 0 end points).
``points`` is ``scores[winner]`` (0 on a tie). Hands may be given as tile tuples or hand strings.

Does not check that the round could really have ended so (that nobody could play): see ``disputes``.

Raises ``UnknownPresetError``, ``InvalidTileError``/``InvalidHandError``/``DuplicateTileError`` (from
``tiles``), ``InvalidRoundError`` for a round that cannot be scored as given, and its subclass
``MissingTableError`` when a Protocol domino round has neither table nor boneyard.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Iterable, Mapping

from companion.rules.presets import BlockedWinner, EndScoring, Preset, find_preset
from companion.rules.tiles import Tile, check_distinct, double_set, hand_pips, parse_hand


class InvalidRoundError(ValueError):
    """A round that cannot be scored as given (names the problem)."""


class MissingTableError(InvalidRoundError):
    """A preset needs the tiles on the table (or the draw pile) to score this round."""


class Ending(Enum):
    """How a round ended."""

    DOMINO = "domino"  #: a player went out (played their last tile)
    BLOCKED = "blocked"  #: nobody could play; one player won on the preset's blocked rule
    TIE = "tie"  #: blocked with no single winner; nobody scores end points


@dataclass(frozen=True)
class RoundResult:
    """The outcome of one round. ``hands`` keeps the players' order as given."""

    rules: str
    winner: str | None
    points: int
    how: Ending
    hands: Mapping[str, tuple[Tile, ...]]
    explanation: str
    scores: Mapping[str, int] = field(default_factory=dict)

    def pips(self, name: str) -> int:
        return hand_pips(self.hands[name])

    def to_json(self) -> dict:
        """The object ``companion score --json`` prints (CONTRACTS.md), plus ``scores``."""
        return {
            "rules": self.rules,
            "winner": self.winner,
            "points": self.points,
            "how": self.how.value,
            "hands": {name: {"tiles": [[t.high, t.low] for t in tiles], "pips": hand_pips(tiles)}
                      for name, tiles in self.hands.items()},
            "explanation": self.explanation,
            "scores": dict(self.scores),
        }


def round_to_five(count: int) -> int:
    """Round a hand count to the nearest five, as All Fives does (7 -> 5, 8 -> 10)."""
    return 5 * ((count + 2) // 5)


def _tiles(value: Iterable[Tile] | str | None, what: str) -> tuple[Tile, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        try:
            return parse_hand(value)
        except ValueError as exc:  # keep the error's type, say whose hand it was
            raise type(exc)(f"{what}: {exc}") from None
    tiles = tuple(value)
    for tile in tiles:
        if not isinstance(tile, Tile):
            raise InvalidRoundError(f"{what}: {tile!r} is not a tile")
    return tiles


def _names(names: Iterable[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def score_round(
    preset: Preset | str,
    hands: Mapping[str, Iterable[Tile] | str],
    *,
    boneyard: Iterable[Tile] | str | None = None,
    table: Iterable[Tile] | str | None = None,
    play_points: Mapping[str, int] | None = None,
) -> RoundResult:
    """Score the end of one round from the hands left over. See the module docstring."""
    if isinstance(preset, str):
        preset = find_preset(preset)
    if preset.solo:
        raise InvalidRoundError(
            f"{preset.name} is a one-player game: it is won or lost by play, not scored from hands")
    if not isinstance(hands, Mapping):
        raise InvalidRoundError(f"hands must map player names to hands, not {hands!r}")
    parsed: dict[str, tuple[Tile, ...]] = {}
    for name, hand in hands.items():
        if not isinstance(name, str) or not name.strip():
            raise InvalidRoundError(f"invalid player name: {name!r}")
        parsed[name] = _tiles(hand, f"{name}'s hand")
    preset.check_players(len(parsed))
    bone, tab = _tiles(boneyard, "the boneyard"), _tiles(table, "the table")
    check_distinct({**{f"{n}'s hand": t for n, t in parsed.items()}, "the boneyard": bone, "the table": tab})
    points_in_play = _check_play_points(preset, play_points, parsed)

    pips = {name: hand_pips(tiles) for name, tiles in parsed.items()}
    out = [name for name, tiles in parsed.items() if not tiles]
    if len(out) > 1:
        raise InvalidRoundError(f"{_names(out)} all have empty hands; only one player can go out")
    if out:
        how, winner = Ending.DOMINO, out[0]
        story = f"{winner} went out"
    else:
        if preset.draws and bone:
            raise InvalidRoundError(
                f"nobody went out, but the boneyard still holds {len(bone)} tile(s): under {preset.name} a "
                "stuck player draws, so a round only blocks once the draw pile is empty")
        winner, story = _blocked_winner(preset, parsed, pips)
        how = Ending.BLOCKED if winner else Ending.TIE

    scores = dict(points_in_play)
    if winner is None:
        end_points, sums = 0, (f"{preset.manual_title} does not say who wins a blocked round with equal "
                               f"lowest hands: the {preset.name} preset calls it a tie, and nobody scores "
                               "end-of-round points")
    else:
        if table is not None:
            on_table: tuple[Tile, ...] | None = tab
        elif boneyard is not None:  # the table is the rest of the set
            held = {t for tiles in parsed.values() for t in tiles} | set(bone)
            on_table = tuple(t for t in double_set() if t not in held)
        else:
            on_table = None
        end_points, sums = _end_points(preset, winner, how, parsed, pips, on_table)
        scores[winner] = scores.get(winner, 0) + end_points
    points = scores.get(winner, 0) if winner else 0
    manual = "" if winner is None else f"{preset.manual_title} ({preset.manual_file}): \"{preset.scoring_quote}\" "
    extra = ""
    if points_in_play and any(points_in_play.values()):
        extra = " Points made during play: " + ", ".join(
            f"{n} {p}" for n, p in points_in_play.items() if p) + "."
    explanation = f"{story}. {manual}{sums}.{extra}"
    return RoundResult(preset.name, winner, points, how, parsed, explanation,
                       {name: scores.get(name, 0) for name in parsed})


def _check_play_points(preset: Preset, play_points, hands) -> dict[str, int]:
    if not play_points:
        return {}
    if not preset.in_play_fives:
        if any(play_points.values()):
            raise InvalidRoundError(f"{preset.name} scores nothing during play, but play points were given")
        return {}
    result = {}
    for name, value in play_points.items():
        if name not in hands:
            raise InvalidRoundError(f"play points for {name!r}, who has no hand in this round")
        if not isinstance(value, int) or isinstance(value, bool) or value < 0 or value % 5:
            raise InvalidRoundError(
                f"play points for {name}: {value!r} is not a multiple of five (0, 5, 10, ...)")
        result[name] = value
    return result


def _blocked_winner(preset: Preset, hands, pips) -> tuple[str | None, str]:
    if preset.blocked_winner is BlockedWinner.FEWEST_TILES:
        fewest = min(len(t) for t in hands.values())
        by_tiles = [n for n, t in hands.items() if len(t) == fewest]
        low = min(pips[n] for n in by_tiles)
        best = [n for n in by_tiles if pips[n] == low]
        if len(by_tiles) == 1:
            return best[0], f"Nobody could play (blocked); {best[0]} holds the fewest tiles ({fewest}) and wins"
        if len(best) == 1:
            return best[0], (f"Nobody could play (blocked); {_names(by_tiles)} hold {fewest} tiles each and "
                             f"{best[0]} has the fewest dots ({low}), so wins")
        return None, (f"Nobody could play (blocked); {_names(best)} tie on {fewest} tiles and {low} dots, so "
                      "there is no winner")
    low = min(pips.values())
    best = [n for n, p in pips.items() if p == low]
    if len(best) == 1:
        return best[0], f"Nobody could play (blocked); {best[0]} holds the fewest dots ({low}) and wins"
    return None, f"Nobody could play (blocked); {_names(best)} tie on {low} dots, so there is no winner"


def _end_points(preset, winner, how, hands, pips, tab) -> tuple[int, str]:
    own = pips[winner]
    others = [n for n in hands if n != winner]
    kind = preset.end_scoring
    if kind is EndScoring.DIFFERENCES:
        total = sum(pips[n] - own for n in others)
        return total, f"{winner} scores " + " + ".join(f"({pips[n]}-{own})" for n in others) + f" = {total}"
    if kind is EndScoring.OTHERS_MINUS_OWN:
        total = sum(pips[n] for n in others) - own
        return total, (f"{winner} scores (" + " + ".join(str(pips[n]) for n in others)
                       + f") - {own} = {total}")
    if kind is EndScoring.LOSERS_TOTAL:
        total = sum(pips[n] for n in others)
        return total, f"{winner} scores " + " + ".join(str(pips[n]) for n in others) + f" = {total}"
    if kind is EndScoring.ALL_FIVES:
        if how is Ending.DOMINO:
            parts = [(pips[n], round_to_five(pips[n])) for n in others]
            total = sum(r for _, r in parts)
            return total, (f"{winner} scores " + " + ".join(f"{p}~{r}" for p, r in parts)
                           + f" = {total} (each hand rounded to the nearest five)")
        parts = [(pips[n] - own, round_to_five(pips[n] - own)) for n in others]
        total = sum(r for _, r in parts)
        return total, (f"{winner} scores " + " + ".join(f"({pips[n]}-{own})~{r}" for n, (_, r) in zip(others, parts))
                       + f" = {total} (each difference rounded to the nearest five)")
    if kind is EndScoring.PROTOCOL:
        if how is Ending.DOMINO:
            if tab is not None:
                total = hand_pips(tab)
                return total, f"{winner} scores the {total} dots on the table ({len(tab)} tiles)"
            raise MissingTableError(
                f"{preset.name}: going out scores the dots on the table; give --table (the tiles on the table) "
                "or --boneyard (the draw pile, so the table is the rest of the set)")
        heaviest = max(pips, key=lambda n: pips[n])
        total = pips[heaviest] - own
        return total, f"{winner} scores {pips[heaviest]} ({heaviest}, the heaviest hand) - {own} = {total}"
    raise InvalidRoundError(f"{preset.name} has no end-of-round score")

