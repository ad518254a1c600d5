"""A party on loopback: N boards follow the matches live while phones send a burst of rounds at once.

Starts ``companion serve`` in a child process (its own interpreter, as at a party) on a free port of
127.0.0.1 with a temporary database, creates ``--matches`` matches, and opens ``--viewers`` boards spread
over them. Each board follows its match as ``board.js`` does: one event stream
(``/m/<id>/live/events``) whose events carry the board's rendered live part. Then phones post
``--rounds`` rounds in bursts of ``--burst`` sent at the same moment, ``--gap`` seconds apart
(``--gap 0``: back to back), each with an ``Idempotency-Key``; the first ``--resend`` are sent twice at
once (a phone that retried).

Prints the delivery latency (from sending a round to a board having the live part that shows it, per
round and board) and the round POSTs' latency, each as p50/p95/p99/max; the answers and errors; and
whether a round was lost or recorded twice (every acknowledged round is in its match once, rounds
numbered 1, 2, ... without gaps). Exit status 1 if a round was lost or duplicated or a board missed one.

``--server-timing`` also has the server time each request (``COMPANION_TIMING_LOG``, see
``companion.web.timing``) and prints, for the round POSTs, how long each waited for a server thread,
ran in its handler (and of that, on the CPU, waiting for the writer lock, in its transaction and
committing), and what is left of the latency the phone saw (connecting, parsing, sending the answer,
and this script's own scheduling). The CPU used by the server and by this script during the bursts
is printed in any case: both share the machine's cores.

Bounded: it stops by itself after ``--max-seconds`` and refuses more than 1000 viewers or 5000 rounds.
Only 127.0.0.1 is contacted.

    .venv/bin/python benchmarks/dashboard_live.py --viewers 200 --rounds 200 --burst 20 --gap 1
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import math
import os
import sys
import tempfile
import time
from pathlib import Path

from companion.web.local_server import LocalServer, ServerStartError

HOST = "127.0.0.1"
MAX_VIEWERS, MAX_ROUNDS = 1000, 5000


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) of a non-empty list."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def spread(values: list[float]) -> str:
    if not values:
        return "no samples"
    ms = lambda s: f"{1000 * s:.0f}"  # noqa: E731
    return (f"p50 {ms(percentile(values, 50))} / p95 {ms(percentile(values, 95))} / "
            f"p99 {ms(percentile(values, 99))} / max {ms(max(values))} ms ({len(values)} samples)")


async def http(port: int, method: str, path: str, body: bytes = b"", headers: dict | None = None,
               timeout: float = 30.0) -> tuple[int, bytes]:
    """One HTTP/1.0 exchange (the server closes the connection after the answer)."""
    async def exchange() -> tuple[int, bytes]:
        reader, writer = await asyncio.open_connection(HOST, port)
        head = [f"{method} {path} HTTP/1.0", f"Host: {HOST}:{port}", f"Content-Length: {len(body)}"]
        head += [f"{k}: {v}" for k, v in (headers or {}).items()]
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        data = await reader.read()
        writer.close()
        status_line, _, rest = data.partition(b"\r\n")
        return int(status_line.split()[1]), rest.partition(b"\r\n\r\n")[2]
    return await asyncio.wait_for(exchange(), timeout)


class Board:
    """One board, as ``board.js`` follows a match: the board's event stream, each event the live part."""

    def __init__(self, port: int, match_id: str) -> None:
        self.port, self.match_id = port, match_id
        self.shown: list[tuple[int, float]] = []  # (version, when its whole event had arrived)
        self.errors: list[str] = []
        self.connected = asyncio.Event()

    async def follow(self) -> None:
        try:
            reader, writer = await asyncio.open_connection(HOST, self.port)
            writer.write(f"GET /m/{self.match_id}/live/events HTTP/1.0\r\nHost: {HOST}\r\n\r\n".encode())
            status = await reader.readline()
            if b" 200 " not in status:
                self.errors.append(f"stream refused: {status.decode().strip()}")
                return
            self.connected.set()
            # read what has arrived and cut it at the blank lines that end events (not line by line:
            # this script shares the machine's two cores with the server it measures)
            pending = b""
            while chunk := await reader.read(1 << 16):
                arrived = time.perf_counter()
                *blocks, pending = (pending + chunk).split(b"\n\n")
                for block in blocks:
                    if block.startswith(b"id: "):  # the event is complete: the board shows it
                        self.shown.append((int(block[4:block.index(b"\n")]), arrived))
            self.errors.append("stream ended")
        except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
            self.errors.append(f"stream: {exc!r}")
        finally:
            self.connected.set()


def first_at_or_after(seen: list[tuple[int, float]], version: int) -> float | None:
    """When ``seen`` (versions growing) first reached ``version``, or None."""
    k = bisect.bisect_left(seen, (version, float("-inf")))
    return seen[k][1] if k < len(seen) else None


