"""Tests over real HTTP: ``Server`` (the real ``companion serve`` in a child process on a free port of
127.0.0.1, ``companion.web.local_server``) and a JSON request helper. The ``start_server`` fixture in
``conftest.py`` stops what it starts."""

from __future__ import annotations

import http.client
import json

from companion.web.local_server import LocalServer as Server

__all__ = ["Server", "request_json"]


def request_json(port: int, method: str, path: str, body=None, headers=None) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, None if body is None else json.dumps(body),
                     {"Content-Type": "application/json", **(headers or {})})
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        conn.close()
