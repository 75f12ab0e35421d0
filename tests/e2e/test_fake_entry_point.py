"""The fake's application commands once Activities are on: Discord's default Entry Point command,
and what Discord refuses about it (a bulk overwrite that drops it: 400, code 50240)."""

from __future__ import annotations

from typing import Any

from tests.fakediscord import FakeDiscord
from tests.fakediscord.commands import EMBEDDED
from tests.fakediscord.faults import ENTRY_POINT_REQUIRED
from tests.fakediscord.rawclient import rest_call

CHAT: dict[str, Any] = {"name": "grinch", "description": "Play Grinch", "type": 1}


def commands_path(fake: FakeDiscord, guild: int | None = None) -> str:
    scope = "" if guild is None else f"/guilds/{guild}"
    return f"/applications/{fake.application_id}{scope}/commands"


async def test_enabling_activities_creates_the_default_entry_point(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    launch = fake.enable_activities()
    answer = await rest_call(fake, "GET", commands_path(fake))
    assert answer.status == 200
    assert answer.body == [launch]
    assert launch["type"] == 4 and launch["handler"] == 2 and launch["name"] == "launch"
    assert launch["integration_types"] and launch["contexts"]
    app = await rest_call(fake, "GET", "/applications/@me")
    assert app.body["flags"] & EMBEDDED


async def test_an_overwrite_without_the_entry_point_is_refused_with_50240(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    launch = fake.enable_activities()
    answer = await rest_call(fake, "PUT", commands_path(fake), [CHAT])
    assert answer.status == 400
    assert answer.body == {
        "code": 50240,
        "message": "You cannot remove this app's Entry Point command in a bulk update "
        "operation. Please include the Entry Point command in your update request or "
        "delete it separately.",
    }
    assert answer.body["message"] == ENTRY_POINT_REQUIRED.message
    assert fake.registered_commands() == [launch]  # nothing changed


async def test_an_overwrite_that_keeps_it_keeps_its_id_and_fields(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    launch = fake.enable_activities(name_localizations={"fr": "lancer"})
    fields = ("id", "type", "name", "name_localizations", "description", "handler", "contexts")
    kept = {k: launch[k] for k in (*fields, "integration_types")}
    answer = await rest_call(fake, "PUT", commands_path(fake), [CHAT, kept])
    assert answer.status == 200
    entry = [c for c in fake.registered_commands() if c["type"] == 4]
    assert [c["id"] for c in entry] == [launch["id"]]
    assert {k: entry[0][k] for k in kept} == kept
    assert fake.command_paths() == {"grinch"}  # fake.slash sees chat commands only
    # the same again: the Entry Point keeps its id, our command keeps its own
    chat_id = next(c["id"] for c in fake.registered_commands() if c["type"] == 1)
    again = await rest_call(fake, "PUT", commands_path(fake), [CHAT, kept])
    assert [c["id"] for c in again.body] == [chat_id, launch["id"]]


async def test_localizations_are_answered_only_when_asked_for(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    fake.enable_activities(name_localizations={"fr": "lancer"})
    plain = await rest_call(fake, "GET", commands_path(fake))
    full = await rest_call(fake, "GET", commands_path(fake) + "?with_localizations=true")
    assert "name_localizations" not in plain.body[0]
    assert full.body[0]["name_localizations"] == {"fr": "lancer"}


async def test_what_discord_refuses_about_entry_points(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    guild = fake.guild_named("Test Server")
    entry: dict[str, Any] = {"name": "play", "description": "Play", "type": 4, "handler": 1}
    # without Activities, an app has no Entry Point command
    refused = await rest_call(fake, "PUT", commands_path(fake), [CHAT, entry])
    assert (refused.status, refused.body["code"]) == (400, 50035)
    launch = fake.enable_activities()
    kept = {"id": launch["id"], "name": "launch", "type": 4, "handler": 2}
    cases = [
        (commands_path(fake, guild), [CHAT, {**entry}]),  # never a guild command
        (commands_path(fake), [CHAT, kept, entry]),  # only one
        (commands_path(fake), [{**CHAT, "handler": 2}, kept]),  # a handler only on type 4
        (commands_path(fake), [CHAT, {**kept, "handler": 3}]),  # only handlers 1 and 2
        (commands_path(fake), [CHAT, {**kept, "options": [{"type": 3, "name": "x"}]}]),
    ]
    for path, body in cases:
        answer = await rest_call(fake, "PUT", path, body)
        assert (answer.status, answer.body["code"]) == (400, 50035), body
    second = await rest_call(fake, "POST", commands_path(fake), entry)
    assert (second.status, second.body["code"]) == (400, 50035)
    assert fake.registered_commands() == [launch]
    # deleted on its own, it is gone, and an overwrite without it is accepted
    deleted = await rest_call(fake, "DELETE", f"{commands_path(fake)}/{launch['id']}")
    assert deleted.status == 204
    answer = await rest_call(fake, "PUT", commands_path(fake), [CHAT])
    assert answer.status == 200 and [c["name"] for c in answer.body] == ["grinch"]
