"""The table page keeps its socket past its session's end, in Debian's Chromium against the
real bot and the fake Discord: with one-minute sessions (LIVE_SESSION_MINUTES=1) the page signs
in again before the end (the SDK's authorize, then /api/token), hands the socket the new
session (``renew``) and is answered ``renewed``; the first socket stays open past the first
session's end, with no reload and no reconnection. The socket's address names the instance."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import launched, need_browser
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import bot_env
from tests.e2e.live import live_env
from tests.fakediscord import FakeDiscord
from tests.fakediscord.endpoint import free_port, wait_ok

pytestmark = pytest.mark.timeout(240)

SESSION_SECONDS = 60


class Sockets:
    """The page's websockets, what each sent and received, and whether it closed."""

    def __init__(self, page: Any) -> None:
        self.urls: list[str] = []
        self.sent: list[dict[str, Any]] = []
        self.received: list[dict[str, Any]] = []
        self.closed = 0
        page.on("websocket", self._opened)

    def _opened(self, ws: Any) -> None:
        self.urls.append(ws.url)
        ws.on("framesent", lambda text: self.sent.append(json.loads(text)))
        ws.on("framereceived", lambda text: self.received.append(json.loads(text)))
        ws.on("close", lambda _ws: setattr(self, "closed", self.closed + 1))

    def kinds(self, frames: list[dict[str, Any]]) -> list[str]:
        return [str(f.get("type")) for f in frames]


async def test_the_page_renews_its_session_over_the_open_socket(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    browser_path = need_browser()

    fake, port = fake_discord, free_port()
    fake.activities.accept_mock_codes = True
    env = {**bot_env(tmp_path), **live_env(fake, port), "LIVE_SESSION_MINUTES": "1"}
    await bot_process.start(env=env)
    await wait_ok(port)
    alice = fake.user_named("alice")
    channel = fake.channel_named("games")
    instance = fake.activities.add_instance(channel, [alice])
    url = f"http://127.0.0.1:{port}/?instance_id={instance}&channel_id={channel}&user_id={alice}"
    async with launched(browser_path) as browser:
        page = await (await browser.new_context()).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        sockets = Sockets(page)
        signed_in = time.monotonic()
        await page.goto(url)
        await page.wait_for_selector(".lobby", timeout=15_000)
        assert sockets.urls == [f"ws://127.0.0.1:{port}/api/live?instance={instance}"]
        welcome = next(f for f in sockets.received if f["type"] == "welcome")
        assert 0 < welcome["expires_in"] <= SESSION_SECONDS
        await fake.wait_for(lambda: "renewed" in sockets.kinds(sockets.received), timeout=60)
        assert sockets.kinds(sockets.sent) == ["hello", "renew"]
        assert fake.activities.exchanges == 2  # the first sign-in and the renewal
        # past the first session's end: the same socket, open, and the page as it was
        await asyncio.sleep(max(0.0, signed_in + SESSION_SECONDS + 3 - time.monotonic()))
        assert sockets.closed == 0 and len(sockets.urls) == 1
        assert await page.locator(".status").count() == 0
        await page.wait_for_selector(".lobby", timeout=1_000)
        assert errors == []
