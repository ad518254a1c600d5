"""Check a line of play from a photo: every junction, a verdict, and a picture of it.

Entry points:
- ``verify_photo(source, *, profile, name=None, config=..., annotate_to=None) -> dict``: the exact
  ``companion verify --json`` object ``{"file", "tiles", "junctions", "legal", "warnings"}``, or
  ``{"file", "error"}`` when the photo cannot be read. The CLI and the web API both call it.
- ``verify_image(image_bgr, *, profile, file, config) -> dict``: the same for a photo already loaded.
- ``verify_scan(scan, *, config=JunctionConfig()) -> dict``: the same from a ``companion scan`` object
  (the tiles already read), so the check can run on any reading, constructed ones included.
- ``annotate(image_bgr, verdict, *, config=JunctionConfig()) -> np.ndarray``: the photo with each
  tile's outline and reading, and each junction marked green (halves match) or red (they do not);
  ``with_notes(picture, verdict)`` adds a band below it with the warnings (the ``--annotate`` file).
- ``settled_by_line(tiles, settle_below, config) -> (tiles, notes)``: a tile read with doubt on a
  mismatched junction takes its next reading (or the double a pip off, where it lies crosswise, or its
  ends the other way round) where that makes its junctions match (``verify_image`` does this before the
  check; a note names each such tile).
- ``headline(verdict) -> (text, kind)``: the verdict in one line for people, which says "legal" only
  when every tile was checked (the JSON's ``legal`` is true whenever no junction mismatches).

The verdict: ``legal`` is true when every junction matches. A mismatch may be a wrong play or a misread
tile; a warning names every tile in doubt (read with low confidence, read as a tile already seen in the
photo, overlapping another tile, sitting on two or more mismatched junctions, or meeting it only loosely)
that sits on a mismatched junction, e.g. ``tile 3
(5-2) is in doubt (read with confidence 0.41); junction 2-3 may be misread``. Tiles that touch nothing are named too, since a missed junction goes unchecked, and so are
two tiles that lie against each other where the line of play (a tree) cannot join them, and two free
ends that face each other with room for a tile between them (a double laid crosswise that the reader
missed). The scan's own warnings (tiles cut off by the border) come first.

Conventions: ``image_bgr`` is OpenCV's BGR uint8; points are xy pixels of the photo as a person sees it.
Text for people (warnings, junction lines, the picture) numbers tiles from 1, as the scan's warnings and
pictures do: "tile 3" is ``tiles[2]`` and "junction 2-3" is ``{"tiles": [1, 2]}`` in the JSON.

This module does not judge whether a play was allowed by a rule preset (``companion.rules.disputes``
does). It writes a file only when asked to (``annotate_to``, the CLI's ``--annotate DIR``).

Raises ``VerdictError`` (a ``ValueError``) for a scan object without well-formed tiles, and ``OSError``
when the annotated picture cannot be written. A photo that cannot be read is not raised: it becomes the
``{"file", "error"}`` object, as in ``companion scan``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from companion.photo import PhotoError, load_photo  # sets OPENCV_IO_MAX_IMAGE_PIXELS before cv2

import cv2  # noqa: E402

from companion.scanner import reading_to_dict, wrap_text  # noqa: E402
from companion.vision import Reading, TileReading, hard_to_read, read_tiles  # noqa: E402
from companion.vision.junctions import (  # noqa: E402
    Hole,
    Junction,
    JunctionConfig,
    JunctionKind,
    find_holes,
    halves_played,
    in_doubt,
    line_of_play,
)
from companion.vision.profile import Profile  # noqa: E402

OK_BGR = (60, 190, 40)
BAD_BGR = (40, 40, 230)
DOUBT_BGR = (0, 200, 255)  # orange: a tile in doubt, or a verdict that needs a look
SURE_BGR = (255, 200, 0)  # blue: a tile read surely
LOOSE_BGR = (170, 170, 170)  # grey: a tile that touches no other, not checked


class VerdictError(ValueError):
    """A scan or verify object that lacks the fields a verdict needs."""


@dataclass(frozen=True)
class ReadTile:
    """One tile of a scan object: what ``line_of_play`` needs, plus the reading's confidence."""

    pips: tuple[int, int]
    corners: np.ndarray
    confidence: float


