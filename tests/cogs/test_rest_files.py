"""discordkit.rest with a picture: a hand edit and a click's update reach the fake Discord (in
this process) as one prebuilt multipart body, retried on a 500 as discord.py retries, and its
errors raised as discord.py raises them. What the fake does not do (a Cloudflare 429, a
connection reset) is played by a small aiohttp server standing in for Discord."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

import aiohttp
import discord
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from discord.http import Route

from discordkit import callback
from discordkit.rest import edit_message, update_clicked
from tests.fakediscord import FakeDiscord
from tests.fakediscord.faults import MISSING_PERMISSIONS, SERVER_ERROR, DiscordError
from tests.fakediscord.rawclient import RawShard, rest_call

if TYPE_CHECKING:  # discord.types imports in a cycle at run time
    from discord.types.interactions import Interaction as InteractionPayload

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 60  # 15 kB
MESSAGE = "/channels/{channel_id}/messages/{message_id}"
CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
UNKNOWN_INTERACTION = DiscordError(404, 10062, "Unknown interaction")
EMPTY_FORM = b"--b--\r\n"
PLAY = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Play", "custom_id": "play"}]}


class NoForm(aiohttp.FormData):
    """discord.py's per-attempt form: the requests under test must not build one."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise AssertionError("a request with files built an aiohttp.FormData")


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    fake.click_settle = 0.0
    await fake.start()
    fake.add_channel(fake.add_guild("Test Server"), "games")
    fake.add_user("alice")
    yield fake
    await fake.stop()


