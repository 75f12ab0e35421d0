"""The result screen's **Share** (web/share.py, the ``share`` op of web/live.py) against the
fake Discord: the final table's picture uploaded once per game and language and kept, refused
for a game that is not the channel's finished one; and the fake's upload route, which takes
what Discord's spec says it takes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any, cast

import aiohttp
import pytest

from db.models import GameStatus
from presentation.drawing.painters import InThread
from service.errors import NoGame
from service.reports import Loaded
from tests.clock import Clock
from tests.fakediscord import FakeDiscord
from tests.fakediscord.activities import CLIENT_SECRET, MAX_UPLOAD
from tests.fakediscord.faults import RATE_LIMITED
from tests.web.sockets import Socket
from tests.web.test_hub import finished_hearts
from web.discord_api import DiscordApi
from web.dropin import Refused
from web.hub import Hub, Viewer
from web.live import LiveEndpoint
from web.share import BUSY, KEEP_SECONDS, NOT_SHAREABLE, NotShared, Shares

PNG = b"\x89PNG\r\n\x1a\n"


class Service:
    """The channel's last game, as the store would give it."""

    def __init__(self, latest: Loaded) -> None:
        self.latest = latest

    async def channel_game(self, channel_id: int, *, finished_too: bool = False) -> Loaded:
        if channel_id != self.latest.row.channel_id or not finished_too:
            raise NoGame("no game")
        return self.latest


class Urgency(InThread):
    """Draws in a thread, and records whether each picture was asked as urgent."""

    def __init__(self) -> None:
        super().__init__()
        self.urgent: list[bool] = []

    async def draw(
        self, method: str, *args: Any, urgent: bool = False, **kwargs: Any
    ) -> bytes | None:
        self.urgent.append(urgent)
        return await super().draw(method, *args, **kwargs)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    yield fake
    await fake.stop()


@pytest.fixture
def finished() -> Loaded:
    return finished_hearts()[0]


async def test_a_finished_games_table_is_uploaded_once_and_its_url_kept(
    fake: FakeDiscord, api: DiscordApi, finished: Loaded
) -> None:
    clock = Clock(1000.0)
    painter = Urgency()
    shares = Shares(cast(Any, Service(finished)), api, painter, clock=clock)
    channel, game_id = finished.row.channel_id, finished.row.id
    urls = await asyncio.gather(*(shares.url(channel, game_id, "en") for _ in range(3)))
    assert len(set(urls)) == 1  # pressed together: one upload
    assert painter.urgent == [True]  # the sharer waits for it: before the pictures no one does
    [upload] = fake.activities.uploads
    assert urls[0] == upload.url and upload.url.startswith("https://cdn.discordapp.com/")
    assert upload.caller == "bot" and upload.content_type == "image/png"
    assert upload.content.startswith(PNG) and upload.filename == f"game-{game_id}.png"
    clock.now += KEEP_SECONDS - 1
    assert await shares.url(channel, game_id, "en") == urls[0]  # kept: nothing asked
    assert len(fake.activities.uploads) == 1
    await shares.url(channel, game_id, "ro")  # drawn in another language: its own picture
    assert len(fake.activities.uploads) == 2
    clock.now += 2  # the first one's URL is no longer given out
    assert await shares.url(channel, game_id, "en") != urls[0]
    assert len(fake.activities.uploads) == 3
    kinds = [r.kind for r in fake.requests]
    assert kinds == ["POST /applications/{application_id}/attachment"] * 3


@pytest.mark.parametrize("status", [GameStatus.ACTIVE, GameStatus.LOBBY, GameStatus.CANCELLED])
async def test_only_the_channels_finished_game_is_shared(
    fake: FakeDiscord, api: DiscordApi, finished: Loaded, status: GameStatus
) -> None:
    shares = Shares(cast(Any, Service(finished)), api, InThread())
    channel, game_id = finished.row.channel_id, finished.row.id
    with pytest.raises(NotShared, match=NOT_SHAREABLE):
        await shares.url(channel + 1, game_id, "en")  # another channel's
    with pytest.raises(NotShared, match=NOT_SHAREABLE):
        await shares.url(channel, game_id - 1, "en")  # an older game of this channel
    unfinished = replace(finished, row=replace(finished.row, status=status))
    with pytest.raises(NotShared, match=NOT_SHAREABLE):
        await Shares(cast(Any, Service(unfinished)), api, InThread()).url(channel, game_id, "en")
    assert fake.activities.uploads == [] and fake.requests == []


