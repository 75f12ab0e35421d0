"""The shared store's read-backs (delivery.peers): the reads before drawing share one, the read
after an edit is always new (a stub store counts the reads; a stub clock moves time)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, cast

import pytest

from db.models import GameStatus
from delivery.peers import FRESH_SECONDS, SharedView
from delivery.shown import GameShown
from service.games import GameService
from service.showing import ShownIds, TableIds
from tests.clock import Clock

GAME = 7


@dataclass
class Showing:
    """The store's side: ``shown_ids`` counted, answering after ``delay`` seconds."""

    version: int = 3
    delay: float = 0.0
    reads: int = 0
    shared: bool = True
    failing: bool = False
    table: int = 11
    head: str | None = None

    async def shown_ids(self, game_id: int) -> ShownIds | None:
        self.reads += 1
        await asyncio.sleep(self.delay)
        if self.failing:
            raise ConnectionError("lost")
        table = TableIds(self.table, "key", self.head)
        return ShownIds(self.version, GameStatus.ACTIVE, table, {0: (5, 6)})


@dataclass
class Row:
    id: int = GAME
    version: int = 3
    status: GameStatus = GameStatus.ACTIVE


@dataclass
class Loaded:
    row: Row = field(default_factory=Row)


@dataclass
class Dm:
    channel_id: int | None = 5
    message_id: int | None = 6
    key: Any = None


@dataclass
class Shown:
    loaded: Loaded = field(default_factory=Loaded)
    table_message_id: int | None = 11
    table_key: str | None = "key"
    table_head: list[dict[str, Any]] = field(default_factory=list)
    dms: dict[int, Dm] = field(default_factory=lambda: {0: Dm()})

    @property
    def version(self) -> int:
        return self.loaded.row.version

    def dm(self, seat: int) -> Dm:
        return self.dms[seat]

    def update(self, loaded: Loaded) -> None:
        self.loaded = loaded


@dataclass
class Service:
    showing: Showing

    async def load(self, game_id: int) -> Loaded:
        return Loaded(Row(game_id, self.showing.version))


def view(showing: Showing, clock: Clock) -> SharedView:
    return SharedView(cast(GameService, Service(showing)), clock=clock)


def shown() -> GameShown:
    return cast(GameShown, Shown())


async def test_reads_before_drawing_share_a_recent_one() -> None:
    showing, clock = Showing(), Clock(100.0)
    peers = view(showing, clock)
    game = shown()
    assert await peers.refresh(game) == 3
    clock.now += FRESH_SECONDS / 2
    assert await peers.refresh(game) == 3
    assert showing.reads == 1
    clock.now += FRESH_SECONDS
    await peers.refresh(game)
    assert showing.reads == 2


async def test_reads_under_way_are_shared() -> None:
    showing, clock = Showing(delay=0.01), Clock(100.0)
    peers = view(showing, clock)
    game = shown()
    await asyncio.gather(*(peers.refresh(game) for _ in range(4)))
    assert showing.reads == 1


async def test_the_read_after_an_edit_is_always_new() -> None:
    showing, clock = Showing(), Clock(100.0)
    peers = view(showing, clock)
    game = shown()
    await peers.refresh(game)
    showing.version = 4  # another process moved the game on meanwhile
    assert await peers.overtaken(game, 3)
    assert showing.reads == 2
    # ...and it serves the reads before the next drawing
    await peers.refresh(game)
    assert showing.reads == 2


async def test_a_failed_read_is_not_shared() -> None:
    showing, clock = Showing(failing=True), Clock(100.0)
    peers = view(showing, clock)
    game = shown()
    with pytest.raises(ConnectionError):
        await peers.refresh(game)
    showing.failing = False
    assert await peers.refresh(game) == 3
    assert showing.reads == 2


async def test_a_single_process_reads_nothing() -> None:
    showing, clock = Showing(shared=False), Clock(100.0)
    peers = view(showing, clock)
    assert await peers.refresh(shown()) is None
    assert not await peers.overtaken(shown(), 0)
    assert showing.reads == 0


async def test_the_reads_after_a_moves_edits_are_shared() -> None:
    """The table's and a hand's edits land about together: one read after both, begun after
    both asked; a read asked for once it has begun is another one."""
    showing, clock = Showing(delay=0.01), Clock(100.0)
    peers = view(showing, clock)
    game = shown()
    table, hand = await asyncio.gather(peers.overtaken(game, 3), peers.overtaken(game, 3))
    assert showing.reads == 1 and not table and not hand
    first = asyncio.ensure_future(peers.overtaken(game, 3))
    while showing.reads < 2:  # the first has begun reading
        await asyncio.sleep(0)
    await asyncio.gather(first, peers.overtaken(game, 3))
    assert showing.reads == 3


async def test_a_read_from_before_a_post_here_is_not_shared() -> None:
    """This process posted a new table after the last read began: that read holds the old
    table's id, and sharing it would take the new one back."""
    showing, clock = Showing(), Clock(100.0)
    peers = view(showing, clock)
    game = shown()
    await peers.refresh(game)
    game.table_message_id = 12  # posted here just now (the store says so from now on)
    showing.table = 12
    await peers.refresh(game)
    assert showing.reads == 2
    assert game.table_message_id == 12


async def test_a_table_posted_elsewhere_is_adopted_with_the_summary_above_it() -> None:
    """Another process posted a round's summary above a new table: this process's next edit
    must send that summary again (Discord replaces a message's embeds whole)."""
    showing, clock = Showing(), Clock(100.0)
    peers = view(showing, clock)
    game = shown()
    await peers.refresh(game)
    assert game.table_head == []
    showing.table, showing.head = 12, '[{"title": "Hand 1 scored"}]'
    clock.now += FRESH_SECONDS * 2
    await peers.refresh(game)
    assert game.table_message_id == 12 and game.table_head == [{"title": "Hand 1 scored"}]


async def test_the_ids_read_with_a_move_stand_for_the_read_before_drawing() -> None:
    """A move's commit read the game's ids (``Report.shown``): its jobs read nothing before
    drawing, and adopt what it read; an older read, or one taken before this process posted
    anew, is not used; once it is FRESH_SECONDS old the jobs read again."""
    showing, clock = Showing(), Clock(100.0)
    peers = view(showing, clock)
    game = shown()
    posted_elsewhere = ShownIds(3, GameStatus.ACTIVE, TableIds(12, "key", None), {0: (5, 6)})
    peers.read_with_move(game, posted_elsewhere)
    assert await peers.refresh(game) == 3
    assert showing.reads == 0 and game.table_message_id == 12
    clock.now += FRESH_SECONDS * 2
    await peers.refresh(game)
    assert showing.reads == 1
    older = ShownIds(2, GameStatus.ACTIVE, TableIds(13, "key", None), {0: (5, 6)})
    clock.now += FRESH_SECONDS * 2
    peers.read_with_move(game, older)
    await peers.refresh(game)
    assert showing.reads == 2 and game.table_message_id == 11  # the store's, not the old read's
    peers.read_with_move(game, posted_elsewhere)
    game.table_message_id = 14  # posted here after the move's read
    showing.table = 14
    await peers.refresh(game)
    assert showing.reads == 3 and game.table_message_id == 14


async def test_a_single_process_takes_no_ids_from_a_move() -> None:
    showing, clock = Showing(shared=False), Clock(100.0)
    peers = view(showing, clock)
    game = shown()
    peers.read_with_move(game, ShownIds(3, GameStatus.ACTIVE, TableIds(12, "key"), {}))
    assert await peers.refresh(game) is None
    assert game.table_message_id == 11
