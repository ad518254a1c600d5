"""Per-request handles: the database connection on ``flask.g`` and the app's event broker.

``get_db()`` opens one connection per request (closed on teardown); ``broker()`` is the app's
``companion.web.events.Broker``; ``changed(match_id)`` tells open event streams that a match changed;
``rendered()`` is the app's ``VersionedCache`` of the latest event and board fragment per match.
"""

from __future__ import annotations

import sqlite3

from flask import Flask, current_app, g

from companion.store.db import connect


def get_db() -> sqlite3.Connection:
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    conn = g.pop("db", None)
    if conn is not None:
        conn.close()


def broker():
    return current_app.extensions["companion.broker"]


def rendered():
    return current_app.extensions["companion.rendered"]


def changed(match_id: str) -> None:
    broker().notify(match_id)


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_db)
    with app.app_context():  # create the schema now, not in the first visitor's request
        get_db()
