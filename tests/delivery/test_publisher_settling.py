"""The publisher records which version of a game Discord shows, also when a move lands while
that record is being written, and writes those records in batches (stub Discord, real
store)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any, cast

import discord
import pytest
import uvloop

from db.store import Store
from delivery.assemble import assemble
from delivery.marks import RenderedMarks
from delivery.outbox import Outbox
from delivery.pacing import Pacer
from service.games import GameService
from service.reports import Report
from service.showing import Showing
from tests.delivery.test_publisher_memory import HUMANS, _Bot, _Channel, _Http, _Message

DmMarks = Mapping[tuple[int, int], int]


class _GatedChannel(_Channel):
    def __init__(self, gate: asyncio.Event) -> None:
        self.gate = gate

    async def send(self, *args: Any, **kwargs: Any) -> _Message:
        await self.gate.wait()
        return await super().send(*args, **kwargs)


class _GatedHttp(_Http):
    def __init__(self, gate: asyncio.Event) -> None:
        self.gate = gate

    async def edit_message(self, channel_id: int, message_id: int, **kwargs: Any) -> None:
        await self.gate.wait()


class _GatedBot(_Bot):
    """Discord writes wait on ``gate``: closed, the jobs of a move stay queued."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.gate.set()
        self.http = _GatedHttp(self.gate)

    def get_partial_messageable(self, channel_id: int, **kwargs: Any) -> _Channel:
        return _GatedChannel(self.gate)


async def _next_move(service: GameService, report: Report) -> Report:
    loaded = report.after
    seat = loaded.seats[min(loaded.game.to_act(loaded.state))]
    assert seat.user_id is not None
    action = str(loaded.game.legal_actions(loaded.state, seat.seat)[0])
    return await service.act(loaded.row.id, seat.user_id, seat.step, action)


async def test_a_move_landing_while_the_shown_version_is_written_is_recorded_too(
    store: Store,
) -> None:
    service = GameService(store, turn_timeout=0)
    bot = _GatedBot()
    publisher = assemble(cast(discord.Client, bot), service, pacer=Pacer(scale=0.0001)).publisher
    lobby = await service.open_lobby(
        game="ten", guild_id=1, channel_id=700, host_id=HUMANS[0], host_name="A"
    )
    await service.join(lobby.row.id, HUMANS[1], "B")
    started = await service.start(lobby.row.id, HUMANS[0])
    moved: list[Report] = []
    record = store.shown.set_shown_versions
    batches: list[dict[int, int]] = []

    async def record_while_a_move_lands(tables: Mapping[int, int], dms: DmMarks) -> None:
        if tables:
            batches.append(dict(tables))
        if tables and not moved:
            # The start is shown and being recorded: a move lands now, and its Discord writes
            # wait until this record is written.
            bot.gate.clear()
            moved.append(await _next_move(service, started))
            publisher.publish(moved[0])
            await record(tables, dms)
            bot.gate.set()
            return
        await record(tables, dms)

    store.shown.set_shown_versions = record_while_a_move_lands  # type: ignore[method-assign]  # spy
    publisher.publish(started)
    await publisher.outbox.idle()
    await publisher.marks.flush()
    assert moved, "the start was never recorded as shown"
    await publisher.outbox.idle()
    await publisher.marks.flush()
    game_id, first = lobby.row.id, started.after.row.version
    assert batches == [{game_id: first}, {game_id: moved[0].after.row.version}]
    row = await store.games.game(lobby.row.id)
    assert row.version == moved[0].after.row.version
    assert row.rendered_version == row.version
    assert await store.shown.stale_games() == []


def _spied(store: Store) -> list[dict[int, int]]:
    """The table marks of each write of ``store``'s marks, as they are written."""
    writes: list[dict[int, int]] = []
    record = store.shown.set_shown_versions

    async def counting(tables: Mapping[int, int], dms: DmMarks) -> None:
        writes.append(dict(tables))
        await record(tables, dms)

    store.shown.set_shown_versions = counting  # type: ignore[method-assign]  # spy
    return writes


