"""The few Discord calls the live table makes itself: OAuth2's code exchange, the user of a
bearer token, and an activity instance (which channel it is in, who is in it).

They go to the same API base as discord.py's (``discord.http.Route.BASE``, which the tests
point at the fake Discord), over one aiohttp session. An instance's answer is kept for a few
seconds, so viewers reconnecting together ask Discord once.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp

log = logging.getLogger(__name__)

INSTANCE_SECONDS = 5.0  # how long an activity instance's answer is reused
TIMEOUT = aiohttp.ClientTimeout(total=10)


class DiscordRefused(Exception):
    """Discord answered, and said no (a bad code, an unknown instance)."""


class DiscordUnreachable(Exception):
    """Discord could not be asked (network, 5xx, a 429)."""


@dataclass(frozen=True, slots=True)
class Identity:
    user_id: int
    name: str
    access_token: str


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
    ) -> None:
        self.base = base.rstrip("/")
        self.client_id = client_id
        self._bot_token = bot_token
        self._secret = client_secret
        self._clock = clock
        self._session: aiohttp.ClientSession | None = None
        self._instances: dict[str, tuple[float, Instance]] = {}

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=TIMEOUT)
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        try:
            async with self._http().request(method, self.base + path, **kwargs) as response:
                if response.status >= 500 or response.status == 429:
                    raise DiscordUnreachable(f"{method} {path}: HTTP {response.status}")
                if response.status >= 400:
                    raise DiscordRefused(f"{method} {path}: HTTP {response.status}")
                return await response.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            raise DiscordUnreachable(f"{method} {path}: {exc!r}") from exc

    async def exchange(self, code: str) -> Identity:
        """The user an authorize code stands for (OAuth2's authorization_code grant)."""
        form = {
            "client_id": self.client_id,
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        token = await self._call("POST", "/oauth2/token", data=form)
        access = token.get("access_token") if isinstance(token, dict) else None
        if not isinstance(access, str):
            raise DiscordRefused("no access token in the answer")
        me = await self._call("GET", "/users/@me", headers={"Authorization": f"Bearer {access}"})
        try:
            name = me.get("global_name") or me.get("username") or ""
            return Identity(int(me["id"]), str(name), access)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise DiscordRefused("no user in the answer") from exc

    def forget(self, instance_id: str) -> None:
        self._instances.pop(instance_id, None)

    async def instance(self, instance_id: str) -> Instance:
        """The activity instance (of this application); DiscordRefused when there is none."""
        now = self._clock()
        known = self._instances.get(instance_id)
        if known is not None and now - known[0] < INSTANCE_SECONDS:
            return known[1]
        if not instance_id or len(instance_id) > 100 or "/" in instance_id:
            raise DiscordRefused("not an instance id")
        path = f"/applications/{self.client_id}/activity-instances/{instance_id}"
        data = await self._call("GET", path, headers={"Authorization": f"Bot {self._bot_token}"})
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
        if len(self._instances) > 1000:
            self._instances.clear()
        self._instances[instance_id] = (now, found)
        return found


class NotInInstance(Exception):
    """The instance is not somewhere the viewer may watch from (see :meth:`channel_for`)."""


async def channel_for(
    api: DiscordApi, instance_id: str, user_id: int, claimed_channel: int | None = None
) -> int:
    """The channel an instance runs in, if ``user_id`` is in it (and it is the channel the
    page says it is in, when it says one). A user not in a remembered answer is looked up
    afresh once: they may have joined since."""
    try:
        found = await api.instance(instance_id)
        if user_id not in found.users:
            api.forget(instance_id)
            found = await api.instance(instance_id)
    except DiscordRefused as exc:
        raise NotInInstance(str(exc)) from exc
    if found.channel_id is None:
        raise NotInInstance("the instance is not in a channel")
    if user_id not in found.users:
        raise NotInInstance("the user is not in the instance")
    if claimed_channel is not None and claimed_channel != found.channel_id:
        raise NotInInstance("the instance is in another channel")
    return found.channel_id
