"""Fixtures for the dashboard tests: a fresh app and temporary database per test, a helper that
creates a match and returns its id and the host's Authorization header, and ``start_server``: the
real ``companion serve`` in a child process on a free port (for tests over real HTTP)."""

from __future__ import annotations

from pathlib import Path

import pytest
from live_server import Server

from companion.web import create_app


@pytest.fixture
def app(tmp_path):
    return create_app({"DATABASE": str(tmp_path / "companion.sqlite3"), "TESTING": True,
                       "STREAM_KEEPALIVE_S": 0.2, "STREAM_POLL_S": 0.05})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def new_match(client):
    def make(players=("Ann", "Bob"), rules="block", **extra):
        response = client.post("/api/matches", json={"players": list(players), "rules": rules, **extra})
        assert response.status_code == 201, response.json
        return response.json["id"], {"Authorization": f"Bearer {response.json['host_token']}"}
    return make


@pytest.fixture
def start_server(tmp_path):
    """``start_server(db=..., env=...) -> Server``; every server started is stopped after the test."""
    servers: list[Server] = []

    def start(db: Path = tmp_path / "party.sqlite3", **options) -> Server:
        servers.append(Server(db, **options))
        return servers[-1]
    yield start
    for server in servers:
        server.stop()