def verify_photo(
    source: str | Path | bytes, *, profile: Profile | None = None, name: str | None = None,
    config: JunctionConfig = JunctionConfig(), annotate_to: str | Path | None = None,
) -> dict:
    """Read the tiles in a photo and check every junction (see the module docstring for the object).

    ``annotate_to``: a folder to write ``annotate``'s picture into, as ``<stem>.verify.png``.
    """
    file = name if name is not None else ("upload" if isinstance(source, (bytes, bytearray)) else str(source))
    try:
        image = load_photo(source)
    except PhotoError as exc:
        return {"file": file, "error": str(exc)}
    verdict = verify_image(image, profile=profile, file=file, config=config)
    if annotate_to is not None:
        out_dir = Path(annotate_to)
        out_dir.mkdir(parents=True, exist_ok=True)
        target = out_dir / f"{Path(file).stem or 'photo'}.verify.png"
        if not cv2.imwrite(str(target), with_notes(annotate(image, verdict, config=config), verdict)):
            raise OSError(f"could not write the annotated picture {str(target)!r}")
    return verdict


def verify_image(image_bgr: np.ndarray, *, profile: Profile | None = None, file: str = "photo",
                 config: JunctionConfig = JunctionConfig()) -> dict:
    """``verify_photo`` for a photo already loaded (BGR uint8, as ``companion.photo.load_photo`` gives)."""
    profile = profile or Profile()
    reading = read_tiles(image_bgr, profile)
    tiles, notes = settled_by_line(reading.tiles, profile.settle_below, config, max_pips=profile.max_pips)
    # a settled tile's note says what the scan's warning said of its first reading, and more
    stale = {hard_to_read(k, old.pips) for k, (old, new) in enumerate(zip(reading.tiles, tiles)) if old is not new}
    warnings = [w for w in reading.warnings if w not in stale] + notes
    scan = reading_to_dict(Reading(tiles, warnings), file=file, width=image_bgr.shape[1], height=image_bgr.shape[0])
    return verify_scan(scan, config=config)


def settled_by_line(tiles: list[TileReading], settle_below: float, config: JunctionConfig = JunctionConfig(),
                    *, max_pips: int = 6) -> tuple[list[TileReading], list[str]]:
    """A line of play is laid half to matching half: a tile read with doubt (less sure than
    ``settle_below``, and where its only mismatched junction is one, than ``config.settle_alone``: a wrong
    play breaks one junction too) on a mismatched junction takes its next reading (a doubtful pip counted or not); if
    another tile's end lies against the middle of its side, a double a pip off (only a double is laid so);
    or failing those its reading with the ends the other way round (the reader may take one end for the
    other); or, where two or more of its junctions mismatch (or one, for a tile less sure than
    ``config.settle_shown``, read as a tile another one holds, or with a half above ``max_pips``, the set's
    most), what the tiles against it show: the first where
    that makes its junctions match, the same tiles still meet, and no other tile holds it; the least sure
    tile first. Each such tile is named in a note, with what it was read as, so
    that a person checks it."""
    tiles = list(tiles)
    junctions, _ = line_of_play(tiles, config)
    notes = []
    mismatches = Counter(index for junction in junctions if not junction.ok for index in junction.tiles)
    for index in sorted(mismatches, key=lambda k: tiles[k].confidence):
        tile = tiles[index]
        if tile.confidence >= (settle_below if mismatches[index] > 1 else min(settle_below, config.settle_alone)):
            continue
        held = {tuple(sorted(t.pips)) for k, t in enumerate(tiles) if k != index}
        a, b = tile.pips
        turned = (b, a)
        # only a double is laid crosswise: a tile with an end against the middle of its side, read a pip off one
        crosswise = abs(a - b) == 1 and any(j.kind is JunctionKind.CROSSWISE and not j.by_end[j.tiles.index(index)]
                                            for j in junctions if index in j.tiles)
        doubles = [(a, a), (b, b)] if crosswise else []
        # a reading that another tile holds too (a set holds each tile once), or that no tile of the set shows,
        # tells less than the neighbour
        known_wrong = tuple(sorted(tile.pips)) in held or max(tile.pips) > max_pips
        shown = _shown_by_partners(index, tile.pips, junctions, tile.confidence < config.settle_shown or known_wrong)
        for pips in [p for p, _ in tile.others] + doubles + ([turned] if a != b else []) + shown:
            if tuple(sorted(pips)) in held:
                continue
            trial = tiles[:index] + [replace(tile, pips=pips, others=())] + tiles[index + 1:]
            again, _ = line_of_play(trial, config)
            if [j.tiles for j in again] != [j.tiles for j in junctions] or \
                    not all(j.ok for j in again if index in j.tiles):
                continue
            how = ("with its ends the other way round" if pips == turned else
                   f"as the double {_pair(pips)} (only a double is laid crosswise)" if pips in doubles else
                   f"as {_pair(pips)}, what the tiles against it show," if pips in shown else
                   f"as {_pair(pips)}, its next reading,")
            notes.append(f"tile {index + 1} is hard to read: it looks most like {_pair(tile.pips)} (confidence "
                         f"{tile.confidence:.2f}), but {how} every junction of it matches, so it is taken as "
                         f"{_pair(pips)}: check it")
            tiles, junctions = trial, again
            break
    return tiles, notes


