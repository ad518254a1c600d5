"""Rule presets: one per game in the five manuals, each naming its manual and its choices.

Entry points: ``find_preset(name)``, ``PRESETS`` (name -> ``Preset``), ``preset_names()``.

A preset is data: how many play, how many tiles each, who starts, how a stuck player draws or passes,
what doubles do, how a round is scored, and the ``choices`` it makes where its manual is silent or cut
short, each beside the manual sentence it rests on (docs/rules.md prints the same table). The behaviour
lives in ``layout``, ``game``, ``scoring`` and ``solo``, which switch on these fields.

Raises ``UnknownPresetError`` (a ``ValueError``) naming the bad name and listing the known ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

MANUALS = {
    "elakai": ("000_619e90587aa65ef7.txt", "Elakai Giant Dominoes manual"),
    "garden": ("001_310496957c34a139.txt", "Garden Games, Rules of Dominoes"),
    "fundex": ("002_f09457fdad8ffc29.txt", "Fundex domino instructions"),
    "protocol": ("003_9d1b2311ebdd6903.txt", "Protocol Double-Six Dominoes manual"),
    "classic": ("004_16361854dff16846.txt", "Classic Dominoes booklet"),
}


class UnknownPresetError(ValueError):
    """A preset name that is not one of ``PRESETS``."""


class Start(Enum):
    """Who sets the first tile."""

    HIGHEST_DOUBLE = "the highest double in hand sets it; redeal when nobody holds a double"
    DOUBLE_SIX = "the holder of the double-six sets it"
    DRAW_ONE = "each player draws one tile; the most dots goes first (ties draw again), then a fresh deal"
    FIRST_SEAT = "the first player named (the youngest) sets the first tile of their row"
    SOLO = "one player"


class Drawing(Enum):
    """What a player who cannot play does."""

    UNTIL_PLAYABLE = "draws until able to play; with the draw pile empty, passes (forfeits the turn)"
    PASS = "passes (no draw pile)"
    ROW_CONTINUE = "turns up the next tile of a face-down row: plays it and turns up another, or sends it to the back and the turn ends"
    ROW_ONCE = "turns up one tile of a face-down row a turn: plays it, or sends it to the back"
    SOLO = "one-player game"


class Spinners(Enum):
    """Which doubles open directions beyond the line of play."""

    NONE = "no spinners: a double has two open ends, like any tile"
    ALL_DOUBLES = "every double is a spinner: its two ends and two sides are all open"
    STAR = "the double-six in the middle is open on four sides, which must all be covered first; other doubles have two ends"


class Doubles(Enum):
    """How doubles lie."""

    CROSSWISE = "crosswise"
    IN_LINE = "in line"
    EITHER = "crosswise or in line, as the player chooses"


class EndScoring(Enum):
    """How the end of a round is scored."""

    DIFFERENCES = "the winner scores the sum of each opponent's count minus the winner's count"
    OTHERS_MINUS_OWN = "the winner scores the opponents' total count minus the winner's own count"
    LOSERS_TOTAL = "the winner scores the total count of the losing players' hands"
    PROTOCOL = "going out scores the dots on the table; a blocked round scores the winner's difference to the heaviest hand"
    ALL_FIVES = "going out scores the other hands' counts, each rounded to the nearest five; plus fives made during play"
    SOLO = "won or lost, no points"


class BlockedWinner(Enum):
    """Who wins a blocked round."""

    LOWEST_PIPS = "the fewest dots left in hand; equal lowest is a tie"
    FEWEST_TILES = "the fewest tiles left; equal tiles go to the fewest dots; equal both is a tie"
    NONE = "cannot block"


@dataclass(frozen=True)
class Choice:
    """How a preset settles something its manual leaves open, beside the sentence it rests on."""

    topic: str
    manual_says: str
    choice: str


@dataclass(frozen=True)
class Preset:
    """One game as one manual describes it. See the module docstring."""

    name: str
    game: str
    manual: str  # key into MANUALS
    players: tuple[int, int]
    hand_sizes: tuple[tuple[int, int], ...]  # (players, tiles each)
    start: Start
    drawing: Drawing
    spinners: Spinners
    doubles: Doubles
    end_scoring: EndScoring
    blocked_winner: BlockedWinner
    target: int | None
    scoring_quote: str
    choices: tuple[Choice, ...] = field(default=())
    in_play_fives: bool = False
    hand_note: str = ""  # for games without a per-player hand size

    @property
    def manual_file(self) -> str:
        return MANUALS[self.manual][0]

    @property
    def manual_title(self) -> str:
        return MANUALS[self.manual][1]

    @property
    def solo(self) -> bool:
        return self.players == (1, 1)

    @property
    def draws(self) -> bool:
        return self.drawing is Drawing.UNTIL_PLAYABLE

    def hand_size(self, players: int) -> int:
        """Tiles dealt to each of ``players``; raises ``ValueError`` outside the preset's range."""
        self.check_players(players)
        for count, size in self.hand_sizes:
            if count == players:
                return size
        return 28 // players  # turnover: dealt out evenly

    def check_players(self, players: int) -> None:
        low, high = self.players
        if not low <= players <= high:
            raise PlayerCountError(
                f"{self.name} is for {low}-{high} players, not {players}" if low != high
                else f"{self.name} is for {low} player{'s' if low > 1 else ''}, not {players}"
            )

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "game": self.game,
            "manual": {"file": self.manual_file, "title": self.manual_title},
            "players": list(self.players),
            "hand_size": self.hand_note or {str(n): s for n, s in self.hand_sizes},
            "who_starts": self.start.value,
            "drawing": self.drawing.value,
            "doubles": self.doubles.value,
            "spinners": self.spinners.value,
            "in_play_scoring": "multiples of five on the open ends" if self.in_play_fives else "none",
            "end_of_round_scoring": self.end_scoring.value,
            "blocked_round": self.blocked_winner.value,
            "blocked_tie": ("no winner; nobody scores end-of-round points" if self.blocked_winner
                            is not BlockedWinner.NONE else "cannot happen"),
            "target": self.target,
            "choices": [{"topic": c.topic, "manual_says": c.manual_says, "choice": c.choice}
                        for c in self.choices],
        }


