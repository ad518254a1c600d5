"""The HTTP API of CONTRACTS.md, row by row, with its error statuses."""

from __future__ import annotations

import pytest


def test_create_match_answers_201_with_id_token_and_the_match(client):
    response = client.post("/api/matches", json={"players": ["Ann", "Bob"], "rules": "block", "target": 50})
    assert response.status_code == 201
    body = response.json
    assert body["id"] and len(body["host_token"]) >= 30
    assert body["rules"] == "block" and body["target"] == 50 and body["winner"] is None
    assert body["players"] == [{"name": "Ann", "score": 0}, {"name": "Bob", "score": 0}]
    assert body["rounds"] == []


def test_target_defaults_to_100(client):
    body = client.post("/api/matches", json={"players": ["Ann", "Bob"], "rules": "block"}).json
    assert body["target"] == 100


@pytest.mark.parametrize("body, words", [
    ({"players": ["Ann"], "rules": "block"}, "players"),
    ({"players": ["A", "B", "C", "D", "E"], "rules": "block"}, "players"),
    ({"players": ["Ann", "ann"], "rules": "block"}, "twice"),
    ({"players": ["Ann", ""], "rules": "block"}, "name"),
    ({"players": ["Ann", "Bob"], "rules": "chess"}, "'chess'"),
    ({"players": ["Ann", "Bob"], "rules": "solitaire"}, "one-player"),
    ({"players": ["Ann", "Bob"], "rules": "block", "target": 0}, "target"),
    ({"players": ["Ann", "Bob"], "rules": "block", "target": "100"}, "target"),
    ({"players": ["Ann", "Bob"], "rules": "block", "profile": "plastic"}, "'plastic'"),
    ({"players": ["Ann", "Bob"], "rules": "block", "colour": "red"}, "colour"),
    (["Ann", "Bob"], "object"),
])
def test_create_match_refuses_bad_input_with_400_naming_it(client, body, words):
    response = client.post("/api/matches", json=body)
    assert response.status_code == 400
    assert words in response.json["error"]


def test_json_endpoints_refuse_other_content_types_and_broken_json(client):
    form = client.post("/api/matches", data={"players": "Ann"})
    assert form.status_code == 415 and "JSON" in form.json["error"]
    broken = client.post("/api/matches", data="{nope", content_type="application/json")
    assert broken.status_code == 400 and "not valid JSON" in broken.json["error"]


def test_get_match_and_unknown_match(client, new_match):
    match_id, _ = new_match()
    assert client.get(f"/api/matches/{match_id}").json["id"] == match_id
    missing = client.get("/api/matches/nosuchmatch")
    assert missing.status_code == 404 and "'nosuchmatch'" in missing.json["error"]


def test_host_token_is_never_shown_to_viewers(client, new_match):
    match_id, auth = new_match()
    token = auth["Authorization"].split()[1]
    assert token not in client.get(f"/api/matches/{match_id}").get_data(as_text=True)
    assert token not in client.get(f"/m/{match_id}").get_data(as_text=True)
    assert token not in client.get("/api/matches").get_data(as_text=True)


def test_round_is_scored_by_the_preset_and_standings_follow(client, new_match):
    match_id, auth = new_match()
    response = client.post(f"/api/matches/{match_id}/rounds", headers=auth,
                           json={"hands": {"Ann": "6-4,3-3", "Bob": ""}})
    assert response.status_code == 201
    body = response.json
    assert body["n"] == 1 and body["winner"] == "Bob" and body["how"] == "domino"
    assert body["points"] == 16 and body["hands"]["Ann"] == {"tiles": [[6, 4], [3, 3]], "pips": 16}
    assert "Bob went out" in body["explanation"]
    assert body["standings"] == [{"name": "Ann", "score": 0}, {"name": "Bob", "score": 16}]
    match = client.get(f"/api/matches/{match_id}").json
    assert match["players"][1] == {"name": "Bob", "score": 16}
    assert [r["n"] for r in match["rounds"]] == [1]
    assert {"rules", "winner", "points", "how", "hands", "explanation"} <= set(match["rounds"][0])


def test_changes_need_the_host_token(client, new_match):
    match_id, auth = new_match()
    round_body = {"hands": {"Ann": "6-4", "Bob": ""}}
    missing = client.post(f"/api/matches/{match_id}/rounds", json=round_body)
    assert missing.status_code == 401 and "token" in missing.json["error"]
    wrong = client.post(f"/api/matches/{match_id}/rounds", json=round_body,
                        headers={"Authorization": "Bearer not-the-token"})
    assert wrong.status_code == 403
    other_id, other_auth = new_match(("Cy", "Di"))
    assert client.post(f"/api/matches/{match_id}/rounds", json=round_body, headers=other_auth).status_code == 403
    assert client.delete(f"/api/matches/{match_id}/rounds/1").status_code == 401
    assert client.get(f"/api/matches/{match_id}").json["rounds"] == []


