"""Fuzzing the party's inputs (hypothesis): any JSON body to any endpoint that takes one, and any bytes
as a photo, get an answer or a clear error, never a 500 or another exception."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.photo import PhotoError, load_photo
from companion.web import create_app

NAMES = st.sampled_from(["Ann", "Bob", "Cy", "<b>x</b>", "", " ", "Ann ", "\u202e", "a" * 40])
HANDS = st.one_of(st.sampled_from(["", "6-4", "6-4,3-3", "4-6", "7-1", "0-0,0-0", "x", "6-4,,", "-1-2"]),
                  st.text(max_size=12))
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=True),
                    st.text(max_size=8))
ANY_JSON = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                         st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                        max_leaves=12)
# bodies shaped like the real ones, with any field wrong, plus anything at all
MATCH_BODIES = st.one_of(ANY_JSON, st.fixed_dictionaries(
    {"players": st.one_of(st.lists(NAMES, max_size=5), ANY_JSON),
     "rules": st.one_of(st.sampled_from(["block", "all-fives", "star", "solitaire", "nope"]), ANY_JSON)},
    optional={"target": st.one_of(st.integers(-5, 20_000), ANY_JSON), "profile": ANY_JSON}))
ROUND_BODIES = st.one_of(ANY_JSON, st.fixed_dictionaries(
    {"hands": st.one_of(st.dictionaries(NAMES, HANDS, max_size=3), ANY_JSON)},
    optional={"boneyard": st.one_of(HANDS, ANY_JSON), "table": st.one_of(HANDS, ANY_JSON),
              "play_points": st.one_of(st.dictionaries(NAMES, st.integers(-10, 2000), max_size=2), ANY_JSON),
              "extra": ANY_JSON}))
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def party(tmp_path_factory):
    app = create_app({"DATABASE": str(tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite3"), "TESTING": True})
    client = app.test_client()
    made = client.post("/api/matches", json={"players": ["Ann", "Bob"], "rules": "all-fives", "target": 10_000})
    return client, made.json["id"], {"Authorization": f"Bearer {made.json['host_token']}"}


def _answered(response, *allowed: int) -> None:
    assert response.status_code in allowed, (response.status_code, response.get_data(as_text=True)[:300])
    body = response.get_json()
    assert isinstance(body, dict)
    if response.status_code >= 400:
        assert set(body) >= {"error"} and isinstance(body["error"], str) and body["error"]
        assert "Traceback" not in body["error"]


def _send(client, method, path, body, headers=None):
    try:
        data = json.dumps(body, allow_nan=True)
    except (ValueError, OverflowError):
        data = "{"
    return client.open(path, method=method, data=data, content_type="application/json", headers=headers or {})


@FUZZ
@given(MATCH_BODIES)
def test_any_body_to_create_a_match(party, body):
    client, _, _ = party
    _answered(_send(client, "POST", "/api/matches", body), 201, 400)


@FUZZ
@given(ROUND_BODIES, st.sampled_from(["POST", "PUT"]))
def test_any_body_to_add_or_edit_a_round(party, body, method):
    client, match_id, auth = party
    path = f"/api/matches/{match_id}/rounds" + ("/1" if method == "PUT" else "")
    _answered(_send(client, method, path, body, auth), 200, 201, 400, 404, 409)


@FUZZ
@given(st.one_of(ANY_JSON, st.fixed_dictionaries({"player": NAMES, "points": st.one_of(st.integers(), ANY_JSON)})))
def test_any_body_to_play_points(party, body):
    client, match_id, auth = party
    _answered(_send(client, "POST", f"/api/matches/{match_id}/play-points", body, auth), 200, 400, 409)


@FUZZ
@given(ANY_JSON, st.sampled_from(["/api/rules/check-play", "/api/rules/could-play", "/api/rules/ends"]))
def test_any_body_to_the_rules_questions(party, body, path):
    client, _, _ = party
    _answered(_send(client, "POST", path, body), 200, 400)


@FUZZ
@given(st.binary(max_size=300), st.sampled_from(["/api/scan", "/api/verify"]))
def test_any_bytes_as_a_photo_upload(party, data, path):
    client, _, _ = party
    response = client.post(path, data={"photo": (io.BytesIO(data), "x.jpg")}, content_type="multipart/form-data")
    _answered(response, 200, 422)


def _real_photos() -> list[bytes]:
    from PIL import Image

    out = []
    for fmt in ("JPEG", "PNG", "GIF", "BMP", "TIFF", "WEBP"):
        buf = io.BytesIO()
        Image.new("RGB", (40, 30), (200, 120, 40)).save(buf, fmt)
        out.append(buf.getvalue())
    return out


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_real_photos()), st.data())
def test_a_damaged_photo_loads_or_raises_a_photo_error(photo, data):
    cut = data.draw(st.integers(0, len(photo)))
    flips = data.draw(st.lists(st.tuples(st.integers(0, len(photo) - 1), st.integers(0, 255)), max_size=4))
    damaged = bytearray(photo[:cut] if data.draw(st.booleans()) else photo)
    for at, value in flips:
        if at < len(damaged):
            damaged[at] = value
    try:
        image = load_photo(bytes(damaged))
    except PhotoError:
        return
    assert image.ndim == 3 and image.shape[2] == 3 and image.dtype.name == "uint8"
