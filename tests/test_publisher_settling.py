"""The publisher records which version of a game Discord shows, also when a move lands while
it is writing that record (stub Discord, real store)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, cast

import discord
import pytest

from cogs.pacing import Pacer
from cogs.publisher import Publisher
from db import open_store
from db.store import Store
from service.games import GameService
from service.reports import Report
from tests.test_publisher_memory import HUMANS, _Bot, _Channel, _Message


class _GatedMessage(_Message):
    def __init__(self, message_id: int, gate: asyncio.Event) -> None:
        super().__init__(message_id)
        self.gate = gate

    async def edit(self, **kwargs: Any) -> None:
        await self.gate.wait()


class _GatedChannel(_Channel):
    def __init__(self, gate: asyncio.Event) -> None:
        self.gate = gate

    async def send(self, *args: Any, **kwargs: Any) -> _Message:
        await self.gate.wait()
        return await super().send(*args, **kwargs)

    def get_partial_message(self, message_id: int) -> _Message:
        return _GatedMessage(message_id, self.gate)


class _GatedBot(_Bot):
    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.gate.set()

    def get_partial_messageable(self, channel_id: int, **kwargs: Any) -> _Channel:
        return _GatedChannel(self.gate)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await open_store(tmp_path / "bot.db")
    yield opened
    await opened.close()


async def _next_move(service: GameService, report: Report) -> Report:
    loaded = report.after
    seat = loaded.seats[min(loaded.game.to_act(loaded.state))]
    assert seat.user_id is not None
    action = str(loaded.game.legal_actions(loaded.state, seat.seat)[0])
    return await service.act(loaded.row.id, seat.user_id, seat.step, action)


async def test_a_move_landing_while_the_shown_version_is_written_is_recorded_too(
    store: Store,
) -> None:
    service = GameService(store, turn_timeout=0)
    bot = _GatedBot()
    publisher = Publisher(cast(discord.Client, bot), service, Pacer(scale=0.0001))
    lobby = await service.open_lobby(
        game="ten", guild_id=1, channel_id=700, host_id=HUMANS[0], host_name="A"
    )
    await service.join(lobby.row.id, HUMANS[1], "B")
    started = await service.start(lobby.row.id, HUMANS[0])
    moved: list[Report] = []
    record = store.set_rendered_version

    async def record_while_a_move_lands(game_id: int, version: int) -> None:
        if not moved:
            # The start is shown and being recorded: a move lands now, and its Discord writes
            # wait until this record is written.
            bot.gate.clear()
            moved.append(await _next_move(service, started))
            publisher.publish(moved[0])
            await record(game_id, version)
            bot.gate.set()
            return
        await record(game_id, version)

    store.set_rendered_version = record_while_a_move_lands  # type: ignore[method-assign]
    publisher.publish(started)
    await publisher.outbox.idle()
    assert moved, "the start was never recorded as shown"
    row = await store.game(lobby.row.id)
    assert row.version == moved[0].after.row.version
    assert row.rendered_version == row.version
    assert await store.stale_games() == []