def _shown_by_partners(index: int, pips: tuple[int, int], junctions, alone: bool = False) -> list[tuple[int, int]]:
    """The reading that the tiles against tile ``index`` give it (each touching half the value that meets
    it), where two or more of its junctions mismatch (one wrong play breaks only the junction where it was
    laid, while a misread tile breaks all of its own), or one if ``alone`` (a tile read with so little
    confidence that its reading tells less than its neighbour). None where they disagree."""
    own = [j for j in junctions if index in j.tiles]
    if sum(not j.ok for j in own) < (1 if alone else 2):
        return []
    # with another tile's end against the middle of its side: a double laid crosswise (a tile read as a double
    # but laid end to end, or met by its side away from the middle where the line turns a corner, takes what
    # the tiles against its halves show)
    double = any(j.kind is JunctionKind.CROSSWISE and not j.by_end[j.tiles.index(index)] for j in own)
    halves: dict[int, set[int]] = {}
    for j in own:
        me = j.tiles.index(index)
        halves.setdefault(0 if double else j.halves[me], set()).add(j.pips[1 - me])
    if any(len(values) > 1 for values in halves.values()):
        return []
    shown = {half: values.pop() for half, values in halves.items()}
    if double:
        return [(shown[0], shown[0])]
    return [(shown.get(0, pips[0]), shown.get(1, pips[1]))]


def verify_scan(scan: dict, *, config: JunctionConfig = JunctionConfig()) -> dict:
    """Turn a ``companion scan`` object into a ``companion verify`` object."""
    tiles = read_tiles_of(scan)
    junctions, strays = line_of_play(tiles, config)
    warnings = [str(w) for w in scan.get("warnings", [])]
    warnings += layout_warnings(tiles, junctions, config)
    warnings += [_stray_warning(stray, junctions, tiles) for stray in strays]
    return {
        "file": scan.get("file"),
        "tiles": scan["tiles"],
        "junctions": [junction.to_dict() for junction in junctions],
        "legal": all(junction.ok for junction in junctions),
        "warnings": warnings,
    }


def _stray_warning(stray: Junction, junctions: tuple[Junction, ...], tiles: list[ReadTile]) -> str:
    """Why two tiles that lie against each other were taken as not joined: a half of one is joined to another
    tile already (an open end is played on once), or joining them would close a loop."""
    (i, j), (a, b) = stray.tiles, stray.pips
    doubles = {k for k, tile in enumerate(tiles) if tile.pips[0] == tile.pips[1]}
    for junction in junctions:
        shared = sorted(halves_played(stray, doubles) & halves_played(junction, doubles))
        if shared:
            index, half = shared[0]
            other = junction.tiles[1 - junction.tiles.index(index)]
            return (f"tiles {i + 1} and {j + 1} lie against each other ({a} to {b}) but the {tiles[index].pips[half]} "
                    f"half of tile {index + 1} is joined to tile {other + 1} already, and an open end is played on "
                    "once: taken as not joined, not checked")
    return (f"tiles {i + 1} and {j + 1} lie against each other ({a} to {b}) but a line of play has no loops: "
            "taken as not joined, not checked")


