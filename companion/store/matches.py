"""Matches, rounds and their history in SQLite: every query the dashboard runs lives here.

Entry points (each takes an open connection from ``companion.store.db.connect``):
``create_match``, ``get_match``, ``list_matches``, ``check_host``, ``add_round``, ``edit_round``,
``undo_round``, ``add_play_points``, ``rematch``, ``match_version``.

Every change is one ``BEGIN IMMEDIATE`` transaction (``db.write``) that also appends to the history
table and bumps the match's ``version`` (event streams watch it). Rounds are stored as entered and
scored again by ``companion.store.scoring`` whenever the match is read, so undo and edit just work.
``add_round`` honours an idempotency key: the same key with the same body answers the stored
response; with another body it is a conflict.

The host token is returned once, by ``create_match``; only its SHA-256 is stored.

Raises the ``companion.store.errors`` classes (all ``ValueError``, messages quote the input).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import sqlite3
import threading
from collections import OrderedDict
from datetime import datetime, timezone
from typing import Any, Mapping

from companion.store import scoring
from companion.store.db import write, write_together
from companion.store.errors import (
    MatchConflictError,
    MatchInputError,
    MatchNotFoundError,
    MissingTokenError,
    RoundNotFoundError,
    WrongTokenError,
)

MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_NAME_LENGTH = 24
DEFAULT_TARGET = 100
MAX_TARGET = 10_000
MAX_PLAY_POINTS = 1_000
DEFAULT_PROFILE = "giant-wood"
_ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
_ID_RE = re.compile(r"^[a-z0-9]{1,32}$")
_NAME_BAD = re.compile(r"[\x00-\x1f\x7f]")


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------- validation

def _players(value: Any) -> list[str]:
    if not isinstance(value, list) or not MIN_PLAYERS <= len(value) <= MAX_PLAYERS:
        raise MatchInputError(f"players must be a list of {MIN_PLAYERS} to {MAX_PLAYERS} names, not {value!r}")
    names: list[str] = []
    for raw in value:
        if not isinstance(raw, str) or not raw.strip():
            raise MatchInputError(f"invalid player name: {raw!r} (a name is some text)")
        name = " ".join(raw.split())
        if len(name) > MAX_NAME_LENGTH or _NAME_BAD.search(name):
            raise MatchInputError(f"invalid player name: {raw!r} (at most {MAX_NAME_LENGTH} characters)")
        if name.casefold() in (n.casefold() for n in names):
            raise MatchInputError(f"player name {name!r} is given twice")
        names.append(name)
    return names


def _target(value: Any) -> int:
    if value is None:
        return DEFAULT_TARGET
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_TARGET:
        raise MatchInputError(f"invalid target: {value!r} (a whole number from 1 to {MAX_TARGET})")
    return value


def _optional_hand(body: Mapping[str, Any], key: str) -> str | None:
    value = body.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise MatchInputError(f"invalid {key}: {value!r} (write tiles as a-b, separated by commas)")
    return value


def _entry(players: list[str], body: Any, pending: Mapping[str, int]) -> dict[str, Any]:
    """A round body checked and normalised into the stored entry."""
    if not isinstance(body, Mapping):
        raise MatchInputError(f"a round is a JSON object with \"hands\", not {body!r}")
    unknown = set(body) - {"hands", "boneyard", "table", "play_points"}
    if unknown:
        raise MatchInputError(f"unknown field(s) in round: {sorted(unknown)!r}")
    hands = body.get("hands")
    if not isinstance(hands, Mapping):
        raise MatchInputError(f"\"hands\" must map each player to a hand such as \"6-4,3-3\", not {hands!r}")
    strangers = [name for name in hands if name not in players]
    if strangers:
        raise MatchInputError(f"not a player in this match: {strangers[0]!r} (players: {', '.join(players)})")
    missing = [name for name in players if name not in hands]
    if missing:
        raise MatchInputError(f"no hand given for {missing[0]!r} (give \"\" for an empty hand)")
    for name, hand in hands.items():
        if not isinstance(hand, str):
            raise MatchInputError(f"hand of {name!r} must be text such as \"6-4,3-3\", not {hand!r}")
    play = body.get("play_points")
    if play is None:
        play = dict(pending)
    if not isinstance(play, Mapping):
        raise MatchInputError(f"\"play_points\" must map players to points, not {play!r}")
    points: dict[str, int] = {}
    for name, value in play.items():
        if name not in players:
            raise MatchInputError(f"play_points names someone not in this match: {name!r}")
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_PLAY_POINTS:
            raise MatchInputError(f"invalid play_points for {name!r}: {value!r}")
        if value:
            points[name] = value
    return {"hands": {name: hands[name] for name in players},
            "boneyard": _optional_hand(body, "boneyard"), "table": _optional_hand(body, "table"),
            "play_points": points}


# ---------------------------------------------------------------- reading

def _match_row(conn: sqlite3.Connection, match_id: str) -> sqlite3.Row:
    row = None
    if isinstance(match_id, str) and _ID_RE.match(match_id):
        row = conn.execute("SELECT * FROM matches WHERE id = ?", (match_id,)).fetchone()
    if row is None:
        raise MatchNotFoundError(f"no match {match_id!r}")
    return row


def _entries(conn: sqlite3.Connection, match_id: str) -> list[tuple[int, dict[str, Any], str]]:
    rows = conn.execute("SELECT n, entry, created_at FROM rounds WHERE match_id = ? ORDER BY n",
                        (match_id,)).fetchall()
    return [(row["n"], json.loads(row["entry"]), row["created_at"]) for row in rows]


def _scored(row: sqlite3.Row, entries: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], scoring.Tally]:
    players = json.loads(row["players"])
    results = [scoring.score_entry(row["rules"], players, entry) for entry in entries]
    return results, scoring.tally(players, row["target"], results)


class _Memo:
    """A bounded, thread-safe map that forgets the least recently used key."""

    def __init__(self, size: int) -> None:
        self.size, self._items, self._lock = size, OrderedDict(), threading.Lock()

    def get(self, key: Any) -> Any:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: Any, value: Any) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


# A match is scored again at every read and every new round (rounds are stored as entered), which
# made scoring most of a round POST's time while it holds the write lock. Scoring is a pure function
# of the rules, the players and the stored text, so results are kept by that text (never by version
# numbers, which a rolled-back transaction would reuse). What they hold is shared: callers copy, never
# change it.
_round_results = _Memo(4096)   # (rules, players JSON, entry JSON) -> one round's result
_match_results = _Memo(256)    # (rules, players JSON, target, entry JSONs) -> (results, Tally)


def _scored_round(row: sqlite3.Row, text: str, entry: dict[str, Any] | None = None) -> dict[str, Any]:
    key = (row["rules"], row["players"], text)
    result = _round_results.get(key)
    if result is None:
        result = scoring.score_entry(row["rules"], json.loads(row["players"]),
                                     json.loads(text) if entry is None else entry)
        _round_results.put(key, result)
    return result


def _scored_texts(row: sqlite3.Row, texts: tuple[str, ...]) -> tuple[list[dict[str, Any]], scoring.Tally]:
    """``_scored`` of the stored entries ``texts``; a match one round longer than one already scored
    costs that round alone."""
    key = (row["rules"], row["players"], row["target"], texts)
    hit = _match_results.get(key)
    if hit is not None:
        return hit
    players = json.loads(row["players"])
    shorter = _match_results.get((*key[:3], texts[:-1])) if texts else None
    if shorter is not None:
        results = [*shorter[0], _scored_round(row, texts[-1])]
        hit = results, scoring.tally(players, row["target"], results[-1:], start=shorter[1])
    else:
        results = [_scored_round(row, text) for text in texts]
        hit = results, scoring.tally(players, row["target"], results)
    _match_results.put(key, hit)
    return hit


def _view(conn: sqlite3.Connection, row: sqlite3.Row) -> dict[str, Any]:
    players = json.loads(row["players"])
    stored = conn.execute("SELECT n, entry, created_at FROM rounds WHERE match_id = ? ORDER BY n",
                          (row["id"],)).fetchall()
    results, tally = _scored_texts(row, tuple(r["entry"] for r in stored))
    rounds = []
    for (n, text, created_at), result in zip(stored, results):
        entry = json.loads(text)
        rounds.append({"n": n, **result, "boneyard": entry.get("boneyard"), "table": entry.get("table"),
                       "entered": entry["hands"], "at": created_at})
    history = [
        {"at": h["at"], "kind": h["kind"], "n": h["n"], **json.loads(h["detail"])}
        for h in conn.execute("SELECT at, kind, n, detail FROM history WHERE match_id = ? ORDER BY id",
                              (row["id"],))
    ]
    return {
        "id": row["id"], "rules": row["rules"], "game": scoring.preset_game(row["rules"]),
        "profile": row["profile"], "target": row["target"],
        "players": [{"name": name, "score": tally.scores[name]} for name in players],
        "rounds": rounds, "winner": tally.winner,
        "race": {name: list(totals) for name, totals in tally.race.items()},  # a copy: the tally is shared
        "pending_play": json.loads(row["pending_play"]),
        "in_play": scoring.scores_during_play(row["rules"]),
        "version": row["version"], "created_at": row["created_at"], "history": history,
        "next_match": row["next_match"],
    }


def get_match(conn: sqlite3.Connection, match_id: str) -> dict[str, Any]:
    """The match as the API shows it: ``id, rules, target, players [{name, score}], rounds, winner``
    plus ``profile, race, pending_play, in_play, version, created_at, history``."""
    return _view(conn, _match_row(conn, match_id))


def match_version(conn: sqlite3.Connection, match_id: str) -> int:
    """The match's change counter (``MatchNotFoundError`` if it does not exist)."""
    return _match_row(conn, match_id)["version"]