class PlayerCountError(ValueError):
    """Too few or too many players for a preset."""


_TARGET_TIE = Choice(
    "two players pass the target in the same round",
    "Rounds continue until one player reaches 100 points.",
    "the highest score wins the match; equal highest means another round (as CONTRACTS.md says)",
)

_BLOCK_QUOTE_ELAKAI = ("Scoring is calculated by taking the difference between the winner’s total points in "
                       "hand versus the other opponents score in hand at the end of a round.")
_BLOCK_QUOTE_GARDEN = ("The score is calculated by taking the total of the difference between the winners "
                       "score and the score of all other players.")
_BLOCK_QUOTE_FUNDEX = ("He subtracts the total of his points from the total of each of his opponent's points "
                       "and scores the balance of points from each.")
_CLASSIC_QUOTE = ("Their score is the total number of dots on the other players' remaining dominoes minus "
                  "the number of dots on their own dominoes.")

_FIVE_EACH = ((2, 5), (3, 5), (4, 5))

BLOCK = Preset(
    name="block", game="Block Dominoes (Block and Draw)", manual="elakai", players=(2, 4),
    hand_sizes=_FIVE_EACH, start=Start.HIGHEST_DOUBLE, drawing=Drawing.UNTIL_PLAYABLE,
    spinners=Spinners.ALL_DOUBLES, doubles=Doubles.CROSSWISE, end_scoring=EndScoring.DIFFERENCES,
    blocked_winner=BlockedWinner.LOWEST_PIPS, target=100, scoring_quote=_BLOCK_QUOTE_ELAKAI,
    choices=(
        Choice("which manuals", "Elakai: " + _BLOCK_QUOTE_ELAKAI + " Garden Games: " + _BLOCK_QUOTE_GARDEN
               + " Fundex: " + _BLOCK_QUOTE_FUNDEX,
               "the Elakai, Garden Games and Fundex Block & Draw manuals score alike; one preset serves all three"),
        Choice("is a double a spinner",
               "Garden Games: may play to either end or either side of a double, giving new directions for "
               "the placing of Dominoes. Fundex: Doubles are always placed crosswise to the end they match, "
               "thereby giving two new directions in which to place dominoes.",
               "yes: every double lies crosswise and its two ends and far side are open at once"),
        Choice("blocked round with two lowest hands",
               "If all players are left with dominoes in hand and no plays can be made, then the player with "
               "the least number of points left in their hand wins the round.",
               "no single winner: the round is a tie and nobody scores"),
        Choice("a round blocked while the draw pile has tiles",
               "If all pieces are drawn and a player is still not able to play, then the turn is forfeited",
               "impossible: a stuck player draws, so a round can only block once the pile is empty"),
        _TARGET_TIE,
    ),
)

