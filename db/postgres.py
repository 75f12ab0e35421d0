"""The shared engine: PostgreSQL through a pool of asyncpg connections (db/pool.py), for
several bot processes.

Nothing here relies on an in-process lock: a move locks its game row (``SELECT ... FOR
UPDATE``), checks the version and appends under the unique ``(game_id, seq)``, so two
processes recording the same move give one success and one :class:`StaleVersion`. Due turn
timers are claimed with ``FOR UPDATE SKIP LOCKED``. Migrations run at open inside one
transaction under an advisory lock (see ``db.migrations``).
"""

from __future__ import annotations

import functools
import logging
import select
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, ClassVar, NoReturn

import asyncpg

from db.budget import MAKE_BUCKETS, TAKE_SLOT, TAKE_SLOTS, Bucket, columns, missing, wait_of
from db.changes import Changed, PgListener
from db.errors import (
    ConstraintViolation,
    StaleVersion,
    StorageFull,
    StoreError,
    StoreUnavailable,
    TargetNotEmpty,
)
from db.interactions import FIRST_TIME, KEEP_SECONDS
from db.leases import RELEASE, RENEW, TAKE, HeldShard, held_shard
from db.migrations import Dialect, apply_postgres
from db.pgwrites import Folded, fold
from db.pool import Connection, Pool
from db.sql import TABLE_KEYS, Statement, Tx, text_array
from db.store import Store

log = logging.getLogger(__name__)
FULL_MESSAGE = "the database server is out of space: the bot cannot save moves right now"


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """``?`` marks -> PostgreSQL's ``$1, $2, ...`` (the store's SQL has no ``?`` in text)."""
    head, *rest = sql.split("?")
    return head + "".join(f"${n}{part}" for n, part in enumerate(rest, start=1))


# The server went away (restart, network, shutdown): the statement's transaction is lost.
_GONE = (
    OSError,
    asyncpg.exceptions.PostgresConnectionError,  # class 08, and the client's own
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
    asyncpg.exceptions.CannotConnectNowError,
    # asyncpg's own state after the server closed an idle connection under it
    asyncpg.exceptions.InternalClientError,
)


def _raise_mapped(exc: BaseException) -> NoReturn:
    if isinstance(exc, _GONE):
        raise StoreUnavailable(f"lost the connection to PostgreSQL: {exc}") from exc
    if isinstance(exc, asyncpg.exceptions.IntegrityConstraintViolationError):
        raise ConstraintViolation(str(exc)) from exc
    if isinstance(exc, asyncpg.exceptions.InsufficientResourcesError):  # 53xxx, disk full
        raise StorageFull(FULL_MESSAGE) from exc
    raise exc


def describe(url: str) -> str:
    """The URL without its password, for messages."""
    scheme, sep, rest = url.partition("://")
    if "@" in rest:
        credentials, _, host = rest.rpartition("@")
        rest = f"{credentials.split(':', 1)[0]}@{host}"
    return f"{scheme}{sep}{rest}"