def list_matches(conn: sqlite3.Connection, *, limit: int = 50) -> list[dict[str, Any]]:
    """The most recent matches first, each as ``get_match`` shows it."""
    rows = conn.execute("SELECT * FROM matches ORDER BY created_at DESC, rowid DESC LIMIT ?", (limit,))
    return [_view(conn, row) for row in rows.fetchall()]


def check_host(conn: sqlite3.Connection, match_id: str, token: str | None) -> None:
    """Raise unless ``token`` is this match's host token (``MissingTokenError``/``WrongTokenError``)."""
    row = _match_row(conn, match_id)
    if not token:
        raise MissingTokenError("changing a match needs the host's token (Authorization: Bearer <token>)")
    if not hmac.compare_digest(_hash_token(token), row["host_token_hash"]):
        raise WrongTokenError(f"that token is not the host token of match {match_id!r}")


# ---------------------------------------------------------------- writing

def _log(conn: sqlite3.Connection, match_id: str, kind: str, n: int | None, detail: dict[str, Any]) -> None:
    conn.execute("INSERT INTO history (match_id, at, kind, n, detail) VALUES (?, ?, ?, ?, ?)",
                 (match_id, _now(), kind, n, json.dumps(detail)))
    conn.execute("UPDATE matches SET version = version + 1 WHERE id = ?", (match_id,))


