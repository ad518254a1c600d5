"""The pages: home, board (TV and phone), live fragment, round entry; escaping; nothing from the internet."""

from __future__ import annotations

import re
from pathlib import Path

import companion.web

WEB = Path(companion.web.__file__).parent


def test_home_lists_matches_and_offers_presets(client, new_match):
    match_id, _ = new_match(("Ann", "Bob"))
    page = client.get("/").get_data(as_text=True)
    assert f'href="/m/{match_id}"' in page
    assert 'value="block"' in page and 'value="all-fives"' in page and 'value="giant-wood"' in page


def test_board_shows_scores_chart_qr_and_explanation(client, new_match):
    match_id, auth = new_match(("Ann", "Bob"))
    client.post(f"/api/matches/{match_id}/rounds", json={"hands": {"Ann": "6-4,3-3", "Bob": ""}}, headers=auth)
    page = client.get(f"/m/{match_id}").get_data(as_text=True)
    assert 'data-score="16"' in page
    assert '<svg class="race wide"' in page and '<svg class="race narrow"' in page and "<polyline" in page and "target 100" in page
    assert 'class="segno"' in page  # the QR code, inline
    assert f"http://localhost/m/{match_id}" in page
    assert "Bob went out" in page
    assert "round 1: Bob +16" in page  # the history of changes


def test_names_are_escaped_everywhere(client, new_match):
    evil = "<b>x</b>"
    match_id, auth = new_match((evil, "Bob"))
    client.post(f"/api/matches/{match_id}/rounds", json={"hands": {evil: "", "Bob": "2-1"}}, headers=auth)
    for url in ("/", f"/m/{match_id}", f"/m/{match_id}/live", f"/m/{match_id}/round"):
        page = client.get(url).get_data(as_text=True)
        assert evil not in page, url
        assert "&lt;b&gt;x&lt;/b&gt;" in page, url


def test_live_fragment_carries_the_version(client, new_match):
    match_id, auth = new_match()
    before = client.get(f"/m/{match_id}/live").get_data(as_text=True)
    client.post(f"/api/matches/{match_id}/rounds", json={"hands": {"Ann": "6-4", "Bob": ""}}, headers=auth)
    after = client.get(f"/m/{match_id}/live").get_data(as_text=True)
    version = lambda html: int(re.search(r'id="live" data-version="(\d+)"', html).group(1))  # noqa: E731
    assert version(after) > version(before)
    assert 'data-rounds="1"' in after


def test_round_page_has_camera_inputs_and_typed_hands(client, new_match):
    match_id, _ = new_match(("Ann", "Bob", "Cy"))
    page = client.get(f"/m/{match_id}/round").get_data(as_text=True)
    assert page.count('accept="image/*" capture="environment"') == 3
    assert page.count("webcam-button") == 3 and page.count("typed-hand") == 3


def test_round_page_for_all_fives_has_play_point_buttons(client, new_match):
    match_id, _ = new_match(rules="all-fives")
    page = client.get(f"/m/{match_id}/round").get_data(as_text=True)
    assert 'data-points="10"' in page
    block_id, _ = new_match()
    assert 'data-points="10"' not in client.get(f"/m/{block_id}/round").get_data(as_text=True)


def test_edit_page_is_prefilled(client, new_match):
    match_id, auth = new_match()
    client.post(f"/api/matches/{match_id}/rounds", json={"hands": {"Ann": "6-4,3-3", "Bob": ""}}, headers=auth)
    page = client.get(f"/m/{match_id}/round?edit=1").get_data(as_text=True)
    assert 'data-initial="6-4,3-3"' in page and "Correct round 1" in page


def test_unknown_match_page_is_a_404_page(client):
    response = client.get("/m/nosuch")
    assert response.status_code == 404 and "No match" in response.get_data(as_text=True)


def test_qr_uses_the_lan_address_when_opened_on_the_server(app, client, new_match):
    app.config["LAN_HOST"] = "192.168.1.20"
    match_id, _ = new_match()
    page = client.get(f"/m/{match_id}", base_url="http://127.0.0.1:5000").get_data(as_text=True)
    assert f"http://192.168.1.20:5000/m/{match_id}" in page
    page = client.get(f"/m/{match_id}", base_url="http://10.0.0.5:5000").get_data(as_text=True)
    assert f"http://10.0.0.5:5000/m/{match_id}" in page


def test_static_files_are_served_and_nothing_comes_from_the_internet(client):
    for name in ("app.css", "common.js", "board.js", "round.js", "home.js", "favicon.svg"):
        assert client.get(f"/static/{name}").status_code == 200
    for path in list((WEB / "templates").iterdir()) + list((WEB / "static").iterdir()):
        text = path.read_text()
        urls = re.findall(r"https?://[^\s\"'`)]+", text)
        assert all(u.startswith("http://www.w3.org/") for u in urls), (path.name, urls)


def test_chart_draws_a_line_per_player_and_the_target():
    from companion.web.chart import race_svg
    svg = str(race_svg({"Ann": [0, 10, 30], "Bob": [0, 25, 25], "<i>": [0, 0, 5]}, 100))
    assert svg.count("<polyline") == 3
    assert "target 100" in svg and "&lt;i&gt;" in svg and "<i>" not in svg


def test_all_fives_points_during_play_show_on_the_board_at_once(client, new_match):
    match_id, auth = new_match(rules="all-fives")
    client.post(f"/api/matches/{match_id}/play-points", json={"player": "Bob", "points": 15}, headers=auth)
    live = client.get(f"/m/{match_id}/live").get_data(as_text=True)
    assert 'data-score="15"' in live and "+15 this round" in live


def test_chart_labels_never_overlap_or_leave_the_picture():
    from companion.web.chart import NARROW_HEIGHT, race_svg
    svg = str(race_svg({"A": [0], "B": [0], "C": [0], "D": [0]}, 100, narrow=True))
    ys = sorted(float(v) for v in re.findall(r'class="(?:end-label|target-label)"[^>]*y="([\d.]+)"', svg))
    assert len(ys) == 5
    assert all(b - a >= 30 - 1e-6 for a, b in zip(ys, ys[1:]))
    assert ys[-1] <= NARROW_HEIGHT - 4  # the lowest baseline stays inside the picture


def test_board_warns_when_phones_cannot_reach_the_join_address(app, client, new_match):
    match_id, _ = new_match()
    local = client.get(f"/m/{match_id}", base_url="http://127.0.0.1:5000").get_data(as_text=True)
    assert "--host 0.0.0.0" in local
    lan = client.get(f"/m/{match_id}", base_url="http://192.168.1.20:5000").get_data(as_text=True)
    assert "--host 0.0.0.0" not in lan
