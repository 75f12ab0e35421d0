"""Fault injection in the fake Discord: each error as Discord sends it, selected by route, channel,
message and count; messages deleted by a user; and discord.py's reaction to some of them."""

from __future__ import annotations

import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.faults import (
    BAD_GATEWAY,
    CANNOT_DM,
    EDIT_LIMIT,
    ERRORS,
    MISSING_PERMISSIONS,
    RATE_LIMITED,
    SERVER_ERROR,
    UNAVAILABLE,
    UNKNOWN_MESSAGE,
    DiscordError,
)
from tests.fakediscord.models import (
    BOT_PERMISSIONS,
    SEND_MESSAGES,
    VIEW_CHANNEL,
    bot_permissions_in,
)
from tests.fakediscord.process import BotProcess
from tests.fakediscord.ratelimit import MESSAGE_CREATE
from tests.fakediscord.rawclient import RawShard, rest_call

MESSAGES = "/channels/{channel_id}/messages"
MESSAGE = "/channels/{channel_id}/messages/{message_id}"
SAMPLE_BOT = "tests/fakediscord/sample_bot.py"

# The fake's own tests: Discord's limits at their real length.
pytestmark = pytest.mark.real_time_limits


async def post(fake: FakeDiscord, channel: int, text: str = "hello") -> tuple[int, dict[str, str]]:
    answer = await rest_call(fake, "POST", f"/channels/{channel}/messages", {"content": text})
    return answer.status, answer.body


@pytest.mark.parametrize(
    "error",
    [SERVER_ERROR, BAD_GATEWAY, UNAVAILABLE, CANNOT_DM, UNKNOWN_MESSAGE, EDIT_LIMIT],
    ids=lambda e: f"{e.status}-{e.code}",
)
async def test_each_error_once_then_the_route_works(
    fake_discord: FakeDiscord, error: DiscordError
) -> None:
    fake = fake_discord
    games = fake.channel_named("games")
    fault = fake.faults.add("POST", MESSAGES, error, times=1)
    status, body = await post(fake, games)
    assert (status, body) == (error.status, {"message": error.message, "code": error.code})
    assert fake.messages(games) == []  # the route did not run
    assert (await post(fake, games))[0] == 200
    assert fault.hits == 1
    assert not fault.active