def _summary(n: int, result: Mapping[str, Any]) -> str:
    if result.get("winner") is None:
        return f"round {n}: {result.get('how', 'tie')}, no winner"
    return f"round {n}: {result['winner']} +{result.get('points', 0)} ({result.get('how')})"


def create_match(conn: sqlite3.Connection, body: Any, *, profile_check=None) -> tuple[dict[str, Any], str]:
    """Create a match from ``{"players": [...], "rules": PRESET, "target": 100, "profile": NAME}``.

    Returns ``(match, host_token)``. ``profile_check(name) -> name`` validates the set profile (the
    web layer passes the calibration package's check; without it only the default is accepted).
    """
    if not isinstance(body, Mapping):
        raise MatchInputError(f"a match is a JSON object with \"players\" and \"rules\", not {body!r}")
    unknown = set(body) - {"players", "rules", "target", "profile"}
    if unknown:
        raise MatchInputError(f"unknown field(s) in match: {sorted(unknown)!r}")
    players = _players(body.get("players"))
    rules = body.get("rules")
    if not isinstance(rules, str):
        raise MatchInputError(f"\"rules\" must name a preset, not {rules!r}")
    rules, preset_target = scoring.check_preset(rules, len(players))
    target = _target(body.get("target", preset_target))
    profile = body.get("profile") or DEFAULT_PROFILE
    if not isinstance(profile, str):
        raise MatchInputError(f"\"profile\" must name a set profile, not {profile!r}")
    if profile_check is not None:
        profile = profile_check(profile)
    elif profile != DEFAULT_PROFILE:
        raise MatchInputError(f"unknown set profile: {profile!r}")
    with write(conn):
        match_id, token = _insert_match(conn, players, rules, target, profile)
        match = _view(conn, _match_row(conn, match_id))
    return match, token


