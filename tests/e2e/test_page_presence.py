"""A player with the live table open gets no DM hand writes: the page shows the hand, and the
channel's table is the only message the moves edit. Through the real bot and the fake Discord,
over the sockets the page opens (db/presence.py, delivery/onpage.py, web/pages.py).

alice and bob play 2-player Hearts from their pages: while both are open, no message is sent
to or edited in either DM channel, and the channel's table is edited. bob's page closes: his
hand arrives in his DMs, up to date, notifying only if it is his move; from then on his DM
follows the game again, and he plays a card from it, which alice's page shows.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.e2e.conftest import BotProcess
from tests.e2e.driver import bot_env, game_row, live_move_buttons, quiet
from tests.e2e.live import Client, connect, live_env, login
from tests.fakediscord import FakeDiscord
from tests.fakediscord.endpoint import free_port, wait_ok

pytestmark = pytest.mark.timeout(180)

MOVES = 12  # moves made from the pages while both are open
SILENT = 1 << 12  # SUPPRESS_NOTIFICATIONS: a message that does not notify


def dm_writes(fake: FakeDiscord, *users: int) -> list[str]:
    """The bot's message writes (posts and edits) in these users' DM channels."""
    channels = {fake.dm_channel_id(u) for u in users} - {None}
    return [
        f"{r.method} {r.path}"
        for r in fake.requests
        if r.method in ("POST", "PATCH")
        and (m := re.fullmatch(r"/channels/(\d+)/messages(/\d+)?", r.path))
        and int(m.group(1)) in channels
    ]


def table_edits(fake: FakeDiscord, channel: int) -> int:
    return len(fake.requests_to("PATCH", rf"^/channels/{channel}/messages/\d+$"))


async def move_from_a_page(clients: list[Client], seen: int) -> int:
    """The player whose turn it is (on their page) plays their first offered move; returns
    the version it answered."""
    for _ in range(300):
        for client in clients:
            tables = client.tables()
            frame = tables[-1] if tables else None
            if frame and frame["version"] >= seen and frame["moves"] and frame["step"] is not None:
                actions = [m["action"] for m in frame["moves"]]
                await client.send(
                    {"type": "move", "game_id": frame["game_id"], "step": frame["step"],
                     "action": actions[0]}
                )  # fmt: skip
                version = int(frame["version"])
                for other in clients:
                    await other.wait(lambda f, v=version: f["type"] == "table" and f["version"] > v)
                return version + 1
        await asyncio.sleep(0.05)  # the next table is on its way
    raise AssertionError("nobody on a page had a move")


async def test_the_dm_hand_waits_while_the_page_shows_it(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db, port = fake_discord, tmp_path / "bot.db", free_port()
    await bot_process.start(env={**bot_env(tmp_path), **live_env(fake, port)})
    await wait_ok(port)
    channel = fake.channel_named("games")
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    instance = fake.activities.add_instance(channel, [alice, bob])
    async with aiohttp.ClientSession() as http:
        pages = [
            await connect(http, port, await login(http, fake, port, user), instance, user)
            for user in (alice, bob)
        ]
        host, guest = pages
        await host.send({"type": "lobby", "op": "open", "game": "hearts"})
        await host.wait(lambda f: f["type"] == "lobby" and f["lobby"] is not None)
        await quiet(fake)
        await guest.send({"type": "lobby", "op": "join"})
        await host.wait(lambda f: f["type"] == "lobby" and len(_players(f)) == 2)
        await host.send({"type": "lobby", "op": "start"})
        for page in pages:
            await page.wait(lambda f: f["type"] == "table")
        seen = 0
        for _ in range(MOVES):
            seen = await move_from_a_page(pages, seen)
        await quiet(fake)
        assert dm_writes(fake, alice, bob) == []  # neither hand went to a DM
        assert table_edits(fake, channel) > 0  # the table follows the game

        # bob's page closes: his hand comes to his DMs, up to date
        await guest.close()
        await fake.wait_for(lambda: bool(fake.dm_messages(bob)), timeout=15)
        await quiet(fake)
        row = game_row(db)
        dm = fake.dm_messages(bob)[-1]
        bob_due = bool(live_move_buttons([dm]))
        assert bool(int(dm.get("flags", 0)) & SILENT) is not bob_due, dm.get("flags")
        assert dm_writes(fake, alice) == []  # alice's page is still open

        # play on until bob moves from his DM; alice's page shows it
        for _ in range(10):
            found = live_move_buttons(fake.dm_messages(bob))
            if found:
                break
            seen = await move_from_a_page([host], max(seen, int(row["version"])))
            await quiet(fake)
        assert found, "bob's DM never offered him a move"
        message, buttons = found
        version = int(game_row(db)["version"])
        click = await fake.click(bob, int(message["id"]), buttons[0].custom_id or "")
        await click.wait_response()
        await host.wait(lambda f: f["type"] == "table" and f["version"] > version)
        await host.close()
    await quiet(fake)


def _players(frame: dict[str, Any]) -> list[Any]:
    lobby = frame.get("lobby") or {}
    return list(lobby.get("players", []))
