"""Live updates: ``GET /api/matches/<id>/events``, a Server-Sent Events stream per viewer.

The stream sends the match at once (``event: match``, ``id:`` its version), then again each time it
changes, and a comment line every ``STREAM_KEEPALIVE_S`` so idle connections stay open. Writers call
``Broker.notify`` after committing; streams wait on the broker's condition variable and also re-read
the match's version every ``STREAM_POLL_S`` (so a change made by another process is seen too).

Each open stream holds one server thread, so the broker caps them (``MAX_STREAMS``, 503 beyond it).
A stream ends when its client disconnects (the next write fails and the server closes the
generator) or when the broker is closed; its slot is released in either case. The page falls back
to polling ``GET /api/matches/<id>`` when the stream drops.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Iterator

from flask import Blueprint, Response, current_app

from companion.store import matches
from companion.store.db import connect
from companion.web.context import broker, get_db

bp = Blueprint("events", __name__)


class TooManyStreamsError(Exception):
    """Every stream slot is taken."""


class Broker:
    """Wakes event streams when a match changes, and counts the open streams."""

    def __init__(self, max_streams: int) -> None:
        self.max_streams = max_streams
        self._cond = threading.Condition()
        self._ticks: dict[str, int] = {}
        self._open = 0
        self.closed = False

    @property
    def open_streams(self) -> int:
        return self._open

    def acquire(self) -> None:
        with self._cond:
            if self._open >= self.max_streams:
                raise TooManyStreamsError
            self._open += 1

    def release(self) -> None:
        with self._cond:
            self._open -= 1

    def tick(self, match_id: str) -> int:
        with self._cond:
            return self._ticks.get(match_id, 0)

    def notify(self, match_id: str) -> None:
        with self._cond:
            self._ticks[match_id] = self._ticks.get(match_id, 0) + 1
            self._cond.notify_all()

    def wait(self, match_id: str, tick: int, timeout: float) -> None:
        """Return when ``match_id`` ticks past ``tick``, the broker closes, or ``timeout`` passes."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not self.closed and self._ticks.get(match_id, 0) == tick:
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                self._cond.wait(left)

    def close(self) -> None:
        """End every stream (server shutdown)."""
        with self._cond:
            self.closed = True
            self._cond.notify_all()


class _Held:
    """A stream that holds a broker slot until it is closed, even if it never started."""

    def __init__(self, hub: Broker, chunks: Iterator[str]) -> None:
        self._hub, self._chunks, self._held = hub, chunks, True

    def __iter__(self) -> Iterator[str]:
        return self._chunks

    def close(self) -> None:
        try:
            self._chunks.close()  # type: ignore[attr-defined]
        finally:
            if self._held:
                self._held = False
                self._hub.release()


def _event(version: int, match: dict) -> str:
    return f"id: {version}\nevent: match\ndata: {json.dumps(match, separators=(',', ':'))}\n\n"


@bp.get("/api/matches/<match_id>/events")
def match_events(match_id: str):
    matches.match_version(get_db(), match_id)  # 404 before taking a slot
    hub = broker()
    try:
        hub.acquire()
    except TooManyStreamsError:
        response = Response(json.dumps({"error": "too many open live streams; the page will poll instead"}),
                            status=503, mimetype="application/json")
        response.headers["Retry-After"] = "10"
        return response
    config = current_app.config
    database, keepalive = config["DATABASE"], float(config["STREAM_KEEPALIVE_S"])
    poll, retry = float(config["STREAM_POLL_S"]), int(config["STREAM_RETRY_MS"])

    def stream() -> Iterator[str]:
        conn = None
        try:
            conn = connect(database)
            yield f"retry: {retry}\n\n"
            sent = None
            last_write = time.monotonic()
            while not hub.closed:
                tick = hub.tick(match_id)
                version = matches.match_version(conn, match_id)
                if version != sent:
                    sent = version
                    yield _event(version, matches.get_match(conn, match_id))
                    last_write = time.monotonic()
                elif time.monotonic() - last_write >= keepalive:
                    yield ": keepalive\n\n"
                    last_write = time.monotonic()
                hub.wait(match_id, tick, min(poll, keepalive))
        finally:
            if conn is not None:
                conn.close()

    response = Response(_Held(hub, stream()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
