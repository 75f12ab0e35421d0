"""What the live table shows of a seated player: their name in the server (the member's
nickname, else their display name, else their username) and their avatar, as a path on
Discord's CDN (``cdn.discordapp.com``) that the page loads through the Activity's URL mapping
(docs/activity.md, "Enabling it").

Only the seats' people are looked up (``GET /guilds/{guild}/members/{user}``, the bot token,
web/guard.py's ``MEMBER`` door), each once per ``KEEP_SECONDS`` and shared by every frame and
viewer meanwhile; a look-up that fails leaves the stored seat name and no avatar. A frame
holds nothing more of a member than any member of the server sees: a name and an avatar.
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

    async def of(self, guild_id: int, users: Iterable[int]) -> dict[int, Face]:
        """The faces of ``users`` in the guild that are known or can be learnt now."""
        wanted = sorted(set(users))
        found = await asyncio.gather(*(self._face(guild_id, u) for u in wanted))
        return {user: face for user, face in zip(wanted, found, strict=True) if face is not None}

    async def _face(self, guild_id: int, user_id: int) -> Face | None:
        key = (guild_id, user_id)
        kept = self._kept.get(key)
        now = self._clock()
        if kept is not None:
            at, face = kept
            if now - at < (KEEP_SECONDS if face is not None else FAILED_SECONDS):
                return face
        asking = self._asking.get(key)
        if asking is None:
            asking = asyncio.ensure_future(self._look_up(guild_id, user_id))
            self._asking[key] = asking
            asking.add_done_callback(lambda _done: self._asking.pop(key, None))
        return await asyncio.shield(asking)

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