ALL_FIVES = Preset(
    name="all-fives", game="All Fives (Fundex)", manual="fundex", players=(2, 4),
    hand_sizes=((2, 7), (3, 5), (4, 5)), start=Start.HIGHEST_DOUBLE, drawing=Drawing.UNTIL_PLAYABLE,
    spinners=Spinners.ALL_DOUBLES, doubles=Doubles.CROSSWISE, end_scoring=EndScoring.ALL_FIVES,
    blocked_winner=BlockedWinner.LOWEST_PIPS, target=100, in_play_fives=True,
    scoring_quote=("the player that goes out of dominoes first also gets the points from the dominoes left in "
                   "the other players' hands. Count the total number of spots in each hand and round to the "
                   "nearest five."),
    choices=(
        Choice("rounding the hand count",
               "Count the total number of spots in each hand and round to the nearest five. For example, if "
               "total spots equal seven then round to five points, if total spots equal eight then round to "
               "ten points. If the total spots equal [cut short]",
               "each hand is rounded on its own (\"in each hand\"), then the rounded counts are added; a "
               "remainder of 1-2 rounds down and 3-4 rounds up, so there is never a half-way case"),
        Choice("what a blocked round scores",
               "The first player to get rid of all their dominoes ends the hand. [nothing on a blocked hand]",
               "as the same manual's Block and Draw: the lowest hand wins and scores, from each opponent, "
               "the difference of the two counts rounded to the nearest five; equal lowest is a tie that "
               "scores no end points; points made during play always stand"),
        Choice("is a double a spinner",
               "This variation of Block and Draw Dominoes ... Doubles are always placed crosswise to the end "
               "they match, thereby giving two new directions in which to place dominoes.",
               "yes, as in Block and Draw"),
        Choice("what the open ends count",
               "Double Dominoes are laid crosswise and count as the total value (double three is six points).",
               "the count is the sum of the open ends; a double counts both halves while nothing lies beyond "
               "it (at most one tile touches it), and nothing once played past; the first tile set counts too"),
        Choice("drawing from an empty pile",
               "When a player cannot follow suit, the player draws from the pile of remaining dominoes until "
               "they can make a play.",
               "with the pile empty the player passes, as in the same manual's Block and Draw"),
        Choice("target", "[All Fives names no target] Rounds continue until one player scores 100 points.",
               "100, as the same manual's Block and Draw"),
        _TARGET_TIE,
    ),
)

