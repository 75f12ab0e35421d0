"""Clicks deferred and not yet answered, kept in a small file beside the database.

A click whose move is not saved within the acknowledgement budget is deferred: Discord stops
waiting, the player's buttons stay as they were, and the answer comes when the move is saved.
If the bot dies in between, the move may never have been saved and nothing would tell the
player. So a deferred move click is written here before the deferral goes out and struck off
when it is answered; the clicks a start finds left are checked against the games: a seat still
at the clicked step did not get its move, and its DM is redrawn saying so (see
``Publisher.lost_click``). A file rather than the database: a click is deferred because the
database is slow, and this record must not wait behind it.
"""

from __future__ import annotations

import contextlib
import json
import logging
from dataclasses import asdict, dataclass
from pathlib import Path

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PendingClick:
    game_id: int
    user_id: int
    step: int  # the seat step the clicked control carried


class PendingClicks:
    """The journal at ``path`` (None: kept nowhere). The clicks a previous process left are
    read once, at construction (:meth:`take_left`)."""

    def __init__(self, path: Path | None = None) -> None:
        self._path = path
        self._open: dict[int, PendingClick] = {}  # interaction id -> click
        self._left = self._read()
        if self._left:
            self._write()  # the new process starts with an empty journal

    def add(self, interaction_id: int, click: PendingClick) -> None:
        """A move click is being deferred: record it before the deferral is sent."""
        self._open[interaction_id] = click
        self._write()

    def done(self, interaction_id: int) -> None:
        """The click was answered (saved or refused)."""
        if self._open.pop(interaction_id, None) is not None:
            self._write()

    def take_left(self) -> list[PendingClick]:
        """The deferred clicks the previous process never answered (given out once)."""
        left, self._left = self._left, []
        return left

    def _read(self) -> list[PendingClick]:
        if self._path is None:
            return []
        try:
            data = json.loads(self._path.read_text(encoding="utf-8"))
            return [PendingClick(**entry) for entry in data]
        except FileNotFoundError:
            return []
        except (OSError, ValueError, TypeError):
            log.warning("could not read the deferred clicks in %s", self._path, exc_info=True)
            return []

    def _write(self) -> None:
        if self._path is None:
            return
        partial = self._path.with_name(self._path.name + ".tmp")
        try:
            partial.write_text(json.dumps([asdict(c) for c in self._open.values()]))
            partial.replace(self._path)
        except OSError:
            log.warning("could not record the deferred clicks in %s", self._path, exc_info=True)
            with contextlib.suppress(OSError):
                partial.unlink()
