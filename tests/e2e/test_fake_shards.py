"""Sharding and locales in the fake Discord: IDENTIFY with a shard, guild events and interactions
on the guild's shard, DMs on shard 0, several connections and processes at once; interactions
carry the user's ``locale`` and the guild's ``guild_locale``."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.driver import set_locales
from tests.fakediscord import FakeDiscord
from tests.fakediscord.faults import MISSING_PERMISSIONS, UNAVAILABLE
from tests.fakediscord.process import BotProcess
from tests.fakediscord.rawclient import RawShard, rest_call
from tests.fakediscord.shards import recommended_shards

SAMPLE_BOT = "tests/fakediscord/sample_bot.py"

# The fake's own tests: Discord's limits at their real length.
pytestmark = pytest.mark.real_time_limits


@pytest.fixture
def two_guilds(fake_discord: FakeDiscord) -> tuple[int, int, int, int]:
    """Guild "zero" on shard 0 of 2 and "one" on shard 1, a channel "play" in each."""
    fake = fake_discord
    g0 = fake.add_guild("zero", shard=(0, 2))
    g1 = fake.add_guild("one", shard=(1, 2), locale="lt")
    c0, c1 = fake.add_channel(g0, "play"), fake.add_channel(g1, "play")
    fake.add_user("rita", locale="ro")
    for name in ("alice", "bob"):
        for guild in (g0, g1):
            fake.join_guild(fake.user_named(name), guild)
    return g0, g1, c0, c1


@pytest.fixture
async def shards(fake_discord: FakeDiscord) -> AsyncIterator[tuple[RawShard, RawShard]]:
    s0, s1 = RawShard(fake_discord, (0, 2)), RawShard(fake_discord, (1, 2))
    try:
        for shard in (s0, s1):
            await shard.connect()
            await shard.wait_event("READY")
        yield s0, s1
    finally:
        for shard in (s0, s1):
            await shard.close()


async def register_ping(fake: FakeDiscord, guild_id: int) -> None:
    path = f"/applications/{fake.application_id}/guilds/{guild_id}/commands"
    answer = await rest_call(fake, "PUT", path, [{"name": "ping", "description": "p"}])
    assert answer.status == 200


def guild_ids(shard: RawShard) -> set[int]:
    return {int(g["id"]) for g in shard.events("GUILD_CREATE")}


async def test_each_shard_gets_its_guilds_and_their_events(
    fake_discord: FakeDiscord,
    two_guilds: tuple[int, int, int, int],
    shards: tuple[RawShard, RawShard],
) -> None:
    fake = fake_discord
    g0, g1, _c0, _c1 = two_guilds
    s0, s1 = shards
    assert s0.events("READY")[0]["shard"] == [0, 2]
    assert s1.events("READY")[0]["shard"] == [1, 2]
    assert fake.shard_of(g0, 2) == 0
    assert fake.shard_of(g1, 2) == 1
    for shard_id, shard in enumerate(shards):
        ready = {int(g["id"]) for g in shard.events("READY")[0]["guilds"]}
        assert ready == guild_ids(shard)
        assert all((gid >> 22) % 2 == shard_id for gid in ready)
    assert g0 in guild_ids(s0)
    assert g0 not in guild_ids(s1)
    assert g1 in guild_ids(s1)
    assert g1 not in guild_ids(s0)
    assert guild_ids(s0) | guild_ids(s1) == set(fake.guilds)

    late = fake.add_guild("late", shard=(1, 2))
    await s1.wait_event("GUILD_CREATE", id=str(late))
    fake.set_guild_locale(g0, "ro")
    update = await s0.wait_event("GUILD_UPDATE", id=str(g0))
    assert update["preferred_locale"] == "ro"
    erin = fake.add_user("erin", guild_ids=[g1])
    await s1.wait_event("GUILD_MEMBER_ADD", guild_id=str(g1))
    assert not s0.events("GUILD_MEMBER_ADD")
    assert fake.users[erin].locale == "en-US"


async def test_interactions_go_to_the_guild_shard_and_dms_to_shard_0_with_locales(
    fake_discord: FakeDiscord,
    two_guilds: tuple[int, int, int, int],
    shards: tuple[RawShard, RawShard],
) -> None:
    fake = fake_discord
    g0, g1, c0, c1 = two_guilds
    s0, s1 = shards
    rita = fake.user_named("rita")
    for guild in (g0, g1):
        await register_ping(fake, guild)

    in_one = await fake.slash(rita, c1, "ping")
    assert in_one.shard_id == 1
    event = await s1.wait_event("INTERACTION_CREATE", id=str(in_one.id))
    assert (event["locale"], event["guild_locale"], event["guild"]["locale"]) == ("ro", "lt", "lt")
    assert not s0.events("INTERACTION_CREATE")

    # Faults by channel also catch the interaction routes of that channel's interactions.
    fake.faults.add("POST", "/interactions/*", UNAVAILABLE, channel_id=c1, times=1)
    fake.faults.add("PATCH", "/webhooks/*", MISSING_PERMISSIONS, channel_id=c1)
    callback = f"/interactions/{in_one.id}/{in_one.token}/callback"
    assert (await rest_call(fake, "POST", callback, {"type": 5})).status == 503
    assert (await rest_call(fake, "POST", callback, {"type": 5})).status == 204  # no body asked
    original = f"/webhooks/{fake.application_id}/{in_one.token}/messages/@original"
    edit = await rest_call(fake, "PATCH", original, {"content": "pong"})
    assert (edit.status, edit.body["code"]) == (403, 50013)

    in_zero = await fake.slash(rita, c0, "ping")
    assert in_zero.shard_id == 0
    assert (await s0.wait_event("INTERACTION_CREATE"))["guild_locale"] == "en-US"

    dm = (await rest_call(fake, "POST", "/users/@me/channels", {"recipient_id": str(rita)})).body
    button = {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}
    body = {"content": "hand", "components": [{"type": 1, "components": [button]}]}
    posted = await rest_call(fake, "POST", f"/channels/{dm['id']}/messages", body)
    set_locales(fake, users={rita: "lt"})
    click = await fake.click(rita, int(posted.body["id"]), "go")
    assert click.shard_id == 0
    dm_event = await s0.wait_event("INTERACTION_CREATE", id=str(click.id))
    assert dm_event["locale"] == "lt"
    assert "guild_locale" not in dm_event
    assert "guild_id" not in dm_event
    # The callback's answer (the updated message) comes back only when asked for, as Discord.
    update = {"type": 7, "data": {"content": "hand, updated"}}
    path = f"/interactions/{click.id}/{click.token}/callback?with_response=true"
    answered = await rest_call(fake, "POST", path, update)
    assert answered.status == 200
    assert answered.body["resource"]["message"]["content"] == "hand, updated"
    assert len(s1.events("INTERACTION_CREATE")) == 1
    with pytest.raises(ValueError, match="not a Discord locale"):
        fake.set_user_locale(rita, "et")  # Discord has no Estonian

    await s1.close()
    await fake.wait_for(lambda: not fake.live_sessions.covers([1], 2))
    with pytest.raises(RuntimeError, match="not connected"):
        await fake.slash(rita, c1, "ping")
    assert (await fake.slash(rita, c0, "ping")).shard_id == 0


async def test_bad_shards_are_refused_and_gateway_bot_recommends_shards(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    bad = RawShard(fake, (2, 2))
    await bad.connect()
    assert await bad.wait_closed() == 4010
    await bad.close()

    fake.add_guild("second")
    fake.max_guilds_per_shard = 1
    too_many = RawShard(fake)
    await too_many.connect()
    assert await too_many.wait_closed() == 4011
    await too_many.close()

    assert (await rest_call(fake, "GET", "/gateway/bot")).body["shards"] == 1
    fake.recommended_shards = 4
    assert (await rest_call(fake, "GET", "/gateway/bot")).body["shards"] == 4
    assert [recommended_shards(n) for n in (0, 1000, 1001, 2500)] == [1, 1, 2, 3]


async def where(fake: FakeDiscord, user: int, channel: int) -> tuple[int | None, str]:
    rec = await fake.slash(user, channel, "demo where")
    return rec.shard_id, (await rec.wait_response()).content


async def test_two_processes_one_shard_each(
    fake_discord: FakeDiscord,
    two_guilds: tuple[int, int, int, int],
    bot_process: BotProcess,
    tmp_path: Path,
) -> None:
    fake = fake_discord
    g0, g1, c0, c1 = two_guilds
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    common = {"SHARD_COUNT": "2", "DEMO_GUILD_ID": f"{g0},{g1}"}
    other = BotProcess(fake, tmp_path / "b.log", env={**common, "SHARD_IDS": "1"})
    try:
        await bot_process.start(SAMPLE_BOT, env={**common, "SHARD_IDS": "0", "SAMPLE_NAME": "A"})
        await other.start(SAMPLE_BOT, env={"SAMPLE_NAME": "B"})
        await fake.wait_shards([0, 1], 2)
        assert await where(fake, alice, c0) == (0, "answered by A on shard 0")
        assert await where(fake, alice, c1) == (1, "answered by B on shard 1")

        sent = await fake.slash(alice, c1, "demo dm", options={"user": bob})
        assert (await sent.wait_message())["content"] == "DM sent to bob"
        [note] = fake.dm_messages(bob)
        click = await fake.click_button(bob, int(note["id"]), "Where")
        assert click.shard_id == 0
        assert (await click.wait_response()).content == "answered by A on shard 0"

        other.kill()
        await fake.wait_for(lambda: not fake.live_sessions.covers([1], 2))
        with pytest.raises(RuntimeError, match="not connected"):
            await fake.slash(alice, c1, "demo where")
        assert await where(fake, alice, c0) == (0, "answered by A on shard 0")
    finally:
        await other.stop()
    assert fake.unknown_routes == []


async def test_one_auto_sharded_process_with_both_shards(
    fake_discord: FakeDiscord,
    two_guilds: tuple[int, int, int, int],
    bot_process: BotProcess,
) -> None:
    fake = fake_discord
    g0, g1, c0, c1 = two_guilds
    env = {"SHARD_COUNT": "2", "SHARD_IDS": "0,1", "SAMPLE_NAME": "solo"}
    await bot_process.start(SAMPLE_BOT, env={**env, "DEMO_GUILD_ID": f"{g0},{g1}"}, shards=2)
    await fake.wait_shards([0, 1], 2)
    rita = fake.user_named("rita")
    assert await where(fake, rita, c0) == (0, "answered by solo on shard 0")
    assert await where(fake, rita, c1) == (1, "answered by solo on shard 1")
    identifies = [f["d"].get("shard") for f in fake.gateway_log if f.get("op") == 2]
    assert identifies == [[0, 2], [1, 2]]


async def _message_traffic(fake: FakeDiscord, channel_id: int) -> str:
    """A message created, edited and deleted in ``channel_id`` and a DM sent; the first's id."""
    posted = await rest_call(fake, "POST", f"/channels/{channel_id}/messages", {"content": "table"})
    message = f"/channels/{channel_id}/messages/{posted.body['id']}"
    assert (await rest_call(fake, "PATCH", message, {"content": "table, moved"})).status == 200
    assert (await rest_call(fake, "DELETE", message)).status == 204
    rita = fake.user_named("rita")
    dm = await rest_call(fake, "POST", "/users/@me/channels", {"recipient_id": str(rita)})
    await rest_call(fake, "POST", f"/channels/{dm.body['id']}/messages", {"content": "hand"})
    return str(posted.body["id"])


