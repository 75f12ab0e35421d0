"""Two publishers on one database, as two bot processes on PostgreSQL: one table per game key,
and each adopts the messages the other posted. On SQLite the publisher reads nothing back."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass, field
from typing import Any, cast

import discord
import pytest
from discord.http import Route

from db.shown import ShownIds
from db.store import Store
from delivery.assemble import assemble
from delivery.pacing import Pacer
from delivery.publisher import Publisher
from service.games import GameService
from tests.store.conftest import OpenStore

CHANNEL, DM_CHANNEL, HOST = 10, 20, 100
SEND_SECONDS = 0.1  # Discord's answer takes a while: both processes are mid-post at once


@dataclass
class World:
    """What Discord received from every process: posts as (channel, message id), edits."""

    ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1000))
    posts: list[tuple[int, int]] = field(default_factory=list)
    edits: list[int] = field(default_factory=list)


class Message:
    def __init__(self, world: World, message_id: int) -> None:
        self.world, self.id = world, message_id

    async def edit(self, **_: Any) -> None:
        self.world.edits.append(self.id)


class Channel:
    def __init__(self, world: World, channel_id: int) -> None:
        self.world, self.channel_id = world, channel_id

    async def send(self, *_: Any, **__: Any) -> Message:
        await asyncio.sleep(SEND_SECONDS)
        message = Message(self.world, next(self.world.ids))
        self.world.posts.append((self.channel_id, message.id))
        return message

    def get_partial_message(self, message_id: int) -> Message:
        return Message(self.world, message_id)


class Http:
    def __init__(self, world: World) -> None:
        self.world = world

    async def start_private_message(self, user_id: int) -> dict[str, Any]:
        return {"id": str(DM_CHANNEL)}

    async def edit_message(self, channel_id: int, message_id: int, **_: Any) -> None:
        self.world.edits.append(message_id)

    async def request(self, route: Route, **kwargs: Any) -> None:
        """``HTTPClient.request``, which discordkit.rest calls for an edit with a picture (one
        prebuilt body in ``data``): an edit like the others."""
        message_id = int(route.url.rsplit("/", 1)[1])
        await self.edit_message(int(route.channel_id or 0), message_id, **kwargs)


class Bot:
    """The part of discord.Client the publisher uses."""

    def __init__(self, world: World) -> None:
        self.world, self.http = world, Http(world)
        self.allowed_mentions = None

    def get_partial_messageable(self, channel_id: int, **_: Any) -> Channel:
        return Channel(self.world, channel_id)

    def get_channel(self, channel_id: int) -> None:
        return None

    def get_guild(self, guild_id: int) -> None:
        return None


def publisher(world: World, store: Store) -> Publisher:
    service = GameService(store, turn_timeout=0)
    return assemble(cast(discord.Client, Bot(world)), service, pacer=Pacer(scale=0.01)).publisher


async def started_game(store: Store) -> int:
    service = GameService(store, turn_timeout=0)
    lobby = await service.open_lobby(
        game="grinch", guild_id=1, channel_id=CHANNEL, host_id=HOST, host_name="ann"
    )
    await service.add_computer(lobby.row.id, HOST)
    await service.start(lobby.row.id, HOST)
    return lobby.row.id


def spied_reads(store: Store) -> list[int]:
    """The games whose shown ids ``store`` reads from now on (a spy on its reads)."""
    reads: list[int] = []
    original = store.shown.shown_ids

    async def counting(game_id: int) -> ShownIds | None:
        reads.append(game_id)
        return await original(game_id)

    store.shown.shown_ids = counting  # type: ignore[method-assign]  # the spy
    return reads


def tables(world: World) -> list[int]:
    return [message for channel, message in world.posts if channel == CHANNEL]


async def test_two_processes_post_one_table_and_adopt_each_others_messages(
    open_store: OpenStore, engine: str
) -> None:
    if engine != "postgres":
        pytest.skip("two processes share PostgreSQL only")
    store_a, store_b = await open_store(), await open_store()
    game_id = await started_game(store_a)
    world = World()
    a, b = publisher(world, store_a), publisher(world, store_b)
    c = publisher(world, await open_store())
    before = await c.service.load(game_id)  # a third process saw the game with no messages
    # Both draw the same game at the same moment, neither having seen a table yet.
    a.resync(await a.service.load(game_id))
    b.resync(await b.service.load(game_id))
    await asyncio.gather(a.outbox.idle(), b.outbox.idle())
    assert len(tables(world)) == 1, world.posts
    assert (await store_a.games.game(game_id)).table_message_id == tables(world)[0]
    dm = (await store_a.games.seats(game_id))[0].dm_message_id
    assert dm is not None
    # The third process draws it now: it finds the table the others posted and edits it; the
    # DM it finds is edited too (brought up to date, or retired below a new notifying one).
    assert before.row.table_message_id is None
    assert before.seats[0].dm_message_id is None
    posted, edited = len(world.posts), len(world.edits)
    c.resync(before)
    await c.outbox.idle()
    assert [m for m in world.posts[posted:] if m[0] == CHANNEL] == []
    assert {tables(world)[0], dm} <= set(world.edits[edited:])


async def test_sqlite_publisher_reads_nothing_back(open_store: OpenStore, engine: str) -> None:
    if engine != "sqlite":
        pytest.skip("the single-process engine")
    store = await open_store()
    game_id = await started_game(store)
    reads = spied_reads(store)
    world = World()
    a = publisher(world, store)
    assert not a.shared.enabled
    a.resync(await a.service.load(game_id))
    await a.outbox.idle()
    assert len(tables(world)) == 1
    assert reads == []


async def test_a_move_s_jobs_draw_from_the_ids_its_commit_read(
    open_store: OpenStore, engine: str
) -> None:
    """On PostgreSQL a move's statement reads the game's messages too (``Report.shown``): the
    jobs that show the move read nothing before drawing, only once after their edits."""
    if engine != "postgres":
        pytest.skip("the shared store (PostgreSQL) only")
    store = await open_store()
    game_id = await started_game(store)
    world = World()
    a = publisher(world, store)
    a.resync(await a.service.load(game_id))
    await a.outbox.idle()  # the table and the host's DM posted
    reads = spied_reads(store)
    loaded = await a.service.load(game_id)
    seat = next(s for s in loaded.seats if s.user_id == HOST)
    action = loaded.game.legal_actions(loaded.state, seat.seat)[0]
    report = await a.service.act(game_id, HOST, seat.step, str(action))
    assert report.shown is not None
    assert report.shown.version == report.after.row.version
    assert report.shown.table.message_id == tables(world)[0]
    edited = len(world.edits)
    a.publish(report)
    await a.outbox.idle()
    assert len(world.edits) > edited  # the move was shown
    assert len(reads) == 1, reads  # the read after the edits; none before drawing
