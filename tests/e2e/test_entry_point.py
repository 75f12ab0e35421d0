"""The real bot with Activities enabled in the portal (an Entry Point command exists) and no
DEV_GUILD_ID: it starts, keeps the Entry Point command in its global sync, and serves games;
a sync Discord refuses is logged and the bot serves the commands Discord already had."""

from __future__ import annotations

from pathlib import Path

from discordkit.sync import ENTRY_POINT_FIELDS
from tests.e2e.driver import bot_env, find_button
from tests.fakediscord import FakeDiscord
from tests.fakediscord.faults import DAILY_COMMAND_CREATES
from tests.fakediscord.process import BotProcess

GLOBAL_COMMANDS = "/applications/{application_id}/commands"


async def lobby_opens(fake: FakeDiscord) -> None:
    """`/grinch start` in #games answers with a lobby that has a Join button."""
    rec = await fake.slash(fake.user_named("alice"), fake.channel_named("games"), "grinch start")
    lobby = (await rec.wait_response()).message()
    assert lobby is not None
    assert find_button(lobby, "Join")


async def test_the_bot_starts_with_activities_on_and_keeps_the_entry_point(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake = fake_discord
    launch = fake.enable_activities(
        name_localizations={"fr": "lancer"}, description_localizations={"fr": "Ouvrir"}
    )
    await bot_process.start(env=bot_env(tmp_path))  # no DEV_GUILD_ID: the global sync
    assert bot_process.running
    commands = fake.registered_commands()
    entry = [c for c in commands if c["type"] == 4]
    assert len(entry) == 1
    same = ("id", "name", "description", "handler", "integration_types", "contexts")
    assert {k: entry[0][k] for k in same} == {k: launch[k] for k in same}
    assert entry[0]["name_localizations"] == {"fr": "lancer"}
    assert entry[0]["description_localizations"] == {"fr": "Ouvrir"}
    assert {"grinch", "gnome", "hearts", "ten"} <= {c["name"] for c in commands}
    (put,) = [r for r in fake.requests if r.kind == f"PUT {GLOBAL_COMMANDS}"]
    assert put.status == 200
    (sent,) = [c for c in put.json if c.get("type") == 4]
    assert set(sent) <= set(ENTRY_POINT_FIELDS)  # what the bulk overwrite accepts
    (read,) = [r for r in fake.requests if r.kind == f"GET {GLOBAL_COMMANDS}"]
    assert read.query == {"with_localizations": "true"}
    assert "synced" in bot_process.log_text() and "Entry Point" in bot_process.log_text()
    await lobby_opens(fake)


async def test_a_refused_sync_is_logged_and_the_bot_serves_the_commands_it_had(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake = fake_discord
    await bot_process.start(env=bot_env(tmp_path))
    await bot_process.stop()
    had = fake.registered_commands()
    refusal = fake.faults.add("PUT", GLOBAL_COMMANDS, DAILY_COMMAND_CREATES)
    await bot_process.start(env=bot_env(tmp_path))
    await fake.wait_for(lambda: "command sync refused" in bot_process.log_text(), timeout=10)
    assert refusal.hits == 1
    assert bot_process.running
    line = next(x for x in bot_process.log_text().splitlines() if "sync refused" in x)
    assert "ERROR" in line
    assert "Global command sync refused by Discord: 400, code 30034: Max number" in line
    assert fake.registered_commands() == had
    await lobby_opens(fake)
