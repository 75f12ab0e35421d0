"""Errors the store raises; each also extends the matching builtin.

Every message is one line an admin (or, for StorageFull, a player) can read as it is.
"""

from __future__ import annotations

import sqlite3


class StoreError(Exception):
    """Root of the store's errors."""


class NotFound(StoreError, LookupError):
    """No row with that id."""


class ChannelBusy(StoreError):
    """The channel already has an open game (the unique index said so)."""


class AlreadySeated(StoreError):
    """That user already has a seat in that game."""


class StaleVersion(StoreError):
    """The game moved on since the caller read it; nothing was written."""


class ConstraintViolation(StoreError, ValueError):
    """A write broke a rule of the schema (a unique key, a check); nothing was written."""


class DamagedDatabase(StoreError, sqlite3.DatabaseError):
    """The SQLite file failed its integrity check at open; the store refuses to use it."""


class StoreLocked(StoreError, OSError):
    """Another process holds the SQLite file; only PostgreSQL is shared between processes."""


class StorageFull(StoreError, OSError):
    """The disk (or the database's size cap) is full; the write was rolled back whole.

    The store stays usable: the same write succeeds once space is back.
    """


class StoreUnavailable(StoreError, OSError):
    """The database server could not be reached (or refused the connection) at open."""


class TargetNotEmpty(StoreError):
    """A copy into PostgreSQL was refused because the target database already holds games."""
