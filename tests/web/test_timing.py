"""Opt-in request timing (``COMPANION_TIMING_LOG``): where a round POST's time goes, per request."""

from __future__ import annotations

import json
import threading

from live_server import request_json

from companion.store import db

ROUND = {"hands": {"Ann": "1-0", "Bob": ""}}


def test_a_write_adds_its_lock_wait_transaction_and_commit_to_the_threads_spans(tmp_path):
    conn = db.connect(tmp_path / "t.sqlite3")
    conn.execute("CREATE TABLE t (x)")
    assert getattr(db.timing, "spans", None) is None  # off unless a request turns it on
    db.timing.spans = spans = {"lock_wait": 0.0, "txn": 0.0, "commit": 0.0}
    try:
        conn.writer_lock.acquire()
        threading.Timer(0.05, conn.writer_lock.release).start()  # another writer holds the lock 50 ms
        with db.write(conn):
            conn.execute("INSERT INTO t VALUES (1)")
    finally:
        db.timing.spans = None
    assert spans["lock_wait"] >= 0.04
    assert spans["txn"] > 0 and spans["commit"] > 0
    assert [tuple(row) for row in conn.execute("SELECT x FROM t")] == [(1,)]


def test_the_server_logs_one_line_per_request_with_its_queue_and_database_times(start_server, tmp_path):
    log = tmp_path / "timing.jsonl"
    server = start_server(env={"COMPANION_TIMING_LOG": str(log)})
    status, match = request_json(server.port, "POST", "/api/matches",
                                 {"players": ["Ann", "Bob"], "rules": "block", "target": 100})
    assert status == 201
    auth = {"Authorization": f"Bearer {match['host_token']}", "Idempotency-Key": "phone-1"}
    status, _ = request_json(server.port, "POST", f"/api/matches/{match['id']}/rounds", ROUND, auth)
    assert status == 201
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    post = next(t for t in lines if t["path"].endswith("/rounds"))
    assert (post["method"], post["status"], post["key"]) == ("POST", 201, "phone-1")
    assert post["queued"] is not None and post["queued"] >= 0
    assert post["txn"] > 0 and post["commit"] > 0
    assert post["handler"] >= post["lock_wait"] + post["txn"] + post["commit"]
    assert 0 < post["cpu"]
