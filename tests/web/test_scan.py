"""POST /api/scan: one `companion scan --json` object per upload, and its error statuses."""

from __future__ import annotations

import io

import pytest

synth = pytest.importorskip("companion.synth")
pytest.importorskip("companion.scanner")


@pytest.fixture(scope="module")
def photo():
    data, label = synth.render_photo(3, kind="hand", size=(800, 600))
    return data, label


def test_scan_answers_the_scan_object(client, photo):
    data, label = photo
    response = client.post("/api/scan", data={"photo": (io.BytesIO(data), "hand.jpg")},
                           content_type="multipart/form-data")
    assert response.status_code == 200, response.json
    body = response.json
    assert body["file"] == "hand.jpg" and (body["width"], body["height"]) == (800, 600)
    assert set(body) >= {"tiles", "pip_total", "warnings"}
    for tile in body["tiles"]:
        assert len(tile["pips"]) == 2 and len(tile["corners"]) == 4 and 0 <= tile["confidence"] <= 1
    assert body["pip_total"] == sum(sum(t["pips"]) for t in body["tiles"])
    from calibration import load_profile
    from companion.scanner import scan_photo
    assert body == scan_photo(data, profile=load_profile(None), name="hand.jpg")  # the CLI's object


def test_scan_accepts_a_profile_and_refuses_an_unknown_one(client, photo):
    data, _ = photo
    ok = client.post("/api/scan", data={"photo": (io.BytesIO(data), "a.jpg"), "profile": "giant-wood"},
                     content_type="multipart/form-data")
    assert ok.status_code == 200
    bad = client.post("/api/scan", data={"photo": (io.BytesIO(data), "a.jpg"), "profile": "plastic"},
                      content_type="multipart/form-data")
    assert bad.status_code == 400 and "plastic" in bad.json["error"]


def test_scan_refuses_what_is_not_a_photo(client):
    response = client.post("/api/scan", data={"photo": (io.BytesIO(b"hello, not a jpeg"), "notes.jpg")},
                           content_type="multipart/form-data")
    assert response.status_code == 422
    assert response.json["error"] and response.json["file"] == "notes.jpg"
    empty = client.post("/api/scan", data={"photo": (io.BytesIO(b""), "empty.jpg")},
                        content_type="multipart/form-data")
    assert empty.status_code == 422 and "empty" in empty.json["error"]


def test_scan_needs_the_photo_field(client):
    response = client.post("/api/scan", data={"picture": (io.BytesIO(b"x"), "a.jpg")},
                           content_type="multipart/form-data")
    assert response.status_code == 400 and "'photo'" in response.json["error"]


def test_scan_refuses_uploads_over_the_limit_with_413(app, client):
    app.config["MAX_CONTENT_LENGTH"] = 1024
    response = client.post("/api/scan", data={"photo": (io.BytesIO(b"\xff" * 5000), "big.jpg")},
                           content_type="multipart/form-data")
    assert response.status_code == 413 and "too large" in response.json["error"]


def test_photos_beyond_the_reading_slots_wait_then_get_503(app, client, photo):
    app.config["SCAN_WAIT_S"] = 0.05
    gate = app.extensions["companion.scan_gate"]
    taken = 0
    while gate.acquire(blocking=False):  # every slot busy reading someone else's photo
        taken += 1
    try:
        response = client.post("/api/scan", data={"photo": (io.BytesIO(photo[0]), "a.jpg")},
                               content_type="multipart/form-data")
        assert response.status_code == 503 and "busy" in response.json["error"]
    finally:
        for _ in range(taken):
            gate.release()
    assert taken == app.config["SCAN_CONCURRENCY"]