def read_tiles_of(verdict: dict) -> list[ReadTile]:
    """The tiles of a scan or verify object as ``ReadTile`` values."""
    if not isinstance(verdict, dict) or not isinstance(verdict.get("tiles"), list):
        raise VerdictError(f"not a scan object (no 'tiles' list): {str(verdict)[:80]!r}")
    tiles = []
    for index, tile in enumerate(verdict["tiles"]):
        try:
            a, b = (int(v) for v in tile["pips"])
            corners = np.asarray(tile["corners"], dtype=np.float64).reshape(4, 2)
            confidence = float(tile.get("confidence", 1.0))
        except (KeyError, TypeError, ValueError) as exc:
            raise VerdictError(f"tile {index} of the scan is malformed: {tile!r}") from exc
        tiles.append(ReadTile((a, b), corners, confidence))
    return tiles


def layout_warnings(tiles: list[ReadTile], junctions: tuple[Junction, ...], config: JunctionConfig) -> list[str]:
    """Warnings about tiles in doubt on mismatched junctions, and tiles that the check did not reach.

    A tile on a mismatched junction is in doubt when it was read with low confidence, when it was read
    as the same tile as another one (a set holds each tile once), when its outline overlaps another's
    (tiles never lie on top of each other: a "tile" found across the seam of two touching tiles does),
    when it sits on two or more mismatched junctions (one wrong play breaks only the junction where it
    was laid, while a misread tile breaks all of its own), when read the other way round every
    junction of it would match (its ends may have been read the wrong way round), when it lies
    crosswise under another tile's end but was read as no double (only a double is laid so: it is
    misread, or the two only lie against each other), or when its outline is far smaller than a tile it
    touches (touching tiles lie at one depth: the outline may cover only part of the tile).
    """
    warnings = []
    why = _doubts(tiles, junctions, config)
    doubtful = _doubtful_on_mismatches(junctions, why)
    for index in sorted(doubtful):
        places = ", ".join(doubtful[index])
        warnings.append(
            f"tile {index + 1} ({_name(tiles[index])}) is in doubt ({why[index]}); "
            f"junction{'s' if len(doubtful[index]) > 1 else ''} {places} may be misread"
        )
    if len(tiles) > 1:
        touching = {index for junction in junctions for index in junction.tiles}
        loose = [f"{index + 1} ({_name(tile)})" for index, tile in enumerate(tiles) if index not in touching]
        if len(loose) == 1:
            warnings.append(f"tile {loose[0]} touches no other tile; it was not checked")
        elif loose:
            warnings.append(f"tiles {', '.join(loose)} touch no other tile; they were not checked")
        groups = _groups(junctions)
        if len(groups) > 1:
            listed = "; ".join(", ".join(str(i + 1) for i in sorted(group)) for group in groups)
            warnings.append(f"the tiles form {len(groups)} separate lines ({listed}); a line of play is one, "
                            "so a junction between them was probably missed and not checked")
    for hole in find_holes(tiles, junctions, config):
        (i, j), (a, b) = hole.tiles, hole.pips
        what = "a double laid crosswise" if hole.length == 1 else "a tile"
        text = (f"tiles {i + 1} ({_name(tiles[i])}) and {j + 1} ({_name(tiles[j])}) face each other in line with "
                f"room for {what} between them: a tile there was probably not found, and its junctions were "
                "not checked")
        if hole.length == 1 and a != b:
            text += f"; their ends show {a} and {b}, and no double matches both"
        warnings.append(text)
    return warnings


def _doubtful_on_mismatches(junctions: tuple[Junction, ...], why: dict[int, str]) -> dict[int, list[str]]:
    """The tiles in doubt that sit on a mismatched junction: index -> those junctions ("2-3", numbered from 1)."""
    doubtful: dict[int, list[str]] = {}
    for junction in junctions:
        if not junction.ok:
            for index in junction.tiles:
                if index in why:
                    doubtful.setdefault(index, []).append("-".join(str(i + 1) for i in junction.tiles))
    return doubtful