async def test_marks_are_written_at_once_when_idle_and_batched_when_busy(store: Store) -> None:
    writes = _spied(store)
    marks = RenderedMarks(Showing(store), interval=0.2)
    marks.mark(1, 3)  # nothing written lately: at once
    await asyncio.sleep(0.02)
    assert writes == [{1: 3}]
    marks.mark(1, 4)  # within the interval: these wait for each other
    marks.mark(2, 5)
    marks.mark(1, 2)  # older than the mark waiting: ignored
    await asyncio.sleep(0.05)
    assert writes == [{1: 3}]
    assert marks.waiting(1) and marks.waiting(2) and not marks.waiting(3)
    await asyncio.sleep(0.3)
    assert writes == [{1: 3}, {1: 4, 2: 5}]
    assert not marks.waiting(1)
    marks.mark(2, 6)
    await marks.flush()  # at shutdown: at once
    assert writes[-1] == {2: 6}
    await marks.flush()  # nothing waiting: no write
    assert len(writes) == 3


async def _until(done: Callable[[], bool], timeout: float = 3.0) -> float:
    """Wait until ``done()``; the seconds it took."""
    loop = asyncio.get_running_loop()
    began = loop.time()
    while not done():
        assert loop.time() - began < timeout, "never done"
        await asyncio.sleep(0.01)
    return loop.time() - began


async def test_on_a_shared_store_marks_wait_while_the_outbox_draws(store: Store) -> None:
    """With ``busy_wait``: a mark made while the outbox draws waits for its pause (written
    then, with the others made meanwhile), or ``busy_wait`` at most; one made while it is idle
    goes at once."""
    writes = _spied(store)
    marks = RenderedMarks(Showing(store), interval=0.01, busy_wait=1.0)
    gate = asyncio.Event()
    outbox = Outbox(drawing=marks.drawing)

    async def job() -> None:
        marks.mark(1, 3)
        await gate.wait()

    outbox.put("lane", "a", job)
    await asyncio.sleep(0.05)
    marks.mark(2, 5)
    await asyncio.sleep(0.1)
    assert writes == []  # still drawing
    gate.set()
    await outbox.idle()
    assert await _until(lambda: bool(writes)) < 0.5  # the pause: at once
    assert writes == [{1: 3, 2: 5}]
    marks.mark(3, 1)  # nothing drawn: at once
    assert await _until(lambda: len(writes) == 2) < 0.5
    assert writes[-1] == {3: 1}
    gate.clear()
    outbox.put("lane", "b", job)
    await asyncio.sleep(0.3)
    assert writes[-1] == {3: 1}
    waited = 0.3 + await _until(lambda: len(writes) == 3)
    assert writes[-1] == {1: 3}  # drawing without a pause: busy_wait at most
    assert 0.9 < waited < 2.0
    gate.set()
    await outbox.idle()


async def test_without_busy_wait_a_mark_does_not_wait_for_the_outbox(store: Store) -> None:
    """SQLite: the outbox's drawing changes nothing."""
    writes = _spied(store)
    marks = RenderedMarks(Showing(store), interval=0.01)
    marks.drawing(True)
    marks.mark(1, 3)
    assert await _until(lambda: bool(writes)) < 0.5
    assert writes == [{1: 3}]


