"""The party dashboard: a Flask app (pages, the HTTP API of CONTRACTS.md, live event streams).

Entry point: ``create_app(test_config=None)``. Importing this package creates nothing; each call
builds a fresh app whose database path comes from ``DATABASE`` (default: the user's data directory).
Blueprints are registered from the short explicit list ``BLUEPRINTS``: add one line for a new feature.

Conventions: views never run SQL (``companion.store`` does); every ``ValueError`` subclass becomes a
JSON ``{"error": message}`` with one status (``companion.web.errors``); an unexpected exception answers
``{"error": "internal error"}`` (never a stack trace). Changes need the host token as a bearer token,
and every POST, PUT or DELETE must come from companion's own pages or a script (``cross_site``).
Everything the pages use (scripts, styles, images) is served from ``static/``: no internet needed.
"""

from __future__ import annotations

import importlib
import threading
from typing import Any, Mapping

from flask import Flask

# "module:attribute" of every blueprint, in registration order. One line per feature.
BLUEPRINTS = (
    "companion.web.api:bp",
    "companion.web.events:bp",
    "companion.web.pages:bp",
    "companion.web.verify_views:bp",
)

DEFAULTS: Mapping[str, Any] = {
    "DATABASE": None,                  # None: companion.store.db.default_db_path()
    "DB_POOL_SIZE": 16,                # idle database connections kept for the next requests
    "MAX_CONTENT_LENGTH": 30 * 1024 * 1024,  # uploads above this answer 413
    "MAX_STREAMS": 256,                # open event streams (one per board); the server keeps threads spare
    "STREAM_KEEPALIVE_S": 15.0,        # a comment line this often keeps proxies and phones connected
    "STREAM_POLL_S": 2.0,              # streams also re-read the version this often (other processes)
    "STREAM_SETTLE_S": 0.03,           # a change is pushed once its match has been quiet this long...
    "STREAM_MAX_DELAY_S": 0.25,        # ...or this long after it, if changes keep coming (bursts coalesce)
    "STREAM_RETRY_MS": 2000,           # the browser's reconnect delay after a dropped stream
    "SCAN_CONCURRENCY": 2,             # photos read at once (reading is CPU-bound); others queue
    "SCAN_WAIT_S": 60.0,               # how long a photo may queue before the answer is 503
    "LAN_HOST": None,                  # the server's LAN address, used in the join QR code
    "JSON_SORT_KEYS": False,
}


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the dashboard app. ``test_config`` overrides ``DEFAULTS`` (tests pass a temp DATABASE)."""
    from companion.store.db import default_db_path
    from companion.web import context, cross_site, errors
    from companion.web.events import Broker
    from companion.web.push import Pusher
    from companion.web.versioned_cache import VersionedCache

    app = Flask(__name__)
    app.config.from_mapping(DEFAULTS)
    if test_config:
        app.config.from_mapping(test_config)
    if app.config["DATABASE"] is None:
        app.config["DATABASE"] = str(default_db_path())
    app.json.sort_keys = False
    app.extensions["companion.broker"] = Broker(app.config["MAX_STREAMS"], settle=app.config["STREAM_SETTLE_S"],
                                                max_delay=app.config["STREAM_MAX_DELAY_S"])
    app.extensions["companion.rendered"] = VersionedCache()
    app.extensions["companion.pusher"] = Pusher(
        app.extensions["companion.broker"], app.extensions["companion.rendered"], app.config["DATABASE"],
        keepalive=float(app.config["STREAM_KEEPALIVE_S"]), poll=float(app.config["STREAM_POLL_S"]))
    app.extensions["companion.scan_gate"] = threading.BoundedSemaphore(app.config["SCAN_CONCURRENCY"])
    context.init_app(app)
    errors.init_app(app)
    cross_site.init_app(app)
    for spec in BLUEPRINTS:
        module_name, attribute = spec.split(":")
        app.register_blueprint(getattr(importlib.import_module(module_name), attribute))
    return app
