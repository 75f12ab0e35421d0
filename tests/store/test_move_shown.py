"""A move's commit reads the game's messages for the publisher where it costs no round trip
of its own (PostgreSQL, a move of one statement; db/play.py ``on_shown``), and nowhere else;
db/shown.py's ``shown_from`` reads the rows with the move's version and status."""

from __future__ import annotations

from typing import Any

from db.models import Actor, GameStatus
from db.play import SeatUpdate
from db.shown import shown_from
from db.store import Store


async def test_a_move_tells_its_messages_where_its_statement_reads_them(store: Store) -> None:
    lobby = await store.lobbies.create_lobby(
        guild_id=1, channel_id=2, game="ten", host_id=10, host_name="a", seed=1
    )
    await store.lobbies.add_seat(lobby.id, user_id=11, name="b", max_seats=2)
    await store.play.start(lobby.id, "s0", {0: 100.0, 1: None})
    await store.seats.set_dm(lobby.id, 0, channel_id=5, message_id=6)
    told: list[list[dict[str, Any]]] = []

    async def move(version: int, **last: Any) -> int:
        return await store.play.record_move(
            lobby.id,
            expected_version=version,
            seat=0,
            action=f"a{version}",
            actor=Actor.PLAYER,
            snapshot=f"s{version + 1}",
            seat_updates=[SeatUpdate(0, None, 0, False), SeatUpdate(1, None, 0, False)],
            on_shown=told.append,
            **last,
        )

    assert await move(0) == 1
    if store.dialect == "sqlite":  # one process: the publisher never reads them back
        assert told == []
        return
    assert len(told) == 1
    before = shown_from(told[0])
    assert before is not None and before.version == 0  # the game as the move began
    ids = shown_from(told[0], version=1, status=GameStatus.ACTIVE)
    assert ids == await store.shown.shown_ids(lobby.id)
    assert ids is not None and ids.dms[0] == (5, 6)
    # A finishing move is a transaction of several statements: nothing read with it.
    assert await move(1, results=[(0, 10, 5, True), (1, 11, 3, False)]) == 2
    assert len(told) == 1
