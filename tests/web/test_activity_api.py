"""The live table's calls to Discord against the fake: the code exchange and the instance check."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import aiohttp
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.activities import CLIENT_SECRET
from tests.fakediscord.faults import RATE_LIMITED
from web.discord_api import DiscordApi, DiscordRefused, NotInInstance, channel_for
from web.guard import Busy
from web.server import WebServer
from web.sessions import Sessions
from web.tokens import TokenEndpoint


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    guild = fake.add_guild("Test Server")
    fake.add_channel(guild, "games")
    fake.add_channel(guild, "general")
    fake.add_user("alice")
    fake.add_user("bob")
    yield fake
    await fake.stop()


async def test_a_code_is_exchanged_for_its_user_and_a_session(
    fake: FakeDiscord, api: DiscordApi
) -> None:
    alice = fake.user_named("alice")
    fake.set_user_locale(alice, "ro")  # her Discord's language: /users/@me gives it
    sessions = Sessions(CLIENT_SECRET)
    server = WebServer("127.0.0.1", 0, lambda: True)
    server.add_routes(TokenEndpoint(api, sessions).routes())
    await server.start()
    base = f"http://127.0.0.1:{server.bound_port}"
    try:
        async with aiohttp.ClientSession() as http:
            code = fake.activities.issue_code(alice)
            async with http.post(f"{base}/api/token", json={"code": code}) as response:
                assert response.status == 200
                body = await response.json()
            assert body["user"] == {"id": str(alice), "name": "alice", "locale": "ro"}
            viewer = sessions.read(body["session"])
            assert viewer is not None and viewer.user_id == alice
            assert fake.activities.bearer_user(f"Bearer {body['access_token']}") == alice
            # a code works once; a made-up one never; no code is a bad request
            async with http.post(f"{base}/api/token", json={"code": code}) as response:
                assert response.status == 401
            async with http.post(f"{base}/api/token", json={"code": "mock:1"}) as response:
                assert response.status == 401
            async with http.post(f"{base}/api/token", data=b"not json") as response:
                assert response.status == 400
    finally:
        await server.stop()
    assert fake.activities.exchanges == 1


async def test_a_wrong_client_secret_is_refused(fake: FakeDiscord) -> None:
    api = DiscordApi(
        f"{fake.url}/api/v10",
        bot_token=fake.token,
        client_id=str(fake.application_id),
        client_secret="not the secret",
    )
    try:
        with pytest.raises(Exception, match="401"):
            await api.exchange(fake.activities.issue_code(fake.user_named("alice")))
    finally:
        await api.close()


async def test_the_instance_gives_the_channel_of_a_user_in_it(
    fake: FakeDiscord, api: DiscordApi
) -> None:
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    games, general = fake.channel_named("games"), fake.channel_named("general")
    instance = fake.activities.add_instance(games, [alice])
    assert await channel_for(api, instance, alice) == games
    assert await channel_for(api, instance, alice, games) == games
    with pytest.raises(NotInInstance, match="another channel"):
        await channel_for(api, instance, alice, general)  # the page says it is elsewhere
    with pytest.raises(NotInInstance, match="not in the instance"):
        await channel_for(api, instance, bob)
    fake.activities.join(instance, bob)  # bob joins: looked up afresh, not the kept answer
    assert await channel_for(api, instance, bob) == games
    with pytest.raises(NotInInstance):
        await channel_for(api, "i-unknown", alice)


def activity_calls(fake: FakeDiscord) -> list[str]:
    return [r.path for r in fake.requests if "activity-instances" in r.kind]


async def test_an_instance_id_of_another_shape_is_never_sent(
    fake: FakeDiscord, api: DiscordApi
) -> None:
    alice = fake.user_named("alice")
    fake.activities.add_instance(fake.channel_named("games"), [alice], instance_id="inst-games")
    for bad in ("inst-games?x=1#", "inst-games#", "../inst-games", "inst games", "", "x" * 101):
        with pytest.raises(NotInInstance, match="not an instance id"):
            await channel_for(api, bad, alice)
    assert activity_calls(fake) == []
    assert await channel_for(api, "inst-games", alice) == fake.channel_named("games")
    assert activity_calls(fake) == [
        f"/applications/{fake.application_id}/activity-instances/inst-games"
    ]


async def test_a_refused_instance_id_is_remembered(fake: FakeDiscord, api: DiscordApi) -> None:
    alice = fake.user_named("alice")
    for _ in range(5):
        with pytest.raises(NotInInstance):
            await channel_for(api, "i-unknown", alice)
    assert len(activity_calls(fake)) == 1


async def test_a_code_of_another_shape_is_never_sent(fake: FakeDiscord, api: DiscordApi) -> None:
    for bad in ("", "a b", "code\n", "x" * 201, "ünïcode", "a&client_secret=x"):
        with pytest.raises(DiscordRefused, match="not an authorize code"):
            await api.exchange(bad)
    assert fake.stats.calls["POST /oauth2/token"] == 0


async def test_a_429_from_discord_is_waited_out_when_short(
    fake: FakeDiscord, api: DiscordApi
) -> None:
    alice = fake.user_named("alice")
    instance = fake.activities.add_instance(fake.channel_named("games"), [alice])
    fake.faults.add("GET", "*activity-instances*", RATE_LIMITED, retry_after=0.5, times=1)
    assert await channel_for(api, instance, alice) == fake.channel_named("games")
    assert len(activity_calls(fake)) == 2  # the 429, then once more after Retry-After


async def test_a_long_429_from_discord_is_answered_here_until_it_ends(
    fake: FakeDiscord, api: DiscordApi
) -> None:
    alice = fake.user_named("alice")
    instance = fake.activities.add_instance(fake.channel_named("games"), [alice])
    fake.faults.add("GET", "*activity-instances*", RATE_LIMITED, retry_after=30.0)
    for _ in range(3):
        with pytest.raises(Busy) as refused:
            await channel_for(api, instance, alice)
        assert not refused.value.yours and 29 <= refused.value.seconds <= 30
    assert len(activity_calls(fake)) == 1  # asked once; then Discord's wait is kept


async def test_a_429_on_the_code_exchange_is_a_503_with_retry_after(
    fake: FakeDiscord, api: DiscordApi
) -> None:
    fake.faults.add("POST", "/oauth2/token", RATE_LIMITED, retry_after=20.0)
    server = WebServer("127.0.0.1", 0, lambda: True)
    server.add_routes(TokenEndpoint(api, Sessions(CLIENT_SECRET)).routes())
    await server.start()
    try:
        async with aiohttp.ClientSession() as http:
            for _ in range(3):
                code = fake.activities.issue_code(fake.user_named("alice"))
                url = f"http://127.0.0.1:{server.bound_port}/api/token"
                async with http.post(url, json={"code": code}) as response:
                    assert response.status == 503
                    assert 19 <= int(response.headers["Retry-After"]) <= 20
    finally:
        await server.stop()
    assert fake.stats.calls["POST /oauth2/token"] == 1


async def test_viewers_arriving_together_share_one_call(fake: FakeDiscord, api: DiscordApi) -> None:
    alice = fake.user_named("alice")
    instance = fake.activities.add_instance(fake.channel_named("games"), [alice])
    charged: list[int] = []
    found = await asyncio.gather(
        *(api.instance(instance, charge=lambda: charged.append(1)) for _ in range(20))
    )
    assert {f.channel_id for f in found} == {fake.channel_named("games")}
    assert len(activity_calls(fake)) == 1 and len(charged) == 1
