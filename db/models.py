"""Rows returned by the store, as frozen dataclasses (the same from either engine), and the
vocabulary they are written in: a game's status and who made a move, as ``StrEnum``s whose
values are the strings the database stores (its CHECK constraints list the same)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from db.columns import from_columns
from engine.base import Level


class GameStatus(StrEnum):
    """Where a game is in its life: ``games.status``."""

    LOBBY = "lobby"  # open for joining; not started
    ACTIVE = "active"  # being played
    FINISHED = "finished"  # played to its end (it has results)
    CANCELLED = "cancelled"  # closed before its end (a lobby closed, a game cancelled)

    @property
    def is_open(self) -> bool:
        """A lobby or a game being played: at most one per channel."""
        return self in (GameStatus.LOBBY, GameStatus.ACTIVE)


class Actor(StrEnum):
    """Who made a move: ``actions.actor``."""

    PLAYER = "player"  # the seat's person, with a click
    COMPUTER = "computer"  # a computer seat
    TIMEOUT = "timeout"  # the computer, for a person whose turn timer ran out
    AUTOPILOT = "autopilot"  # the computer, for a person on autopilot (timer ran out twice)
    FORCED = "forced"  # a person's only possible move, played for them


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    game: str
    status: GameStatus
    host_id: int
    seed: int
    options: str
    snapshot: str | None
    version: int
    lobby_message_id: int | None
    table_message_id: int | None
    table_key: str | None
    created_at: float
    updated_at: float
    ended_at: float | None
    rendered_version: int = -1
    turn_timeout: float | None = None  # seconds, from the server's settings; None: the bot's
    resume_after: float | None = None  # automatic moves are due by then (None: a human decides)
    table_head: str | None = None  # JSON: the summaries' embeds above the table (migration 021)
    retiring_tables: str | None = None  # JSON: replaced tables not retired yet (migration 021)

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> GameRow:
        return cls(**{**row, "status": GameStatus(row["status"])})

    @property
    def is_open(self) -> bool:
        return self.status.is_open


@dataclass(frozen=True, slots=True)
class SeatRow:
    game_id: int
    seat: int
    user_id: int | None
    name: str
    is_computer: bool
    accepted: bool
    step: int
    deadline: float | None
    timeouts: int
    autopilot: bool
    dm_channel_id: int | None
    dm_message_id: int | None
    dm_closed: bool
    claimed_until: float | None = None  # a process took this seat's expired timer until then
    left_user_id: int | None = None  # the person who left this seat to a computer
    left_name: str | None = None  # and their name (``name`` is the computer's)
    left_step: int | None = None  # the moves made before they left (a replay's step)
    left_total: int | None = None  # and their total at that moment
    shown_version: int = -1  # the game version the seat's DM shows (as last recorded)
    level: Level = Level.NORMAL  # a computer seat's strength (a person's seat: unused)

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> SeatRow:
        flags = ("is_computer", "accepted", "autopilot", "dm_closed")
        level = Level(row.get("level") or Level.NORMAL)
        return from_columns(cls, row, level=level, **{name: bool(row[name]) for name in flags})


@dataclass(frozen=True, slots=True)
class ActionRow:
    game_id: int
    seq: int
    seat: int
    action: str
    actor: Actor
    at: float

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> ActionRow:
        return cls(**{**row, "actor": Actor(row["actor"])})


@dataclass(frozen=True, slots=True)
class ResultRow:
    game_id: int
    seat: int
    user_id: int | None
    total: int
    won: bool
    place: int | None = None  # 1 = first, tied seats share a place; None before it was rated
    left_user_id: int | None = None  # the person who left this seat to a computer

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> ResultRow:
        return from_columns(cls, row, won=bool(row["won"]))
