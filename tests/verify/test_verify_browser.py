"""The settle-it page in a real browser: photograph the table, then ask the rules about a play.

The app and the browser come from tests/conftest.py. Set COMPANION_SHOTS=/some/dir to keep the
screenshots.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def page(browser, server):
    context = browser.new_context(viewport={"width": 420, "height": 900})  # a phone
    tab = context.new_page()
    tab.goto(server + "/verify")
    yield tab
    context.close()


def test_a_photo_of_the_table_comes_back_checked(page, tmp_path, shot):
    from companion.synth import render_photo

    data, _ = render_photo(7003, kind="layout", size=(960, 720), name="table.jpg")
    photo = tmp_path / "table.jpg"
    photo.write_bytes(data)
    page.set_input_files("input[name=photo]", str(photo))
    page.click("text=Check every junction")
    page.wait_for_selector(".verify-verdict", timeout=60_000)
    assert page.locator("img.verify-shot").count() == 1
    assert page.locator(".verify-tiles .verify-tile").count() >= 1
    shot(page, "verify-photo")


def test_the_rules_say_why_a_play_is_not_allowed(page, shot):
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
    shot(page, "verify-rules")
