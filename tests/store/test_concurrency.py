"""Moves and timers exactly once when several stores share a database.

On PostgreSQL the two stores are separate pools, as two bot processes would have. SQLite is
one process's file (a second store is refused, see test_guards.py), so there the racers
share the one store: the same contract, serialised by its lock.
"""

from __future__ import annotations

import asyncio
import time

import asyncpg
import pytest

from db.errors import StaleVersion, StoreLocked
from db.models import Actor, GameStatus
from db.play import SeatUpdate
from db.store import Store
from db.timers import DEFAULT_CLAIM_LEASE
from tests.store.conftest import OpenStore
from tests.store.moves import record

ROUNDS = 50


async def _two_stores(open_store: OpenStore) -> tuple[Store, Store]:
    first = await open_store()
    try:
        second = await open_store()
    except StoreLocked:
        assert first.dialect == "sqlite"
        return first, first
    assert first.dialect == "postgres"
    return first, second


async def _active_game(store: Store, channel: int, deadlines: dict[int, float | None]) -> int:
    row = await store.lobbies.create_lobby(
        guild_id=1, channel_id=channel, game="gnome", host_id=1, host_name="H", seed=channel
    )
    for seat in range(1, len(deadlines)):
        await store.lobbies.add_seat(row.id, user_id=100 + seat, name=f"P{seat}", max_seats=9)
    await store.play.start(row.id, "{}", deadlines)
    return row.id


async def test_the_same_move_raced_by_two_stores_is_recorded_once(
    open_store: OpenStore,
) -> None:
    first, second = await _two_stores(open_store)
    game = await _active_game(first, 1, {0: None, 1: None})
    updates = [SeatUpdate(0, None, 0, False), SeatUpdate(1, None, 0, False)]
    winners: list[str] = []
    for version in range(ROUNDS):
        outcomes = await asyncio.gather(
            *(
                store.play.record_move(
                    game,
                    expected_version=version,
                    seat=0,
                    action=f"{name}.{version}",
                    actor=Actor.PLAYER,
                    snapshot=f"{name}{version}",
                    seat_updates=updates,
                )
                for name, store in (("a", first), ("b", second))
            ),
            return_exceptions=True,
        )
        won = [o for o in outcomes if isinstance(o, int)]
        lost = [o for o in outcomes if isinstance(o, StaleVersion)]
        assert (won, len(lost)) == ([version + 1], 1), outcomes
        winners.append("a" if outcomes[0] == version + 1 else "b")
    actions = await second.games.actions(game)
    assert [a.seq for a in actions] == list(range(1, ROUNDS + 1))
    assert [a.action[0] for a in actions] == winners
    row = await first.games.game(game)
    assert row.version == ROUNDS and row.snapshot == f"{winners[-1]}{ROUNDS - 1}"
    assert (await first.games.seats(game))[0].step == ROUNDS


async def test_due_timers_raced_by_two_stores_are_claimed_once_each(
    open_store: OpenStore,
) -> None:
    first, second = await _two_stores(open_store)
    now = time.time()
    due: set[tuple[int, int]] = set()
    for channel in range(20):
        game = await _active_game(first, channel, {0: now - 10 - channel, 1: now - 1, 2: now + 999})
        due |= {(game, 0), (game, 1)}
    lobby = await first.lobbies.create_lobby(
        guild_id=1, channel_id=99, game="gnome", host_id=1, host_name="H", seed=1
    )
    assert lobby.status == "lobby"  # seats of games that are not active are never due

    async def claimer(store: Store) -> list[tuple[int, int]]:
        taken: list[tuple[int, int]] = []
        while batch := await store.timers.claim_due_seats(now, limit=3):
            taken += [(s.game_id, s.seat) for s in batch]
            assert all(s.claimed_until == pytest.approx(now + DEFAULT_CLAIM_LEASE) for s in batch)
        return taken

    results = await asyncio.gather(claimer(first), claimer(second), claimer(second))
    claimed = [pair for result in results for pair in result]
    assert sorted(claimed) == sorted(due)  # every due seat, each exactly once
    assert (
        await first.timers.claim_due_seats(now + DEFAULT_CLAIM_LEASE - 1, limit=100) == []
    )  # leases still running
    # A move rewrites the seat's timer and ends its claim; the other seats' claims hold.
    game, _ = min(due)
    await first.play.record_move(
        game,
        expected_version=0,
        seat=0,
        action="x",
        actor=Actor.TIMEOUT,
        snapshot="{}",
        seat_updates=[SeatUpdate(0, now - 1, 1, False)],
    )
    assert [(s.game_id, s.seat) for s in await second.timers.claim_due_seats(now, limit=100)] == [
        (game, 0)
    ]
    # A claimer that died: once its lease is over the seat is due again, for one taker.
    late = now + DEFAULT_CLAIM_LEASE + 1  # every lease above has ended (the one just taken too)
    again = await asyncio.gather(
        first.timers.claim_due_seats(late, limit=100),
        second.timers.claim_due_seats(late, limit=100),
    )
    retaken = sorted((s.game_id, s.seat) for batch in again for s in batch)
    assert retaken == sorted(due)
    # Released or cleared timers.
    await first.timers.release_claim(game, 1)
    assert [(s.game_id, s.seat) for s in await second.timers.claim_due_seats(late, limit=5)] == [
        (game, 1)
    ]
    await first.timers.clear_deadline(game, 1)
    everything = await first.timers.claim_due_seats(late + 2000, limit=100)
    assert len(everything) == len(due) + 20 - 1  # the far timers too, not the cleared one
    assert (game, 1) not in {(s.game_id, s.seat) for s in everything}