PROTOCOL = Preset(
    name="protocol", game="Double-Six Dominoes (Protocol)", manual="protocol", players=(2, 4),
    hand_sizes=_FIVE_EACH, start=Start.HIGHEST_DOUBLE, drawing=Drawing.UNTIL_PLAYABLE,
    spinners=Spinners.NONE, doubles=Doubles.CROSSWISE, end_scoring=EndScoring.PROTOCOL,
    blocked_winner=BlockedWinner.FEWEST_TILES, target=100,
    scoring_quote=("If the player wins by using all the dominoes, then their score is the number of dots that "
                   "were played on the table. ... If the player wins by having the least amount of dominoes left, "
                   "then their score is the difference between their number of dots left and the player who "
                   "has the greatest number of dots left."),
    choices=(
        Choice("is a double a spinner",
               "The 3rd player then may match the other end of the double four or the other end of the second "
               "domino. ... Traditionally, double tiles are placed perpendicular to the other tiles on the board.",
               "no: a double lies crosswise but keeps two ends"),
        Choice("the dots on the table",
               "their score is the number of dots that were played on the table",
               "taken from --table when given; otherwise from --boneyard as the 168 dots of the set minus every "
               "hand and the draw pile; with neither, scoring a domino round is an error that says so"),
        Choice("the heaviest hand",
               "their score is the difference between their number of dots left and the player who has the "
               "greatest number of dots left.",
               "the heaviest of all hands, the winner's included: the winner (fewest tiles) may hold the most "
               "dots, and then scores 0"),
        Choice("blocked round with equal tiles and equal dots",
               "In case of a tie, the winner has the lowest amount of dots left.",
               "still equal: a tie, nobody scores"),
        _TARGET_TIE,
    ),
)

CLASSIC = Preset(
    name="classic", game="Classic Dominoes", manual="classic", players=(2, 4),
    hand_sizes=_FIVE_EACH, start=Start.HIGHEST_DOUBLE, drawing=Drawing.UNTIL_PLAYABLE,
    spinners=Spinners.ALL_DOUBLES, doubles=Doubles.CROSSWISE, end_scoring=EndScoring.OTHERS_MINUS_OWN,
    blocked_winner=BlockedWinner.LOWEST_PIPS, target=100, scoring_quote=_CLASSIC_QUOTE,
    choices=(
        Choice("is a double a spinner",
               "If a double is played crosswise, other dominoes can be played off its ends. ... Players match "
               "ends of the dominoes but may play to either end or to either side of a double.",
               "yes: every double lies crosswise with its two ends and far side open"),
        Choice("drawing from an empty pile",
               "they must draw from the draw pile until they can do so.",
               "with the pile empty the player passes"),
        Choice("blocked round with two lowest hands",
               "the player with the fewest number of dots on the dominoes in their hand wins.",
               "a tie: nobody scores"),
        _TARGET_TIE,
    ),
)

STAR = Preset(
    name="star", game="The Star", manual="classic", players=(4, 4), hand_sizes=((4, 7),),
    start=Start.DOUBLE_SIX, drawing=Drawing.PASS, spinners=Spinners.STAR, doubles=Doubles.EITHER,
    end_scoring=EndScoring.LOSERS_TOTAL, blocked_winner=BlockedWinner.LOWEST_PIPS, target=100,
    scoring_quote=("The winning player counts the total number of dots on the dominoes in the losing players' "
                   "hands and this becomes their score."),
    choices=(
        Choice("the star",
               "This initial five-tile formation is called a \"star.\" Only after all four sides have been "
               "covered and the star is completed can players lay other dominoes at the open ends.",
               "the double-six is open on all four sides; until all four are covered, every play goes on it"),
        Choice("doubles elsewhere", "Players may choose to place doubles crosswise or in line.",
               "either way a double away from the middle keeps two ends (no spinners)"),
        Choice("a blocked round",
               "If the player cannot make a move they must pass. [nothing on a blocked game]",
               "the fewest dots wins and scores the losing players' total, as for going out; equal lowest is a "
               "tie, nobody scores"),
        _TARGET_TIE,
    ),
)

