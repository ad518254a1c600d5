"""Live updates: ``GET /api/matches/<id>/events``, a Server-Sent Events stream per viewer, and the
board page's own ``GET /m/<id>/live/events``.

The API stream sends the match at once (``event: match``, ``id:`` its version), then again each time it
changes; the board's stream sends the board's rendered live part instead (``event: live``, so a board
need not fetch it). Both send a comment line every ``STREAM_KEEPALIVE_S`` so idle connections stay
open. Writers call ``Broker.notify`` after committing; the broker publishes a change once the match
has been quiet for ``STREAM_SETTLE_S`` (at the latest ``STREAM_MAX_DELAY_S`` after it), so a burst of
rounds reaches each viewer as one event, sent after the burst's POSTs are answered. Streams wait on
the broker's condition variable and also re-read the match's version every ``STREAM_POLL_S`` (so a
change made by another process is seen too). The event is rendered and encoded once per version and
the same bytes are sent to every stream (``VersionedCache``); the version after a published change is
read once for all the streams it wakes (``Broker.versions``).

Under ``companion serve`` a stream sends its first event from its request's thread, then hands its
socket to the app's pusher (``companion.web.push``), which writes every stream from one thread;
elsewhere (the test client), or if the hand-over fails, the stream stays on its thread. The broker
caps open streams (``MAX_STREAMS``, 503 beyond it). A stream ends when its client disconnects or
when the broker is closed; its slot is released in either case. The page falls back to polling
``GET /api/matches/<id>`` when the stream drops.
"""

from __future__ import annotations

import json
import re
import threading
import time
from typing import Any, Callable, Iterator

from flask import Blueprint, Response, current_app, request, stream_with_context

from companion.store import matches
from companion.store.db import connect
from companion.web.context import broker, close_db, get_db, rendered
from companion.web.push import DETACH_KEY, Stream
from companion.web.versioned_cache import VersionedCache

bp = Blueprint("events", __name__)

PUBLISHER_IDLE_S = 5.0
_SSE_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # what ends a line in an event stream (not str.splitlines)


class TooManyStreamsError(Exception):
    """Every stream slot is taken."""


class Broker:
    """Wakes event streams when a match changes, and counts the open streams.

    Writers call ``notify`` after each commit; streams wait for the match's *published* tick. A
    change is published once the match has been quiet for ``settle`` seconds, or ``max_delay``
    after its first unpublished change if writes keep coming: a burst of twenty rounds wakes each
    board once, after the burst, instead of waking hundreds of stream threads while the phones'
    POSTs still wait for the interpreter. One thread (started with the first change) publishes.

    One condition variable per match (all sharing one lock): a change wakes only the streams of
    that match, not every open board of the party."""

    def __init__(self, max_streams: int, *, settle: float = 0.0, max_delay: float = 0.0) -> None:
        self.max_streams = max_streams
        self.settle, self.max_delay = settle, max(settle, max_delay)
        self._lock = threading.Lock()
        self._conds: dict[str, threading.Condition] = {}
        self._ticks: dict[str, int] = {}      # published changes per match (what streams wait for)
        self._pending: dict[str, tuple[float, float]] = {}  # match -> (first, last) unpublished change
        self._publisher_wake = threading.Condition(self._lock)
        self._publisher: threading.Thread | None = None
        # called with a match id when its change is published, and with None on close (under the lock:
        # they must only note it); the pusher of handed-over streams listens
        self.listeners: list[Callable[[str | None], None]] = []
        self._open = 0
        self.closed = False
        # the match's version as read once after each tick, shared by the streams woken by that tick:
        # 50 boards of a match woken by one round cost one query, not 50
        self.versions = VersionedCache()

    @property
    def open_streams(self) -> int:
        return self._open

    def _cond(self, match_id: str) -> threading.Condition:
        cond = self._conds.get(match_id)
        if cond is None:
            cond = self._conds[match_id] = threading.Condition(self._lock)
        return cond

    def acquire(self) -> None:
        with self._lock:
            if self._open >= self.max_streams:
                raise TooManyStreamsError
            self._open += 1

    def release(self) -> None:
        with self._lock:
            self._open -= 1

    def tick(self, match_id: str) -> int:
        with self._lock:
            return self._ticks.get(match_id, 0)

    def notify(self, match_id: str) -> None:
        """``match_id`` changed (call after the commit); its streams wake when the change is published."""
        with self._lock:
            if self.settle <= 0:
                self._publish(match_id)
                return
            now = time.monotonic()
            first, _ = self._pending.get(match_id, (now, now))
            self._pending[match_id] = (first, now)
            if self._publisher is None and not self.closed:
                self._publisher = threading.Thread(target=self._publish_settled, name="companion-publisher",
                                                   daemon=True)
                self._publisher.start()
            self._publisher_wake.notify()

    def _publish(self, match_id: str) -> None:
        self._ticks[match_id] = self._ticks.get(match_id, 0) + 1
        self._cond(match_id).notify_all()
        for listener in self.listeners:
            listener(match_id)

    def _publish_settled(self) -> None:
        with self._lock:
            try:
                while not self.closed:
                    now, soonest = time.monotonic(), None
                    for match_id, (first, last) in list(self._pending.items()):
                        due = min(last + self.settle, first + self.max_delay)
                        if due <= now:
                            del self._pending[match_id]
                            self._publish(match_id)
                        elif soonest is None or due < soonest:
                            soonest = due
                    if soonest is None:  # nothing to publish: end after a while (the next change restarts it)
                        self._publisher_wake.wait(PUBLISHER_IDLE_S)
                        if not self._pending:
                            return
                    else:
                        self._publisher_wake.wait(soonest - now)
            finally:
                self._publisher = None

    def wait(self, match_id: str, tick: int, timeout: float) -> None:
        """Return when ``match_id``'s published tick passes ``tick``, the broker closes, or
        ``timeout`` passes."""
        deadline = time.monotonic() + timeout
        with self._lock:
            cond = self._cond(match_id)
            while not self.closed and self._ticks.get(match_id, 0) == tick:
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                cond.wait(left)

    def close(self) -> None:
        """End every stream (server shutdown)."""
        with self._lock:
            self.closed = True
            for cond in self._conds.values():
                cond.notify_all()
            self._publisher_wake.notify()
            for listener in self.listeners:
                listener(None)

    def drain(self, timeout: float) -> bool:
        """After ``close``: wait up to ``timeout`` seconds for every stream to end; True if they did."""
        deadline = time.monotonic() + timeout
        while self._open > 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        return self._open == 0


