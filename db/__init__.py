"""The store: one contract (db.store.Store), two engines (db.sqlite, db.postgres)."""

from __future__ import annotations

from pathlib import Path

from db.store import Store, is_postgres_url


async def open_store(target: str | Path) -> Store:
    """PostgreSQL for a ``postgresql://`` URL (DATABASE_URL), else the SQLite file at a path."""
    return await Store.open(target)


__all__ = ["Store", "is_postgres_url", "open_store"]
