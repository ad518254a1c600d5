"""The SQLite database behind the dashboard: where it lives, its schema, and how every write runs.

Entry points: ``default_db_path()``, ``connect(path)`` (opens and creates the schema on first use) and
``write(conn)``, the one way to change the database: a ``BEGIN IMMEDIATE`` transaction that commits on
success and rolls back on any exception.

Conventions: connections use ``isolation_level=None`` (autocommit; we issue BEGIN/COMMIT ourselves,
because Python's implicit transactions start too late and lose updates under a threaded server),
``journal_mode=WAL`` (readers never block the writer), ``synchronous=FULL`` (an acknowledged round
survives a SIGKILL or power cut) and a busy timeout so concurrent writers queue instead of failing.
SQLite's own checkpoint (copying the WAL into the database file, inside whichever COMMIT finds the WAL
past ``wal_autocheckpoint`` pages) is only a safety net at ``AUTOCHECKPOINT_PAGES``: a server runs a
``Checkpointer``, which does it from its own thread while writers are quiet, so no phone's round waits
for it (it writes and fsyncs megabytes; behind a busy disk, half a second).
One connection per request or per thread; a connection is never shared between threads. Writers of
one process queue on an in-process lock per database file before ``BEGIN IMMEDIATE`` (see ``write``).

Does not know about matches: that is ``companion.store.matches``.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, TypeVar

from companion.paths import user_data_dir

BUSY_TIMEOUT_MS = 10_000
AUTOCHECKPOINT_PAGES = 10_000  # SQLite's default is 1000 (4 MB): about 120 rounds
CHECKPOINT_EVERY_S = 1.0       # the Checkpointer looks this often...
CHECKPOINT_QUIET_S = 0.25      # ...and copies the WAL once no write has committed for this long
T = TypeVar("T")
SCHEMA_VERSION = 2

# Changes to a database made by an older version, applied in order: MIGRATIONS[k] takes version k+1 to k+2.
MIGRATIONS: tuple[str, ...] = (
    "ALTER TABLE matches ADD COLUMN next_match TEXT",  # 1 -> 2: the rematch that followed
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id              TEXT PRIMARY KEY,
    created_at      TEXT NOT NULL,
    rules           TEXT NOT NULL,
    profile         TEXT NOT NULL,
    target          INTEGER NOT NULL,
    players         TEXT NOT NULL,            -- JSON list of names, in seating order
    host_token_hash TEXT NOT NULL,            -- sha256 hex of the host token (the token itself is never stored)
    pending_play    TEXT NOT NULL DEFAULT '{}', -- JSON {name: points} scored so far in the current round
    next_match      TEXT,                     -- the rematch that followed this match, if any
    version         INTEGER NOT NULL DEFAULT 1 -- bumped by every change (event streams watch it)
);
CREATE TABLE IF NOT EXISTS rounds (
    match_id   TEXT NOT NULL REFERENCES matches(id),
    n          INTEGER NOT NULL,              -- 1, 2, ... in order of play
    entry      TEXT NOT NULL,                 -- JSON {hands, boneyard, table, play_points} as entered
    created_at TEXT NOT NULL,
    PRIMARY KEY (match_id, n)
);
CREATE TABLE IF NOT EXISTS history (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id  TEXT NOT NULL REFERENCES matches(id),
    at        TEXT NOT NULL,
    kind      TEXT NOT NULL,                  -- created, round added, round edited, round undone, play points
    n         INTEGER,
    detail    TEXT NOT NULL                   -- JSON
);
CREATE INDEX IF NOT EXISTS history_by_match ON history (match_id, id);
CREATE TABLE IF NOT EXISTS idempotency (
    match_id     TEXT NOT NULL,
    key          TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status       INTEGER NOT NULL,
    response     TEXT NOT NULL,
    PRIMARY KEY (match_id, key)
);
"""


def _statements(script: str) -> list[str]:
    """Split a script into statements (``executescript`` would commit outside our transaction)."""
    out, current = [], ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            out.append(current.strip())
            current = ""
    return out


def default_db_path() -> Path:
    """``companion.sqlite3`` in the user's data directory (``companion.paths.user_data_dir``)."""
    return user_data_dir() / "companion.sqlite3"


class _Connection(sqlite3.Connection):
    """A connection that knows the in-process lock its database's writers queue on, and the queue of
    writes that share a transaction (``write_together``)."""

    writer_lock: threading.Lock
    write_group: "_WriteGroup"
    file_key: str


# Opt-in timing (``companion.web.timing``): when a thread's ``timing.spans`` is a dict, ``write`` adds
# to its "lock_wait", "txn" and "commit" seconds; None (the default) costs one attribute read.
timing = threading.local()

_writer_locks: dict[str, threading.Lock] = {}
_writer_locks_guard = threading.Lock()


def _writer_lock(path: Path) -> threading.Lock:
    with _writer_locks_guard:
        return _writer_locks.setdefault(str(path.resolve()), threading.Lock())


class _Job:
    """One caller's work in a shared transaction, and how it ended."""

    __slots__ = ("work", "result", "error", "done", "queued_at", "started_at", "committing_at", "ended_at")

    def __init__(self, work: Callable[[sqlite3.Connection], Any]) -> None:
        self.work, self.result, self.error, self.done = work, None, None, False
        self.queued_at = time.perf_counter()
        self.started_at = self.committing_at = self.ended_at = self.queued_at


