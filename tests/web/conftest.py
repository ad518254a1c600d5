"""Fixtures for the dashboard tests: a fresh app and temporary database per test, and a helper
that creates a match and returns its id and the host's Authorization header."""

from __future__ import annotations

import pytest

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
