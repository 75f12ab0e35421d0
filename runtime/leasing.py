"""This process's gateway shards, leased in PostgreSQL so that no two live processes run one.

On PostgreSQL every process that connects to the gateway holds a lease on its shards (an
unsharded bot: shard 0 of 1, which overlaps every shard); a worker (``bot.py worker``) runs no
shard and takes none. SQLite needs none: its store's OS lock already keeps a second process
off the file.

- **Taking**, at start, before the gateway (lifecycle.run): all of this process's shards in one
  transaction, or none. A live lease of another process in the way is watched until it either
  runs out (its holder is dead: this process takes over) or is renewed (its holder is alive:
  :class:`ShardHeld`, one line, exit 2). So a process started again at once after a SIGKILL
  takes over as soon as the dead one's lease ends (within ``LEASE_SECONDS``), and a second
  process started beside a live one is refused within one renewal.
- **Keeping**: renewed every ``LEASE_SECONDS / 3``; a failed renewal is tried again. When the
  lease is about to run out with no renewal through (the database lost: the process gives up
  ``LEASE_SECONDS / 6`` before the end), or is gone (it ran out and another process took it),
  the process stops (``on_lost``) instead of running a shard that another process may be
  running by now.
- **Releasing**, on a clean stop: the shards are free at once for the next start.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Callable, Sequence

import asyncpg

from aio.tasks import cancel_and_wait
from db.errors import StoreError
from db.leases import HeldShard
from db.postgres import PostgresStore
from db.store import Store
from runtime import sharding
from settings import Settings

log = logging.getLogger("leasing")

LEASE_SECONDS = 6.0  # a dead holder's shards are free this long after its last renewal
RENEWALS_PER_LEASE = 3  # renewed every LEASE_SECONDS / 3: two may fail before it runs out
WATCHES_PER_LEASE = 12  # a lease in the way is looked at again every LEASE_SECONDS / 12
# What a lease call raises when PostgreSQL cannot answer it now.
LEASE_ERRORS = (StoreError, asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError)


class ShardHeld(Exception):
    """A live process holds one of this process's shards (or one overlapping it); the message
    is the one line that says which and who."""


def holder_name() -> str:
    """Who holds a lease: the host and process id for the admin, and a random part so that
    a process started again with the same pid (in a container, always 1) is another holder."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def shards_text(count: int, shards: Sequence[int]) -> str:
    return f"shard{'s' if len(shards) > 1 else ''} {','.join(map(str, shards))} of {count}"


def refusal(held: HeldShard, count: int) -> str:
    """The line a refused start logs: which of its shards, which lease, whose."""
    mine = f"Shard {held.overlapping} of {count}"
    if held.shard_count == count:
        return (
            f"{mine} is held by a live process ({held.holder}): stop it first, or give "
            "this process other SHARD_IDS."
        )
    return (
        f"{mine} overlaps shard {held.shard_id} of {held.shard_count}, held by a live process "
        f"({held.holder}) of another SHARD_COUNT: stop every process of the old count first."
    )


