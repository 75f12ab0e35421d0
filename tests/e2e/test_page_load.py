"""The table page's loading, in Debian's Chromium against the real bot and the fake Discord.

A viewer opens the page in a channel with no game, outside Discord: the page marks itself
``interactive`` (page/src/main.ts) when the lobby's first button is drawn enabled; it fetched
``index.html`` (the start-up script and stylesheet inside it, allowed by the page's
Content-Security-Policy) and the files it names, gzipped, within the build's start-up budget
(tools/page_budget.py), and not the Embedded App SDK (fetched inside Discord only). The time
to the mark is printed, unthrottled and throttled (4x CPU, DevTools' Fast 3G); the target
for it is bench/page_load.py's, not this test's.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import launched, need_browser
from tests.e2e.conftest import BotProcess
from tests.e2e.loading import load, throttle
from tests.e2e.test_activity_page import start_serving_pages
from tests.fakediscord import FakeDiscord
from tools import page_budget

pytestmark = pytest.mark.timeout(120)


def watch(page: Any) -> tuple[list[str], dict[str, str | None]]:
    """The page's errors (a script or stylesheet its policy refused is one in the console),
    and each file's Content-Encoding as it came (by file name)."""
    errors: list[str] = []
    encodings: dict[str, str | None] = {}

    def answered(response: Any) -> None:
        encodings[response.url.rsplit("/", 1)[1]] = response.headers.get("content-encoding")

    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("response", answered)
    return errors, encodings


async def test_the_page_is_usable_after_fetching_its_start_up_files_only(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    browser_path = need_browser()

    fake = fake_discord
    _, port = await start_serving_pages(fake, bot_process, tmp_path)
    channel = fake.channel_named("general")
    alice = fake.user_named("alice")
    instance = fake.activities.add_instance(channel, [alice])
    url = f"http://127.0.0.1:{port}/?instance_id={instance}&channel_id={channel}&user_id={alice}"
    start = {p.name for p in page_budget.start_files(page_budget.DIST)} - {page_budget.INDEX}
    figures = []
    async with launched(browser_path) as browser:
        for throttled in (False, True):
            page = await (await browser.new_context()).new_page()  # nothing cached
            errors, encodings = watch(page)
            if throttled:
                await throttle(page)
            loaded = await load(page, url, timeout=60 if throttled else 15)
            assert await page.locator("[data-lobby]:enabled").count() > 0
            scripts = [
                r
                for r in loaded.resources
                if r["name"].endswith((".js", ".css")) and "/assets/" in r["name"]
            ]
            names = {r["name"].rsplit("/", 1)[1] for r in scripts}
            assert names == start, names  # the SDK's chunk was not fetched
            assert all(encodings[name] == "gzip" for name in names), encodings
            assert encodings[url.rsplit("/", 1)[1]] == "gzip"  # the document
            assert loaded.html_bytes > 0
            sent = loaded.html_bytes + sum(int(r["bytes"]) for r in scripts)
            assert sent <= page_budget.START_BUDGET
            assert errors == []
            figures.append(f"{'throttled' if throttled else 'unthrottled'} "
                           f"{loaded.interactive:.0f} ms ({sent} B to start)")  # fmt: skip
    sys.stdout.write("\npage interactive: " + ", ".join(figures) + "\n")
