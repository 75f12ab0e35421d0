"""POST /interactions: Discord's signature, the timestamp's age, replays, PING, dispatch."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from nacl.signing import SigningKey

from settings import SettingsError, interactions
from tests.web.test_server import raw_answer
from web.interactions import MAX_SKEW, InteractionsEndpoint, Seen, Verifier
from web.server import MAX_BODY, WebServer

KEY = SigningKey(bytes(range(32)))
PUBLIC = KEY.verify_key.encode().hex()


def signed(
    payload: dict[str, Any], *, at: float | None = None, key: SigningKey = KEY
) -> tuple[bytes, dict[str, str]]:
    body = json.dumps(payload).encode()
    timestamp = str(int(time.time() if at is None else at))
    signature = key.sign(timestamp.encode() + body).signature.hex()
    headers = {
        "X-Signature-Ed25519": signature,
        "X-Signature-Timestamp": timestamp,
        "Content-Type": "application/json",
    }
    return body, headers


class Endpoint:
    def __init__(self, base: str, dispatched: list[dict[str, Any]]) -> None:
        self.url = f"{base}/interactions"
        self.dispatched = dispatched

    async def post(self, body: bytes, headers: dict[str, str]) -> tuple[int, str]:
        async with (
            aiohttp.ClientSession() as http,
            http.post(self.url, data=body, headers=headers) as response,
        ):
            return response.status, await response.text()


@pytest.fixture
async def endpoint() -> AsyncIterator[Endpoint]:
    dispatched: list[dict[str, Any]] = []
    server = WebServer("127.0.0.1", 0, lambda: True)
    server.add_routes(InteractionsEndpoint(PUBLIC, dispatched.append).routes())
    await server.start()
    try:
        yield Endpoint(f"http://127.0.0.1:{server.bound_port}", dispatched)
    finally:
        await server.stop()


CLICK = {"id": "111", "type": 3, "token": "t", "data": {"custom_id": "x", "component_type": 2}}


async def test_ping_is_answered_with_pong_and_not_dispatched(endpoint: Endpoint) -> None:
    status, text = await endpoint.post(*signed({"id": "1", "type": 1}))
    assert (status, json.loads(text)) == (200, {"type": 1})
    assert endpoint.dispatched == []


async def test_a_signed_click_is_dispatched_once_and_answered_202(endpoint: Endpoint) -> None:
    status, text = await endpoint.post(*signed(CLICK))
    assert (status, text) == (202, "")
    assert endpoint.dispatched == [CLICK]


async def test_a_replay_is_refused_and_not_dispatched_again(
    endpoint: Endpoint, caplog: pytest.LogCaptureFixture
) -> None:
    body, headers = signed(CLICK)
    assert (await endpoint.post(body, headers))[0] == 202
    assert (await endpoint.post(body, headers))[0] == 401
    assert len(endpoint.dispatched) == 1
    assert "replayed interaction 111" in caplog.text


@pytest.mark.parametrize(
    "forge",
    [
        "other key",
        "body changed",
        "timestamp changed",
        "no headers",
        "not hex",
        "stale",
        "from the future",
    ],
)
async def test_a_request_discord_did_not_sign_now_is_refused_and_logged(
    endpoint: Endpoint, caplog: pytest.LogCaptureFixture, forge: str
) -> None:
    now = time.time()
    body, headers = signed(CLICK, key=SigningKey(bytes(32)) if forge == "other key" else KEY)
    if forge == "body changed":
        body = body.replace(b'"x"', b'"y"')
    elif forge == "timestamp changed":
        headers["X-Signature-Timestamp"] = str(int(now) + 1)
    elif forge == "no headers":
        del headers["X-Signature-Ed25519"], headers["X-Signature-Timestamp"]
    elif forge == "not hex":
        headers["X-Signature-Ed25519"] = "zz" * 64
    elif forge == "stale":
        body, headers = signed(CLICK, at=now - MAX_SKEW - 5)
    elif forge == "from the future":
        body, headers = signed(CLICK, at=now + MAX_SKEW + 5)
    status, _text = await endpoint.post(body, headers)
    assert status == 401
    assert endpoint.dispatched == []
    assert "refused a POST /interactions" in caplog.text


async def test_signed_garbage_is_a_bad_request(endpoint: Endpoint) -> None:
    body = b"not json"
    timestamp = str(int(time.time()))
    headers = {
        "X-Signature-Ed25519": KEY.sign(timestamp.encode() + body).signature.hex(),
        "X-Signature-Timestamp": timestamp,
    }
    assert (await endpoint.post(body, headers))[0] == 400
    assert endpoint.dispatched == []


def test_a_timestamp_is_read_only_as_whole_seconds() -> None:
    now = 1_764_760_000
    verifier = Verifier(PUBLIC, clock=lambda: now + 0.5)
    body = b'{"type": 1}'
    for timestamp, refusal in (
        (str(now), None),
        ("nan", "bad timestamp"),  # float() reads it, and no age is over the limit
        ("inf", "bad timestamp"),
        (f"{now}.0", "bad timestamp"),
        (f" {now}", "bad timestamp"),
        ("1.7e9", "bad timestamp"),
        (str(now - 400), "stale timestamp (400 s old)"),
    ):
        signature = KEY.sign(timestamp.encode() + body).signature.hex()
        assert verifier.refusal(signature, timestamp, body) == refusal, timestamp


def test_seen_forgets_ids_older_than_the_window() -> None:
    now = [0.0]
    seen = Seen(clock=lambda: now[0])
    assert seen.first_time("a")
    assert not seen.first_time("a")
    now[0] = MAX_SKEW + 1
    assert seen.first_time("b")
    assert len(seen) == 1  # "a" is gone: its requests fail the timestamp check by now
    assert seen.first_time("a")


def test_interactions_settings() -> None:
    assert interactions({}, None) == ("gateway", None)
    assert interactions({"INTERACTIONS": "HTTP", "DISCORD_PUBLIC_KEY": PUBLIC.upper()}, 8080) == (
        "http",
        PUBLIC,
    )
    for env, port, words in [
        ({"INTERACTIONS": "webhook"}, 8080, "gateway or http"),
        ({"INTERACTIONS": "http"}, 8080, "DISCORD_PUBLIC_KEY"),
        ({"INTERACTIONS": "http", "DISCORD_PUBLIC_KEY": PUBLIC}, None, "WEB_PORT"),
        ({"DISCORD_PUBLIC_KEY": "abc"}, None, "64 hex digits"),
    ]:
        with pytest.raises(SettingsError, match=words):
            interactions(env, port)


async def test_a_replay_another_worker_was_given_is_refused(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """With several workers on one database, the database's memory decides."""
    dispatched: list[dict[str, Any]] = []
    given: set[str] = {"111"}  # another worker was given the click already

    async def first_anywhere(interaction_id: str) -> bool:
        if interaction_id in given:
            return False
        given.add(interaction_id)
        return True

    server = WebServer("127.0.0.1", 0, lambda: True)
    server.add_routes(
        InteractionsEndpoint(PUBLIC, dispatched.append, shared=first_anywhere).routes()
    )
    await server.start()
    try:
        endpoint = Endpoint(f"http://127.0.0.1:{server.bound_port}", dispatched)
        assert (await endpoint.post(*signed(CLICK)))[0] == 401
        assert dispatched == []
        assert "replayed interaction 111" in caplog.text
        other = {**CLICK, "id": "222"}
        assert (await endpoint.post(*signed(other)))[0] == 202
        assert dispatched == [other]
    finally:
        await server.stop()


