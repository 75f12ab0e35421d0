"""The publisher's memory kept honest when several bot processes share one database.

Any process may handle any move (DM clicks all arrive at shard 0, a game's channel clicks at its
guild's shard, timers at whichever process claims them), so the process drawing a game may not
be the one that last posted its table or a player's DM. When the store is shared
(``service.showing.shared``) every table and DM job first reads the game's message ids and
version back from the database (one query, :meth:`SharedView.refresh`): a newer table or DM
posted elsewhere is adopted (and edited, never duplicated), and a state older than the
database's is replaced by a fresh load before anything is drawn; an edit reads it again when
its rate-limit turn comes (``catch_up``), as it may have waited seconds for it. Two processes'
edits of one message can still land in either order, so after drawing, a job reads the
version once more: if another process moved the game on meanwhile, its edit may have landed
first and been drawn over with the older state, so the job draws the newest state again. A
job that may post a *new* table runs inside the store's table claim (an advisory lock per
game): the second process then finds the first one's table and edits it, so two processes never
both post a table for the same game key. On SQLite (one process) none of this runs: no read, no
lock, nothing changes.

A move sets off a table job and a job per changed hand at once, each reading before it draws,
when its rate-limit turn comes and after its edit. The reads before drawing share one: a read
begun less than :data:`FRESH_SECONDS` ago (or still under way) stands for a new one, as a
state that old is what any read could have returned a moment before. A move whose commit
is one statement reads the ids in it as well (db/play.py ``on_shown``, ``Report.shown``): the
publisher takes that as a read begun as it publishes the move, so the move's jobs read nothing
before drawing (:meth:`SharedView.read_with_move`). The read after an edit
is always a new one, begun after the edit: it is the one that must see what another process
wrote while the edit was in flight. It begins :data:`GATHER_SECONDS` after it is asked for,
so that the other jobs of the move, whose edits land about together, share it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from delivery.shown import GameShown, json_list
from presentation import UIS
from service.games import GameService
from service.showing import ShownIds, TableIds

log = logging.getLogger(__name__)

# Table claims hold a pooled connection while Discord answers the post: leave the pool room.
MAX_CLAIMS = 3
# A read of a game's ids begun this recently stands for a new one before drawing.
FRESH_SECONDS = 0.25
GATHER_SECONDS = 0.05  # a read after an edit waits this long for the others' to share it
READS_KEPT = 256  # games whose last read is remembered
# The messages this process knows for a game: its table's id and each seat's DM's id.
Posted = tuple[int | None, tuple[int | None, ...]]


class SharedView:
    def __init__(
        self, service: GameService, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.service = service
        # Whether a game's table job will post a new table whatever its key (a round's
        # summary waits to be posted above it: delivery/tables.py); set by the publisher.
        self.posting: Callable[[int], bool] = lambda game_id: False
        self._claims = asyncio.Semaphore(MAX_CLAIMS)
        self._clock = clock
        # game id -> (when its last read began, the messages known then, that read: done or
        # under way)
        self._reads: dict[int, tuple[float, Posted, asyncio.Future[ShownIds | None]]] = {}
        # game id -> the read after edits, not begun yet
        self._gathering: dict[int, asyncio.Future[ShownIds | None]] = {}

    @property
    def enabled(self) -> bool:
        return self.service.showing.shared

    async def refresh(self, shown: GameShown, *, fresh: bool = False) -> int | None:
        """Adopt what the database says the game shows now (shared store only); the game's
        version there (None: not shared, or no such game). ``fresh``: read anew, else a read
        of the game begun within :data:`FRESH_SECONDS` serves."""
        if not self.enabled:
            return None
        game_id = shown.loaded.row.id
        ids = await self._shown_ids(game_id, _posted(shown), fresh=fresh)
        if ids is None:
            return None
        if ids.version > shown.version or ids.status != shown.loaded.row.status:
            shown.update(await self.service.load(game_id))  # another process moved it on
        self._adopt_table(shown, ids.table)
        for seat, (channel_id, message_id) in ids.dms.items():
            dm = shown.dm(seat)
            if message_id is not None and message_id != dm.message_id:
                log.debug("game %s seat %s: DM %s posted elsewhere", game_id, seat, message_id)
                dm.channel_id, dm.message_id, dm.key = channel_id, message_id, None
        return ids.version

    async def overtaken(self, shown: GameShown, drawn: int) -> bool:
        """After a job drew the game at version ``drawn``: whether the database holds a newer
        one, moved on by another process whose edit may have landed before this job's. The
        newest state is then in ``shown``, for the job to draw again (shared store only)."""
        version = await self.refresh(shown, fresh=True)
        return version is not None and version > drawn

    @asynccontextmanager
    async def table_turn(self, shown: GameShown) -> AsyncIterator[None]:
        """Around one table job: refresh first; if the job may post a new table, hold the
        game's table claim while it runs (shared store only; SQLite: nothing)."""
        if not self.enabled:
            yield
            return
        await self.refresh(shown)
        if not self._may_post(shown):
            yield
            return
        async with self._claims, self.service.showing.table_claim(shown.loaded.row.id) as table:
            self._adopt_table(shown, table)
            yield

    async def _shown_ids(self, game_id: int, posted: Posted, *, fresh: bool) -> ShownIds | None:
        """The game's ids: from a read begun within FRESH_SECONDS when this process has
        posted nothing for the game since (unless ``fresh``: an older read would take back
        the new message's id), else from a new one, which later calls may share."""
        if fresh:
            gathering = self._gathering.get(game_id)
            if gathering is None:
                gathering = asyncio.ensure_future(self._gathered(game_id, posted))
                self._gathering[game_id] = gathering
            return await asyncio.shield(gathering)
        last = self._reads.get(game_id)
        if last is not None and last[1] == posted and self._clock() - last[0] < FRESH_SECONDS:
            return await asyncio.shield(last[2])
        return await asyncio.shield(self._read(game_id, posted))

    async def _gathered(self, game_id: int, posted: Posted) -> ShownIds | None:
        """A read begun GATHER_SECONDS from now, for every caller until it begins."""
        try:
            await asyncio.sleep(GATHER_SECONDS)
        finally:
            del self._gathering[game_id]
        return await self._read(game_id, posted)

    def read_with_move(self, shown: GameShown, ids: ShownIds) -> None:
        """The game's ids as the commit of its newest move read them (``Report.shown``, read
        in the move's own round trip): a read begun now for the jobs that draw that move,
        which then read nothing before drawing (shared store only). Ids older than what the
        publisher shows already are left out."""
        if not self.enabled or ids.version < shown.version:
            return
        read: asyncio.Future[ShownIds | None] = asyncio.get_running_loop().create_future()
        read.set_result(ids)
        self._remember(shown.loaded.row.id, _posted(shown), read)

    def _read(self, game_id: int, posted: Posted) -> asyncio.Future[ShownIds | None]:
        """A new read of the game's ids, remembered for the reads before drawing with the
        messages this process knew when it began."""
        read = asyncio.ensure_future(self.service.showing.shown_ids(game_id))
        self._remember(game_id, posted, read)

        def failed(done: asyncio.Future[ShownIds | None]) -> None:
            last = self._reads.get(game_id)
            if (done.cancelled() or done.exception() is not None) and (
                last is not None and last[2] is done
            ):
                del self._reads[game_id]  # a failed read serves nobody after it

        read.add_done_callback(failed)
        return read

    def _remember(
        self, game_id: int, posted: Posted, read: asyncio.Future[ShownIds | None]
    ) -> None:
        self._reads.pop(game_id, None)
        self._reads[game_id] = (self._clock(), posted, read)
        if len(self._reads) > READS_KEPT:
            del self._reads[next(iter(self._reads))]  # the game read longest ago

    @staticmethod
    def _adopt_table(shown: GameShown, table: TableIds) -> None:
        if table.message_id is not None and table.message_id != shown.table_message_id:
            shown.table_message_id, shown.table_key = table.message_id, table.key
            shown.table_head = json_list(table.head)

    def _may_post(self, shown: GameShown) -> bool:
        """Whether drawing the table may post a new message: none yet, a round's summary to
        post above it, or a new key (the same key :meth:`delivery.tables.TableMessages.kwargs`
        computes)."""
        loaded = shown.loaded
        if loaded.state is None:
            return False
        if shown.table_message_id is None or self.posting(loaded.row.id):
            return True
        key = UIS[loaded.row.game].table_key(loaded.game.view(loaded.state, None))
        return key != shown.table_key


def _posted(shown: GameShown) -> Posted:
    return shown.table_message_id, tuple(dm.message_id for _, dm in sorted(shown.dms.items()))
