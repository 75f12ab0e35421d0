"""discordkit.rest with a picture: a hand edit reaches the fake Discord (in this process) as
one prebuilt multipart body, retried on a 500 as discord.py retries, and its errors raised
as discord.py raises them."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from discord.http import Route

from discordkit.rest import edit_message
from tests.fakediscord import FakeDiscord
from tests.fakediscord.faults import MISSING_PERMISSIONS, SERVER_ERROR
from tests.fakediscord.rawclient import rest_call

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 60  # 15 kB
MESSAGE = "/channels/{channel_id}/messages/{message_id}"


class NoForm(aiohttp.FormData):
    """discord.py's per-attempt form: the requests under test must not build one."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise AssertionError("a request with files built an aiohttp.FormData")


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
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
