"""Who waits for a seat in a channel's next game (``store.waits``, db/waits.py), on both
engines, and the service seating them in the channel's next lobby (service/lobbies.py)."""

from __future__ import annotations

import asyncio
import time

import pytest

from db.store import Store
from db.waits import WAIT_SECONDS
from service.errors import LobbyProblem
from service.games import GameService
from service.lobbies import MOST_WAITING
from tests.store.conftest import OpenStore

GUILD, CHANNEL, OTHER = 1, 77, 78
HOST, ANA, BO, CY = 10, 1, 2, 3


async def test_asks_are_kept_per_channel_and_taken_once(store: Store) -> None:
    now = time.time()
    assert await store.waits.ask(CHANNEL, ANA, "Ana", now, 5)
    assert await store.waits.ask(CHANNEL, BO, "Bo", now + 1, 5)
    assert await store.waits.ask(CHANNEL, ANA, "Ana B.", now + 2, 5)  # again: renewed
    assert await store.waits.ask(OTHER, CY, "Cy", now, 5)
    assert await store.waits.waiting(CHANNEL, ANA, now + 3)
    assert not await store.waits.waiting(CHANNEL, CY, now + 3)
    assert await store.waits.take(CHANNEL, now + 3) == [(BO, "Bo"), (ANA, "Ana B.")]
    assert await store.waits.take(CHANNEL, now + 3) == []
    assert not await store.waits.waiting(CHANNEL, ANA, now + 3)
    assert await store.waits.take(OTHER, now + 3) == [(CY, "Cy")]


async def test_an_ask_given_up_is_gone_and_the_others_stay(store: Store) -> None:
    now = time.time()
    assert await store.waits.ask(CHANNEL, ANA, "Ana", now, 5)
    assert await store.waits.ask(CHANNEL, BO, "Bo", now, 5)
    await store.waits.drop(CHANNEL, ANA)
    await store.waits.drop(CHANNEL, ANA)  # again: nothing to do
    await store.waits.drop(OTHER, BO)  # not asked there
    assert not await store.waits.waiting(CHANNEL, ANA, now)
    assert await store.waits.take(CHANNEL, now) == [(BO, "Bo")]


async def test_an_old_ask_is_forgotten_and_a_full_channel_refuses(store: Store) -> None:
    now = time.time()
    assert await store.waits.ask(CHANNEL, ANA, "Ana", now, 2)
    assert await store.waits.ask(CHANNEL, BO, "Bo", now, 2)
    assert not await store.waits.ask(CHANNEL, CY, "Cy", now, 2)  # two wait already
    assert await store.waits.ask(CHANNEL, BO, "Bo", now, 2)  # one of the two, asking again
    later = now + WAIT_SECONDS + 1
    assert not await store.waits.waiting(CHANNEL, ANA, later)
    assert await store.waits.ask(CHANNEL, CY, "Cy", later, 2)  # the old asks made room
    assert await store.waits.take(CHANNEL, later) == [(CY, "Cy")]


async def test_two_processes_taking_at_once_share_nothing(
    open_store: OpenStore, engine: str
) -> None:
    if engine != "postgres":
        pytest.skip("one process per SQLite file")
    first, second = await open_store(), await open_store()
    now = time.time()
    for user in (ANA, BO, CY):
        await first.waits.ask(CHANNEL, user, f"u{user}", now, 5)
    taken = await asyncio.gather(first.waits.take(CHANNEL, now), second.waits.take(CHANNEL, now))
    assert sorted(user for got in taken for user, _ in got) == [ANA, BO, CY]
    assert [] in taken  # all went to one of them


async def test_the_next_lobby_seats_those_waiting_and_a_challenge_seats_nobody(
    store: Store,
) -> None:
    service = GameService(store)
    await service.wait_for_next_game(CHANNEL, ANA, "Ana")
    await service.wait_for_next_game(CHANNEL, HOST, "Host")  # the host is seated as host
    await service.wait_for_next_game(CHANNEL, BO, "Bo")
    await service.wait_for_next_game(CHANNEL, CY, "Cy")
    challenge = await service.open_lobby(
        game="hearts",
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HOST,
        host_name="Host",
        opponent=(BO, "Bo"),
    )
    assert [s.user_id for s in challenge.seats] == [HOST, BO]
    assert await service.waits_for_next_game(CHANNEL, ANA)  # still waiting for the next
    await service.cancel(challenge.row.id, HOST, is_admin=False)
    lobby = await service.open_lobby(
        game="hearts", guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, host_name="Host"
    )
    # 2-player Hearts: the oldest ask takes the one free seat; the others wait no more.
    assert [(s.user_id, s.name) for s in lobby.seats] == [(HOST, "Host"), (ANA, "Ana")]
    for user in (ANA, BO, CY, HOST):
        assert not await service.waits_for_next_game(CHANNEL, user)


async def test_a_channel_full_of_asks_refuses_one_more(store: Store) -> None:
    service = GameService(store)
    for user in range(1000, 1000 + MOST_WAITING):
        await service.wait_for_next_game(CHANNEL, user, f"u{user}")
    with pytest.raises(LobbyProblem):
        await service.wait_for_next_game(CHANNEL, 5000, "late")
    await service.wait_for_next_game(CHANNEL, 1000, "u1000")  # one already waiting