def _doubts(tiles: list[ReadTile], junctions: tuple[Junction, ...], config: JunctionConfig) -> dict[int, str]:
    """Why each tile's reading is in doubt, for the tiles that are (index -> reason)."""
    why: dict[int, str] = {}
    at: dict[int, list[tuple[Junction, int]]] = {}
    for junction in junctions:
        for side, index in enumerate(junction.tiles):
            at.setdefault(index, []).append((junction, side))
    for index, meeting in at.items():
        bad = [junction for junction, _ in meeting if not junction.ok]
        a, b = tiles[index].pips
        if bad and len(bad) == len(meeting) and all(_matches_turned(tiles, j, side) for j, side in meeting):
            # Reading a tile's ends the wrong way round is a known misread; a tile laid the wrong way round
            # is a wrong play. The photo tells them apart, so the warning asks the player to look.
            why[index] = f"read as {a}-{b}, yet as {b}-{a} every junction of it would match"
        elif len(bad) >= 2:
            why[index] = f"it sits on {len(bad)} mismatched junctions; one wrong play breaks only one"
        for junction, side in meeting:
            if junction.loose and not junction.ok:
                why[index] = (f"it lies against tile {junction.tiles[1 - side] + 1} only loosely, askew or apart: "
                              "the two may not be joined, or an outline is misplaced")
        for junction, side in meeting:
            other = junction.tiles[1 - side]
            if junction.kind is JunctionKind.CROSSWISE and not junction.by_end[side] and a != b:
                # only a double is laid crosswise: it is misread, or the two lie against each other unjoined
                why[index] = (f"read as {a}-{b}, yet tile {other + 1}'s end lies against the middle of its side, "
                              "where only a double is laid; or the two are not joined")
    for index, (other, ratio) in _small_outlines(tiles, junctions, config).items():
        why[index] = (f"its outline is {ratio:.0%} the size of tile {other + 1}'s, which it touches: "
                      "it may cover only part of the tile")
    for index, other in _overlaps(tiles, config).items():
        why[index] = f"its outline overlaps tile {other + 1}'s, so one of them is misplaced"
    for index, other in _duplicates(tiles).items():
        why[index] = f"read as {_name(tiles[index])} like tile {other + 1}"
    for index, tile in enumerate(tiles):
        if in_doubt(tile.confidence, config):
            why[index] = f"read with confidence {tile.confidence:.2f}"
    return why


def _small_outlines(tiles: list[ReadTile], junctions: tuple[Junction, ...],
                    config: JunctionConfig) -> dict[int, tuple[int, float]]:
    """Tiles whose outline's size (the root of its area) is below ``config.small_outline`` of a tile they
    touch: index -> (that tile, the ratio), the smallest ratio kept."""
    sizes = [float(np.sqrt(abs(cv2.contourArea(tile.corners.astype(np.float32))))) for tile in tiles]
    found: dict[int, tuple[int, float]] = {}
    for junction in junctions:
        for side, index in enumerate(junction.tiles):
            other = junction.tiles[1 - side]
            ratio = sizes[index] / sizes[other] if sizes[other] > 0 else 1.0
            if ratio < config.small_outline and ratio < found.get(index, (other, 1.0))[1]:
                found[index] = (other, ratio)
    return found


def _overlaps(tiles: list[ReadTile], config: JunctionConfig) -> dict[int, int]:
    """Tiles whose outlines overlap another's by more than ``config.max_overlap``: index -> the other."""
    quads = [tile.corners.astype(np.float32) for tile in tiles]
    areas = [abs(cv2.contourArea(quad)) for quad in quads]
    found: dict[int, int] = {}
    for i in range(len(quads)):
        for j in range(i + 1, len(quads)):
            if min(areas[i], areas[j]) <= 0:
                continue
            if not cv2.isContourConvex(quads[i]) or not cv2.isContourConvex(quads[j]):
                continue
            shared, _ = cv2.intersectConvexConvex(quads[i], quads[j])
            if shared > config.max_overlap * min(areas[i], areas[j]):
                found.setdefault(i, j)
                found.setdefault(j, i)
    return found


def _matches_turned(tiles: list[ReadTile], junction: Junction, side: int) -> bool:
    """Whether ``junction`` would match if tile ``junction.tiles[side]`` had its halves the other way."""
    index = junction.tiles[side]
    if junction.kind is JunctionKind.CROSSWISE and not junction.by_end[side]:
        return False  # a crosswise tile touches with both halves: turning it changes nothing
    turned = tiles[index].pips[1 - junction.halves[side]]
    return turned == junction.pips[1 - side]


