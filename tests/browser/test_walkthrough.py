"""A party's evening in a real browser: create a match, photograph each hand, correct a tile,
submit, watch a second screen update without a reload, undo; and the board at TV and phone size."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 860}


def _photo(tmp_path, seed: int):
    """A generated photo of a hand (companion.synth), or a plain drawn one when synth is absent."""
    path = tmp_path / f"hand-{seed}.jpg"
    try:
        from companion.synth import render_photo
        data, _ = render_photo(seed, kind="hand", size=(960, 720))
    except ImportError:
        import cv2
        import numpy as np
        image = np.full((480, 640, 3), (60, 120, 60), np.uint8)
        data = cv2.imencode(".jpg", image)[1].tobytes()
    path.write_bytes(data)
    return path


def _create_match(page, server, players, rules="block"):
    page.goto(server + "/")
    inputs = page.locator("input[name=player]")
    for i, name in enumerate(players):
        inputs.nth(i).fill(name)
    page.select_option("select[name=rules]", rules)
    page.click("button[type=submit]")
    page.wait_for_url("**/m/*")
    return page.url.rsplit("/", 1)[1]


def _score(page, name):
    return int(page.locator(f'.card[data-player="{name}"] .score').get_attribute("data-score"))


def _scan(page, player, photo):
    hand = page.locator(f'section.hand[data-player="{player}"]')
    hand.locator(".photo-input").set_input_files(str(photo))
    page.locator(f'section.hand[data-player="{player}"][data-scan="done"],'
                 f' section.hand[data-player="{player}"][data-scan="failed"]').wait_for(timeout=60_000)
    return hand


def test_round_from_photos_updates_another_screen_and_undo(browser, server, tmp_path, shot):
    host = browser.new_context(viewport=LAPTOP)
    viewer = browser.new_context(viewport=TV)
    page = host.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    match_id = _create_match(page, server, ["Ann", "Bob"])
    assert page.locator("#score-round").is_visible()  # the host's browser holds the token

    tv = viewer.new_page()
    tv.on("pageerror", lambda exc: errors.append(str(exc)))
    tv.goto(f"{server}/m/{match_id}")
    assert not tv.locator("#score-round").is_visible()  # viewers cannot change the match
    tv.locator('#conn[data-state="live"]').wait_for(timeout=10_000)

    page.click("#score-round")
    page.wait_for_url(f"**/m/{match_id}/round")
    with page.expect_response("**/api/scan") as response:
        ann = _scan(page, "Ann", _photo(tmp_path, 3))
    bob = _scan(page, "Bob", _photo(tmp_path, 5))
    assert ann.locator(".reading img").is_visible()
    if ann.get_attribute("data-scan") == "done":  # the reading is drawn over the photo, one outline a tile
        assert ann.locator(".overlay polygon").count() == ann.locator(".chip").count()
        assert "Read " in ann.locator(".scan-text").inner_text()
        # the tiles read with doubt are marked, on the photo and among the chips, until a tap confirms them
        doubt = float(page.locator("#round").get_attribute("data-doubt"))
        unsure = [t for t in response.value.json()["tiles"] if t["confidence"] < doubt]
        assert ann.locator(".chip.unsure").count() == ann.locator(".tile-mark.unsure").count() == len(unsure)

    # correct a tile by tapping it (or add one if the photo gave none)
    chips = ann.locator(".chip")
    if chips.count():
        chips.first.click()
    else:
        ann.locator(".add-tile").click()
    dialog = page.locator("#tile-dialog")
    dialog.locator('.td-half[data-half="0"] button[value="6"]').click()
    dialog.locator('.td-half[data-half="1"] button[value="4"]').click()
    dialog.locator(".td-ok").click()
    assert ann.locator(".chip").first.get_attribute("data-tile") == "6-4"
    assert "edited" in ann.locator(".chip").first.get_attribute("class")
    # keep the corrected tile and the others read from the photo, minus any duplicate or impossible reading
    while ann.locator(".chip.dup").count() > 1 or ann.locator(".chip.bad").count():
        ann.locator(".chip.bad, .chip.dup").last.click()
        dialog.locator(".td-remove").click()
    bob.locator(".went-out").click()  # Bob played his last tile
    tiles = [c.get_attribute("data-tile") for c in ann.locator(".chip").all()]
    pips = sum(int(a) + int(b) for a, b in (t.split("-") for t in tiles))
    assert ann.locator(".typed-hand").input_value() == ",".join(tiles)

    page.click("#submit-round")
    page.wait_for_url(f"**/m/{match_id}")
    # the TV follows without a reload
    tv.locator(f'.card[data-player="Bob"] .score[data-score="{pips}"]').wait_for(timeout=5_000)
    assert "Bob went out" in tv.locator(".explanation").inner_text()
    shot(tv, "walkthrough-tv-after-round")

    # undo from the host's board: two taps
    page.click("#undo-round")
    page.click("#undo-round")
    tv.locator('.card[data-player="Bob"] .score[data-score="0"]').wait_for(timeout=5_000)
    page.locator('.card[data-player="Bob"] .score[data-score="0"]').wait_for(timeout=5_000)
    assert "round 1 undone" in tv.locator(".history").text_content()
    assert errors == []
    host.close()
    viewer.close()


def _api(server, method, path, body=None, token=None):
    request = urllib.request.Request(server + path, method=method,
                                     data=None if body is None else json.dumps(body).encode())
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def test_board_at_tv_and_phone_size(browser, server, shot):
    match = _api(server, "POST", "/api/matches", {"players": ["Grandma Rosa", "Theo", "Mina", "Sam"],
                                                  "rules": "block", "target": 100})
    rounds = [{"Grandma Rosa": "", "Theo": "6-4,3-3", "Mina": "5-1", "Sam": "2-2,6-6"},
              {"Grandma Rosa": "6-5", "Theo": "", "Mina": "4-4,1-0", "Sam": "3-1"},
              {"Grandma Rosa": "2-0", "Theo": "5-5,6-3", "Mina": "", "Sam": "6-2,4-1"},
              {"Grandma Rosa": "", "Theo": "6-6,5-4", "Mina": "3-2", "Sam": "6-1,4-0"}]
    for hands in rounds:
        _api(server, "POST", f"/api/matches/{match['id']}/rounds", {"hands": hands}, match["host_token"])
    for size, name in ((TV, "board-tv"), (PHONE, "board-phone")):
        context = browser.new_context(viewport=size, device_scale_factor=1)
        page = context.new_page()
        page.goto(f"{server}/m/{match['id']}")
        page.locator(".card").first.wait_for()
        # nothing spills sideways: the page is as wide as the screen
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        # the scores are big enough to read across a room
        font = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.card .score')).fontSize)")
        assert font >= (120 if size is TV else 48)
        shot(page, name)
        if size is TV:  # the whole board fits the TV without scrolling
            assert page.evaluate("document.documentElement.scrollHeight") <= size["height"]
        context.close()


def _host_page(browser, server, match, viewport=LAPTOP):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(server + "/")
    page.evaluate("([id, token]) => localStorage.setItem(`companion.host.${id}`, token)",
                  [match["id"], match["host_token"]])
    return context, page


def test_board_falls_back_to_polling_when_the_stream_is_blocked(browser, server):
    match = _api(server, "POST", "/api/matches", {"players": ["Ann", "Bob"], "rules": "block"})
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.route("**/events", lambda route: route.abort())  # a proxy that drops event streams
    page.goto(f"{server}/m/{match['id']}")
    page.locator('#conn[data-state="polling"]').wait_for(timeout=10_000)
    _api(server, "POST", f"/api/matches/{match['id']}/rounds", {"hands": {"Ann": "3-2", "Bob": ""}},
         match["host_token"])
    page.locator('.card[data-player="Bob"] .score[data-score="5"]').wait_for(timeout=10_000)
    context.close()


def test_host_corrects_an_earlier_round(browser, server):
    match = _api(server, "POST", "/api/matches", {"players": ["Ann", "Bob"], "rules": "block"})
    _api(server, "POST", f"/api/matches/{match['id']}/rounds", {"hands": {"Ann": "6-4", "Bob": ""}},
         match["host_token"])
    context, page = _host_page(browser, server, match)
    page.goto(f"{server}/m/{match['id']}")
    page.locator("details.history summary").click()
    page.locator(".round-edits a", has_text="1").click()
    page.wait_for_url("**/round?edit=1")
    ann = page.locator('section.hand[data-player="Ann"]')
    assert ann.locator(".chip").first.get_attribute("data-tile") == "6-4"  # prefilled from the round
    ann.locator(".chip").first.click()
    page.locator('#tile-dialog .td-half[data-half="1"] button[value="5"]').click()
    page.locator("#tile-dialog .td-ok").click()
    page.click("#submit-round")
    page.wait_for_url(f"**/m/{match['id']}")
    page.locator('.card[data-player="Bob"] .score[data-score="11"]').wait_for(timeout=5_000)
    assert "(edited)" in page.locator(".history").text_content()
    context.close()


def test_webcam_capture_is_scanned(browser, server):
    match = _api(server, "POST", "/api/matches", {"players": ["Ann", "Bob"], "rules": "block"})
    context, page = _host_page(browser, server, match)
    context.grant_permissions(["camera"], origin=server)
    page.goto(f"{server}/m/{match['id']}/round")
    ann = page.locator('section.hand[data-player="Ann"]')
    ann.locator(".webcam-button").click()
    ann.locator(".webcam video").wait_for(timeout=10_000)
    page.wait_for_function("document.querySelector('.webcam video').videoWidth > 0", timeout=10_000)
    ann.locator(".snap").click()
    page.locator('section.hand[data-player="Ann"][data-scan="done"],'
                 ' section.hand[data-player="Ann"][data-scan="failed"]').wait_for(timeout=60_000)
    assert ann.locator(".webcam").is_hidden()  # the camera is released after the shot
    assert ann.locator(".scan-text").inner_text()  # the reading (or why not) is shown
    context.close()


def test_viewer_cannot_score_a_round(browser, server):
    match = _api(server, "POST", "/api/matches", {"players": ["Ann", "Bob"], "rules": "block"})
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{server}/m/{match['id']}/round")
    assert page.locator(".not-host").is_visible()
    page.locator('section.hand[data-player="Bob"] .went-out').click()
    page.locator('section.hand[data-player="Ann"] .typed-hand').fill("6-4")
    page.locator('section.hand[data-player="Ann"] .typed-hand').press("Tab")
    page.click("#submit-round")
    page.locator(".form-error").wait_for()
    assert "token" in page.locator(".form-error").inner_text()
    assert _api(server, "GET", f"/api/matches/{match['id']}")["rounds"] == []
    context.close()


def test_host_link_makes_another_device_a_host(browser, server):
    match = _api(server, "POST", "/api/matches", {"players": ["Ann", "Bob"], "rules": "block"})
    context, page = _host_page(browser, server, match)
    page.goto(f"{server}/m/{match['id']}")
    page.click("#host-phone")
    page.locator("#host-link-dialog[open]").wait_for(timeout=5_000)
    url = page.locator("#host-link-dialog .host-url").inner_text()
    assert page.locator("#host-link-dialog .host-qr").is_visible()
    phone = browser.new_context(viewport=PHONE)
    phone_page = phone.new_page()
    phone_page.goto(url)
    assert phone_page.locator("#score-round").is_visible()
    assert "#host=" not in phone_page.url  # the key leaves the address bar at once
    phone.close()
    context.close()


def test_rematch_moves_every_board_to_the_next_match(browser, server):
    match = _api(server, "POST", "/api/matches", {"players": ["Ann", "Bob"], "rules": "block", "target": 10})
    _api(server, "POST", f"/api/matches/{match['id']}/rounds", {"hands": {"Ann": "6-5", "Bob": ""}},
         match["host_token"])
    tv_context = browser.new_context(viewport=TV)
    tv = tv_context.new_page()
    tv.goto(f"{server}/m/{match['id']}")
    assert "Bob wins the match" in tv.locator(".winner-banner").inner_text()
    assert not tv.locator(".rematch").is_visible()  # only the host can start the next match
    context, page = _host_page(browser, server, match)
    page.goto(f"{server}/m/{match['id']}")
    page.click(".rematch")
    page.wait_for_url(lambda url: match["id"] not in url)
    new_id = page.url.rsplit("/", 1)[1]
    assert page.locator("#score-round").is_visible()  # the host holds the new match's key
    tv.wait_for_url(f"**/m/{new_id}", timeout=15_000)  # the TV followed by itself
    assert _score(tv, "Bob") == 0
    context.close()
    tv_context.close()


def test_a_reading_the_set_cannot_hold_is_flagged_and_must_be_corrected(browser, server):
    """A misread photo (a 7, the same tile twice) never reaches the score: the host is told which tile to tap."""
    match = _api(server, "POST", "/api/matches", {"players": ["Ann", "Bob"], "rules": "block"})
    context, page = _host_page(browser, server, match)
    corners = [[10, 10], [60, 10], [60, 110], [10, 110]]
    misread = {"file": "hand.jpg", "width": 400, "height": 300, "pip_total": 24, "warnings": [],
               "tiles": [{"pips": [7, 7], "corners": corners, "confidence": 0.3},
                         {"pips": [5, 5], "corners": [[x + 100, y] for x, y in corners], "confidence": 0.9}]}
    page.route("**/api/scan", lambda route: route.fulfill(status=200, content_type="application/json",
                                                          body=json.dumps(misread)))
    page.goto(f"{server}/m/{match['id']}/round")
    ann = _scan(page, "Ann", Path(__file__))  # any file: the reading above stands in for the server's
    assert ann.locator(".chip.bad").count() == 1 and ann.locator(".overlay .tile-mark.bad").count() == 1
    page.locator('section.hand[data-player="Bob"] .typed-hand').fill("5-5")
    page.locator('section.hand[data-player="Bob"] .typed-hand').dispatch_event("change")

    page.click("#submit-round")
    error = page.locator("#round-form .form-error")
    assert "Ann's tile 7-7 is not in a double-six set" in error.inner_text()
    ann.locator(".chip.bad").click()
    page.locator("#tile-dialog .td-remove").click()
    page.click("#submit-round")
    assert "5-5 is read twice (Ann and Bob)" in error.inner_text()
    assert _api(server, "GET", f"/api/matches/{match['id']}")["rounds"] == []  # nothing was sent
    context.close()