async def test_a_move_click_is_left_to_its_step_and_anything_else_is_asked() -> None:
    """A move's custom id carries the clicker's step: the shared memory (a write on the
    database) is not asked of it; this process's own memory still refuses its replay."""
    dispatched: list[dict[str, Any]] = []
    asked: list[str] = []

    async def first_anywhere(interaction_id: str) -> bool:
        asked.append(interaction_id)
        return True

    server = WebServer("127.0.0.1", 0, lambda: True)
    server.add_routes(
        InteractionsEndpoint(
            PUBLIC,
            dispatched.append,
            shared=first_anywhere,
            step_guarded=lambda data: data["data"]["custom_id"].startswith("g:"),
        ).routes()
    )
    await server.start()
    try:
        endpoint = Endpoint(f"http://127.0.0.1:{server.bound_port}", dispatched)
        move = {**CLICK, "id": "301", "data": {"custom_id": "g:1:2:p", "component_type": 2}}
        body, headers = signed(move)
        assert (await endpoint.post(body, headers))[0] == 202
        assert (await endpoint.post(body, headers))[0] == 401
        other = {**CLICK, "id": "302"}
        assert (await endpoint.post(*signed(other)))[0] == 202
        assert asked == ["302"]
        assert dispatched == [move, other]
    finally:
        await server.stop()


