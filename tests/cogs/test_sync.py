"""The global command sync (discordkit/sync.py) against discord.py's own ``CommandTree.sync``:
our commands go out exactly as discord.py sends them, the app's Entry Point command beside them
as Discord has it, in the fields the bulk overwrite accepts (discord-api-spec's
ApplicationCommandUpdateRequest)."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot import offline_bot
from discordkit.sync import ENTRY_POINT_FIELDS, entry_point_request, sync_commands, sync_global

APPLICATION = 4242

# An Entry Point command as GET /applications/{id}/commands?with_localizations=true answers it.
LAUNCH: dict[str, Any] = {
    "id": "1300000000000000001",
    "application_id": str(APPLICATION),
    "version": "1300000000000000002",
    "default_member_permissions": "8",
    "type": 4,
    "name": "launch",
    "name_localizations": {"fr": "lancer"},
    "description": "Launch the table",
    "description_localizations": {"fr": "Ouvrir la table"},
    "dm_permission": True,
    "contexts": [0, 1, 2],
    "integration_types": [0, 1],
    "nsfw": False,
    "handler": 2,
}
CHAT: dict[str, Any] = {**LAUNCH, "id": "1300000000000000003", "type": 1, "name": "old"}


class Discord:
    """Stands in for discord.py's HTTP client: the global commands it holds, the bodies of
    the bulk overwrites it was sent."""

    def __init__(self, commands: list[dict[str, Any]]) -> None:
        self.commands = commands
        self.overwrites: list[list[dict[str, Any]]] = []
        self.queries: list[dict[str, Any]] = []

    async def request(self, route: discord.http.Route, **kwargs: Any) -> Any:
        assert (route.method, route.path) == ("GET", "/applications/{application_id}/commands")
        self.queries.append(kwargs.get("params") or {})
        return self.commands

    async def bulk_upsert_global_commands(
        self, application_id: int, payload: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        assert application_id == APPLICATION
        self.overwrites.append(payload)
        return [
            {"id": str(n), "application_id": str(APPLICATION), "version": "1", **item}
            for n, item in enumerate(payload, start=1)
        ]


def wire(bot: Any, stand_in: Discord) -> None:
    """The offline bot talks to ``stand_in`` as its application ``APPLICATION``."""
    bot._connection.application_id = APPLICATION
    bot.http.request = stand_in.request
    bot.http.bulk_upsert_global_commands = stand_in.bulk_upsert_global_commands


async def overwrites(commands: list[dict[str, Any]]) -> tuple[Discord, list[Any], list[Any]]:
    """What discord.py's tree.sync() and our sync_global send for the bot's own tree."""
    async with offline_bot() as bot:
        discord_ = Discord(commands)
        wire(bot, discord_)
        theirs = await bot.tree.sync()
        ours = await sync_global(bot.tree)
        return discord_, theirs, ours


async def test_our_commands_go_out_as_discordpy_sends_them_and_the_entry_point_beside() -> None:
    discord_, theirs, ours = await overwrites([CHAT, LAUNCH])
    sent_by_discordpy, sent_by_us = discord_.overwrites
    assert sent_by_us[:-1] == sent_by_discordpy
    assert any(c.get("name_localizations") for c in sent_by_discordpy)  # translated
    assert sent_by_us[-1] == {
        "id": LAUNCH["id"],
        "type": 4,
        "name": "launch",
        "name_localizations": {"fr": "lancer"},
        "description": "Launch the table",
        "description_localizations": {"fr": "Ouvrir la table"},
        "default_member_permissions": 8,  # the request's schema: an integer
        "dm_permission": True,
        "contexts": [0, 1, 2],
        "integration_types": [0, 1],
        "handler": 2,
    }
    assert discord_.queries == [{"with_localizations": "true"}]
    # discord.py's answer for every command Discord now has, the Entry Point too
    assert [c.name for c in ours] == [c.name for c in theirs] + ["launch"]
    assert all(isinstance(c, discord.app_commands.AppCommand) for c in ours)


async def test_without_activities_the_overwrite_is_discordpys() -> None:
    discord_, _theirs, _ours = await overwrites([CHAT])
    assert discord_.overwrites[0] == discord_.overwrites[1]


def test_the_entry_point_item_holds_only_what_the_overwrite_accepts() -> None:
    item = entry_point_request({**LAUNCH, "options": [], "guild_id": "1", "name_localized": "x"})
    assert set(item) == set(ENTRY_POINT_FIELDS)
    assert (
        entry_point_request({**LAUNCH, "default_member_permissions": None})[
            "default_member_permissions"
        ]
        is None
    )


async def test_a_refused_sync_is_logged_and_returns_none(caplog: pytest.LogCaptureFixture) -> None:
    class Refusing(Discord):
        async def bulk_upsert_global_commands(
            self, application_id: int, payload: list[dict[str, Any]]
        ) -> list[dict[str, Any]]:
            response: Any = type("Response", (), {"status": 400, "reason": "Bad Request"})()
            message = {"code": 30034, "message": "Max number of daily application command creates"}
            raise discord.HTTPException(response, message)

    async with offline_bot() as bot:
        refusing = Refusing([LAUNCH])
        wire(bot, refusing)
        with caplog.at_level("INFO", logger="discordkit.sync"):
            assert await sync_commands(bot.tree, None) is None
    (record,) = [r for r in caplog.records if r.name == "discordkit.sync"]
    assert record.levelname == "ERROR"
    assert record.getMessage().startswith(
        "Global command sync refused by Discord: 400, code 30034: Max number of daily"
    )