def _cpu_seconds(pid: int) -> float | None:
    """User plus system CPU seconds used so far by process ``pid`` (Linux), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def timing_report(log: Path, sent_at: dict[str, list[float]]) -> None:
    """Print the server's own timing of the round POSTs (see ``--server-timing``)."""
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    posts = [t for t in lines if t["method"] == "POST" and t["path"].endswith("/rounds")]
    if not posts:
        print("server timing: no round POSTs logged")
        return
    print(f"server timing of {len(posts)} round POSTs (ms):")
    for field, what in (("queued", "waiting for a server thread"), ("handler", "in the handler"),
                        ("cpu", "  of which on the CPU"), ("lock_wait", "  waiting for the writer lock"),
                        ("txn", "  in the transaction"), ("commit", "  committing (fsync)")):
        values = [t[field] for t in posts if t[field] is not None]
        print(f"  {what:<30} {spread(values)}")
    # the rest of what the phone saw: connect, read and parse the request, write the answer, and this
    # script's own turn on the CPU; paired by Idempotency-Key (keys sent once only)
    server_side = {}
    for t in posts:
        server_side.setdefault(t["key"], []).append((t["queued"] or 0.0) + t["handler"])
    outside = [seen - server_side[key][0] for key, seens in sent_at.items()
               if len(seens) == 1 and len(server_side.get(key, [])) == 1 for seen in seens]
    print(f"  {'outside the handler':<30} {spread(outside)}")


async def party(port: int, args: argparse.Namespace, server_pid: int) -> int:
    deadline = time.perf_counter() + args.max_seconds
    matches = []
    for m in range(args.matches):
        body = json.dumps({"players": ["Ann", "Bob"], "rules": "block", "target": 10_000}).encode()
        status, data = await http(port, "POST", "/api/matches", body, {"Content-Type": "application/json"})
        if status != 201:
            print(f"cannot create a match: {status} {data[:200]!r}")
            return 1
        matches.append(json.loads(data))
    boards = [Board(port, matches[k % len(matches)]["id"]) for k in range(args.viewers)]
    tasks = [asyncio.ensure_future(board.follow()) for board in boards]
    await asyncio.wait_for(asyncio.gather(*(b.connected.wait() for b in boards)), 30)
    await asyncio.sleep(0.5)  # every board has its first event
    refused = sum(1 for b in boards if b.errors)

    sent: dict[str, float] = {}     # idempotency key -> first send time
    acknowledged: dict[str, tuple[str, int]] = {}  # key -> (match id, round n)
    api_latency: list[float] = []
    statuses: dict[str, int] = {}
    seen_by_phone: dict[str, list[float]] = {}  # key -> latency of each send

    def count(what: str) -> None:
        statuses[what] = statuses.get(what, 0) + 1

    async def post_round(k: int) -> None:
        match = matches[k % len(matches)]
        key = f"load-{k}"
        body = json.dumps({"hands": {"Ann": "1-0", "Bob": ""}}).encode()
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {match['host_token']}",
                   "Idempotency-Key": key}
        start = time.perf_counter()
        sent.setdefault(key, start)
        try:
            status, data = await http(port, "POST", f"/api/matches/{match['id']}/rounds", body, headers)
        except (OSError, asyncio.TimeoutError) as exc:
            count(type(exc).__name__)
            return
        api_latency.append(time.perf_counter() - start)
        seen_by_phone.setdefault(key, []).append(api_latency[-1])
        count(str(status))
        if status == 201:
            n = json.loads(data)["n"]
            if acknowledged.setdefault(key, (match["id"], n)) != (match["id"], n):
                count("resend answered differently")

    # waves of --burst rounds sent at the same moment, --gap seconds apart; the first --resend rounds
    # are sent twice at once, as a phone that gave up on a slow answer and tried again
    burst_start = time.perf_counter()
    cpu_start = os.times(), _cpu_seconds(server_pid)
    for first in range(0, args.rounds, args.burst):
        if time.perf_counter() > deadline:
            count("not sent: out of time")
            break
        wave_start = time.perf_counter()
        wave = range(first, min(args.rounds, first + args.burst))
        await asyncio.gather(*(post_round(k) for k in wave), *(post_round(k) for k in wave if k < args.resend))
        await asyncio.sleep(max(0.0, wave_start + args.gap - time.perf_counter()))
    burst = time.perf_counter() - burst_start
    mine = os.times()
    client_cpu = mine.user + mine.system - cpu_start[0].user - cpu_start[0].system
    server_cpu = _cpu_seconds(server_pid)
    server_cpu = None if server_cpu is None or cpu_start[1] is None else server_cpu - cpu_start[1]

    # wait (bounded) for every board to show the last version of its match
    final = {}
    for match in matches:
        status, data = await http(port, "GET", f"/api/matches/{match['id']}")
        final[match["id"]] = json.loads(data)
    settle = min(deadline, time.perf_counter() + 10)
    while time.perf_counter() < settle and not all(
            b.shown and b.shown[-1][0] >= final[b.match_id]["version"] for b in boards if not b.errors):
        await asyncio.sleep(0.05)
    for task in tasks:
        task.cancel()

    board_latency, missed = [], 0
    for key, (match_id, n) in acknowledged.items():
        base = next(m["version"] for m in matches if m["id"] == match_id)
        for board in boards:
            if board.match_id != match_id or not board.shown:  # refused: counted above
                continue
            seen = first_at_or_after(board.shown, base + n)
            if seen is None:
                missed += 1
            else:
                board_latency.append(max(0.0, seen - sent[key]))

    lost = duplicated = 0
    for match in matches:
        rounds = final[match["id"]]["rounds"]
        recorded = [r["n"] for r in rounds]
        wanted = sorted(n for mid, n in acknowledged.values() if mid == match["id"])
        lost += len(set(wanted) - set(recorded))
        duplicated += len(recorded) - len(wanted)  # every recorded round was sent under its own key
        if recorded != list(range(1, len(recorded) + 1)):
            print(f"match {match['id']}: rounds not numbered 1..n: {recorded[:20]}")
    board_errors = sum(len(b.errors) for b in boards)
    args.seen_by_phone = seen_by_phone

    print(f"viewers {args.viewers} on {args.matches} match(es): open {args.viewers - refused}, refused {refused}")
    print(f"rounds: {args.rounds} in waves of {args.burst} sent at once, {args.gap:g} s apart ({args.resend} sent "
          f"twice), {burst:.1f} s in all; answers {dict(sorted(statuses.items()))}")
    print(f"round POST latency: {spread(api_latency)}")
    print(f"round sent -> every board following it has it: {spread(board_latency)}")
    following = [b for b in boards if b.shown]
    if following:  # bursts coalesce: fewer events than rounds, each with the latest version
        events = sum(len(b.shown) for b in following) / len(following)
        print(f"events per board: {events:.1f} for {args.rounds / args.matches:g} rounds of its match")
    used = f"server {server_cpu:.1f} s, " if server_cpu is not None else ""
    print(f"CPU during the bursts: {used}this script {client_cpu:.1f} s, of {burst:.1f} s on {os.cpu_count()} cores")
    print(f"acknowledged {len(acknowledged)}, lost {lost}, duplicated {duplicated}; "
          f"board/round pairs missed {missed}; board errors {board_errors}")
    bad = lost or duplicated or missed or len(acknowledged) < args.rounds
    return 1 if bad else 0


