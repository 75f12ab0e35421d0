"""The fake REST API under /api/v10: a small router, request recording and the plain routes.

Interaction callbacks and webhook (followup) routes live in ``callbacks.py``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import callbacks
from .messages import UploadedFile, create_message, delete_message, edit_message
from .models import JSON, FakeChannel, StoredMessage, channel_payload, guild_payload, member_payload
from .records import RecordedRequest

if TYPE_CHECKING:
    from .server import FakeDiscord


class HttpError(Exception):
    """An error answer in Discord's shape: ``{"code": ..., "message": ...}``."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def not_found(code: int, what: str) -> HttpError:
    return HttpError(404, code, f"Unknown {what}")


@dataclass
class Ctx:
    """One parsed request: route parameters, JSON body (or payload_json), uploaded files."""

    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    files: list[UploadedFile] = field(default_factory=list)

    def int_param(self, name: str) -> int:
        return int(self.params[name])

    @property
    def json(self) -> JSON:
        return self.body if isinstance(self.body, dict) else {}


Result = tuple[int, Any]
Handler = Callable[[Ctx], Awaitable[Result]]


def json_response(status: int, body: Any) -> web.Response:
    """A response whose Content-Type is exactly ``application/json`` (discord.py needs that)."""
    if status == 204:
        return web.Response(status=204)
    return web.Response(
        status=status,
        body=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )


async def _parse_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    if request.content_type.startswith("multipart/"):
        reader = await request.multipart()
        body: Any = None
        files: list[UploadedFile] = []
        while True:
            part = await reader.next()
            if part is None:
                break
            name = getattr(part, "name", None) or ""
            raw = await part.read()  # type: ignore[union-attr]
            if name == "payload_json":
                body = json.loads(raw)
            else:
                match = re.fullmatch(r"files\[(\d+)\]|file(\d*)", name)
                index = 0
                if match is not None:
                    index = int(match.group(1) or match.group(2) or 0)
                files.append(
                    UploadedFile(
                        index=index,
                        filename=getattr(part, "filename", None) or f"file{index}",
                        content_type=part.headers.get("Content-Type", "application/octet-stream"),
                        content=bytes(raw),
                    )
                )
        return body, files
    raw_text = await request.text()
    if not raw_text:
        return None, []
    return json.loads(raw_text), []


