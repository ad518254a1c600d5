"""Shared by the browser tests of every folder: the real app on waitress in a thread (free port,
temporary database), driven by Playwright through Debian's Chromium. One Playwright instance serves the
whole session (its sync API cannot run twice at once). Skipped cleanly when Chromium or Playwright is
missing.

Screenshots go to a temporary folder; set COMPANION_SHOTS=/some/dir to keep copies to look at."""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                      args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                            # a test-pattern camera, allowed without a prompt
                                            "--use-fake-device-for-media-stream",
                                            "--use-fake-ui-for-media-stream"])
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from companion.web import create_app
    from companion.web.server import make_server

    app = create_app({"DATABASE": str(tmp_path_factory.mktemp("db") / "companion.sqlite3")})
    srv = make_server(app, "127.0.0.1", 0)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.effective_port}"
    app.extensions["companion.broker"].close()  # open streams end now...
    time.sleep(0.5)  # ...and their threads finish writing before the server's sockets close
    srv.close()


@pytest.fixture
def shot(tmp_path):
    """``shot(page, name)`` saves a full-page screenshot (and a copy under $COMPANION_SHOTS)."""
    keep = os.environ.get("COMPANION_SHOTS")

    def take(page, name: str) -> Path:
        path = tmp_path / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            shutil.copy(path, Path(keep) / path.name)
        return path
    return take
