"""What the PostgreSQL store sends, read off the wire (``bench.pgwire``'s counting proxy): a
connection given back to the pool is not reset (db/pool.py), a REST
call's budget slots are one statement, a move is one statement, no BEGIN or COMMIT, and a new
connection never asks the server's catalogue for a type (db/sql.py ``text_array``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from bench.pgwire import CountingProxy, WireCounts
from db import pgadmin
from db.errors import StaleVersion
from db.models import Actor
from db.play import SeatUpdate
from db.postgres import PostgresStore
from db.shown import TableIds, shown_from

RESET_MARKS = ("RESET ALL", "UNLISTEN", "pg_advisory_unlock_all", "CLOSE ALL")


@pytest.fixture
async def wired(pg_url: str) -> AsyncIterator[tuple[PostgresStore, CountingProxy]]:
    """A store whose connections go through the counting proxy."""
    await pgadmin.reset_schema(pg_url)
    target = urlsplit(pg_url)
    proxy = CountingProxy(target.hostname or "127.0.0.1", target.port or 5432)
    await proxy.start()
    url = target._replace(netloc=f"{target.username}@127.0.0.1:{proxy.port}").geturl()
    store = await PostgresStore.connect(url, min_size=1, max_size=2)
    yield store, proxy
    await store.close()
    await proxy.stop()


def sent_since(proxy: CountingProxy, before: WireCounts) -> WireCounts:
    return proxy.counts.minus(before)


async def started_game(store: PostgresStore) -> int:
    """A started two-seat game of Ten (its snapshot "s0")."""
    lobby = await store.lobbies.create_lobby(
        guild_id=1, channel_id=2, game="ten", host_id=10, host_name="a", seed=1
    )
    await store.lobbies.add_seat(lobby.id, user_id=11, name="b", max_seats=2)
    await store.play.start(lobby.id, "s0", {0: 100.0, 1: None})
    return lobby.id


async def played(store: PostgresStore, game_id: int, expected: int, **more: Any) -> int:
    """Seat 0 plays on top of version ``expected``; the new version."""
    return await store.play.record_move(
        game_id,
        expected_version=expected,
        seat=0,
        action="play",
        actor=Actor.PLAYER,
        snapshot=f"s{expected + 1}",
        seat_updates=[SeatUpdate(0, None, 0, False), SeatUpdate(1, 200.0, 0, False)],
        **more,
    )


async def test_a_connection_given_back_is_not_reset(
    wired: tuple[PostgresStore, CountingProxy],
) -> None:
    store, proxy = wired

    async def calls() -> None:
        await store.schema_version()  # a read
        await store.take_rest_slots([("ch:1", 5, 5.5), ("global", 40, 1.0)])
        await store.first_interaction("77")

    await calls()  # statements prepared, types looked up
    before = proxy.counts.copy()
    await calls()
    sent = sent_since(proxy, before)
    resets = [text for text in sent.statements if any(m in text for m in RESET_MARKS)]
    assert resets == []
    assert sent.round_trips == 3  # one statement each, nothing when the connection goes back


async def test_a_new_connection_looks_up_no_type(
    wired: tuple[PostgresStore, CountingProxy],
) -> None:
    """The statements that pass arrays (a move's marks, the REST budget, the shard leases)
    pass them as ``text[]``: asyncpg asks the server about no other array type."""
    store, proxy = wired
    game_id = await started_game(store)
    assert await played(store, game_id, 0) == 1
    await store.shown.set_shown_versions({game_id: 1}, {(game_id, 0): 1, (game_id, 1): 1})
    assert await store.take_rest_slots([("ch:1", 5, 5.5), ("global", 40, 1.0)]) == 0.0
    assert await store.take_shard_leases(2, [0, 1], "me", 30.0) is None
    assert [s.shown_version for s in await store.games.seats(game_id)] == [1, 1]
    assert (await store.games.game(game_id)).rendered_version == 1
    lookups = [text for text in proxy.counts.statements if "typeinfo" in text or "pg_type" in text]
    assert lookups == []
    assert proxy.counts.statements  # the proxy read the statements it passed


async def test_a_rest_call_takes_both_slots_in_one_round_trip(
    wired: tuple[PostgresStore, CountingProxy],
) -> None:
    store, proxy = wired
    await store.take_rest_slots([("ch:0", 1, 60.0)])  # prepared, types looked up
    before = proxy.counts.copy()
    # A channel's first call: told its row is missing, the rows made, asked again.
    assert await store.take_rest_slots([("ch:1", 2, 60.0), ("global", 40, 60.0)]) == 0.0
    first = sent_since(proxy, before)
    assert first.round_trips == 3
    assert sum(n for text, n in first.statements.items() if "INSERT" in text) == 1
    before = proxy.counts.copy()
    assert await store.take_rest_slots([("ch:1", 2, 60.0), ("global", 40, 60.0)]) == 0.0
    assert await store.take_rest_slots([("ch:1", 2, 60.0), ("global", 40, 60.0)]) > 0
    sent = sent_since(proxy, before)
    assert sent.round_trips == 2
    assert sum(n for text, n in sent.statements.items() if "take_rest_slot" in text) == 2


async def test_a_move_is_one_statement_and_a_stale_one_writes_nothing(
    wired: tuple[PostgresStore, CountingProxy],
) -> None:
    store, proxy = wired
    game_id = await started_game(store)

    async def move(expected: int) -> int:
        return await played(store, game_id, expected)

    assert await move(0) == 1  # the statement prepared
    before = proxy.counts.copy()
    assert await move(1) == 2
    sent = sent_since(proxy, before)
    assert (sent.round_trips, sent.commits, sent.autocommit) == (1, 0, 1)
    with pytest.raises(StaleVersion):
        await move(1)  # the version moved on: neither the action nor the seats are written
    await store.timers.clear_deadline(game_id, 1)
    with pytest.raises(StaleVersion):
        await move(1)
    actions = await store.games.actions(game_id)
    assert [a.seq for a in actions] == [1, 2]
    assert [s.deadline for s in await store.games.seats(game_id)] == [None, None]
    assert (await store.games.game(game_id)).snapshot == "s2"


async def test_what_discord_shows_is_recorded_in_one_round_trip(
    wired: tuple[PostgresStore, CountingProxy],
) -> None:
    """Tables' and DMs' shown versions together: one statement, no BEGIN or COMMIT, and
    neither ever moves backwards."""
    store, proxy = wired
    game_id = await started_game(store)
    await store.shown.set_shown_versions({game_id: 0}, {(game_id, 0): 0})  # prepared
    before = proxy.counts.copy()
    await store.shown.set_shown_versions({game_id: 3}, {(game_id, 0): 2, (game_id, 1): 3})
    await store.shown.set_shown_versions({game_id: 1}, {(game_id, 0): 1})  # older: no change
    sent = sent_since(proxy, before)
    assert (sent.round_trips, sent.commits, sent.autocommit) == (2, 0, 2)
    seats = await store.games.seats(game_id)
    assert [seat.shown_version for seat in seats] == [2, 3]
    assert (await store.games.game(game_id)).rendered_version == 3


async def test_a_move_reads_the_game_s_messages_in_its_own_round_trip(
    wired: tuple[PostgresStore, CountingProxy],
) -> None:
    """The read the publisher makes before drawing a move (db/shown.py) rides on the move's
    statement: the same ids, the move's new version, no round trip of its own."""
    store, proxy = wired
    game_id = await started_game(store)
    await store.shown.set_table_message(game_id, 555, "key", head='["h"]')
    await store.seats.set_dm(game_id, 1, channel_id=66, message_id=77)
    told: list[list[dict[str, Any]]] = []

    async def move(expected: int) -> int:
        return await played(store, game_id, expected, on_shown=told.append)

    assert await move(0) == 1  # the statement prepared
    before = proxy.counts.copy()
    assert await move(1) == 2
    assert sent_since(proxy, before).round_trips == 1
    ids = shown_from(told[-1], version=2)
    assert ids is not None and ids == await store.shown.shown_ids(game_id)
    assert ids.table == TableIds(555, "key", '["h"]')
    assert ids.dms == {0: (None, None), 1: (66, 77)}
    with pytest.raises(StaleVersion):
        await move(1)
    assert len(told) == 2  # a stale move tells nothing