async def test_missing_permissions_only_in_one_channel_until_removed(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    games, general = fake.channel_named("games"), fake.channel_named("general")
    fault = fake.faults.add("*", "/channels/*", "50013", channel_id=games)
    assert fault.error == MISSING_PERMISSIONS
    assert (await post(fake, games)) == (403, {"message": "Missing Permissions", "code": 50013})
    assert (await post(fake, general))[0] == 200
    history = await rest_call(fake, "GET", f"/channels/{games}/messages")
    assert history.status == 403
    fake.faults.remove(fault)
    assert (await post(fake, games))[0] == 200
    assert fault.hits == 2
    assert fake.stats.invalid_total == 2


async def test_edit_limit_on_one_message_only(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    games = fake.channel_named("games")
    old, new = [int((await post(fake, games, t))[1]["id"]) for t in ("old", "new")]
    fake.faults.add("PATCH", MESSAGE, EDIT_LIMIT, message_id=old)
    edit_old = await rest_call(fake, "PATCH", f"/channels/{games}/messages/{old}", {"content": "x"})
    assert (edit_old.status, edit_old.body["code"]) == (400, 30046)
    edit_new = await rest_call(fake, "PATCH", f"/channels/{games}/messages/{new}", {"content": "y"})
    assert edit_new.status == 200
    assert [m["content"] for m in fake.messages(games)] == ["old", "y"]


async def test_injected_429_is_counted_apart_from_real_ones(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    games = fake.channel_named("games")
    fake.faults.add("POST", MESSAGES, RATE_LIMITED, times=1, retry_after=2.5, is_global=True)
    answer = await rest_call(fake, "POST", f"/channels/{games}/messages", {"content": "x"})
    assert answer.status == 429
    assert answer.body == {
        "message": "You are being rate limited.",
        "retry_after": 2.5,
        "global": True,
        "code": 0,
    }
    assert answer.headers["Retry-After"] == "3"
    assert answer.headers["X-RateLimit-Global"] == "true"
    assert answer.headers["Via"]
    assert fake.stats.injected_429 == fake.stats.total_429 == 1
    assert fake.stats.unplanned_429 == 0  # the fixture's check does not count it
    assert fake.stats.by_route_429(include_injected=True) == {MESSAGE_CREATE: 1}


async def test_a_deleted_message_answers_10008_and_is_announced(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    games = fake.channel_named("games")
    shard = RawShard(fake, intents=1 << 9)  # GUILD_MESSAGES: message events
    await shard.connect()
    try:
        await shard.wait_event("READY")
        mid = int((await post(fake, games))[1]["id"])
        fake.delete_message(mid)
        event = await shard.wait_event("MESSAGE_DELETE", id=str(mid))
        assert event["channel_id"] == str(games)
        assert event["guild_id"] == str(fake.guild_named("Test Server"))
    finally:
        await shard.close()
    assert fake.message(mid) is None
    for method in ("GET", "PATCH", "DELETE"):
        answer = await rest_call(
            fake, method, f"/channels/{games}/messages/{mid}", {"content": "x"}
        )
        assert (answer.status, answer.body["code"]) == (404, 10008), method


async def test_an_injected_10008_deletes_the_message_it_names(fake_discord: FakeDiscord) -> None:
    """Discord answers "Unknown Message" only for a message that is gone: an injected one
    takes the message away too, or its buttons would stay clickable in the fake alone."""
    fake = fake_discord
    games = fake.channel_named("games")
    kept = int((await post(fake, games, "a"))[1]["id"])
    gone = int((await post(fake, games, "b"))[1]["id"])
    fault = fake.faults.add("PATCH", MESSAGE, UNKNOWN_MESSAGE, channel_id=games, times=1)
    path = f"/channels/{games}/messages/{gone}"
    answer = await rest_call(fake, "PATCH", path, {"content": "x"})
    assert (answer.status, answer.body["code"], fault.hits) == (404, 10008, 1)
    assert fake.message(gone) is None
    assert fake.message(kept) is not None
    answer = await rest_call(fake, "PATCH", path, {"content": "x"})
    assert (answer.status, answer.body["code"], fault.hits) == (404, 10008, 1)  # gone for good
    answer = await rest_call(fake, "PATCH", f"/channels/{games}/messages/{kept}", {"content": "y"})
    assert answer.status == 200


def test_every_named_error_is_discords() -> None:
    assert {k: (e.status, e.code) for k, e in ERRORS.items()} == {
        "429": (429, 0),
        "500": (500, 0),
        "502": (502, 0),
        "503": (503, 0),
        "10003": (404, 10003),
        "10008": (404, 10008),
        "30034": (400, 30034),
        "30046": (400, 30046),
        "50007": (403, 50007),
        "50013": (403, 50013),
        "50240": (400, 50240),
    }


async def test_discordpy_sees_injected_faults(
    fake_discord: FakeDiscord, bot_process: BotProcess
) -> None:
    fake = fake_discord
    games, alice, bob = (
        fake.channel_named("games"),
        fake.user_named("alice"),
        fake.user_named("bob"),
    )
    await bot_process.start(SAMPLE_BOT, env={"DEMO_GUILD_ID": str(fake.guild_named("Test Server"))})
    bob_dm = fake.open_dm(bob)
    fake.faults.add("POST", MESSAGES, CANNOT_DM, channel_id=bob_dm, times=1)
    refused = await fake.slash(alice, games, "demo dm", options={"user": bob})
    assert (await refused.wait_message())["content"] == "DMs closed for bob"
    assert fake.dm_messages(bob) == []

    fake.faults.add("POST", MESSAGES, SERVER_ERROR, channel_id=games, times=1)
    burst = await fake.slash(alice, games, "demo burst", {"count": 1})
    await burst.wait_response()
    await fake.wait_for(
        lambda: any(m["content"] == "burst 0" for m in fake.messages(games)), timeout=10
    )
    statuses = [r.status for r in fake.requests_to("POST", f"^/channels/{games}/messages$")]
    assert statuses == [500, 200]  # discord.py retried the 500

    again = await fake.slash(alice, games, "demo dm", options={"user": bob})
    assert (await again.wait_message())["content"] == "DM sent to bob"


async def test_a_permission_taken_from_the_bot_refuses_its_posts_and_is_announced(
    fake_discord: FakeDiscord,
) -> None:
    """As Discord: without Send Messages a post is refused with 50013, without View Channel
    everything in the channel with 50001; each change is a CHANNEL_UPDATE carrying the
    overwrite (interactions carry the same permissions: tests/e2e/test_permission_fix.py)."""
    fake = fake_discord
    games = fake.channel_named("games")
    shard = RawShard(fake, intents=1)  # GUILDS: channel events
    await shard.connect()
    try:
        await shard.wait_event("READY")
        fake.set_bot_permissions(games, deny=SEND_MESSAGES)
        event = await shard.wait_event("CHANNEL_UPDATE", id=str(games))
        assert event["permission_overwrites"] == [
            {"id": str(fake.bot_user.id), "type": 1, "allow": "0", "deny": str(SEND_MESSAGES)}
        ]
        assert (await post(fake, games)) == (403, {"message": "Missing Permissions", "code": 50013})
        fake.set_bot_permissions(games, deny=VIEW_CHANNEL)
        history = await rest_call(fake, "GET", f"/channels/{games}/messages")
        assert (history.status, history.body["code"]) == (403, 50001)
        fake.set_bot_permissions(games)
        await shard.wait_event("CHANNEL_UPDATE", id=str(games), permission_overwrites="[]")
        assert (await post(fake, games))[0] == 200
    finally:
        await shard.close()
    assert bot_permissions_in(fake.channels[games], fake.bot_user.id) == BOT_PERMISSIONS
    fake.set_bot_permissions(games, deny=SEND_MESSAGES, event=False)
    assert not bot_permissions_in(fake.channels[games], fake.bot_user.id) & SEND_MESSAGES