def test_a_cookie_is_not_a_token(client, new_match):
    match_id, auth = new_match()
    client.set_cookie("host_token", auth["Authorization"].split()[1])
    response = client.post(f"/api/matches/{match_id}/rounds", json={"hands": {"Ann": "6-4", "Bob": ""}})
    assert response.status_code == 401


@pytest.mark.parametrize("body, words", [
    ({"hands": {"Ann": "6-7", "Bob": ""}}, "'6-7'"),
    ({"hands": {"Ann": "6-4,4-6", "Bob": ""}}, "6-4"),
    ({"hands": {"Ann": "6-4", "Bob": "4-6"}}, "6-4"),
    ({"hands": {"Ann": "6-4"}}, "'Bob'"),
    ({"hands": {"Ann": "6-4", "Bob": "", "Zed": ""}}, "'Zed'"),
    ({"hands": {"Ann": "", "Bob": ""}}, "empty"),
    ({"hands": {"Ann": 64, "Bob": ""}}, "64"),
    ({"hands": "Ann=6-4"}, "hands"),
    ({"hands": {"Ann": "6-4", "Bob": ""}, "play_points": {"Ann": 10}}, "play"),
])
def test_bad_rounds_answer_400_naming_the_input(client, new_match, body, words):
    match_id, auth = new_match()
    response = client.post(f"/api/matches/{match_id}/rounds", json=body, headers=auth)
    assert response.status_code == 400, response.json
    assert words in response.json["error"]
    assert client.get(f"/api/matches/{match_id}").json["rounds"] == []


def test_rounds_on_unknown_match_answer_404(client, new_match):
    _, auth = new_match()
    response = client.post("/api/matches/nosuch/rounds", json={"hands": {}}, headers=auth)
    assert response.status_code == 404


def test_idempotency_key_records_a_round_once(client, new_match):
    match_id, auth = new_match()
    headers = {**auth, "Idempotency-Key": "round-1-abc"}
    body = {"hands": {"Ann": "6-4,3-3", "Bob": ""}}
    first = client.post(f"/api/matches/{match_id}/rounds", json=body, headers=headers)
    again = client.post(f"/api/matches/{match_id}/rounds", json=body, headers=headers)
    assert first.status_code == again.status_code == 201
    assert first.json == again.json
    assert len(client.get(f"/api/matches/{match_id}").json["rounds"]) == 1
    other = client.post(f"/api/matches/{match_id}/rounds", json={"hands": {"Ann": "", "Bob": "1-1"}},
                        headers=headers)
    assert other.status_code == 409 and "round-1-abc" in other.json["error"]


def test_reaching_the_target_wins_and_later_rounds_are_refused(client, new_match):
    match_id, auth = new_match(target=20)
    url = f"/api/matches/{match_id}/rounds"
    client.post(url, json={"hands": {"Ann": "6-4", "Bob": ""}}, headers=auth)  # Bob 10
    last = client.post(url, json={"hands": {"Ann": "6-5,2-1", "Bob": ""}}, headers=auth)  # Bob 24
    assert last.json["match_winner"] == "Bob"
    assert client.get(f"/api/matches/{match_id}").json["winner"] == "Bob"
    refused = client.post(url, json={"hands": {"Ann": "", "Bob": "1-0"}}, headers=auth)
    assert refused.status_code == 409 and "Bob" in refused.json["error"]


def test_a_tie_at_the_top_past_the_target_means_another_round(client, new_match):
    match_id, auth = new_match(rules="all-fives", target=20)
    url = f"/api/matches/{match_id}/rounds"
    tied = client.post(url, json={"hands": {"Ann": "", "Bob": "5-5"}, "play_points": {"Ann": 15, "Bob": 25}},
                       headers=auth).json
    assert tied["standings"] == [{"name": "Ann", "score": 25}, {"name": "Bob", "score": 25}]
    assert tied["match_winner"] is None
    decided = client.post(url, json={"hands": {"Ann": "", "Bob": "3-2"}}, headers=auth)
    assert decided.status_code == 201 and decided.json["match_winner"] == "Ann"


