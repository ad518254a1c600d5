"""Serving the dashboard on waitress (a production WSGI server), as ``companion serve`` does.

Entry points: ``make_server(app, host, port)`` (a waitress server, not yet running: tests run it in a
thread) and ``serve(host, port, db)`` (builds the app, prints where to open it and where the data
lives, runs until Ctrl-C). With ``COMPANION_TIMING_LOG=PATH`` in its environment, ``serve`` writes one
line per request with where its time went (``companion.web.timing``).

Threads: a live stream needs a waitress thread only to start (check the match, send the first event);
then it hands its socket to the pusher (``companion.web.push``: one thread writes every stream), so
an open board costs a socket, not a thread. A stream whose socket cannot be handed over keeps its
thread (asleep on a condition variable), so the pool (``THREADS``) is still the app's stream cap
(``MAX_STREAMS``) plus at least ``SPARE_THREADS`` for API calls and pages. Sized for a party of 200
phones and TVs watching at once (see ``benchmarks/dashboard_live.py``). ``CONNECTION_LIMIT`` bounds
open sockets; ``CHANNEL_TIMEOUT`` drops idle ones (streams send a keepalive well inside it). ``serve``
raises the open-file limit (a socket per board, and a SQLite connection, three descriptors with WAL,
per stream that stays on a thread), and waitress polls its sockets with poll() (select() stops
working past descriptor 1024).
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
import time
from pathlib import Path

from flask import Flask
from waitress import create_server

from companion.web.push import DetachingChannel

THREADS = 320
SPARE_THREADS = 64
CONNECTION_LIMIT = 1000
OPEN_FILES = 4096  # sockets plus three descriptors per stream's database connection, with room to spare
CHANNEL_TIMEOUT_S = 60
SWITCH_INTERVAL_S = 0.0002
SHUTDOWN_GRACE_S = 3.0  # how long open streams get to end on Ctrl-C
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


def raise_open_file_limit(wanted: int = OPEN_FILES) -> int:
    """Raise this process's soft limit on open files towards ``wanted`` (never above the hard limit)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows has no such limit to raise
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        return target
    return soft


def make_server(app: Flask, host: str, port: int):
    if app.config["MAX_STREAMS"] > THREADS - SPARE_THREADS:
        raise ValueError(f"MAX_STREAMS ({app.config['MAX_STREAMS']}) must leave {SPARE_THREADS} of the"
                         f" {THREADS} server threads free for API calls")
    server = create_server(app, host=host, port=port, threads=THREADS, connection_limit=CONNECTION_LIMIT,
                           channel_timeout=CHANNEL_TIMEOUT_S, asyncore_use_poll=True, ident="companion")
    server.channel_class = DetachingChannel  # event streams hand their sockets to the pusher thread
    return server


def serve(host: str, port: int, db: str | None) -> int:
    from companion.store.db import Checkpointer, default_db_path
    from companion.web import create_app

    db_path = Path(db).expanduser() if db else default_db_path()
    lan = lan_address() if host in ALL_INTERFACES else None
    app = create_app({"DATABASE": str(db_path), "LAN_HOST": lan})
    raise_open_file_limit()
    # a burst of POSTs keeps dozens of threads busy at once; a short GIL switch interval keeps the one
    # holding the database lock from waiting 5 ms behind them after each SQLite call
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    try:
        server = make_server(app, host, port)
    except OSError as exc:
        print(f"companion serve: cannot listen on {host}:{port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    timing_log = os.environ.get("COMPANION_TIMING_LOG")
    if timing_log:  # where a request's time goes (benchmarks/dashboard_live.py --server-timing)
        from companion.web.timing import instrument
        instrument(server, timing_log)
    shown = "localhost" if host in ALL_INTERFACES or host.startswith("127.") else host
    print(f"companion dashboard: http://{shown}:{port}/", flush=True)
    if lan:
        print(f"  phones on the same Wi-Fi: http://{lan}:{port}/", flush=True)
    elif host not in ALL_INTERFACES:
        print("  only this computer can open it; for phones, run: companion serve --host 0.0.0.0", flush=True)
    print(f"  data: {db_path}", flush=True)
    print("  stop with Ctrl-C", flush=True)
    broker = app.extensions["companion.broker"]
    checkpointer = Checkpointer(app.config["DATABASE"]).start()  # off the POSTs' path (see store.db)

    def stop(_signum, _frame) -> None:
        # end the streams first: on Ctrl-C waitress waits for its threads, and each stream holds one
        broker.close()
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():  # a service manager's stop = Ctrl-C
        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        broker.close()
        # let stream threads finish before the server closes the pipe they signal it through
        broker.drain(SHUTDOWN_GRACE_S)
        time.sleep(0.1)
        server.close()
        checkpointer.stop()
    return 0