BLIND = Preset(
    name="blind", game="Blind Dominoes", manual="classic", players=(2, 4),
    hand_sizes=((2, 14), (3, 9), (4, 7)), start=Start.DRAW_ONE, drawing=Drawing.ROW_ONCE,
    spinners=Spinners.NONE, doubles=Doubles.IN_LINE, end_scoring=EndScoring.OTHERS_MINUS_OWN,
    blocked_winner=BlockedWinner.LOWEST_PIPS, target=100,
    scoring_quote=("The winner is the player who runs out of dominoes first. ... the player with the fewest "
                   "number of dots on their dominoes wins."),
    choices=(
        Choice("scoring", "[Blind Dominoes gives no score]",
               "the booklet's Classic scoring: " + _CLASSIC_QUOTE + " Played to 100 like the booklet's other games"),
        Choice("turns", "They then turn over the next domino in line to see if they can use it ... If not, that "
               "domino gets moved to the back of the line ... Play continues clockwise.",
               "one tile turned up per turn; the first player sets their first tile and then turns up one more"),
        Choice("is a double a spinner", "build off either of the two ends on the first domino",
               "no: two open ends throughout; a 3-player deal leaves one tile out of play"),
        Choice("face-up doubles", "If it's a double that's returned to the end of the line it must remain "
               "face up.", "kept as a table rule only: it shows the others what a player holds, and the "
               "engine's simple players use no hidden information, so play is the same"),
        Choice("tie in the draw for first", "The player with the highest number of dots goes first.",
               "the tied players draw again"),
        Choice("blocked round with two lowest hands", "the player with the fewest number of dots ... wins.",
               "a tie: nobody scores"),
        _TARGET_TIE,
    ),
)

LUCKY_DRAW = Preset(
    name="lucky-draw", game="Lucky Draw", manual="classic", players=(3, 4),
    hand_sizes=((3, 9), (4, 7)), start=Start.DOUBLE_SIX, drawing=Drawing.PASS,
    spinners=Spinners.ALL_DOUBLES, doubles=Doubles.CROSSWISE, end_scoring=EndScoring.OTHERS_MINUS_OWN,
    blocked_winner=BlockedWinner.LOWEST_PIPS, target=100,
    scoring_quote=("They then count the total number of dots on the other players' remaining dominoes for "
                   "their points for that game. ... Their score is the total number of dots on the other "
                   "players' remaining dominoes minus the number of dots on their own dominoes."),
    choices=(
        Choice("3 players", "whoever draws the double-six domino must draw the 28th domino, giving them a "
               "10-domino hand",
               "dealt so: the double-six holder gets the 28th tile; when the 28th tile is the double-six "
               "itself, nobody drew it, and the tiles are dealt again"),
        Choice("is a double a spinner", "All doubles can be played off all four edges.",
               "yes: every double is open on its two ends and both sides"),
        Choice("blocked round with two lowest hands", "the player with the fewest dots on their dominoes wins.",
               "a tie: nobody scores"),
        _TARGET_TIE,
    ),
)

TURNOVER = Preset(
    name="turnover", game="Turn-over dominoes (Fundex)", manual="fundex", players=(2, 14), hand_sizes=(),
    hand_note="28 // players each, in a face-down row; the rest set aside",
    start=Start.FIRST_SEAT, drawing=Drawing.ROW_CONTINUE, spinners=Spinners.NONE, doubles=Doubles.IN_LINE,
    end_scoring=EndScoring.DIFFERENCES, blocked_winner=BlockedWinner.LOWEST_PIPS, target=100,
    scoring_quote="The first player to get rid of all their dominoes wins.",
    choices=(
        Choice("sharing out", "each player draws one domino until all the dominoes are evenly distributed.",
               "each player gets 28 // players tiles; any left over are set aside unseen"),
        Choice("who starts", "The youngest player starts by placing the first domino from their row face up "
               "on the table. Players then continue by turning over the first domino from their row face up.",
               "the first player named is the youngest; after setting the first tile they go on turning up "
               "their row like any turn (play and turn up another, or send it to the back and stop)"),
        Choice("scoring", "The first player to get rid of all their dominoes wins. [no score given]",
               "the same manual's Block and Draw scoring (" + _BLOCK_QUOTE_FUNDEX + ") to 100"),
        Choice("a blocked round", "[not mentioned]",
               "when no tile left in any row fits an open end, the fewest dots wins, as in Block and Draw; "
               "equal lowest is a tie"),
        Choice("doubles", "If that domino matches suit of the ends", "no spinners: two open ends throughout"),
        _TARGET_TIE,
    ),
)


