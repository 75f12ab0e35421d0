"""Discord's REST rate limits as the fake enforces them, and the counters tests read.

Model (Discord's "Rate Limits" page):

- Per-route buckets. A bucket is a rule (``BucketRule``: the routes sharing it, ``limit`` requests
  per ``per`` seconds) times the route's top-level resource: the channel (``channel_id``), else
  the guild, else the webhook or interaction (id + token); routes without one share a single
  bucket per bot. Each window opens with the first request and resets ``per`` seconds later,
  which is what discord.py's ``Ratelimit`` assumes from the headers.
- One global limit per caller: ``global_limit`` requests per ``global_per`` seconds over
  every route except interaction callbacks and interaction webhooks (followups and edits).
  The caller is who the request authenticates as (the bot token, a user's bearer token), or,
  without an Authorization header, the client's address (``POST /oauth2/token``); per-route
  buckets are kept per caller too.
- Refused requests get 429 with ``{"message", "retry_after", "global", "code": 0}`` and the
  headers ``Retry-After``, ``X-RateLimit-*``, ``X-RateLimit-Scope`` (``user`` or ``global``) and
  ``X-RateLimit-Global`` on global ones. Every answer on a limited route carries
  ``X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket``.
- Invalid requests (401, 403, 429) are counted; ``invalid_limit`` of them within
  ``invalid_per`` seconds gets the client "banned by Cloudflare" for ``ban_seconds``: every
  request then answers a plain-text 429 without ``Via``.

The clock is injectable (``clock``, default ``time.monotonic``, the clock asyncio's loop uses)
so a test of the limiter can run on a manual clock.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

JSON = dict[str, Any]
Clock = Callable[[], float]
Source = Literal["bucket", "global", "injected", "ban"]

MESSAGE_CREATE = "POST /channels/{channel_id}/messages"
MESSAGE_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
MESSAGE_DELETE = "DELETE /channels/{channel_id}/messages/{message_id}"
DM_OPEN = "POST /users/@me/channels"
INTERACTION_CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"
WEBHOOK = "/webhooks/{application_id}/{interaction_token}"
WEBHOOK_KINDS = (
    f"POST {WEBHOOK}",
    f"GET {WEBHOOK}/messages/{{message}}",
    f"PATCH {WEBHOOK}/messages/{{message}}",
    f"DELETE {WEBHOOK}/messages/{{message}}",
)
MAX_WINDOWS = 10_000
BOT = "bot"  # the caller of requests with the bot's token
REACTIONS = "/channels/{channel_id}/messages/{message_id}/reactions"
REACTION_KINDS = (
    f"PUT {REACTIONS}/{{emoji}}/{{reaction_user}}",
    f"DELETE {REACTIONS}/{{emoji}}/{{reaction_user}}",
)


@dataclass(frozen=True)
class BucketRule:
    """Routes (``"METHOD /template"``) sharing one bucket of ``limit`` requests per ``per`` s."""

    name: str
    kinds: tuple[str, ...]
    limit: int
    per: float

    @property
    def hash(self) -> str:
        """What ``X-RateLimit-Bucket`` says: stable, opaque, without the major parameter."""
        return hashlib.sha1(self.name.encode()).hexdigest()[:32]


def default_buckets() -> list[BucketRule]:
    """Discord's documented limits where there are some; sensible ones elsewhere."""
    return [
        BucketRule("message-create", (MESSAGE_CREATE,), 5, 5.0),
        BucketRule("message-edit", (MESSAGE_EDIT,), 5, 5.0),
        BucketRule("message-delete", (MESSAGE_DELETE,), 5, 5.0),
        BucketRule("dm-open", (DM_OPEN,), 10, 10.0),
        BucketRule("reactions", REACTION_KINDS, 1, 0.25),
        BucketRule("interaction-webhook", WEBHOOK_KINDS, 5, 2.0),
    ]


@dataclass
class RateLimitSettings:
    """What the limiter enforces; change it with ``RateLimiter.configure``."""

    enabled: bool = True
    global_limit: int = 50
    global_per: float = 1.0
    buckets: list[BucketRule] = field(default_factory=default_buckets)
    default_limit: int = 50
    default_per: float = 1.0
    invalid_limit: int = 10_000
    invalid_per: float = 600.0
    ban_seconds: float = 3600.0

    def rule_for(self, kind: str) -> BucketRule:
        for rule in self.buckets:
            if kind in rule.kinds:
                return rule
        return BucketRule(kind, (kind,), self.default_limit, self.default_per)


def exempt_from_global(kind: str) -> bool:
    """Interaction callbacks and interaction webhooks do not count against the global limit."""
    return kind == INTERACTION_CALLBACK or kind in WEBHOOK_KINDS


def major_parameter(params: dict[str, str]) -> str:
    """The top-level resource of a request: channel, else guild, else webhook / interaction."""
    for name in ("channel_id", "guild_id"):
        if name in params:
            return params[name]
    for owner in ("application_id", "interaction_id"):
        if owner in params and "interaction_token" in params:
            return f"{params[owner]}+{params['interaction_token']}"
    return ""


