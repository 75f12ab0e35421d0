"""The live table end to end: a real bot process, the fake Discord, websocket viewers.

Alice and Bob play 2-player Hearts (hidden hands) and Carol watches. Every frame each socket
gets is checked against the viewer's own view at that version (tests/web/frames_check.py): a
player's frames never show the other's hand. A move over a socket leaves the mover's DM as it
was while their page is open; a click in Discord (the table's My hand) reaches the sockets; a
stale step, a doubled move and a move from a spectator are refused and change nothing;
flooding and bad sessions close the socket; after a restart a reconnecting viewer gets the
current version.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    action_count,
    bot_env,
    find_button,
    game_row,
    live_move_buttons,
    open_game,
    open_hand,
    quiet,
)
from tests.e2e.live import Client, connect, live_env, login, state_at
from tests.fakediscord import FakeDiscord
from tests.fakediscord.endpoint import free_port, wait_ok
from tests.fakediscord.records import LAUNCH_ACTIVITY
from tests.web.frames_check import check_frame
from web.sessions import Sessions

pytestmark = pytest.mark.timeout(240)


def check_all(db: Path, clients: list[Client], seats: dict[int, int | None]) -> int:
    """Check every table frame every client got; returns how many were checked."""
    checked = 0
    for client in clients:
        for frame in client.tables():
            check_frame(frame, state_at(db, frame["game_id"], frame["version"]), seats[client.user])
            checked += 1
    return checked


def to_move(frames: dict[int, dict[str, Any]]) -> tuple[int, dict[str, Any]]:
    """The viewer with moves, and their frame."""
    return next((user, f) for user, f in frames.items() if f["moves"])


async def test_players_and_a_spectator_on_the_live_table(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db, port = fake_discord, tmp_path / "bot.db", free_port()
    fake.click_settle = 0.05
    env = {**bot_env(tmp_path), **live_env(fake, port)}
    await bot_process.start(env=env)
    await wait_ok(port)
    channel = fake.channel_named("games")
    alice, bob, carol, dora = (fake.user_named(n) for n in ("alice", "bob", "carol", "dora"))
    await open_game(fake, channel, alice, [bob], computers=0, game="hearts")
    table = next(m for m in fake.messages(channel) if "live:" in str(m.get("components")))
    live = find_button(table, "Open the table").custom_id or ""
    launch = await (await fake.click(carol, int(table["id"]), live)).wait_response()
    assert launch.type == LAUNCH_ACTIVITY  # the button opens the live table in the channel
    instance = fake.activities.instance_of(channel)
    assert instance is not None
    command = await (await fake.slash(alice, channel, "hearts table")).wait_response()
    assert command.type == LAUNCH_ACTIVITY and fake.activities.instance_of(channel) == instance
    fake.activities.join(instance, bob)
    seats = {alice: 0, bob: 1, carol: None}
    async with aiohttp.ClientSession() as http:
        clients = {u: await connect(http, port, await login(http, fake, port, u), instance, u)
                   for u in (alice, bob, carol)}  # fmt: skip
        for user, client in clients.items():
            welcome = await client.wait(lambda f: f["type"] == "welcome")
            assert welcome["user"]["id"] == str(user) and welcome["channel_id"] == str(channel)
            await client.wait(lambda f: f["type"] == "table")
        first = {u: c.latest() for u, c in clients.items()}
        assert first[carol]["seat"] is None and first[carol]["moves"] == []
        version = first[alice]["version"]

        # a move over the socket: applied once, on every socket, and in the mover's DM
        mover, frame = to_move({alice: first[alice], bob: first[bob]})
        old_step, action = frame["step"], frame["moves"][0]["action"]
        move = {"type": "move", "game_id": frame["game_id"], "step": old_step, "action": action}
        before = action_count(db)
        await clients[mover].send(move)
        await clients[mover].send(move)  # doubled: refused, never applied twice
        for client in clients.values():
            await client.wait(lambda f: f["type"] == "table" and f["version"] > version)
        refused = await clients[mover].wait(lambda f: f["type"] == "refused")
        assert "no longer available" in refused["reason"]
        assert action_count(db) == before + 1
        # The mover's page shows their hand: their DM is left as it was while it is open
        # (delivery/onpage.py), the channel's table alone follows the move.
        prefix = f"g:{frame['game_id']}:{old_step}:"
        await quiet(fake)
        assert prefix in str(fake.dm_messages(mover)[-1])

        # a stale step and a spectator's move are refused and change nothing
        await clients[mover].send(move)
        await clients[carol].send({**move, "step": 0})
        await clients[carol].wait(lambda f: f["type"] == "refused")
        await asyncio.sleep(0.5)
        assert action_count(db) == before + 1
        assert sum(f["type"] == "refused" for f in clients[mover].frames) == 2

        # a click in Discord shows on the sockets: the due player's hand from the table's
        # My hand (their DM waits for their page to close)
        version = game_row(db)["version"]
        other = next(u for u in (alice, bob) if clients[u].latest()["moves"])
        hand = await open_hand(fake, other, channel)
        found = live_move_buttons([fake.message(hand) or {}])
        assert found is not None
        message, buttons = found
        click = await fake.click(other, int(message["id"]), buttons[0].custom_id or "")
        await click.wait_response()
        for client in clients.values():
            await client.wait(lambda f: f["type"] == "table" and f["version"] > version)
        assert action_count(db) == before + 2
        assert check_all(db, list(clients.values()), seats) >= 9

        # flooding closes the socket; so do a forged session and a user not in the instance
        for _ in range(30):
            await clients[carol].send({"type": "lobby", "op": "nothing"})
        assert await clients[carol].closed_with() == 4008
        forged = Sessions("not the secret").issue(carol, "carol")
        assert await (await connect(http, port, forged, instance, carol)).closed_with() == 4001
        outsider = await login(http, fake, port, dora)
        assert await (await connect(http, port, outsider, instance, dora)).closed_with() == 4003

        # a restart: a viewer reconnecting gets the version the database holds
        for client in clients.values():
            await client.close()
        await bot_process.stop()
        await bot_process.start(env=env)
        await wait_ok(port)
        session = await login(http, fake, port, alice)
        again = await connect(http, port, session, instance, alice)
        frame = await again.wait(lambda f: f["type"] == "table")
        assert frame["version"] == game_row(db)["version"]
        check_all(db, [again], seats)
        await again.close()
