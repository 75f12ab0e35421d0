"""What moves owe their channel (db/outbox.py, service/owed.py), on both engines: written in the
move's own transaction, taken by one process at a time, never again once marked sent."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest

from db.errors import StaleVersion
from db.models import Actor
from db.outbox import OWED_LEASE, Owed
from db.play import SeatUpdate
from db.store import Store
from engine import GAMES
from i18n import Later, later
from service.games import GameService
from service.leaving import leave_game
from service.owed import LINE, SUMMARY, is_result, line, said_by, text_of
from service.reports import Loaded
from tests.clock import Clock
from tests.store.conftest import OpenStore

HOST, BOB = 100, 101
LATER = OWED_LEASE + 1  # seconds after which every claim taken now has run out


def _results_only(loaded: Loaded, before: Any, after: Any) -> bool:
    """A stand-in for the presentation's round ends: only the last move of a game."""
    return loaded.game.outcome(after) is not None


async def _started(service: GameService, game: str = "hearts", humans: int = 1) -> Loaded:
    lobby = await service.open_lobby(
        game=game, guild_id=1, channel_id=10, host_id=HOST, host_name="Host"
    )
    for n in range(1, humans):
        await service.join(lobby.row.id, HOST + n, f"P{n}")
    if humans == 1:
        await service.add_computer(lobby.row.id, HOST)
    return (await service.start(lobby.row.id, HOST)).after


async def _play_to_the_end(service: GameService, loaded: Loaded) -> Loaded:
    rng, game = random.Random(3), loaded.game
    while loaded.row.status == "active":
        seat = min(game.to_act(loaded.state))
        action = str(rng.choice(game.legal_actions(loaded.state, seat)))
        loaded = (await service.act(loaded.row.id, HOST, loaded.seats[seat].step, action)).after
    return loaded


def service_line() -> Later:
    return later("⏰ {name} ran out of time; the computer played for them.", name="Host")


async def test_the_result_is_owed_by_the_last_move_until_it_is_marked_sent(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    service.round_ended = _results_only
    loaded = await _play_to_the_end(service, await _started(service))
    (owed,) = await store.outbox.unsent(loaded.row.id)
    assert owed.kind == SUMMARY and is_result(owed) and owed.version == loaded.row.version
    # Its writer holds it: nobody takes it while the claim runs, then anybody may.
    assert await store.outbox.claim_owed() == []
    (taken,) = await store.outbox.claim_owed(time.time() + LATER)
    assert taken.nonce == owed.nonce
    await store.outbox.owed_sent(owed.nonce, 1234)
    assert await store.outbox.unsent(loaded.row.id) == []
    assert await store.outbox.claim_owed(time.time() + 10 * LATER) == []


async def test_a_move_refused_by_its_version_check_owes_nothing(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    loaded = await _started(service)
    gid = loaded.row.id
    owed = line(gid, loaded.row.version, service_line())
    with pytest.raises(StaleVersion):
        await store.play.record_move(
            gid,
            expected_version=loaded.row.version + 5,  # another move came first
            seat=0,
            action="x",
            actor=Actor.PLAYER,
            snapshot="{}",
            seat_updates=[SeatUpdate(0, None, 0, False)],
            owed=[owed],
        )
    assert await store.outbox.unsent(gid) == []


async def test_a_timeout_owes_its_line_and_a_leave_its_own(store: Store) -> None:
    clock = Clock(time.time())
    service = GameService(store, turn_timeout=60, clock=clock)
    loaded = await _started(service, game="grinch", humans=2)
    gid = loaded.row.id
    clock.now += 61
    reports = await service.expire_due()
    assert reports and reports[0].said
    lines = [o for o in await store.outbox.unsent(gid) if o.kind == LINE]
    assert [str(text_of(o)) for o in lines] == [str(reports[0].notices[0])]
    assert "ran out of time" in str(text_of(lines[0]))
    left = await leave_game(service, gid, BOB)
    said = left.report.said[0].owed
    assert said.kind == LINE and "left the game" in str(text_of(said))
    assert said.nonce in {o.nonce for o in await store.outbox.unsent(gid)}


async def test_what_a_stopped_process_owed_is_taken_by_one_other(
    engine: str, open_store: OpenStore
) -> None:
    first = await open_store()
    service = GameService(first, turn_timeout=0)
    service.round_ended = _results_only
    loaded = await _play_to_the_end(service, await _started(service))
    (owed,) = await first.outbox.unsent(loaded.row.id)
    if engine == "sqlite":  # one process per file: the next one finds it at once
        await first.close()
        again = await open_store()
        (taken,) = await again.outbox.claim_owed()
        assert taken.nonce == owed.nonce
        assert await again.outbox.claim_owed() == []  # now it is this process's
        return
    others = [await open_store() for _ in range(4)]
    assert await others[0].outbox.claim_owed() == []  # its writer's claim still runs
    await first.outbox.release_owed(owed.nonce)  # a clean stop gives it back: taken at once
    (taken,) = await others[0].outbox.claim_owed()
    assert taken.nonce == owed.nonce
    later = time.time() + LATER
    claims = await asyncio.gather(*(o.outbox.claim_owed(later) for o in others))
    assert sorted(len(c) for c in claims) == [0, 0, 0, 1]  # one process takes it
    winner = next(o for o, c in zip(others, claims, strict=True) if c)
    await winner.outbox.owed_sent(owed.nonce, 99)
    assert await others[0].outbox.claim_owed(later + 10 * LATER) == []


async def test_rows_are_taken_oldest_first_and_sent_rows_are_pruned(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    loaded = await _started(service)
    gid = loaded.row.id
    written: list[Owed] = []
    for n in range(3):
        current = await service.load(gid)
        seat = min(current.game.to_act(current.state))
        action = current.game.legal_actions(current.state, seat)[0]
        new = current.game.apply(current.state, seat, action)
        said = said_by(None, current, new, finished=False, lines=[service_line()] * (n + 1))
        await store.play.record_move(
            gid,
            expected_version=current.row.version,
            seat=seat,
            action=str(action),
            actor=Actor.PLAYER,
            snapshot=GAMES["hearts"].to_json(new),
            seat_updates=[SeatUpdate(seat, None, 0, False)],
            owed=[s.owed for s in said],
        )
        written += [s.owed for s in said]
    taken = await store.outbox.claim_owed(time.time() + LATER, limit=4)
    assert [o.nonce for o in taken] == [o.nonce for o in written[:4]]
    for owed in written:
        await store.outbox.owed_sent(owed.nonce, 1)
    await store.outbox.prune_owed(time.time() + 2 * 24 * 3600)
    assert await store.outbox.claim_owed(time.time() + 10 * LATER) == []