async def test_message_events_follow_the_intents(
    fake_discord: FakeDiscord, two_guilds: tuple[int, int, int, int]
) -> None:
    """The bot's own messages come back as events, as on Discord: MESSAGE_CREATE, a whole
    MESSAGE_UPDATE per edit and MESSAGE_DELETE, to a connection with GUILD_MESSAGES; DMs
    only with DIRECT_MESSAGES; nothing to a connection without them."""
    fake = fake_discord
    g0, _, c0, _ = two_guilds
    events = ("MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE")
    for intents in (1 << 9, 1 << 12, 0):  # GUILD_MESSAGES, DIRECT_MESSAGES, neither
        connection = RawShard(fake, intents=intents)
        try:
            await connection.connect()
            await connection.wait_event("READY")
            message_id = await _message_traffic(fake, c0)
            if intents == 1 << 9:
                await connection.wait_event("MESSAGE_DELETE", id=message_id)
            elif intents == 1 << 12:
                await connection.wait_event("MESSAGE_CREATE")
            await asyncio.sleep(0.3)  # anything else sent would have arrived by now
            got = {e: connection.events(e) for e in events}
        finally:
            await connection.close()
        if intents == 1 << 9:
            assert [(m["content"], m["guild_id"]) for m in got["MESSAGE_CREATE"]] == [
                ("table", str(g0))
            ]
            updated = got["MESSAGE_UPDATE"]
            assert [(m["id"], m["content"]) for m in updated] == [(message_id, "table, moved")]
            assert updated[0]["author"]["id"] == str(fake.bot_user.id)  # the whole message
            assert [(m["id"], m["channel_id"]) for m in got["MESSAGE_DELETE"]] == [
                (message_id, str(c0))
            ]
        elif intents == 1 << 12:
            assert [m["content"] for m in got["MESSAGE_CREATE"]] == ["hand"]
            assert "guild_id" not in got["MESSAGE_CREATE"][0]
            assert not got["MESSAGE_UPDATE"] and not got["MESSAGE_DELETE"]
        else:
            assert not any(got.values())
