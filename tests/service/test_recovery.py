"""The service never leaves a game stuck: resuming after a crash, a full disk, shared timers."""

from __future__ import annotations

import random
from typing import Any

import pytest

from db.errors import StorageFull
from db.store import Store
from service.errors import CannotSave, NoGame, NotAllowed
from service.games import GameService
from service.reports import Loaded, Report
from tests.clock import Clock
from tests.service.test_games import HOST, _lobby, _started


def _due_human(loaded: Loaded) -> int:
    due = loaded.game.to_act(loaded.state)
    return next(s.seat for s in loaded.seats if s.seat in due and not s.is_computer)


async def _human_move(service: GameService, loaded: Loaded, rng: random.Random) -> Report:
    seat_no = _due_human(loaded)
    seat = loaded.seats[seat_no]
    legal = loaded.game.legal_actions(loaded.state, seat_no)
    assert seat.user_id is not None
    return await service.act(loaded.row.id, seat.user_id, seat.step, str(rng.choice(legal)))


class CrashesBeforeComputers(GameService):
    """Commits a human's move, then 'dies' before any computer seat answers."""

    async def _run_computers(self, report: Report) -> None:
        return None


async def test_resume_lets_a_due_computer_move_after_a_crash(store: Store) -> None:
    crashing = CrashesBeforeComputers(store, turn_timeout=0)
    loaded = await _started(crashing, humans=2, computers=2)
    rng = random.Random(1)
    for _ in range(40):  # play until a computer seat is due and nobody moved it
        report = await _human_move(crashing, loaded, rng)
        loaded = report.after
        due = loaded.game.to_act(loaded.state)
        if any(loaded.seats[s].is_computer for s in due):
            break
    else:
        pytest.fail("no computer seat became due")
    version = loaded.row.version
    restarted = GameService(store, turn_timeout=0)
    report = await restarted.resume(loaded.row.id)
    assert report.moves and all(m.actor == "computer" for m in report.moves)
    assert (await store.games.game(loaded.row.id)).version == version + len(report.moves)
    after = report.after
    due = after.game.to_act(after.state)
    assert not any(after.seats[s].is_computer for s in due)  # a human decides now
    assert (await restarted.resume(loaded.row.id)).moves == []  # nothing more to do


async def test_a_full_disk_refuses_the_move_and_the_same_click_works_later(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store's own full-disk guard is tested in tests/store; here: what the player gets."""
    service = GameService(store, turn_timeout=0)
    loaded = await _started(service, humans=2, computers=0)
    seat_no = _due_human(loaded)
    seat = loaded.seats[seat_no]
    action = str(loaded.game.legal_actions(loaded.state, seat_no)[0])
    record = store.play.record_move

    async def disk_full(*args: Any, **kwargs: Any) -> int:
        raise StorageFull("the disk holding bot.db is full: the bot cannot save moves")

    monkeypatch.setattr(store.play, "record_move", disk_full)
    assert seat.user_id is not None
    with pytest.raises(CannotSave, match="cannot save moves right now"):
        await service.act(loaded.row.id, seat.user_id, seat.step, action)
    assert (await store.games.game(loaded.row.id)).version == loaded.row.version
    monkeypatch.setattr(store.play, "record_move", record)  # space is back
    report = await service.act(loaded.row.id, seat.user_id, seat.step, action)
    assert report.moves[0].action == action
    assert (await store.games.game(loaded.row.id)).version == loaded.row.version + 1


async def test_a_timeout_is_played_once_by_two_processes(store: Store) -> None:
    clock = Clock(1_000_000.0)
    first = GameService(store, turn_timeout=60, clock=clock)
    second = GameService(store, turn_timeout=60, clock=clock)
    loaded = await _started(first, humans=2, computers=0)
    version = loaded.row.version
    clock.now += 61
    reports = [*await first.expire_due(), *await second.expire_due()]
    moves = [m for r in reports for m in r.moves if m.actor == "timeout"]
    assert len(moves) == 1
    assert (await store.games.game(loaded.row.id)).version == version + 1


async def test_lobby_buttons_work_only_in_their_own_channel(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    loaded = await _lobby(service, channel=10)
    with pytest.raises(NotAllowed, match="another channel"):
        await service.join(loaded.row.id, HOST + 1, "Bob", channel_id=11)
    joined = await service.join(loaded.row.id, HOST + 1, "Bob", channel_id=10)
    assert len(joined.seats) == 2
    with pytest.raises(NotAllowed, match="another channel"):
        await service.start(loaded.row.id, HOST, channel_id=11)


async def test_a_game_that_no_longer_exists_is_said_so(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    with pytest.raises(NoGame, match="no longer exists"):
        await service.act(4242, HOST, 0, "d.x")


async def test_newly_due_marks_a_new_turn_not_a_seat_that_stays_due(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    loaded = await _started(service, humans=3, computers=0)
    game = loaded.game
    # Grinch: the Whos discard at the same time; one Who's discard leaves the others due.
    whos = sorted(game.to_act(loaded.state))
    assert len(whos) >= 2
    report = await _human_move(service, loaded, random.Random(2))
    still = game.to_act(report.after.state)
    assert still and report.newly_due().isdisjoint(still & set(whos))
    start = Report(before=await _lobby(service, channel=99), after=loaded)
    assert start.newly_due() == game.to_act(loaded.state)  # everyone due at the start
