"""The live table's sessions hold for a socket's whole life, through the real bot process: a
socket is closed (4001) when its session ends, unless the page renewed it over the socket with
a new session of the same user; a user removed from the activity instance loses the socket
(4003) at the next re-check, one call to Discord for all the instance's sockets; an address
naming another instance than the hello is refused."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp
import pytest

from tests.e2e.conftest import BotProcess
from tests.e2e.driver import bot_env
from tests.e2e.live import Client, connect, live_env, login
from tests.fakediscord import FakeDiscord
from tests.fakediscord.activities import CLIENT_SECRET
from tests.fakediscord.endpoint import free_port, wait_ok
from web.sessions import Sessions

pytestmark = pytest.mark.timeout(180)

RECHECK_SECONDS = 30  # the longest a removed user may keep the socket
INSTANCE_CALLS = "GET /applications/{application_id}/activity-instances/{instance_id}"


async def welcomed(client: Client) -> int:
    """The seconds the welcome says the socket's session has left."""
    return int((await client.wait(lambda f: f["type"] == "welcome"))["expires_in"])


async def table_of_two(
    fake: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> tuple[int, int, int, str]:
    """The bot serving the live table: its port, alice and bob, and their instance in #games."""
    port = free_port()
    await bot_process.start(env={**bot_env(tmp_path), **live_env(fake, port)})
    await wait_ok(port)
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    return port, alice, bob, fake.activities.add_instance(fake.channel_named("games"), [alice, bob])


async def test_a_socket_lives_as_long_as_its_session_unless_renewed(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake = fake_discord
    port, alice, bob, instance = await table_of_two(fake, bot_process, tmp_path)
    short = Sessions(CLIENT_SECRET, seconds=5)  # the fake's secret: a session of 5 s
    async with aiohttp.ClientSession() as http:
        ending = await connect(http, port, short.issue(alice, "alice"), instance, alice)
        renewed = await connect(http, port, short.issue(alice, "alice"), instance, alice)
        assert await welcomed(ending) <= 5 and await welcomed(renewed) <= 5
        await renewed.send({"type": "renew", "session": await login(http, fake, port, alice)})
        answer = await renewed.wait(lambda f: f["type"] == "renewed")
        assert answer["expires_in"] > 14 * 60

        assert await ending.closed_with(timeout=10) == 4001  # its session ended
        await asyncio.sleep(2)
        assert renewed.closed is None  # past the first session's end, still served

        # a session of someone else, or a forged one, does not renew: the socket is closed
        for session in (await login(http, fake, port, bob), Sessions("x").issue(alice, "a")):
            other = await connect(http, port, short.issue(alice, "alice"), instance, alice)
            await welcomed(other)
            await other.send({"type": "renew", "session": session})
            assert await other.closed_with() == 4001

        # the address may name the instance (a balancer's key), but only the hello's
        session = await login(http, fake, port, alice)
        ws = await http.ws_connect(f"http://127.0.0.1:{port}/api/live?instance=another")
        wrong = Client(ws, alice)
        await wrong.send({"type": "hello", "session": session, "instance": instance})
        assert await wrong.closed_with() == 4003
        await renewed.close()


async def test_a_user_removed_from_the_instance_loses_the_socket_at_the_next_check(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake = fake_discord
    port, alice, bob, instance = await table_of_two(fake, bot_process, tmp_path)
    async with aiohttp.ClientSession() as http:
        sessions = {user: await login(http, fake, port, user) for user in (alice, bob)}
        clients = [await connect(http, port, sessions[u], instance, u) for u in (alice,) * 3]
        removed = await connect(http, port, sessions[bob], instance, bob)
        for client in (*clients, removed):
            await welcomed(client)
        asked = fake.stats.calls[INSTANCE_CALLS]
        fake.activities.instances[instance].users.remove(bob)
        assert await removed.closed_with(timeout=RECHECK_SECONDS + 5) == 4003
        assert fake.stats.calls[INSTANCE_CALLS] == asked + 1  # one call for the 4 sockets
        assert all(client.closed is None for client in clients)
        for client in clients:
            await client.close()
