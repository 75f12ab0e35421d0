"""Recognising a restored SQLite database at start: the generation token.

The database holds a random token (table ``generation``) and the bot keeps the one it last
saw in ``<database>.generation``, beside it. At each start the bot compares the two, then
writes a new token to both (the database first: a crash in between only costs one more
redraw). The backup command writes a new token into each copy it makes. So a database put back
from a copy never carries the token the bot last saw: its games are behind what Discord
shows (a later table, DMs with later buttons), and every open game is redrawn from it.
"""

from __future__ import annotations

import secrets
import sqlite3
from pathlib import Path


def new_token() -> str:
    return secrets.token_hex(16)


def generation_path(database: Path) -> Path:
    """Where the bot keeps the token it last saw: beside the database (and its heartbeat)."""
    return database.with_name(database.name + ".generation")


def last_seen(path: Path) -> str | None:
    """The token the bot kept, or None (no file: a first start, or a new folder)."""
    try:
        return path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None


def keep(path: Path, token: str) -> None:
    """Replace the kept token atomically."""
    partial = path.with_name(path.name + ".tmp")
    partial.write_text(token, encoding="utf-8")
    partial.replace(path)


def mark_copy(copy: sqlite3.Connection) -> None:
    """Give a backup copy a token of its own (a database older than the table has none)."""
    try:
        copy.execute("UPDATE generation SET token = ? WHERE id = 1", (new_token(),))
        copy.commit()
    except sqlite3.OperationalError:  # no generation table: the bot never ran this version
        pass
