"""The fake Discord's rate limits: buckets, the global limit, 429s as Discord sends them, the ban,
and discord.py's own handling of them (the sample bot under tightened limits)."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from tests.clock import Clock
from tests.fakediscord import FakeDiscord
from tests.fakediscord.process import BotProcess
from tests.fakediscord.ratelimit import (
    DM_OPEN,
    INTERACTION_CALLBACK,
    MESSAGE_CREATE,
    MESSAGE_EDIT,
    WEBHOOK_KINDS,
    RateLimiter,
    RateLimitSettings,
    _ms_up,
)
from tests.fakediscord.rawclient import rest_call

SAMPLE_BOT = "tests/fakediscord/sample_bot.py"

# The fake's own tests: Discord's limits at their real length.
pytestmark = pytest.mark.real_time_limits


def test_buckets_per_channel_and_route_on_a_manual_clock() -> None:
    clock = Clock(1000.0)
    limiter = RateLimiter(clock=clock)
    in_a, in_b = {"channel_id": "1"}, {"channel_id": "2"}
    for left in (4, 3, 2, 1, 0):
        decision = limiter.check(MESSAGE_CREATE, in_a)
        assert decision.refused is None
        assert decision.remaining == left
    clock.advance(1.25)
    refused = limiter.check(MESSAGE_CREATE, in_a).refused
    assert refused is not None
    assert refused.source == "bucket"
    assert refused.retry_after == pytest.approx(3.75)
    assert limiter.check(MESSAGE_CREATE, in_b).refused is None  # another channel
    assert limiter.check(MESSAGE_EDIT, {**in_a, "message_id": "9"}).refused is None  # edit bucket
    clock.advance(3.75)
    assert limiter.check(MESSAGE_CREATE, in_a).refused is None  # a new window
    for _ in range(10):
        assert limiter.check(DM_OPEN, {}).refused is None
    assert limiter.check(DM_OPEN, {}).refused is not None


def test_global_limit_spares_interaction_callbacks_and_webhooks() -> None:
    clock = Clock(1000.0)
    limiter = RateLimiter(RateLimitSettings(global_limit=3), clock=clock)
    for channel in ("1", "2", "3"):
        assert limiter.check(MESSAGE_CREATE, {"channel_id": channel}).refused is None
    refused = limiter.check(MESSAGE_CREATE, {"channel_id": "4"}).refused
    assert refused is not None
    assert refused.is_global
    assert refused.body()["global"] is True
    assert refused.headers()["X-RateLimit-Global"] == "true"
    token = {"interaction_id": "5", "application_id": "6", "interaction_token": "t"}
    assert limiter.check(INTERACTION_CALLBACK, token).refused is None
    for kind in WEBHOOK_KINDS:
        assert limiter.check(kind, token).refused is None
    clock.advance(1.0)
    assert limiter.check(MESSAGE_CREATE, {"channel_id": "4"}).refused is None


def test_disabled_and_retightened_limits() -> None:
    limiter = RateLimiter(clock=Clock(1000.0))
    limiter.disable()
    for _ in range(20):
        decision = limiter.check(MESSAGE_CREATE, {"channel_id": "1"})
        assert decision.refused is None
        assert decision.headers() == {}
    limiter.configure(enabled=True)
    limiter.set_bucket("message-create", limit=1, per=2.0)
    assert limiter.check(MESSAGE_CREATE, {"channel_id": "1"}).refused is None
    assert limiter.check(MESSAGE_CREATE, {"channel_id": "1"}).refused is not None
    with pytest.raises(KeyError):
        limiter.set_bucket("no-such-bucket", limit=1, per=1.0)


@pytest.mark.allow_429
async def test_bucket_429_body_headers_and_counters_over_http(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    games = fake.channel_named("games")
    answers = [
        await rest_call(fake, "POST", f"/channels/{games}/messages", {"content": f"m{i}"})
        for i in range(6)
    ]
    assert [a.status for a in answers] == [200] * 5 + [429]
    bucket = answers[0].headers["X-RateLimit-Bucket"]
    for left, answer in zip((4, 3, 2, 1, 0), answers, strict=False):
        assert answer.headers["X-RateLimit-Limit"] == "5"
        assert answer.headers["X-RateLimit-Remaining"] == str(left)
        assert answer.headers["X-RateLimit-Bucket"] == bucket
        assert 0 < float(answer.headers["X-RateLimit-Reset-After"]) <= 5
        assert float(answer.headers["X-RateLimit-Reset"]) > 1.7e9
    refused = answers[5]
    assert set(refused.body) == {"message", "retry_after", "global", "code"}
    assert refused.body["global"] is False
    assert refused.body["code"] == 0
    assert 0 < refused.body["retry_after"] <= 5
    assert refused.headers["Retry-After"] == "5"
    assert refused.headers["X-RateLimit-Scope"] == "user"
    assert refused.headers["X-RateLimit-Remaining"] == "0"
    assert refused.headers["Via"]
    assert "X-RateLimit-Global" not in refused.headers
    assert len(fake.messages(games)) == 5

    bob_dm = (await rest_call(fake, "POST", "/users/@me/channels", {"recipient_id": "1"})).status
    assert bob_dm == 400  # unknown user: an error, not a limit
    dm = await rest_call(
        fake, "POST", "/users/@me/channels", {"recipient_id": str(fake.user_named("bob"))}
    )
    dm_id = dm.body["id"]
    dm_answers = [
        (await rest_call(fake, "POST", f"/channels/{dm_id}/messages", {"content": "x"})).status
        for _ in range(6)
    ]
    assert dm_answers == [200] * 5 + [429]  # DM channels have the same per-channel limit

    stats = fake.stats
    assert stats.total_429 == stats.bucket_429 == stats.unplanned_429 == 2
    assert stats.global_429 == 0
    assert stats.by_route_429() == {MESSAGE_CREATE: 2}
    assert stats.calls[MESSAGE_CREATE] == 12
    assert stats.ok_calls[MESSAGE_CREATE] == 10
    assert stats.calls[DM_OPEN] == 2
    assert stats.invalid_total == 2
    assert [r.kind for r in fake.requests][:2] == [MESSAGE_CREATE, MESSAGE_CREATE]


@pytest.mark.allow_429
async def test_global_429_over_http_and_exempt_routes(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    fake.rate_limits.configure(global_limit=3)
    statuses = [(await rest_call(fake, "GET", "/users/@me")).status for _ in range(3)]
    assert statuses == [200, 200, 200]
    refused = await rest_call(fake, "GET", "/users/@me")
    assert refused.status == 429
    assert refused.body["global"] is True
    assert refused.headers["X-RateLimit-Global"] == "true"
    assert refused.headers["X-RateLimit-Scope"] == "global"
    # Exempt routes answer for themselves (unknown interaction / webhook), never 429.
    callback = await rest_call(fake, "POST", "/interactions/1/tok/callback", {"type": 1})
    assert (callback.status, callback.body["code"]) == (404, 10062)
    hook = await rest_call(fake, "POST", f"/webhooks/{fake.application_id}/tok", {"content": "x"})
    assert (hook.status, hook.body["code"]) == (404, 10015)
    assert fake.stats.global_429 == 1
    assert fake.stats.by_route_429() == {"GET /users/@me": 1}


def test_the_global_limit_is_each_callers() -> None:
    clock = Clock(1000.0)
    limiter = RateLimiter(RateLimitSettings(global_limit=2), clock=clock)
    token, instance = "POST /oauth2/token", "GET /applications/{application_id}/activity-instances"
    for _ in range(2):
        assert limiter.check(instance, {"application_id": "1"}).refused is None
    assert limiter.check(instance, {"application_id": "1"}).refused is not None  # the bot's
    for _ in range(2):  # without Authorization: the address's own limit, not the bot's
        assert limiter.check(token, {}, "ip:127.0.0.1").refused is None
    refused = limiter.check(token, {}, "ip:127.0.0.1").refused
    assert refused is not None and refused.is_global
    assert limiter.check(token, {}, "ip:127.0.0.2").refused is None
    assert limiter.check("GET /users/@me", {}, "bearer:abc").refused is None


@pytest.mark.allow_429
async def test_code_exchanges_are_limited_per_address_over_http(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    fake.rate_limits.configure(global_limit=3)
    form = {"client_id": str(fake.application_id), "grant_type": "authorization_code"}
    async with aiohttp.ClientSession() as http:

        async def exchange() -> int:
            url = f"{fake.url}/api/v10/oauth2/token"
            async with http.post(url, data={**form, "code": "made-up"}) as answer:
                return answer.status

        assert [await exchange() for _ in range(3)] == [401, 401, 401]  # no secret: invalid_client
        assert await exchange() == 429
    assert (await rest_call(fake, "GET", "/users/@me")).status == 200  # the bot's budget is whole
    assert fake.stats.by_route_429() == {"POST /oauth2/token": 1}


@pytest.mark.allow_429
async def test_too_many_invalid_requests_get_banned(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    fake.rate_limits.configure(invalid_limit=3, ban_seconds=60)
    for _ in range(3):
        assert (await rest_call(fake, "GET", "/users/@me", token="wrong")).status == 401
    banned = await rest_call(fake, "GET", "/users/@me")
    assert banned.status == 429
    assert banned.body == "error code: 1015"
    assert "Via" not in banned.headers
    assert fake.stats.ban_429 == 1
    assert fake.stats.invalid_total == 4


async def test_limits_off_sends_no_rate_limit_headers(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    fake.rate_limits.disable()
    games = fake.channel_named("games")
    for _ in range(8):
        answer = await rest_call(fake, "POST", f"/channels/{games}/messages", {"content": "x"})
        assert answer.status == 200
        assert "X-RateLimit-Limit" not in answer.headers
    assert fake.stats.total_429 == 0


async def test_discordpy_waits_on_bucket_headers_without_a_429(
    fake_discord: FakeDiscord, bot_process: BotProcess
) -> None:
    fake = fake_discord
    fake.rate_limits.set_bucket("message-create", limit=2, per=1.0)
    games, alice = fake.channel_named("games"), fake.user_named("alice")
    await bot_process.start(SAMPLE_BOT, env={"DEMO_GUILD_ID": str(fake.guild_named("Test Server"))})
    rec = await fake.slash(alice, games, "demo burst", {"count": 6})
    await rec.wait_response()
    await fake.wait_for(lambda: len(fake.messages(games)) >= 6, timeout=10)
    times = [r.at for r in fake.requests_to("POST", f"^/channels/{games}/messages$")]
    assert len(times) == 6
    assert times[-1] - times[0] >= 1.9  # three windows of two (times taken after each request)
    assert fake.stats.total_429 == 0  # the headers told discord.py to wait


@pytest.mark.allow_429
async def test_discordpy_retries_after_global_429s(
    fake_discord: FakeDiscord, bot_process: BotProcess
) -> None:
    fake = fake_discord
    games, alice = fake.channel_named("games"), fake.user_named("alice")
    await bot_process.start(SAMPLE_BOT, env={"DEMO_GUILD_ID": str(fake.guild_named("Test Server"))})
    await asyncio.sleep(1.0)  # the start-up calls' global window is over
    fake.rate_limits.configure(global_limit=2)
    rec = await fake.slash(alice, games, "demo burst", {"count": 5})
    await rec.wait_response()
    await fake.wait_for(lambda: len(fake.messages(games)) >= 5, timeout=15)
    assert fake.stats.global_429 >= 1
    assert fake.stats.bucket_429 == 0
    assert "Global rate limit has been hit" in bot_process.log_text()
    sent = [m["content"] for m in fake.messages(games)]
    assert sorted(sent) == [f"burst {i}" for i in range(5)]


def test_a_full_window_reads_as_its_length() -> None:
    """A window opened now ends in exactly 5 s, though the float sum says 5.0000000000000036."""
    opened = 29.62166586056858
    assert (opened + 5.0) - opened > 5.0
    assert _ms_up((opened + 5.0) - opened) == 5.0
    assert _ms_up(4.0001) == 4.001  # a real fraction of a millisecond still rounds up
