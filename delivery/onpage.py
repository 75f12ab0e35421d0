"""Who has a channel's live table open, as delivery asks before drawing a DM hand.

A person on the page sees their hand there; their DM is left alone meanwhile (one of Discord's
writes saved on every move) and brought up to date when their last page closes
(:meth:`delivery.publisher.Publisher.page_closed`). The answer comes from the store (any
process's open pages, db/presence.py), kept per channel until the database announces that a
page of the channel opened or closed, or for ``KEPT_SECONDS`` at most (a process that stopped
without a word leaves rows that run out on their own).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field

from service.changes import Changes
from service.showing import Showing

KEPT_SECONDS = 30.0
MAX_CHANNELS = 10_000


@dataclass(eq=False)
class OnPage:
    showing: Showing
    changes: Changes
    _: KW_ONLY
    clock: Callable[[], float] = time.monotonic
    wall: Callable[[], float] = time.time
    # channel -> (when read, who had its page open); channel -> announcements heard
    _known: dict[int, tuple[float, frozenset[int]]] = field(default_factory=dict, init=False)
    _generation: dict[int, int] = field(default_factory=dict, init=False)
    _listening: bool = field(default=False, init=False)

    async def has(self, channel_id: int, user_id: int) -> bool:
        """Whether ``user_id`` has the channel's live table open."""
        if not self._listening:
            self._listening = True
            await self.changes.listen(self._changed)
        now = self.clock()
        known = self._known.get(channel_id)
        if known is None or now - known[0] > KEPT_SECONDS:
            generation = self._generation.get(channel_id, 0)
            people = frozenset(await self.showing.on_page(channel_id, self.wall()))
            if self._generation.get(channel_id, 0) == generation:  # nothing heard meanwhile
                if len(self._known) >= MAX_CHANNELS:
                    self._known.clear()
                known = self._known[channel_id] = (now, people)
            else:
                known = (now, people)
        return user_id in known[1]

    def _changed(self, game_id: int, channel_id: int) -> None:
        if channel_id == 0:  # anything may have changed
            self._known.clear()
            for channel in self._generation:
                self._generation[channel] += 1
        elif game_id == 0:  # a page of the channel opened or closed
            self._known.pop(channel_id, None)
            self._generation[channel_id] = self._generation.get(channel_id, 0) + 1
            if len(self._generation) > MAX_CHANNELS:
                self._generation.clear()
