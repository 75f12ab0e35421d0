"""Creating a channel message as Discord does around it: enforced nonces, and held posts.

**Nonces.** A create-message body may carry a ``nonce`` (an integer or a string of at most 25
characters). With ``enforce_nonce: true``, Discord checks it for uniqueness over the past few
minutes: if the same author created a message with that nonce, that message is returned and
no new one is created. The fake does the same within :data:`NONCE_WINDOW` seconds.

**Holds** (for tests that kill the bot at a chosen moment): a post matching a hold is never
answered until the hold is released, either before the message is created (Discord never
took it) or after (Discord took it; the bot never heard). ``caught`` is set when it happens.

::

    hold = fake.holds.add(channel_id, lambda body: "ran out of time" in body["content"])
    await hold.caught.wait()   # the bot is waiting for Discord's answer
    bot.kill()
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]
NONCE_WINDOW = 300.0  # seconds an enforced nonce is remembered ("the past few minutes")
NONCE_MAX = 25  # characters


@dataclass
class Hold:
    """One held post: in ``channel_id``, the first (``times``) bodies ``matches`` accepts."""

    channel_id: int
    matches: Callable[[JSON], bool]
    after_create: bool = False  # the message is created first, then its answer is held
    times: int = 1
    hits: int = 0
    caught: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)
    bodies: list[JSON] = field(default_factory=list)  # what it caught


class Holds:
    """The holds a test added, checked for every create-message in a channel."""

    def __init__(self) -> None:
        self.holds: list[Hold] = []

    def add(
        self,
        channel_id: int,
        matches: Callable[[JSON], bool],
        *,
        after_create: bool = False,
        times: int = 1,
    ) -> Hold:
        hold = Hold(channel_id, matches, after_create, times)
        self.holds.append(hold)
        return hold

    def take(self, channel_id: int, body: JSON) -> Hold | None:
        for hold in self.holds:
            if hold.hits < hold.times and hold.channel_id == channel_id and hold.matches(body):
                hold.hits += 1
                hold.bodies.append(body)
                return hold
        return None

    @staticmethod
    async def wait(hold: Hold | None, *, after_create: bool) -> None:
        """Hold the request here if ``hold`` holds at this point of it."""
        if hold is not None and hold.after_create == after_create:
            hold.caught.set()
            await hold.released.wait()


class Nonces:
    """Enforced nonces seen, per author: (the message created, when)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._seen: dict[tuple[int, str], tuple[int, float]] = {}
        self._clock = clock
        self.repeats = 0  # posts answered with the message an earlier one created

    @staticmethod
    def refused(body: JSON) -> str | None:
        """Why Discord refuses the body's nonce (None: it does not)."""
        nonce = body.get("nonce")
        if nonce is None or isinstance(nonce, int):
            return None
        if not isinstance(nonce, str) or len(nonce) > NONCE_MAX:
            return f"nonce: Must be {NONCE_MAX} or fewer in length."
        return None

    def earlier(self, author: int, body: JSON) -> int | None:
        """The message an earlier post of ``author`` with this enforced nonce created."""
        if body.get("nonce") is None or not body.get("enforce_nonce"):
            return None
        seen = self._seen.get((author, str(body["nonce"])))
        if seen is None or self._clock() - seen[1] > NONCE_WINDOW:
            return None
        self.repeats += 1
        return seen[0]

    def created(self, author: int, body: JSON, message_id: int) -> None:
        if body.get("nonce") is not None and body.get("enforce_nonce"):
            self._seen[(author, str(body["nonce"]))] = (message_id, self._clock())
