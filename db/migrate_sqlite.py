"""Move a SQLite database to PostgreSQL: ``python -m db.migrate_sqlite SRC.db postgresql://...``

Stop the bot first (the source is opened with its lock, checked and brought to the latest
migration). Every game, seat, action and result is copied with its id, in one PostgreSQL
transaction, and the id sequence is moved past the highest id; a target that already holds
any row is refused. Afterwards every row is read back from both databases and compared.
Then set ``DATABASE_URL`` to the target and start the bot (as many processes as you like).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from db.errors import StoreError
from db.languages import language_row
from db.models import ActionRow, GameRow, ResultRow, SeatRow
from db.players import HistoryRow, RatingRow
from db.postgres import PostgresStore, describe
from db.servers import GuildSettings
from db.sql import TABLE_KEYS
from db.sqlite import SqliteStore
from db.store import Store, is_postgres_url

log = logging.getLogger("db.migrate_sqlite")

ROW_TYPES: dict[str, Callable[[Mapping[str, Any]], object]] = {
    "games": GameRow.from_row,
    "seats": SeatRow.from_row,
    "actions": ActionRow.from_row,
    "results": ResultRow.from_row,
    "ratings": RatingRow.from_row,
    "rating_history": HistoryRow.from_row,
    "guild_settings": GuildSettings.from_row,
    "user_languages": language_row,
    "server_languages": language_row,
    "outbox": dict,  # what is owed a channel, compared column by column
}


class CopyMismatch(StoreError):
    """The target does not read back exactly what the source holds."""


@dataclass(frozen=True, slots=True)
class CopyReport:
    counts: dict[str, int]

    def line(self) -> str:
        return ", ".join(f"{n} {table}" for table, n in self.counts.items())


async def _rows(store: Store) -> dict[str, list[object]]:
    return {
        table: [ROW_TYPES[table](r) for r in await store.games.export_rows(table)]
        for table in TABLE_KEYS
    }


async def copy_store(source: SqliteStore, target: PostgresStore) -> CopyReport:
    """Copy every row of ``source`` into the empty ``target`` and check it reads back equal."""
    tables: dict[str, Sequence[Mapping[str, Any]]] = {
        table: await source.games.export_rows(table) for table in TABLE_KEYS
    }
    await target.import_rows(tables)
    expected, found = await _rows(source), await _rows(target)
    for table in TABLE_KEYS:
        if expected[table] != found[table]:
            pairs = zip(expected[table], found[table], strict=False)
            first = next(
                (i for i, (a, b) in enumerate(pairs) if a != b),
                min(len(expected[table]), len(found[table])),
            )
            raise CopyMismatch(f"{table} differs after the copy, from row {first}")
    return CopyReport({table: len(rows) for table, rows in tables.items()})


async def migrate(source_path: str | Path, url: str) -> CopyReport:
    if not is_postgres_url(url):
        raise ValueError(f"the target must be a postgresql:// URL, not {url!r}")
    if not Path(source_path).is_file():
        raise FileNotFoundError(f"no SQLite database at {source_path}")
    source = await SqliteStore.open_file(source_path)
    try:
        target = await PostgresStore.connect(url)
        try:
            return await copy_store(source, target)
        finally:
            await target.close()
    finally:
        await source.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m db.migrate_sqlite", description=__doc__.splitlines()[0]
    )
    parser.add_argument("source", help="the SQLite file, e.g. data/bot.db (bot stopped)")
    parser.add_argument("url", help="the empty PostgreSQL database, postgresql://user@host/db")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    try:
        report = asyncio.run(migrate(args.source, args.url))
    except (StoreError, OSError, ValueError) as exc:
        log.error("migration failed: %s", exc)
        return 2
    log.info("copied %s to %s; every row checked", report.line(), describe(args.url))
    return 0


if __name__ == "__main__":
    sys.exit(main())