class RestApi:
    """Routes requests to handlers and records each one on the fake."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.routes: list[tuple[str, re.Pattern[str], Handler]] = []
        s = r"(?P<{}>\d+)"
        ch, msg, gid, uid = s.format("cid"), s.format("mid"), s.format("gid"), s.format("uid")
        app, cmd = s.format("app"), s.format("cmd")
        add = self._add
        add("GET", "/users/@me", self.get_me)
        add("GET", f"/users/{uid}", self.get_user)
        add("POST", "/users/@me/channels", self.open_dm)
        add("GET", "/gateway", self.get_gateway)
        add("GET", "/gateway/bot", self.get_gateway_bot)
        add("GET", "/applications/@me", self.get_application)
        add("GET", "/oauth2/applications/@me", self.get_application)
        add("GET", f"/applications/{app}/emojis", self.empty_items)
        add("GET", f"/applications/{app}/entitlements", self.empty_list)
        for scope in ("", f"/guilds/{gid}"):
            base = f"/applications/{app}{scope}/commands"
            add("GET", base, self.get_commands)
            add("PUT", base, self.put_commands)
            add("POST", base, self.post_command)
            add("GET", f"{base}/{cmd}", self.get_command)
            add("PATCH", f"{base}/{cmd}", self.patch_command)
            add("DELETE", f"{base}/{cmd}", self.delete_command)
        add("GET", f"/applications/{app}/guilds/{gid}/commands/permissions", self.empty_list)
        add("GET", f"/channels/{ch}", self.get_channel)
        add("GET", f"/channels/{ch}/messages", self.get_history)
        add("POST", f"/channels/{ch}/messages", self.post_message)
        add("GET", f"/channels/{ch}/messages/pins", self.get_pins)
        add("GET", f"/channels/{ch}/pins", self.empty_list)
        for verb in ("PUT", "DELETE"):
            add(verb, f"/channels/{ch}/messages/pins/{msg}", self.pin)
            add(verb, f"/channels/{ch}/pins/{msg}", self.pin)
        add("GET", f"/channels/{ch}/messages/{msg}", self.get_message)
        add("PATCH", f"/channels/{ch}/messages/{msg}", self.patch_message)
        add("DELETE", f"/channels/{ch}/messages/{msg}", self.delete_message)
        add("POST", f"/channels/{ch}/typing", self.no_content)
        reactions = f"/channels/{ch}/messages/{msg}/reactions"
        add("PUT", reactions + r"/[^/]+/@me", self.no_content)
        add("DELETE", reactions + r"/[^/]+/[^/]+", self.no_content)
        add("DELETE", reactions + r"(/[^/]+)?", self.no_content)
        add("GET", reactions + r"/[^/]+", self.empty_list)
        add("GET", f"/guilds/{gid}", self.get_guild)
        add("GET", f"/guilds/{gid}/channels", self.get_guild_channels)
        add("GET", f"/guilds/{gid}/roles", self.get_roles)
        add("GET", f"/guilds/{gid}/members", self.get_members)
        add("GET", f"/guilds/{gid}/members/{uid}", self.get_member)
        callbacks.register(self)

    def _add(self, method: str, pattern: str, handler: Handler) -> None:
        self.routes.append((method, re.compile(pattern), handler))

    # ------------------------------------------------------------------ dispatch

    async def handle(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"].rstrip("/")
        return await self._dispatch(request, path)

    async def handle_outside_api(self, request: web.Request) -> web.StreamResponse:
        return await self._dispatch(request, request.path, known=False)

    async def _dispatch(
        self, request: web.Request, path: str, *, known: bool = True
    ) -> web.StreamResponse:
        fake = self.fake
        try:
            body, files = await _parse_body(request)
        except (ValueError, UnicodeDecodeError):
            body, files = None, []
        ctx = Ctx(request.method, path, {}, dict(request.query), body, files)
        handler: Handler | None = None
        for method, rx, candidate in self.routes if known else []:
            match = rx.fullmatch(path)
            if method == request.method and match is not None:
                handler = candidate
                ctx.params = {k: v for k, v in match.groupdict().items() if v is not None}
                break
        status: int
        payload: Any
        if handler is None:
            fake.unknown_routes.append(f"{request.method} {path}")
            status, payload = 404, {"message": "404: Not Found", "code": 0}
        elif not self._authorised(request, path):
            status, payload = 401, {"message": "401: Unauthorized", "code": 0}
        else:
            try:
                status, payload = await handler(ctx)
            except HttpError as err:
                status, payload = err.status, {"message": err.message, "code": err.code}
        fake.requests.append(
            RecordedRequest(
                method=request.method,
                path=path,
                query=ctx.query,
                json=body,
                status=status,
                at=time.monotonic(),
                files=tuple(f.filename for f in files),
            )
        )
        fake.notify()
        return json_response(status, payload)

    def _authorised(self, request: web.Request, path: str) -> bool:
        if path.startswith(("/webhooks/", "/interactions/")):
            return True
        return request.headers.get("Authorization") == f"Bot {self.fake.token}"

    # ------------------------------------------------------------------ lookups

    def channel(self, ctx: Ctx) -> FakeChannel:
        channel = self.fake.channels.get(ctx.int_param("cid"))
        if channel is None:
            raise not_found(10003, "Channel")
        return channel

    def channel_message(self, ctx: Ctx) -> StoredMessage:
        channel = self.channel(ctx)
        stored = self.fake.stored.get(ctx.int_param("mid"))
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
        return 200, {**self.fake.bot_user.payload(), "verified": True, "mfa_enabled": False}

    async def get_user(self, ctx: Ctx) -> Result:
        user = self.fake.users.get(ctx.int_param("uid"))
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
        return 200, {"url": self.fake.gateway_url, "shards": 1, "session_start_limit": limit}

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
            "flags": 0,
            "team": None,
            "bot": fake.bot_user.payload(),
            "interactions_endpoint_url": None,
        }

    # ------------------------------------------------------------------ application commands

    def _scope(self, ctx: Ctx) -> int | None:
        if int(ctx.params["app"]) != self.fake.application_id:
            raise not_found(10002, "Application")
        return int(ctx.params["gid"]) if "gid" in ctx.params else None

    def _with_id(self, scope: int | None, command: JSON) -> JSON:
        fake = self.fake
        key = (scope, str(command["name"]), int(command.get("type", 1)))
        cmd_id = fake.command_ids.setdefault(key, fake.ids.next())
        item: JSON = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            **command,
            "id": str(cmd_id),
            "application_id": str(fake.application_id),
            "version": str(fake.ids.next()),
        }
        if scope is not None:
            item["guild_id"] = str(scope)
        return item

    async def get_commands(self, ctx: Ctx) -> Result:
        return 200, self.fake.commands.get(self._scope(ctx), [])

    async def put_commands(self, ctx: Ctx) -> Result:
        scope = self._scope(ctx)
        body = ctx.body if isinstance(ctx.body, list) else []
        self.fake.commands[scope] = [self._with_id(scope, c) for c in body]
        self.fake.notify()
        return 200, self.fake.commands[scope]

    async def post_command(self, ctx: Ctx) -> Result:
        scope = self._scope(ctx)
        item = self._with_id(scope, ctx.json)
        existing = [c for c in self.fake.commands.get(scope, []) if c["id"] != item["id"]]
        self.fake.commands[scope] = [*existing, item]
        return 201, item

    def _find_command(self, ctx: Ctx) -> tuple[int | None, JSON]:
        scope = self._scope(ctx)
        for command in self.fake.commands.get(scope, []):
            if command["id"] == ctx.params["cmd"]:
                return scope, command
        raise not_found(10063, "application command")

    async def get_command(self, ctx: Ctx) -> Result:
        return 200, self._find_command(ctx)[1]

    async def patch_command(self, ctx: Ctx) -> Result:
        _scope, command = self._find_command(ctx)
        command.update({k: v for k, v in ctx.json.items() if k not in ("id", "application_id")})
        return 200, command

    async def delete_command(self, ctx: Ctx) -> Result:
        scope, command = self._find_command(ctx)
        self.fake.commands[scope] = [c for c in self.fake.commands[scope] if c is not command]
        return 204, None

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
        stored = create_message(fake, channel.id, ctx.json, files=ctx.files)
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
        guild = self.fake.guilds.get(ctx.int_param("gid"))
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
        uid = ctx.int_param("uid")
        if uid not in guild.member_ids:
            raise not_found(10007, "Member")
        return 200, member_payload(guild, self.fake.users[uid])