@pytest.fixture
async def bot(fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[discord.Client]:
    """A logged-in client (REST only) talking to the fake; aiohttp's FormData forbidden."""
    monkeypatch.setattr(Route, "BASE", f"{fake.url}/api/v10")
    monkeypatch.setattr(aiohttp, "FormData", NoForm)
    client = discord.Client(intents=discord.Intents(guilds=True))
    await client.login(fake.token)
    yield client
    await client.close()


@pytest.fixture
async def gateway(fake: FakeDiscord) -> AsyncIterator[RawShard]:
    """The bot's gateway connection as the fake sees it, so that users can click."""
    shard = RawShard(fake)
    await shard.connect()
    await fake.wait_for(lambda: fake.bot_connected, timeout=5)
    yield shard
    await shard.close()


async def post(fake: FakeDiscord, **fields: Any) -> int:
    games = fake.channel_named("games")
    answer = await rest_call(fake, "POST", f"/channels/{games}/messages", fields)
    assert answer.status == 200, answer.body
    return int(answer.body["id"])


def picture(tmp_path: Path) -> discord.File:
    """A File discord.py opened itself (from a path), which it closes after a request."""
    path = tmp_path / "hand.png"
    path.write_bytes(PNG)
    return discord.File(path)


def answers_to(fake: FakeDiscord, method: str, path: str) -> list[tuple[int, tuple[str, ...]]]:
    """(status, names of the files the fake read in the body) of each request to ``path``."""
    return [(r.status, r.files) for r in fake.requests_to(method, f"^{path}$")]


async def test_edit_message_uploads_the_picture(
    fake: FakeDiscord, bot: discord.Client, tmp_path: Path
) -> None:
    games, message = fake.channel_named("games"), await post(fake, content="Your hand")
    file = picture(tmp_path)
    await edit_message(bot, games, message, content="Your turn", attachments=[file])
    current = fake.message(message)
    assert current is not None
    assert current["content"] == "Your turn"
    [attachment] = current["attachments"]
    assert attachment["filename"] == "hand.png"
    assert fake.attachment_content(attachment) == PNG
    assert file.fp.closed
    path = f"/channels/{games}/messages/{message}"
    assert answers_to(fake, "PATCH", path) == [(200, ("hand.png",))]


async def test_edit_message_without_files_is_json(fake: FakeDiscord, bot: discord.Client) -> None:
    games, message = fake.channel_named("games"), await post(fake, content="Your hand")
    await edit_message(bot, games, message, content="Your turn", view=None)
    [edit] = fake.requests_to("PATCH", f"^/channels/{games}/messages/{message}$")
    assert (edit.status, edit.files, edit.json["content"]) == (200, (), "Your turn")


async def test_edit_message_retries_a_500_once_with_the_same_body(
    fake: FakeDiscord, bot: discord.Client
) -> None:
    games, message = fake.channel_named("games"), await post(fake, content="Your hand")
    fault = fake.faults.add("PATCH", MESSAGE, SERVER_ERROR, times=1)
    file = discord.File(io.BytesIO(PNG), filename="hand.png")
    await edit_message(bot, games, message, content="Your turn", attachments=[file])
    assert fault.hits == 1
    path = f"/channels/{games}/messages/{message}"
    assert answers_to(fake, "PATCH", path) == [(500, ("hand.png",)), (200, ("hand.png",))]
    assert [v["content"] for v in fake.message_versions(message)] == ["Your hand", "Your turn"]
    current = fake.message(message)
    assert current is not None
    assert fake.attachment_content(current["attachments"][0]) == PNG


async def test_edit_message_of_a_deleted_message_raises_not_found(
    fake: FakeDiscord, bot: discord.Client, tmp_path: Path
) -> None:
    games, message = fake.channel_named("games"), await post(fake, content="Your hand")
    fake.delete_message(message)
    file = picture(tmp_path)
    with pytest.raises(discord.NotFound) as raised:
        await edit_message(bot, games, message, attachments=[file])
    assert raised.value.code == 10008
    assert file.fp.closed


async def test_edit_message_refused_raises_forbidden(
    fake: FakeDiscord, bot: discord.Client, tmp_path: Path
) -> None:
    games, message = fake.channel_named("games"), await post(fake, content="Your hand")
    fake.faults.add("PATCH", MESSAGE, MISSING_PERMISSIONS)
    with pytest.raises(discord.Forbidden) as raised:
        await edit_message(bot, games, message, attachments=[picture(tmp_path)])
    assert raised.value.code == 50013
    assert fake.message_versions(message)[-1]["attachments"] == []


async def click(fake: FakeDiscord, bot: discord.Client) -> tuple[discord.Interaction[Any], int]:
    """Alice clicks Play on a new message: the interaction as discord.py builds it."""
    message = await post(fake, content="Your hand", components=[PLAY])
    record = await fake.click(fake.user_named("alice"), message, "play")
    payload = cast("InteractionPayload", record.payload)
    return discord.Interaction(data=payload, state=bot._connection), message


@pytest.mark.usefixtures("gateway")
async def test_update_clicked_uploads_the_picture(
    fake: FakeDiscord, bot: discord.Client, tmp_path: Path
) -> None:
    interaction, message = await click(fake, bot)
    file = picture(tmp_path)
    await update_clicked(interaction, content="Your turn", attachments=[file], view=None)
    assert interaction.response.is_done()
    assert file.fp.closed
    current = fake.message(message)
    assert current is not None
    assert (current["content"], current["components"]) == ("Your turn", [])
    [attachment] = current["attachments"]
    assert (attachment["filename"], fake.attachment_content(attachment)) == ("hand.png", PNG)
    path = f"/interactions/{interaction.id}/{interaction.token}/callback"
    assert answers_to(fake, "POST", path) == [(204, ("hand.png",))]


@pytest.mark.usefixtures("gateway")
async def test_update_clicked_retries_a_500_once_with_the_same_body(
    fake: FakeDiscord, bot: discord.Client
) -> None:
    interaction, message = await click(fake, bot)
    fault = fake.faults.add("POST", CALLBACK, SERVER_ERROR, times=1)
    file = discord.File(io.BytesIO(PNG), filename="hand.png")
    await update_clicked(interaction, content="Your turn", attachments=[file])
    assert fault.hits == 1
    path = f"/interactions/{interaction.id}/{interaction.token}/callback"
    assert answers_to(fake, "POST", path) == [(500, ("hand.png",)), (204, ("hand.png",))]
    assert [v["content"] for v in fake.message_versions(message)] == ["Your hand", "Your turn"]


@pytest.mark.parametrize(
    ("error", "raised"),
    [(UNKNOWN_INTERACTION, discord.NotFound), (MISSING_PERMISSIONS, discord.Forbidden)],
    ids=["404", "403"],
)
@pytest.mark.usefixtures("gateway")
async def test_update_clicked_raises_discord_pys_error(
    fake: FakeDiscord,
    bot: discord.Client,
    tmp_path: Path,
    error: DiscordError,
    raised: type[discord.HTTPException],
) -> None:
    interaction, message = await click(fake, bot)
    fake.faults.add("POST", CALLBACK, error)
    file = picture(tmp_path)
    with pytest.raises(raised) as caught:
        await update_clicked(interaction, content="Your turn", attachments=[file])
    assert type(caught.value) is raised
    assert (caught.value.status, caught.value.code, caught.value.text) == (
        error.status,
        error.code,
        error.message,
    )
    assert file.fp.closed
    assert not interaction.response.is_done()
    assert [v["content"] for v in fake.message_versions(message)] == ["Your hand"]


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The waits of discordkit.callback, recorded instead of slept."""
    waited: list[float] = []

    async def sleep(seconds: float) -> None:
        waited.append(seconds)

    monkeypatch.setattr(callback, "asyncio", SimpleNamespace(sleep=sleep))
    return waited


@pytest.mark.usefixtures("gateway")
async def test_update_clicked_gives_up_after_five_server_errors(
    fake: FakeDiscord, bot: discord.Client, sleeps: list[float]
) -> None:
    interaction, _ = await click(fake, bot)
    fake.faults.add("POST", CALLBACK, SERVER_ERROR)
    file = discord.File(io.BytesIO(PNG), filename="hand.png")
    with pytest.raises(discord.DiscordServerError):
        await update_clicked(interaction, content="Your turn", attachments=[file])
    assert sleeps == [1, 3, 5, 7, 9]
    path = f"/interactions/{interaction.id}/{interaction.token}/callback"
    assert answers_to(fake, "POST", path) == [(500, ("hand.png",))] * 5


@pytest.mark.usefixtures("gateway")
async def test_update_clicked_waits_out_discords_429(
    fake: FakeDiscord, bot: discord.Client, sleeps: list[float]
) -> None:
    interaction, message = await click(fake, bot)
    fake.faults.add("POST", CALLBACK, "429", retry_after=0.25, times=1)
    file = discord.File(io.BytesIO(PNG), filename="hand.png")
    await update_clicked(interaction, content="Your turn", attachments=[file])
    assert sleeps == [0.25]
    assert [v["content"] for v in fake.message_versions(message)] == ["Your hand", "Your turn"]


async def answer_429_without_via(request: web.Request) -> web.Response:
    await request.read()
    return web.Response(status=429, text="error code: 1015")  # Cloudflare's, not Discord's


async def answer_204(request: web.Request) -> web.Response:
    await request.read()
    return web.Response(status=204)


def stand_in(handler: Any) -> TestServer:
    """An aiohttp server answering interaction callbacks with ``handler``."""
    app = web.Application()
    app.router.add_post("/api/v10/interactions/1/token/callback", handler)
    return TestServer(app, host="127.0.0.1")


def callback_route() -> Route:
    """The callback route of interaction 1 (Route.BASE read now: the stand-in's)."""
    path = "/interactions/{webhook_id}/{webhook_token}/callback"
    return Route("POST", path, webhook_id=1, webhook_token="token")


async def test_a_429_without_via_is_raised_at_once(
    monkeypatch: pytest.MonkeyPatch, sleeps: list[float]
) -> None:
    async with stand_in(answer_429_without_via) as server, aiohttp.ClientSession() as session:
        monkeypatch.setattr(Route, "BASE", str(server.make_url("/api/v10")))
        body = aiohttp.BytesPayload(EMPTY_FORM, content_type="multipart/form-data; boundary=b")
        with pytest.raises(discord.HTTPException) as raised:
            await callback.post_body(callback_route(), session, body)
    assert type(raised.value) is discord.HTTPException
    assert (raised.value.status, raised.value.text) == (429, "error code: 1015")
    assert sleeps == []


@pytest.mark.parametrize(("errno", "retried"), [(54, True), (10054, True), (32, False)])
async def test_a_connection_reset_is_tried_again(
    monkeypatch: pytest.MonkeyPatch, sleeps: list[float], errno: int, retried: bool
) -> None:
    resets: list[int] = []

    async def reset_once(*_: Any) -> None:
        if not resets:
            resets.append(errno)
            raise OSError(errno, "the connection was reset")

    tracing = aiohttp.TraceConfig()
    tracing.on_request_start.append(reset_once)
    async with (
        stand_in(answer_204) as server,
        aiohttp.ClientSession(trace_configs=[tracing]) as session,
    ):
        monkeypatch.setattr(Route, "BASE", str(server.make_url("/api/v10")))
        body = aiohttp.BytesPayload(EMPTY_FORM, content_type="multipart/form-data; boundary=b")
        if retried:
            assert await callback.post_body(callback_route(), session, body) == ""
            assert sleeps == [1]
        else:
            with pytest.raises(OSError) as raised:
                await callback.post_body(callback_route(), session, body)
            assert raised.value.errno == errno
            assert sleeps == []
