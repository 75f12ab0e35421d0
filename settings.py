"""Settings read once from the environment (and .env) into one frozen object."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATABASE = "data/bot.db"


class SettingsError(Exception):
    """A setting is missing or malformed; the message is one line for the admin."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str
    database_path: Path
    dev_guild_id: int | None
    turn_timeout: float
    log_level: str

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        source = dict(os.environ if env is None else env)
        token = source.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise SettingsError(
                "DISCORD_TOKEN is not set: copy .env.example to .env and paste your bot token."
            )
        guild_text = source.get("DEV_GUILD_ID", "").strip()
        try:
            guild = int(guild_text) if guild_text else None
        except ValueError:
            raise SettingsError(
                f"DEV_GUILD_ID must be a server id (a number), not {guild_text!r}."
            ) from None
        timeout_text = source.get("TURN_TIMEOUT_SECONDS", "300").strip() or "300"
        try:
            timeout = float(timeout_text)
        except ValueError:
            raise SettingsError(
                f"TURN_TIMEOUT_SECONDS must be a number of seconds, not {timeout_text!r}."
            ) from None
        if timeout < 0:
            raise SettingsError("TURN_TIMEOUT_SECONDS cannot be negative (0 turns timers off).")
        level = (source.get("LOG_LEVEL", "INFO").strip() or "INFO").upper()
        if not isinstance(logging.getLevelName(level), int):
            raise SettingsError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}.")
        database = Path(source.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE)
        return cls(token, database, guild, timeout, level)