def _server_peak_rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=200, help="boards following live (default 200)")
    parser.add_argument("--matches", type=int, default=4, help="matches the boards and rounds spread over")
    parser.add_argument("--rounds", type=int, default=200, help="rounds in all (default 200)")
    parser.add_argument("--burst", type=int, default=20, help="rounds sent at the same moment (default 20)")
    parser.add_argument("--gap", type=float, default=1.0, help="seconds from one burst to the next (default 1)")
    parser.add_argument("--resend", type=int, default=20, help="rounds each sent twice at once, same key")
    parser.add_argument("--server-timing", action="store_true",
                        help="have the server time each request and print where a round POST's time goes")
    parser.add_argument("--max-seconds", type=float, default=90.0, help="stop after this long, done or not")
    args = parser.parse_args()
    if not (0 < args.viewers <= MAX_VIEWERS and 0 < args.rounds <= MAX_ROUNDS and args.matches > 0
            and args.burst > 0 and args.gap >= 0 and 0 < args.max_seconds <= 600):
        parser.error(f"viewers 1..{MAX_VIEWERS}, rounds 1..{MAX_ROUNDS}, max-seconds up to 600")

    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "server.log"  # a file, not a pipe: a full pipe would stall the server
        timing_log = Path(folder) / "timing.jsonl"
        env = {"COMPANION_TIMING_LOG": str(timing_log)} if args.server_timing else {}
        with open(log, "w") as log_file:
            try:
                server = LocalServer(Path(folder) / "party.sqlite3", env=env, stderr=log_file)
            except ServerStartError as exc:
                print(exc)
                return 1
        port = server.port
        try:
            status = asyncio.run(asyncio.wait_for(party(port, args, server.pid), args.max_seconds + 15))
            if args.server_timing:
                timing_report(timing_log, getattr(args, "seen_by_phone", {}))
            peak = _server_peak_rss_mb(server.pid)
            if peak is not None:
                print(f"server peak memory {peak:.0f} MB")
            return status
        finally:
            server.stop()
            errors = [line for line in log.read_text().splitlines() if "ERROR" in line or "Traceback" in line]
            if errors:
                print(f"server logged {len(errors)} error line(s), first: {errors[0]}")


if __name__ == "__main__":
    sys.exit(main())
