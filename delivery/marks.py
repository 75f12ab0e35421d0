"""Which version of each game Discord shows, written to the store in batches.

After every job of a game went through, the publisher marks the version its table shows; after
each hand job, the version that player's DM shows (a finished game's DMs are redrawn after a
crash only if their marks are behind). The marks only decide what a restart redraws (games
marked behind their latest move) and what the periodic repair looks at, so they need not cost
a durable commit of their own per move: a mark is written at once if the last write is
``interval`` seconds old, else with the others that come until then, in one transaction (at
most ten writes a second however busy the bot is; on SQLite, under load, they join the moves'
group commits, see db.group_commit). A mark lost to a crash means one game redrawn at the next
start, nothing more. A failed write is tried again.

On a shared store (PostgreSQL) a write is a transaction on the server and a round trip of its
own, for every process: there a mark made while the publisher's outbox still draws something
waits until it has nothing left (:meth:`RenderedMarks.drawing`), or ``busy_wait`` seconds at
most, and goes with every mark made meanwhile. A bot that draws without pause writes its marks
about once a second; one that has finished drawing a move writes its mark at once, as before.
"""

from __future__ import annotations

import asyncio
import logging

from service.showing import Showing

log = logging.getLogger(__name__)

# Seconds between two writes of marks at least. Whoever waits for a game to be fully shown
# (the e2e tests, between two clicks) waits for its mark: 0.25 s made that wait, not the
# bot's work, the pace of a game played click after click.
MARK_INTERVAL = 0.1
# Shared store: the longest a mark waits while the outbox draws. The periodic repair of another
# process redraws a game only if it was behind at two looks SHARED_REPAIR_EVERY apart.
BUSY_WAIT = 1.0


class RenderedMarks:
    def __init__(
        self, showing: Showing, interval: float = MARK_INTERVAL, *, busy_wait: float = 0.0
    ) -> None:
        """``busy_wait``: the longest a mark waits while the outbox draws (0: it does not)."""
        self._showing = showing
        self._interval = interval
        self._busy_wait = busy_wait
        self._drawing = False
        self._since: float | None = None  # loop time of the oldest mark not taken to a write
        self._last_write = float("-inf")  # loop time
        self._waiting: dict[int, int] = {}  # game id -> newest version the table shows
        self._writing: dict[int, int] = {}  # the batch being written
        self._dms: dict[tuple[int, int], int] = {}  # (game id, seat) -> version its DM shows
        self._dms_writing: dict[tuple[int, int], int] = {}
        # The next write's timer and its loop time (uvloop's handle of a timer already due
        # has no ``when``).
        self._timer: asyncio.Handle | None = None
        self._timer_at = 0.0
        self._writes: set[asyncio.Task[None]] = set()
        self._lock = asyncio.Lock()  # one write at a time

    def mark(self, game_id: int, version: int) -> None:
        """Discord shows ``version`` of the game: record it with the next batch."""
        if version > self._waiting.get(game_id, -1):
            self._waiting[game_id] = version
        self._soon()

    def mark_dm(self, game_id: int, seat: int, version: int) -> None:
        """The seat's DM shows ``version`` of the game: record it with the next batch."""
        if version > self._dms.get((game_id, seat), -1):
            self._dms[(game_id, seat)] = version
        self._soon()

    def drawing(self, busy: bool) -> None:
        """The outbox began drawing (True), or has nothing left to draw (False): the marks
        waiting for that are written now."""
        self._drawing = busy
        if not busy and self._busy_wait > 0 and self._timer is not None:
            self._schedule()

    def _soon(self) -> None:
        if self._since is None:
            self._since = asyncio.get_running_loop().time()
        if self._timer is None:
            self._schedule()

    def _schedule(self) -> None:
        """The next write at the soonest the rules allow (a timer set later is brought
        forward)."""
        loop = asyncio.get_running_loop()
        at = self._last_write + self._interval
        if self._drawing and self._busy_wait > 0 and self._since is not None:
            at = max(at, self._since + self._busy_wait)
        if self._timer is not None:
            if self._timer_at <= at:
                return
            self._timer.cancel()
        self._timer_at = max(at, loop.time())
        self._timer = loop.call_at(self._timer_at, self._due)

    def waiting(self, game_id: int) -> bool:
        """A mark of this game is not written yet (the store still says it is behind)."""
        return (
            game_id in self._waiting
            or game_id in self._writing
            or any(g == game_id for g, _seat in (*self._dms, *self._dms_writing))
        )

    async def flush(self) -> None:
        """Write every waiting mark now (at shutdown, and for tests)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        await asyncio.gather(*self._writes)
        await self._write()

    def _due(self) -> None:
        self._timer = None
        task = asyncio.create_task(self._write(), name="rendered-marks")
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def _write(self) -> None:
        async with self._lock:
            if not self._waiting and not self._dms:
                return
            self._last_write = asyncio.get_running_loop().time()
            batch, dms = self._writing, self._dms_writing = self._waiting, self._dms
            self._waiting, self._dms, self._since = {}, {}, None
            try:
                await self._showing.set_shown_versions(batch, dms)
            except Exception:
                log.warning("could not record which games Discord shows", exc_info=True)
                for game_id, version in batch.items():  # tried again with the next write
                    self.mark(game_id, version)
                for (game_id, seat), version in dms.items():
                    self.mark_dm(game_id, seat, version)
            finally:
                self._writing, self._dms_writing = {}, {}
