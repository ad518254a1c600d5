"""A party's worst moments against the real server (`companion serve` in a child process, real HTTP):
hundreds of phones posting rounds at once, phones resending, and the laptop dying mid-write."""

from __future__ import annotations

import http.client
import json
import os
import signal
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from live_server import request_json
ROUND = {"hands": {"Ann": "1-0", "Bob": ""}}  # Bob +1: hundreds of rounds stay far from the target


def _new_match(port: int) -> tuple[str, dict]:
    status, match = request_json(port, "POST", "/api/matches", {"players": ["Ann", "Bob"], "rules": "block",
                                                                 "target": 10_000})
    assert status == 201, match
    return match["id"], {"Authorization": f"Bearer {match['host_token']}"}


def test_hundreds_of_phones_at_once_lose_nothing_and_resends_record_once(start_server):
    server = start_server()
    match_id, auth = _new_match(server.port)
    rounds, resent = 300, 100  # the first 100 keys are sent twice at the same moment

    def post(key: str) -> tuple[str, int, dict]:
        status, body = request_json(server.port, "POST", f"/api/matches/{match_id}/rounds", ROUND,
                                    {**auth, "Idempotency-Key": key})
        return key, status, body

    keys = [f"phone-{k}" for k in range(rounds)]
    with ThreadPoolExecutor(max_workers=48) as pool:
        answers = list(pool.map(post, keys + keys[:resent]))
    assert [status for _, status, _ in answers] == [201] * (rounds + resent), \
        [a for a in answers if a[1] != 201][:3]
    number_of = {}
    for key, _, body in answers:
        assert number_of.setdefault(key, body["n"]) == body["n"]  # a resend gets the first answer back
    assert sorted(number_of.values()) == list(range(1, rounds + 1))  # each round once, no gaps

    status, match = request_json(server.port, "GET", f"/api/matches/{match_id}")
    assert status == 200
    assert [r["n"] for r in match["rounds"]] == list(range(1, rounds + 1))
    assert match["players"][1]["score"] == rounds


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_during_a_burst_of_writes_loses_no_acknowledged_round(start_server, tmp_path):
    db = tmp_path / "party.sqlite3"
    server = start_server(db)
    match_id, auth = _new_match(server.port)
    acknowledged: dict[str, int] = {}
    lock = threading.Lock()
    killed = threading.Event()

    def phone(p: int) -> None:
        for k in range(10_000):
            if killed.is_set():
                return
            key = f"phone-{p}-{k}"
            try:
                status, body = request_json(server.port, "POST", f"/api/matches/{match_id}/rounds", ROUND,
                                            {**auth, "Idempotency-Key": key})
            except (OSError, http.client.HTTPException, json.JSONDecodeError):
                return  # the server died under this request: not acknowledged
            if status == 201:
                with lock:
                    acknowledged[key] = body["n"]

    phones = [threading.Thread(target=phone, args=(p,)) for p in range(16)]
    for t in phones:
        t.start()
    deadline = time.monotonic() + 10
    while len(acknowledged) < 60 and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(server.process.pid, signal.SIGKILL)  # the lid closes mid-write: no shutdown code runs
    killed.set()
    server.process.wait()
    for t in phones:
        t.join()
    assert len(acknowledged) >= 60

    raw = sqlite3.connect(db)  # the database opens cleanly and is whole
    assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    numbers = [n for (n,) in raw.execute("SELECT n FROM rounds WHERE match_id = ? ORDER BY n", (match_id,))]
    stored = {key: json.loads(response)["n"] for key, response in
              raw.execute("SELECT key, response FROM idempotency WHERE match_id = ?", (match_id,))}
    raw.close()
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= len(acknowledged)
    assert {key: stored.get(key) for key in acknowledged} == acknowledged  # every acknowledged round, as answered

    again = start_server(db)  # and the party goes on: a phone resending after the crash is not counted twice
    key, n = next(iter(acknowledged.items()))
    status, body = request_json(again.port, "POST", f"/api/matches/{match_id}/rounds", ROUND,
                                {**auth, "Idempotency-Key": key})
    assert (status, body["n"]) == (201, n)
    status, match = request_json(again.port, "GET", f"/api/matches/{match_id}")
    assert status == 200 and len(match["rounds"]) == len(numbers)


def test_two_hundred_boards_stay_open_and_all_see_a_new_round(start_server):
    """The stream cap and the server's threads leave room for a party: 210 boards, and the API answers."""
    import socket

    server = start_server()
    match_id, auth = _new_match(server.port)
    boards = []
    try:
        for _ in range(210):
            board = socket.create_connection(("127.0.0.1", server.port), timeout=20)
            board.sendall(f"GET /m/{match_id}/live/events HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())
            boards.append(board.makefile("rb"))
        for board in boards:
            assert b" 200 " in board.readline()
        start = time.monotonic()
        status, body = request_json(server.port, "POST", f"/api/matches/{match_id}/rounds", ROUND, auth)
        assert status == 201 and time.monotonic() - start < 5
        status, match = request_json(server.port, "GET", f"/api/matches/{match_id}")
        assert status == 200
        for board in boards:  # every board gets the version with the new round
            while not (line := board.readline()).startswith(f"id: {match['version']}".encode()):
                assert line, "a board's stream ended"
    finally:
        for board in boards:
            board.close()
