"""The pusher: one thread writes every handed-over event stream (keepalives, new versions, chunked
framing), notices a closed board and gives its slot back; and over real HTTP, streams handed over by
``companion serve`` reach HTTP/1.0 and HTTP/1.1 clients and end cleanly on Ctrl-C."""

from __future__ import annotations

import signal
import socket
import time

from live_server import request_json

from companion.store import db, matches
from companion.web.events import Broker
from companion.web.push import Pusher, Stream
from companion.web.versioned_cache import VersionedCache

ROUND = {"hands": {"Ann": "1-0", "Bob": ""}}


def _read_until(sock: socket.socket, marker: bytes, timeout: float = 5.0) -> bytes:
    sock.settimeout(timeout)
    data = b""
    deadline = time.monotonic() + timeout
    while marker not in data:
        assert time.monotonic() < deadline, f"{marker!r} never came; got {data[-200:]!r}"
        chunk = sock.recv(65536)
        assert chunk, f"the stream ended before {marker!r}; got {data[-200:]!r}"
        data += chunk
    return data


def test_the_pusher_sends_keepalives_and_new_versions_and_frees_a_closed_boards_slot(tmp_path):
    path = str(tmp_path / "p.sqlite3")
    conn = db.connect(path)
    match, _ = matches.create_match(conn, {"players": ["Ann", "Bob"], "rules": "block"})
    hub = Broker(10)
    pusher = Pusher(hub, VersionedCache(), path, keepalive=0.1, poll=5.0)

    def render(c):
        version = matches.match_version(c, match["id"])
        return version, f"id: {version}\nevent: match\ndata: x\n\n".encode()
    ours, board = socket.socketpair()
    hub.acquire()
    pusher.take(Stream("match-event", match["id"], matches.match_version(conn, match["id"]), render, hub.release),
                ours, chunked=True)
    try:
        got = _read_until(board, b": keepalive")  # nothing new: keepalives only
        assert b"event: match" not in got
        matches.add_round(conn, match["id"], ROUND)
        hub.notify(match["id"])
        version = matches.match_version(conn, match["id"])
        event = f"id: {version}\nevent: match\ndata: x\n\n".encode()
        got = _read_until(board, event)
        assert b"%X\r\n%s\r\n" % (len(event), event) in got  # framed as a chunk of HTTP/1.1
        assert hub.open_streams == 1
        board.close()
        deadline = time.monotonic() + 5
        while hub.open_streams and time.monotonic() < deadline:
            time.sleep(0.02)
        assert hub.open_streams == 0 and pusher.open_streams == 0
    finally:
        hub.close()


def _open_board(port: int, match_id: str, version: str = "1.0") -> socket.socket:
    board = socket.create_connection(("127.0.0.1", port), timeout=10)
    board.sendall(f"GET /m/{match_id}/live/events HTTP/{version}\r\nHost: 127.0.0.1\r\n\r\n".encode())
    return board


def test_served_streams_reach_http_1_0_and_1_1_boards_and_closed_boards_free_their_slots(start_server):
    server = start_server()
    status, match = request_json(server.port, "POST", "/api/matches",
                                 {"players": ["Ann", "Bob"], "rules": "block", "target": 10_000})
    assert status == 201
    auth = {"Authorization": f"Bearer {match['host_token']}"}
    old, new = _open_board(server.port, match["id"], "1.0"), _open_board(server.port, match["id"], "1.1")
    first_old, first_new = _read_until(old, b"event: live"), _read_until(new, b"event: live")
    assert b"Transfer-Encoding: chunked" in first_new and b"chunked" not in first_old
    status, _ = request_json(server.port, "POST", f"/api/matches/{match['id']}/rounds", ROUND, auth)
    assert status == 201
    _, latest = request_json(server.port, "GET", f"/api/matches/{match['id']}")
    for board in (old, new):
        _read_until(board, f"id: {latest['version']}\n".encode())
        board.close()
    # the cap is 256 open streams: 300 boards opened and closed in turn would be refused if closed
    # boards kept their slots
    for _ in range(30):
        boards = [_open_board(server.port, match["id"]) for _ in range(10)]
        for board in boards:
            try:
                status_line = _read_until(board, b"\r\n")
            except ConnectionResetError:
                # seen once in CI on a loaded machine (cause not found): a browser's EventSource opens the
                # stream again, and so does this board; a refusal for want of a slot is a 503, not a reset
                board.close()
                board = _open_board(server.port, match["id"])
                status_line = _read_until(board, b"\r\n")
            assert b" 200 " in status_line
            board.close()
        time.sleep(0.05)


def test_ctrl_c_ends_handed_over_streams_and_the_server(start_server):
    server = start_server()
    status, match = request_json(server.port, "POST", "/api/matches",
                                 {"players": ["Ann", "Bob"], "rules": "block"})
    boards = [_open_board(server.port, match["id"], "1.1") for _ in range(3)]
    for board in boards:
        _read_until(board, b"event: live")
    server.process.send_signal(signal.SIGINT)
    assert server.process.wait(timeout=10) == 0
    for board in boards:
        rest = b""
        while chunk := board.recv(65536):
            rest += chunk
        assert rest.endswith(b"0\r\n\r\n")  # each chunked response was ended, not cut
        board.close()


def test_a_match_that_cannot_be_rendered_does_not_stop_the_other_matches_streams(tmp_path):
    path = str(tmp_path / "p.sqlite3")
    conn = db.connect(path)
    broken, _ = matches.create_match(conn, {"players": ["Ann", "Bob"], "rules": "block"})
    fine, _ = matches.create_match(conn, {"players": ["Cy", "Di"], "rules": "block"})
    hub = Broker(10)
    pusher = Pusher(hub, VersionedCache(), path, keepalive=30.0, poll=30.0)

    def fails(c):
        raise RuntimeError("template broke")

    def renders(c):
        version = matches.match_version(c, fine["id"])
        return version, f"id: {version}\n\n".encode()
    boards = []
    for match, render in ((broken, fails), (fine, renders)):
        ours, board = socket.socketpair()
        hub.acquire()
        pusher.take(Stream("k", match["id"], matches.match_version(conn, match["id"]), render, hub.release),
                    ours, chunked=False)
        boards.append(board)
    try:
        for match, hands in ((broken, {"Ann": "1-0", "Bob": ""}), (fine, {"Cy": "1-0", "Di": ""})):
            matches.add_round(conn, match["id"], {"hands": hands})
            hub.notify(match["id"])
        _read_until(boards[1], f"id: {matches.match_version(conn, fine['id'])}\n".encode())
        assert pusher.open_streams == 2  # the broken match's board stays open (it gets the next version)
    finally:
        hub.close()
        for board in boards:
            board.close()