async def test_a_busy_discord_is_a_refusal_to_try_again(
    fake: FakeDiscord, api: DiscordApi, finished: Loaded
) -> None:
    fake.faults.add("POST", "/applications/*", RATE_LIMITED, retry_after=30.0, times=1)
    shares = Shares(cast(Any, Service(finished)), api, InThread())
    with pytest.raises(NotShared, match=BUSY):
        await shares.url(finished.row.channel_id, finished.row.id, "en")
    assert fake.activities.uploads == []


async def test_the_share_op_answers_with_the_url(
    fake: FakeDiscord, api: DiscordApi, finished: Loaded
) -> None:
    shares = Shares(cast(Any, Service(finished)), api, InThread())
    nothing = cast(Any, None)
    hub = Hub(cast(Any, Service(finished)))
    live = LiveEndpoint(
        hub, nothing, nothing, nothing, nothing, api, nothing, nothing, nothing, shares=shares
    )
    socket = Socket()
    viewer = Viewer(cast(Any, socket), 5, "Ana", finished.row.channel_id, 1, "en")
    await live._share(viewer, {"type": "share", "game_id": finished.row.id})
    [upload] = fake.activities.uploads
    assert socket.sent == [{"type": "shared", "game_id": finished.row.id, "url": upload.url}]
    for bad in ("1", True, None, 1.0):
        with pytest.raises(Refused, match=NOT_SHAREABLE):
            await live._share(viewer, {"type": "share", "game_id": bad})
    assert len(fake.activities.uploads) == 1


async def test_the_fakes_upload_route_takes_what_discord_takes(fake: FakeDiscord) -> None:
    base = f"{fake.url}/api/v10/applications"
    bot = {"Authorization": f"Bot {fake.token}"}

    def form(name: str, content: bytes) -> aiohttp.FormData:
        data = aiohttp.FormData()
        data.add_field(name, content, filename="a.png", content_type="image/png")
        return data

    async with aiohttp.ClientSession() as http:

        async def post(path: str, headers: dict[str, str], **kw: Any) -> tuple[int, Any]:
            async with http.post(f"{base}/{path}", headers=headers, **kw) as answer:
                return answer.status, await answer.json(content_type=None)

        app = fake.application_id
        png = PNG + b"\x00\x00\x00\rIHDR" + (40).to_bytes(4, "big") + (30).to_bytes(4, "big")
        status, body = await post(f"{app}/attachment", bot, data=form("file", png))
        assert status == 200
        attachment = body["attachment"]
        assert {"id", "filename", "size", "url", "proxy_url"} <= set(attachment)
        assert (attachment["width"], attachment["height"], attachment["size"]) == (40, 30, 24)
        assert attachment["url"] == fake.activities.uploads[0].url
        assert (await post(f"{app}/attachment", bot, json={"file": "x"}))[1]["code"] == 50035
        assert (await post(f"{app}/attachment", bot, data=form("files[0]", png)))[0] == 400
        assert (await post(f"{app + 1}/attachment", bot, data=form("file", png)))[0] == 404
        assert (await post(f"{app}/attachment", {}, data=form("file", png)))[0] == 401
        too_big = form("file", b"\x00" * (MAX_UPLOAD + 1))
        assert (await post(f"{app}/attachment", bot, data=too_big))[1]["code"] == 40005
        alice = fake.add_user("alice")  # any user's bearer token may upload (the spec's OAuth2)
        code = fake.activities.issue_code(alice)
        form_data = {
            "client_id": str(app),
            "client_secret": CLIENT_SECRET,
            "grant_type": "authorization_code",
            "code": code,
        }
        async with http.post(f"{fake.url}/api/v10/oauth2/token", data=form_data) as answer:
            token = (await answer.json())["access_token"]
        bearer = {"Authorization": f"Bearer {token}"}
        assert (await post(f"{app}/attachment", bearer, data=form("file", png)))[0] == 200
    assert [u.caller for u in fake.activities.uploads] == ["bot", f"bearer:{token}"]