def _insert_match(conn: sqlite3.Connection, players: list[str], rules: str, target: int,
                  profile: str) -> tuple[str, str]:
    """Insert a checked match inside the caller's transaction; returns its id and host token."""
    token = secrets.token_urlsafe(24)
    while True:
        match_id = "".join(secrets.choice(_ID_ALPHABET) for _ in range(8))
        if conn.execute("SELECT 1 FROM matches WHERE id = ?", (match_id,)).fetchone() is None:
            break
    conn.execute(
        "INSERT INTO matches (id, created_at, rules, profile, target, players, host_token_hash)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (match_id, _now(), rules, profile, target, json.dumps(players), _hash_token(token)))
    _log(conn, match_id, "created", None,
         {"summary": f"match created: {', '.join(players)}; {rules} to {target}"})
    return match_id, token


def _standings(view: Mapping[str, Any]) -> dict[str, Any]:
    return {"standings": view["players"], "match_winner": view["winner"]}


def _request_hash(body: Any) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode("utf-8")).hexdigest()


def add_round(conn: sqlite3.Connection, match_id: str, body: Any, *,
              idempotency_key: str | None = None) -> dict[str, Any]:
    """Score and record the next round. Returns the round (the ``companion score`` object plus ``n``,
    the round's ``scores``) with ``standings`` and ``match_winner``. A won match refuses (409).

    Rounds posted together share one transaction and one fsync (``db.write_together``); each answer
    is given once its round is committed."""

    def record(conn: sqlite3.Connection) -> dict[str, Any]:
        row = _match_row(conn, match_id)
        if idempotency_key is not None:
            done = conn.execute("SELECT request_hash, response FROM idempotency WHERE match_id = ? AND key = ?",
                                (match_id, idempotency_key)).fetchone()
            if done is not None:
                if done["request_hash"] != _request_hash(body):
                    raise MatchConflictError(
                        f"Idempotency-Key {idempotency_key!r} was already used for a different round")
                return json.loads(done["response"])
        players = json.loads(row["players"])
        texts = tuple(text for (text,) in conn.execute(
            "SELECT entry FROM rounds WHERE match_id = ? ORDER BY n", (match_id,)))
        _, before = _scored_texts(row, texts)
        if before.winner is not None:
            raise MatchConflictError(f"match {match_id!r} is over: {before.winner} won; start a new match")
        entry = _entry(players, body, json.loads(row["pending_play"]))
        text = json.dumps(entry)
        result = _scored_round(row, text, entry)
        n = len(texts) + 1
        conn.execute("INSERT INTO rounds (match_id, n, entry, created_at) VALUES (?, ?, ?, ?)",
                     (match_id, n, text, _now()))
        conn.execute("UPDATE matches SET pending_play = '{}' WHERE id = ?", (match_id,))
        _log(conn, match_id, "round added", n, {"summary": _summary(n, result), "entry": entry})
        # the writer holds the database's one write lock: the new round is added to the scores
        # already worked out (and kept for the boards' next read) instead of scoring the match again
        _, after = _scored_texts(row, (*texts, text))
        response = {"n": n, **result, "standings": [{"name": name, "score": after.scores[name]} for name in players],
                    "match_winner": after.winner}
        if idempotency_key is not None:
            conn.execute("INSERT INTO idempotency (match_id, key, request_hash, status, response)"
                         " VALUES (?, ?, ?, 201, ?)",
                         (match_id, idempotency_key, _request_hash(body), json.dumps(response)))
        return response

    return write_together(conn, record)


def _check_not_early(row: sqlite3.Row, entries: list[dict[str, Any]], what: str) -> None:
    _, tally = _scored(row, entries)
    if tally.won_at is not None and tally.won_at < len(entries):
        raise MatchConflictError(
            f"{what} would end the match at round {tally.won_at} ({tally.winner} wins), before the"
            f" {len(entries)} rounds played; undo the later rounds first")


def _round_entry(conn: sqlite3.Connection, match_id: str, n: Any) -> tuple[list, int]:
    stored = _entries(conn, match_id)
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= len(stored):
        raise RoundNotFoundError(f"match {match_id!r} has no round {n!r}")
    return stored, n


