"""FakeDiscord: an in-process Discord (REST + gateway) on 127.0.0.1 for end-to-end tests."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Callable
from typing import Any, TypeVar

from aiohttp import web

from . import interactions as _interactions
from .components import Button, buttons, message_texts
from .gateway import GatewaySession, handle_gateway
from .models import (
    FLAG_EPHEMERAL,
    JSON,
    FakeChannel,
    FakeGuild,
    FakeUser,
    Snowflakes,
    StoredMessage,
    channel_payload,
    guild_payload,
    member_payload,
)
from .records import InteractionRecord, RecordedRequest
from .rest import RestApi

T = TypeVar("T")

DEFAULT_TOKEN = "fake-token-for-tests"


class FakeDiscord:
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
    """

    def __init__(self, *, token: str = DEFAULT_TOKEN, bot_name: str = "FakeBot") -> None:
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
        self.blocked_dm_attempts: list[int] = []
        self.gateway_log: list[JSON] = []
        self.sessions: dict[str, GatewaySession] = {}
        self.live_session: GatewaySession | None = None
        self.open_sockets: set[web.WebSocketResponse] = set()
        self.ready_count = 0
        self.resume_count = 0
        self.click_settle = 0.3
        self.ack_deadline = 3.0
        self._changed = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()
        self._rest = RestApi(self)
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Listen on 127.0.0.1 on a free port (``self.url``)."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("GET", "/gateway", self._gateway)
        app.router.add_route("GET", "/gateway/", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest.handle)
        app.router.add_route("GET", "/attachments/{att_id}/{filename}", self._attachment)
        app.router.add_route("*", "/{tail:.*}", self._rest.handle_outside_api)
        self._runner = web.AppRunner(app, access_log=None, handler_cancellation=True)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        sockets = getattr(server, "sockets", None) or []
        self.port = int(sockets[0].getsockname()[1])

    async def stop(self) -> None:
        """Close every websocket and stop listening."""
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

    # ------------------------------------------------------------------ world building

    def add_guild(self, name: str) -> int:
        """Create a guild (the bot and the server owner are members). Returns its id."""
        gid = self.ids.next()
        guild = FakeGuild(
            id=gid,
            name=name,
            owner_id=self.owner.id,
            manager_role_id=self.ids.next(),
            bot_role_id=self.ids.next(),
        )
        guild.member_ids.extend([self.bot_user.id, self.owner.id])
        self.guilds[gid] = guild
        self._push(
            "GUILD_CREATE", lambda: guild_payload(guild, self.channels, self.users, full=True)
        )
        return gid

    def add_channel(self, guild_id: int, name: str) -> int:
        """Create a text channel in a guild. Returns its id."""
        cid = self.ids.next()
        channel = FakeChannel(id=cid, name=name, guild_id=guild_id)
        self.channels[cid] = channel
        self.channel_messages[cid] = []
        self.guilds[guild_id].channel_ids.append(cid)
        self._push("CHANNEL_CREATE", lambda: channel_payload(channel, self.users))
        return cid

    def add_user(
        self,
        name: str,
        *,
        dms_open: bool = True,
        manage_guild: bool = False,
        guild_ids: list[int] | None = None,
    ) -> int:
        """Create a user, member of ``guild_ids`` (default: every guild). Returns the user id.

        ``dms_open=False``: the bot's DMs to this user fail with 403 / code 50007.
        ``manage_guild=True``: the member has the Manage Server permission (via a role).
        """
        uid = self.ids.next()
        user = FakeUser(id=uid, name=name, dms_open=dms_open, manage_guild=manage_guild)
        self.users[uid] = user
        for gid in self.guilds if guild_ids is None else guild_ids:
            guild = self.guilds[gid]
            guild.member_ids.append(uid)

            def member(guild: FakeGuild = guild) -> JSON:
                return {**member_payload(guild, user), "guild_id": str(guild.id)}

            self._push("GUILD_MEMBER_ADD", member)
        return uid

    def user_named(self, name: str) -> int:
        """The id of the (first) user called ``name``."""
        return next(u.id for u in self.users.values() if u.name == name)

    def guild_named(self, name: str) -> int:
        """The id of the (first) guild called ``name``."""
        return next(g.id for g in self.guilds.values() if g.name == name)

    def channel_named(self, name: str, guild_id: int | None = None) -> int:
        """The id of the (first) guild channel called ``name`` (optionally in one guild)."""
        return next(
            c.id
            for c in self.channels.values()
            if c.name == name and c.guild_id is not None and guild_id in (None, c.guild_id)
        )

    def set_dms_open(self, user_id: int, dms_open: bool) -> None:
        """Open or close a user's DMs from now on."""
        self.users[user_id].dms_open = dms_open

    def _push(self, event: str, build: Callable[[], JSON]) -> None:
        """Dispatch an event to the live bot session, if any (world changes after READY)."""
        session = self.live_session
        if session is not None and session.connected:
            task = asyncio.get_running_loop().create_task(session.dispatch(event, build()))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ waiting

    @property
    def bot_connected(self) -> bool:
        """True while an identified bot session has an open websocket."""
        return self.live_session is not None and self.live_session.connected

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
    ) -> None:
        """Wait until the bot has identified (READY number ``after + 1`` or later was sent).

        ``after``: pass ``fake.ready_count`` read before (re)starting a bot process, so an old
        session does not count. ``commands``: also wait until at least one application
        command is registered. ``settle``: extra sleep covering the bot's short
        guild_ready_timeout, so on_ready has run before the test goes on.
        """

        def ready() -> bool:
            if self.ready_count <= after or not self.bot_connected:
                return False
            return not commands or any(self.commands.values())

        await self.wait_for(ready, timeout)
        await asyncio.sleep(settle)

    async def disconnect_bot(self, code: int = 4000) -> None:
        """Close the bot's websocket with a resumable code (the bot should RESUME)."""
        session = self.live_session
        if session is not None and session.ws is not None:
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

    # ------------------------------------------------------------------ reading what was sent

    def message(self, message_id: int) -> JSON | None:
        """Current state of a message (edits applied); None if unknown or deleted."""
        stored = self.stored.get(message_id)
        if stored is None or stored.deleted:
            return None
        return stored.data

    def message_versions(self, message_id: int) -> list[JSON]:
        """Every version a message ever had, oldest first (also for deleted messages)."""
        stored = self.stored.get(message_id)
        return [] if stored is None else list(stored.versions)

    def messages(self, channel_id: int, *, include_ephemeral: bool = False) -> list[JSON]:
        """Current messages of a channel, oldest first; deleted ones are left out."""
        found = []
        for mid in self.channel_messages.get(channel_id, []):
            stored = self.stored[mid]
            if stored.deleted or (stored.ephemeral_to is not None and not include_ephemeral):
                continue
            found.append(stored.data)
        return found

    def dm_channel_id(self, user_id: int) -> int | None:
        """The DM channel the bot opened with a user, if any."""
        return self.dm_channels.get(user_id)

    def open_dm(self, user_id: int) -> int:
        """The DM channel between the bot and a user, created if needed (as a user opening it)."""
        return self._rest.dm_channel(user_id)

    def dm_messages(self, user_id: int) -> list[JSON]:
        """Current messages in the bot's DM with a user (ephemeral ones there included)."""
        cid = self.dm_channels.get(user_id)
        return [] if cid is None else self.messages(cid, include_ephemeral=True)

    def ephemeral_messages(self, user_id: int) -> list[JSON]:
        """Current ephemeral messages shown to a user, oldest first."""
        return [s.data for s in self.stored.values() if s.ephemeral_to == user_id and not s.deleted]

    def attachment_content(self, attachment: JSON) -> bytes:
        """The bytes the bot uploaded for an attachment dict of a message."""
        return self.attachments[int(attachment["id"])]

    def buttons(self, message_id: int) -> list[Button]:
        """Buttons (label, custom_id, disabled, ...) of a message's current state."""
        msg = self.message(message_id)
        return [] if msg is None else buttons(msg)

    def _visible_to(self, stored: StoredMessage, user_id: int | None) -> bool:
        channel = self.channels.get(stored.channel_id)
        if channel is None:
            return False
        if stored.ephemeral_to is not None:
            return stored.ephemeral_to == user_id
        if channel.guild_id is None:
            return user_id is not None and channel.recipient_id == user_id
        if user_id is None:
            return True
        return user_id in self.guilds[channel.guild_id].member_ids

    def all_text_seen_by(self, user_id: int) -> list[str]:
        """Every text ever shown to a user: every version of every guild-channel message of
        their guilds, their DMs, ephemeral messages to them, and modals shown to them."""
        texts: list[str] = []
        for stored in self.stored.values():
            if self._visible_to(stored, user_id):
                for version in stored.versions:
                    texts.extend(message_texts(version))
        for rec in self.interactions.values():
            if rec.user_id == user_id:
                for out in rec.outputs:
                    if out.kind == "modal":
                        texts.extend(message_texts(out.payload))
        return texts

    def public_text(self) -> list[str]:
        """Every text ever posted non-ephemerally in a guild channel (all versions)."""
        texts: list[str] = []
        for stored in self.stored.values():
            if self._visible_to(stored, None):
                for version in stored.versions:
                    texts.extend(message_texts(version))
        return texts

    def requests_to(self, method: str, path_pattern: str) -> list[RecordedRequest]:
        """Recorded requests whose method matches and whose path matches the regex."""
        rx = re.compile(path_pattern)
        return [r for r in self.requests if r.method == method and rx.search(r.path)]

    def ack_latencies(self) -> list[float]:
        """Seconds from dispatch to callback, for every acknowledged interaction so far."""
        return [r.ack_latency for r in self.interactions.values() if r.ack_latency is not None]

    def registered_commands(self, guild_id: int | None = None) -> list[JSON]:
        """The application commands registered globally (None) or for a guild."""
        return list(self.commands.get(guild_id, []))

    def command_paths(self, guild_id: int | None = None) -> set[str]:
        """Registered chat commands as "name", "name sub" and "name group sub" paths."""
        return _interactions.command_paths(self.commands.get(guild_id, []))

    def is_ephemeral(self, message: JSON) -> bool:
        return bool(int(message.get("flags", 0)) & FLAG_EPHEMERAL)
