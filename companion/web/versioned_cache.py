"""The latest rendering of each match, shared by every viewer: one render per change, not one per viewer.

Entry point: ``VersionedCache.get(key, version, render)``. ``version`` is the match's change counter as
just read from the database (cheap); ``render()`` reads the match and returns ``(its version, value)``
(expensive: scoring, JSON, a template). A cached value at least as new as ``version`` is returned as is;
otherwise one thread renders while the others asking for the same key wait for its result, so 200 open
boards woken by one round cost one render, not 200.

Versions only grow (every change bumps them), so "at least as new" is always safe to serve. The cache
keeps the ``max_entries`` most recently used keys. Thread-safe; raises whatever ``render`` raises.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Callable, Hashable


class VersionedCache:
    def __init__(self, max_entries: int = 128) -> None:
        self.max_entries = max_entries
        self._lock = threading.Lock()
        self._entries: OrderedDict[Hashable, tuple[int, Any]] = OrderedDict()
        self._render_locks: dict[Hashable, threading.Lock] = {}
        self.renders = 0  # how many times render() ran (tests and benchmarks read it)

    def _fresh(self, key: Hashable, version: int) -> tuple[int, Any] | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry[0] >= version:
                self._entries.move_to_end(key)
                return entry
            return None

    def get(self, key: Hashable, version: int, render: Callable[[], tuple[int, Any]]) -> tuple[int, Any]:
        """``(version, value)`` for ``key`` at ``version`` or newer, rendering it only if needed."""
        entry = self._fresh(key, version)
        if entry is not None:
            return entry
        with self._lock:
            render_lock = self._render_locks.setdefault(key, threading.Lock())
        with render_lock:  # the first thread renders; the others find its result when they get here
            entry = self._fresh(key, version)
            if entry is not None:
                return entry
            entry = render()
            with self._lock:
                self.renders += 1
                old = self._entries.get(key)
                if old is None or old[0] <= entry[0]:
                    self._entries[key] = entry
                self._entries.move_to_end(key)
                while len(self._entries) > self.max_entries:
                    evicted, _ = self._entries.popitem(last=False)
                    self._render_locks.pop(evicted, None)
            return entry
