"""Opt-in timing of every request, to see where a POST's time goes under load.

Off unless ``companion serve`` runs with ``COMPANION_TIMING_LOG=PATH`` in its environment; then one
JSON line per request is appended to ``PATH``:

``{"method", "path", "key", "status", "queued", "handler", "cpu", "lock_wait", "txn", "commit"}``
(``key``: the request's ``Idempotency-Key`` or null, so a client can pair its own times with these;
the rest in seconds)

- ``queued``: from the request being read completely (waitress's parser) to a server thread starting it;
- ``handler``: the WSGI call, from that start to its answer being built (the body of a stream not
  included: a stream's line is written when its first chunk is ready);
- ``cpu``: the thread's own CPU time during ``handler`` (``handler - cpu`` is waiting: for the
  interpreter lock, the writer lock, the disk);
- ``lock_wait``, ``txn``, ``commit``: summed over the request's database writes
  (``companion.store.db.write``): waiting for the in-process writer lock, the transaction's body
  from ``BEGIN IMMEDIATE``, and ``COMMIT`` itself (with ``synchronous=FULL``, the fsync).

Entry point: ``instrument(server, path)``, called by ``companion.web.server.serve``. It changes the
waitress server's channel class (to stamp when a request is complete) and wraps its WSGI app.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from waitress.parser import HTTPRequestParser

from companion.store import db
from companion.web.push import DetachingChannel, DetachingTask

RECEIVED_KEY = "companion.received_at"


class _StampedParser(HTTPRequestParser):
    received_at: float | None = None

    def received(self, data: bytes) -> int:
        consumed = super().received(data)
        if self.completed and self.received_at is None:
            self.received_at = time.perf_counter()
        return consumed


class _StampedTask(DetachingTask):
    def get_environment(self) -> dict[str, Any]:
        environ = super().get_environment()
        environ[RECEIVED_KEY] = getattr(self.request, "received_at", None)
        return environ


class _StampedChannel(DetachingChannel):
    parser_class = _StampedParser
    task_class = _StampedTask


class _Timed:
    """WSGI middleware writing one line per request to ``log`` (a file opened for appending)."""

    def __init__(self, app, log) -> None:
        self.app, self.log = app, log
        self._lock = threading.Lock()

    def __call__(self, environ, start_response):
        start, cpu_start = time.perf_counter(), time.thread_time()
        db.timing.spans = spans = {"lock_wait": 0.0, "txn": 0.0, "commit": 0.0}
        status = []

        def start_and_note(code, headers, exc_info=None):
            status.append(int(code.split()[0]))
            return start_response(code, headers, exc_info)
        try:
            return self.app(environ, start_and_note)
        finally:
            db.timing.spans = None
            received = environ.get(RECEIVED_KEY)
            line = {"method": environ.get("REQUEST_METHOD"), "path": environ.get("PATH_INFO"),
                    "key": environ.get("HTTP_IDEMPOTENCY_KEY"),
                    "status": status[0] if status else None,
                    "queued": None if received is None else round(start - received, 6),
                    "handler": round(time.perf_counter() - start, 6),
                    "cpu": round(time.thread_time() - cpu_start, 6),
                    **{k: round(v, 6) for k, v in spans.items()}}
            with self._lock:
                self.log.write(json.dumps(line) + "\n")
                self.log.flush()


def instrument(server, path: str) -> None:
    """Time every request ``server`` (a waitress server from ``make_server``) answers, into ``path``."""
    server.channel_class = _StampedChannel
    server.application = _Timed(server.application, open(path, "a", buffering=1))
