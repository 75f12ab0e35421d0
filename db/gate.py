"""Who may send statements down the one SQLite connection, and when.

aiosqlite runs every call on one thread, in the order the calls were made. A call that is a
whole unit by itself (one read, or a whole transaction sent as one function) can therefore be
queued behind others without waiting for them: *shared* use. A transaction made of several
calls (BEGIN, statements the caller decides on as it goes, COMMIT) must have the connection to
itself from its first call to its last: *exclusive* use, which waits for the shared calls
under way and holds back new ones, so a waiting transaction is not starved by a stream of
reads; transactions take their turns in order.

Shared calls thus never hold the connection across a turn of the event loop: under load, the
loop's turn (not SQLite) was most of the time a move's transaction held the old single lock.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class Gate:
    def __init__(self) -> None:
        self._exclusive = asyncio.Lock()  # transactions, one after another
        self._transactions = 0  # holding or waiting for the connection
        self._open = asyncio.Event()  # no transaction holds or waits: shared calls go
        self._open.set()
        self._shared = 0
        self._no_shared = asyncio.Event()
        self._no_shared.set()

    @asynccontextmanager
    async def shared(self) -> AsyncIterator[None]:
        """Around one self-contained call: it may be queued behind other shared calls.

        Shared calls wait on an event, which wakes them all at once, rather than on the lock:
        an asyncio lock hands itself from one waiter to the next one turn of the event loop
        at a time, and on a busy loop a hundred queued reads then waited a hundred turns."""
        while not self._open.is_set():
            await self._open.wait()
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
        """Around a transaction of several calls: the connection is its own meanwhile; shared
        calls that come while it waits go after it."""
        self._transactions += 1
        self._open.clear()
        try:
            async with self._exclusive:
                await self._no_shared.wait()
                yield
        finally:
            self._transactions -= 1
            if not self._transactions:
                self._open.set()
