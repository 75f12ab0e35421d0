"""The embedded engine: one SQLite file, one process, one connection (shared: see db.gate).

Guards at open, in this order:

1. an exclusive OS lock (``flock``) on ``<file>.lock``, held for the store's life, so a second
   process (or a second store in this one) is refused with :class:`StoreLocked`;
2. an integrity check (``PRAGMA integrity_check`` on small files, ``quick_check`` on large
   ones): a damaged file is refused with :class:`DamagedDatabase`;
3. WAL, ``synchronous = FULL``, foreign keys, then the migrations.

A full disk (``SQLITE_FULL``, or ``ENOSPC``) during a write rolls the whole transaction back
and raises :class:`StorageFull`; the connection stays usable for when space is back.
"""

from __future__ import annotations

import asyncio
import errno
import fcntl
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, ClassVar, NoReturn

import aiosqlite

from db.changes import SQLITE_FUNCTION, SQLITE_TRIGGERS, Changed, from_thread
from db.errors import (
    ConstraintViolation,
    DamagedDatabase,
    StorageFull,
    StoreLocked,
)
from db.gate import Gate
from db.group_commit import GroupCommit
from db.migrations import Dialect, apply_sqlite
from db.sql import Statement, Tx
from db.store import Store

log = logging.getLogger(__name__)

FULL_CHECK_MAX_BYTES = 64 * 1024 * 1024  # integrity_check below this size, quick_check above
_SQLITE_CORRUPT, _SQLITE_FULL, _SQLITE_NOTADB = 11, 13, 26
FULL_MESSAGE = "the disk is full: the bot cannot save moves right now (nothing was written)"


def _damaged(path: Path, problem: str) -> DamagedDatabase:
    return DamagedDatabase(
        f"{path} is damaged ({problem}); stop the bot, move {path} (and any -wal/-shm files) "
        f"aside, copy your latest backup to {path} and start again"
    )


def _raise_mapped(exc: BaseException, path: Path) -> NoReturn:
    """Re-raise a driver error as the store's error for it (or as it is)."""
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
        if code == _SQLITE_FULL:
            raise StorageFull(FULL_MESSAGE) from exc
        if code in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
            raise _damaged(path, str(exc)) from exc
        if isinstance(exc, sqlite3.IntegrityError):
            raise ConstraintViolation(str(exc)) from exc
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        raise StorageFull(FULL_MESSAGE) from exc
    raise exc


class FileLock:
    """An exclusive ``flock`` on a sidecar file; released by :meth:`release` or process death."""

    def __init__(self, database: Path) -> None:
        self.path = database.with_name(database.name + ".lock")
        self._fd: int | None = None

    def acquire(self, database: Path) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            os.close(fd)
            who = f" (pid {holder})" if holder.isdigit() else ""
            raise StoreLocked(
                f"another bot process{who} is using {database}; stop it first "
                "(several processes can share a database only on PostgreSQL: DATABASE_URL)"
            ) from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode("ascii"), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None


class _SqliteTx:
    """A :class:`Tx` over the one aiosqlite connection (the caller holds the store's lock)."""

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        self._conn = conn
        self._path = path

    # Each statement is one trip to aiosqlite's thread (execute, fetch and close there): a
    # cursor kept on this side would cost two more trips per statement, and a move makes
    # several. The rows changed come from the connection's running count (execute runs only
    # in a transaction that has the connection to itself, see db.gate, so no other statement
    # runs in between; the only triggers, db.changes's, change no rows).

    async def fetch(self, sql: str, *args: Any) -> list[dict[str, Any]]:
        try:
            return [dict(row) for row in await self._conn.execute_fetchall(sql, args)]
        except (sqlite3.Error, OSError) as exc:
            _raise_mapped(exc, self._path)

    async def execute(self, sql: str, *args: Any) -> int:
        try:
            before = self._conn.total_changes
            await self._conn.execute_fetchall(sql, args)
            return self._conn.total_changes - before
        except (sqlite3.Error, OSError) as exc:
            _raise_mapped(exc, self._path)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        try:
            await self._conn.executemany(sql, rows)
        except (sqlite3.Error, OSError) as exc:
            _raise_mapped(exc, self._path)


