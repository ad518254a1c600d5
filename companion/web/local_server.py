"""``companion serve`` in a child process on a free port of 127.0.0.1: what the tests over real HTTP and
the benchmarks (``benchmarks/dashboard_live.py``, ``benchmarks/bad_photos.py``) start.

Entry points: ``LocalServer(db, *, env=None, stderr=None)`` starts the server with its database at
``db`` and returns once it answers ``GET /api/presets`` (``ServerStartError`` if it does not within
``START_TIMEOUT_S``, the child then stopped); ``stop()`` (also on leaving a ``with`` block) sends it
Ctrl-C, as a person would, and kills it if it has not ended after ``STOP_TIMEOUT_S``. ``free_port()``.

The child runs this interpreter (``sys.executable -m companion``) from the repository's root, so it
serves the code being tested. Only 127.0.0.1 is used.
"""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Mapping

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
START_TIMEOUT_S = 20.0
STOP_TIMEOUT_S = 10.0


class ServerStartError(RuntimeError):
    """The child server did not answer in time (or ended at once)."""


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _answers(port: int) -> bool:
    conn = http.client.HTTPConnection(HOST, port, timeout=2)
    try:
        conn.request("GET", "/api/presets")
        return conn.getresponse().status == 200
    except (OSError, http.client.HTTPException):
        return False
    finally:
        conn.close()


class LocalServer:
    """``companion serve --host 127.0.0.1 --port <free> --db DB`` in a child process, ready to use.

    ``env``: extra environment variables for the child; ``stderr``: where its log goes (a file; the
    default discards it: a pipe nobody reads would stall the server once full)."""

    def __init__(self, db: str | Path, *, env: Mapping[str, str] | None = None,
                 stderr: IO | int | None = None) -> None:
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--host", HOST, "--port", str(self.port), "--db", str(db)],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL if stderr is None else stderr,
            env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})
        deadline = time.monotonic() + START_TIMEOUT_S
        while not _answers(self.port):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise ServerStartError(f"companion serve did not answer on port {self.port}"
                                       f" (exit status {self.process.returncode})")
            time.sleep(0.05)

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        """Ctrl-C, then wait (a kill after ``STOP_TIMEOUT_S``). Safe to call twice."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> "LocalServer":
        return self

    def __exit__(self, *_exc) -> None:
        self.stop()
