"""The PostgreSQL store's connections: a small pool of asyncpg connections.

asyncpg's own pool does more on every call than the store needs: it gives a connection back
through a task of its own (``asyncio.shield``) under a timeout, runs a reset, re-arms an idle
timer and wraps each connection in a proxy: on a short statement, more than half again its
own CPU in the bot (docs/performance.md). This pool does only what the store asks:

- :meth:`Pool.acquire` hands out the idle connection given back last (its statements are
  prepared), else opens a new one while fewer than ``max_size`` are open, else queues the
  caller; the queue is served first come, first served.
- :meth:`Pool.release` takes a connection back in the same step, no task and no round trip.
  One that is closed, still inside a transaction, or given back with ``discard`` (its user
  was cancelled or lost it in the middle of a statement, so its state is unknown) is
  terminated instead, and its place goes to the next caller, who opens a new one.
- A connection idle for :data:`IDLE_SECONDS` is closed rather than handed out: a quiet bot
  does not hold on to connections that a proxy or firewall on the way may have dropped.
  One open for :data:`LIFETIME_SECONDS` is closed as it comes back, so that no server
  process lives as long as the bot (what it caches over its life is given back).

Nothing is reset when a connection comes back: the store keeps no session state on one. Its
advisory locks are transaction-scoped (``pg_advisory_xact_lock``), it LISTENs on a
connection of its own (db/changes.py), and it never SETs a setting, DECLAREs a cursor or
creates a temporary table; a transaction left open is caught at :meth:`Pool.release`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TypeAlias

import asyncpg

log = logging.getLogger(__name__)

Connection: TypeAlias = "asyncpg.Connection[asyncpg.Record]"
Connect: TypeAlias = Callable[[], Awaitable[Connection]]

IDLE_SECONDS = 300.0  # a connection idle this long is closed, as asyncpg's pool does
LIFETIME_SECONDS = 3600.0  # a connection open this long is closed as it comes back
CLOSE_SECONDS = 2.0  # a closing connection's goodbye waits at most this long


class PoolClosed(asyncpg.InterfaceError):
    """The pool was closed: no connection is handed out any more."""


class Pool:
    def __init__(
        self,
        connect: Connect,
        *,
        max_size: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_size < 1:
            raise ValueError("a pool needs room for one connection at least")
        self._connect = connect
        self._max_size = max_size
        self._clock = clock
        self._idle: list[tuple[Connection, float]] = []  # (connection, idle since), newest last
        self._opened: dict[Connection, float] = {}  # every open connection: when it opened
        self._open = 0  # places taken: connections open or being opened, idle or in use
        # Callers waiting for a place: each is handed a connection, or None (open one).
        self._waiting: deque[asyncio.Future[Connection | None]] = deque()
        self._closing: set[asyncio.Task[None]] = set()
        self._closed = False

    @classmethod
    async def open(cls, url: str, *, min_size: int, max_size: int) -> Pool:
        """A pool on ``url`` with ``min_size`` connections opened already."""

        async def connect() -> Connection:
            return await asyncpg.connect(url)

        pool = cls(connect, max_size=max_size)
        opened: list[Connection] = []
        try:
            for _ in range(min(min_size, max_size)):
                opened.append(await pool.acquire())
        except BaseException:
            for conn in opened:
                pool.release(conn)
            await pool.close()
            raise
        for conn in opened:
            pool.release(conn)
        return pool

    def get_max_size(self) -> int:
        return self._max_size

    @property
    def size(self) -> int:
        """Connections open or being opened, idle or in use."""
        return self._open

    @property
    def idle(self) -> int:
        return len(self._idle)

    async def acquire(self) -> Connection:
        """A connection for the caller alone until :meth:`release`."""
        if self._closed:
            raise PoolClosed("the connection pool is closed")
        now = self._clock()
        while self._idle:
            conn, since = self._idle.pop()
            if not conn.is_closed() and now - since < IDLE_SECONDS:
                return conn
            self._retire(conn)
            self._open -= 1
        if self._open < self._max_size:
            self._open += 1
        else:
            handed = await self._wait()
            if handed is not None:
                return handed
            # A place came free: it is counted as ours, the connection is ours to open.
        try:
            conn = await self._connect()
        except BaseException:
            self._pass_on(None)
            raise
        self._opened[conn] = self._clock()
        return conn

    async def _wait(self) -> Connection | None:
        waiter: asyncio.Future[Connection | None] = asyncio.get_running_loop().create_future()
        self._waiting.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._pass_on(waiter.result())  # handed over as the caller was cancelled
            raise

    def release(self, conn: Connection, *, discard: bool = False) -> None:
        """Take back a connection from :meth:`acquire`. ``discard``: its state is unknown (a
        statement cancelled or lost under way): it is terminated, never handed out again."""
        if discard or self._closed or conn.is_closed() or conn.is_in_transaction():
            if not conn.is_closed():
                if not discard and not self._closed:
                    log.warning("a PostgreSQL connection came back inside a transaction")
                conn.terminate()
            self._opened.pop(conn, None)
            self._pass_on(None)
            return
        if self._clock() - self._opened.get(conn, self._clock()) >= LIFETIME_SECONDS:
            self._retire(conn)
            self._pass_on(None)
            return
        self._pass_on(conn)
        self._close_stale()

    def _pass_on(self, conn: Connection | None) -> None:
        """A connection (or, with None, a place for a new one) to the first caller still
        waiting, else back to the idle ones (a place: given up)."""
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(conn)
                return
        if conn is None:
            self._open -= 1
        else:
            self._idle.append((conn, self._clock()))

    def _close_stale(self) -> None:
        """Close the connections idle for IDLE_SECONDS: the oldest are first in line."""
        now = self._clock()
        while self._idle and now - self._idle[0][1] >= IDLE_SECONDS:
            conn, _ = self._idle.pop(0)
            self._open -= 1
            self._retire(conn)

    def _retire(self, conn: Connection) -> None:
        """Close ``conn`` in the background, saying goodbye to the server."""
        self._opened.pop(conn, None)
        if conn.is_closed():
            return
        task = asyncio.get_running_loop().create_task(_close(conn))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def close(self) -> None:
        """Close the idle connections; those in use are terminated as they come back, and
        callers waiting are told the pool is closed."""
        self._closed = True
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_exception(PoolClosed("the connection pool is closed"))
        idle, self._idle = self._idle, []
        self._open -= len(idle)
        for conn, _ in idle:
            self._retire(conn)
        if self._closing:
            await asyncio.gather(*self._closing, return_exceptions=True)


async def _close(conn: Connection) -> None:
    try:
        await conn.close(timeout=CLOSE_SECONDS)
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        log.debug("a PostgreSQL connection closed without its goodbye: %s", exc)
        conn.terminate()
