"""The party load script itself, small: boards follow, rounds go in bursts, the report adds up."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_small_party_is_measured_and_nothing_is_lost():
    run = subprocess.run(
        [sys.executable, "benchmarks/dashboard_live.py", "--viewers", "6", "--matches", "2", "--rounds", "12",
         "--burst", "6", "--gap", "0.3", "--resend", "3", "--server-timing", "--max-seconds", "60"],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    out = run.stdout
    assert "acknowledged 12, lost 0, duplicated 0; board/round pairs missed 0; board errors 0" in out
    assert "answers {'201': 15}" in out  # 12 rounds and 3 resends, each answered 201
    assert re.search(r"every board following it has it: p50 \d+ .*\(36 samples\)", out)  # 3 boards x 12 rounds
    events = float(re.search(r"events per board: ([\d.]+)", out).group(1))
    assert 1 < events <= 1 + 12  # the first event, then at most one per round
    assert re.search(r"waiting for the writer lock +p50 \d+", out)  # the server's own timing came back
