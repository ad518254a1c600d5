"""The HTTP API of CONTRACTS.md, plus a few endpoints the pages use.

Contract rows: ``POST /api/matches``, ``GET /api/matches/<id>``, ``POST /api/matches/<id>/rounds``
(honours ``Idempotency-Key``), ``DELETE /api/matches/<id>/rounds/<n>``, ``POST /api/scan``
(the events stream lives in ``companion.web.events``; ``/api/verify`` in its own blueprint).
Extras: ``GET /api/matches`` (recent matches), ``GET /api/presets`` (presets and set profiles),
``PUT /api/matches/<id>/rounds/<n>`` (edit a round), ``POST /api/matches/<id>/play-points``
(All Fives: points scored during play, as they happen), ``POST /api/matches/<id>/rematch`` (the
next match, same players; boards follow), ``POST /api/matches/<id>/host-link`` (a link and QR code
that hand the host key to the host's phone).

Changes need ``Authorization: Bearer <host token>`` (never a cookie, so another site's form cannot
forge one); JSON endpoints refuse other content types (415). Errors: see ``companion.web.errors``.
"""

from __future__ import annotations

from typing import Any

import segno
from flask import Blueprint, current_app, jsonify, request, url_for

from companion.store import matches, scoring
from companion.store.errors import UnknownRulesError
from companion.web.context import changed, get_db
from companion.web.errors import BadRequestBody, NotAPhotoError, NotJsonError, ScanUnavailableError
from companion.web.qr import join_url

bp = Blueprint("api", __name__, url_prefix="/api")

MAX_IDEMPOTENCY_KEY = 200


def json_body() -> Any:
    """The request's JSON body; 415 for another content type, 400 for JSON that does not parse."""
    if not request.is_json:
        raise NotJsonError(f"send JSON (Content-Type: application/json), not {request.mimetype or 'nothing'!r}")
    body = request.get_json(silent=True)
    if body is None:
        raise BadRequestBody("the request body is not valid JSON")
    return body


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def require_host(match_id: str) -> None:
    matches.check_host(get_db(), match_id, bearer_token())


def profile_names() -> list[str]:
    """The set profiles a match can use: the shipped ones (default first) and the user's calibrated ones."""
    from calibration import profile_names as names
    return names()


def check_profile(name: str) -> str:
    if name not in profile_names():
        raise UnknownRulesError(f"unknown set profile: {name!r} (choose one of {', '.join(profile_names())})")
    return name


@bp.get("/presets")
def presets():
    return jsonify({"presets": scoring.preset_choices(), "profiles": profile_names()})


@bp.get("/matches")
def list_matches():
    return jsonify({"matches": matches.list_matches(get_db())})


@bp.post("/matches")
def create_match():
    match, token = matches.create_match(get_db(), json_body(), profile_check=check_profile)
    return jsonify({"id": match["id"], "host_token": token, **match}), 201


@bp.get("/matches/<match_id>")
def get_match(match_id: str):
    return jsonify(matches.get_match(get_db(), match_id))


@bp.post("/matches/<match_id>/rounds")
def add_round(match_id: str):
    require_host(match_id)
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 0 < len(key) <= MAX_IDEMPOTENCY_KEY:
        raise BadRequestBody(f"invalid Idempotency-Key: {key[:40]!r} (1 to {MAX_IDEMPOTENCY_KEY} characters)")
    result = matches.add_round(get_db(), match_id, json_body(), idempotency_key=key)
    changed(match_id)
    return jsonify(result), 201


def _round_number(text: str) -> int | str:
    return int(text) if text.isdigit() else text


@bp.put("/matches/<match_id>/rounds/<n>")
def edit_round(match_id: str, n: str):
    require_host(match_id)
    result = matches.edit_round(get_db(), match_id, _round_number(n), json_body())
    changed(match_id)
    return jsonify(result)


@bp.delete("/matches/<match_id>/rounds/<n>")
def undo_round(match_id: str, n: str):
    require_host(match_id)
    result = matches.undo_round(get_db(), match_id, _round_number(n))
    changed(match_id)
    return jsonify(result)


@bp.post("/matches/<match_id>/play-points")
def play_points(match_id: str):
    require_host(match_id)
    result = matches.add_play_points(get_db(), match_id, json_body())
    changed(match_id)
    return jsonify(result)


@bp.post("/matches/<match_id>/rematch")
def rematch(match_id: str):
    """The next match of the evening with the same players and rules; boards on this one follow."""
    require_host(match_id)
    match, token = matches.rematch(get_db(), match_id)
    changed(match_id)
    return jsonify({"id": match["id"], "host_token": token, **match}), 201


@bp.post("/matches/<match_id>/host-link")
def host_link(match_id: str):
    """The board's address with the host key in its fragment (``#host=...``, which browsers never
    send to a server), and its QR code: the host opens it on their phone to score from there."""
    require_host(match_id)
    url = f"{join_url(url_for('pages.board', match_id=match_id))}#host={bearer_token()}"
    return jsonify({"url": url, "qr": segno.make(url, error="m").svg_data_uri(scale=6, border=2)})


@bp.post("/scan")
def scan():
    photo = request.files.get("photo")
    if photo is None:
        raise BadRequestBody("send the photo as the multipart form field 'photo'")
    data = photo.read()
    if not data:
        raise NotAPhotoError(f"the upload {photo.filename or 'photo'!r} is empty")
    try:
        from calibration import load_profile
        from companion.scanner import scan_photo
    except ModuleNotFoundError as exc:
        raise ScanUnavailableError(f"reading photos is not available in this build ({exc.name} missing)") from exc
    profile = load_profile(request.form.get("profile") or None)
    gate = current_app.extensions["companion.scan_gate"]
    if not gate.acquire(timeout=current_app.config["SCAN_WAIT_S"]):
        raise ScanUnavailableError("the server is busy reading other photos; try again in a moment")
    try:
        result = scan_photo(data, profile=profile, name=photo.filename or "photo")
    finally:
        gate.release()
    if "error" in result:
        return jsonify(result), 422
    current_app.logger.info("scanned %s: %d tiles", result.get("file"), len(result.get("tiles", [])))
    return jsonify(result)
