"""The "settle it" page: check a line of play from a photo, and ask the rules about a play.

Routes (blueprint ``verify``):
- ``GET /verify``: the page. ``POST /verify`` (multipart ``photo``, optional ``profile``): the same
  page showing the annotated photo (each junction green or red), the junction list, the verdict and
  the warnings. Works without JavaScript (a phone's camera button is the file input).
- ``POST /api/verify`` (multipart ``photo``, optional ``profile``): one ``companion verify --json``
  object, as CONTRACTS.md says; 422 with ``{"file", "error"}`` for a photo that cannot be read.
- Rules questions, JSON in and out (not in CONTRACTS; the page uses them):
  ``POST /api/rules/check-play`` ``{"rules", "layout", "tile", "onto"?, "side"?, "hand"?}`` ->
  ``{"legal", "reason", "count", "points", "ends"}``: is the claimed play legal, and why not;
  under All Fives the count of the open ends after it and the points it scores.
  ``POST /api/rules/could-play`` ``{"rules", "layout", "hand", "boneyard_left"?}`` ->
  ``{"legal", "reason", "ends"}``: was drawing or passing allowed (``legal`` false: the player could
  have played).
  ``POST /api/rules/ends`` ``{"rules", "layout"}`` -> ``{"ends", "count", "points"}``: the open ends
  and their All Fives count.

A ``layout`` is the tiles in the order they were laid, either text with one placement per line (or
separated by ``;``) or a JSON list of such strings or of ``{"tile", "onto", "side"}`` objects. A
placement reads ``6-6`` (the first tile), ``6-4 on 6-6`` or ``6-4 on 6-6 right``: ``side`` is one
of the exits named in ``companion.rules.layout`` (left/right/up/down on the first tile, on/up/down on
later ones); without it the first open exit that fits is taken.

Errors: every ``ValueError`` (a bad tile, an impossible layout, an unknown preset) becomes
``{"error": message}`` with status 400 through ``companion.web.errors``; a bad photo 422.
"""

from __future__ import annotations

import base64
import re
from typing import Any

from flask import Blueprint, jsonify, render_template, request

from companion.web.errors import BadRequestBody, NotAPhotoError, ScanUnavailableError

bp = Blueprint("verify", __name__)

PAGE_MAX_SIDE = 1600  # the annotated picture on the page is reduced to this many pixels at most
_PLACEMENT_RE = re.compile(r"^\s*(?P<tile>[^\s]+)(?:\s+on\s+(?P<onto>[^\s]+)(?:\s+(?P<side>[a-z]+))?)?\s*$", re.I)
SIDES = ("left", "right", "up", "down", "on")


class PlacementError(BadRequestBody):
    """A layout placement that cannot be parsed: 400."""


# --- the photo -------------------------------------------------------------------------------------

def _uploaded_photo() -> tuple[bytes, str]:
    photo = request.files.get("photo")
    if photo is None:
        raise BadRequestBody("send the photo as the multipart form field 'photo'")
    data = photo.read()
    name = photo.filename or "photo"
    if not data:
        raise NotAPhotoError(f"the upload {name!r} is empty")
    return data, name


def _profile():
    try:
        from calibration import load_profile
    except ModuleNotFoundError as exc:  # pragma: no cover - a build without the vision extras
        raise ScanUnavailableError(f"reading photos is not available in this build ({exc.name} missing)") from exc
    return load_profile(request.form.get("profile") or None)


@bp.post("/api/verify")
def api_verify():
    data, name = _uploaded_photo()
    from companion.verifier import verify_photo

    result = verify_photo(data, profile=_profile(), name=name)
    if "error" in result:
        return jsonify(result), 422
    return jsonify(result)


@bp.get("/verify")
def page():
    return _render()


@bp.post("/verify")
def page_with_photo():
    import cv2

    from companion.photo import PhotoError, load_photo
    from companion.verifier import annotate, describe_junction, headline, verify_image

    try:
        data, name = _uploaded_photo()
        profile = _profile()
        image = load_photo(data)
    except ValueError as exc:  # a bad photo (422), no photo or an unknown profile (400): said on the page
        return _render(photo_error=str(exc)), 422 if isinstance(exc, (PhotoError, NotAPhotoError)) else 400
    verdict = verify_image(image, profile=profile, file=name)
    picture = annotate(image, verdict)
    scale = PAGE_MAX_SIDE / max(picture.shape[:2])
    if scale < 1:
        picture = cv2.resize(picture, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    ok, jpeg = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 85])
    lines = [describe_junction(verdict, k) for k in range(len(verdict["junctions"]))]
    verdict_line, verdict_kind = headline(verdict)  # the same line as on the picture and the command line
    return _render(
        verdict=verdict,
        verdict_line=verdict_line,
        verdict_kind=verdict_kind,
        junction_lines=list(zip(verdict["junctions"], lines)),
        picture="data:image/jpeg;base64," + base64.b64encode(jpeg.tobytes()).decode("ascii") if ok else None,
        photo_layout="\n".join(layout_from_verdict(verdict)),
        chosen_profile=request.form.get("profile") or "",
    )


def _render(**context: Any):
    from companion.rules import PRESETS
    from companion.web.api import profile_names

    from companion.vision.junctions import JunctionConfig

    return render_template("verify.html", presets=list(PRESETS.values()), profiles=profile_names(),
                           doubt=JunctionConfig().doubt_confidence, **context)


