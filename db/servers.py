"""Per-server settings and the turn reminders they allow, on either engine (``store.servers``)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from db.columns import from_columns
from db.sql import Part
from engine.base import Level


@dataclass(frozen=True, slots=True)
class GuildSettings:
    guild_id: int
    turn_timeout: float | None = None  # seconds; None: the bot's default; 0: no timer
    computers: bool = True
    updated_at: float = 0.0
    pictures: bool = True  # card pictures on the bot's messages
    # The level of computers added without one, of a leaver's computer, of autopilot and timeouts.
    computer_level: Level = Level.NORMAL

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> GuildSettings:
        timeout = row["turn_timeout"]
        return cls(
            int(row["guild_id"]),
            None if timeout is None else float(timeout),
            bool(row["computers"]),
            float(row["updated_at"]),
            bool(row.get("pictures", True)),
            Level(row.get("computer_level") or Level.NORMAL),
        )


@dataclass(frozen=True, slots=True)
class Reminder:
    """A person whose long turn timer is running low and who was not told yet."""

    game_id: int
    seat: int
    user_id: int
    deadline: float
    game: str
    channel_id: int
    dm_channel_id: int | None


class Servers(Part):
    """``store.servers``: a server's settings, and the reminders of its long turn timers."""

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (the defaults when it never changed them)."""
        async with self._sql.reading() as tx:
            rows = await tx.fetch("SELECT * FROM guild_settings WHERE guild_id = ?", guild_id)
        return GuildSettings.from_row(rows[0]) if rows else GuildSettings(guild_id)

    async def save_guild_settings(self, settings: GuildSettings) -> GuildSettings:
        now = time.time()
        async with self._sql.transaction() as tx:
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, turn_timeout, computers, updated_at, "
                "pictures, computer_level) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO "
                "UPDATE SET turn_timeout = excluded.turn_timeout, computers = excluded.computers, "
                "updated_at = excluded.updated_at, pictures = excluded.pictures, "
                "computer_level = excluded.computer_level",
                settings.guild_id,
                settings.turn_timeout,
                bool(settings.computers),
                now,
                bool(settings.pictures),
                str(settings.computer_level),
            )
        return replace(settings, updated_at=now)

    async def due_reminders(
        self, now: float, *, long_from: float, share: float, default: float
    ) -> list[Reminder]:
        """People in active games with a turn timer (``default`` for games without their
        server's) of at least ``long_from`` seconds, of which at most ``share`` is left, not
        yet reminded of this deadline."""
        async with self._sql.reading() as tx:
            rows = await tx.fetch(
                "SELECT s.game_id, s.seat, s.user_id, s.deadline, g.game, g.channel_id, "
                "s.dm_channel_id FROM seats s JOIN games g ON g.id = s.game_id "
                "WHERE g.status = 'active' AND s.deadline IS NOT NULL AND s.deadline > ? "
                "AND s.user_id IS NOT NULL AND COALESCE(g.turn_timeout, ?) >= ? "
                "AND s.deadline - COALESCE(g.turn_timeout, ?) * ? <= ? "
                "AND (s.reminded_for IS NULL OR s.reminded_for <> s.deadline) "
                "ORDER BY s.deadline",
                float(now),
                float(default),
                float(long_from),
                float(default),
                float(share),
                float(now),
            )
        return [from_columns(Reminder, r) for r in rows]

    async def mark_reminded(self, game_id: int, seat: int, deadline: float) -> None:
        async with self._sql.transaction() as tx:
            await tx.execute(
                "UPDATE seats SET reminded_for = ? WHERE game_id = ? AND seat = ?",
                float(deadline),
                game_id,
                seat,
            )
