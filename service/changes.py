"""Who is told of game changes in this process: the database announces every write to a game
or its seats, whichever process made it (db/changes.py); this hands each announcement to every
listener here (the live table's viewers, web/). Started once, when the first listener needs it."""

from __future__ import annotations

import logging
from collections.abc import Callable

from db.store import Store

log = logging.getLogger(__name__)

Listener = Callable[[int, int], None]  # (game id, channel id); (0, 0): anything may have changed


class Changes:
    def __init__(self, store: Store) -> None:
        self._store = store
        self._listeners: list[Listener] = []
        self._watching = False

    async def listen(self, listener: Listener) -> None:
        """``listener`` is told of every change from now on, on the event loop."""
        self._listeners.append(listener)
        if not self._watching:
            self._watching = True
            await self._store.watch_changes(self._told)

    def _told(self, game_id: int, channel_id: int) -> None:
        for listener in self._listeners:
            try:
                listener(game_id, channel_id)
            except Exception:  # one listener's bug must not keep the others uninformed
                log.exception("a listener of game changes failed")
