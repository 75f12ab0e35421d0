"""Building and changing the fake's world: guilds (on a chosen shard), channels, users, their
locales, and what users and moderators do outside interactions (delete a message, close DMs).

Changes after a bot identified are dispatched to the connection of the shard that owns them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from .gateway import GatewaySession
from .models import (
    DEFAULT_LOCALE,
    JSON,
    FakeChannel,
    FakeGuild,
    FakeUser,
    Snowflakes,
    StoredMessage,
    channel_payload,
    check_locale,
    guild_payload,
    member_payload,
)
from .shards import LiveSessions

# Gateway intents (bits of IDENTIFY's ``intents``) that message events need.
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12


class WorldMixin:
    """World-building part of ``FakeDiscord`` (the state it changes is FakeDiscord's)."""

    ids: Snowflakes
    bot_user: FakeUser
    owner: FakeUser
    users: dict[int, FakeUser]
    guilds: dict[int, FakeGuild]
    channels: dict[int, FakeChannel]
    channel_messages: dict[int, list[int]]
    stored: dict[int, StoredMessage]
    live_sessions: LiveSessions
    _tasks: set[asyncio.Task[None]]

    def notify(self) -> None:
        raise NotImplementedError

    def add_guild(
        self, name: str, *, shard: tuple[int, int] | None = None, locale: str = DEFAULT_LOCALE
    ) -> int:
        """Create a guild (the bot and the server owner are members). Returns its id.

        ``shard=(shard_id, shard_count)``: pick an id that lands on that shard, i.e.
        ``(guild_id >> 22) % shard_count == shard_id``. ``locale``: the server's
        ``preferred_locale`` (interactions' ``guild_locale``).
        """
        gid = self.ids.next() if shard is None else self.ids.next_on_shard(*shard)
        guild = FakeGuild(
            id=gid,
            name=name,
            owner_id=self.owner.id,
            manager_role_id=self.ids.next(),
            bot_role_id=self.ids.next(),
            locale=check_locale(locale),
        )
        guild.member_ids.extend([self.bot_user.id, self.owner.id])
        self.guilds[gid] = guild
        self._push(
            gid, "GUILD_CREATE", lambda: guild_payload(guild, self.channels, self.users, full=True)
        )
        return gid

    def add_channel(self, guild_id: int, name: str) -> int:
        """Create a text channel in a guild. Returns its id."""
        cid = self.ids.next()
        channel = FakeChannel(id=cid, name=name, guild_id=guild_id)
        self.channels[cid] = channel
        self.channel_messages[cid] = []
        self.guilds[guild_id].channel_ids.append(cid)
        self._push(guild_id, "CHANNEL_CREATE", lambda: channel_payload(channel, self.users))
        return cid

    def add_user(
        self,
        name: str,
        *,
        dms_open: bool = True,
        manage_guild: bool = False,
        guild_ids: list[int] | None = None,
        locale: str = DEFAULT_LOCALE,
    ) -> int:
        """Create a user, member of ``guild_ids`` (default: every guild). Returns the user id.

        ``dms_open=False``: the bot's DMs to this user fail with 403 / code 50007.
        ``manage_guild=True``: the member has the Manage Server permission (via a role).
        ``locale``: the user's Discord language (interactions' ``locale``).
        """
        uid = self.ids.next()
        user = FakeUser(
            id=uid,
            name=name,
            dms_open=dms_open,
            manage_guild=manage_guild,
            locale=check_locale(locale),
        )
        self.users[uid] = user
        for gid in self.guilds if guild_ids is None else guild_ids:
            guild = self.guilds[gid]
            guild.member_ids.append(uid)

            def member(guild: FakeGuild = guild) -> JSON:
                return {**member_payload(guild, user), "guild_id": str(guild.id)}

            self._push(gid, "GUILD_MEMBER_ADD", member)
        return uid

    def join_guild(self, user_id: int, guild_id: int) -> None:
        """An existing user joins a guild (GUILD_MEMBER_ADD on the guild's shard)."""
        guild, user = self.guilds[guild_id], self.users[user_id]
        if user_id in guild.member_ids:
            return
        guild.member_ids.append(user_id)
        self._push(
            guild_id,
            "GUILD_MEMBER_ADD",
            lambda: {**member_payload(guild, user), "guild_id": str(guild_id)},
        )

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

    def set_user_locale(self, user_id: int, locale: str) -> None:
        """The user switches Discord's language: later interactions carry ``locale``."""
        self.users[user_id].locale = check_locale(locale)

    def set_guild_locale(self, guild_id: int, locale: str) -> None:
        """The server's preferred locale changes (GUILD_UPDATE; ``guild_locale`` from now on)."""
        guild = self.guilds[guild_id]
        guild.locale = check_locale(locale)
        self._push(
            guild_id,
            "GUILD_UPDATE",
            lambda: guild_payload(guild, self.channels, self.users, full=False),
        )

    def set_bot_permissions(
        self, channel_id: int, *, deny: int = 0, allow: int = 0, event: bool = True
    ) -> None:
        """A moderator changes what the bot may do in a guild channel (a member overwrite for
        the bot; ``deny=0, allow=0`` removes it): CHANNEL_UPDATE is sent (not with
        ``event=False``: as if the bot missed it), later requests are refused as Discord
        refuses them (``rest.py``), and interactions from the channel carry the new
        ``app_permissions``."""
        channel = self.channels[channel_id]
        assert channel.guild_id is not None, "DM channels have no permissions to change"
        bot = str(self.bot_user.id)
        channel.overwrites = [o for o in channel.overwrites if o["id"] != bot]
        if deny or allow:
            overwrite = {"id": bot, "type": 1, "allow": str(allow), "deny": str(deny)}
            channel.overwrites.append(overwrite)
        if event:
            self._push(
                channel.guild_id, "CHANNEL_UPDATE", lambda: channel_payload(channel, self.users)
            )

    def delete_message(self, message_id: int) -> None:
        """A user or moderator deletes a message: MESSAGE_DELETE, later edits get 10008."""
        stored = self.stored[message_id]
        if stored.deleted:
            return
        stored.deleted = True
        self.message_event("MESSAGE_DELETE", stored)
        self.notify()

    def message_event(self, event: str, stored: StoredMessage) -> None:
        """MESSAGE_CREATE, MESSAGE_UPDATE (the whole message) or MESSAGE_DELETE, as Discord
        sends them to every connection that can see the channel, the message's author
        included: only with the intent for the channel's kind, never for an ephemeral one."""
        if stored.ephemeral_to is not None:
            return
        guild_id = self.channels[stored.channel_id].guild_id
        data: JSON = {"id": str(stored.id), "channel_id": str(stored.channel_id)}
        if event != "MESSAGE_DELETE":
            data = dict(stored.data)
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        intent = DIRECT_MESSAGES if guild_id is None else GUILD_MESSAGES
        self._push(guild_id, event, lambda: data, intent=intent)

    def _push(
        self, guild_id: int | None, event: str, build: Callable[[], JSON], *, intent: int = 0
    ) -> None:
        """Dispatch a world change to the session of the shard owning it (DMs: shard 0), if
        that session asked for ``intent`` (0: sent whatever it asked for).

        A session awaiting a RESUME buffers it; without any session the change only shows in
        the next IDENTIFY's GUILD_CREATE.
        """
        sessions = self.live_sessions
        session: GatewaySession | None
        session = sessions.for_dm() if guild_id is None else sessions.for_guild(guild_id)
        if session is None:
            return
        if intent and not int(session.identify.get("intents") or 0) & intent:
            return
        task = asyncio.get_running_loop().create_task(session.dispatch(event, build()))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
