"""The one gate every call of the web edge (the live table's sign-in and sockets) to Discord
passes, so that nothing a stranger sends can get the bot's IP banned or spend its token's
budget (docs/activity.md, "Calls to Discord").

Three kinds of limit, checked in this order:

- A client's own limits (per address, per user; :class:`Per`), checked by the endpoints with
  :meth:`Guard.check` before they ask for anything. Past one, the client is answered locally
  (429 with ``Retry-After``, or close code 1013), and nothing reaches Discord.
- The web edge's ceilings, one per door (:class:`Door`: the route and whose budget it spends),
  taken by :meth:`Guard.admit` before each call. The bot token's door gets a small, fixed share
  of the token's 50 requests per second; the game traffic's pacer (delivery/pacing.py) keeps
  40 of them, so the two together stay under Discord's limit.
- What Discord says (:meth:`Guard.answered`): ``X-RateLimit-Remaining: 0`` holds the door until
  ``X-RateLimit-Reset-After``, a 429 until its ``Retry-After``; and a breaker that stops every
  door while the web edge's invalid answers (401, 403, 429 but a ``shared`` one: what Discord
  counts towards its ban of 10,000 in 10 minutes) in the last 10 minutes reach
  ``invalid_ceiling``. A short wait is waited; a longer one is answered locally (503).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from web.limits import Bucket, Buckets, Rate, Sockets

log = logging.getLogger(__name__)

# (bucket key, limit, period in seconds) -> 0 when a slot was taken, else seconds to wait:
# the token's budget shared by every process on one PostgreSQL database (db/budget.py).
Shared = Callable[[str, int, float], Awaitable[float]]

DEFAULT_HOLD = 60.0  # a 429 without Retry-After (Cloudflare's ban answer has none)
LONGEST_HOLD = 3600.0
LOG_EVERY = 10.0  # seconds between two logged refusals of one address (the rest are counted)
LOGGED_KEYS = 10_000
SHARED_KEY = "web-instances"
WARN_EVERY = 60.0  # seconds between two warnings that the shared budget did not answer


class Door(StrEnum):
    """A route of Discord the web edge calls, and the budget it spends."""

    TOKEN = "POST /oauth2/token"  # no Authorization: our address's budget
    USER = "GET /users/@me"  # the signed-in user's bearer token
    INSTANCE = "GET activity-instances"  # the bot token, shared with the games
    MEMBER = "GET guild member"  # the bot token: a seated player's nickname and avatar
    ATTACHMENT = "POST application attachment"  # the bot token: a finished game's picture


# The doors that spend the bot token's budget (shared with the other processes, when shared).
BOT_TOKEN = frozenset({Door.INSTANCE, Door.MEMBER, Door.ATTACHMENT})


# A door whose Discord bucket is each caller's own: every call of /users/@me is made with
# another user's bearer token, so one token's empty bucket says nothing of the next call.
OWN_BUCKETS = frozenset({Door.USER})


class Per(StrEnum):
    """A client's own limits."""

    SIGN_IN_ADDRESS = "sign-ins per address"
    HELLO_ADDRESS = "hellos per address"
    HELLO_USER = "hellos per user"
    LOOKUP_USER = "instance look-ups per user"


@dataclass(frozen=True, slots=True)
class Limits:
    """Every number of the guard (docs/activity.md says why each is what it is)."""

    clients: Mapping[Per, Rate] = field(
        default_factory=lambda: {
            Per.SIGN_IN_ADDRESS: Rate(20, 2.0),
            Per.HELLO_ADDRESS: Rate(60, 0.2),
            Per.HELLO_USER: Rate(10, 3.0),
            Per.LOOKUP_USER: Rate(5, 10.0),
        }
    )
    ceilings: Mapping[Door, Rate] = field(
        default_factory=lambda: {
            Door.TOKEN: Rate(20, 0.2),
            Door.USER: Rate(20, 0.2),
            Door.INSTANCE: Rate(5, 0.2),
            Door.MEMBER: Rate(10, 0.5),
            Door.ATTACHMENT: Rate(3, 2.0),
        }
    )
    sockets_per_address: int = 300
    sockets_per_user: int = 6
    invalid_ceiling: int = 100  # invalid answers in `invalid_window` that open the breaker
    invalid_window: float = 600.0
    longest_wait: float = 1.0  # a wait for Discord this short is waited, a longer one refused
    most_waiting: int = 20  # calls waiting at one door; past that, refused at once


class Busy(Exception):
    """Nothing was asked of Discord: try again in ``retry_after`` seconds. ``yours``: the
    client's own limit (429); else the web edge's, or Discord asked us to wait (503)."""

    def __init__(self, reason: str, retry_after: float, *, yours: bool) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after
        self.yours = yours

    @property
    def seconds(self) -> int:
        """``Retry-After`` in whole seconds (at least 1)."""
        return max(1, math.ceil(self.retry_after))