@pytest.mark.parametrize("busy_wait", [0.0, 0.3])
def test_the_marks_timer_on_the_bots_event_loop(busy_wait: float) -> None:
    """The bot runs on uvloop (runtime/lifecycle.py), whose handle of a timer already due has
    no ``when``: a mark due now, then the outbox's pause (twice), then the write."""

    async def scenario() -> list[dict[int, int]]:
        writes: list[dict[int, int]] = []

        class _Showing:
            async def set_shown_versions(self, tables: Mapping[int, int], dms: DmMarks) -> None:
                writes.append(dict(tables))

        marks = RenderedMarks(cast(Showing, _Showing()), interval=0.05, busy_wait=busy_wait)
        marks.drawing(True)
        marks.mark(1, 3)  # nothing written yet: due now, unless it waits for the pause
        marks.drawing(False)
        marks.drawing(False)
        assert await _until(lambda: bool(writes)) < 0.25
        marks.drawing(True)
        marks.mark(2, 4)
        marks.drawing(False)
        assert await _until(lambda: len(writes) == 2) < 0.25
        return writes

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        assert runner.run(scenario()) == [{1: 3}, {2: 4}]


async def test_a_failed_mark_write_is_tried_again_with_the_next(store: Store) -> None:
    game_id = (
        await store.lobbies.create_lobby(
            guild_id=1, channel_id=9, game="ten", host_id=HUMANS[0], host_name="A", seed=1
        )
    ).id
    await store.play.start(game_id, "{}", {0: None})
    record = store.shown.set_shown_versions
    failing = [True]

    async def flaky(tables: Mapping[int, int], dms: DmMarks) -> None:
        if failing.pop() if failing else False:
            raise OSError("disk full")
        await record(tables, dms)

    store.shown.set_shown_versions = flaky  # type: ignore[method-assign]  # fails once
    marks = RenderedMarks(Showing(store), interval=0.01)
    marks.mark(game_id, 0)
    marks.mark_dm(game_id, 0, 0)
    await marks.flush()  # fails: kept
    assert (await store.games.game(game_id)).rendered_version == -1
    assert marks.waiting(game_id)
    await marks.flush()
    assert (await store.games.game(game_id)).rendered_version == 0
    assert (await store.games.seats(game_id))[0].shown_version == 0


async def test_an_old_dm_clicked_after_a_crash_at_the_end_brings_the_whole_game_up(
    store: Store,
) -> None:
    """The bot stopped before drawing a game's last move; after the restart a player clicks
    their old DM and is answered with the final hand. The rest is drawn too, and the game is
    recorded as fully shown: the start-up repair passes over a game whose mark is waiting,
    as this click's is."""
    service = GameService(store, turn_timeout=0)
    before = assemble(cast(discord.Client, _Bot()), service, pacer=Pacer(scale=0.0001)).publisher
    lobby = await service.open_lobby(
        game="ten", guild_id=1, channel_id=700, host_id=HUMANS[0], host_name="A"
    )
    await service.join(lobby.row.id, HUMANS[1], "B")
    report = await service.start(lobby.row.id, HUMANS[0])
    while report.after.row.status == "active":
        before.publish(report)
        report = await _next_move(service, report)
    await before.outbox.idle()
    await before.marks.flush()  # the last move is saved, never drawn: the bot stops here
    game_id = lobby.row.id
    row = await store.games.game(game_id)
    assert row.status == "finished" and row.rendered_version < row.version

    http = _CountingHttp()
    bot = _Bot()
    bot.http = http
    delivery = assemble(cast(discord.Client, bot), service, pacer=Pacer(scale=0.0001))
    after = delivery.publisher
    loaded = await service.load(game_id)
    delivery.desk.hands.closed_hand_shown(loaded, 0)  # what the click's answer drew
    await after.outbox.idle()
    await after.marks.flush()
    row = await store.games.game(game_id)
    assert row.rendered_version == row.version
    seats = await store.games.seats(game_id)
    assert [s.shown_version for s in seats] == [row.version] * 2
    assert await store.shown.stale_games() == []
    # Every hand is redrawn, the clicked one too: as after the start-up repair, it ends as
    # the plain final hand, without the answer's note.
    assert {s.dm_message_id for s in seats} <= set(http.edits)


class _CountingHttp(_Http):
    def __init__(self) -> None:
        self.edits: list[int] = []

    async def edit_message(self, channel_id: int, message_id: int, **kwargs: Any) -> None:
        self.edits.append(message_id)
