"""Reading what the bot sent: messages, their versions, what each user saw, recorded requests."""

from __future__ import annotations

import re

from . import interactions as _interactions
from .components import Button, buttons, message_texts
from .models import FLAG_EPHEMERAL, JSON, FakeChannel, FakeGuild, StoredMessage
from .records import InteractionRecord, RecordedRequest


class ReadingMixin:
    """The read-only test API of ``FakeDiscord`` (the state it reads is FakeDiscord's)."""

    guilds: dict[int, FakeGuild]
    channels: dict[int, FakeChannel]
    dm_channels: dict[int, int]
    stored: dict[int, StoredMessage]
    channel_messages: dict[int, list[int]]
    attachments: dict[int, bytes]
    commands: dict[int | None, list[JSON]]
    interactions: dict[int, InteractionRecord]
    requests: list[RecordedRequest]

    def message(self, message_id: int) -> JSON | None:
        """Current state of a message (edits applied); None if unknown or deleted."""
        stored = self.stored.get(message_id)
        if stored is None or stored.deleted:
            return None
        return stored.data

    def message_versions(self, message_id: int) -> list[JSON]:
        """Every version a message ever had, oldest first (also for deleted messages)."""
        stored = self.stored.get(message_id)
        return [] if stored is None else list(stored.versions)

    def messages(self, channel_id: int, *, include_ephemeral: bool = False) -> list[JSON]:
        """Current messages of a channel, oldest first; deleted ones are left out."""
        found = []
        for mid in self.channel_messages.get(channel_id, []):
            stored = self.stored[mid]
            if stored.deleted or (stored.ephemeral_to is not None and not include_ephemeral):
                continue
            found.append(stored.data)
        return found

    def dm_channel_id(self, user_id: int) -> int | None:
        """The DM channel the bot opened with a user, if any."""
        return self.dm_channels.get(user_id)

    def dm_messages(self, user_id: int) -> list[JSON]:
        """Current messages in the bot's DM with a user (ephemeral ones there included)."""
        cid = self.dm_channels.get(user_id)
        return [] if cid is None else self.messages(cid, include_ephemeral=True)

    def ephemeral_messages(self, user_id: int) -> list[JSON]:
        """Current ephemeral messages shown to a user, oldest first."""
        return [s.data for s in self.stored.values() if s.ephemeral_to == user_id and not s.deleted]

    def attachment_content(self, attachment: JSON) -> bytes:
        """The bytes the bot uploaded for an attachment dict of a message."""
        return self.attachments[int(attachment["id"])]

    def buttons(self, message_id: int) -> list[Button]:
        """Buttons (label, custom_id, disabled, ...) of a message's current state."""
        msg = self.message(message_id)
        return [] if msg is None else buttons(msg)

    def _visible_to(self, stored: StoredMessage, user_id: int | None) -> bool:
        channel = self.channels.get(stored.channel_id)
        if channel is None:
            return False
        if stored.ephemeral_to is not None:
            return stored.ephemeral_to == user_id
        if channel.guild_id is None:
            return user_id is not None and channel.recipient_id == user_id
        if user_id is None:
            return True
        return user_id in self.guilds[channel.guild_id].member_ids

    def all_text_seen_by(self, user_id: int) -> list[str]:
        """Every text ever shown to a user: every version of every guild-channel message of
        their guilds, their DMs, ephemeral messages to them, and modals shown to them."""
        texts: list[str] = []
        for stored in self.stored.values():
            if self._visible_to(stored, user_id):
                for version in stored.versions:
                    texts.extend(message_texts(version))
        for rec in self.interactions.values():
            if rec.user_id == user_id:
                for out in rec.outputs:
                    if out.kind == "modal":
                        texts.extend(message_texts(out.payload))
        return texts

    def public_text(self) -> list[str]:
        """Every text ever posted non-ephemerally in a guild channel (all versions)."""
        texts: list[str] = []
        for stored in self.stored.values():
            if self._visible_to(stored, None):
                for version in stored.versions:
                    texts.extend(message_texts(version))
        return texts

    def requests_to(self, method: str, path_pattern: str) -> list[RecordedRequest]:
        """Recorded requests whose method matches and whose path matches the regex."""
        rx = re.compile(path_pattern)
        return [r for r in self.requests if r.method == method and rx.search(r.path)]

    def ack_latencies(self) -> list[float]:
        """Seconds from dispatch to callback, for every acknowledged interaction so far."""
        return [r.ack_latency for r in self.interactions.values() if r.ack_latency is not None]

    def registered_commands(self, guild_id: int | None = None) -> list[JSON]:
        """The application commands registered globally (None) or for a guild."""
        return list(self.commands.get(guild_id, []))

    def command_paths(self, guild_id: int | None = None) -> set[str]:
        """Registered chat commands as "name", "name sub" and "name group sub" paths."""
        return _interactions.command_paths(self.commands.get(guild_id, []))

    def is_ephemeral(self, message: JSON) -> bool:
        return bool(int(message.get("flags", 0)) & FLAG_EPHEMERAL)
