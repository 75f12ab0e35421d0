"""A consistent copy of a live database, made with SQLite's online backup API.

Under WAL the newest commits may still sit in ``bot.db-wal``, so copying ``bot.db`` alone can
miss moves or give a damaged file. The backup API reads one consistent snapshot through SQLite
(the bot keeps writing meanwhile: WAL readers do not block the writer). The copy is written
beside the target under a temporary name, switched to a single self-contained file (no -wal),
checked with ``PRAGMA integrity_check`` and only then renamed into place. The copy gets a
generation token of its own (:mod:`db.generation`), so that a bot started on it once it is
restored knows its games are behind what Discord shows.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

from db.generation import mark_copy

LOCK_WAIT_SECONDS = 10.0


class BackupError(Exception):
    """The backup could not be made; the message is one line for the admin."""


def _copy(source: Path, partial: Path) -> None:
    src = sqlite3.connect(source, timeout=LOCK_WAIT_SECONDS)
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)  # one step: one read snapshot, never restarted by the bot's writes
            mark_copy(dst)
            dst.execute("PRAGMA journal_mode = DELETE")
            (verdict,) = dst.execute("PRAGMA integrity_check").fetchone()
            if verdict != "ok":
                raise BackupError(f"the copy of {source} failed its integrity check: {verdict}")
        finally:
            dst.close()
    finally:
        src.close()


def backup(source: Path, target: Path) -> Path:
    """Copy the database at ``source`` to ``target`` (a file, replaced if it exists)."""
    if not source.is_file():
        raise BackupError(f"there is no database at {source}")
    if target.resolve() == source.resolve():
        raise BackupError("the backup must not overwrite the database itself")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BackupError(f"cannot create the folder {target.parent}: {exc.strerror}") from None
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        _copy(source, partial)
        with partial.open("rb+") as handle:
            os.fsync(handle.fileno())
        partial.replace(target)
    except sqlite3.Error as exc:
        raise BackupError(f"cannot back up {source} to {target}: {exc}") from None
    except OSError as exc:
        raise BackupError(f"cannot write {target}: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
    return target
