"""One thread that writes every open event stream, instead of one server thread asleep per stream.

Under ``companion serve``, an event stream starts as any request does (a waitress thread checks the
match, takes a broker slot, sends the headers and the first event), then hands its socket to the
app's ``Pusher`` and frees the thread. The pusher keeps the sockets in one selector: when the broker
publishes a change of a match, it reads the match's version once, takes each kind of event from the
shared cache (rendered and encoded once per version) and sends the same bytes to every stream of that
match; a keepalive comment every ``keepalive`` seconds; the version read again every ``poll``
seconds (a change made by another process). A stream ends when its client closes the connection (the
socket reads empty), when a client stops reading (more than ``MAX_PENDING`` bytes waiting), or when
the broker closes; its broker slot is released then.

Why: 200 boards each woken in its own thread after every round cost more of the interpreter than
the rounds themselves, and waitress's main loop walked every stream's channel at each turn.

Entry points: ``Pusher(hub, cache, database, keepalive=..., poll=...)`` and, for a request,
``environ[DETACH_KEY]``: set by ``DetachingChannel`` (``make_server`` installs it), a callable
``detach(take)`` that waits (at most ``FLUSH_WAIT_S``) until waitress has sent everything written so
far, then calls ``take(socket, chunked)`` with a duplicate of the connection's socket and returns
True; False if the connection could not be handed over (the stream then stays on its thread). The
waitress side relies on ``HTTPChannel.outbuf_lock``, ``total_outbufs_len`` and ``_flush_some``
(waitress 3.0); the tests over real HTTP exercise it.
"""

from __future__ import annotations

import logging
import selectors
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from waitress.channel import HTTPChannel
from waitress.task import WSGITask

from companion.store import matches
from companion.store.db import connect

DETACH_KEY = "companion.detach"
FLUSH_WAIT_S = 2.0
MAX_PENDING = 1 << 20  # bytes waiting for a client that stopped reading: beyond this it is dropped
KEEPALIVE = b": keepalive\n\n"
log = logging.getLogger(__name__)


@dataclass(eq=False)
class Stream:
    """One handed-over event stream. ``render(conn) -> (version, bytes)`` renders its kind of event."""

    kind: str
    match_id: str
    sent: int
    render: Callable[[Any], tuple[int, bytes]]
    release: Callable[[], None]
    sock: socket.socket | None = None
    chunked: bool = False
    pending: bytes = b""
    last_write: float = field(default_factory=time.monotonic)


class Pusher:
    def __init__(self, hub, cache, database: str, *, keepalive: float, poll: float) -> None:
        self.hub, self.cache, self.database = hub, cache, database
        self.keepalive, self.poll = keepalive, poll
        self._lock = threading.Lock()
        self._incoming: list[Stream] = []
        self._changed: set[str] = set()
        self._thread: threading.Thread | None = None
        self._loop: _Loop | None = None
        self._wake_r: socket.socket | None = None  # a socket pair, made with the first thread
        self._wake_w: socket.socket | None = None
        hub.listeners.append(self.changed)

    @property
    def open_streams(self) -> int:
        loop = self._loop
        return (loop.open_streams if loop is not None else 0) + len(self._incoming)

    def changed(self, match_id: str | None) -> None:
        """The broker published a change of ``match_id`` (None: it closed). Called under the broker's
        lock, so it only notes it and wakes the thread."""
        if match_id is not None:
            with self._lock:
                self._changed.add(match_id)
        self._wake()

    def _wake(self) -> None:
        if self._wake_w is None:
            return
        try:
            self._wake_w.send(b"x")
        except (BlockingIOError, OSError):
            pass  # already awake (the pipe is full) or shut down

    def take(self, stream: Stream, sock: socket.socket, chunked: bool) -> None:
        """Start writing ``stream`` on ``sock`` (from a request thread; the stream's slot is ours now)."""
        sock.setblocking(False)
        stream.sock, stream.chunked = sock, chunked
        with self._lock:
            self._incoming.append(stream)
            if self._thread is None:
                if self._wake_r is None:
                    self._wake_r, self._wake_w = socket.socketpair()
                    self._wake_r.setblocking(False)
                    self._wake_w.setblocking(False)
                self._thread = threading.Thread(target=self._run, name="companion-pusher", daemon=True)
                self._thread.start()
        self._wake()

    def _run(self) -> None:
        loop = None
        try:
            loop = self._loop = _Loop(self)
            while not self.hub.closed:
                loop.wait()
                with self._lock:
                    incoming, self._incoming = self._incoming, []
                    changed, self._changed = self._changed, set()
                loop.turn(incoming, changed)
        except Exception:
            log.exception("the pusher stopped; its boards will reconnect")
        finally:
            with self._lock:  # in one step: a stream handed over from now on starts a new thread
                leftover, self._incoming = self._incoming, []
                self._thread = None
            if loop is not None:
                loop.end_all(leftover)
            else:
                for stream in leftover:
                    _Loop.end_alone(stream)


