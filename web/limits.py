"""Counting for the web edge's limits (web/guard.py): token buckets, alone or one per key
(a client address, a user), and how many sockets each key holds open.

Nothing here reads a clock: the caller passes the time, so the guard's clock (injected in
tests) is the only one.
"""

from __future__ import annotations

import ipaddress
from collections import Counter
from dataclasses import dataclass

MAX_KEYS = 10_000  # buckets kept per limit; full (untouched) ones are forgotten first


@dataclass(frozen=True, slots=True)
class Rate:
    """``burst`` requests at once, then one every ``every`` seconds."""

    burst: int
    every: float

    @property
    def per_second(self) -> float:
        return 1.0 / self.every


class Bucket:
    """A token bucket: starts full (``burst`` tokens), refills one token per ``every`` s."""

    __slots__ = ("at", "rate", "tokens")

    def __init__(self, rate: Rate, now: float) -> None:
        self.rate = rate
        self.tokens = float(rate.burst)
        self.at = now

    def _fill(self, now: float) -> None:
        if now > self.at:
            self.tokens = min(
                float(self.rate.burst), self.tokens + (now - self.at) / self.rate.every
            )
            self.at = now

    def wait(self, now: float) -> float:
        """Seconds until a token is free (0: one is free now)."""
        self._fill(now)
        return 0.0 if self.tokens >= 1.0 else (1.0 - self.tokens) * self.rate.every

    def take(self, now: float) -> float:
        """Take a token: 0 when taken, else the seconds until one is free (none taken)."""
        wait = self.wait(now)
        if wait == 0.0:
            self.tokens -= 1.0
        return wait

    def full(self, now: float) -> bool:
        self._fill(now)
        return self.tokens >= self.rate.burst


class Buckets:
    """One bucket per key, at most ``max_keys`` of them."""

    def __init__(self, rate: Rate, max_keys: int = MAX_KEYS) -> None:
        self.rate = rate
        self.max_keys = max_keys
        self._buckets: dict[str, Bucket] = {}

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, key: str, now: float) -> float:
        """Take a token of ``key``'s bucket: 0 when taken, else the seconds to wait."""
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.max_keys:
                self._prune(now)
            bucket = self._buckets[key] = Bucket(self.rate, now)
        return bucket.take(now)

    def _prune(self, now: float) -> None:
        """Forget the full buckets (a new one would be the same); if every bucket is in use,
        the oldest half goes: past that many keys the web edge's global ceilings still hold."""
        for key, bucket in list(self._buckets.items()):
            if bucket.full(now):
                del self._buckets[key]
        if len(self._buckets) >= self.max_keys:
            for key in list(self._buckets)[: self.max_keys // 2]:
                del self._buckets[key]


class Occupancy:
    """How many sockets each key holds open, at most ``cap`` each."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._held: Counter[str] = Counter()

    def held(self, key: str) -> int:
        return self._held[key]

    def enter(self, key: str) -> bool:
        """Count one more for ``key``; False (nothing counted) when it holds ``cap`` already."""
        if self._held[key] >= self.cap:
            return False
        self._held[key] += 1
        return True

    def leave(self, key: str) -> None:
        self._held[key] -= 1
        if self._held[key] <= 0:
            del self._held[key]


def address_key(address: str) -> str:
    """The key an address's limits are counted under: an IPv6 address by its /64 (one
    household or host gets a whole /64 and could otherwise use a fresh address per request)."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 6:
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


class Sockets:
    """Open sockets per address (from the upgrade on) and per user (from the hello on)."""

    def __init__(self, per_address: int, per_user: int) -> None:
        self.addresses = Occupancy(per_address)
        self.users = Occupancy(per_user)

    def open(self, address: str) -> Ticket | None:
        """A new socket from ``address`` (an :func:`address_key`): its ticket, or None when
        the address holds as many as it may."""
        if not self.addresses.enter(address):
            return None
        return Ticket(self, address)


class Ticket:
    """One open socket's place in the counts; :meth:`close` gives it back."""

    def __init__(self, sockets: Sockets, address: str) -> None:
        self._sockets = sockets
        self._address: str | None = address
        self._user: str | None = None

    def seat(self, user_id: int) -> bool:
        """Count the socket for its user too; False when the user holds as many as they may."""
        if self._user is not None:
            return True
        if not self._sockets.users.enter(str(user_id)):
            return False
        self._user = str(user_id)
        return True

    def close(self) -> None:
        if self._user is not None:
            self._sockets.users.leave(self._user)
            self._user = None
        if self._address is not None:
            self._sockets.addresses.leave(self._address)
            self._address = None