class _Held:
    """A stream that holds a broker slot until it is closed, even if it never started."""

    def __init__(self, hub: Broker, chunks: Iterator[str]) -> None:
        self._hub, self._chunks, self._held = hub, chunks, True

    def __iter__(self) -> Iterator[str]:
        return self._chunks

    def hand_over(self) -> None:
        """The slot now belongs to the pusher, which releases it when the stream ends."""
        self._held = False

    def close(self) -> None:
        try:
            self._chunks.close()  # type: ignore[attr-defined]
        finally:
            if self._held:
                self._held = False
                self._hub.release()


def _event(version: int, match: dict) -> bytes:
    return f"id: {version}\nevent: match\ndata: {json.dumps(match, separators=(',', ':'))}\n\n".encode()


def _render_event(conn, match_id: str) -> tuple[int, bytes]:
    match = matches.get_match(conn, match_id)
    return match["version"], _event(match["version"], match)


def _render_live_event(conn, match_id: str) -> tuple[int, bytes]:
    from companion.web.pages import render_live

    version, html = render_live(conn, match_id)
    data = "\n".join(f"data: {line}" for line in _SSE_LINE_BREAK.split(html))  # the browser joins them with \n
    return version, f"id: {version}\nevent: live\n{data}\n\n".encode()


@bp.get("/api/matches/<match_id>/events")
def match_events(match_id: str):
    return _stream(match_id, "match-event", _render_event)


@bp.get("/m/<match_id>/live/events")
def board_events(match_id: str):
    """The board page's stream: each change arrives as the rendered live part (``event: live``), so
    200 boards cost one render per change instead of 200 fetches of ``/m/<id>/live``."""
    return _stream(match_id, "live-event", _render_live_event, keep_request_context=True)  # url_for needs it


def _stream(match_id: str, kind: str, render: Callable[[Any, str], tuple[int, str]], *,
            keep_request_context: bool = False):
    """An event stream of ``render(conn, match_id)`` at each new version, rendered once per version and
    shared under the cache key ``(kind, match_id)``."""
    matches.match_version(get_db(), match_id)  # 404 before taking a slot
    close_db()  # the stream reads through its own connection; a kept request context would hold this one
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
    cache = rendered()
    detach = request.environ.get(DETACH_KEY)  # under companion serve: hand the stream to the pusher
    app, base_url = current_app._get_current_object(), request.url_root

    def render_elsewhere(conn) -> tuple[int, bytes]:  # in the pusher's thread, outside this request
        with app.test_request_context(base_url=base_url):
            return render(conn, match_id)

    def take(sock, chunked: bool) -> None:
        held.hand_over()
        app.extensions["companion.pusher"].take(Stream(kind, match_id, sent, render_elsewhere, hub.release),
                                                sock, chunked)

    def stream() -> Iterator[bytes]:
        nonlocal sent, detach
        conn = None
        try:
            conn = connect(database)
            yield f"retry: {retry}\n\n".encode()
            last_write = last_read = time.monotonic()
            tick = hub.tick(match_id)
            version = matches.match_version(conn, match_id)
            while not hub.closed:
                if sent is None or version > sent:
                    # events are bytes, encoded once per version: nothing is encoded per viewer
                    sent, event = cache.get((kind, match_id), version, lambda: render(conn, match_id))
                    yield event
                    last_write = time.monotonic()
                    if detach is not None and detach(take):  # this thread is free again
                        return
                    detach = None  # could not be handed over: stay on this thread
                elif time.monotonic() - last_write >= keepalive:
                    yield b": keepalive\n\n"
                    last_write = time.monotonic()
                else:
                    hub.wait(match_id, tick, min(poll, keepalive))
                seen = hub.tick(match_id)
                if seen != tick:  # a writer of this process committed: one stream reads the version
                    tick = seen
                    version = hub.versions.get(match_id, tick, lambda: (seen, matches.match_version(conn, match_id)))[1]
                elif time.monotonic() - last_read >= poll:  # another process may have written
                    version = max(version, matches.match_version(conn, match_id))
                else:
                    continue
                last_read = time.monotonic()
        finally:
            if conn is not None:
                conn.close()

    sent: int | None = None
    chunks = stream_with_context(stream()) if keep_request_context else stream()
    held = _Held(hub, chunks)
    response = Response(held, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
