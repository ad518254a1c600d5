"""The store on its own: schema on first start, transactions under threads, the stored entries."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest

from companion.store import db, matches
from companion.store.errors import MatchConflictError, MatchNotFoundError, WrongTokenError


@pytest.fixture
def path(tmp_path):
    return tmp_path / "sub" / "companion.sqlite3"


def test_connect_creates_folder_schema_and_pragmas(path):
    conn = db.connect(path)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"matches", "rounds", "history", "idempotency"} <= tables
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000
    assert conn.isolation_level is None
    db.connect(path).close()  # a second start keeps the data
    conn.close()


def test_write_rolls_back_on_error(path):
    conn = db.connect(path)
    match, _ = matches.create_match(conn, {"players": ["Ann", "Bob"], "rules": "block"})
    with pytest.raises(RuntimeError):
        with db.write(conn):
            conn.execute("UPDATE matches SET target = 5 WHERE id = ?", (match["id"],))
            raise RuntimeError("boom")
    assert matches.get_match(conn, match["id"])["target"] == 100


def test_token_is_stored_only_as_a_hash(path):
    conn = db.connect(path)
    match, token = matches.create_match(conn, {"players": ["Ann", "Bob"], "rules": "block"})
    stored = conn.execute("SELECT host_token_hash FROM matches").fetchone()[0]
    assert token not in stored and len(stored) == 64
    matches.check_host(conn, match["id"], token)
    with pytest.raises(WrongTokenError):
        matches.check_host(conn, match["id"], token + "x")


def test_rounds_are_stored_as_entered(path):
    conn = db.connect(path)
    match, _ = matches.create_match(conn, {"players": ["Ann", "Bob"], "rules": "block"})
    matches.add_round(conn, match["id"], {"hands": {"Ann": "4-6, 3-3", "Bob": ""}})
    (entry,) = conn.execute("SELECT entry FROM rounds").fetchone()
    assert '"4-6, 3-3"' in entry


def test_concurrent_writers_lose_no_update(path):
    setup = db.connect(path)
    match, _ = matches.create_match(setup, {"players": ["Ann", "Bob"], "rules": "block", "target": 10_000})
    errors: list[Exception] = []

    def post(i: int) -> None:
        conn = db.connect(path)
        try:
            matches.add_round(conn, match["id"], {"hands": {"Ann": "1-0", "Bob": ""}}, idempotency_key=f"k{i}")
        except Exception as exc:  # noqa: BLE001 - collected and reported below
            errors.append(exc)
        finally:
            conn.close()

    threads = [threading.Thread(target=post, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    view = matches.get_match(setup, match["id"])
    assert [r["n"] for r in view["rounds"]] == list(range(1, 13))
    assert view["players"][1]["score"] == 12


def test_same_idempotency_key_from_many_threads_records_once(path):
    setup = db.connect(path)
    match, _ = matches.create_match(setup, {"players": ["Ann", "Bob"], "rules": "block"})
    answers: list[dict] = []

    def post() -> None:
        conn = db.connect(path)
        answers.append(matches.add_round(conn, match["id"], {"hands": {"Ann": "6-4", "Bob": ""}},
                                         idempotency_key="same"))
        conn.close()

    threads = [threading.Thread(target=post) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(answers) == 8 and all(a == answers[0] for a in answers)
    assert len(matches.get_match(setup, match["id"])["rounds"]) == 1


def test_errors_name_the_match(path):
    conn = db.connect(path)
    with pytest.raises(MatchNotFoundError, match="'zzz'"):
        matches.get_match(conn, "zzz")
    match, _ = matches.create_match(conn, {"players": ["Ann", "Bob"], "rules": "block", "target": 5})
    matches.add_round(conn, match["id"], {"hands": {"Ann": "6-4", "Bob": ""}})
    with pytest.raises(MatchConflictError, match="Bob won"):
        matches.add_round(conn, match["id"], {"hands": {"Ann": "", "Bob": "1-1"}})


def test_default_db_path_is_in_the_user_data_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert db.default_db_path() == tmp_path / "companion" / "companion.sqlite3"


def test_a_committed_round_is_on_disk_for_a_new_connection(path):
    conn = db.connect(path)
    match, _ = matches.create_match(conn, {"players": ["Ann", "Bob"], "rules": "block"})
    matches.add_round(conn, match["id"], {"hands": {"Ann": "6-4", "Bob": ""}})
    other = sqlite3.connect(path)
    assert other.execute("SELECT COUNT(*) FROM rounds").fetchone()[0] == 1
    other.close()


def test_a_version_1_database_is_migrated(tmp_path):
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE matches (id TEXT PRIMARY KEY, created_at TEXT NOT NULL, rules TEXT NOT NULL,"
        " profile TEXT NOT NULL, target INTEGER NOT NULL, players TEXT NOT NULL,"
        " host_token_hash TEXT NOT NULL, pending_play TEXT NOT NULL DEFAULT '{}',"
        " version INTEGER NOT NULL DEFAULT 1);"
        "INSERT INTO matches VALUES ('abc', '2026-01-01T00:00:00Z', 'block', 'giant-wood', 100,"
        " '[\"Ann\", \"Bob\"]', 'x', '{}', 1);"
        "PRAGMA user_version = 1;")
    old.close()
    conn = db.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == db.SCHEMA_VERSION
    assert conn.execute("SELECT next_match FROM matches WHERE id = 'abc'").fetchone()[0] is None


def test_the_request_pool_reuses_idle_connections_but_never_one_inside_a_transaction(path):
    from companion.web.context import ConnectionPool

    pool = ConnectionPool(str(path), size=1)
    first = pool.take()
    pool.give_back(first)
    assert pool.take() is first  # reused: no new connection, no pragmas again
    first.execute("BEGIN IMMEDIATE")  # a transaction left open by mistake
    pool.give_back(first)
    again = pool.take()
    assert again is not first and not again.in_transaction
    other = pool.take()
    pool.give_back(again)
    pool.give_back(other)  # beyond the pool's size: closed
    with pytest.raises(sqlite3.ProgrammingError):
        other.execute("SELECT 1")


def test_a_tally_carried_on_from_earlier_rounds_equals_adding_them_all_up():
    from companion.store import scoring

    players = ["Ann", "Bob", "Cy"]
    results = [{"scores": {"Ann": a, "Bob": b, "Cy": c}} for a, b, c in
               [(0, 12, 0), (30, 0, 0), (0, 0, 41), (0, 50, 0), (5, 0, 0), (0, 0, 9)]]
    for cut in range(len(results) + 1):
        earlier = scoring.tally(players, 60, results[:cut])
        carried = scoring.tally(players, 60, results[cut:], start=earlier)
        assert carried == scoring.tally(players, 60, results)
        assert earlier == scoring.tally(players, 60, results[:cut])  # the start is left as it was
    assert scoring.tally(players, 60, results).won_at == 4  # Bob reaches 62 at round 4


def test_scores_kept_between_reads_follow_undo_and_edit(path):
    """Results are kept by the stored text of each round, so an undo or an edit is scored afresh."""
    conn = db.connect(path)
    match, _ = matches.create_match(conn, {"players": ["Ann", "Bob"], "rules": "block", "target": 1000})
    for hand in ["6-6", "1-0", "5-5", "2-1"]:
        matches.add_round(conn, match["id"], {"hands": {"Ann": hand, "Bob": ""}})
    assert [p["score"] for p in matches.get_match(conn, match["id"])["players"]] == [0, 12 + 1 + 10 + 3]
    matches.undo_round(conn, match["id"], 3)
    matches.edit_round(conn, match["id"], 1, {"hands": {"Ann": "", "Bob": "4-4"}})
    after = matches.add_round(conn, match["id"], {"hands": {"Ann": "1-0", "Bob": ""}})
    view = matches.get_match(conn, match["id"])
    assert [p["score"] for p in view["players"]] == [8, 1 + 3 + 1]
    assert [p["score"] for p in after["standings"]] == [8, 5]
    assert view["race"] == {"Ann": [0, 8, 8, 8, 8], "Bob": [0, 0, 1, 4, 5]}


def _counting_commits(conn, commits: list) -> None:
    conn.set_trace_callback(lambda sql: commits.append(sql) if sql == "COMMIT" else None)


def test_writes_queued_together_share_one_transaction_and_each_gets_its_own_answer(path):
    setup = db.connect(path)
    setup.execute("CREATE TABLE t (x INTEGER UNIQUE)")
    commits: list[str] = []
    answers: dict[int, object] = {}

    def writer(x: int) -> None:
        conn = db.connect(path)
        _counting_commits(conn, commits)

        def work(c):
            if x == 3:
                c.execute("INSERT INTO t VALUES (?)", (x,))
                raise MatchConflictError("three is refused")  # after a write: that write is undone alone
            c.execute("INSERT INTO t VALUES (?)", (x,))
            return x * 10
        try:
            answers[x] = db.write_together(conn, work)
        except MatchConflictError as exc:
            answers[x] = exc

    setup.writer_lock.acquire()  # another writer holds the database: the writes pile up behind it
    threads = [threading.Thread(target=writer, args=(x,)) for x in range(8)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 5
    while len(setup.write_group.queue) < 7 and time.monotonic() < deadline:
        time.sleep(0.01)  # one writer leads (waiting for the lock), the other seven queue behind it
    setup.writer_lock.release()
    for t in threads:
        t.join()
    assert {x: a for x, a in answers.items() if x != 3} == {x: x * 10 for x in range(8) if x != 3}
    assert isinstance(answers[3], MatchConflictError)
    assert sorted(x for (x,) in setup.execute("SELECT x FROM t")) == [0, 1, 2, 4, 5, 6, 7]
    assert len(commits) == 2  # the leader's own transaction, then one for the seven queued meanwhile


def test_a_failed_commit_fails_every_write_of_its_transaction(path):
    conn = db.connect(path)
    match, _ = matches.create_match(conn, {"players": ["Ann", "Bob"], "rules": "block"})

    def dangling(c):  # passes its savepoint, fails the commit (a deferred foreign key)
        c.execute("PRAGMA defer_foreign_keys = ON")
        c.execute("INSERT INTO rounds (match_id, n, entry, created_at) VALUES ('nosuch', 1, '{}', 'now')")
        return "acknowledged"
    with pytest.raises(sqlite3.IntegrityError):
        db.write_together(conn, dangling)
    assert not conn.in_transaction
    assert conn.execute("SELECT count(*) FROM rounds").fetchone()[0] == 0
    assert matches.add_round(conn, match["id"], {"hands": {"Ann": "1-0", "Bob": ""}})["n"] == 1  # still usable


def test_a_round_and_its_resend_in_one_transaction_are_recorded_once(path):
    setup = db.connect(path)
    match, _ = matches.create_match(setup, {"players": ["Ann", "Bob"], "rules": "block"})
    answers = []

    def post() -> None:
        answers.append(matches.add_round(db.connect(path), match["id"], {"hands": {"Ann": "1-0", "Bob": ""}},
                                         idempotency_key="phone-1"))

    setup.writer_lock.acquire()
    threads = [threading.Thread(target=post) for _ in range(4)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 5
    while len(setup.write_group.queue) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    setup.writer_lock.release()
    for t in threads:
        t.join()
    assert [a["n"] for a in answers] == [1, 1, 1, 1]
    assert setup.execute("SELECT count(*) FROM rounds").fetchone()[0] == 1


def test_commits_leave_the_wal_to_the_checkpointer_which_copies_it_once_writers_are_quiet(path, monkeypatch):
    import os

    monkeypatch.setattr(db, "CHECKPOINT_EVERY_S", 0.05)
    monkeypatch.setattr(db, "CHECKPOINT_QUIET_S", 0.05)
    conn = db.connect(path)
    assert conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == db.AUTOCHECKPOINT_PAGES
    match, _ = matches.create_match(conn, {"players": ["Ann", "Bob"], "rules": "block", "target": 10_000})
    before = os.path.getsize(path)
    for _ in range(250):  # ~1600 pages: past SQLite's default of 1000, which a COMMIT would checkpoint
        matches.add_round(conn, match["id"], {"hands": {"Ann": "1-0", "Bob": ""}})
    wal_frames = (os.path.getsize(f"{path}-wal") - 32) // (4096 + 24)
    assert wal_frames > 1000 and os.path.getsize(path) == before  # no commit stopped to copy the WAL
    checkpointer = db.Checkpointer(path).start()
    try:
        deadline = time.monotonic() + 5
        while checkpointer.checkpoints == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert checkpointer.checkpoints == 1 and os.path.getsize(path) > before  # copied, off the writers' path
        time.sleep(0.3)
        assert checkpointer.checkpoints == 1  # nothing new written: nothing to do
        matches.add_round(conn, match["id"], {"hands": {"Ann": "1-0", "Bob": ""}})
        deadline = time.monotonic() + 5
        while checkpointer.checkpoints == 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert checkpointer.checkpoints == 2
    finally:
        checkpointer.stop()
    assert len(matches.get_match(conn, match["id"])["rounds"]) == 251
