"""Fault injection: make the fake answer chosen requests with a Discord error.

A test picks requests by method and route template (shell-style patterns allowed, e.g.
``"/channels/{channel_id}/messages*"``), optionally only for one channel (webhook and
interaction routes count as the channel of their interaction) or one message, and only the next
``times`` matching requests; the fake answers them with the error's status and JSON body instead
of running the route. Faults are checked after the rate limits, so an injected error still
uses a slot of its bucket, as an error answered by Discord does.

::

    fake.faults.add("POST", "/channels/{channel_id}/messages", CANNOT_DM, channel_id=dm, times=1)
    fake.faults.add("PATCH", "/channels/{channel_id}/messages/{message_id}", EDIT_LIMIT)
    fake.faults.add("*", "*", UNAVAILABLE, times=3)
    fake.faults.add("PATCH", "/channels/*", UNAVAILABLE, when=lambda: game_over())  # from then
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any

from .ratelimit import RateLimitHit

JSON = dict[str, Any]


@dataclass(frozen=True)
class DiscordError:
    """An error answer: HTTP status, Discord's JSON error code and message."""

    status: int
    code: int
    message: str

    def body(self) -> JSON:
        return {"message": self.message, "code": self.code}


CANNOT_DM = DiscordError(403, 50007, "Cannot send messages to this user")
MISSING_PERMISSIONS = DiscordError(403, 50013, "Missing Permissions")
UNKNOWN_MESSAGE = DiscordError(404, 10008, "Unknown Message")
UNKNOWN_CHANNEL = DiscordError(404, 10003, "Unknown Channel")
EDIT_LIMIT = DiscordError(
    400, 30046, "Maximum number of edits to messages older than 1 hour reached. Try again later"
)
SERVER_ERROR = DiscordError(500, 0, "500: Internal Server Error")
BAD_GATEWAY = DiscordError(502, 0, "502: Bad Gateway")
UNAVAILABLE = DiscordError(503, 0, "503: Service Unavailable")
RATE_LIMITED = DiscordError(429, 0, "You are being rate limited.")
DAILY_COMMAND_CREATES = DiscordError(
    400, 30034, "Max number of daily application command creates has been reached (200)"
)
ENTRY_POINT_REQUIRED = DiscordError(
    400,
    50240,
    "You cannot remove this app's Entry Point command in a bulk update operation. Please "
    "include the Entry Point command in your update request or delete it separately.",
)

ERRORS: dict[str, DiscordError] = {
    "429": RATE_LIMITED,
    "500": SERVER_ERROR,
    "502": BAD_GATEWAY,
    "503": UNAVAILABLE,
    "10003": UNKNOWN_CHANNEL,
    "10008": UNKNOWN_MESSAGE,
    "30034": DAILY_COMMAND_CREATES,
    "30046": EDIT_LIMIT,
    "50007": CANNOT_DM,
    "50013": MISSING_PERMISSIONS,
    "50240": ENTRY_POINT_REQUIRED,
}


@dataclass
class Fault:
    """One injected fault; ``hits`` counts the requests it answered."""

    method: str
    route: str
    error: DiscordError
    times: int | None = None
    channel_id: int | None = None
    message_id: int | None = None
    retry_after: float = 1.0
    is_global: bool = False
    hits: int = 0
    when: Callable[[], bool] | None = None  # asked per request: only while it says True

    @property
    def active(self) -> bool:
        return self.times is None or self.hits < self.times

    def matches(
        self, method: str, template: str, params: dict[str, str], channel: int | None
    ) -> bool:
        if not self.active:
            return False
        if self.method not in ("*", method):
            return False
        if not fnmatchcase(template, self.route):
            return False
        if self.channel_id is not None and channel != self.channel_id:
            return False
        if self.message_id is not None and params.get("message_id") != str(self.message_id):
            return False
        return self.when is None or self.when()

    def hit(self, now: float) -> RateLimitHit:
        """The 429 this fault answers (only for ``RATE_LIMITED``)."""
        return RateLimitHit("injected", self.retry_after, "injected", now, is_global=self.is_global)


class FaultInjector:
    """The faults a test added, checked in order for every request."""

    def __init__(self) -> None:
        self.faults: list[Fault] = []

    def add(
        self,
        method: str,
        route: str,
        error: DiscordError | str,
        *,
        times: int | None = None,
        channel_id: int | None = None,
        message_id: int | None = None,
        retry_after: float = 1.0,
        is_global: bool = False,
        when: Callable[[], bool] | None = None,
    ) -> Fault:
        """Answer matching requests with ``error`` (a ``DiscordError`` or a key of ``ERRORS``).

        ``method``: "POST", "PATCH"... or "*". ``route``: a route template as the fake names
        them (see ``FakeDiscord.stats.calls`` keys), shell patterns allowed. ``times``: only the
        next N matching requests (None: until removed). ``retry_after`` / ``is_global``: the
        429 body of ``RATE_LIMITED``. ``when``: asked for each matching request; the fault
        answers only while it returns True (e.g. from the moment a game is over).
        """
        resolved = ERRORS[error] if isinstance(error, str) else error
        fault = Fault(
            method=method.upper(),
            route=route,
            error=resolved,
            times=times,
            channel_id=channel_id,
            message_id=message_id,
            retry_after=retry_after,
            is_global=is_global,
            when=when,
        )
        self.faults.append(fault)
        return fault

    def remove(self, fault: Fault) -> None:
        self.faults.remove(fault)

    def clear(self) -> None:
        self.faults.clear()

    def take(
        self,
        method: str,
        template: str,
        params: dict[str, str],
        channel_of: Callable[[dict[str, str]], int | None],
    ) -> Fault | None:
        """The first active fault matching a request (its hit counted), or None."""
        if not self.faults:
            return None
        channel = channel_of(params)
        for fault in self.faults:
            if fault.matches(method, template, params, channel):
                fault.hits += 1
                return fault
        return None
