"""The table page through a restart of the bot, in Debian's Chromium: two tabs on a game of
2-player Hearts, the bot stopped and started again under them; both pages reconnect by
themselves, show the version the database holds, and the next move made on one page shows
on the other."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest

from tests.e2e.browser import launched, move_on_page, need_browser
from tests.e2e.conftest import BotProcess
from tests.e2e.test_activity_page import game_in, open_tab, start_serving_pages
from tests.fakediscord import FakeDiscord
from tests.fakediscord.endpoint import wait_ok

pytestmark = pytest.mark.timeout(180)

MOVE_SECONDS = 20.0


async def test_open_pages_reconnect_after_a_restart_and_play_on(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    browser_path = need_browser()

    fake, db = fake_discord, tmp_path / "bot.db"
    env, port = await start_serving_pages(fake, bot_process, tmp_path)
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    channel = fake.add_channel(fake.guild_named("Test Server"), "table-restart")
    instance = fake.activities.add_instance(channel, [alice, bob])
    base = f"http://127.0.0.1:{port}/?instance_id={instance}&channel_id={channel}"
    rng = random.Random(37)
    async with launched(browser_path) as browser:
        tabs = [
            await open_tab(browser, f"{base}&user_id={alice}", alice, "restart-alice"),
            await open_tab(browser, f"{base}&user_id={bob}", bob, "restart-bob"),
        ]
        host, guest = tabs
        await host.lobby("open:hearts")
        await guest.lobby("join")
        await host.lobby("start")
        for tab in tabs:
            await tab.page.wait_for_selector('.table[data-game="hearts"]', timeout=15_000)

        def version() -> int:
            row = game_in(db, channel)
            assert row is not None
            return row[1]

        async def one_move() -> None:
            """A move made on one of the pages (through its socket) and saved, within
            MOVE_SECONDS (a reconnected page may take a moment to offer its moves)."""
            before, deadline = version(), time.monotonic() + MOVE_SECONDS
            while time.monotonic() < deadline:
                for tab in rng.sample(tabs, len(tabs)):
                    if await move_on_page(tab, rng) and version() > before:
                        return
                await asyncio.sleep(0.05)
            raise AssertionError(f"no page could move in {MOVE_SECONDS:.0f} s")

        for _ in range(3):
            await one_move()
        await bot_process.stop()
        await bot_process.start(env=env)
        await wait_ok(port)
        row = game_in(db, channel)
        assert row is not None and row[0] == "active"
        for tab in tabs:
            await tab.wait_version(row[1], timeout=30)
        # Only a page whose socket came back can move, and the other page sees that move
        # only through its own socket: both reconnected, without a reload.
        await one_move()
        after = game_in(db, channel)
        assert after is not None and after[1] > row[1]
        for tab in tabs:
            await tab.wait_version(after[1])
            assert tab.errors == [], tab.errors