class Guard:
    """The web edge's limits on one clock (``clock`` and ``sleep`` injected in tests)."""

    def __init__(
        self,
        limits: Limits | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        shared: Shared | None = None,
    ) -> None:
        self.limits = limits = limits or Limits()
        self._clock = clock
        self._sleep = sleep
        self._shared = shared
        self._clients = {per: Buckets(rate) for per, rate in limits.clients.items()}
        now = clock()
        self._ceilings = {door: Bucket(rate, now) for door, rate in limits.ceilings.items()}
        self._held: dict[Door, float] = {}  # door -> until when Discord asked us to wait
        self._invalid: deque[float] = deque()
        self._waiting: Counter[Door] = Counter()
        self._logged: dict[str, tuple[float, int]] = {}
        self._warned = -math.inf
        self.sockets = Sockets(limits.sockets_per_address, limits.sockets_per_user)
        self.counts: Counter[str] = Counter()  # calls, refusals and invalid answers, by kind

    # -- a client's own limits -------------------------------------------------------------

    def check(self, per: Per, key: str) -> None:
        """Count one request of ``key`` (an address or a user) against ``per``; Busy past it."""
        wait = self._clients[per].take(key, self._clock())
        if wait > 0:
            self.counts[f"refused: {per}"] += 1
            raise Busy(f"too many {per}", wait, yours=True)

    # -- the web edge's ceilings and Discord's word ----------------------------------------

    def _wait(self, door: Door, now: float) -> tuple[float, str]:
        """How long ``door`` is shut, and why (0: open now)."""
        while self._invalid and self._invalid[0] <= now - self.limits.invalid_window:
            self._invalid.popleft()
        if len(self._invalid) >= self.limits.invalid_ceiling:
            return self._invalid[0] + self.limits.invalid_window - now, "too many invalid answers"
        held = self._held.get(door, 0.0) - now
        if held > 0:
            return held, "Discord asked us to wait"
        ceiling = self._ceilings[door].wait(now)
        if ceiling > 0:
            return ceiling, "the web edge's ceiling"
        return 0.0, ""

    async def admit(self, door: Door) -> None:
        """Wait for ``door``'s turn to call Discord (a short wait only); Busy if it is longer."""
        waited = 0.0
        while True:
            now = self._clock()
            wait, why = self._wait(door, now)
            if wait <= 0:
                self._ceilings[door].take(now)
                wait = await self._take_shared() if door in BOT_TOKEN else 0.0
                if wait <= 0:
                    self.counts[f"called: {door}"] += 1
                    return
                why = "the shared budget"
            if waited + wait > self.limits.longest_wait or (
                self._waiting[door] >= self.limits.most_waiting
            ):
                self.counts[f"busy: {door}"] += 1
                raise Busy(f"{door}: {why}", wait, yours=False)
            self._waiting[door] += 1
            try:
                await self._sleep(wait)
            finally:
                self._waiting[door] -= 1
            waited += wait

    async def _take_shared(self) -> float:
        """A slot of the web edge's share of the token across processes: 0 when taken (or
        without a shared budget), else the seconds until one is free."""
        if self._shared is None:
            return 0.0
        rate = self.limits.ceilings[Door.INSTANCE]
        try:
            return await self._shared(SHARED_KEY, rate.burst, rate.burst * rate.every)
        except Exception as exc:  # noqa: BLE001 - an injected port: its failure stops no call
            now = self._clock()
            if now - self._warned > WARN_EVERY:
                self._warned = now
                log.warning("the shared REST budget did not answer (%s); the ceiling alone", exc)
            return 0.0

    def answered(self, door: Door, status: int, headers: Mapping[str, str]) -> float | None:
        """Read Discord's answer to a call through ``door``; for a 429, the seconds to wait."""
        now = self._clock()
        scope = headers.get("X-RateLimit-Scope", "")
        if status in (401, 403) or (status == 429 and scope != "shared"):
            self._invalid.append(now)
            self.counts["invalid answers"] += 1
            if len(self._invalid) == self.limits.invalid_ceiling:
                log.error(
                    "%s invalid answers from Discord to the web edge in %.0f s: it stops "
                    "calling Discord until they are older",
                    len(self._invalid),
                    self.limits.invalid_window,
                )
        if headers.get("X-RateLimit-Remaining") == "0" and door not in OWN_BUCKETS:
            self._hold(door, now, _seconds(headers.get("X-RateLimit-Reset-After")) or 0.0)
        if status != 429:
            return None
        retry = _seconds(headers.get("Retry-After"))
        retry = DEFAULT_HOLD if retry is None else retry
        self._hold(door, now, retry)
        self.counts[f"429: {door}"] += 1
        log.warning("Discord answered %s with 429: the web edge waits %.1f s", door, retry)
        return retry

    def _hold(self, door: Door, now: float, seconds: float) -> None:
        until = now + min(max(seconds, 0.0), LONGEST_HOLD)
        if until > self._held.get(door, 0.0):
            self._held[door] = until

    # -- the log ---------------------------------------------------------------------------

    def refused(self, address: str, what: str, reason: str) -> None:
        """Log a refusal with the client's address: the first from an address in
        ``LOG_EVERY`` seconds is logged (with how many followed the last one), the others
        counted, so that a flood cannot flood the log."""
        now = self._clock()
        last, skipped = self._logged.get(address, (-math.inf, 0))
        if now - last < LOG_EVERY:
            self._logged[address] = (last, skipped + 1)
            return
        if len(self._logged) >= LOGGED_KEYS:
            self._logged.clear()
        self._logged[address] = (now, 0)
        more = f" ({skipped} more refusals from there since the last line)" if skipped else ""
        log.info("refused %s from %s: %s%s", what, address, reason, more)


def _seconds(text: str | None) -> float | None:
    """A header's number of seconds, if it is one (finite, not negative)."""
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None