def _ms_up(seconds: float) -> float:
    """Discord's millisecond precision, rounded up so that waiting that long is enough; a
    float's last digits (a full window of 5 s reads 5.000000000001) do not round it up."""
    return max(0.001, math.ceil(round(seconds * 1000, 6)) / 1000)


@dataclass
class Window:
    """A fixed window: opens with its first request, refuses past ``limit`` until it ends."""

    limit: int
    per: float
    start: float = -math.inf
    used: int = 0

    def _roll(self, now: float) -> None:
        if now >= self.start + self.per:
            self.start, self.used = now, 0

    def take(self, now: float) -> float | None:
        """Count one request; None if allowed, else the seconds to wait."""
        self._roll(now)
        if self.used >= self.limit:
            return self.start + self.per - now
        self.used += 1
        return None

    def remaining(self, now: float) -> int:
        self._roll(now)
        return max(0, self.limit - self.used)

    def reset_after(self, now: float) -> float:
        self._roll(now)
        return self.start + self.per - now

    def exhausted_until(self, now: float) -> float | None:
        """When this window reopens, if it is full now; else None."""
        if self.used >= self.limit and now < self.start + self.per:
            return self.start + self.per
        return None


@dataclass(frozen=True)
class RateLimitHit:
    """One 429 the fake sent, and why (``source``)."""

    source: Source
    retry_after: float
    bucket: str = ""
    at: float = 0.0
    kind: str = ""
    path: str = ""
    is_global: bool = False

    @property
    def scope(self) -> str:
        return "global" if self.is_global else "user"

    def body(self) -> JSON:
        return {
            "message": "You are being rate limited.",
            "retry_after": _ms_up(self.retry_after),
            "global": self.is_global,
            "code": 0,
        }

    def headers(self) -> dict[str, str]:
        headers = {
            "Retry-After": str(math.ceil(self.retry_after)),
            "X-RateLimit-Scope": self.scope,
        }
        if self.is_global:
            headers["X-RateLimit-Global"] = "true"
        return headers


@dataclass(frozen=True)
class Decision:
    """The limiter's answer for one request: the bucket's state after it, and a refusal."""

    refused: RateLimitHit | None = None
    rule: BucketRule | None = None
    remaining: int = 0
    reset_after: float = 0.0

    def headers(self) -> dict[str, str]:
        if self.rule is None:
            return {}
        reset_after = _ms_up(self.reset_after)
        headers = {
            "X-RateLimit-Limit": str(self.rule.limit),
            "X-RateLimit-Remaining": str(self.remaining),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": self.rule.hash,
        }
        if self.refused is not None:
            headers.update(self.refused.headers())
        return headers


@dataclass
class RestStats:
    """What the bot did to the REST API: calls per kind, every 429, invalid requests."""

    calls: Counter[str] = field(default_factory=Counter)
    ok_calls: Counter[str] = field(default_factory=Counter)
    hits: list[RateLimitHit] = field(default_factory=list)
    invalid_total: int = 0
    invalid_times: deque[float] = field(default_factory=deque)

    def _count(self, source: Source) -> int:
        return sum(1 for hit in self.hits if hit.source == source)

    @property
    def total_429(self) -> int:
        """Every 429 sent: bucket, global, injected and ban."""
        return len(self.hits)

    @property
    def bucket_429(self) -> int:
        return self._count("bucket")

    @property
    def global_429(self) -> int:
        return self._count("global")

    @property
    def injected_429(self) -> int:
        return self._count("injected")

    @property
    def ban_429(self) -> int:
        return self._count("ban")

    @property
    def unplanned_429(self) -> int:
        """429s a test did not inject: what a well-behaved bot must never get."""
        return self.total_429 - self.injected_429

    def by_route_429(self, *, include_injected: bool = False) -> Counter[str]:
        """429s per kind (``"PATCH /channels/{channel_id}/messages/{message_id}"``)."""
        return Counter(h.kind for h in self.hits if include_injected or h.source != "injected")

    def calls_total(self, *, exclude: tuple[str, ...] = ()) -> int:
        return sum(n for kind, n in self.calls.items() if kind not in exclude)

    def calls_per(self, moves: int) -> dict[str, float]:
        """Calls per move by kind, most frequent first (for benchmarks)."""
        return {kind: n / max(1, moves) for kind, n in self.calls.most_common()}

    def summary(self) -> JSON:
        return {
            "calls": dict(self.calls),
            "429": self.total_429,
            "429_global": self.global_429,
            "429_bucket": self.bucket_429,
            "429_injected": self.injected_429,
            "429_by_route": dict(self.by_route_429()),
            "invalid": self.invalid_total,
        }

    def reset(self) -> None:
        """Forget everything counted so far (e.g. between benchmark phases)."""
        self.calls.clear()
        self.ok_calls.clear()
        self.hits.clear()
        self.invalid_total = 0
        self.invalid_times.clear()


