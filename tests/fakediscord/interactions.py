"""Building INTERACTION_CREATE payloads (slash commands, component clicks, modal submits) the way
Discord does, and delivering them to the bot's live gateway session."""

from __future__ import annotations

import asyncio
import copy
import secrets
import time
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .components import component_by_custom_id, find_button
from .models import (
    ATTACHMENT_SIZE_LIMIT,
    BOT_PERMISSIONS,
    JSON,
    bot_permissions_in,
    channel_payload,
    member_payload,
    permissions_of,
)
from .records import InteractionRecord

if TYPE_CHECKING:
    from .gateway import GatewaySession
    from .server import FakeDiscord

APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
MODAL_SUBMIT = 5

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
# Select component type -> the option type whose resolved data it carries.
SELECT_OPTION_TYPE = MappingProxyType({5: USER, 6: ROLE, 7: MENTIONABLE, 8: CHANNEL})


def command_paths(commands: list[JSON]) -> set[str]:
    """ "name", "name sub", "name group sub" for every chat-input command in a tree."""
    paths: set[str] = set()

    def walk(prefix: str, options: list[JSON]) -> None:
        subs = [o for o in options if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        if not subs:
            paths.add(prefix)
        for sub in subs:
            walk(f"{prefix} {sub['name']}", sub.get("options") or [])

    for command in commands:
        if command.get("type", 1) == 1:
            walk(command["name"], command.get("options") or [])
    return paths


def _base_payload(
    fake: FakeDiscord, itype: int, iid: int, token: str, user_id: int, channel_id: int
) -> JSON:
    channel = fake.channels[channel_id]
    user = fake.users[user_id]
    data: JSON = {
        "id": str(iid),
        "application_id": str(fake.application_id),
        "type": itype,
        "token": token,
        "version": 1,
        "channel_id": str(channel_id),
        "channel": channel_payload(channel, fake.users),
        "app_permissions": str(BOT_PERMISSIONS),  # in a guild channel: the channel's, below
        "locale": user.locale,
        "entitlements": [],
        "authorizing_integration_owners": {},
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    if channel.guild_id is not None:
        guild = fake.guilds[channel.guild_id]
        if user_id not in guild.member_ids:
            raise LookupError(f"user {user.name} is not a member of guild {guild.name}")
        data["channel"]["permissions"] = str(permissions_of(guild, user))
        data["app_permissions"] = str(bot_permissions_in(channel, fake.bot_user.id))
        data.update(
            {
                "guild_id": str(guild.id),
                "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
                "guild_locale": guild.locale,
                "member": member_payload(guild, user),
                "context": 0,
            }
        )
    else:
        if channel.recipient_id != user_id:
            raise LookupError(f"user {user.name} cannot see DM channel {channel_id}")
        data.update({"user": user.payload(), "context": 1})
    return data


def _require_connection(fake: FakeDiscord, channel_id: int) -> GatewaySession:
    """The connected session that receives events of a channel (its guild's shard, or 0)."""
    session = fake.session_for_channel(channel_id)
    if session is None or not session.connected:
        guild_id = fake.channels[channel_id].guild_id
        where = "shard 0 (DMs)" if guild_id is None else f"the shard of guild {guild_id}"
        raise RuntimeError(f"the bot is not connected to the fake gateway on {where}")
    return session


async def _deliver(
    fake: FakeDiscord,
    payload: JSON,
    kind: str,
    user_id: int,
    channel_id: int,
    source_message_id: int | None,
) -> InteractionRecord:
    # Over HTTP, Discord POSTs the interaction whether or not a gateway session is up.
    session = _require_connection(fake, channel_id) if fake.endpoint is None else None
    channel = fake.channels[channel_id]
    rec = InteractionRecord(
        id=int(payload["id"]),
        token=str(payload["token"]),
        kind=kind,
        user_id=user_id,
        channel_id=channel_id,
        guild_id=channel.guild_id,
        payload=payload,
        source_message_id=source_message_id,
        _lookup=fake.message,
        shard_id=None if session is None else session.shard_id,
    )
    fake.interactions[rec.id] = rec
    fake.interactions_by_token[rec.token] = rec
    rec.sent_at = time.monotonic()
    if fake.delivery_delay > 0:
        await asyncio.sleep(fake.delivery_delay)
    if session is not None:
        await session.dispatch("INTERACTION_CREATE", payload)
        return rec
    assert fake.endpoint is not None
    status, text = await fake.endpoint.post(payload)
    if status != 202:
        raise RuntimeError(f"the bot's endpoint answered {status} {text!r} to {kind} {rec.id}")
    return rec


def _new_ids(fake: FakeDiscord) -> tuple[int, str]:
    iid = fake.ids.next()
    return iid, f"itok.{iid}.{secrets.token_urlsafe(12)}"


def _find_command(fake: FakeDiscord, guild_id: int | None, name: str) -> tuple[JSON, bool]:
    scopes: list[int | None] = [guild_id, None] if guild_id is not None else [None]
    for scope in scopes:
        for command in fake.commands.get(scope, []):
            if command["name"] == name and command.get("type", 1) == 1:
                return command, scope is not None
    known = sorted(command_paths([c for s in scopes for c in fake.commands.get(s, [])]))
    raise LookupError(f"no registered command /{name}; registered: {known}")


def _option_value(
    fake: FakeDiscord, guild_id: int | None, spec: JSON, value: Any, resolved: JSON
) -> Any:
    otype = int(spec["type"])
    if otype == STRING:
        result: Any = str(value)
    elif otype == INTEGER:
        result = int(value)
    elif otype == BOOLEAN:
        result = bool(value)
    elif otype == NUMBER:
        result = float(value)
    elif otype in (USER, MENTIONABLE) and int(value) in fake.users:
        user = fake.users[int(value)]
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        if guild_id is not None and user.id in fake.guilds[guild_id].member_ids:
            member = member_payload(fake.guilds[guild_id], user, with_user=False)
            resolved.setdefault("members", {})[str(user.id)] = member
        result = str(user.id)
    elif otype == CHANNEL and int(value) in fake.channels:
        channel = channel_payload(fake.channels[int(value)], fake.users)
        channel["permissions"] = str(BOT_PERMISSIONS)
        resolved.setdefault("channels", {})[str(value)] = channel
        result = str(value)
    elif otype in (ROLE, MENTIONABLE) and guild_id is not None:
        roles = {r["id"]: r for r in fake.guilds[guild_id].roles_payload()}
        if str(value) not in roles:
            raise LookupError(f"unknown role {value}")
        resolved.setdefault("roles", {})[str(value)] = roles[str(value)]
        result = str(value)
    else:
        raise LookupError(f"cannot send option {spec['name']!r} of type {otype} = {value!r}")
    choices = spec.get("choices")
    if choices and result not in [c["value"] for c in choices]:
        raise LookupError(f"{result!r} is not a choice of option {spec['name']!r}")
    return result


async def slash(
    fake: FakeDiscord, user_id: int, channel_id: int, command: str, options: dict[str, Any]
) -> InteractionRecord:
    """Build and deliver a CHAT_INPUT application command interaction."""
    if fake.endpoint is None:
        _require_connection(fake, channel_id)
    tokens = command.strip().lstrip("/").split()
    guild_id = fake.channels[channel_id].guild_id
    top, is_guild_command = _find_command(fake, guild_id, tokens[0])
    required = top.get("default_member_permissions")
    if required is not None and guild_id is not None:
        has = permissions_of(fake.guilds[guild_id], fake.users[user_id])
        if has & int(required) != int(required) and fake.guilds[guild_id].owner_id != user_id:
            raise PermissionError(f"/{tokens[0]} is hidden from {fake.users[user_id].name}")
    chain: list[JSON] = []
    node = top
    for token in tokens[1:]:
        subs = [
            o
            for o in node.get("options") or []
            if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) and o["name"] == token
        ]
        if not subs:
            raise LookupError(f"/{' '.join(tokens)}: no subcommand {token!r}")
        node = subs[0]
        chain.append(node)
    specs = node.get("options") or []
    if any(o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in specs):
        raise LookupError(f"/{' '.join(tokens)} needs a subcommand")
    by_name = {o["name"]: o for o in specs}
    resolved: JSON = {}
    values: list[JSON] = []
    for name, value in options.items():
        if name not in by_name:
            raise LookupError(f"/{' '.join(tokens)} has no option {name!r}: {sorted(by_name)}")
        spec = by_name[name]
        converted = _option_value(fake, guild_id, spec, value, resolved)
        values.append({"name": name, "type": spec["type"], "value": converted})
    missing = [o["name"] for o in specs if o.get("required") and o["name"] not in options]
    if missing:
        raise LookupError(f"/{' '.join(tokens)}: missing required options {missing}")
    nested = values
    for sub in reversed(chain):
        nested = [{"name": sub["name"], "type": sub["type"], "options": nested}]
    data: JSON = {"id": top["id"], "name": top["name"], "type": 1, "options": nested}
    if resolved:
        data["resolved"] = resolved
    if is_guild_command:
        data["guild_id"] = str(guild_id)
    iid, token = _new_ids(fake)
    payload = _base_payload(fake, APPLICATION_COMMAND, iid, token, user_id, channel_id)
    payload["data"] = data
    return await _deliver(fake, payload, "slash", user_id, channel_id, None)


async def unregistered_command(
    fake: FakeDiscord, user_id: int, channel_id: int, name: str, options: list[JSON]
) -> InteractionRecord:
    """A CHAT_INPUT command as sent, without checking the registered tree: what a client
    whose command list predates the bot's last sync (or a forged client) sends."""
    if fake.endpoint is None:
        _require_connection(fake, channel_id)
    iid, token = _new_ids(fake)
    payload = _base_payload(fake, APPLICATION_COMMAND, iid, token, user_id, channel_id)
    payload["data"] = {"id": str(fake.ids.next()), "name": name, "type": 1, "options": options}
    return await _deliver(fake, payload, "slash", user_id, channel_id, None)


async def _settle(fake: FakeDiscord, message_id: int) -> None:
    """discord.py attaches a view only after the HTTP call creating the message returned."""
    stored = fake.stored[message_id]
    wait = stored.last_write + fake.click_settle - time.monotonic()
    if wait > 0:
        await asyncio.sleep(wait)


async def component(
    fake: FakeDiscord,
    user_id: int,
    message_id: int,
    custom_id: str,
    values: list[str] | None,
    force: bool,
) -> InteractionRecord:
    """Build and deliver a MESSAGE_COMPONENT interaction (button if values is None)."""
    stored = fake.stored.get(message_id)
    if stored is not None and fake.endpoint is None:
        _require_connection(fake, stored.channel_id)
    if stored is not None:
        await _settle(fake, message_id)
    payload = component_payload(fake, user_id, message_id, custom_id, values, force)
    kind = "button" if values is None else "select"
    return await _deliver(fake, payload, kind, user_id, int(payload["channel_id"]), message_id)


def component_payload(
    fake: FakeDiscord,
    user_id: int,
    message_id: int,
    custom_id: str,
    values: list[str] | None = None,
    force: bool = False,
) -> JSON:
    """The MESSAGE_COMPONENT interaction a click makes (a select's if ``values``), not sent."""
    stored = fake.stored.get(message_id)
    if stored is None or stored.deleted:
        raise LookupError(f"message {message_id} does not exist (or was deleted)")
    if not fake._visible_to(stored, user_id):
        raise LookupError(f"user {user_id} cannot see message {message_id}")
    comp = component_by_custom_id(stored.data, custom_id)
    if not force:
        if comp is None:
            raise LookupError(f"message {message_id} has no component {custom_id!r}")
        if comp.get("disabled"):
            raise LookupError(f"component {custom_id!r} of message {message_id} is disabled")
    default_type = 2 if values is None else 3
    ctype = int(comp["type"]) if comp is not None else default_type
    data: JSON = {"custom_id": custom_id, "component_type": ctype}
    if values is not None:
        # discord.py takes a select's values from data.resolved when that key exists, so
        # string selects must not carry it; user/role/mentionable/channel selects need it.
        data["values"] = [str(v) for v in values]
        if ctype in SELECT_OPTION_TYPE:
            guild_id = fake.channels[stored.channel_id].guild_id
            resolved: JSON = {}
            spec = {"name": custom_id, "type": SELECT_OPTION_TYPE[ctype]}
            for value in values:
                _option_value(fake, guild_id, spec, value, resolved)
            data["resolved"] = resolved
    iid, token = _new_ids(fake)
    payload = _base_payload(fake, MESSAGE_COMPONENT, iid, token, user_id, stored.channel_id)
    payload["data"] = data
    payload["message"] = copy.deepcopy(stored.data)
    return payload


async def click_label(
    fake: FakeDiscord, user_id: int, message_id: int, label: str
) -> InteractionRecord:
    msg = fake.message(message_id)
    if msg is None:
        raise LookupError(f"message {message_id} does not exist (or was deleted)")
    button = find_button(msg, label)
    if button.custom_id is None:
        raise LookupError(f"button {label!r} is a link button")
    return await component(fake, user_id, message_id, button.custom_id, None, False)


def _submitted(components: list[JSON], values: dict[str, Any]) -> list[JSON]:
    out: list[JSON] = []
    for comp in components:
        ctype = comp.get("type")
        if ctype == 1:
            out.append({"type": 1, "components": _submitted(comp.get("components") or [], values)})
        elif ctype == 18 and isinstance(comp.get("component"), dict):
            inner = _submitted([comp["component"]], values)
            out.append({"type": 18, "component": inner[0]})
        elif ctype == 4:
            cid = comp["custom_id"]
            out.append({"type": 4, "custom_id": cid, "value": str(values.get(cid, ""))})
        elif comp.get("custom_id"):
            chosen = values.get(comp["custom_id"], [])
            chosen = [chosen] if isinstance(chosen, str) else list(chosen)
            out.append({"type": ctype, "custom_id": comp["custom_id"], "values": chosen})
    return out


async def submit_modal(
    fake: FakeDiscord, user_id: int, shown_by: InteractionRecord, values: dict[str, Any]
) -> InteractionRecord:
    """Build and deliver a MODAL_SUBMIT for the modal the bot showed to ``shown_by``."""
    if shown_by.response is None or shown_by.response.type != 9:
        raise LookupError(f"interaction {shown_by.id} was not answered with a modal")
    modal = shown_by.response.data
    iid, token = _new_ids(fake)
    payload = _base_payload(fake, MODAL_SUBMIT, iid, token, user_id, shown_by.channel_id)
    payload["data"] = {
        "custom_id": modal["custom_id"],
        "components": _submitted(modal.get("components") or [], values),
    }
    source = shown_by.source_message_id
    if source is not None and fake.message(source) is not None:
        payload["message"] = copy.deepcopy(fake.stored[source].data)
    return await _deliver(fake, payload, "modal", user_id, shown_by.channel_id, source)
