"""The waiting hooks (``GameService.on_waiting``) are told of a move that leaves the game to
people while its commit runs, once, with the report the call returns; a move whose commit
fails was told too, and a game that starts is told as the call ends (real SQLite store)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from db.errors import StaleVersion
from db.store import Store
from service.errors import StaleMove
from service.games import GameService
from service.reports import Loaded, Report

HUMANS = (100, 101, 102)
GUARD = 5.0  # seconds a test waits for what must happen at once (it fails past them)


async def _started(service: GameService, game: str, humans: int, computers: int = 0) -> Report:
    lobby = await service.open_lobby(
        game=game, guild_id=1, channel_id=20, host_id=HUMANS[0], host_name="Host"
    )
    for user in HUMANS[1:humans]:
        await service.join(lobby.row.id, user, f"P{user}")
    for _ in range(computers):
        await service.add_computer(lobby.row.id, HUMANS[0])
    return await service.start(lobby.row.id, HUMANS[0])


def _any_move(loaded: Loaded, rng: random.Random) -> tuple[int, int, str]:
    game = loaded.game
    seat = loaded.seats[min(game.to_act(loaded.state))]
    assert seat.user_id is not None
    return seat.user_id, seat.step, str(rng.choice(game.legal_actions(loaded.state, seat.seat)))


async def _act(service: GameService, game_id: int, move: tuple[int, int, str]) -> Report:
    return await service.act(game_id, *move)


async def _listened(store: Store) -> tuple[GameService, Report, list[Report]]:
    """A Hearts game just started, and the reports its waiting hooks are told from now on."""
    service = GameService(store, turn_timeout=300)
    report = await _started(service, "hearts", 2)
    told: list[Report] = []
    service.on_waiting.add(told.append)
    return service, report, told


def _same(told: Loaded, after: Loaded) -> None:
    assert told.row == after.row
    assert told.seats == after.seats
    assert told.state is after.state


async def test_the_hooks_are_told_while_the_move_is_committed(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, report, told = await _listened(store)
    release = asyncio.Event()
    committing = asyncio.Event()
    record = store.play.record_move

    async def held(*args: Any, **kwargs: Any) -> None:
        committing.set()
        await release.wait()
        await record(*args, **kwargs)

    monkeypatch.setattr(store.play, "record_move", held)
    rng = random.Random(1)
    for _ in range(6):
        loaded = report.after
        release.clear()
        committing.clear()
        before = len(told)
        move = _any_move(loaded, rng)
        acting = asyncio.create_task(_act(service, loaded.row.id, move))
        await asyncio.wait_for(committing.wait(), GUARD)
        assert len(told) == before + 1  # told before the commit is done
        assert told[-1].after.row.version == loaded.row.version + 1
        release.set()
        report = await asyncio.wait_for(acting, GUARD)
        assert len(told) == before + 1  # and not again as the call ends
        _same(told[-1].after, report.after)
        assert told[-1].moves == report.moves
        assert told[-1].newly_due() == report.newly_due()


async def test_the_hooks_hear_of_the_last_move_of_a_call_only(store: Store) -> None:
    service = GameService(store, turn_timeout=300)
    report = await _started(service, "grinch", 2, computers=2)
    told: list[Report] = []
    service.on_waiting.add(told.append)
    rng = random.Random(2)
    several = 0
    for _ in range(12):
        loaded = report.after
        before = len(told)
        report = await service.act(loaded.row.id, *_any_move(loaded, rng))
        if report.finished:
            break
        several += len(report.moves) > 1
        assert len(told) == before + 1, report.moves
        _same(told[-1].after, report.after)
        assert told[-1].moves == report.moves
    assert several  # computers moved after a player in some of these calls


async def test_a_game_that_starts_is_told_as_the_call_ends(store: Store) -> None:
    service = GameService(store, turn_timeout=300)
    told: list[Report] = []
    service.on_waiting.add(told.append)
    report = await _started(service, "hearts", 2)
    assert len(told) == 1
    assert told[0] is report


async def test_a_move_whose_commit_fails_was_told_and_is_not_saved(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, report, told = await _listened(store)

    async def overtaken(*args: Any, **kwargs: Any) -> None:
        raise StaleVersion("another process recorded this version first")

    monkeypatch.setattr(store.play, "record_move", overtaken)
    loaded = report.after
    with pytest.raises(StaleMove):
        await service.act(loaded.row.id, *_any_move(loaded, random.Random(3)))
    assert len(told) == 1
    assert told[0].after.row.version == loaded.row.version + 1
    monkeypatch.undo()
    fresh = await service.load(loaded.row.id)
    assert fresh.row.version == loaded.row.version