class RateLimiter:
    """Buckets, the global window, invalid-request counting and the ban, on one clock."""

    def __init__(self, settings: RateLimitSettings | None = None, clock: Clock = time.monotonic):
        self.settings = settings or RateLimitSettings()
        self.clock = clock
        self.stats = RestStats()
        self._windows: dict[tuple[str, str, str], Window] = {}
        self._globals: dict[str, Window] = {}  # caller -> its global window
        self._banned_until = -math.inf

    def configure(self, **changes: Any) -> RateLimitSettings:
        """Replace fields of the settings (``enabled``, ``global_limit``...); windows reset."""
        self.settings = replace(self.settings, **changes)
        self.reset_windows()
        return self.settings

    def set_bucket(self, name: str, *, limit: int, per: float) -> None:
        """Change one bucket rule's limit (``name`` as in ``default_buckets``)."""
        rules = [
            replace(r, limit=limit, per=per) if r.name == name else r for r in self.settings.buckets
        ]
        if rules == self.settings.buckets and all(r.name != name for r in rules):
            raise KeyError(f"no bucket rule {name!r}: {[r.name for r in rules]}")
        self.configure(buckets=rules)

    def disable(self) -> None:
        self.configure(enabled=False)

    def scale_time(self, scale: float) -> None:
        """Every window ``scale`` times as long (0.25: Discord's limits, four times as fast).

        The counts stay Discord's; tests that play whole games run in compressed time, and the
        bot under test is told the same scale (``RATE_LIMIT_SCALE``), so its pacing is checked
        against limits of the same shape.
        """
        defaults = RateLimitSettings()
        self.configure(
            global_per=defaults.global_per * scale,
            default_per=defaults.default_per * scale,
            buckets=[replace(rule, per=rule.per * scale) for rule in defaults.buckets],
        )

    def reset_windows(self) -> None:
        self._windows.clear()
        self._globals.clear()
        self._banned_until = -math.inf

    def _global(self, caller: str) -> Window:
        window = self._globals.get(caller)
        if window is None:
            if len(self._globals) >= MAX_WINDOWS:
                self._globals.clear()
            window = Window(self.settings.global_limit, self.settings.global_per)
            self._globals[caller] = window
        return window

    def check(self, kind: str, params: dict[str, str], caller: str = BOT) -> Decision:
        """Count a request of ``caller`` (``BOT``, ``bearer:<token>``, ``ip:<address>``) to
        ``kind`` against its bucket and the caller's global limit."""
        settings = self.settings
        if not settings.enabled:
            return Decision()
        now = self.clock()
        rule = settings.rule_for(kind)
        key = (rule.name, major_parameter(params), caller)
        window = self._windows.get(key)
        if window is None:
            if len(self._windows) >= MAX_WINDOWS:
                self._prune(now)
            window = self._windows[key] = Window(rule.limit, rule.per)
        if not exempt_from_global(kind):
            wait = self._global(caller).take(now)
            if wait is not None:
                refused = RateLimitHit("global", wait, rule.hash, now, is_global=True)
                return Decision(refused, rule, window.remaining(now), window.reset_after(now))
        wait = window.take(now)
        hit = None if wait is None else RateLimitHit("bucket", wait, rule.hash, now)
        return Decision(hit, rule, window.remaining(now), window.reset_after(now))

    def _prune(self, now: float) -> None:
        """Forget windows that have reopened (a long benchmark touches many channels)."""
        for key, window in list(self._windows.items()):
            if now >= window.start + window.per:
                del self._windows[key]

    def busy_for(self) -> float:
        """Seconds until every full window (bucket or global) has reopened; 0 if none is full.

        A client that read the headers is waiting for them, so it may still have requests
        queued: ``driver.quiet`` waits this long before calling the bot idle.
        """
        now = self.clock()
        windows = (*self._globals.values(), *self._windows.values())
        ends = [w.exhausted_until(now) for w in windows]
        return max((end - now for end in ends if end is not None), default=0.0)

    def record(self, kind: str, status: int) -> None:
        """Count an answered request; 401/403/429 are invalid requests (they may ban)."""
        stats, settings = self.stats, self.settings
        if kind:
            stats.calls[kind] += 1
            if 200 <= status < 300:
                stats.ok_calls[kind] += 1
        if status not in (401, 403, 429):
            return
        now = self.clock()
        stats.invalid_total += 1
        stats.invalid_times.append(now)
        while stats.invalid_times and stats.invalid_times[0] <= now - settings.invalid_per:
            stats.invalid_times.popleft()
        if settings.enabled and len(stats.invalid_times) >= settings.invalid_limit:
            self._banned_until = now + settings.ban_seconds

    def count_429(self, hit: RateLimitHit, kind: str, path: str) -> None:
        self.stats.hits.append(replace(hit, kind=kind, path=path))

    def banned(self) -> bool:
        return self.clock() < self._banned_until

    def count_ban(self, kind: str, path: str) -> None:
        self.count_429(RateLimitHit("ban", self._banned_until - self.clock()), kind, path)