class _Loop:
    """The pusher thread's state: its selector, its database connection, the streams of each match."""

    def __init__(self, pusher: Pusher) -> None:
        self.pusher, self.hub, self.cache = pusher, pusher.hub, pusher.cache
        self.selector = selectors.DefaultSelector()
        self.selector.register(pusher._wake_r, selectors.EVENT_READ)
        self.conn = connect(pusher.database)
        self.tick = max(0.05, min(pusher.poll, pusher.keepalive) / 2)
        self.by_match: dict[str, list[Stream]] = {}
        self.last_poll: dict[str, float] = {}

    @property
    def open_streams(self) -> int:
        return sum(len(streams) for streams in list(self.by_match.values()))

    def wait(self) -> None:
        for key, mask in self.selector.select(self.tick):
            stream = key.data
            if stream is None:  # the wake-up pair
                try:
                    while key.fileobj.recv(4096):
                        pass
                except (BlockingIOError, OSError):
                    pass
                continue
            if mask & selectors.EVENT_READ:
                self._read(stream)
            if mask & selectors.EVENT_WRITE and stream.sock is not None:
                self._send(stream, b"")

    def turn(self, incoming: list[Stream], changed: set[str]) -> None:
        for stream in incoming:
            self.selector.register(stream.sock, selectors.EVENT_READ, stream)
            self.by_match.setdefault(stream.match_id, []).append(stream)
            changed.add(stream.match_id)  # a change may have come while it was handed over
        now = time.monotonic()
        for match_id in list(self.by_match):
            if match_id in changed or now - self.last_poll.get(match_id, 0.0) >= self.pusher.poll:
                try:
                    self._push(match_id)
                except Exception:  # one match's failure must not end every board's stream
                    log.exception("could not push match %s", match_id)
        for streams in list(self.by_match.values()):
            for stream in list(streams):
                if now - stream.last_write >= self.pusher.keepalive:
                    self._send(stream, KEEPALIVE)

    def end_all(self, leftover: list[Stream]) -> None:
        for stream in leftover:
            self.end_alone(stream)
        for streams in list(self.by_match.values()):
            for stream in list(streams):
                self._end(stream, goodbye=True)
        self.by_match.clear()
        self.conn.close()
        self.selector.close()

    def _read(self, stream: Stream) -> None:
        try:
            data = stream.sock.recv(4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # the board was closed
            self._end(stream)

    def _push(self, match_id: str) -> None:
        """Send the latest version of ``match_id`` to each of its streams that has an older one."""
        self.last_poll[match_id] = time.monotonic()
        streams = self.by_match.get(match_id, [])
        if not streams:
            self.by_match.pop(match_id, None)
            self.last_poll.pop(match_id, None)
            return
        try:
            version = matches.match_version(self.conn, match_id)
        except matches.MatchNotFoundError:
            return
        events: dict[str, tuple[int, bytes]] = {}
        for stream in list(streams):
            if stream.sent >= version:
                continue
            if stream.kind not in events:  # one render per kind and version, shared with the threads
                events[stream.kind] = self.cache.get((stream.kind, match_id), version,
                                                     lambda: stream.render(self.conn))
            sent, event = events[stream.kind]
            if sent > stream.sent:
                stream.sent = sent
                self._send(stream, event)

    def _send(self, stream: Stream, data: bytes) -> None:
        if data and stream.chunked:
            data = b"%X\r\n%s\r\n" % (len(data), data)
        data = stream.pending + data
        if not data:
            return
        try:
            sent = stream.sock.send(data)
        except BlockingIOError:
            sent = 0
        except OSError:
            self._end(stream)
            return
        stream.last_write = time.monotonic()
        stream.pending = data[sent:]
        if len(stream.pending) > MAX_PENDING:  # a board that stopped reading
            self._end(stream)
            return
        self.selector.modify(stream.sock, selectors.EVENT_READ | (selectors.EVENT_WRITE if stream.pending else 0),
                             stream)

    def _end(self, stream: Stream, *, goodbye: bool = False) -> None:
        if stream.sock is None:
            return
        try:
            self.selector.unregister(stream.sock)
        except (KeyError, ValueError):
            pass
        streams = self.by_match.get(stream.match_id)
        if streams is not None and stream in streams:
            streams.remove(stream)
        self.end_alone(stream, goodbye=goodbye)

    @staticmethod
    def end_alone(stream: Stream, *, goodbye: bool = True) -> None:
        """Close ``stream``'s socket (ending a chunked response first if ``goodbye``) and free its slot."""
        if stream.sock is None:
            return
        if goodbye and stream.chunked:  # the server is stopping: end the response properly
            try:
                stream.sock.send(stream.pending + b"0\r\n\r\n")
            except OSError:
                pass
        stream.sock.close()
        stream.sock = None
        stream.release()


# ---------------------------------------------------------------------- the waitress side

class DetachingTask(WSGITask):
    """A waitress task whose WSGI app may take its connection over (``environ[DETACH_KEY]``)."""

    detached = False

    def get_environment(self) -> dict[str, Any]:
        environ = super().get_environment()
        environ[DETACH_KEY] = self._detach
        return environ

    def _detach(self, take: Callable[[socket.socket, bool], None]) -> bool:
        channel = self.channel
        deadline = time.monotonic() + FLUSH_WAIT_S
        while True:  # what waitress holds must reach the client before anything the pusher sends
            with channel.outbuf_lock:
                if not channel.connected:
                    return False
                if channel.total_outbufs_len:
                    channel._flush_some()
                if not channel.total_outbufs_len:
                    break
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
        try:
            sock = channel.socket.dup()  # waitress closes its own descriptor when the task ends
        except OSError:
            return False
        self.detached = True
        self.close_on_finish = True
        take(sock, self.chunked_response)
        return True

    def finish(self) -> None:
        if not self.detached:  # a handed-over chunked stream is ended by the pusher, not here
            super().finish()


class DetachingChannel(HTTPChannel):
    task_class = DetachingTask
