"""What the live table shows of a seated player: their name in the server (the member's
nickname, else their display name, else their username) and their avatar, as a path on
Discord's CDN (``cdn.discordapp.com``) that the page loads through the Activity's URL mapping
(docs/activity.md, "Enabling it").

Only the seats' people are looked up (``GET /guilds/{guild}/members/{user}``, the bot token,
web/guard.py's ``MEMBER`` door), each once per ``KEEP_SECONDS`` and shared by every frame and
viewer meanwhile; a look-up that fails, or takes longer than a frame waits, leaves the
stored seat name and no avatar. A frame holds nothing more of a member than any member of
the server sees: a name and an avatar.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

from web.discord_api import DiscordRefused, DiscordUnreachable
from web.guard import Busy

log = logging.getLogger(__name__)

KEEP_SECONDS = 600.0  # how long a member's name and avatar are reused
FAILED_SECONDS = 60.0  # how long a failed look-up is not tried again
WAIT_SECONDS = 1.0  # how long a frame waits for a look-up (the next frame gets it after)
KEPT = 5000
SIZE = 64  # the avatar's size in pixels (a seat's badge is 40 CSS px; 64 is sharp at 1.5x)
HASH = re.compile(r"(a_)?[0-9a-f]{32}")
NAME_LIMIT = 32  # Discord's longest nickname

# (guild, user) -> the member object, or None when the user is not a member.
Ask = Callable[[int, int], Awaitable[dict[str, Any] | None]]


@dataclass(frozen=True, slots=True)
class Face:
    """A seated person as the table shows them."""

    name: str | None  # None: the stored seat name stands
    avatar: str  # a path on cdn.discordapp.com, without the leading slash


def default_avatar(user_id: int) -> str:
    """Discord's default avatar of a user without a discriminator: ``(id >> 22) % 6``."""
    return f"embed/avatars/{(user_id >> 22) % 6}.png"


def avatar_path(guild_id: int, user_id: int, member: dict[str, Any]) -> str:
    """The member's avatar in the server, else their own, else Discord's default one; a hash
    of any other shape is ignored (it goes into a path)."""
    own = member.get("avatar")
    if isinstance(own, str) and HASH.fullmatch(own):
        return f"guilds/{guild_id}/users/{user_id}/avatars/{own}.png?size={SIZE}"
    user = member.get("user")
    hashed = user.get("avatar") if isinstance(user, dict) else None
    if isinstance(hashed, str) and HASH.fullmatch(hashed):
        return f"avatars/{user_id}/{hashed}.png?size={SIZE}"
    return default_avatar(user_id)


def display_name(member: dict[str, Any]) -> str | None:
    """The nickname, else the global display name, else the username (None: none given)."""
    user = member.get("user")
    user = user if isinstance(user, dict) else {}
    for name in (member.get("nick"), user.get("global_name"), user.get("username")):
        if isinstance(name, str) and name.strip():
            return name.strip()[:NAME_LIMIT]
    return None


def face_of(guild_id: int, user_id: int, member: dict[str, Any] | None) -> Face:
    if member is None:
        return Face(None, default_avatar(user_id))
    return Face(display_name(member), avatar_path(guild_id, user_id, member))


class Faces:
    def __init__(self, ask: Ask, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._ask = ask
        self._clock = clock
        self._kept: dict[tuple[int, int], tuple[float, Face | None]] = {}
        self._asking: dict[tuple[int, int], asyncio.Future[Face | None]] = {}
        self._later: set[asyncio.Future[None]] = set()  # frames to send again

    async def of(
        self,
        guild_id: int,
        users: Iterable[int],
        *,
        wait: float = WAIT_SECONDS,
        later: Callable[[], None] | None = None,
    ) -> dict[int, Face]:
        """The faces of ``users`` in the guild that are known, or learnt within ``wait``
        seconds: a slow Discord delays a frame that long at most; ``later`` is called once
        the look-ups still under way then have ended (to send the frame again with them)."""
        found: dict[int, Face] = {}
        asking: dict[int, asyncio.Future[Face | None]] = {}
        now = self._clock()
        for user in set(users):
            key = (guild_id, user)
            kept = self._kept.get(key)
            if kept is not None and now - kept[0] < (
                KEEP_SECONDS if kept[1] is not None else FAILED_SECONDS
            ):
                if kept[1] is not None:
                    found[user] = kept[1]
                continue
            asking[user] = self._asked(key)
        if asking:
            _done, pending = await asyncio.wait(
                [asyncio.shield(f) for f in asking.values()], timeout=wait
            )
            if pending and later is not None:
                self._then(list(asking.values()), later)
            for user, future in asking.items():
                if not future.done() or future.cancelled():
                    continue  # under way: the next frame has it
                error = future.exception()
                if error is not None:
                    log.warning("no face for user %s", user, exc_info=error)
                    continue
                face = future.result()
                if face is not None:
                    found[user] = face
        return found

    def _then(self, futures: list[asyncio.Future[Face | None]], later: Callable[[], None]) -> None:
        async def after() -> None:
            await asyncio.wait(futures)
            later()

        task = asyncio.ensure_future(after())
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    def _asked(self, key: tuple[int, int]) -> asyncio.Future[Face | None]:
        """The look-up of ``key`` under way, or a new one (callers together share it)."""
        asking = self._asking.get(key)
        if asking is None:
            asking = asyncio.ensure_future(self._look_up(*key))
            self._asking[key] = asking
            asking.add_done_callback(lambda _done: self._asking.pop(key, None))
        return asking

    async def _look_up(self, guild_id: int, user_id: int) -> Face | None:
        face: Face | None
        try:
            face = face_of(guild_id, user_id, await self._ask(guild_id, user_id))
        except (Busy, DiscordRefused, DiscordUnreachable) as exc:
            log.info("no face for user %s in guild %s: %s", user_id, guild_id, exc)
            face = None
        if len(self._kept) >= KEPT:
            self._kept.clear()
        self._kept[(guild_id, user_id)] = (self._clock(), face)
        return face
