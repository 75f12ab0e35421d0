"""Numbered SQL migrations, one folder per dialect with the same numbered history.

``sqlite/NNN_name.sql`` and ``postgres/NNN_name.sql`` are the same step written in each
engine's types; a test checks that both folders hold the same numbers and names. The applied
number lives in the database: SQLite's ``PRAGMA user_version``, PostgreSQL's
``schema_version`` table. Each engine applies the missing steps at open inside a transaction.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

import aiosqlite
import asyncpg

HERE = Path(__file__).parent
Dialect = Literal["sqlite", "postgres"]
DIALECTS: tuple[Dialect, ...] = ("sqlite", "postgres")
_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")
# Any constant shared by every process of the bot: the key of the advisory lock taken while
# migrating, so two processes starting together never both migrate.
PG_MIGRATION_LOCK = 0x63617264_7461626C  # "cardtabl"


def migration_files(dialect: Dialect = "sqlite") -> list[tuple[int, Path]]:
    """(number, path) of every migration of a dialect, in order; numbers run 1, 2, 3, ..."""
    folder = HERE / dialect
    found = sorted((int(m.group(1)), p) for p in folder.glob("*.sql") if (m := _NAME.match(p.name)))
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"{dialect} migration numbers must be 1..n without gaps: {numbers}")
    return found


async def apply_sqlite(conn: aiosqlite.Connection) -> int:
    """Apply every migration above the current user_version, each in its own transaction."""
    async with conn.execute("PRAGMA user_version") as cur:
        row = await cur.fetchone()
    current = int(row[0]) if row else 0
    for number, path in migration_files("sqlite"):
        if number <= current:
            continue
        script = path.read_text(encoding="utf-8")
        try:
            await conn.executescript(
                f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;"
            )
        except BaseException:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise
        current = number
    return current


async def apply_postgres(conn: asyncpg.Connection[asyncpg.Record]) -> int:
    """Apply every missing migration in one transaction under an advisory lock.

    A second process starting at the same moment waits on the lock, then finds the version
    already recorded and applies nothing.
    """
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", PG_MIGRATION_LOCK)
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        current = int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))
        for number, path in migration_files("postgres"):
            if number <= current:
                continue
            await conn.execute(path.read_text(encoding="utf-8"))
            await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
            current = number
    return current
