"""Server settings (/settings) and the DM reminders of long turn timers (no Discord)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import replace

from db.servers import GuildSettings, Reminder

__all__ = [
    "LONG_TIMER",
    "MAX_TIMEOUT",
    "PICTURES_FRESH",
    "REMIND_SHARE",
    "BadSetting",
    "GuildSettings",
    "Reminder",
    "ServerSettings",
    "describe_timeout",
    "parse_level",
    "parse_timeout",
]
from db.store import Store
from engine.base import Level
from i18n import ngettext, pgettext
from service.errors import PlayError

MINUTE, HOUR, DAY = 60.0, 3600.0, 86400.0
MAX_TIMEOUT = 30 * DAY
LONG_TIMER = HOUR  # from this long, a DM reminds the player before the deadline
REMIND_SHARE = 0.25  # ... when a quarter of the time is left
_UNITS = {"m": MINUTE, "min": MINUTE, "h": HOUR, "d": DAY}
_DURATION = re.compile(r"^\s*(\d{1,4})\s*(m|min|mins|minutes?|h|hours?|d|days?)\s*$", re.I)


class BadSetting(PlayError, ValueError):
    """A setting that cannot be used; the message says what would be accepted."""


def parse_timeout(text: str) -> float:
    """``off`` (or 0) -> 0; ``15m``, ``2 hours``, ``3d`` -> seconds (1 minute to 30 days)."""
    if text.strip().lower() in ("off", "0", "none", "no"):
        return 0.0
    found = _DURATION.match(text)
    if found is None:
        raise BadSetting(
            "Give the turn timer as `off`, or minutes, hours or days: `10m`, `2h`, `3d`."
        )
    unit = found.group(2).lower()
    seconds = int(found.group(1)) * _UNITS.get(unit, _UNITS[unit[0]])
    if not MINUTE <= seconds <= MAX_TIMEOUT:
        raise BadSetting("The turn timer can be from 1 minute to 30 days, or `off`.")
    return seconds


def describe_timeout(seconds: float) -> str:
    """The turn timer as /settings shows it, in the current language."""
    if seconds <= 0:
        return pgettext("turn timer", "off")
    if seconds % DAY == 0:
        return ngettext("{n} day", "{n} days", int(seconds // DAY))
    if seconds % HOUR == 0:
        return ngettext("{n} hour", "{n} hours", int(seconds // HOUR))
    if seconds % MINUTE == 0:
        return ngettext("{n} minute", "{n} minutes", int(seconds // MINUTE))
    return ngettext("{n} second", "{n} seconds", int(seconds))


def parse_level(text: str) -> Level:
    """``easy``, ``normal`` or ``hard`` (the /settings choices' values) as a Level."""
    try:
        return Level(text.strip().lower())
    except ValueError as exc:
        raise BadSetting("Choose the computer level `easy`, `normal` or `hard`.") from exc


PICTURES_FRESH = 60.0  # seconds a server's pictures setting is trusted without a read


class ServerSettings:
    def __init__(
        self,
        store: Store,
        *,
        default_timeout: float,
        pictures: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``pictures`` is the bot's own switch (PICTURES): off, no server gets pictures."""
        self.store = store
        self.default_timeout = default_timeout
        self.pictures = pictures
        self._clock = clock
        self._pictures: dict[int, tuple[bool, float]] = {}

    async def pictures_on(self, guild_id: int) -> bool:
        """Whether the server wants pictures (read at most once a minute: it is asked for
        every turn's DM and every round; other processes' changes show within that minute)."""
        if not self.pictures:
            return False
        known = self._pictures.get(guild_id)
        if known is not None and self._clock() - known[1] < PICTURES_FRESH:
            return known[0]
        wanted = (await self.store.servers.guild_settings(guild_id)).pictures
        if len(self._pictures) > 10_000:
            self._pictures.clear()
        self._pictures[guild_id] = (wanted, self._clock())
        return wanted

    async def get(self, guild_id: int) -> GuildSettings:
        return await self.store.servers.guild_settings(guild_id)

    async def update(
        self,
        guild_id: int,
        *,
        turn_timer: str | None = None,
        computers: bool | None = None,
        pictures: bool | None = None,
        computer_level: str | None = None,
    ) -> GuildSettings:
        """Change what was given (new games follow it; running games keep their timer)."""
        current = await self.store.servers.guild_settings(guild_id)
        changed = current
        if turn_timer is not None:
            changed = replace(changed, turn_timeout=parse_timeout(turn_timer))
        if computers is not None:
            changed = replace(changed, computers=computers)
        if pictures is not None:
            changed = replace(changed, pictures=pictures)
        if computer_level is not None:
            changed = replace(changed, computer_level=parse_level(computer_level))
        if changed == current:
            return current
        saved = await self.store.servers.save_guild_settings(changed)
        self._pictures.pop(guild_id, None)
        return saved

    def timeout_of(self, settings: GuildSettings) -> float:
        return self.default_timeout if settings.turn_timeout is None else settings.turn_timeout

    async def due_reminders(self, now: float) -> list[Reminder]:
        return await self.store.servers.due_reminders(
            now, long_from=LONG_TIMER, share=REMIND_SHARE, default=self.default_timeout
        )

    async def reminded(self, reminder: Reminder) -> None:
        await self.store.servers.mark_reminded(reminder.game_id, reminder.seat, reminder.deadline)
