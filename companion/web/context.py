"""Per-request handles: the database connection on ``flask.g`` and the app's event broker.

``get_db()`` gives each request a connection from the app's pool (given back on teardown); ``broker()`` is the app's
``companion.web.events.Broker``; ``changed(match_id)`` tells open event streams that a match changed;
``rendered()`` is the app's ``VersionedCache`` of the latest event and board fragment per match.
"""

from __future__ import annotations

import sqlite3
import threading

from flask import Flask, current_app, g

from companion.store.db import connect


class ConnectionPool:
    """Open connections kept between requests: opening one costs six SQLite calls, each a moment
    a writer may wait for the interpreter behind hundreds of stream threads. At most ``size`` idle."""

    def __init__(self, path: str, size: int) -> None:
        self.path, self.size = path, size
        self._idle: list[sqlite3.Connection] = []
        self._lock = threading.Lock()

    def take(self) -> sqlite3.Connection:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        return connect(self.path)

    def give_back(self, conn: sqlite3.Connection) -> None:
        if not conn.in_transaction:  # write() always ends its transaction; anything else is not reused
            with self._lock:
                if len(self._idle) < self.size:
                    self._idle.append(conn)
                    return
        conn.close()


def get_db() -> sqlite3.Connection:
    if "db" not in g:
        g.db = current_app.extensions["companion.db_pool"].take()
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    conn = g.pop("db", None)
    if conn is not None:
        current_app.extensions["companion.db_pool"].give_back(conn)


def broker():
    return current_app.extensions["companion.broker"]


def rendered():
    return current_app.extensions["companion.rendered"]


def changed(match_id: str) -> None:
    broker().notify(match_id)


def init_app(app: Flask) -> None:
    app.extensions["companion.db_pool"] = ConnectionPool(app.config["DATABASE"], app.config["DB_POOL_SIZE"])
    app.teardown_appcontext(close_db)
    with app.app_context():  # create the schema now, not in the first visitor's request
        get_db()