class _WriteGroup:
    """The writes of one database file waiting to share the next transaction, and whether one runs."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.queue: list[_Job] = []
        self.running = False


_write_groups: dict[str, _WriteGroup] = {}
_last_commit: dict[str, float] = {}  # database file -> time.monotonic() of this process's last commit


def _committed(conn: sqlite3.Connection) -> None:
    key = getattr(conn, "file_key", None)
    if key is not None:
        _last_commit[key] = time.monotonic()


def _write_group(path: Path) -> _WriteGroup:
    with _writer_locks_guard:
        return _write_groups.setdefault(str(path.resolve()), _WriteGroup())


def connect(path: str | Path) -> sqlite3.Connection:
    """Open the database at ``path`` (creating its folder and schema if needed)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000,
                           check_same_thread=False, factory=_Connection)
    conn.writer_lock = _writer_lock(path)
    conn.write_group = _write_group(path)
    conn.file_key = str(path.resolve())
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute(f"PRAGMA wal_autocheckpoint = {AUTOCHECKPOINT_PAGES}")
    conn.execute("PRAGMA foreign_keys = ON")
    if conn.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
        with write(conn):  # several servers may start at once: the schema is created exactly once
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                for statement in _statements(_SCHEMA):
                    conn.execute(statement)
            else:
                for statement in MIGRATIONS[version - 1:]:
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    return conn


@contextmanager
def write(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """Run a block as one ``BEGIN IMMEDIATE`` transaction: commit on success, roll back on error.

    Writers in this process first queue on a lock: SQLite's busy handler makes waiting writers poll
    with sleeps of up to 100 ms, so twenty phones posting at once would wait seconds. Writers in other
    processes still meet the busy timeout."""
    spans = getattr(timing, "spans", None)
    if spans is not None:
        started = time.perf_counter()
    lock = getattr(conn, "writer_lock", None)
    if lock is not None and not lock.acquire(timeout=BUSY_TIMEOUT_MS / 1000):
        raise sqlite3.OperationalError("database is locked (waited for other writers in this process)")
    try:
        if spans is not None:
            locked = time.perf_counter()
            spans["lock_wait"] += locked - started
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        if spans is not None:
            committing = time.perf_counter()
            spans["txn"] += committing - locked
        conn.execute("COMMIT")
        _committed(conn)
        if spans is not None:
            spans["commit"] += time.perf_counter() - committing
    finally:
        if lock is not None:
            lock.release()


def write_together(conn: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """``work(c)`` in a write transaction shared with the other ``write_together`` calls of this process
    that queue meanwhile (group commit); returns its result once that transaction has committed.

    Twenty phones posting at once cost one ``BEGIN IMMEDIATE`` and one ``COMMIT`` (one fsync) instead
    of twenty, each waiting its turn for the lock and the disk. The first caller to find no transaction
    running takes every queued work, runs each in a savepoint on its own connection ``c`` (so ``work``
    must use ``c`` only, not its caller's thread), commits, and hands each caller its result or its
    exception: a work that raises is rolled back alone; a failed commit fails them all. Nobody's
    result is returned before the commit, so whatever a caller is told survives a crash."""
    group = getattr(conn, "write_group", None)
    if group is None:
        with write(conn):
            return work(conn)
    job = _Job(work)
    with group.cond:
        group.queue.append(job)
        while group.running and not job.done:
            group.cond.wait()
        if not job.done:
            group.running = True
            batch, group.queue = group.queue, []
    if not job.done:
        try:
            _run_together(conn, batch)
        finally:
            with group.cond:
                for each in batch:
                    each.done = True
                group.running = False
                group.cond.notify_all()
    spans = getattr(timing, "spans", None)
    if spans is not None:
        spans["lock_wait"] += job.started_at - job.queued_at
        spans["txn"] += job.committing_at - job.started_at
        spans["commit"] += job.ended_at - job.committing_at
    if job.error is not None:
        raise job.error
    return job.result


def _run_together(conn: sqlite3.Connection, batch: list[_Job]) -> None:
    lock = conn.writer_lock  # writes through ``write`` (undo, edit, ...) queue on the same lock
    try:
        if not lock.acquire(timeout=BUSY_TIMEOUT_MS / 1000):
            raise sqlite3.OperationalError("database is locked (waited for other writers in this process)")
        try:
            started = time.perf_counter()
            for job in batch:
                job.started_at = started
            conn.execute("BEGIN IMMEDIATE")
            try:
                for job in batch:
                    conn.execute("SAVEPOINT together")
                    try:
                        job.result = job.work(conn)
                    except Exception as exc:  # this caller's error: undo its changes, keep the others'
                        conn.execute("ROLLBACK TO together")
                        job.error = exc
                    conn.execute("RELEASE together")
                committing = time.perf_counter()
                conn.execute("COMMIT")
                _committed(conn)
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            ended = time.perf_counter()
            for job in batch:
                job.committing_at, job.ended_at = committing, ended
        finally:
            lock.release()
    except BaseException as exc:  # nothing was committed: nobody's work counts
        for job in batch:
            job.result, job.error = None, exc
        if not isinstance(exc, Exception):
            raise


class Checkpointer:
    """Copies the WAL into the database file at ``path`` from its own thread, when this process's
    writers have been quiet for ``CHECKPOINT_QUIET_S`` (a passive checkpoint: it never blocks them,
    and a write committed meanwhile is simply copied next time). ``start()``, ``stop()``."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.checkpoints = 0  # how many ran (tests read it)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> "Checkpointer":
        self._thread = threading.Thread(target=self._run, name="companion-checkpoint", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        conn = connect(self.path)
        key, done = conn.file_key, None
        try:
            while not self._stop.wait(CHECKPOINT_EVERY_S):
                last = _last_commit.get(key)
                if last is None or last == done or time.monotonic() - last < CHECKPOINT_QUIET_S:
                    continue
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error:
                    continue  # another process holds the database: next time
                done = last
                self.checkpoints += 1
        finally:
            conn.close()
