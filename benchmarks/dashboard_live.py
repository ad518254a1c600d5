"""How fast the dashboard follows a match: open N live streams, score rounds, time the fan-out.

Runs the real app on waitress (the same settings as ``companion serve``) on a free local port with a
temporary database, opens ``--streams`` event streams (each as a browser would: one connection,
one server thread), then posts ``--rounds`` rounds one after another and measures, per round, the
time from sending the POST to each stream receiving the new version. Also times the POSTs alone.

    .venv/bin/python benchmarks/dashboard_live.py --streams 40 --rounds 20

Prints the figures; writes nothing.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.web import create_app  # noqa: E402
from companion.web.server import THREADS, make_server  # noqa: E402


def _post(port: int, path: str, body: dict, token: str | None = None) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    conn.request("POST", path, json.dumps(body), headers)
    response = conn.getresponse()
    data = json.loads(response.read())
    conn.close()
    return response.status, data


class Listener(threading.Thread):
    """One live stream: records when each version arrives."""

    def __init__(self, port: int, match_id: str) -> None:
        super().__init__(daemon=True)
        self.port, self.match_id = port, match_id
        self.seen: dict[int, float] = {}
        self.ready = threading.Event()
        self.stop = False

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        conn.request("GET", f"/api/matches/{self.match_id}/events")
        response = conn.getresponse()
        if response.status != 200:
            self.ready.set()
            return
        while not self.stop:
            line = response.fp.readline()
            if not line:
                break
            if line.startswith(b"id: "):
                self.seen[int(line[4:])] = time.perf_counter()
                self.ready.set()
        conn.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": str(Path(folder) / "bench.sqlite3")})
        server = make_server(app, "127.0.0.1", 0)
        threading.Thread(target=server.run, daemon=True).start()
        port = server.effective_port
        status, match = _post(port, "/api/matches", {"players": ["Ann", "Bob"], "rules": "block",
                                                     "target": 10_000})
        assert status == 201, match
        listeners = [Listener(port, match["id"]) for _ in range(args.streams)]
        for listener in listeners:
            listener.start()
        for listener in listeners:
            listener.ready.wait(10)
        refused = [listener for listener in listeners if not listener.seen]  # 503 past the cap
        listeners = [listener for listener in listeners if listener.seen]
        live = len(listeners)
        post_times, fan_out, worst, missed = [], [], [], 0
        for n in range(1, args.rounds + 1):
            version = match["version"] + n  # each round bumps the match's version once
            sent = time.perf_counter()
            status, result = _post(port, f"/api/matches/{match['id']}/rounds",
                                   {"hands": {"Ann": "1-0", "Bob": ""}}, match["host_token"])
            post_times.append(time.perf_counter() - sent)
            assert status == 201, result
            deadline = time.perf_counter() + 5
            while time.perf_counter() < deadline and not all(version in lst.seen for lst in listeners):
                time.sleep(0.002)
            got = [lst.seen[version] - sent for lst in listeners if version in lst.seen]
            missed += len(listeners) - len(got)
            fan_out.extend(got)
            worst.append(max(got))
        for listener in listeners:
            listener.stop = True
        app.extensions["companion.broker"].close()
        time.sleep(0.3)
        server.close()

    ms = lambda s: f"{1000 * s:.1f} ms"  # noqa: E731
    print(f"server threads {THREADS}, stream cap {app.config['MAX_STREAMS']}; streams asked {args.streams}, "
          f"open {live}, refused {len(refused)}")
    print(f"POST round: median {ms(statistics.median(post_times))}, max {ms(max(post_times))} "
          f"over {args.rounds} rounds")
    print(f"change seen by a stream (POST sent -> event read): median {ms(statistics.median(fan_out))}, "
          f"p95 {ms(sorted(fan_out)[int(0.95 * (len(fan_out) - 1))])}, "
          f"slowest stream per round max {ms(max(worst))}; events missed {missed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