class ShardLease:
    """The lease on ``shards`` of ``count`` for this process: :meth:`take`, :meth:`start`
    keeping it, :meth:`release`. If it cannot be kept, the reason is logged (one ERROR line),
    kept in ``lost``, and ``on_lost`` is called, once."""

    def __init__(
        self,
        store: PostgresStore,
        count: int,
        shards: Sequence[int],
        *,
        on_lost: Callable[[], None],
        ttl: float = LEASE_SECONDS,
        holder: str | None = None,
    ) -> None:
        self.store = store
        self.count = count
        self.shards = tuple(shards)
        self.on_lost = on_lost
        self.ttl = ttl
        self.holder = holder or holder_name()
        self.lost: str | None = None  # why it was lost, once it was
        self._renewed_at = 0.0  # loop time at which the last good take or renewal began
        self._task: asyncio.Task[None] | None = None

    @property
    def text(self) -> str:
        return shards_text(self.count, self.shards)

    async def take(self) -> None:
        """Take the shards, waiting while the lease in the way may be a dead process's.

        Raises ShardHeld when that lease is renewed (its holder is alive), or one of
        ``LEASE_ERRORS`` when PostgreSQL cannot answer.
        """
        loop = asyncio.get_running_loop()
        first = await self._take_once()
        if first is None:
            log.info("leased %s (%s)", self.text, self.holder)
            return
        seen = _identity(first)
        log.info(
            "%s is leased by %s for %.1f s more: waiting to see whether that process is alive",
            shards_text(first.shard_count, (first.shard_id,)),
            first.holder,
            first.seconds_left,
        )
        give_up = loop.time() + first.seconds_left + self.ttl
        while True:
            await asyncio.sleep(self.ttl / WATCHES_PER_LEASE)
            held = await self._take_once()
            if held is None:
                log.info("leased %s (%s): %s's lease ran out", self.text, self.holder, first.holder)
                return
            if _identity(held) != seen or loop.time() > give_up:
                raise ShardHeld(refusal(held, self.count))

    async def _take_once(self) -> HeldShard | None:
        started = asyncio.get_running_loop().time()
        held = await self.store.take_shard_leases(self.count, self.shards, self.holder, self.ttl)
        if held is None:
            self._renewed_at = started
        return held

    def start(self) -> None:
        """Keep the lease taken: renew it in the background until :meth:`release`."""
        self._task = asyncio.create_task(self._keep(), name="shard-lease")

    async def _keep(self) -> None:
        try:
            why = await self._renew_until_lost()
        except Exception:  # the keeper's outer boundary: a lease nobody renews must stop the bot
            log.exception("the shard lease keeper failed")
            why = f"The lease on {self.text} stopped being renewed (an unexpected error)."
        why += " Stopping, so that no two processes run one shard."
        self.lost = why
        log.error("%s", why)
        self.on_lost()

    async def _renew_until_lost(self) -> str:
        """Renew every ttl/3 while it works; why it no longer can. Without a good renewal the
        keeper gives up ttl/6 before the lease runs out, so that the bot has closed its
        gateway connection, or nearly, by the time another process may take the shards."""
        loop = asyncio.get_running_loop()
        interval = self.ttl / RENEWALS_PER_LEASE
        margin = interval / 2
        failing: BaseException | None = None
        wait = interval
        while True:
            await asyncio.sleep(wait)
            started = loop.time()
            left = self._renewed_at + self.ttl - margin - started
            if left <= 0:
                return (
                    f"Could not renew the lease on {self.text} for {self.ttl - margin:.1f} s "
                    f"({_reason(failing)})."
                )
            try:
                async with asyncio.timeout(left):
                    renewed = await self.store.renew_shard_leases(self.holder, self.ttl)
            except LEASE_ERRORS as exc:
                if failing is None:
                    log.warning(
                        "cannot renew the lease on %s (%s): trying again", self.text, _reason(exc)
                    )
                failing = exc
                wait = min(interval, max(0.0, self._renewed_at + self.ttl - margin - loop.time()))
                continue
            if renewed < len(self.shards):
                return (
                    f"The lease on {self.text} is gone: it ran out, and another process may "
                    "have taken it."
                )
            if failing is not None:
                log.info("renewed the lease on %s again", self.text)
                failing = None
            self._renewed_at = started
            wait = interval

    async def release(self) -> None:
        """Stop renewing and give the shards up (a failure only logged: the lease runs out)."""
        if self._task is not None:
            await cancel_and_wait(self._task)
            self._task = None
        try:
            async with asyncio.timeout(self.ttl / RENEWALS_PER_LEASE):
                await self.store.release_shard_leases(self.holder)
        except LEASE_ERRORS as exc:
            log.warning(
                "could not release the lease on %s (%s): it runs out within %.0f s",
                self.text,
                exc,
                self.ttl,
            )


def _reason(exc: BaseException | None) -> str:
    text = str(exc).strip() if exc is not None else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _identity(held: HeldShard) -> tuple[int, int, str, object]:
    """A lease as seen once: a renewal changes its expiry, so a later look that differs means
    its holder is alive (or another live process holds it now)."""
    return held.shard_count, held.shard_id, held.holder, held.expires_at


def shard_lease(settings: Settings, store: Store, on_lost: Callable[[], None]) -> ShardLease | None:
    """The lease this process needs (not taken yet), or None: SQLite, or a worker."""
    shards = sharding.leased_shards(settings)
    if shards is None or not isinstance(store, PostgresStore):
        return None
    count, ids = shards
    return ShardLease(store, count, ids, on_lost=on_lost)
