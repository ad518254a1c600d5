"""The real ``companion serve`` in a child process on a free port of 127.0.0.1, and a JSON request helper
(for tests over real HTTP; the ``start_server`` fixture in ``conftest.py`` stops what it starts)."""

from __future__ import annotations

import http.client
import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request_json(port: int, method: str, path: str, body=None, headers=None) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, None if body is None else json.dumps(body),
                     {"Content-Type": "application/json", **(headers or {})})
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        conn.close()


class Server:
    """`companion serve` on a free port of 127.0.0.1 with the given database."""

    def __init__(self, db: Path) -> None:
        self.port = _free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--port", str(self.port), "--db", str(db)],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            try:
                if request_json(self.port, "GET", "/api/presets")[0] == 200:
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise AssertionError("companion serve did not answer")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
