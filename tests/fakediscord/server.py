"""FakeDiscord: an in-process Discord (REST + gateway) on 127.0.0.1 for end-to-end tests."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any, TypeVar

from aiohttp import web

from . import interactions as _interactions
from .activities import Activities
from .commands import CHAT_INPUT, Commands
from .endpoint import Endpoint
from .faults import FaultInjector
from .gateway import GatewaySession, handle_gateway
from .models import (
    JSON,
    FakeChannel,
    FakeGuild,
    FakeUser,
    Snowflakes,
    StoredMessage,
)
from .posting import Holds, Nonces
from .ratelimit import Clock, RateLimiter, RateLimitSettings, RestStats
from .reading import ReadingMixin
from .records import InteractionRecord, RecordedRequest
from .rest import RestApi
from .shards import MAX_GUILDS_PER_SHARD, LiveSessions, recommended_shards, shard_of
from .world import WorldMixin

T = TypeVar("T")

DEFAULT_TOKEN = "fake-token-for-tests"


class FakeDiscord(WorldMixin, ReadingMixin):
    """A fake Discord server the real bot process connects to.

    Usage::

        fake = FakeDiscord()
        await fake.start()                      # fake.url -> "http://127.0.0.1:<port>"
        guild = fake.add_guild("Test Server")
        channel = fake.add_channel(guild, "games")
        alice = fake.add_user("alice", manage_guild=True)
        ...start the bot with FAKE_DISCORD_URL=fake.url...
        await fake.wait_ready()
        rec = await fake.slash(alice, channel, "demo start")
        reply = await rec.wait_response()
        await fake.stop()

    Everything the bot sends is kept: ``requests`` (every HTTP call), ``unknown_routes``
    (calls the fake does not implement), messages with every version they ever had, and
    ``interactions`` with the bot's callbacks, followups and edits.

    Discord's behaviour beyond the happy path: ``rate_limits`` (on by default, see
    ``ratelimit.py``) with ``stats`` (calls per route kind, every 429, invalid requests),
    ``faults`` (injected errors, see ``faults.py``), sharded gateway connections
    (``live_sessions``, see ``shards.py``) and locales (``set_user_locale``...).
    """

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_name: str = "FakeBot",
        rate_limits: RateLimitSettings | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        self.token = token
        self.ids = Snowflakes()
        self.bot_user = FakeUser(id=self.ids.next(), name=bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.owner = FakeUser(id=self.ids.next(), name="server-owner")
        self.users: dict[int, FakeUser] = {
            self.bot_user.id: self.bot_user,
            self.owner.id: self.owner,
        }
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.dm_channels: dict[int, int] = {}
        self.stored: dict[int, StoredMessage] = {}
        self.channel_messages: dict[int, list[int]] = {}
        self.attachments: dict[int, bytes] = {}
        self.commands: dict[int | None, list[JSON]] = {}
        self.command_ids: dict[tuple[int | None, str, int], int] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.requests: list[RecordedRequest] = []
        self.unknown_routes: list[str] = []
        # Conditions the bot side is done when all hold (e.g. its database says every game is
        # shown); tests' "wait until quiet" helpers check them besides the request stream.
        self.settle_checks: list[Callable[[], bool]] = []
        # Conditions that, when there are some and all hold (its database says no automatic
        # move is still to come), let those helpers call the bot done after a shorter pause.
        self.idle_checks: list[Callable[[], bool]] = []
        # Conditions that, when there are some and all hold (every player's DM shows the
        # latest move and no automatic move is due), let the wait between two clicks of a
        # game end before its table is shown.
        self.hand_checks: list[Callable[[], bool]] = []
        self.blocked_dm_attempts: list[int] = []
        self.gateway_log: list[JSON] = []
        self.sessions: dict[str, GatewaySession] = {}
        self.live_sessions = LiveSessions()
        self.recommended_shards: int | None = None
        self.max_guilds_per_shard = MAX_GUILDS_PER_SHARD
        self.rate_limits = RateLimiter(rate_limits, clock)
        self.time_scale = 1.0  # see scale_time
        self.faults = FaultInjector()
        self.holds = Holds()  # posts held unanswered (tests that kill the bot): see posting.py
        self.nonces = Nonces()  # enforced nonces of create-message: see posting.py
        self.open_sockets: set[web.WebSocketResponse] = set()
        self.ready_count = 0
        self.resume_count = 0
        self.click_settle = 0.3
        self.ack_deadline = 3.0
        # Seconds an interaction takes to reach the bot after Discord made it (a backlog on
        # Discord's side or the network's); its ack_deadline counts from the making.
        self.delivery_delay = 0.0
        self._changed = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()
        self.activities = Activities(self)  # OAuth2 and activity instances
        self.application_commands = Commands(self)  # the command routes, the Entry Point
        self._rest = RestApi(self)
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.endpoint: Endpoint | None = None  # set: interactions are POSTed to the bot

    # ------------------------------------------------------------------ lifecycle

    async def start(self, port: int = 0) -> None:
        """Listen on 127.0.0.1 on ``port``, by default a free one (``self.url``); a port of an
        earlier start brings "Discord" back where a bot looks for it."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("GET", "/gateway", self._gateway)
        app.router.add_route("GET", "/gateway/", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest.handle)
        app.router.add_route("GET", "/attachments/{att_id}/{filename}", self._attachment)
        app.router.add_route("*", "/{tail:.*}", self._rest.handle_outside_api)
        self._runner = web.AppRunner(app, access_log=None, handler_cancellation=True)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        server = site._server
        assert server is not None
        sockets = getattr(server, "sockets", None) or []
        self.port = int(sockets[0].getsockname()[1])

    def serve_interactions_over_http(self, port: int | None = None) -> Endpoint:
        """From now on interactions go to the bot's endpoint (tests/fakediscord/endpoint.py),
        never on the gateway; bot processes started after this are told so."""
        self.endpoint = Endpoint(port)
        return self.endpoint

    async def stop(self) -> None:
        """Close every websocket and stop listening."""
        if self.endpoint is not None:
            await self.endpoint.close()
        for ws in list(self.open_sockets):
            await ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def url(self) -> str:
        """Base URL to give the bot as FAKE_DISCORD_URL."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway/"

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        return await handle_gateway(self, request)

    async def _attachment(self, request: web.Request) -> web.StreamResponse:
        content = self.attachments.get(int(request.match_info["att_id"]))
        if content is None:
            return web.Response(status=404)
        return web.Response(body=content)

    def notify(self) -> None:
        """Wake up everything waiting in ``wait_for`` / ``wait_ready``."""
        self._changed.set()

    def scale_time(self, scale: float) -> None:
        """Rate-limit windows ``scale`` times as long; bots started afterwards pace the same."""
        self.time_scale = scale
        self.rate_limits.scale_time(scale)

    @property
    def stats(self) -> RestStats:
        """Calls per route kind, every 429 sent, invalid requests (``rate_limits.stats``)."""
        return self.rate_limits.stats

    # ------------------------------------------------------------------ shards

    def shard_of(self, guild_id: int, shard_count: int) -> int:
        """The shard that receives a guild's events: ``(guild_id >> 22) % shard_count``."""
        return shard_of(guild_id, shard_count)

    def gateway_shards(self) -> int:
        """The ``shards`` GET /gateway/bot recommends (``recommended_shards`` overrides it)."""
        if self.recommended_shards is not None:
            return self.recommended_shards
        return recommended_shards(len(self.guilds))

    def session_for_channel(self, channel_id: int) -> GatewaySession | None:
        """The session that receives a channel's events (its guild's shard; DMs: shard 0)."""
        guild_id = self.channels[channel_id].guild_id
        if guild_id is None:
            return self.live_sessions.for_dm()
        return self.live_sessions.for_guild(guild_id)

    @property
    def live_session(self) -> GatewaySession | None:
        """The session of shard 0 (the only one of an unsharded bot)."""
        return self.live_sessions.for_dm()

    # ------------------------------------------------------------------ waiting

    @property
    def bot_connected(self) -> bool:
        """True while an identified bot session has an open websocket."""
        return bool(self.live_sessions.connected())

    async def wait_for(
        self, predicate: Callable[[], T | None], timeout: float = 5.0, interval: float = 0.05
    ) -> T:
        """Poll ``predicate`` until it returns something truthy; return that value.

        Raises TimeoutError after ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"condition not met within {timeout} s")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout=min(interval, remaining))

    async def wait_ready(
        self,
        timeout: float = 15.0,
        *,
        after: int = 0,
        commands: bool = False,
        settle: float = 0.3,
        shards: int = 1,
    ) -> None:
        """Wait until the bot has identified (READY number ``after + shards`` or later was sent).

        ``after``: pass ``fake.ready_count`` read before (re)starting a bot process, so an old
        session does not count. ``commands``: also wait until at least one chat command is
        registered (an Entry Point command may be there before the bot syncs). ``settle``:
        extra sleep covering the bot's short guild_ready_timeout, so on_ready has run before
        the test goes on. ``shards``: how many connections (IDENTIFYs) the process makes.
        """

        def ready() -> bool:
            if self.ready_count < after + shards or not self.bot_connected:
                return False
            return not commands or any(
                c["type"] == CHAT_INPUT for scope in self.commands.values() for c in scope
            )

        await self.wait_for(ready, timeout)
        await asyncio.sleep(settle)

    async def wait_shards(
        self, shard_ids: list[int], shard_count: int, timeout: float = 20.0
    ) -> None:
        """Wait until each of ``shard_ids`` (of ``shard_count``) has a connected session."""
        await self.wait_for(lambda: self.live_sessions.covers(shard_ids, shard_count), timeout)

    async def disconnect_bot(self, code: int = 4000, *, shard_id: int | None = None) -> None:
        """Close the bot's websockets (or one shard's) with a resumable code (it should RESUME)."""
        for session in list(self.live_sessions.sessions):
            if shard_id in (None, session.shard_id) and session.ws is not None:
                await session.ws.close(code=code)

    # ------------------------------------------------------------------ users act

    async def slash(
        self,
        user_id: int,
        channel_id: int,
        command: str,
        options: dict[str, Any] | None = None,
    ) -> InteractionRecord:
        """Send a slash command ("group sub" paths allowed) built from the registered tree.

        ``options`` maps option names to values; USER options take a user id, CHANNEL options
        a channel id, ROLE options a role id.
        """
        return await _interactions.slash(self, user_id, channel_id, command, options or {})

    async def unregistered_slash(
        self, user_id: int, channel_id: int, name: str, options: list[JSON] | None = None
    ) -> InteractionRecord:
        """Send command ``name`` with raw ``options`` even if the bot never registered it
        (a stale or changed command); ``slash`` refuses those."""
        return await _interactions.unregistered_command(
            self, user_id, channel_id, name, options or []
        )

    async def click(
        self, user_id: int, message_id: int, custom_id: str, *, force: bool = False
    ) -> InteractionRecord:
        """Click the button ``custom_id`` on a message (guild channel, DM or ephemeral).

        Waits until ``click_settle`` seconds passed since the message was last written. Raises
        LookupError if the button is absent or disabled, unless ``force``. The payload carries
        the message as it is now, as Discord's does: discord.py silently drops a DynamicItem
        click whose custom_id is no longer on the message, so to test a double click send both
        clicks before the bot answers (``asyncio.gather``).
        """
        return await _interactions.component(self, user_id, message_id, custom_id, None, force)

    async def click_button(self, user_id: int, message_id: int, label: str) -> InteractionRecord:
        """Click the button whose label is ``label`` (see ``components.find_button``)."""
        return await _interactions.click_label(self, user_id, message_id, label)

    async def select(
        self,
        user_id: int,
        message_id: int,
        custom_id: str,
        values: list[str],
        *,
        force: bool = False,
    ) -> InteractionRecord:
        """Choose ``values`` in the select menu ``custom_id`` of a message."""
        return await _interactions.component(self, user_id, message_id, custom_id, values, force)

    async def submit_modal(
        self, user_id: int, shown_by: InteractionRecord, values: dict[str, str]
    ) -> InteractionRecord:
        """Submit the modal the bot showed in answer to ``shown_by`` (text input id -> value)."""
        return await _interactions.submit_modal(self, user_id, shown_by, values)

    def enable_activities(self, **fields: Any) -> JSON:
        """Switch Activities on as the Developer Portal does: Discord's default Entry Point
        command is created (``fields`` change its defaults); see ``commands.py``."""
        return self.application_commands.enable_activities(**fields)

    def open_dm(self, user_id: int) -> int:
        """The DM channel between the bot and a user, created if needed (as a user opening it)."""
        return self._rest.dm_channel(user_id)