async def test_next_claimable_at_follows_deadlines_and_leases(store: Store) -> None:
    assert await store.timers.next_claimable_at() is None
    game = await _active_game(store, 1, {0: 100.0, 1: 200.0})
    assert await store.timers.next_claimable_at() == 100.0
    assert [s.seat for s in await store.timers.claim_due_seats(150.0, limit=5, lease=30)] == [0]
    assert await store.timers.next_claimable_at() == 180.0
    await store.play.end(game, GameStatus.CANCELLED)
    assert await store.timers.next_claimable_at() is None


async def test_a_claim_skips_seats_another_process_holds_instead_of_waiting(
    store: Store, target: str, engine: str
) -> None:
    now = time.time()
    game = await _active_game(store, 1, {0: now - 5, 1: now - 1})
    if engine == "sqlite":  # one process; nothing else can hold a row
        assert len(await store.timers.claim_due_seats(now)) == 2
        return
    other = await asyncpg.connect(target)
    try:
        async with other.transaction():
            await other.execute(
                "SELECT 1 FROM seats WHERE game_id = $1 AND seat = 0 FOR UPDATE", game
            )
            claimed = await asyncio.wait_for(store.timers.claim_due_seats(now), timeout=5)
            assert [(s.game_id, s.seat) for s in claimed] == [(game, 1)]
    finally:
        await other.close()
    assert [(s.game_id, s.seat) for s in await store.timers.claim_due_seats(now)] == [(game, 0)]


async def test_stalled_games_are_those_whose_automatic_moves_are_overdue(
    open_store: OpenStore,
) -> None:
    """resume_after travels with the move (and the start, and a seat left to a computer);
    any store sharing the database sees the game once it is overdue, until it moves on."""
    first, second = await _two_stores(open_store)
    now = time.time()
    waiting = await _active_game(first, 1, {0: None, 1: None})
    quiet = await _active_game(first, 2, {0: None, 1: None})
    started = await first.lobbies.create_lobby(
        guild_id=1, channel_id=3, game="gnome", host_id=1, host_name="H", seed=3
    )
    await first.play.start(started.id, "{}", {0: None}, now + 5)
    for game, due in ((waiting, now + 10), (quiet, None)):
        await record(first, game, 0, resume_after=due)
    assert (await second.games.game(waiting)).resume_after == pytest.approx(now + 10)
    assert await second.timers.stalled_games(now) == []
    assert await second.timers.stalled_games(now + 10) == [
        started.id,
        waiting,
    ]  # longest waiting first
    assert await second.timers.stalled_games(now + 10, limit=1) == [started.id]
    # The next move (from whichever process) clears it.
    await record(second, waiting, 1)
    assert await first.timers.stalled_games(now + 100) == [started.id]
    # Nothing due after all: stop looking, unless the game moved since it was looked at.
    await first.timers.stop_resuming(started.id, version=7)
    assert await first.timers.stalled_games(now + 100) == [started.id]
    await first.timers.stop_resuming(started.id, version=0)
    assert await first.timers.stalled_games(now + 100) == []
    # Leaving hands the seat to a computer and asks for a look; an ended game is never listed.
    assert await second.seats.hand_seat_to_computer(
        quiet, 1, name="Bot", new_host=None, resume_after=now
    )
    assert await first.timers.stalled_games(now) == [quiet]
    assert (await first.games.game(quiet)).host_id == 1
    await first.play.end(quiet, GameStatus.CANCELLED)
    assert await first.timers.stalled_games(now + 100) == []
