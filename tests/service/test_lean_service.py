"""A lean move: one load and one transaction, timers only when they change, nothing kept after
a game ends."""

from __future__ import annotations

import gc
import random

import pytest

from db.store import Store
from engine import GAMES
from service.games import GameService
from service.reports import Loaded
from tests.store.test_lean_move import count_statements

HUMANS = (100, 101, 102)


async def _started(service: GameService, game: str, channel: int, humans: int) -> Loaded:
    lobby = await service.open_lobby(
        game=game, guild_id=1, channel_id=channel, host_id=HUMANS[0], host_name="Host"
    )
    for user in HUMANS[1:humans]:
        await service.join(lobby.row.id, user, f"P{user}")
    return (await service.start(lobby.row.id, HUMANS[0])).after


async def _random_move(service: GameService, loaded: Loaded, rng: random.Random) -> Loaded:
    game = loaded.game
    seat = loaded.seats[min(game.to_act(loaded.state))]
    assert seat.user_id is not None
    action = str(rng.choice(game.legal_actions(loaded.state, seat.seat)))
    return (await service.act(loaded.row.id, seat.user_id, seat.step, action)).after


async def test_a_move_is_one_read_and_one_transaction(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = GameService(store, turn_timeout=300)
    loaded = await _started(service, "gnome", 10, 3)
    rng = random.Random(3)
    log = count_statements(store, monkeypatch)
    for _ in range(20):
        before = len(log)
        loaded = await _random_move(service, loaded, rng)
        done = log[before:]
        assert done.count("reading") == 1 and done.count("transaction") == 1, done
        assert len(done) == 2 + 1 + 3, done  # the load, then games, actions and seats
    assert loaded.row.version == 20


async def test_timers_wake_the_timer_loop_only_when_one_may_fall_due_sooner(
    store: Store,
) -> None:
    now = [1_000.0]
    service = GameService(store, turn_timeout=300, clock=lambda: now[0])
    loaded = await _started(service, "gnome", 11, 3)
    assert service.timers_changed.is_set()
    assert service.soonest_new_deadline == 1_300.0
    rng = random.Random(4)
    seen: list[float | None] = []
    for _ in range(10):
        service.timers_changed.clear()
        service.soonest_new_deadline = None
        now[0] += 10
        loaded = await _random_move(service, loaded, rng)
        seen.append(_soonest(service))
        # a new turn sets the next player's timer, never one sooner than now + 300
        assert seen[-1] in (None, now[0] + 300)
    assert any(s is not None for s in seen)


def _soonest(service: GameService) -> float | None:
    return service.soonest_new_deadline


async def test_nothing_is_kept_per_game_once_games_end(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    rng = random.Random(5)
    for channel in range(12):
        game = ("ten", "gnome", "hearts")[channel % 3]
        humans = 2 if game == "hearts" else 3
        loaded = await _started(service, game, 100 + channel, humans)
        if channel % 2:  # half played to the end, half cancelled part-way
            while loaded.row.status == "active":
                loaded = await _random_move(service, loaded, rng)
            assert GAMES[game].outcome(loaded.state) is not None
        else:
            for _ in range(5):
                loaded = await _random_move(service, loaded, rng)
            await service.cancel(loaded.row.id, HUMANS[0], is_admin=False)
    gc.collect()
    assert len(service._locks) == 0
    assert len(service._states) == 0  # no parsed state kept for an ended game