def test_undo_round_recomputes_standings_and_reopens_a_won_match(client, new_match):
    match_id, auth = new_match(target=20)
    url = f"/api/matches/{match_id}/rounds"
    client.post(url, json={"hands": {"Ann": "6-4", "Bob": ""}}, headers=auth)
    client.post(url, json={"hands": {"Ann": "6-5,2-1", "Bob": ""}}, headers=auth)
    undone = client.delete(f"{url}/2", headers=auth)
    assert undone.status_code == 200
    assert undone.json["winner"] is None
    assert undone.json["players"] == [{"name": "Ann", "score": 0}, {"name": "Bob", "score": 10}]
    assert [h["kind"] for h in undone.json["history"]][-1] == "round undone"
    assert client.post(url, json={"hands": {"Ann": "", "Bob": "1-0"}}, headers=auth).status_code == 201


def test_undo_errors(client, new_match):
    match_id, auth = new_match()
    assert client.delete(f"/api/matches/{match_id}/rounds/1", headers=auth).status_code == 404
    assert client.delete(f"/api/matches/{match_id}/rounds/x", headers=auth).status_code == 404
    assert client.delete("/api/matches/nosuch/rounds/1", headers=auth).status_code == 404
    client.post(f"/api/matches/{match_id}/rounds", json={"hands": {"Ann": "6-4", "Bob": ""}}, headers=auth)
    assert client.delete(f"/api/matches/{match_id}/rounds/1",
                         headers={"Authorization": "Bearer wrong"}).status_code == 403


def test_undo_an_earlier_round_renumbers_the_later_ones(client, new_match):
    match_id, auth = new_match()
    url = f"/api/matches/{match_id}/rounds"
    for ann in ("6-4", "1-0", "2-2"):
        client.post(url, json={"hands": {"Ann": ann, "Bob": ""}}, headers=auth)
    match = client.delete(f"{url}/1", headers=auth).json
    assert [r["n"] for r in match["rounds"]] == [1, 2]
    assert [r["points"] for r in match["rounds"]] == [1, 4]
    assert match["players"][1]["score"] == 5


def test_edit_round_rescores_and_keeps_the_history(client, new_match):
    match_id, auth = new_match()
    url = f"/api/matches/{match_id}/rounds"
    client.post(url, json={"hands": {"Ann": "6-4", "Bob": ""}}, headers=auth)
    client.post(url, json={"hands": {"Ann": "", "Bob": "1-1"}}, headers=auth)
    edited = client.put(f"{url}/1", json={"hands": {"Ann": "6-5", "Bob": ""}}, headers=auth)
    assert edited.status_code == 200 and edited.json["points"] == 11
    match = client.get(f"/api/matches/{match_id}").json
    assert match["players"] == [{"name": "Ann", "score": 2}, {"name": "Bob", "score": 11}]
    kinds = [h["kind"] for h in match["history"]]
    assert kinds == ["created", "round added", "round added", "round edited"]
    assert match["history"][-1]["before"]["hands"]["Ann"] == "6-4"
    assert client.put(f"{url}/1", json={"hands": {"Ann": "6-5", "Bob": ""}}).status_code == 401
    assert client.put(f"{url}/9", json={"hands": {"Ann": "6-5", "Bob": ""}}, headers=auth).status_code == 404


def test_an_edit_that_would_end_the_match_early_is_a_conflict(client, new_match):
    match_id, auth = new_match(target=20)
    url = f"/api/matches/{match_id}/rounds"
    client.post(url, json={"hands": {"Ann": "1-0", "Bob": ""}}, headers=auth)
    client.post(url, json={"hands": {"Ann": "1-1", "Bob": ""}}, headers=auth)
    response = client.put(f"{url}/1", json={"hands": {"Ann": "6-6,6-5", "Bob": ""}}, headers=auth)
    assert response.status_code == 409 and "round 1" in response.json["error"]


def test_all_fives_play_points_are_added_as_they_happen(client, new_match):
    match_id, auth = new_match(rules="all-fives")
    points_url = f"/api/matches/{match_id}/play-points"
    live = client.post(points_url, json={"player": "Ann", "points": 10}, headers=auth)
    assert live.status_code == 200 and live.json["pending_play"] == {"Ann": 10}
    client.post(points_url, json={"player": "Ann", "points": 5}, headers=auth)
    rnd = client.post(f"/api/matches/{match_id}/rounds", json={"hands": {"Ann": "", "Bob": "6-2"}},
                      headers=auth).json
    assert rnd["play_points"] == {"Ann": 15}
    assert rnd["scores"]["Ann"] == 15 + 10  # play points plus 8 pips rounded to 10
    match = client.get(f"/api/matches/{match_id}").json
    assert match["pending_play"] == {} and match["players"][0]["score"] == 25


