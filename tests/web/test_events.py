"""The live event stream: the match at once, again on each change, keepalives, the cap."""

from __future__ import annotations

import json
import threading
import time


def _events(response):
    """Yield (event, data) pairs from an SSE response, skipping the retry line and comments."""
    buffer = ""
    for chunk in response.response:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and not line.startswith(":"))
            if block.startswith(":"):
                yield "comment", block
            elif "event" in fields:
                yield fields["event"], fields
            elif block.startswith("retry"):
                yield "retry", block


def test_stream_sends_the_match_at_once_then_each_change(app, client, new_match):
    match_id, auth = new_match()
    response = client.get(f"/api/matches/{match_id}/events", buffered=False)
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-cache"
    events = _events(response)
    assert next(events)[0] == "retry"
    kind, first = next(events)
    assert kind == "match" and json.loads(first["data"])["id"] == match_id

    def later():
        time.sleep(0.1)
        client.post(f"/api/matches/{match_id}/rounds", json={"hands": {"Ann": "6-4", "Bob": ""}}, headers=auth)
    threading.Thread(target=later).start()
    kind, second = next(e for e in events if e[0] == "match")
    assert int(second["id"]) > int(first["id"])
    assert json.loads(second["data"])["players"][1]["score"] == 10
    response.close()
    assert app.extensions["companion.broker"].open_streams == 0


def test_idle_stream_sends_keepalive_comments(client, new_match):
    match_id, _ = new_match()
    response = client.get(f"/api/matches/{match_id}/events", buffered=False)
    kinds = []
    for kind, _ in _events(response):
        kinds.append(kind)
        if kind == "comment":
            break
    response.close()
    assert kinds[-1] == "comment" and "match" in kinds


def test_streams_are_capped(app, client, new_match):
    match_id, _ = new_match()
    app.extensions["companion.broker"].max_streams = 2
    open_ = [client.get(f"/api/matches/{match_id}/events", buffered=False) for _ in range(2)]
    refused = client.get(f"/api/matches/{match_id}/events")
    assert refused.status_code == 503 and "error" in refused.json
    for response in open_:
        response.close()
    again = client.get(f"/api/matches/{match_id}/events", buffered=False)
    assert again.status_code == 200
    again.close()
    assert app.extensions["companion.broker"].open_streams == 0


def test_unknown_match_stream_is_404(client):
    assert client.get("/api/matches/nosuch/events").status_code == 404


def test_closing_the_broker_ends_streams(app, client, new_match):
    match_id, _ = new_match()
    response = client.get(f"/api/matches/{match_id}/events", buffered=False)
    events = _events(response)
    next(events)
    app.extensions["companion.broker"].close()
    rest = list(events)  # ends instead of waiting forever
    assert all(kind in ("match", "comment", "retry") for kind, _ in rest)
    response.close()


def _board_events(response):
    """Yield (id, html) of each ``live`` event, joining its data lines as a browser does."""
    buffer = ""
    for chunk in response.response:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            lines = block.split("\n")
            if "event: live" in lines:
                event_id = next(line[4:] for line in lines if line.startswith("id: "))
                yield int(event_id), "\n".join(line[6:] for line in lines if line.startswith("data: "))


def test_board_stream_carries_the_rendered_live_part_escaped(client, new_match):
    match_id, auth = new_match(players=("<script>x()</script>", "Bob"))
    response = client.get(f"/m/{match_id}/live/events", buffered=False)
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    events = _board_events(response)
    version, html = next(events)
    assert html == client.get(f"/m/{match_id}/live").text  # the same fragment the board fetches when polling
    assert f'data-version="{version}"' in html
    assert "<script>x" not in html and "&lt;script&gt;x()&lt;/script&gt;" in html
    hands = {"<script>x()</script>": "6-4", "Bob": ""}
    assert client.post(f"/api/matches/{match_id}/rounds", json={"hands": hands}, headers=auth).status_code == 201
    later, html = next(events)
    assert later > version and f'data-version="{later}"' in html
    response.close()


def test_many_viewers_of_one_change_cost_one_render(app, client, new_match):
    match_id, auth = new_match()
    cache = app.extensions["companion.rendered"]
    streams = [client.get(f"/api/matches/{match_id}/events", buffered=False) for _ in range(6)]
    readers = [_events(response) for response in streams]
    firsts = [next(e for e in events if e[0] == "match") for events in readers]
    assert len({first["id"] for _, first in firsts}) == 1 and cache.renders == 1
    client.post(f"/api/matches/{match_id}/rounds", json={"hands": {"Ann": "6-4", "Bob": ""}}, headers=auth)
    seconds = [next(e for e in events if e[0] == "match") for events in readers]
    assert all(int(s["id"]) > int(firsts[0][1]["id"]) for _, s in seconds)
    assert cache.renders == 2  # one per version, not one per viewer
    for response in streams:
        response.close()


def test_a_burst_of_changes_is_published_once_after_it_and_steady_changes_every_max_delay():
    from companion.web.events import Broker

    hub = Broker(10, settle=0.05, max_delay=0.3)
    for _ in range(5):  # five rounds within a few milliseconds
        hub.notify("m1")
    assert hub.tick("m1") == 0  # not yet: the burst may go on
    start = time.monotonic()
    hub.wait("m1", 0, 2.0)
    assert hub.tick("m1") == 1 and 0.03 < time.monotonic() - start < 1.0  # one wake for the five
    time.sleep(0.1)
    assert hub.tick("m1") == 1

    published = []
    start = time.monotonic()
    while time.monotonic() - start < 0.8:  # a change every 20 ms never settles...
        hub.notify("m1")
        time.sleep(0.02)
        if not published or published[-1][0] != hub.tick("m1"):
            published.append((hub.tick("m1"), time.monotonic() - start))
    ticks = [t for t, _ in published if t > 1]
    assert 2 <= len(ticks) <= 4  # ...so it is published every 0.3 s, not 40 times and not never
    hub.close()


def test_without_settling_a_change_is_published_at_once():
    from companion.web.events import Broker

    hub = Broker(10)
    hub.notify("m1")
    assert hub.tick("m1") == 1
