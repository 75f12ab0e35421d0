"""Opening the store: PostgreSQL for a ``postgresql://`` URL, else a SQLite file."""

from __future__ import annotations

from pathlib import Path

from db.postgres import PostgresStore
from db.sqlite import SqliteStore
from db.store import Store, is_postgres_url


async def open_store(target: str | Path) -> Store:
    """PostgreSQL for a ``postgresql://`` URL (DATABASE_URL), else the SQLite file at a path."""
    if is_postgres_url(target):
        return await PostgresStore.connect(str(target))
    return await SqliteStore.open_file(target)