def _groups(junctions: tuple[Junction, ...]) -> list[set[int]]:
    """The connected groups of tiles joined by junctions, largest first (loose tiles not included)."""
    groups: list[set[int]] = []
    for junction in junctions:
        touching = [g for g in groups if g & set(junction.tiles)]
        merged = set(junction.tiles).union(*touching)
        groups = [g for g in groups if g not in touching] + [merged]
    return sorted(groups, key=lambda g: (-len(g), min(g)))


def describe_junction(verdict: dict, k: int) -> str:
    """One line for people about ``verdict["junctions"][k]``, tiles numbered from 1."""
    junction = verdict["junctions"][k]
    i, j = junction["tiles"]
    a, b = junction["pips"]
    tiles = verdict["tiles"]
    names = f"tile {i + 1} ({_pair(tiles[i]['pips'])}) and tile {j + 1} ({_pair(tiles[j]['pips'])})"
    return f"junction {i + 1}-{j + 1}: {names} meet {a} to {b}: {'matches' if junction['ok'] else 'DOES NOT MATCH'}"


def annotate(image_bgr: np.ndarray, verdict: dict, *, config: JunctionConfig = JunctionConfig()) -> np.ndarray:
    """A copy of the photo with each tile's outline and reading, and a green or red mark on each junction.

    Each tile shows ``#n a|b`` (its number, then ``pips[0]|pips[1]``) with a white bar across its
    ``pips[0]`` end, so which half was read as what can be checked against the pips. Outlines are blue
    for a sure reading, orange for a tile in doubt (low confidence, or named in doubt on a mismatch) and
    grey for a tile that touches no other (not checked). A mismatched junction is a red dot with a cross
    and the two touching values beside it; an orange ``?`` marks room for a tile that was not found. The headline is the verdict: green only when every tile
    is on one line and every junction matches; amber when nothing mismatches but some tiles were not
    checked, or when every mismatch may be a misread; red otherwise.
    """
    if not isinstance(image_bgr, np.ndarray) or image_bgr.ndim != 3 or image_bgr.shape[2] != 3:
        raise VerdictError(f"annotate needs a BGR image (H x W x 3), got {getattr(image_bgr, 'shape', image_bgr)!r}")
    out = image_bgr.copy()
    tiles = read_tiles_of(verdict)
    junctions, strays = line_of_play(tiles, config)
    doubtful = _doubtful_on_mismatches(junctions, _doubts(tiles, junctions, config))
    touching = {index for junction in junctions for index in junction.tiles}
    loose = [index for index in range(len(tiles)) if index not in touching] if len(tiles) > 1 else []
    scale = max(out.shape[:2]) / 1000.0
    thick = max(1, round(2 * scale))
    font = cv2.FONT_HERSHEY_SIMPLEX
    for index, tile in enumerate(tiles):
        outline = np.round(tile.corners).astype(np.int32)
        if index in doubtful or in_doubt(tile.confidence, config):
            colour = DOUBT_BGR
        elif index in loose:
            colour = LOOSE_BGR
        else:
            colour = SURE_BGR
        cv2.polylines(out, [outline], True, (0, 0, 0), thick + 2, cv2.LINE_AA)
        cv2.polylines(out, [outline], True, colour, thick, cv2.LINE_AA)
        cv2.line(out, tuple(outline[0]), tuple(outline[1]), (255, 255, 255), thick + 1, cv2.LINE_AA)
        width = _tile_width(tile)
        text = f"#{index + 1} {tile.pips[0]}|{tile.pips[1]}"
        _label(out, text, tile.corners.mean(axis=0), _fitted(text, 0.9 * width, font, 0.6 * scale, thick),
               thick, font, colour=colour)
    for hole in find_holes(tiles, junctions, config):
        width = min(_tile_width(tiles[i]) for i in hole.tiles)
        point = np.array(hole.point)
        _label(out, "?", point, _fitted("?", 0.4 * width, font, 1.2 * scale, thick), thick, font, colour=DOUBT_BGR)
    for stray in strays:
        point = tuple(int(round(v)) for v in stray.point)
        cv2.circle(out, point, max(3, int(0.1 * _tile_width(tiles[stray.tiles[0]]))), (160, 160, 160), -1, cv2.LINE_AA)
    for junction in junctions:
        i, j = junction.tiles
        width = min(_tile_width(tiles[i]), _tile_width(tiles[j]))
        radius = max(4, int(round(0.18 * width)))
        point = tuple(int(round(v)) for v in junction.point)
        colour = OK_BGR if junction.ok else BAD_BGR
        cv2.circle(out, point, radius + thick, (255, 255, 255), -1, cv2.LINE_AA)
        cv2.circle(out, point, radius, colour, -1, cv2.LINE_AA)
        if not junction.ok:
            d = int(radius * 0.6)
            cv2.line(out, (point[0] - d, point[1] - d), (point[0] + d, point[1] + d), (255, 255, 255), thick)
            cv2.line(out, (point[0] - d, point[1] + d), (point[0] + d, point[1] - d), (255, 255, 255), thick)
            text = f"{junction.pips[0]} vs {junction.pips[1]}"
            larger = max(_tile_width(tiles[i]), _tile_width(tiles[j]))  # a misfound sliver must not shrink it
            size = _fitted(text, 1.2 * larger, font, 0.6 * scale, thick)
            (w, h), _ = cv2.getTextSize(text, font, max(size, 0.4), thick)
            _label(out, text, np.array([point[0] + radius + 6.0, point[1] + h / 2]), size, thick, font,
                   centred=False, colour=BAD_BGR)
    text, kind = _headline(len(tiles), junctions, doubtful, loose, find_holes(tiles, junctions, config),
                           _unsure(tiles, junctions, config))
    colour = {"legal": OK_BGR, "illegal": BAD_BGR}.get(kind, DOUBT_BGR)
    size = _fitted(text, out.shape[1] - 30, font, 0.9 * scale, thick)
    (_, h), _ = cv2.getTextSize(text, font, max(size, 0.4), thick)
    _label(out, text, np.array([10.0, h + 10.0]), size, thick, font, centred=False, colour=colour)
    return out


