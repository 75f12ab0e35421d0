"""Can the database file be opened and written? One readable reason when it cannot.

Used before the store opens (so a wrong DATABASE_PATH is one clear line at start-up) and by the
heartbeat (so the health check notices a disk that went read-only or a file that went away).
The probe takes SQLite's write lock (``BEGIN IMMEDIATE``) and releases it at once: it writes
nothing, and waits for the store's short transactions like any other writer.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

LOCK_WAIT_SECONDS = 5.0


class DatabaseUnusable(Exception):
    """The database cannot be used for writing; the message is one line for the admin."""


def _reason(path: Path, exc: sqlite3.Error) -> str:
    text = str(exc)
    if "readonly" in text or "read-only" in text:
        return f"{path} is read-only (the file, its folder or the disk)"
    if "not a database" in text:
        return f"{path} is not a SQLite database (wrong file, or damaged)"
    if "locked" in text or "busy" in text:
        return f"{path} stays locked by another program"
    if "unable to open" in text:
        return f"cannot open or create {path}: check that its folder exists and is writable"
    return f"{path}: {text}"


def _folder(path: Path) -> None:
    if path.is_dir():
        raise DatabaseUnusable(f"{path} is a folder: DATABASE_PATH must name a file in it")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        problem = exc.strerror or str(exc)
        if exc.errno in (errno.EEXIST, errno.ENOTDIR):
            problem = "a file with that name is in the way"
        raise DatabaseUnusable(f"cannot create the folder {path.parent}: {problem}") from None


def _read_only_disk(path: Path) -> bool:
    statvfs = getattr(os, "statvfs", None)
    return statvfs is not None and bool(statvfs(path).f_flag & os.ST_RDONLY)


def _access(path: Path) -> None:
    """Permissions, said plainly (SQLite would only say "unable to open" or "readonly")."""
    if path.exists() and not os.access(path, os.R_OK):
        raise DatabaseUnusable(f"cannot read {path}: permission denied")
    for target in (path, path.parent):  # under WAL, SQLite writes -wal and -shm beside it
        if target.exists() and not os.access(target, os.W_OK):
            if _read_only_disk(target):
                raise DatabaseUnusable(f"{target} is on a read-only disk")
            raise DatabaseUnusable(f"{target} is read-only (no permission to write)")


def check_writable(path: Path) -> None:
    """Raise :class:`DatabaseUnusable` unless ``path`` can be opened and written as SQLite."""
    _folder(path)
    _access(path)
    try:
        conn = sqlite3.connect(path, timeout=LOCK_WAIT_SECONDS, isolation_level=None)
    except sqlite3.Error as exc:
        raise DatabaseUnusable(_reason(path, exc)) from None
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("PRAGMA schema_version")  # reads the header: is it a database at all?
        conn.execute("ROLLBACK")
    except sqlite3.Error as exc:
        raise DatabaseUnusable(_reason(path, exc)) from None
    finally:
        conn.close()