def _solo(name: str, game: str, manual: str, quote: str, choices: tuple[Choice, ...], hand: str) -> Preset:
    return Preset(name=name, game=game, manual=manual, players=(1, 1), hand_sizes=(), hand_note=hand,
                  start=Start.SOLO, drawing=Drawing.SOLO, spinners=Spinners.NONE, doubles=Doubles.IN_LINE,
                  end_scoring=EndScoring.SOLO, blocked_winner=BlockedWinner.NONE, target=None,
                  scoring_quote=quote, choices=choices)


SOLITAIRE = _solo(
    "solitaire", "Solitaire Dominoes", "classic",
    "The goal is to go through all 28 dominoes until none remain in play.",
    (Choice("when a removal may be made",
            "Continue removing dominoes that are in between two dominoes containing a common [page break] number.",
            "any three neighbours in the row may be checked at any time, not only the newest three"),
     Choice("three sharing a number",
            "If you wind up with three dominoes in a row with common numbers, you can either remove all three "
            "or just the center domino.",
            "all three share one number (for example 6-1, 6-3, 6-6)"),
     Choice("won", "The goal is to go through all 28 dominoes until none remain in play.",
            "won when all 28 have been laid and the row is empty")),
    "none: the 28 tiles are laid one by one in a row",
)

DRAW_SOLITAIRE = _solo(
    "draw-solitaire", "One-player draw game (Fundex)", "fundex",
    "Object: Play all of the dominoes from your hand.",
    (Choice("won", "Object: Play all of the dominoes from your hand.",
            "won when all 28 tiles are in the line; lost when stuck with the draw pile empty"),
     Choice("empty hand", "you must draw an extra domino from those still face down",
            "an empty hand draws too, while the pile lasts"),
     Choice("doubles", "Continue to play to either end.", "a single line with two ends; no spinners")),
    "5 face up, then drawn as needed",
)

KNOCK_OUT = _solo(
    "knock-out", "Knock Out (Fundex)", "fundex",
    "Object: \u201cKnock Out\u201d all the dominoes.",
    (Choice("what is knocked out",
            "If there are any dominoes whose ends match where they touch, you may 'knock' them out of line "
            "and close up the gap.",
            "both touching dominoes leave the line, and their neighbours then touch"),
     Choice("won", "Carry on doing this as long as you can.", "won when the line is empty")),
    "none: all 28 tiles in one line, face up",
)

PRESETS: dict[str, Preset] = {p.name: p for p in (
    BLOCK, ALL_FIVES, PROTOCOL, CLASSIC, STAR, BLIND, LUCKY_DRAW, TURNOVER,
    SOLITAIRE, DRAW_SOLITAIRE, KNOCK_OUT)}


def preset_names() -> tuple[str, ...]:
    return tuple(PRESETS)


def find_preset(name: str) -> Preset:
    """The preset called ``name``; raises ``UnknownPresetError`` listing the known names."""
    try:
        return PRESETS[name.strip().lower()] if isinstance(name, str) else PRESETS[name]
    except (KeyError, TypeError):
        raise UnknownPresetError(
            f"unknown rules preset: {name!r} (known: {', '.join(PRESETS)})") from None


def choices_markdown() -> str:
    """The presets and their choices as Markdown (the generated part of docs/rules.md)."""
    lines = []
    for preset in PRESETS.values():
        info = preset.to_json()
        low, high = preset.players
        lines += [f"### `{preset.name}`: {preset.game}", "",
                  f"Manual: {preset.manual_title} (`{preset.manual_file}`). "
                  f"Players: {low if low == high else f'{low}-{high}'}. Target: {preset.target or 'none'}.", "",
                  f"- Who starts: {info['who_starts']}.",
                  f"- Stuck player: {info['drawing']}.",
                  f"- Doubles: {info['doubles']}; {info['spinners']}.",
                  f"- Scoring: {info['end_of_round_scoring']}; in play: {info['in_play_scoring']}.",
                  f"- Blocked round: {info['blocked_round']}.", "",
                  "| open question | the manual says | the preset's choice |", "|---|---|---|"]
        for c in preset.choices:
            lines.append(f"| {c.topic} | {c.manual_says.replace('|', '/')} | {c.choice.replace('|', '/')} |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":  # regenerate the presets part of docs/rules.md
    print(choices_markdown())