def layout_from_verdict(verdict: dict) -> list[str]:
    """Placements (``"6-4 on 6-6"``) for the tiles of a verify object, walking its junctions.

    The walk starts from the double with the most junctions (the spinner, or the set) or else tile 0,
    and goes breadth first, so each tile comes after the one it touches. Tiles that touch nothing are
    left out. Which exit each tile takes is left to the rules (the first open one that fits).
    """
    tiles = verdict.get("tiles", [])
    neighbours: dict[int, list[int]] = {}
    for junction in verdict.get("junctions", []):
        i, j = junction["tiles"]
        neighbours.setdefault(i, []).append(j)
        neighbours.setdefault(j, []).append(i)
    if not neighbours:
        return [_tile_text(tiles[0])] if len(tiles) == 1 else []
    doubles = [i for i in neighbours if tiles[i]["pips"][0] == tiles[i]["pips"][1]]
    root = max(doubles, key=lambda i: (len(neighbours[i]), -i)) if doubles else min(neighbours)
    lines, seen, queue = [_tile_text(tiles[root])], {root}, [root]
    while queue:
        at = queue.pop(0)
        for other in sorted(neighbours[at]):
            if other not in seen:
                seen.add(other)
                queue.append(other)
                lines.append(f"{_tile_text(tiles[other])} on {_tile_text(tiles[at])}")
    return lines


def _tile_text(tile: dict) -> str:
    return f"{tile['pips'][0]}-{tile['pips'][1]}"


# --- the rules ---------------------------------------------------------------------------------------

def _json() -> dict:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise BadRequestBody("send a JSON object (Content-Type: application/json)")
    return body


def _field(body: dict, key: str, *, required: bool = True) -> Any:
    value = body.get(key)
    if required and (value is None or value == ""):
        raise BadRequestBody(f"missing field {key!r}")
    return value


def parse_placements(layout: Any) -> list[tuple[str, str | None, str | None]]:
    """``(tile, onto, side)`` triples from the page's layout text or a JSON list (module docstring)."""
    if layout is None or layout == "":
        return []
    if isinstance(layout, str):
        items: list[Any] = [part for part in re.split(r"[;\n]", layout) if part.strip()]
    elif isinstance(layout, list):
        items = layout
    else:
        raise PlacementError(f"layout must be text or a list of placements, not {layout!r}")
    placements = []
    for number, item in enumerate(items, 1):
        if isinstance(item, dict):
            tile, onto, side = item.get("tile"), item.get("onto"), item.get("side")
            if not isinstance(tile, str) or not all(v is None or isinstance(v, str) for v in (onto, side)):
                raise PlacementError(f"placement {number} must give 'tile' (and 'onto', 'side') as text: {item!r}")
        elif isinstance(item, str):
            match = _PLACEMENT_RE.match(item)
            if not match:
                raise PlacementError(
                    f"placement {number} {item!r} is not 'TILE' or 'TILE on TILE [SIDE]' (e.g. '6-4 on 6-6')")
            tile, onto, side = match.group("tile"), match.group("onto"), match.group("side")
        else:
            raise PlacementError(f"placement {number} must be text or an object: {item!r}")
        side = side.lower() if side else None
        if side is not None and side not in SIDES:
            raise PlacementError(f"placement {number}: unknown side {side!r} (one of {', '.join(SIDES)})")
        if number == 1 and onto:
            raise PlacementError(f"placement 1 {item!r} cannot go on another tile: it starts the layout")
        if number > 1 and not onto:
            raise PlacementError(f"placement {number} {item!r} must say which tile it goes on ('TILE on TILE')")
        placements.append((tile, onto or None, side))
    return placements


def _layout(body: dict):
    from companion.rules.disputes import build_layout
    from companion.rules.presets import find_preset

    preset = find_preset(_field(body, "rules"))
    return preset, build_layout(preset, parse_placements(body.get("layout")))


def _hand(text: Any, key: str):
    from companion.rules import parse_hand

    if text is None:
        return None
    if not isinstance(text, str):
        raise BadRequestBody(f"{key!r} must be a hand written like '6-4,3-3', not {text!r}")
    return parse_hand(text)


@bp.post("/api/rules/check-play")
def api_check_play():
    from companion.rules.disputes import check_play

    body = _json()
    preset, layout = _layout(body)
    onto, side = body.get("onto") or None, body.get("side") or None
    if side is not None and side not in SIDES:
        raise PlacementError(f"unknown side {side!r} (one of {', '.join(SIDES)})")
    verdict = check_play(preset, layout, _field(body, "tile"), onto, side, hand=_hand(body.get("hand") or None, "hand"))
    return jsonify({"legal": verdict.legal, "reason": verdict.reason, "count": verdict.count,
                    "points": verdict.points, "ends": layout.describe_ends() if layout.placed else "the table is empty"})


@bp.post("/api/rules/could-play")
def api_could_play():
    from companion.rules.disputes import check_stuck

    body = _json()
    preset, layout = _layout(body)
    hand = _hand(_field(body, "hand", required=False) or "", "hand")
    left = body.get("boneyard_left", 0)
    if not isinstance(left, int) or isinstance(left, bool) or not 0 <= left <= 28:
        raise BadRequestBody(f"'boneyard_left' must be a whole number from 0 to 28, not {left!r}")
    verdict = check_stuck(preset, layout, hand, boneyard_left=left)
    return jsonify({"legal": verdict.legal, "reason": verdict.reason,
                    "ends": layout.describe_ends() if layout.placed else "the table is empty"})


@bp.post("/api/rules/ends")
def api_ends():
    from companion.rules.disputes import fives

    body = _json()
    _, layout = _layout(body)
    count, points = fives(layout)
    return jsonify({"ends": layout.describe_ends() if layout.placed else "the table is empty",
                    "count": count, "points": points})
