"""The database announces every write to a game or its seats (db/changes.py), on both engines;
on PostgreSQL to every store listening, whichever one wrote."""

from __future__ import annotations

import asyncio

from db.store import Store
from service.games import GameService
from tests.store.conftest import OpenStore

CHANNEL, HOST, BOB = 77, 1, 2


class Heard:
    def __init__(self) -> None:
        self.changes: list[tuple[int, int]] = []
        self.event = asyncio.Event()

    def __call__(self, game_id: int, channel_id: int) -> None:
        self.changes.append((game_id, channel_id))
        self.event.set()

    async def next(self, timeout: float = 5.0) -> set[tuple[int, int]]:
        """What was heard since the last call, after waiting for at least one."""
        await asyncio.wait_for(self.event.wait(), timeout)
        await asyncio.sleep(0.05)  # the rest of the same transaction
        heard, self.changes = set(self.changes), []
        self.event.clear()
        return heard


async def test_every_kind_of_write_is_announced_with_its_channel(store: Store) -> None:
    heard = Heard()
    await store.watch_changes(heard)
    service = GameService(store, turn_timeout=0)
    lobby = await service.open_lobby(
        game="hearts", guild_id=1, channel_id=CHANNEL, host_id=HOST, host_name="Host"
    )
    gid = lobby.row.id
    assert await heard.next() == {(gid, CHANNEL)}
    await service.join(gid, BOB, "Bob")
    assert await heard.next() == {(gid, CHANNEL)}
    report = await service.start(gid, HOST)
    assert await heard.next() == {(gid, CHANNEL)}
    loaded = report.after
    due = next(iter(loaded.game.to_act(loaded.state)))
    seat = loaded.seats[due]
    action = str(loaded.game.legal_actions(loaded.state, due)[0])
    assert seat.user_id is not None
    await service.act(gid, seat.user_id, seat.step, action)
    assert await heard.next() == {(gid, CHANNEL)}


async def test_bookkeeping_that_shows_nothing_is_not_announced(store: Store) -> None:
    heard = Heard()
    service = GameService(store, turn_timeout=0)
    lobby = await service.open_lobby(
        game="hearts", guild_id=1, channel_id=CHANNEL, host_id=HOST, host_name="Host"
    )
    await store.watch_changes(heard)
    await store.lobbies.set_lobby_message(lobby.row.id, 1234)
    await store.shown.set_rendered_version(lobby.row.id, 3)
    await asyncio.sleep(0.3)
    assert heard.changes == []


async def test_on_postgresql_another_process_hears_a_move(
    open_store: OpenStore, engine: str
) -> None:
    if engine != "postgres":
        return  # one process per SQLite file: the first test covers it
    writer, listener = await open_store(), await open_store()
    heard = Heard()
    await listener.watch_changes(heard)
    service = GameService(writer, turn_timeout=0)
    lobby = await service.open_lobby(
        game="grinch", guild_id=1, channel_id=CHANNEL, host_id=HOST, host_name="Host"
    )
    assert await heard.next() == {(lobby.row.id, CHANNEL)}
