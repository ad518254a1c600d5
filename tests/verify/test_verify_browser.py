"""The settle-it page in a real browser: photograph the table, then ask the rules about a play.

The app runs on waitress in a thread; Playwright drives Debian's Chromium. Skipped cleanly when either
is missing. Set COMPANION_SHOTS=/some/dir to keep the screenshots.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def page_url(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    pytest.importorskip("playwright.sync_api")
    from companion.web import create_app
    from companion.web.server import make_server

    app = create_app({"DATABASE": str(tmp_path_factory.mktemp("db") / "companion.sqlite3")})
    server = make_server(app, "127.0.0.1", 0)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}/verify"
    app.extensions["companion.broker"].close()
    server.close()


@pytest.fixture(scope="module")
def page(page_url):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        tab = browser.new_page(viewport={"width": 420, "height": 900})  # a phone
        tab.goto(page_url)
        yield tab
        browser.close()


def _shot(page, name: str) -> None:
    keep = os.environ.get("COMPANION_SHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(keep) / f"{name}.png"), full_page=True)


def test_a_photo_of_the_table_comes_back_checked(page, tmp_path):
    from companion.synth import render_photo

    data, _ = render_photo(7003, kind="layout", size=(960, 720), name="table.jpg")
    photo = tmp_path / "table.jpg"
    photo.write_bytes(data)
    page.set_input_files("input[name=photo]", str(photo))
    page.click("text=Check every junction")
    page.wait_for_selector(".verify-verdict", timeout=60_000)
    assert page.locator("img.verify-shot").count() == 1
    assert page.locator(".verify-tiles .verify-tile").count() >= 1
    _shot(page, "verify-photo")


def test_the_rules_say_why_a_play_is_not_allowed(page):
    page.select_option("select[name=rules]", "block")
    page.fill("textarea[name=layout]", "6-6\n6-4 on 6-6")
    page.fill("input[name=tile]", "3-2")
    page.click("text=Was this play legal?")
    page.wait_for_function("document.getElementById('rules-answer').textContent.startsWith('Not legal')")
    assert "3" in page.text_content("#rules-answer")
    page.fill("input[name=hand]", "4-1,2-0")
    page.click("text=Could they have played?")
    page.wait_for_function("document.getElementById('rules-answer').textContent.startsWith('Not fair')")
    assert "4-1" in page.text_content("#rules-answer")
    _shot(page, "verify-rules")
