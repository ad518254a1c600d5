"""VersionedCache: one render per version however many threads ask, never an older value."""

from __future__ import annotations

import threading
import time

from companion.web.versioned_cache import VersionedCache


def test_a_newer_version_renders_again_and_an_older_request_gets_the_newer_value():
    cache = VersionedCache()
    assert cache.get("m", 1, lambda: (1, "one")) == (1, "one")
    assert cache.get("m", 1, lambda: (1, "never")) == (1, "one")
    assert cache.get("m", 3, lambda: (3, "three")) == (3, "three")
    assert cache.get("m", 2, lambda: (2, "never")) == (3, "three")
    assert cache.renders == 2


def test_threads_asking_at_once_share_one_render():
    cache = VersionedCache()
    calls = []

    def slow_render():
        calls.append(1)
        time.sleep(0.05)
        return 7, "seven"

    answers = []
    threads = [threading.Thread(target=lambda: answers.append(cache.get("m", 7, slow_render))) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1 and answers == [(7, "seven")] * 20


def test_least_recently_used_keys_are_dropped():
    cache = VersionedCache(max_entries=2)
    for key in "abc":
        cache.get(key, 1, lambda: (1, key))
    cache.get("a", 1, lambda: (1, "again"))
    assert cache.get("a", 1, lambda: (1, "x")) == (1, "again")
