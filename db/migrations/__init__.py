"""Numbered SQL migrations; the applied number is the database's ``PRAGMA user_version``."""

from __future__ import annotations

import re
from pathlib import Path

import aiosqlite

HERE = Path(__file__).parent
_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


def migration_files() -> list[tuple[int, Path]]:
    """(number, path) of every migration, in order; numbers must run 1, 2, 3, ..."""
    found = sorted((int(m.group(1)), p) for p in HERE.glob("*.sql") if (m := _NAME.match(p.name)))
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migration numbers must be 1..n without gaps, found {numbers}")
    return found


async def apply_migrations(conn: aiosqlite.Connection) -> int:
    """Apply every migration above the current user_version, each in its own transaction."""
    async with conn.execute("PRAGMA user_version") as cur:
        row = await cur.fetchone()
    current = int(row[0]) if row else 0
    for number, path in migration_files():
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