async def test_a_database_that_does_not_answer_leaves_the_worker_its_own_memory(
    caplog: pytest.LogCaptureFixture,
) -> None:
    dispatched: list[dict[str, Any]] = []

    async def broken(_interaction_id: str) -> bool:
        raise OSError("connection refused")

    server = WebServer("127.0.0.1", 0, lambda: True)
    server.add_routes(InteractionsEndpoint(PUBLIC, dispatched.append, shared=broken).routes())
    await server.start()
    try:
        endpoint = Endpoint(f"http://127.0.0.1:{server.bound_port}", dispatched)
        body, headers = signed(CLICK)
        assert (await endpoint.post(body, headers))[0] == 202
        assert dispatched == [CLICK]
        assert "going on with this process's memory" in caplog.text
        assert (await endpoint.post(body, headers))[0] == 401  # its own memory still refuses
        assert dispatched == [CLICK]
    finally:
        await server.stop()


@pytest.mark.parametrize(
    "stamp", ["nan", "inf", "-inf", "NaN", "1e9", "now.5", " now", "+now", "٣"]
)
async def test_a_timestamp_that_is_not_whole_seconds_is_refused(
    endpoint: Endpoint, stamp: str
) -> None:
    """Signed by the right key, but not Unix seconds in digits: never fresh, never acted on."""
    body = json.dumps(CLICK).encode()
    stamp = stamp.replace("now", str(int(time.time())))
    headers = {
        "X-Signature-Ed25519": KEY.sign(stamp.encode() + body).signature.hex(),
        "X-Signature-Timestamp": stamp,
    }
    assert (await endpoint.post(body, headers))[0] == 401
    assert endpoint.dispatched == []


async def test_a_slow_shared_memory_is_not_waited_for(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The database answers after 2 s: the click is dispatched after SHARED_SECONDS with
    this process's memory, and the database's answer still lands (the id is recorded)."""
    dispatched: list[dict[str, Any]] = []
    recorded: list[str] = []

    async def slow(interaction_id: str) -> bool:
        await asyncio.sleep(2)
        recorded.append(interaction_id)
        return True

    server = WebServer("127.0.0.1", 0, lambda: True)
    server.add_routes(
        InteractionsEndpoint(PUBLIC, dispatched.append, shared=slow, shared_seconds=0.2).routes()
    )
    await server.start()
    try:
        endpoint = Endpoint(f"http://127.0.0.1:{server.bound_port}", dispatched)
        began = time.monotonic()
        assert (await endpoint.post(*signed(CLICK)))[0] == 202
        assert time.monotonic() - began < 1.5
        assert dispatched == [CLICK]
        assert "did not say within 0.2 s whether interaction 111" in caplog.text
        await asyncio.sleep(2.2)
        assert recorded == ["111"]
    finally:
        await server.stop()


async def test_a_chunked_body_over_the_limit_is_refused_unread(
    endpoint: Endpoint,
) -> None:
    """The body never ends: the 413 can only come from a server that stopped at the limit."""
    port = int(endpoint.url.split(":")[2].split("/")[0])
    piece = b"x" * (MAX_BODY + 1)
    answer = await raw_answer(
        port,
        b"POST /interactions HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
        + b"%x\r\n%s\r\n" % (len(piece), piece),
    )
    assert answer.startswith(b"HTTP/1.1 413")
    assert endpoint.dispatched == []
