"""The fake REST API under /api/v10: the plain routes and their handlers.

The request pipeline (routing, limits, faults, recording) is ``router.py``; interaction
callbacks and webhook (followup) routes live in ``callbacks.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import callbacks
from .commands import EMBEDDED
from .messages import create_message, delete_message, edit_message
from .models import (
    ATTACH_FILES,
    SEND_MESSAGES,
    VIEW_CHANNEL,
    FakeChannel,
    StoredMessage,
    bot_permissions_in,
    channel_payload,
    guild_payload,
    member_payload,
)
from .posting import Holds, Nonces
from .router import Ctx, HttpError, Result, Router, not_found

if TYPE_CHECKING:
    from .server import FakeDiscord


class RestApi(Router):
    """The route table of the fake REST API (templates use Discord's parameter names)."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__(fake)
        add = self._add
        add("GET", "/users/@me", self.get_me)
        add("POST", "/oauth2/token", self.fake.activities.token)
        add(
            "GET",
            "/applications/{application_id}/activity-instances/{instance_id}",
            self.fake.activities.instance,
        )
        add("POST", "/applications/{application_id}/attachment", self.fake.activities.upload)
        add("GET", "/users/{user_id}", self.get_user)
        add("POST", "/users/@me/channels", self.open_dm)
        add("GET", "/gateway", self.get_gateway)
        add("GET", "/gateway/bot", self.get_gateway_bot)
        add("GET", "/applications/@me", self.get_application)
        add("GET", "/oauth2/applications/@me", self.get_application)
        add("GET", "/applications/{application_id}/emojis", self.empty_items)
        add("GET", "/applications/{application_id}/entitlements", self.empty_list)
        self.fake.application_commands.register(add)
        add(
            "GET",
            "/applications/{application_id}/guilds/{guild_id}/commands/permissions",
            self.empty_list,
        )
        channel, message = "/channels/{channel_id}", "/channels/{channel_id}/messages/{message_id}"
        add("GET", channel, self.get_channel)
        add("GET", f"{channel}/messages", self.get_history)
        add("POST", f"{channel}/messages", self.post_message)
        add("GET", f"{channel}/messages/pins", self.get_pins)
        add("GET", f"{channel}/pins", self.empty_list)
        for verb in ("PUT", "DELETE"):
            add(verb, f"{channel}/messages/pins/{{message_id}}", self.pin)
            add(verb, f"{channel}/pins/{{message_id}}", self.pin)
        add("GET", message, self.get_message)
        add("PATCH", message, self.patch_message)
        add("DELETE", message, self.delete_message)
        add("POST", f"{channel}/typing", self.no_content)
        reactions = f"{message}/reactions"
        add("PUT", reactions + "/{emoji}/{reaction_user}", self.no_content)
        add("DELETE", reactions + "/{emoji}/{reaction_user}", self.no_content)
        add("DELETE", reactions + "/{emoji}", self.no_content)
        add("DELETE", reactions, self.no_content)
        add("GET", reactions + "/{emoji}", self.empty_list)
        guild = "/guilds/{guild_id}"
        add("GET", guild, self.get_guild)
        add("GET", f"{guild}/channels", self.get_guild_channels)
        add("GET", f"{guild}/roles", self.get_roles)
        add("GET", f"{guild}/members", self.get_members)
        add("GET", f"{guild}/members/{{user_id}}", self.get_member)
        callbacks.register(self)

    # ------------------------------------------------------------------ lookups

    def channel(self, ctx: Ctx) -> FakeChannel:
        """The path's channel; a guild channel the bot cannot see answers 50001."""
        channel = self.fake.channels.get(ctx.int_param("channel_id"))
        if channel is None:
            raise not_found(10003, "Channel")
        if channel.guild_id is not None and not self.bot_may(channel, VIEW_CHANNEL):
            raise HttpError(403, 50001, "Missing Access")
        return channel

    def bot_may(self, channel: FakeChannel, permissions: int) -> bool:
        return bot_permissions_in(channel, self.fake.bot_user.id) & permissions == permissions

    def channel_message(self, ctx: Ctx) -> StoredMessage:
        channel = self.channel(ctx)
        stored = self.fake.stored.get(ctx.int_param("message_id"))
        if (
            stored is None
            or stored.deleted
            or stored.channel_id != channel.id
            or stored.ephemeral_to is not None
        ):
            raise not_found(10008, "Message")
        return stored

    # ------------------------------------------------------------------ simple routes

    async def no_content(self, ctx: Ctx) -> Result:
        return 204, None

    async def empty_list(self, ctx: Ctx) -> Result:
        return 200, []

    async def empty_items(self, ctx: Ctx) -> Result:
        return 200, {"items": []}

    async def get_me(self, ctx: Ctx) -> Result:
        user_id = self.fake.activities.bearer_user(ctx.authorization)
        if user_id is not None:  # an Activity's user, by their OAuth2 token ("identify")
            user = self.fake.users[user_id]
            return 200, {**user.payload(), "locale": user.locale}
        return 200, {**self.fake.bot_user.payload(), "verified": True, "mfa_enabled": False}

    async def get_user(self, ctx: Ctx) -> Result:
        user = self.fake.users.get(ctx.int_param("user_id"))
        if user is None:
            raise not_found(10013, "User")
        return 200, user.payload()

    def dm_channel(self, user_id: int) -> int:
        """The DM channel id for a user, created on first use (one per user)."""
        fake = self.fake
        cid = fake.dm_channels.get(user_id)
        if cid is None:
            cid = fake.ids.next()
            fake.channels[cid] = FakeChannel(id=cid, name="", guild_id=None, recipient_id=user_id)
            fake.channel_messages[cid] = []
            fake.dm_channels[user_id] = cid
        return cid

    async def open_dm(self, ctx: Ctx) -> Result:
        uid = int(ctx.json.get("recipient_id", 0))
        if uid not in self.fake.users:
            raise HttpError(400, 50035, "Invalid Form Body")
        return 200, channel_payload(self.fake.channels[self.dm_channel(uid)], self.fake.users)

    async def get_gateway(self, ctx: Ctx) -> Result:
        return 200, {"url": self.fake.gateway_url}

    async def get_gateway_bot(self, ctx: Ctx) -> Result:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        shards = self.fake.gateway_shards()
        return 200, {"url": self.fake.gateway_url, "shards": shards, "session_start_limit": limit}

    async def get_application(self, ctx: Ctx) -> Result:
        fake = self.fake
        return 200, {
            "id": str(fake.application_id),
            "name": fake.bot_user.name,
            "description": "",
            "icon": None,
            "bot_public": False,
            "bot_require_code_grant": False,
            "owner": fake.owner.payload(),
            "verify_key": "0" * 64,
            "flags": EMBEDDED if fake.application_commands.activities_enabled else 0,
            "team": None,
            "bot": fake.bot_user.payload(),
            "interactions_endpoint_url": None,
        }

    # ------------------------------------------------------------------ channels and messages

    async def get_channel(self, ctx: Ctx) -> Result:
        return 200, channel_payload(self.channel(ctx), self.fake.users)

    async def get_history(self, ctx: Ctx) -> Result:
        channel = self.channel(ctx)
        limit = max(1, min(100, int(ctx.query.get("limit", 50))))
        msgs = self.fake.messages(channel.id)
        before, after = ctx.query.get("before"), ctx.query.get("after")
        around = ctx.query.get("around")
        if before:
            msgs = [m for m in msgs if int(m["id"]) < int(before)]
        if after:
            msgs = [m for m in msgs if int(m["id"]) > int(after)]
            return 200, list(reversed(msgs[:limit]))
        if around:
            older = [m for m in msgs if int(m["id"]) <= int(around)][-(limit // 2 + 1) :]
            newer = [m for m in msgs if int(m["id"]) > int(around)][: limit - len(older)]
            return 200, list(reversed(older + newer))
        return 200, list(reversed(msgs[-limit:]))

    async def post_message(self, ctx: Ctx) -> Result:
        fake = self.fake
        channel = self.channel(ctx)
        if channel.recipient_id is not None and not fake.users[channel.recipient_id].dms_open:
            fake.blocked_dm_attempts.append(channel.recipient_id)
            raise HttpError(403, 50007, "Cannot send messages to this user")
        if channel.guild_id is not None:
            needed = SEND_MESSAGES | (ATTACH_FILES if ctx.files else 0)
            if not self.bot_may(channel, needed):
                raise HttpError(403, 50013, "Missing Permissions")
        body = ctx.json
        refused = Nonces.refused(body)
        if refused is not None:
            raise HttpError(400, 50035, f"Invalid Form Body ({refused})")
        hold = fake.holds.take(channel.id, body)
        await Holds.wait(hold, after_create=False)
        earlier = fake.nonces.earlier(fake.bot_user.id, body)
        if earlier is not None and earlier in fake.stored:
            return 200, fake.stored[earlier].data  # Discord's answer to an enforced nonce
        stored = create_message(fake, channel.id, body, files=ctx.files)
        fake.nonces.created(fake.bot_user.id, body, stored.id)
        await Holds.wait(hold, after_create=True)
        return 200, stored.data

    async def get_message(self, ctx: Ctx) -> Result:
        return 200, self.channel_message(ctx).data

    async def patch_message(self, ctx: Ctx) -> Result:
        stored = edit_message(self.fake, self.channel_message(ctx), ctx.json, ctx.files)
        return 200, stored.data

    async def delete_message(self, ctx: Ctx) -> Result:
        delete_message(self.fake, self.channel_message(ctx))
        return 204, None

    async def get_pins(self, ctx: Ctx) -> Result:
        channel = self.channel(ctx)
        pinned = [m for m in self.fake.messages(channel.id) if m.get("pinned")]
        items = [{"pinned_at": m["timestamp"], "message": m} for m in reversed(pinned)]
        return 200, {"items": items, "has_more": False}

    async def pin(self, ctx: Ctx) -> Result:
        stored = self.channel_message(ctx)
        stored.data["pinned"] = ctx.method == "PUT"
        return 204, None

    # ------------------------------------------------------------------ guilds

    def _guild(self, ctx: Ctx) -> Any:
        guild = self.fake.guilds.get(ctx.int_param("guild_id"))
        if guild is None:
            raise not_found(10004, "Guild")
        return guild

    async def get_guild(self, ctx: Ctx) -> Result:
        guild = self._guild(ctx)
        data = guild_payload(guild, self.fake.channels, self.fake.users, full=False)
        if ctx.query.get("with_counts") in ("true", "True", "1"):
            data["approximate_member_count"] = len(guild.member_ids)
            data["approximate_presence_count"] = len(guild.member_ids)
        return 200, data

    async def get_guild_channels(self, ctx: Ctx) -> Result:
        guild = self._guild(ctx)
        fake = self.fake
        return 200, [channel_payload(fake.channels[c], fake.users) for c in guild.channel_ids]

    async def get_roles(self, ctx: Ctx) -> Result:
        return 200, self._guild(ctx).roles_payload()

    async def get_members(self, ctx: Ctx) -> Result:
        guild = self._guild(ctx)
        limit = int(ctx.query.get("limit", 1))
        members = [member_payload(guild, self.fake.users[u]) for u in guild.member_ids]
        return 200, members[:limit]

    async def get_member(self, ctx: Ctx) -> Result:
        guild = self._guild(ctx)
        uid = ctx.int_param("user_id")
        if uid not in guild.member_ids:
            raise not_found(10007, "Member")
        return 200, member_payload(guild, self.fake.users[uid])
