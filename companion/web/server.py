"""Serving the dashboard on waitress (a production WSGI server), as ``companion serve`` does.

Entry points: ``make_server(app, host, port)`` (a waitress server, not yet running: tests run it in a
thread) and ``serve(host, port, db)`` (builds the app, prints where to open it and where the data
lives, runs until Ctrl-C).

Threads: every open live stream holds one waitress thread, so the pool (``THREADS``) is much larger
than the app's stream cap (``MAX_STREAMS``): with waitress's default of 4 threads, four open boards
would freeze the site. ``CONNECTION_LIMIT`` bounds open sockets; ``CHANNEL_TIMEOUT`` drops idle
ones (streams send a keepalive well inside it).
"""

from __future__ import annotations

import signal
import socket
import sys
import threading
from pathlib import Path

from flask import Flask
from waitress import create_server

THREADS = 64
CONNECTION_LIMIT = 500
CHANNEL_TIMEOUT_S = 60
ALL_INTERFACES = {"0.0.0.0", "::", ""}


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent), or None if there is none."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET address: only picks the outgoing interface
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") else address


def _stop(_signum, _frame) -> None:
    raise KeyboardInterrupt


def make_server(app: Flask, host: str, port: int):
    if app.config["MAX_STREAMS"] >= THREADS:
        raise ValueError(f"MAX_STREAMS ({app.config['MAX_STREAMS']}) must stay below the {THREADS} server threads")
    return create_server(app, host=host, port=port, threads=THREADS, connection_limit=CONNECTION_LIMIT,
                         channel_timeout=CHANNEL_TIMEOUT_S, ident="companion")


def serve(host: str, port: int, db: str | None) -> int:
    from companion.store.db import default_db_path
    from companion.web import create_app

    db_path = Path(db).expanduser() if db else default_db_path()
    lan = lan_address() if host in ALL_INTERFACES else None
    app = create_app({"DATABASE": str(db_path), "LAN_HOST": lan})
    try:
        server = make_server(app, host, port)
    except OSError as exc:
        print(f"companion serve: cannot listen on {host}:{port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    shown = "localhost" if host in ALL_INTERFACES or host.startswith("127.") else host
    print(f"companion dashboard: http://{shown}:{port}/", flush=True)
    if lan:
        print(f"  phones on the same Wi-Fi: http://{lan}:{port}/", flush=True)
    elif host not in ALL_INTERFACES:
        print("  only this computer can open it; for phones, run: companion serve --host 0.0.0.0", flush=True)
    print(f"  data: {db_path}", flush=True)
    print("  stop with Ctrl-C", flush=True)
    if threading.current_thread() is threading.main_thread():  # a service manager's stop = Ctrl-C
        signal.signal(signal.SIGTERM, _stop)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        app.extensions["companion.broker"].close()
        server.close()
    return 0
