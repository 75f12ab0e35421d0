"""The command sync: our commands to Discord, keeping the app's Entry Point command.

An app with Activities enabled has an Entry Point command (type 4, ``PRIMARY_ENTRY_POINT``)
that Discord created, not the bot. discord.py's ``CommandTree.sync`` is a bulk overwrite of the
global commands with the tree's alone, and Discord refuses a bulk overwrite that would drop the
Entry Point command (400, code 50240). So the global sync reads the global commands back first
and sends every Entry Point command as Discord has it (its id, handler, contexts...) beside
ours, which are exactly what ``CommandTree.sync`` sends. Entry Point commands are global only:
a guild sync (``DEV_GUILD_ID``) is discord.py's own.

A sync Discord refuses is logged and the bot goes on with the commands Discord already had.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.http import Route

log = logging.getLogger(__name__)

PRIMARY_ENTRY_POINT = 4
INVALID_FORM_BODY = 50035

# What a bulk overwrite accepts for an existing command (discord-api-spec,
# ApplicationCommandUpdateRequest), less ``options``: only chat commands have them.
ENTRY_POINT_FIELDS = (
    "id",
    "type",
    "name",
    "name_localizations",
    "description",
    "description_localizations",
    "default_member_permissions",
    "dm_permission",
    "contexts",
    "integration_types",
    "handler",
)

Tree = app_commands.CommandTree[Any]


def entry_point_request(command: dict[str, Any]) -> dict[str, Any]:
    """An Entry Point command as Discord answered it, made a bulk-overwrite item: the fields
    the request accepts, each as Discord has it. Discord answers the permission bits as a
    string and the request's schema asks for an integer."""
    kept = {field: command[field] for field in ENTRY_POINT_FIELDS if field in command}
    permissions = kept.get("default_member_permissions")
    if permissions is not None:
        kept["default_member_permissions"] = int(permissions)
    return kept


async def entry_points(http: discord.http.HTTPClient, application_id: int) -> list[dict[str, Any]]:
    """The app's Entry Point commands as bulk-overwrite items (none without Activities), read
    with their localization dictionaries so that the overwrite keeps those too."""
    route = Route("GET", "/applications/{application_id}/commands", application_id=application_id)
    commands = await http.request(route, params={"with_localizations": "true"})
    return [entry_point_request(c) for c in commands if c.get("type") == PRIMARY_ENTRY_POINT]


async def tree_payload(tree: Tree) -> list[dict[str, Any]]:
    """The tree's global commands as ``CommandTree.sync`` sends them: through the tree's
    translator (the localizations) when it has one."""
    commands = tree.get_commands()
    translator = tree.translator
    if translator is not None:
        return [await command.get_translated_payload(tree, translator) for command in commands]
    return [command.to_dict(tree) for command in commands]


async def sync_global(tree: Tree) -> list[app_commands.AppCommand]:
    """``CommandTree.sync()`` for the global commands, with the Entry Point command kept;
    the same answer (every command Discord now has) and the same errors."""
    client = tree.client
    if client.application_id is None:
        raise app_commands.MissingApplicationID
    kept = await entry_points(client.http, client.application_id)
    payload = await tree_payload(tree)
    try:
        data = await client.http.bulk_upsert_global_commands(
            client.application_id, payload=[*payload, *kept]
        )
    except discord.HTTPException as exc:
        if exc.status == 400 and exc.code == INVALID_FORM_BODY:
            raise app_commands.CommandSyncFailure(exc, tree.get_commands()) from None
        raise
    state = client._connection  # discord.py's AppCommand needs it, as sync gives it
    return [app_commands.AppCommand(data=item, state=state) for item in data]


async def sync_commands(tree: Tree, guild_id: int | None) -> list[app_commands.AppCommand] | None:
    """Sync to the guild ``guild_id`` (the global commands copied there) or globally; None,
    logged, when Discord refuses: its commands stay as they were."""
    scope = "global" if guild_id is None else f"guild {guild_id}"
    try:
        if guild_id is None:
            synced = await sync_global(tree)
        else:
            guild = discord.Object(id=guild_id)
            tree.copy_global_to(guild=guild)
            synced = await tree.sync(guild=guild)
    except discord.HTTPException as exc:
        log.error(
            "%s command sync refused by Discord: %s, code %s: %s; the commands Discord "
            "already had stay in place",
            scope.capitalize(),
            exc.status,
            exc.code,
            exc.text,
        )
        return None
    if guild_id is not None:
        log.info("synced %d commands to guild %s", len(synced), guild_id)
        return synced
    entry = sum(1 for command in synced if command.type.value == PRIMARY_ENTRY_POINT)
    kept = ", the app's Entry Point command among them" if entry else ""
    log.info("synced %d global commands%s", len(synced), kept)
    return synced
