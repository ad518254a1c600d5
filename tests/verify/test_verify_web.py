"""The settle-it page and its API: POST /api/verify (contract), the page, and the rules questions."""

from __future__ import annotations

import html
import io

import pytest

from companion.verifier import headline
from companion.web import create_app
from companion.web.verify_views import PlacementError, layout_from_verdict, parse_placements


@pytest.fixture()
def client(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "companion.sqlite3"), "TESTING": True})
    return app.test_client()


@pytest.fixture(scope="module")
def layout_jpeg():
    from companion.synth import render_photo

    data, label = render_photo(7003, kind="layout", size=(960, 720), name="table.jpg")
    return data, label


def test_api_verify_answers_one_contract_object(client, layout_jpeg):
    data, _ = layout_jpeg
    response = client.post("/api/verify", data={"photo": (io.BytesIO(data), "table.jpg")},
                           content_type="multipart/form-data")
    assert response.status_code == 200
    body = response.get_json()
    assert list(body) == ["file", "tiles", "junctions", "legal", "warnings"]
    assert body["file"] == "table.jpg"
    for junction in body["junctions"]:
        assert set(junction) == {"tiles", "pips", "ok"}
        assert all(0 <= i < len(body["tiles"]) for i in junction["tiles"])
        assert junction["ok"] == (junction["pips"][0] == junction["pips"][1])
    assert body["legal"] == all(j["ok"] for j in body["junctions"])


def test_api_verify_refuses_what_is_not_a_photo(client):
    response = client.post("/api/verify", data={"photo": (io.BytesIO(b"not a jpeg at all"), "notes.txt")},
                           content_type="multipart/form-data")
    assert response.status_code == 422
    assert response.get_json()["file"] == "notes.txt" and "not an image" in response.get_json()["error"]
    missing = client.post("/api/verify", data={}, content_type="multipart/form-data")
    assert missing.status_code == 400 and "photo" in missing.get_json()["error"]


def test_the_page_shows_the_annotated_photo_and_the_verdict(client, layout_jpeg):
    data, _ = layout_jpeg
    assert b"Check every junction" in client.get("/verify").data
    response = client.post("/verify", data={"photo": (io.BytesIO(data), "table.jpg")},
                           content_type="multipart/form-data")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert 'src="data:image/jpeg;base64,' in page
    assert "Tiles read" in page
    # the verdict line is the one the picture and the command line give
    verdict = client.post("/api/verify", data={"photo": (io.BytesIO(data), "table.jpg")},
                          content_type="multipart/form-data").get_json()
    assert html.escape(headline(verdict)[0]) in page


def test_the_page_explains_an_unreadable_photo_or_an_unknown_set(client, layout_jpeg):
    response = client.post("/verify", data={"photo": (io.BytesIO(b"\x00" * 50), "x.jpg")},
                           content_type="multipart/form-data")
    assert response.status_code == 422
    assert 'class="form-error"' in response.get_data(as_text=True)
    unknown = client.post("/verify", data={"photo": (io.BytesIO(layout_jpeg[0]), "t.jpg"), "profile": "marble"},
                          content_type="multipart/form-data")
    assert unknown.status_code == 400 and "marble" in unknown.get_data(as_text=True)


def test_placements_parse_from_text_and_refuse_nonsense():
    assert parse_placements("6-6\n6-4 on 6-6; 6-2 on 6-6 Right") == [
        ("6-6", None, None), ("6-4", "6-6", None), ("6-2", "6-6", "right")]
    assert parse_placements([{"tile": "5-5"}, "5-1 on 5-5"]) == [("5-5", None, None), ("5-1", "5-5", None)]
    with pytest.raises(PlacementError, match="placement 2 '6-4'"):
        parse_placements("6-6\n6-4")
    with pytest.raises(PlacementError, match="sideways"):
        parse_placements("6-6\n6-4 on 6-6 sideways")


def test_a_play_on_no_matching_end_is_refused_with_the_reason(client):
    body = {"rules": "block", "layout": "6-6\n6-4 on 6-6", "tile": "3-2"}
    response = client.post("/api/rules/check-play", json=body)
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    assert answer["legal"] is False and "3" in answer["reason"]
    ok = client.post("/api/rules/check-play", json=dict(body, tile="4-2")).get_json()
    assert ok["legal"] is True


def test_could_play_says_drawing_was_not_allowed(client):
    body = {"rules": "block", "layout": "6-6\n6-4 on 6-6", "hand": "4-1,2-0"}
    answer = client.post("/api/rules/could-play", json=body).get_json()
    assert answer["legal"] is False and "4-1" in answer["reason"]
    stuck = client.post("/api/rules/could-play", json=dict(body, hand="2-0,3-1")).get_json()
    assert stuck["legal"] is True


def test_rules_questions_name_bad_input(client):
    bad_tile = client.post("/api/rules/check-play", json={"rules": "block", "layout": "6-6", "tile": "9-9"})
    assert bad_tile.status_code == 400 and "9-9" in bad_tile.get_json()["error"]
    bad_preset = client.post("/api/rules/ends", json={"rules": "nope", "layout": "6-6"})
    assert bad_preset.status_code == 400 and "nope" in bad_preset.get_json()["error"]
    not_json = client.post("/api/rules/ends", data="6-6")
    assert not_json.status_code == 400


def test_a_verified_photo_becomes_placements_the_rules_accept(client):
    verdict = {"tiles": [{"pips": [6, 4]}, {"pips": [4, 4]}, {"pips": [4, 1]}],
               "junctions": [{"tiles": [0, 1], "pips": [4, 4], "ok": True},
                             {"tiles": [1, 2], "pips": [4, 4], "ok": True}]}
    lines = layout_from_verdict(verdict)
    assert lines == ["4-4", "6-4 on 4-4", "4-1 on 4-4"]
    answer = client.post("/api/rules/ends", json={"rules": "block", "layout": lines})
    assert answer.status_code == 200, answer.get_json()


def test_a_photographed_spinner_with_four_arms_counts_its_ends(client):
    # 5-5 spinner; arms 5-3, 5-2, 5-1 and 5-0 (as a photo's verify object would give them).
    tiles = [{"pips": [5, 5]}, {"pips": [3, 5]}, {"pips": [5, 2]}, {"pips": [1, 5]}, {"pips": [5, 0]}]
    junctions = [{"tiles": [0, k], "pips": [5, 5], "ok": True} for k in range(1, 5)]
    lines = layout_from_verdict({"tiles": tiles, "junctions": junctions})
    assert lines == ["5-5", "3-5 on 5-5", "5-2 on 5-5", "1-5 on 5-5", "5-0 on 5-5"]
    answer = client.post("/api/rules/ends", json={"rules": "all-fives", "layout": lines})
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["count"] == 3 + 2 + 1 + 0
