"""What the fake records: HTTP requests, and interactions with the bot's answers to them."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .components import Button, buttons, message_text

JSON = dict[str, Any]

# Interaction callback types (Discord API "Interaction Callback Type").
PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
MODAL = 9
LAUNCH_ACTIVITY = 12


@dataclass(frozen=True)
class RecordedRequest:
    """One HTTP request the bot made. ``path`` has no ``/api/v10`` prefix; ``kind`` is the
    route as ``"METHOD /template"`` (empty for unknown routes)."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    status: int
    at: float
    files: tuple[str, ...] = ()
    kind: str = ""


@dataclass(frozen=True)
class Output:
    """Something visible an interaction produced: kind is reply/update/followup/edit/modal
    (or activity: a launch-activity response, its payload the instance)."""

    kind: str
    message_id: int | None
    payload: JSON


@dataclass(frozen=True)
class Reply:
    """The bot's interaction callback (the acknowledgement), plus live access to what followed."""

    type: int
    data: JSON
    ephemeral: bool
    message_id: int | None
    interaction: InteractionRecord

    @property
    def content(self) -> str:
        return str(self.data.get("content") or "")

    @property
    def embeds(self) -> list[JSON]:
        return list(self.data.get("embeds") or [])

    @property
    def components(self) -> list[JSON]:
        return list(self.data.get("components") or [])

    @property
    def deferred(self) -> bool:
        return self.type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)

    @property
    def followups(self) -> list[JSON]:
        """Current state of every followup message sent after this reply."""
        return self.interaction.followups()

    @property
    def edits(self) -> list[JSON]:
        """Every edit payload sent to the original response (``@original``), in order."""
        return list(self.interaction.edits)

    def message(self) -> JSON | None:
        """Current state of the message this reply created or updated (None for a modal)."""
        return self.interaction.original_message()

    def text(self) -> str:
        """All readable text of the current message (content, embeds, components)."""
        msg = self.message()
        return message_text(msg if msg is not None else self.data)

    def buttons(self) -> list[Button]:
        msg = self.message()
        return buttons(msg if msg is not None else self.data)


@dataclass
class InteractionRecord:
    """An interaction the fake sent to the bot (slash command, click, select or modal submit).

    ``ack_latency`` is the time in seconds from dispatch to the bot's callback request;
    ``shard_id`` the shard whose connection it was delivered to.
    """

    id: int
    token: str
    kind: str
    user_id: int
    channel_id: int
    guild_id: int | None
    payload: JSON = field(repr=False)
    source_message_id: int | None = None
    sent_at: float = field(default_factory=time.monotonic)
    acked_at: float | None = None
    response: Reply | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    edits: list[JSON] = field(default_factory=list)
    outputs: list[Output] = field(default_factory=list)
    late_callbacks: list[JSON] = field(default_factory=list)
    shard_id: int | None = None
    _lookup: Callable[[int], JSON | None] = field(default=lambda _mid: None, repr=False)
    _changed: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    @property
    def ack_latency(self) -> float | None:
        return None if self.acked_at is None else self.acked_at - self.sent_at

    def notify(self) -> None:
        self._changed.set()

    async def _wait(self, ready: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not ready():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(
                    f"{what} for {self.kind} interaction {self.id}: not seen in {timeout:g} s "
                    f"({self._acknowledged()})"
                )
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), timeout=remaining)
            except TimeoutError:
                continue

    def _acknowledged(self) -> str:
        """How the bot acknowledged this interaction so far, for a failure's message."""
        latency, response = self.ack_latency, self.response
        if latency is None or response is None:
            return "not acknowledged"
        how = "deferred" if response.deferred else "answered"
        return f"{how} after {latency:.1f} s, {len(self.outputs)} output(s)"

    async def wait_response(self, timeout: float = 5.0) -> Reply:
        """Wait for the bot's callback (ack) and return it."""
        await self._wait(lambda: self.response is not None, timeout, "callback")
        assert self.response is not None
        return self.response

    async def wait_output(self, count: int = 1, timeout: float = 5.0) -> Output:
        """Wait until ``count`` visible outputs exist (defers are not outputs); return the last."""
        await self._wait(lambda: len(self.outputs) >= count, timeout, f"output #{count}")
        return self.outputs[count - 1]

    async def wait_message(self, timeout: float = 5.0) -> JSON:
        """Wait for the first visible output and return the current state of its message."""
        out = await self.wait_output(1, timeout)
        if out.message_id is None:
            return out.payload
        msg = self._lookup(out.message_id)
        return msg if msg is not None else out.payload

    def original_message(self) -> JSON | None:
        """Current state of ``@original`` (reply message, or the clicked message after 6/7)."""
        if self.original_message_id is None:
            return None
        return self._lookup(self.original_message_id)

    def followups(self) -> list[JSON]:
        found = [self._lookup(mid) for mid in self.followup_ids]
        return [m for m in found if m is not None]

    def texts(self) -> list[str]:
        """Readable text of every output of this interaction, as sent (not as later edited)."""
        return [message_text(out.payload) for out in self.outputs]
