"""The few Discord calls the live table makes itself: OAuth2's code exchange, the user of a
bearer token, an activity instance (which channel it is in, who is in it), a seated member,
and the upload of a finished game's picture to share (web/share.py).

They go to the same API base as discord.py's (``discord.http.Route.BASE``, which the tests
point at the fake Discord), over one aiohttp session, and every one of them through the guard
(web/guard.py): what it refuses raises :class:`web.guard.Busy` and is not sent. A code and an
instance id are checked for shape before anything is asked; an instance's answer is kept for
a few seconds and shared by the viewers who asked for it meanwhile (viewers reconnecting
together ask Discord once), a refused instance id for longer (asking again would be refused
again).
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import aiohttp

from web.guard import Busy, Door, Guard
from web.language import MAX_LOCALE

log = logging.getLogger(__name__)

INSTANCE_SECONDS = 5.0  # how long an activity instance's answer is reused
REFUSED_SECONDS = 30.0  # how long a refused instance id is refused without asking
KEPT = 1000  # answers kept, and refused ids kept, at most
TIMEOUT = aiohttp.ClientTimeout(total=10)
INSTANCE_ID = re.compile(r"[A-Za-z0-9_-]{1,100}")
# Discord's codes are letters and digits; ``mock:<user id>`` is the fake's local mode's.
CODE = re.compile(r"[A-Za-z0-9._~:-]{1,200}")
MEDIA_URL = 1024  # the longest mediaUrl the SDK's openShareMomentDialog takes


def is_instance_id(text: object) -> bool:
    return isinstance(text, str) and INSTANCE_ID.fullmatch(text) is not None


def is_code(text: object) -> bool:
    return isinstance(text, str) and CODE.fullmatch(text) is not None


class DiscordRefused(Exception):
    """Discord answered, and said no (a bad code, an unknown instance)."""


class DiscordUnreachable(Exception):
    """Discord could not be asked (network, 5xx)."""


@dataclass(frozen=True, slots=True)
class Identity:
    user_id: int
    name: str
    access_token: str
    locale: str | None = None  # the user's Discord language ("ro", "en-US"), if it was given


@dataclass(frozen=True, slots=True)
class Instance:
    """An activity instance: where it runs and who is in it."""

    instance_id: str
    channel_id: int | None
    guild_id: int | None
    users: frozenset[int]


class DiscordApi:
    def __init__(
        self,
        base: str,
        *,
        bot_token: str,
        client_id: str,
        client_secret: str,
        clock: Callable[[], float] = time.monotonic,
        guard: Guard | None = None,
    ) -> None:
        self.base = base.rstrip("/")
        self.client_id = client_id
        self._bot_token = bot_token
        self._secret = client_secret
        self._clock = clock
        self.guard = guard or Guard(clock=clock)
        self._session: aiohttp.ClientSession | None = None
        self._instances: dict[str, tuple[float, Instance]] = {}
        self._refused: dict[str, float] = {}  # instance id -> until when it is refused
        self._asking: dict[str, asyncio.Future[Instance]] = {}  # instance id -> the call

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=TIMEOUT)
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def _call(self, door: Door, path: str, **kwargs: Any) -> Any:
        """One call through ``door`` (its method is the door's); a 429 is tried once more
        when Discord's wait is short (the guard waits it), else it is a :class:`Busy`."""
        method = door.value.split(" ", 1)[0]
        retry = 0.0
        for _ in range(2):
            await self.guard.admit(door)
            try:
                async with self._http().request(method, self.base + path, **kwargs) as response:
                    wait = self.guard.answered(door, response.status, response.headers)
                    if wait is None:
                        if response.status >= 500:
                            raise DiscordUnreachable(f"{door}: HTTP {response.status}")
                        if response.status >= 400:
                            raise DiscordRefused(f"{door}: HTTP {response.status}")
                        return await response.json(content_type=None)
                    retry = wait
            except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
                raise DiscordUnreachable(f"{door}: {exc!r}") from exc
        raise Busy(f"{door}: Discord asked us to wait", retry, yours=False)

    async def exchange(self, code: str) -> Identity:
        """The user an authorize code stands for (OAuth2's authorization_code grant)."""
        if not is_code(code):
            raise DiscordRefused("not an authorize code")
        form = {
            "client_id": self.client_id,
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        token = await self._call(Door.TOKEN, "/oauth2/token", data=form)
        access = token.get("access_token") if isinstance(token, dict) else None
        if not isinstance(access, str):
            raise DiscordRefused("no access token in the answer")
        me = await self._call(
            Door.USER, "/users/@me", headers={"Authorization": f"Bearer {access}"}
        )
        try:
            name = me.get("global_name") or me.get("username") or ""
            locale = me.get("locale")
            if not isinstance(locale, str) or len(locale) > MAX_LOCALE:
                locale = None
            return Identity(int(me["id"]), str(name), access, locale)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise DiscordRefused("no user in the answer") from exc

    def forget(self, instance_id: str) -> None:
        self._instances.pop(instance_id, None)

    async def instance(
        self, instance_id: str, *, charge: Callable[[], None] | None = None
    ) -> Instance:
        """The activity instance (of this application); DiscordRefused when there is none.
        ``charge`` is called before Discord is asked (not for a kept answer): it counts the
        call against whoever it is made for, and raises to stop it."""
        if not is_instance_id(instance_id):
            raise DiscordRefused("not an instance id")
        now = self._clock()
        refused = self._refused.get(instance_id)
        if refused is not None:
            if now < refused:
                raise DiscordRefused("an instance id refused a moment ago")
            del self._refused[instance_id]
        known = self._instances.get(instance_id)
        if known is not None and now - known[0] < INSTANCE_SECONDS:
            return known[1]
        asking = self._asking.get(instance_id)
        if asking is None:  # viewers of one instance arriving together share one call
            if charge is not None:
                charge()
            asking = asyncio.ensure_future(self._ask(instance_id))
            self._asking[instance_id] = asking
            asking.add_done_callback(lambda done: self._asked(instance_id, done))
        return await asyncio.shield(asking)

    def _asked(self, instance_id: str, done: asyncio.Future[Instance]) -> None:
        if self._asking.get(instance_id) is done:
            del self._asking[instance_id]
        if not done.cancelled():
            done.exception()  # retrieved: whoever waited for it has raised it already

    async def _ask(self, instance_id: str) -> Instance:
        """Discord's answer for an instance, kept; a refusal is kept too."""
        try:
            found = await self._look_up(instance_id)
        except DiscordRefused:
            now = self._clock()
            if len(self._refused) >= KEPT:
                self._refused = {i: t for i, t in self._refused.items() if t > now}
                if len(self._refused) >= KEPT:
                    self._refused.clear()
            self._refused[instance_id] = now + REFUSED_SECONDS
            raise
        if len(self._instances) >= KEPT:
            self._instances.clear()
        self._instances[instance_id] = (self._clock(), found)
        return found

    async def member(self, guild_id: int, user_id: int) -> dict[str, Any] | None:
        """``GET /guilds/{guild}/members/{user}`` with the bot token: the member object, or
        None when the user is not (or no longer) a member; not kept (web/members.py keeps
        what it needs of it)."""
        auth = {"Authorization": f"Bot {self._bot_token}"}
        path = f"/guilds/{guild_id}/members/{user_id}"
        try:
            data = await self._call(Door.MEMBER, path, headers=auth)
        except DiscordRefused:
            return None
        return data if isinstance(data, dict) else None

    async def upload(self, png: bytes, filename: str) -> str:
        """``POST /applications/{app}/attachment`` with the bot token, the picture as the
        multipart field ``file``: the CDN URL of the attachment Discord made (its answer's
        ``attachment.url``), what the SDK's ``openShareMomentDialog`` takes as ``mediaUrl``."""
        boundary = secrets.token_hex(16)
        head = (
            f"--{boundary}\r\n"
            f'Content-Disposition: form-data; name="file"; filename="{filename}"\r\n'
            "Content-Type: image/png\r\n\r\n"
        )
        body = (
            head.encode() + png + f"\r\n--{boundary}--\r\n".encode()
        )  # bytes: sent again on a retry
        headers = {
            "Authorization": f"Bot {self._bot_token}",
            "Content-Type": f"multipart/form-data; boundary={boundary}",
        }
        path = f"/applications/{quote(self.client_id, safe='')}/attachment"
        data = await self._call(Door.ATTACHMENT, path, headers=headers, data=body)
        attachment = data.get("attachment") if isinstance(data, dict) else None
        url = attachment.get("url") if isinstance(attachment, dict) else None
        if not isinstance(url, str) or not url.startswith("https://") or len(url) > MEDIA_URL:
            raise DiscordRefused("no attachment URL in the answer")
        return url

    async def _look_up(self, instance_id: str) -> Instance:
        path = (
            f"/applications/{quote(self.client_id, safe='')}"
            f"/activity-instances/{quote(instance_id, safe='')}"
        )
        auth = {"Authorization": f"Bot {self._bot_token}"}
        data = await self._call(Door.INSTANCE, path, headers=auth)
        try:
            location = data.get("location") or {}
            channel = location.get("channel_id")
            guild = location.get("guild_id")
            found = Instance(
                str(data["instance_id"]),
                int(channel) if channel else None,
                int(guild) if guild else None,
                frozenset(int(u) for u in data.get("users") or []),
            )
            if str(data.get("application_id")) != self.client_id:
                raise DiscordRefused("another application's instance")
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise DiscordRefused("not an activity instance") from exc
        return found


class NotInInstance(Exception):
    """The instance is not somewhere the viewer may watch from (see :meth:`channel_for`)."""


async def channel_for(
    api: DiscordApi,
    instance_id: str,
    user_id: int,
    claimed_channel: int | None = None,
    *,
    charge: Callable[[], None] | None = None,
) -> int:
    """The channel an instance runs in, if ``user_id`` is in it (and it is the channel the
    page says it is in, when it says one). A user not in a remembered answer is looked up
    afresh once: they may have joined since. ``charge``: see :meth:`DiscordApi.instance`."""
    try:
        found = await api.instance(instance_id, charge=charge)
        if user_id not in found.users:
            api.forget(instance_id)
            found = await api.instance(instance_id, charge=charge)
    except DiscordRefused as exc:
        raise NotInInstance(str(exc)) from exc
    if found.channel_id is None:
        raise NotInInstance("the instance is not in a channel")
    if user_id not in found.users:
        raise NotInInstance("the user is not in the instance")
    if claimed_channel is not None and claimed_channel != found.channel_id:
        raise NotInInstance("the instance is in another channel")
    return found.channel_id
