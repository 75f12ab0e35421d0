"""The publisher keeps nothing for a game once it is over and shown (many games, stub Discord)."""

from __future__ import annotations

import gc
import itertools
import random
from typing import Any, cast

import discord
from discord.http import Route

from db.store import Store
from delivery.assemble import assemble
from delivery.pacing import Pacer
from delivery.publisher import Publisher
from service.games import GameService
from service.reports import Report

HUMANS = (100, 101)
_ids = itertools.count(10_000)


class _Message:
    def __init__(self, message_id: int) -> None:
        self.id = message_id

    async def edit(self, **kwargs: Any) -> None:
        return None


class _Channel:
    async def send(self, *args: Any, **kwargs: Any) -> _Message:
        return _Message(next(_ids))

    def get_partial_message(self, message_id: int) -> _Message:
        return _Message(message_id)


class _Http:
    async def start_private_message(self, user_id: int) -> dict[str, str]:
        return {"id": str(user_id + 5_000)}

    async def edit_message(self, channel_id: int, message_id: int, **kwargs: Any) -> None:
        return None

    async def request(self, route: Route, **kwargs: Any) -> None:
        """``HTTPClient.request``, which discordkit.rest calls for an edit with a picture (one
        prebuilt body in ``data``): an edit like the others."""
        message_id = int(route.url.rsplit("/", 1)[1])
        await self.edit_message(int(route.channel_id or 0), message_id, **kwargs)


class _Bot:
    """What the publisher uses of discord.Client: every write succeeds."""

    http = _Http()
    allowed_mentions = None

    def get_partial_messageable(self, channel_id: int, **kwargs: Any) -> _Channel:
        return _Channel()

    def get_channel(self, channel_id: int) -> None:
        return None

    def get_guild(self, guild_id: int) -> None:
        return None


async def _play(service: GameService, publisher: Publisher, channel: int, finish: bool) -> None:
    lobby = await service.open_lobby(
        game="ten", guild_id=1, channel_id=channel, host_id=HUMANS[0], host_name="A"
    )
    await service.join(lobby.row.id, HUMANS[1], "B")
    report: Report = await service.start(lobby.row.id, HUMANS[0])
    publisher.publish(report)
    rng = random.Random(channel)
    for _ in range(10_000 if finish else 4):
        loaded = report.after
        if loaded.row.status != "active":
            break
        seat = loaded.seats[min(loaded.game.to_act(loaded.state))]
        assert seat.user_id is not None
        action = str(rng.choice(loaded.game.legal_actions(loaded.state, seat.seat)))
        report = await service.act(loaded.row.id, seat.user_id, seat.step, action)
        publisher.publish(report)
    if not finish:
        publisher.cancelled(await service.cancel(lobby.row.id, HUMANS[0], is_admin=False))


async def test_finished_and_cancelled_games_leave_nothing_behind(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    publisher = assemble(cast(discord.Client, _Bot()), service, pacer=Pacer(scale=0.0001)).publisher
    for channel in range(12):
        await _play(service, publisher, 500 + channel, finish=channel % 2 == 0)
    await publisher.outbox.idle()
    await publisher.marks.flush()
    gc.collect()
    assert publisher.games == {}
    assert not publisher.outbox._lanes and not publisher.outbox._pending
    assert len(service._locks) == 0
    assert await store.shown.stale_games() == []