def headline(verdict: dict, *, config: JunctionConfig = JunctionConfig()) -> tuple[str, str]:
    """The verdict in one line for people, and its kind: ``"legal"`` (every tile on one line, every
    junction matches), ``"unchecked"`` (nothing mismatches, but some tiles touch nothing, the tiles
    form separate lines, or a double was missed between ends no double can join), ``"doubt"`` (every mismatch has a tile in doubt on it: check those tiles
    before calling it a wrong play; or nothing mismatches, but a tile on a junction was hard to read),
    ``"illegal"`` or ``"none"`` (no junction found)."""
    tiles = read_tiles_of(verdict)
    junctions, _ = line_of_play(tiles, config)
    doubtful = _doubtful_on_mismatches(junctions, _doubts(tiles, junctions, config))
    touching = {index for junction in junctions for index in junction.tiles}
    loose = [index for index in range(len(tiles)) if index not in touching] if len(tiles) > 1 else []
    return _headline(len(tiles), junctions, doubtful, loose, find_holes(tiles, junctions, config),
                     _unsure(tiles, junctions, config))


def _unsure(tiles: list[ReadTile], junctions: tuple[Junction, ...], config: JunctionConfig) -> list[int]:
    """The tiles on a junction that were read with doubt: a verdict rests on their readings."""
    return sorted({index for junction in junctions for index in junction.tiles
                   if in_doubt(tiles[index].confidence, config)})