def edit_round(conn: sqlite3.Connection, match_id: str, n: int, body: Any) -> dict[str, Any]:
    """Replace round ``n``'s entry and score the match again; the change is kept in the history."""
    with write(conn):
        row = _match_row(conn, match_id)
        stored, n = _round_entry(conn, match_id, n)
        players = json.loads(row["players"])
        old = stored[n - 1][1]
        entry = _entry(players, body, old.get("play_points", {}))
        result = scoring.score_entry(row["rules"], players, entry)
        entries = [e for _, e, _ in stored]
        entries[n - 1] = entry
        _check_not_early(row, entries, f"this edit of round {n}")
        conn.execute("UPDATE rounds SET entry = ? WHERE match_id = ? AND n = ?",
                     (json.dumps(entry), match_id, n))
        _log(conn, match_id, "round edited", n,
             {"summary": f"{_summary(n, result)} (edited)", "before": old, "entry": entry})
        view = _view(conn, _match_row(conn, match_id))
    return {"n": n, **result, **_standings(view)}


def undo_round(conn: sqlite3.Connection, match_id: str, n: int) -> dict[str, Any]:
    """Remove round ``n`` (later rounds move up one) and score the match again. Returns the match."""
    with write(conn):
        row = _match_row(conn, match_id)
        stored, n = _round_entry(conn, match_id, n)
        entries = [e for _, e, _ in stored]
        removed = entries.pop(n - 1)
        _check_not_early(row, entries, f"undoing round {n}")
        conn.execute("DELETE FROM rounds WHERE match_id = ? AND n = ?", (match_id, n))
        # two steps so that the primary key never sees two rounds with one number
        conn.execute("UPDATE rounds SET n = -(n - 1) WHERE match_id = ? AND n > ?", (match_id, n))
        conn.execute("UPDATE rounds SET n = -n WHERE match_id = ? AND n < 0", (match_id,))
        _log(conn, match_id, "round undone", n, {"summary": f"round {n} undone", "entry": removed})
        view = _view(conn, _match_row(conn, match_id))
    return view


def add_play_points(conn: sqlite3.Connection, match_id: str, body: Any) -> dict[str, Any]:
    """Add ``{"player": NAME, "points": 10}`` to the points scored so far in the current round
    (All Fives); negative points take back a mistake. They join the next round's ``play_points``."""
    if not isinstance(body, Mapping) or set(body) != {"player", "points"}:
        raise MatchInputError(f"play points are {{\"player\": NAME, \"points\": N}}, not {body!r}")
    player, points = body["player"], body["points"]
    if not isinstance(points, int) or isinstance(points, bool) or not -MAX_PLAY_POINTS <= points <= MAX_PLAY_POINTS:
        raise MatchInputError(f"invalid points: {points!r}")
    with write(conn):
        row = _match_row(conn, match_id)
        players = json.loads(row["players"])
        if player not in players:
            raise MatchInputError(f"not a player in this match: {player!r}")
        if not scoring.scores_during_play(row["rules"]):
            raise MatchConflictError(f"{row['rules']!r} does not score during play")
        _, tally = _scored(row, [e for _, e, _ in _entries(conn, match_id)])
        if tally.winner is not None:
            raise MatchConflictError(f"match {match_id!r} is over: {tally.winner} won")
        pending = json.loads(row["pending_play"])
        pending[player] = max(0, pending.get(player, 0) + points)
        conn.execute("UPDATE matches SET pending_play = ? WHERE id = ?", (json.dumps(pending), match_id))
        _log(conn, match_id, "play points", None,
             {"summary": f"{player} {points:+d} during play", "player": player, "points": points})
        view = _view(conn, _match_row(conn, match_id))
    return view


def rematch(conn: sqlite3.Connection, match_id: str) -> tuple[dict[str, Any], str]:
    """Start the next match of the evening: same players, rules, target and set, scores at zero.

    The finished match points to it (``next_match``), so boards still showing it can follow.
    Returns ``(new match, its host token)``; a match that already has a rematch is a conflict."""
    with write(conn):  # one transaction: two hosts tapping at once cannot start two rematches
        row = _match_row(conn, match_id)
        if row["next_match"]:
            raise MatchConflictError(f"match {match_id!r} already has a rematch: {row['next_match']!r}")
        new_id, token = _insert_match(conn, json.loads(row["players"]), row["rules"], row["target"],
                                      row["profile"])
        conn.execute("UPDATE matches SET next_match = ? WHERE id = ?", (new_id, match_id))
        _log(conn, match_id, "rematch", None, {"summary": f"rematch started: {new_id}", "next_match": new_id})
        match = _view(conn, _match_row(conn, new_id))
    return match, token
