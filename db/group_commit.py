"""Writes of the embedded engine committed together: one durable commit for many transactions.

Each write transaction of :meth:`db.store.Store.write_all` (a move is one) is a list of
statements sent as a whole. A commit with ``synchronous = FULL`` waits for the disk, and
under load that wait, not SQLite's work, is what limits how many moves a second the bot can
save. So writes that arrive while a commit is under way wait for it and then go together:
one ``BEGIN IMMEDIATE``, each transaction inside its own savepoint (a transaction that fails,
say a stale move, is rolled back alone and its caller gets the error), one ``COMMIT``. Every
caller learns the outcome only after that commit, so a saved move is on disk when its click
is answered. With one write at a time nothing changes: a group of one.

The statements run on aiosqlite's own thread, through the one call all of aiosqlite's calls
go through (``Connection._execute``; aiosqlite has no public call for running a function
there, and it is pinned below 0.23; the store tests run this path on every engine).
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field

import aiosqlite

from db.errors import StaleVersion
from db.sql import Statement


@dataclass(slots=True)
class _Write:
    statements: Sequence[Statement]
    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


def _run(raw: sqlite3.Connection, statements: Sequence[Statement]) -> None:
    for statement in statements:
        before = raw.total_changes
        try:
            if statement.many:
                raw.executemany(statement.sql, statement.args)
                continue
            raw.execute(statement.sql, statement.args)
        except sqlite3.IntegrityError as exc:
            statement.on_conflict(exc)
            raise
        statement.check(raw.total_changes - before)


def _run_group(
    raw: sqlite3.Connection, writes: list[Sequence[Statement]]
) -> list[BaseException | None]:
    """On aiosqlite's thread: every write in one transaction; each one's error or None. An
    error that ends the whole transaction (a full disk, a failed commit) is every write's."""
    raw.execute("BEGIN IMMEDIATE")
    outcomes: list[BaseException | None] = []
    try:
        for statements in writes:
            raw.execute("SAVEPOINT one_write")
            try:
                _run(raw, statements)
            except (sqlite3.Error, StaleVersion) as exc:
                if not raw.in_transaction:  # SQLite rolled everything back (SQLITE_FULL)
                    raise
                raw.execute("ROLLBACK TO one_write")
                outcomes.append(exc)
            else:
                outcomes.append(None)
            raw.execute("RELEASE one_write")
        raw.execute("COMMIT")
    except (sqlite3.Error, OSError) as exc:
        _roll_back(raw)
        return [exc] * len(writes)
    except BaseException:  # a bug: no transaction may stay open behind it
        _roll_back(raw)
        raise
    return outcomes


def _roll_back(raw: sqlite3.Connection) -> None:
    if raw.in_transaction:  # SQLite may have rolled back by itself (SQLITE_FULL)
        with contextlib.suppress(sqlite3.Error):  # the first error is the one to report
            raw.execute("ROLLBACK")


class GroupCommit:
    """Queues write transactions; at most one group is being committed at a time."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._waiting: list[_Write] = []
        self._committing: asyncio.Task[None] | None = None  # kept: a task needs a reference

    async def write(self, statements: Sequence[Statement]) -> None:
        """Commit ``statements`` as one transaction; raises its error (driver errors as the
        driver raised them: the store maps them)."""
        write = _Write(statements)
        self._waiting.append(write)
        if self._committing is None:
            self._committing = asyncio.get_running_loop().create_task(
                self._commit_all(), name="group-commit"
            )
        await write.done

    async def _commit_all(self) -> None:
        try:
            while self._waiting:
                group, self._waiting = self._waiting, []
                try:  # aiosqlite's own queue, untyped (see the module's docstring)
                    outcomes = await self._conn._execute(  # type: ignore[no-untyped-call]
                        _run_group, self._conn._conn, [w.statements for w in group]
                    )
                except asyncio.CancelledError:  # the bot is stopping: nobody gets an answer
                    for write in [*group, *self._waiting]:
                        write.done.cancel()
                    raise
                except Exception as exc:  # noqa: BLE001 - every caller of the group gets it
                    outcomes = [exc] * len(group)
                for write, outcome in zip(group, outcomes, strict=True):
                    if write.done.done():
                        continue
                    if outcome is None:
                        write.done.set_result(None)
                    else:
                        write.done.set_exception(outcome)
        finally:
            self._committing = None