def _headline(count: int, junctions: tuple[Junction, ...], doubtful: dict[int, list[str]],
              loose: list[int], holes: tuple[Hole, ...] = (), unsure: list[int] = ()) -> tuple[str, str]:
    mismatched = [junction for junction in junctions if not junction.ok]
    if not junctions:
        return f"NO JUNCTIONS FOUND among {_count(count, 'tile')}", "none"
    checked = _count(len(junctions), "junction")
    if not mismatched:
        for hole in holes:
            if hole.length == 1 and hole.pips[0] != hole.pips[1]:
                (i, j), (a, b) = hole.tiles, hole.pips
                return (f"NO MISMATCH in {checked}, but a double missed between tiles {i + 1} and {j + 1} "
                        f"cannot match both {a} and {b}"), "unchecked"
        if loose:
            return f"NO MISMATCH in {checked}, but {_count(len(loose), 'tile')} not checked", "unchecked"
        if len(_groups(junctions)) > 1:
            return f"NO MISMATCH in {checked}, but the tiles form separate lines", "unchecked"
        if unsure:
            which = ", ".join(str(index + 1) for index in unsure)
            return (f"LEGAL if tile{'s' if len(unsure) > 1 else ''} {which} {'are' if len(unsure) > 1 else 'is'} "
                    f"read right: {checked} match{'' if len(junctions) > 1 else 'es'}, check "
                    f"{'them' if len(unsure) > 1 else 'it'}"), "doubt"
        return (f"LEGAL: all {checked} match" if len(junctions) > 1 else f"LEGAL: {checked} matches"), "legal"
    broken = f"{len(mismatched)} of {checked} {'does' if len(mismatched) == 1 else 'do'} not match"
    if all(any(index in doubtful for index in junction.tiles) for junction in mismatched):
        named = sorted({index for junction in mismatched for index in junction.tiles if index in doubtful})
        which = ", ".join(str(index + 1) for index in named)
        if len(named) == 1:
            return f"{broken}, but tile {which} may be misread: check it", "doubt"
        return f"{broken}, but tiles {which} may be misread: check them", "doubt"
    return f"NOT LEGAL: {broken}", "illegal"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def with_notes(picture: np.ndarray, verdict: dict) -> np.ndarray:
    """``picture`` (an ``annotate`` result) with a band below it listing the verdict's warnings, so the
    picture written by ``--annotate`` says by itself what was not checked and which tiles are in doubt."""
    h, w = picture.shape[:2]
    unit = max(1.0, max(h, w) / 1000.0)
    font, size, thick = cv2.FONT_HERSHEY_SIMPLEX, 0.6 * unit, max(1, int(round(unit)))
    rows = []
    for message in verdict.get("warnings", []):
        rows += wrap_text(f"! {message}", font, size, thick, w - int(16 * unit))
    if not rows:
        return picture
    line_h = int(cv2.getTextSize("Ag", font, size, thick)[0][1] + 12 * unit)
    band = np.full((line_h * len(rows) + int(10 * unit), w, 3), 24, np.uint8)
    for i, line in enumerate(rows):
        cv2.putText(band, line, (int(8 * unit), line_h * (i + 1)), font, size, (0, 220, 255), thick, cv2.LINE_AA)
    return np.vstack([picture, band])


def _fitted(text: str, width: float, font: int, most: float, thick: int) -> float:
    """The font size (at most ``most``) at which ``text`` is about ``width`` pixels wide."""
    (w, _), _ = cv2.getTextSize(text, font, 1.0, thick)
    return float(min(most, width / max(w, 1)))


def _label(out, text, where, size, thick, font, *, centred=True, colour=(255, 255, 255)) -> None:
    size = max(size, 0.4)
    thick = max(1, min(thick, int(round(2 * size))))  # a small label keeps a thin stroke, so it stays legible
    (w, h), base = cv2.getTextSize(text, font, size, thick)
    x, y = (int(where[0] - w / 2), int(where[1] + h / 2)) if centred else (int(where[0]), int(where[1]))
    cv2.rectangle(out, (x - 3, y - h - 3), (x + w + 3, y + base + 1), (0, 0, 0), -1)
    cv2.putText(out, text, (x, y), font, size, colour, thick, cv2.LINE_AA)


def _tile_width(tile: ReadTile) -> float:
    c = tile.corners
    return float((np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[3] - c[2])) / 2)


def _duplicates(tiles: list[ReadTile]) -> dict[int, int]:
    """Each tile read as the same tile as another one (a set holds each tile once): index -> the other."""
    seen: dict[tuple[int, int], int] = {}
    duplicates: dict[int, int] = {}
    for index, tile in enumerate(tiles):
        key = tuple(sorted(tile.pips))
        if key in seen:
            duplicates[index] = seen[key]
            duplicates.setdefault(seen[key], index)
        else:
            seen[key] = index
    return duplicates


def _name(tile: ReadTile) -> str:
    return _pair(tile.pips)


def _pair(pips) -> str:
    return f"{pips[0]}-{pips[1]}"
