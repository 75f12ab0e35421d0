"""Who may send statements down the one SQLite connection, and when.

aiosqlite runs every call on one thread, in the order the calls were made. A call that is a
whole unit by itself (one read, or a whole transaction sent as one function) can therefore be
queued behind others without waiting for them: *shared* use. A transaction made of several
calls (BEGIN, statements the caller decides on as it goes, COMMIT) must have the connection to
itself from its first call to its last: *exclusive* use, which waits for the shared calls
under way and holds back new ones. The lock is fair (first come, first served), so a waiting
transaction is not starved by a stream of reads.

Shared calls thus never hold the connection across a turn of the event loop: under load, the
loop's turn (not SQLite) was most of the time a move's transaction held the old single lock.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class Gate:
    def __init__(self) -> None:
        self._exclusive = asyncio.Lock()
        self._shared = 0
        self._no_shared = asyncio.Event()
        self._no_shared.set()

    @asynccontextmanager
    async def shared(self) -> AsyncIterator[None]:
        """Around one self-contained call: it may be queued behind other shared calls."""
        async with self._exclusive:  # waits only while a transaction has the connection
            self._shared += 1
            self._no_shared.clear()
        try:
            yield
        finally:
            self._shared -= 1
            if not self._shared:
                self._no_shared.set()

    @asynccontextmanager
    async def exclusive(self) -> AsyncIterator[None]:
        """Around a transaction of several calls: the connection is its own meanwhile."""
        async with self._exclusive:
            await self._no_shared.wait()
            yield