class SqliteStore(Store):
    """The store on one SQLite file. Open with :func:`db.open_store` or :meth:`open_file`."""

    dialect: ClassVar[Dialect] = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, path: Path, lock: FileLock | None) -> None:
        self._conn = conn
        self._path = path
        self._file_lock = lock
        self._gate = Gate()  # see db.gate: whole-unit calls queue, transactions wait
        self._group = GroupCommit(conn)
        self._tx = _SqliteTx(conn, path)
        super().__init__()

    @property
    def path(self) -> Path:
        return self._path

    @classmethod
    async def open_file(cls, path: str | Path) -> SqliteStore:
        """Lock, check, set WAL and migrate; creates folders and file as needed."""
        target = Path(path)
        memory = str(path) == ":memory:"
        lock = None
        if not memory:
            target.parent.mkdir(parents=True, exist_ok=True)
            lock = FileLock(target)
            lock.acquire(target)
        try:
            conn = await aiosqlite.connect(str(target), isolation_level=None)
        except BaseException:
            if lock is not None:
                lock.release()
            raise
        try:
            conn.row_factory = sqlite3.Row
            if not memory:
                await _check_integrity(conn, target)
            await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute("PRAGMA synchronous = FULL")
            await conn.execute("PRAGMA foreign_keys = ON")
            await conn.execute("PRAGMA busy_timeout = 5000")
            await apply_sqlite(conn)
        except BaseException as exc:
            await conn.close()
            if lock is not None:
                lock.release()
            if isinstance(exc, sqlite3.Error | OSError):
                _raise_mapped(exc, target)
            raise
        return cls(conn, target, lock)

    async def watch_changes(self, told: Changed) -> None:
        announce = from_thread(asyncio.get_running_loop(), told)
        async with self._gate.exclusive():
            await self._conn.create_function(SQLITE_FUNCTION, 2, announce)
            for trigger in SQLITE_TRIGGERS:
                await self._conn.execute(trigger)

    async def close(self) -> None:
        async with self._gate.exclusive():
            await self._conn.close()
            if self._file_lock is not None:
                self._file_lock.release()

    async def schema_version(self) -> int:
        rows = await self.fetch("PRAGMA user_version")
        return int(next(iter(rows[0].values())))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self._gate.exclusive():
            try:  # a BEGIN cancelled while it waits still runs in the connection's thread
                await self._tx.execute("BEGIN IMMEDIATE")
                yield self._tx
                await self._tx.execute("COMMIT")
            except BaseException:
                await self._rollback()
                raise

    async def write_all(self, statements: Sequence[Statement]) -> None:
        """The whole transaction as one call, committed together with the writes that come
        meanwhile (see db.group_commit); it queues behind other calls (see db.gate)."""
        async with self._gate.shared():
            try:
                await self._group.write(statements)
            except (sqlite3.Error, OSError) as exc:
                _raise_mapped(exc, self._path)

    async def fetch(self, sql: str, *args: Any) -> list[dict[str, Any]]:
        """One read, as one call: queued behind the calls before it (see db.gate)."""
        async with self._gate.shared():
            return await self._tx.fetch(sql, *args)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Tx]:
        async with self._gate.exclusive():
            yield self._tx

    async def _rollback(self) -> None:
        """Roll back the transaction left open, if any. Whether one is open is read once the
        ROLLBACK has run: a cancelled BEGIN or COMMIT still runs in the connection's thread
        before it (a COMMIT so cancelled may have committed), and SQLite may have rolled back by
        itself (e.g. after SQLITE_FULL). Either way the ROLLBACK finds nothing to undo."""
        try:
            await self._conn.execute("ROLLBACK")
        except sqlite3.Error:
            if self._conn.in_transaction:
                log.exception("rollback failed on %s", self._path)


async def _check_integrity(conn: aiosqlite.Connection, path: Path) -> None:
    """Raise DamagedDatabase unless SQLite's own check says ``ok``."""
    size = path.stat().st_size if path.exists() else 0
    if size == 0:
        return
    pragma = "integrity_check" if size <= FULL_CHECK_MAX_BYTES else "quick_check"
    try:
        async with conn.execute(f"PRAGMA {pragma}(5)") as cursor:
            problems = [str(row[0]) for row in await cursor.fetchall()]
    except sqlite3.DatabaseError as exc:
        if getattr(exc, "sqlite_errorcode", 0) & 0xFF in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
            raise _damaged(path, str(exc)) from exc
        raise
    if problems != ["ok"]:
        raise _damaged(path, "; ".join(problems)[:200])
