"""`companion serve`: the real server in a child process, its printed addresses, a clean Ctrl-C."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from companion.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_refuses_a_bad_port(capsys):
    assert main(["serve", "--port", "70000"]) == 2
    assert "70000" in capsys.readouterr().err


def test_serve_runs_waitress_prints_where_and_stops_on_ctrl_c(tmp_path):
    port = _free_port()
    db = tmp_path / "party.sqlite3"
    child = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--port", str(port), "--db", str(db)],
                             cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = child.stdout.readline()
        assert first.strip() == f"companion dashboard: http://localhost:{port}/"
        lines = [child.stdout.readline() for _ in range(2)]
        assert any(str(db) in line for line in lines)
        for _ in range(50):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/presets", timeout=2) as response:
                    assert response.headers["Server"] == "companion"  # waitress, not the dev server
                    assert json.load(response)["presets"]
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("the server did not answer")
        assert db.exists()
    finally:
        child.send_signal(signal.SIGINT)
        try:
            assert child.wait(timeout=10) == 0
        finally:
            if child.poll() is None:
                child.kill()
            child.stdout.close()
            child.stderr.close()


def test_serve_reports_a_port_in_use(tmp_path, capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port), "--db", str(tmp_path / "x.sqlite3")]) == 1
    assert f"127.0.0.1:{port}" in capsys.readouterr().err