class _PgTx:
    """A :class:`Tx` over one pooled connection."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[dict[str, Any]]:
        try:
            return [dict(row) for row in await self._conn.fetch(numbered(sql), *args)]
        except (asyncpg.PostgresError, *_GONE) as exc:
            _raise_mapped(exc)

    async def execute(self, sql: str, *args: Any) -> int:
        try:
            status = await self._conn.execute(numbered(sql), *args)
        except (asyncpg.PostgresError, *_GONE) as exc:
            _raise_mapped(exc)
        tail = status.rsplit(" ", 1)[-1]
        return int(tail) if tail.isdigit() else 0

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        try:
            await self._conn.executemany(numbered(sql), rows)
        except (asyncpg.PostgresError, *_GONE) as exc:
            _raise_mapped(exc)


class PostgresStore(Store):
    """The store on a PostgreSQL database. Open with :func:`db.open_store` or :meth:`connect`."""

    dialect: ClassVar[Dialect] = "postgres"
    row_lock: ClassVar[str] = " FOR UPDATE"
    claim_lock: ClassVar[str] = " FOR UPDATE OF s SKIP LOCKED"
    owed_lock: ClassVar[str] = " FOR UPDATE SKIP LOCKED"
    claims_shared: ClassVar[bool] = True
    _writable_sql: ClassVar[str] = "SELECT NOT pg_is_in_recovery() AS writable"

    def __init__(self, pool: Pool, url: str) -> None:
        self._pool = pool
        self.url = url
        self._listener: PgListener | None = None
        super().__init__()

    @classmethod
    async def connect(cls, url: str, *, min_size: int = 1, max_size: int = 10) -> PostgresStore:
        """A pool on ``url``, then the missing migrations (one process at a time)."""
        try:
            pool = await Pool.open(url, min_size=min_size, max_size=max_size)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise StoreUnavailable(f"cannot reach PostgreSQL at {describe(url)}: {exc}") from exc
        try:
            conn = await pool.acquire()
            try:
                await apply_postgres(conn)
            finally:
                pool.release(conn)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, url)

    async def close(self) -> None:
        if self._listener is not None:
            await self._listener.close()
        await self._pool.close()

    async def watch_changes(self, told: Changed) -> None:
        self._listener = PgListener(self.url, told)
        await self._listener.start()

    async def take_rest_slots(self, buckets: Sequence[Bucket]) -> float:
        """One REST call counted in each of Discord's ``buckets`` (key, limit, period) for
        this bot, shared with every process on this database, in one statement: 0 when
        every bucket took it, else the seconds until they all have room, none taking it
        (db/budget.py)."""
        keys, limits, periods = columns(buckets)
        async with self._connection() as conn:
            try:
                value = await conn.fetchval(TAKE_SLOTS, keys, limits, periods)
                if missing(value):  # a bucket's first call: its row made, then asked again
                    await conn.execute(MAKE_BUCKETS, keys)
                    value = await conn.fetchval(TAKE_SLOTS, keys, limits, periods)
            except (asyncpg.PostgresError, *_GONE) as exc:
                _raise_mapped(exc)
        if missing(value):  # the rows went again at once: only a crash recovery empties them
            raise StoreError("the shared REST budget's buckets could not be made")
        return wait_of(value)

    async def take_rest_slot(self, key: str, limit: int, period: float) -> float:
        """One call of the bucket ``key`` alone: 0 when taken, else the seconds until the
        bucket opens (migration 013's function)."""
        async with self._connection() as conn:
            try:
                return wait_of(await conn.fetchval(TAKE_SLOT, key, limit, period))
            except (asyncpg.PostgresError, *_GONE) as exc:
                _raise_mapped(exc)

    async def first_interaction(self, interaction_id: str) -> bool:
        """Whether no worker on this database was given this interaction id before (within
        db/interactions.py's window): counted as given now."""
        async with self._connection() as conn:
            try:
                return bool(await conn.fetchval(FIRST_TIME, interaction_id, KEEP_SECONDS))
            except (asyncpg.PostgresError, *_GONE) as exc:
                _raise_mapped(exc)

    async def take_shard_leases(
        self, count: int, shards: Sequence[int], holder: str, ttl: float
    ) -> HeldShard | None:
        """Lease ``shards`` of ``count`` to ``holder`` for ``ttl`` s, all or none (db/leases.py):
        None when taken, else the live lease of another holder that overlaps one of them."""
        async with self._connection() as conn:
            try:
                row = await conn.fetchrow(TAKE, count, text_array(shards), holder, ttl)
            except (asyncpg.PostgresError, *_GONE) as exc:
                _raise_mapped(exc)
        return held_shard(row)

    async def renew_shard_leases(self, holder: str, ttl: float) -> int:
        """Renew ``holder``'s unexpired leases for ``ttl`` s; how many there were."""
        async with self._connection() as conn:
            try:
                return int(await conn.fetchval(RENEW, holder, ttl))
            except (asyncpg.PostgresError, *_GONE) as exc:
                _raise_mapped(exc)

    async def release_shard_leases(self, holder: str) -> None:
        """Give up every lease of ``holder`` (a clean stop: the shards are free at once)."""
        async with self._connection() as conn:
            try:
                await conn.execute(RELEASE, holder)
            except (asyncpg.PostgresError, *_GONE) as exc:
                _raise_mapped(exc)

    async def schema_version(self) -> int:
        rows = await self.fetch("SELECT COALESCE(MAX(version), 0) AS v FROM schema_version")
        return int(rows[0]["v"])

    @asynccontextmanager
    async def _connection(self, *, live: bool = False) -> AsyncIterator[Connection]:
        """A pooled connection; ``live``: one the server has not closed while it sat idle
        (a restart closes them all), each closed one replaced, without a round trip. One
        whose user stopped in the middle (cancelled) or lost it is never handed out again."""
        tries = self._pool.get_max_size() + 1 if live else 1
        for attempt in range(1, tries + 1):
            try:
                conn = await self._pool.acquire()
            except (asyncpg.PostgresError, *_GONE) as exc:
                _raise_mapped(exc)
            if not live or _still_open(conn) or attempt == tries:
                break
            log.warning("a PostgreSQL connection was lost; writing on a new one")
            self._pool.release(conn, discard=True)
        broken = True
        try:
            yield conn
            broken = False
        except Exception as exc:
            broken = _broken_by(exc)
            raise
        finally:
            self._pool.release(conn, discard=broken)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        conn, transaction = await self._begin()
        broken = True
        try:
            try:
                yield _PgTx(conn)
            except BaseException as exc:
                try:  # a lost connection has rolled back by itself
                    await transaction.rollback()
                except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
                    log.warning("no rollback: the connection is gone", exc_info=True)
                else:
                    broken = isinstance(exc, Exception) and _broken_by(exc)
                raise
            # A COMMIT cancelled under way (the bot stopping) leaves ``broken`` set, so its
            # connection is given up; the server may still finish that COMMIT.
            try:
                await transaction.commit()
            except (asyncpg.PostgresError, *_GONE) as exc:
                _raise_mapped(exc)
            broken = False
        finally:
            self._pool.release(conn, discard=broken)

    async def _begin(self) -> tuple[Connection, asyncpg.transaction.Transaction]:
        """A pooled connection inside BEGIN. One the server closed while it sat idle (a
        restart) fails at BEGIN, before anything is written, and is replaced once."""
        for attempt in (1, 2):
            try:
                conn = await self._pool.acquire()
            except (asyncpg.PostgresError, *_GONE) as exc:
                _raise_mapped(exc)
            transaction = conn.transaction()
            try:
                await transaction.start()
            except BaseException as exc:
                self._pool.release(conn, discard=True)
                if not isinstance(exc, Exception):
                    raise
                if attempt == 2 or not isinstance(exc, _GONE):
                    _raise_mapped(exc)
                log.warning("a PostgreSQL connection was lost; beginning again on a new one")
                continue
            return conn, transaction
        raise AssertionError("unreachable")

    async def write_all(self, statements: Sequence[Statement]) -> None:
        """The statements as one when they can be (db/pgwrites.py: one round trip, no
        BEGIN or COMMIT), else in a transaction of their own."""
        folded = fold(statements)
        if folded is None:
            await super().write_all(statements)
            return
        await self._write_folded(folded)

    async def write_and_read(
        self, statements: Sequence[Statement], read: Statement
    ) -> list[dict[str, Any]] | None:
        """A guarded write and ``read`` in one round trip (db/pgwrites.py); the read's rows,
        as the database was when the statement began. Statements of another shape are
        written as :meth:`write_all` writes them, and nothing is read (None)."""
        folded = fold(statements, read)
        if folded is None:
            await self.write_all(statements)
            return None
        rows = await self._write_folded(folded)
        return [{k: v for k, v in row.items() if k != "changed"} for row in rows]

    async def _write_folded(self, folded: Folded) -> list[dict[str, Any]]:
        try:
            try:
                rows = await self._send(folded)
            except StoreUnavailable as exc:
                if not _ended_unanswered(exc):
                    raise
                log.warning("a PostgreSQL connection was closed; writing again on a new one")
                rows = await self._send(folded)
        except ConstraintViolation as exc:
            _conflicted(folded, exc)
            raise
        changed = int(rows[0]["changed"]) if rows and folded.guarded is not None else 0
        if folded.guarded is not None and changed != folded.guarded.expect:
            raise StaleVersion("the game moved on")
        return rows

    async def _send(self, folded: Folded) -> list[dict[str, Any]]:
        """Run the folded statement; its rows (each with ``changed``, the rows its guarded
        UPDATE changed; none for a statement without one)."""
        async with self._connection(live=True) as conn:
            if folded.alone is not None and folded.alone.many:
                await _PgTx(conn).executemany(folded.sql, folded.alone.args)
                return []
            rows = await _PgTx(conn).fetch(folded.sql, *folded.args)
        return rows if folded.guarded is not None else []

    async def fetch(self, sql: str, *args: Any) -> list[dict[str, Any]]:
        """Reads are retried once on a fresh connection if the pooled one was dead."""
        try:
            return await super().fetch(sql, *args)
        except StoreUnavailable:
            log.warning("a PostgreSQL connection was lost; reading again on a new one")
            return await super().fetch(sql, *args)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Tx]:
        async with self._connection() as conn:
            yield _PgTx(conn)

    async def import_rows(self, tables: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
        """Fill an empty database with rows from another store, ids kept, in one transaction.

        Raises TargetNotEmpty if any of the store's tables already holds a row. Values are
        converted to the column's type (SQLite's 0/1 flags become booleans) and the id
        sequence is moved past the highest id copied.
        """
        async with self.transaction() as tx:
            await tx.execute("LOCK TABLE games, seats, actions, results IN EXCLUSIVE MODE")
            for table in TABLE_KEYS:
                found = await tx.fetch(f"SELECT EXISTS (SELECT 1 FROM {table}) AS found")
                if found[0]["found"]:
                    raise TargetNotEmpty(
                        f"{describe(self.url)} already has rows in {table}; "
                        "copy into an empty database"
                    )
            for table in TABLE_KEYS:
                rows = tables.get(table, ())
                if not rows:
                    continue
                types = {
                    r["column_name"]: r["data_type"]
                    for r in await tx.fetch(
                        "SELECT column_name, data_type FROM information_schema.columns "
                        "WHERE table_schema = current_schema() AND table_name = ?",
                        table,
                    )
                }
                columns = list(rows[0].keys())
                unknown = [c for c in columns if c not in types]
                if unknown:
                    raise ValueError(f"{table} has columns PostgreSQL does not: {unknown}")
                marks = ", ".join("?" * len(columns))
                await tx.executemany(
                    f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
                    [[_convert(row[c], types[c]) for c in columns] for row in rows],
                )
            for table in ("games", "outbox"):  # the tables whose ids a sequence gives
                await tx.fetch(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"COALESCE(MAX(id), 1), MAX(id) IS NOT NULL) FROM {table}"
                )


def _still_open(conn: Connection) -> bool:
    """Whether an idle pooled connection is still open. The server sends nothing to an idle
    connection that does not LISTEN unless it is closing it (its FATAL message, then the
    end of the stream): anything waiting to be read means the connection is gone, even
    before the event loop has read it."""
    if conn.is_closed():
        return False
    transport = getattr(conn, "_transport", None)
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is None:
        return True
    waiting = select.poll()  # not select(): no limit on the descriptor's number
    waiting.register(sock.fileno(), select.POLLIN)
    return not waiting.poll(0)


def _ended_unanswered(exc: StoreUnavailable) -> bool:
    """Whether the server told this connection it was ending it (admin shutdown: a restart,
    or pg_terminate_backend) instead of answering the statement. A backend ends so only
    between statements or by aborting the one it runs, never between a commit and its
    answer, so the statement was not committed and may be sent again: the retry a
    transaction's BEGIN gave before anything was written."""
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, asyncpg.exceptions.AdminShutdownError):
            return True
        cause = cause.__cause__ or cause.__context__
    return False


def _conflicted(folded: Folded, exc: ConstraintViolation) -> None:
    """What the statement that broke a constraint says of it (StaleVersion, or nothing: the
    caller re-raises): the lone statement, or the one that wrote the constraint's table."""
    if folded.alone is not None:
        folded.alone.on_conflict(exc)
        return
    statement = folded.tables.get(getattr(exc.__cause__, "table_name", None) or "")
    if statement is not None:
        statement.on_conflict(exc)


def _broken_by(exc: Exception) -> bool:
    """Whether a connection that raised ``exc`` may be in an unknown state: lost, or asyncpg
    refusing it (a statement still under way). An error the server answered leaves it as it
    was."""
    return isinstance(exc, (StoreUnavailable, asyncpg.InterfaceError, *_GONE))


def _convert(value: Any, data_type: str) -> Any:
    if value is None:
        return None
    if data_type == "boolean":
        return bool(value)
    if data_type == "double precision":
        return float(value)
    return value
