"""A move's database work, on both engines: one read to load, one short transaction to record."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import pytest

from db.errors import NotFound, StaleVersion
from db.models import Actor
from db.play import SeatUpdate
from db.sql import Statement, Tx
from db.store import Store


class CountingTx:
    """A Tx that counts the statements sent through it."""

    def __init__(self, inner: Tx, log: list[str]) -> None:
        self._inner = inner
        self._log = log

    async def fetch(self, sql: str, *args: Any) -> list[dict[str, Any]]:
        self._log.append(sql)
        return await self._inner.fetch(sql, *args)

    async def execute(self, sql: str, *args: Any) -> int:
        self._log.append(sql)
        return await self._inner.execute(sql, *args)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self._log.append(sql)
        await self._inner.executemany(sql, rows)


def count_statements(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every statement the store sends from now on (reads and transactions)."""
    log: list[str] = []
    for name in ("transaction", "reading"):
        original = getattr(store, name)

        def counted(original: Any = original, name: str = name) -> AbstractAsyncContextManager[Tx]:
            @asynccontextmanager
            async def wrapper() -> AsyncIterator[Tx]:
                log.append(name)
                async with original() as tx:
                    yield CountingTx(tx, log)

            return wrapper()

        monkeypatch.setattr(store, name, counted)
    if store.dialect == "sqlite":  # one read and one transaction are each one call there
        fetch = store.fetch

        async def counted_fetch(sql: str, *args: Any) -> list[dict[str, Any]]:
            log.extend(["reading", sql])
            return await fetch(sql, *args)

        monkeypatch.setattr(store, "fetch", counted_fetch)
    if type(store).write_all is not Store.write_all:  # an engine's one-trip transaction
        write_all = store.write_all

        async def counted_write(statements: Sequence[Statement]) -> None:
            log.append("transaction")
            log.extend(statement.sql for statement in statements)
            await write_all(statements)

        monkeypatch.setattr(store, "write_all", counted_write)
    return log


async def _game(store: Store, seats: int) -> int:
    row = await store.lobbies.create_lobby(
        guild_id=1, channel_id=10, game="gnome", host_id=100, host_name="Host", seed=7
    )
    for n in range(1, seats):
        await store.lobbies.add_seat(row.id, user_id=100 + n, name=f"P{n}", max_seats=7)
    await store.play.start(row.id, '{"s": 0}', dict.fromkeys(range(seats), 50.0))
    return row.id


async def test_a_game_and_its_seats_come_in_one_read(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await _game(store, 4)
    await store.seats.set_dm(game_id, 2, channel_id=2**62, message_id=2**62 + 1)
    expected = (await store.games.game(game_id), await store.games.seats(game_id))
    log = count_statements(store, monkeypatch)
    assert await store.games.game_and_seats(game_id) == expected
    assert log == ["reading", log[1]]  # one connection, one statement
    with pytest.raises(NotFound):
        await store.games.game_and_seats(game_id + 1000)


async def test_a_move_is_three_statements_whatever_the_seats(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await _game(store, 7)
    log = count_statements(store, monkeypatch)
    updates = [SeatUpdate(n, 60.0 + n if n % 2 else None, n, n == 3) for n in range(7)]
    version = await store.play.record_move(
        game_id,
        expected_version=0,
        seat=2,
        action="a",
        actor=Actor.PLAYER,
        snapshot='{"s": 1}',
        seat_updates=updates,
    )
    assert version == 1
    assert log[0] == "transaction" and len(log) == 4, log  # games, actions, seats
    seats = await store.games.seats(game_id)
    assert [s.step for s in seats] == [0, 0, 1, 0, 0, 0, 0]
    assert [s.deadline for s in seats] == [None, 61.0, None, 63.0, None, 65.0, None]
    assert [s.timeouts for s in seats] == list(range(7))
    assert [s.autopilot for s in seats] == [n == 3 for n in range(7)]
    # A seat without an update keeps its timer and flags; the acting one still steps on.
    await store.play.record_move(
        game_id,
        expected_version=1,
        seat=5,
        action="b",
        actor=Actor.PLAYER,
        snapshot='{"s": 2}',
        seat_updates=[SeatUpdate(0, 70.0, 0, False)],
    )
    seats = await store.games.seats(game_id)
    assert [s.step for s in seats] == [0, 0, 1, 0, 0, 1, 0]
    assert [s.deadline for s in seats] == [70.0, 61.0, None, 63.0, None, 65.0, None]
    assert (seats[5].timeouts, seats[3].autopilot) == (5, True)
    with pytest.raises(StaleVersion):
        await store.play.record_move(
            game_id,
            expected_version=1,
            seat=0,
            action="c",
            actor=Actor.PLAYER,
            snapshot="{}",
            seat_updates=updates,
        )
    assert (await store.games.game(game_id)).version == 2
    assert [a.action for a in await store.games.actions(game_id)] == ["a", "b"]
