"""Sharding as Discord does it: which gateway connection receives which event.

A bot identifies each connection with ``shard: [shard_id, shard_count]`` (none means
``[0, 1]``). A guild belongs to shard ``(guild_id >> 22) % shard_count``: its GUILD_CREATE,
its other events and its interactions go to that shard's connection; DMs and DM interactions go
to shard 0. Several connections (from one process or several) are live at once; a new IDENTIFY
for a shard replaces the previous session of that shard.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .gateway import GatewaySession

CLOSE_INVALID_SHARD = 4010
CLOSE_SHARDING_REQUIRED = 4011
GUILDS_PER_SHARD_RECOMMENDED = 1000
MAX_GUILDS_PER_SHARD = 2500


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives a guild's events: ``(guild_id >> 22) % shard_count``."""
    return (guild_id >> 22) % shard_count


def recommended_shards(guild_count: int) -> int:
    """What GET /gateway/bot recommends: one shard per 1,000 guilds, at least one."""
    return max(1, math.ceil(guild_count / GUILDS_PER_SHARD_RECOMMENDED))


def parse_shard(value: object) -> tuple[int, int] | None:
    """``[id, count]`` from an IDENTIFY (default ``(0, 1)``); None if invalid (close 4010)."""
    if value is None:
        return 0, 1
    if not isinstance(value, list | tuple) or len(value) != 2:
        return None
    try:
        shard_id, count = int(value[0]), int(value[1])
    except (TypeError, ValueError):
        return None
    if count < 1 or not 0 <= shard_id < count:
        return None
    return shard_id, count


class LiveSessions:
    """The identified sessions that receive events, newest last."""

    def __init__(self) -> None:
        self.sessions: list[GatewaySession] = []

    def add(self, session: GatewaySession) -> None:
        """A new IDENTIFY: it replaces the previous session of the same shard id."""
        self.sessions = [s for s in self.sessions if s.shard_id != session.shard_id]
        self.sessions.append(session)

    def __contains__(self, session: object) -> bool:
        return session in self.sessions

    def for_guild(self, guild_id: int) -> GatewaySession | None:
        """The newest session whose shard owns the guild (connected or awaiting a RESUME)."""
        for session in reversed(self.sessions):
            if shard_of(guild_id, session.shard_count) == session.shard_id:
                return session
        return None

    def for_dm(self) -> GatewaySession | None:
        """DMs go to shard 0."""
        for session in reversed(self.sessions):
            if session.shard_id == 0:
                return session
        return None

    def connected(self) -> list[GatewaySession]:
        return [s for s in self.sessions if s.connected]

    def covers(self, shard_ids: Iterable[int], shard_count: int) -> bool:
        """True when every one of ``shard_ids`` (of ``shard_count``) has a connected session."""
        live = {(s.shard_id, s.shard_count) for s in self.connected()}
        return all((shard_id, shard_count) in live for shard_id in shard_ids)
