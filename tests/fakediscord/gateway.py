"""The fake gateway: one websocket endpoint speaking the Discord gateway protocol (JSON, no zlib).

Ops handled: HELLO (10, sent), HEARTBEAT (1) -> ACK (11), IDENTIFY (2) -> READY + GUILD_CREATE per
guild of the shard, RESUME (6) -> replay of missed dispatches + RESUMED, REQUEST_GUILD_MEMBERS (8)
-> one GUILD_MEMBERS_CHUNK. A session outlives its socket so that a RESUME after a drop works; a
new IDENTIFY (e.g. a restarted bot process) starts a new session that becomes the live one of its
shard (see ``shards.py``). A bad shard closes with 4010, too many guilds on one with 4011.
"""

from __future__ import annotations

import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .models import guild_payload, member_payload
from .shards import CLOSE_INVALID_SHARD, CLOSE_SHARDING_REQUIRED, parse_shard, shard_of

if TYPE_CHECKING:
    from .server import FakeDiscord

JSON = dict[str, Any]

log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL_MS = 41_250
CLOSE_AUTHENTICATION_FAILED = 4004


@dataclass
class GatewaySession:
    """A gateway session: id, sequence counter, dispatched events (for replay) and its socket."""

    session_id: str
    ws: web.WebSocketResponse | None
    seq: int = 0
    sent: list[JSON] = field(default_factory=list)
    identify: JSON = field(default_factory=dict)
    shard_id: int = 0
    shard_count: int = 1

    def owns(self, guild_id: int) -> bool:
        """True when this session's shard receives the guild's events."""
        return shard_of(guild_id, self.shard_count) == self.shard_id

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed

    async def dispatch(self, event: str, data: JSON) -> None:
        """Send a DISPATCH (op 0) with the next sequence number (buffered while disconnected)."""
        self.seq += 1
        frame = {"op": 0, "t": event, "s": self.seq, "d": data}
        self.sent.append(frame)
        if self.connected:
            assert self.ws is not None
            await self.ws.send_str(json.dumps(frame))


async def _send(ws: web.WebSocketResponse, op: int, data: Any) -> None:
    await ws.send_str(json.dumps({"op": op, "d": data, "s": None, "t": None}))


def ready_payload(fake: FakeDiscord, session: GatewaySession) -> JSON:
    """The READY event body: user, the shard's unavailable guilds, session, resume url, app."""
    data: JSON = {
        "v": 10,
        "user": fake.bot_user.payload(),
        "guilds": [
            {"id": str(gid), "unavailable": True} for gid in fake.guilds if session.owns(gid)
        ],
        "session_id": session.session_id,
        "resume_gateway_url": fake.gateway_url,
        "application": {"id": str(fake.application_id), "flags": 0},
        "private_channels": [],
        "relationships": [],
        "presences": [],
        "user_settings": {},
        "guild_join_requests": [],
        "geo_ordered_rtc_regions": [],
        "_trace": ["fake-discord"],
    }
    if "shard" in session.identify:
        data["shard"] = [session.shard_id, session.shard_count]
    return data


async def _identify(
    fake: FakeDiscord, ws: web.WebSocketResponse, data: JSON
) -> GatewaySession | None:
    shard = parse_shard(data.get("shard"))
    if shard is None:
        await ws.close(code=CLOSE_INVALID_SHARD, message=b"Invalid shard.")
        return None
    shard_id, shard_count = shard
    owned = [g for g in fake.guilds.values() if shard_of(g.id, shard_count) == shard_id]
    if len(owned) > fake.max_guilds_per_shard:
        await ws.close(code=CLOSE_SHARDING_REQUIRED, message=b"Sharding required.")
        return None
    session = GatewaySession(
        session_id=secrets.token_hex(16),
        ws=ws,
        identify=data,
        shard_id=shard_id,
        shard_count=shard_count,
    )
    fake.sessions[session.session_id] = session
    fake.live_sessions.add(session)
    await session.dispatch("READY", ready_payload(fake, session))
    for guild in owned:
        await session.dispatch(
            "GUILD_CREATE", guild_payload(guild, fake.channels, fake.users, full=True)
        )
    fake.ready_count += 1
    fake.notify()
    return session


async def _resume(
    fake: FakeDiscord, ws: web.WebSocketResponse, data: JSON
) -> GatewaySession | None:
    session = fake.sessions.get(str(data.get("session_id")))
    if session is None:
        await _send(ws, 9, False)  # INVALID_SESSION, not resumable
        return None
    if session.ws is not None and not session.ws.closed and session.ws is not ws:
        await session.ws.close(code=4000)
    session.ws = ws
    last_seen = data.get("seq") or 0
    for frame in session.sent:
        if frame["s"] > last_seen:
            await ws.send_str(json.dumps(frame))
    await session.dispatch("RESUMED", {})
    fake.resume_count += 1
    fake.notify()
    return session


async def _members_chunk(session: GatewaySession, fake: FakeDiscord, data: JSON) -> None:
    guild = fake.guilds.get(int(data.get("guild_id", 0)))
    if guild is None or not session.owns(guild.id):
        return
    wanted = {int(u) for u in data.get("user_ids") or []}
    members = [
        member_payload(guild, fake.users[uid], with_user=True)
        for uid in guild.member_ids
        if not wanted or uid in wanted
    ]
    chunk: JSON = {
        "guild_id": str(guild.id),
        "members": members,
        "chunk_index": 0,
        "chunk_count": 1,
        "not_found": [],
    }
    if data.get("nonce") is not None:
        chunk["nonce"] = data["nonce"]
    await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)


async def handle_gateway(fake: FakeDiscord, request: web.Request) -> web.WebSocketResponse:
    """aiohttp handler for the gateway websocket."""
    ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
    await ws.prepare(request)
    fake.open_sockets.add(ws)
    session: GatewaySession | None = None
    try:
        await _send(ws, 10, {"heartbeat_interval": HEARTBEAT_INTERVAL_MS, "_trace": ["fake"]})
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            frame = json.loads(msg.data)
            op, data = frame.get("op"), frame.get("d")
            if op == 2 and isinstance(data, dict):
                frame = {"op": 2, "d": {**data, "token": "<hidden>"}}
            fake.gateway_log.append(frame)
            if op == 1:
                await _send(ws, 11, None)
            elif op == 2:
                if data.get("token") != fake.token:
                    await ws.close(code=CLOSE_AUTHENTICATION_FAILED, message=b"bad token")
                    break
                session = await _identify(fake, ws, data)
                if session is None:
                    break
            elif op == 6:
                session = await _resume(fake, ws, data)
            elif op == 8 and session is not None:
                await _members_chunk(session, fake, data)
            # ops 3 (presence) and 4 (voice state) are accepted and ignored
    finally:
        fake.open_sockets.discard(ws)
        if session is not None and session.ws is ws:
            session.ws = None
        fake.notify()
    return ws
