"""Nobody but the host changes a match: the token on every change route, forged cross-site requests
refused, and nothing secret or internal in any answer."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

SAMPLE_ROUND = {"hands": {"Ann": "6-4", "Bob": ""}}


def _change_routes(app, match_id: str) -> list[tuple[str, str]]:
    """Every route that changes one match (found in the URL map, so a new one cannot be forgotten)."""
    routes = []
    for rule in app.url_map.iter_rules():
        if "match_id" not in rule.arguments:
            continue
        for method in sorted(rule.methods - {"GET", "HEAD", "OPTIONS"}):
            routes.append((method, rule.rule.replace("<match_id>", match_id).replace("<n>", "1")))
    return routes


def test_every_change_route_needs_the_right_host_token(app, client, new_match):
    match_id, auth = new_match(rules="all-fives")
    assert client.post(f"/api/matches/{match_id}/rounds", json=SAMPLE_ROUND, headers=auth).status_code == 201
    other_id, other_auth = new_match()
    routes = _change_routes(app, match_id)
    assert len(routes) >= 6
    before = client.get(f"/api/matches/{match_id}").json
    token = auth["Authorization"].removeprefix("Bearer ")
    one_off = token[:-1] + ("A" if token[-1] != "A" else "B")
    for method, path in routes:
        for headers, status in (({}, 401), (other_auth, 403), ({"Authorization": "Bearer " + "x" * 32}, 403),
                                ({"Authorization": f"Bearer {one_off}"}, 403), ({"Authorization": token}, 401)):
            response = client.open(path, method=method, json=SAMPLE_ROUND, headers=headers)
            assert response.status_code == status, (method, path, headers)
            assert set(response.json) == {"error"}
    after = client.get(f"/api/matches/{match_id}").json
    assert after["version"] == before["version"] and after["rounds"] == before["rounds"]


@pytest.mark.parametrize("headers", [
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    {"Origin": "http://evil.example"},
    {"Origin": "null"},
    {"Origin": "http://localhost:9999"},
])
def test_changes_forged_by_another_site_are_refused(client, new_match, headers):
    match_id, auth = new_match()
    refused = [
        client.post("/api/matches", json={"players": ["Ann", "Bob"], "rules": "block"}, headers=headers),
        client.post(f"/api/matches/{match_id}/rounds", json=SAMPLE_ROUND, headers={**auth, **headers}),
        client.delete(f"/api/matches/{match_id}/rounds/1", headers={**auth, **headers}),
        client.post("/verify", data={"photo": (io.BytesIO(b"x"), "a.jpg")}, content_type="multipart/form-data",
                    headers=headers),
    ]
    for response in refused:
        assert response.status_code == 403 and "own pages" in response.json["error"]
    assert client.get(f"/api/matches/{match_id}").json["rounds"] == []
    assert client.get(f"/api/matches/{match_id}", headers=headers).status_code == 200  # reading is fine


@pytest.mark.parametrize("headers", [
    {"Sec-Fetch-Site": "same-origin"},
    {"Sec-Fetch-Site": "none"},
    {"Origin": "http://localhost"},
    {},  # a script or curl: no browser, no forgery
])
def test_companions_own_pages_and_scripts_may_change(client, new_match, headers):
    match_id, auth = new_match()
    response = client.post(f"/api/matches/{match_id}/rounds", json=SAMPLE_ROUND, headers={**auth, **headers})
    assert response.status_code == 201


def test_the_host_token_is_shown_once_and_never_stored_or_served(app, client, new_match):
    response = client.post("/api/matches", json={"players": ["Ann", "Bob"], "rules": "block"})
    token, match_id = response.json["host_token"], response.json["id"]
    auth = {"Authorization": f"Bearer {token}"}
    client.post(f"/api/matches/{match_id}/rounds", json=SAMPLE_ROUND, headers=auth)
    for path in ("/", f"/m/{match_id}", f"/m/{match_id}/live", f"/m/{match_id}/round", f"/api/matches/{match_id}",
                 "/api/matches"):
        assert token not in client.get(path).text, path
    stream = client.get(f"/api/matches/{match_id}/events", buffered=False)
    sent = ""
    for chunk in stream.response:
        sent += chunk.decode() if isinstance(chunk, bytes) else chunk
        if "event: match" in sent:
            break
    stream.close()
    assert match_id in sent and token not in sent
    for suffix in ("", "-wal"):  # the database and its write-ahead log, if one is left
        stored = Path(app.config["DATABASE"] + suffix)
        assert not stored.exists() or token.encode() not in stored.read_bytes()
    assert app.config.get("SECRET_KEY") is None  # no sessions or cookies: no server secret to leak
