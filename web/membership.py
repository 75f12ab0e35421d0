"""Keeps each live-table socket authorised for its whole life (docs/activity.md, "Sessions").

Two watches per socket:

- **its session**: when ``Viewer.expires`` passes, the socket is closed with 4001 (the page
  signs in again and reconnects). The page renews the session over the socket before then,
  which moves ``Viewer.expires`` (web/live.py).
- **its activity instance**: for each instance with open sockets in this process, one task
  asks Discord who is in it every 20-25 s (``RECHECK_SECONDS``, less a random part so that
  instances opened together are not asked together): one call per instance, whatever its
  number of sockets. A socket whose user is no longer in the instance, or whose instance has
  ended or moved to another channel, is closed with 4003 (final: the page does not retry).

When Discord cannot be asked (unreachable, a 5xx, a 429, or the web edge's own limits saying
wait), the sockets stay open: an outage of Discord does not close every table. An answer is
trusted for one session length at most, though: a socket whose user Discord has not confirmed
for ``trust_seconds`` (LIVE_SESSION_MINUTES) is closed with 4001, and its hello then needs
Discord again. So a user removed while Discord cannot be asked keeps the table for at most one
session length after the last answer that listed them.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from web.discord_api import DiscordApi, DiscordRefused, DiscordUnreachable
from web.guard import Busy
from web.hub import Viewer

log = logging.getLogger(__name__)

RECHECK_SECONDS = 25.0  # the longest wait between two checks of an instance (at most 30 s)
SESSION_ENDED, NOT_IN_INSTANCE = 4001, 4003

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


@dataclass(eq=False)
class _Watched:
    """An instance's sockets in this process, each with when Discord last listed its user."""

    confirmed: dict[Viewer, float] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None


class Membership:
    """The sockets' session and instance watches; ``clock`` (unix seconds) and ``sleep`` are
    injected for tests."""

    def __init__(
        self,
        api: DiscordApi,
        *,
        trust_seconds: float,
        every: float = RECHECK_SECONDS,
        clock: Clock = time.time,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.api = api
        self.trust_seconds = trust_seconds
        self.every = every
        self._clock = clock
        self._sleep = sleep
        self._instances: dict[str, _Watched] = {}
        self._sessions: dict[Viewer, asyncio.Task[None]] = {}
        self._closing: set[asyncio.Task[bool]] = set()

    def watched(self) -> int:
        """Sockets watched now."""
        return len(self._sessions)

    def watch(self, viewer: Viewer) -> None:
        """Watch a socket whose hello has just been accepted (its user was in the instance)."""
        loop = asyncio.get_running_loop()
        self._sessions[viewer] = loop.create_task(self._session(viewer))
        watched = self._instances.get(viewer.instance)
        if watched is None:
            watched = self._instances[viewer.instance] = _Watched()
            watched.task = loop.create_task(self._recheck(viewer.instance, watched))
        watched.confirmed[viewer] = self._clock()

    def unwatch(self, viewer: Viewer) -> None:
        """The socket is closed (or closing): stop watching it."""
        session = self._sessions.pop(viewer, None)
        if session is not None and session is not asyncio.current_task():
            session.cancel()
        watched = self._instances.get(viewer.instance)
        if watched is None:
            return
        watched.confirmed.pop(viewer, None)
        if not watched.confirmed:
            del self._instances[viewer.instance]
            if watched.task is not None and watched.task is not asyncio.current_task():
                watched.task.cancel()

    async def close(self) -> None:
        """Stop every watch (the bot is stopping; the sockets are closed by their owner)."""
        tasks = [*self._sessions.values()]
        tasks += [w.task for w in self._instances.values() if w.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._sessions.clear()
        self._instances.clear()

    async def _session(self, viewer: Viewer) -> None:
        while (left := viewer.expires - self._clock()) > 0:
            await self._sleep(left)  # a renewal moves the expiry on: look again then
        log.info("the session of user %s ended: closing their socket", viewer.user_id)
        self._close(viewer, SESSION_ENDED, b"session expired")

    async def _recheck(self, instance_id: str, watched: _Watched) -> None:
        while self._instances.get(instance_id) is watched:
            await self._sleep(self.every * random.uniform(0.8, 1.0))
            if self._instances.get(instance_id) is not watched:
                return  # its last socket closed while this slept
            try:
                await self.check(instance_id)
            except Exception:  # the loop must outlive any one answer
                log.exception("could not re-check activity instance %r", instance_id)
                self._close_unconfirmed(instance_id)

    async def check(self, instance_id: str) -> None:
        """Ask Discord once who is in the instance; close the sockets that must go."""
        if instance_id not in self._instances:
            return
        self.api.forget(instance_id)  # a fresh answer, not one kept from a hello
        try:
            found = await self.api.instance(instance_id)
        except DiscordRefused as exc:
            log.info("activity instance %r is gone (%s): closing its sockets", instance_id, exc)
            for viewer in self._viewers(instance_id):
                self._close(viewer, NOT_IN_INSTANCE, b"the activity has ended")
            return
        except (DiscordUnreachable, Busy) as exc:  # Busy: the web edge's limits say wait
            log.warning("cannot re-check activity instance %r (kept open): %s", instance_id, exc)
            self._close_unconfirmed(instance_id)
            return
        now = self._clock()
        for viewer in self._viewers(instance_id):
            if viewer.user_id in found.users and viewer.channel_id == found.channel_id:
                self._instances[instance_id].confirmed[viewer] = now
            else:
                log.info("user %s left activity instance %r: closing", viewer.user_id, instance_id)
                self._close(viewer, NOT_IN_INSTANCE, b"no longer in the activity")

    def _viewers(self, instance_id: str) -> list[Viewer]:
        watched = self._instances.get(instance_id)
        return [] if watched is None else list(watched.confirmed)

    def _close_unconfirmed(self, instance_id: str) -> None:
        """Close the sockets whose user Discord has not listed for too long."""
        watched = self._instances.get(instance_id)
        if watched is None:
            return
        oldest = self._clock() - self.trust_seconds
        for viewer, confirmed in list(watched.confirmed.items()):
            if confirmed < oldest:
                log.warning("user %s unconfirmed in %r: closing", viewer.user_id, instance_id)
                self._close(viewer, SESSION_ENDED, b"membership could not be confirmed")

    def _close(self, viewer: Viewer, code: int, message: bytes) -> None:
        """Close the socket in a task of its own (a close waits for the client's answer), and
        stop watching it at once."""
        self.unwatch(viewer)
        if viewer.ws.closed:
            return
        task = asyncio.get_running_loop().create_task(viewer.ws.close(code=code, message=message))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)