def test_play_points_given_with_the_round(client, new_match):
    match_id, auth = new_match(rules="all-fives")
    body = {"hands": {"Ann": "", "Bob": "6-2"}, "play_points": {"Bob": 20}}
    rnd = client.post(f"/api/matches/{match_id}/rounds", json=body, headers=auth).json
    assert rnd["scores"] == {"Ann": 10, "Bob": 20}


def test_play_points_refused_where_the_preset_has_none(client, new_match):
    match_id, auth = new_match()
    response = client.post(f"/api/matches/{match_id}/play-points", json={"player": "Ann", "points": 5},
                           headers=auth)
    assert response.status_code == 409
    assert client.post(f"/api/matches/{match_id}/play-points", json={"player": "Ann", "points": 5}).status_code == 401


def test_unknown_routes_and_methods_answer_json(client):
    assert client.get("/api/nothing").json == {"error": client.get("/api/nothing").json["error"]}
    assert client.get("/api/nothing").status_code == 404
    assert client.put("/api/matches").status_code == 405


def test_internal_errors_never_show_a_stack_trace(app, client, new_match, monkeypatch):
    match_id, _ = new_match()
    from companion.store import matches

    def explode(*args, **kwargs):
        raise RuntimeError("secret detail")
    monkeypatch.setattr(matches, "get_match", explode)
    response = client.get(f"/api/matches/{match_id}")
    assert response.status_code == 500
    assert response.json == {"error": "internal error"}


def test_presets_and_matches_lists(client, new_match):
    presets = client.get("/api/presets").json
    names = [p["name"] for p in presets["presets"]]
    assert "block" in names and "all-fives" in names and "solitaire" not in names
    assert presets["profiles"][0] == "giant-wood"
    first, _ = new_match()
    second, _ = new_match(("Cy", "Di"))
    listed = [m["id"] for m in client.get("/api/matches").json["matches"]]
    assert set(listed) >= {first, second}


def test_host_link_carries_the_key_in_the_fragment_only_for_the_host(client, new_match):
    match_id, auth = new_match()
    token = auth["Authorization"].split()[1]
    link = client.post(f"/api/matches/{match_id}/host-link", headers=auth)
    assert link.status_code == 200
    assert link.json["url"].endswith(f"/m/{match_id}#host={token}")
    assert link.json["qr"].startswith("data:image/svg+xml")
    assert client.post(f"/api/matches/{match_id}/host-link").status_code == 401


def test_a_database_locked_too_long_answers_503(client, new_match, monkeypatch):
    import sqlite3

    from companion.store import matches
    match_id, auth = new_match()

    def locked(*args, **kwargs):
        raise sqlite3.OperationalError("database is locked")
    monkeypatch.setattr(matches, "add_round", locked)
    response = client.post(f"/api/matches/{match_id}/rounds", json={"hands": {"Ann": "6-4", "Bob": ""}},
                           headers=auth)
    assert response.status_code == 503 and response.headers["Retry-After"]


def test_rematch_starts_the_next_match_and_the_old_one_points_to_it(client, new_match):
    match_id, auth = new_match(("Ann", "Bob", "Cy"), target=5)
    client.post(f"/api/matches/{match_id}/rounds", json={"hands": {"Ann": "6-4", "Bob": "", "Cy": "1-0"}},
                headers=auth)
    assert client.post(f"/api/matches/{match_id}/rematch").status_code == 401
    response = client.post(f"/api/matches/{match_id}/rematch", headers=auth)
    assert response.status_code == 201
    new = response.json
    assert new["id"] != match_id and new["host_token"] and new["target"] == 5
    assert [p["name"] for p in new["players"]] == ["Ann", "Bob", "Cy"] and new["rounds"] == []
    assert client.get(f"/api/matches/{match_id}").json["next_match"] == new["id"]
    assert client.post(f"/api/matches/{match_id}/rematch", headers=auth).status_code == 409
    new_auth = {"Authorization": f"Bearer {new['host_token']}"}
    assert client.post(f"/api/matches/{new['id']}/rounds", json={"hands": {"Ann": "", "Bob": "1-1", "Cy": "2-0"}},
                       headers=auth).status_code == 403  # each match has its own key
    assert client.post(f"/api/matches/{new['id']}/rounds", json={"hands": {"Ann": "", "Bob": "1-1", "Cy": "2-0"}},
                       headers=new_auth).status_code == 201
