"""The table page's time to first use (not a test): ``python -m bench.page_load [runs]``.

The real bot (SQLite) serves the built page (``make page``) against the fake Discord; a viewer
opens it outside Discord in a channel with no game, in Debian's Chromium with its CPU 4 times
slower and DevTools' Fast 3G network (tests/e2e/loading.py), nothing cached, ``runs`` times.
Printed per run and as the median: ms from navigation to the document's last byte, to the
page's script's (the document's, the script being inside it) and to the sign-in's
(``/api/token``) answer, and to the page's
``interactive`` mark (the lobby's first button drawn enabled); the target is 1500 ms. Then
the same with the tab's cache kept (a reload).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
from pathlib import Path

from tests.e2e.browser import chromium
from tests.e2e.driver import bot_env
from tests.e2e.live import live_env
from tests.e2e.loading import Loaded, load, throttle
from tests.fakediscord import FakeDiscord
from tests.fakediscord.endpoint import free_port, wait_ok
from tests.fakediscord.process import BotProcess

TARGET_MS = 1500


def line(loaded: Loaded) -> str:
    # the start-up script inside index.html (page/vite.config.ts) came with the document
    script = loaded.ended("/assets/index-") or loaded.html
    token = loaded.ended("/api/token")
    return (
        f"html {loaded.html:6.0f}  script {script or 0:6.0f}  token {token or 0:6.0f}  "
        f"interactive {loaded.interactive:6.0f} ms"
    )


async def main(runs: int) -> None:
    from playwright.async_api import async_playwright

    browser_path = chromium()
    if browser_path is None:
        raise SystemExit("no chromium")
    fake = FakeDiscord()
    await fake.start()
    guild = fake.add_guild("Bench")
    channel = fake.add_channel(guild, "lobby")
    viewer = fake.add_user("viewer")
    fake.activities.accept_mock_codes = True
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        bot = BotProcess(fake, Path(folder) / "bot.log")
        await bot.start(env={**bot_env(Path(folder)), **live_env(fake, port)})
        await wait_ok(port)
        instance = fake.activities.add_instance(channel, [viewer])
        url = f"http://127.0.0.1:{port}/?instance_id={instance}&channel_id={channel}"
        url += f"&user_id={viewer}"
        cold: list[float] = []
        warm: list[float] = []
        try:
            async with async_playwright() as driver:
                browser = await driver.chromium.launch(
                    executable_path=browser_path, args=["--no-sandbox", "--disable-gpu"]
                )
                try:
                    for run in range(runs):
                        page = await (await browser.new_context()).new_page()
                        await throttle(page)
                        loaded = await load(page, url, timeout=60)
                        cold.append(loaded.interactive)
                        print(f"cold {run + 1}: {line(loaded)}")
                        again = await load(page, url, timeout=60)
                        warm.append(again.interactive)
                        print(f"warm {run + 1}: {line(again)}")
                        await page.context.close()
                finally:
                    await browser.close()
        finally:
            await bot.stop()
            await fake.stop()
    print(f"median to interactive: cold {statistics.median(cold):.0f} ms, "
          f"warm {statistics.median(warm):.0f} ms (target {TARGET_MS} ms)")  # fmt: skip
    print("load average: " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 5))
