"""Automatic moves never wait for ever: any process resumes a game whose computers, autopilot
or forced moves are overdue (the process playing them stopped, or saving them failed)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from db.errors import StorageFull
from db.store import Store
from engine.base import Level
from service.errors import CannotSave
from service.games import RESUME_GRACE, GameService
from service.leaving import leave_game
from service.reports import Loaded
from tests.clock import Clock
from tests.service.test_games import _started
from tests.service.test_recovery import CrashesBeforeComputers, _due_human, _human_move


def _computer_due(loaded: Loaded) -> bool:
    return any(loaded.seats[s].is_computer for s in loaded.game.to_act(loaded.state))


async def _until_a_computer_is_due(service: GameService, loaded: Loaded) -> Loaded:
    """Humans play at random until a move leaves a computer seat due (``service`` does not
    play it)."""
    rng = random.Random(3)
    for _ in range(60):
        loaded = (await _human_move(service, loaded, rng)).after
        if _computer_due(loaded):
            return loaded
    pytest.fail("no computer seat became due")


async def test_a_survivor_plays_overdue_computer_moves_once_their_grace_is_over(
    store: Store,
) -> None:
    clock = Clock(1_000_000.0)
    crashing = CrashesBeforeComputers(store, turn_timeout=0, clock=clock)
    loaded = await _until_a_computer_is_due(crashing, await _started(crashing, 2, 2))
    game_id, version = loaded.row.id, loaded.row.version
    row = await store.games.game(game_id)
    assert row.resume_after == pytest.approx(clock.now + RESUME_GRACE)  # saved with the move
    survivor = GameService(store, turn_timeout=0, clock=clock)
    clock.now += RESUME_GRACE - 1
    assert await survivor.resume_stalled() == []  # its own process may still be on it
    assert (await store.games.game(game_id)).version == version
    clock.now += 2
    [report] = await survivor.resume_stalled()
    assert report.moves and all(m.actor == "computer" for m in report.moves)
    assert not _computer_due(report.after)
    row = await store.games.game(game_id)
    assert row.version == version + len(report.moves)
    assert row.resume_after is None  # a human decides now: nothing to look at
    clock.now += 3 * RESUME_GRACE
    assert await survivor.resume_stalled() == []


async def test_computer_moves_that_could_not_be_saved_are_played_once_the_disk_is_back(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(1_000_000.0)
    service = GameService(store, turn_timeout=0, clock=clock)
    loaded = await _started(service, 2, 2)
    rng = random.Random(4)
    record, saved = store.play.record_move, 0

    async def full_after_the_first(*args: Any, **kwargs: Any) -> int:
        nonlocal saved
        if saved:
            raise StorageFull("the disk holding bot.db is full: the bot cannot save moves")
        saved += 1
        return await record(*args, **kwargs)

    for _ in range(60):  # a human's move saved, the computer's after it not
        saved = 0
        monkeypatch.setattr(store.play, "record_move", full_after_the_first)
        try:
            loaded = (await _human_move(service, loaded, rng)).after
        except CannotSave:
            break
        finally:
            monkeypatch.setattr(store.play, "record_move", record)
    else:
        pytest.fail("no computer seat became due")
    row = await store.games.game(loaded.row.id)
    stuck = await service.load(row.id)
    assert _computer_due(stuck) and row.resume_after is not None
    clock.now += RESUME_GRACE + 1
    saved = 1  # still full: the look fails quietly and the game stays overdue
    monkeypatch.setattr(store.play, "record_move", full_after_the_first)
    assert await service.resume_stalled() == []
    assert await store.timers.stalled_games(clock.now) == [row.id]
    monkeypatch.setattr(store.play, "record_move", record)  # space is back
    [report] = await service.resume_stalled()
    assert report.moves and not _computer_due(report.after)


async def test_a_chain_stops_quietly_when_another_process_moved_the_game_on(
    store: Store,
) -> None:
    """Two processes: the first is still thinking for its computer when the second, seeing
    the move overdue, plays it. The first's computer move is refused by the version check and
    its chain ends without an error; every computer move is in the log once."""
    clock = Clock(1_000_000.0)
    thinking, release = asyncio.Event(), asyncio.Event()

    async def slow(game: str, view: Any, legal: list[Any], rng: random.Random, level: Level) -> Any:
        thinking.set()
        await release.wait()
        return legal[0]

    first = GameService(store, turn_timeout=0, clock=clock, think=slow)
    second = GameService(store, turn_timeout=0, clock=clock)
    crashing = CrashesBeforeComputers(store, turn_timeout=0, clock=clock)
    loaded = await _until_a_computer_is_due(crashing, await _started(crashing, 2, 2))
    version = loaded.row.version
    # The computer is due now; `first` resumes it and thinks until released.
    chain = asyncio.ensure_future(first.resume(loaded.row.id))
    await thinking.wait()
    clock.now += RESUME_GRACE + 1
    [taken] = await second.resume_stalled()
    assert taken.moves
    release.set()
    report = await chain  # no StaleMove raised: the other process moved first
    assert report.moves == []
    assert (await store.games.game(loaded.row.id)).version == version + len(taken.moves)
    actions = await store.games.actions(loaded.row.id)
    assert [a.seq for a in actions] == list(range(1, version + len(taken.moves) + 1))


async def test_a_seat_handed_to_a_computer_is_looked_after_when_it_is_due(
    store: Store,
) -> None:
    """Leaving marks the game for a look only when the seat is due: left when it is not,
    nothing to look at; left when it is, by a process that stops before the computer
    answers, a survivor plays that move after the grace."""
    clock = Clock(1_000_000.0)
    service = GameService(store, turn_timeout=0, clock=clock)
    loaded = await _started(service, 3, 0)
    due = _due_human(loaded)
    idle = next(
        s for s in loaded.seats if s.seat not in loaded.game.to_act(loaded.state) and s.user_id
    )
    assert due != idle.seat and idle.user_id is not None
    left = await leave_game(service, loaded.row.id, idle.user_id)
    assert left.report.moves == []  # not its turn
    assert (await store.games.game(loaded.row.id)).resume_after is None

    dying = CrashesBeforeComputers(store, turn_timeout=0, clock=clock)
    user = loaded.seats[due].user_id
    assert user is not None
    left = await leave_game(dying, loaded.row.id, user)
    assert left.report.moves == []  # the process "stopped" before the computer answered
    assert await store.timers.stalled_games(clock.now) == []  # within the grace: not yet
    clock.now += RESUME_GRACE + 1
    assert await store.timers.stalled_games(clock.now) == [loaded.row.id]
    [report] = await service.resume_stalled()
    assert [m.seat for m in report.moves][:1] == [due]
    assert await store.timers.stalled_games(clock.now) == []
