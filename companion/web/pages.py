"""The pages people look at: home (matches of the evening, new match), the board, the round entry.

Routes: ``/`` home; ``/m/<id>`` the scoreboard (TV and phone); ``/m/<id>/live`` the board's live
part alone (the board page fetches it when it polls; live, it arrives in the board's event stream,
``/m/<id>/live/events`` in ``companion.web.events``); ``/m/<id>/round`` the host's round entry
(``?edit=N`` to correct round N).

The pages are rendered on the server (Jinja, autoescaped); the scripts in ``static/`` only fetch
these fragments and call the JSON API. Whether the viewer is the host is decided in the browser
(the host token sits in its localStorage), and every change is checked again by the API.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, render_template, request, url_for

from companion.store import matches, scoring
from companion.store.errors import MatchNotFoundError
from companion.web.api import profile_names
from companion.web.chart import player_colour, race_svg
from companion.web.context import get_db, rendered
from companion.web.qr import join_url, qr_svg, reachable_from_phones

bp = Blueprint("pages", __name__)


def _not_found(match_id: str):
    return render_template("missing.html", match_id=match_id), 404


def board_context(match: dict[str, Any]) -> dict[str, Any]:
    """Everything the board templates show, worked out once."""
    target = match["target"]
    top = max(p["score"] for p in match["players"])
    last = match["rounds"][-1] if match["rounds"] else None
    cards = []
    for seat, player in enumerate(match["players"]):
        name = player["name"]
        # points made during the round being played (All Fives) count on the board as they happen
        shown = player["score"] + match["pending_play"].get(name, 0)
        cards.append({
            "name": name, "score": shown, "colour": player_colour(seat),
            "percent": min(100, round(100 * shown / target)) if target else 0,
            "to_go": max(0, target - shown),
            "last": last["scores"].get(name, 0) if last else None,
            "leader": bool(match["rounds"]) and player["score"] == top,
            "winner": match["winner"] == name,
            "pending": match["pending_play"].get(name, 0),
        })
    return {
        "match": match, "cards": cards, "last": last,
        "chart": race_svg(match["race"], target) + race_svg(match["race"], target, narrow=True),
        "history": list(reversed(match["history"])),
    }


@bp.get("/")
def home():
    return render_template("home.html", matches=matches.list_matches(get_db()),
                           presets=scoring.preset_choices(), profiles=profile_names(),
                           default_target=matches.DEFAULT_TARGET,
                           verify_url="/verify" if "verify" in current_app.blueprints else None)


@bp.get("/m/<match_id>")
def board(match_id: str):
    try:
        match = matches.get_match(get_db(), match_id)
    except MatchNotFoundError:
        return _not_found(match_id)
    url = join_url(url_for("pages.board", match_id=match_id))
    return render_template("board.html", join=url, qr=qr_svg(url), phones_can_join=reachable_from_phones(url),
                           **board_context(match))


@bp.get("/m/<match_id>/live")
def live(match_id: str):
    """Every open board fetches this after each change: rendered once per version, then shared."""
    conn = get_db()
    try:
        version = matches.match_version(conn, match_id)
    except MatchNotFoundError:
        return _not_found(match_id)

    return rendered().get(("live", match_id), version, lambda: render_live(conn, match_id))[1]


def render_live(conn, match_id: str) -> tuple[int, str]:
    """``(version, html)`` of the board's live part (needs a request context, for ``url_for``)."""
    match = matches.get_match(conn, match_id)
    return match["version"], render_template("_live.html", **board_context(match))


@bp.get("/m/<match_id>/round")
def round_entry(match_id: str):
    try:
        match = matches.get_match(get_db(), match_id)
    except MatchNotFoundError:
        return _not_found(match_id)
    edit = request.args.get("edit", type=int)
    editing = next((r for r in match["rounds"] if r["n"] == edit), None) if edit else None
    return render_template("round.html", match=match, editing=editing, profiles=profile_names(),
                           doubt=_doubt_below(match["profile"]),
                           colours=[player_colour(i) for i in range(len(match["players"]))])


def _doubt_below(profile_name: str) -> float:
    """The confidence below which the match's set profile asks to check a reading (the default profile's
    if the set's profile is gone or reading photos is not installed)."""
    try:
        from calibration import UnknownProfileError, load_profile
    except ModuleNotFoundError:
        return 0.5
    try:
        return load_profile(profile_name).doubt_below
    except (UnknownProfileError, ValueError):
        return load_profile(None).doubt_below
