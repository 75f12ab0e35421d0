"""The live table in the viewer's language, in Debian's Chromium (docs/activity.md, "The
viewer's language").

Alice's Discord is in Romanian ("ro", the OAuth2 user's locale), her server in English. Her page
opens in Romanian: its own words, and the server's words in its frames (her hand's panel, made
by the bot in her language), while the DMs the bot sends her stay in the server's English. She
picks Estonian (which Discord has no locale for) on the page: her socket's frames come in
Estonian at once, and a reload keeps her pick. Without a browser: a socket's language from its
hello, then from a ``language`` message.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from babel.messages.pofile import read_po

import i18n
from i18n.catalogs import po_path
from tests.e2e.browser import Tab, launched, need_browser
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import bot_env, quiet, set_locales
from tests.e2e.live import Client, live_env, login
from tests.e2e.test_activity_page import start_serving_pages
from tests.e2e.test_table_layout import open_with_computers
from tests.fakediscord import FakeDiscord
from tests.fakediscord.endpoint import free_port, wait_ok
from web.live import NOT_HERE

pytestmark = pytest.mark.timeout(120)


def page_word(language: str, message: str) -> str:
    """``message`` as the page shows it in ``language`` (the page's own catalog)."""
    with po_path(language, "page").open("rb") as source:
        found = read_po(source, locale=language).get(message)
    assert found is not None and found.string, (language, message)
    return str(found.string)


def hand_title(language: str) -> str:
    """The title of a Grinch player's hand panel, as the bot writes it in ``language``."""
    with i18n.using(language):
        return i18n.pgettext("grinch", "Your hand")


def titles(frame: dict[str, Any]) -> list[str]:
    """The titles of a table frame's panels (a player's: their hand's)."""
    return [str(panel["title"]) for panel in frame["panels"]]


class Frames:
    """What the server sent the page's sockets, newest last."""

    def __init__(self, page: Any) -> None:
        self.seen: list[dict[str, Any]] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._add))

    def _add(self, payload: str | bytes) -> None:
        self.seen.append(json.loads(payload))

    def last(self, kind: str) -> dict[str, Any]:
        found = [f for f in self.seen if f.get("type") == kind]
        assert found, f"no {kind} frame yet"
        return found[-1]


async def shows(page: Any, text: str) -> None:
    await page.wait_for_function("t => document.body.innerText.includes(t)", arg=text)


async def dm_titles(fake: FakeDiscord, user: int) -> list[str]:
    """The titles of the embeds the bot sent ``user`` in DMs (waits for the first)."""
    for _ in range(300):
        titles = [str(e.get("title")) for m in fake.dm_messages(user) for e in m.get("embeds", [])]
        if titles:
            return titles
        await asyncio.sleep(0.05)
    raise AssertionError("no DM came")


async def test_a_socket_s_language_follows_its_hello_then_its_pick(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, port = fake_discord, free_port()
    await bot_process.start(env={**bot_env(tmp_path), **live_env(fake, port)})
    await wait_ok(port)
    guild = fake.guild_named("Test Server")
    alice = fake.user_named("alice")
    channel = fake.add_channel(guild, "sockets")
    instance = fake.activities.add_instance(channel, [alice])
    async with aiohttp.ClientSession() as http:
        session = await login(http, fake, port, alice)

        async def opened(**hello: str) -> Client:
            address = f"http://127.0.0.1:{port}/api/live"
            ws = await http.ws_connect(address, params={"instance": instance})
            client = Client(ws, alice)
            await client.send({"type": "hello", "session": session, "instance": instance, **hello})
            return client

        # the page's pick, else the client's locale, else the server's (English)
        for hello, language in (
            ({}, "en"),
            ({"locale": "ro"}, "ro"),
            ({"locale": "ro", "language": "et"}, "et"),
            ({"locale": "ja", "language": "de"}, "en"),
        ):
            client = await opened(**hello)
            welcome = await client.wait(lambda f: f["type"] == "welcome")
            assert welcome["language"] == language, hello
            await client.close()

        client = await opened(locale="ro")
        await client.wait(lambda f: f["type"] == "lobby")
        await client.send({"type": "lobby", "op": "open", "game": "grinch"})
        await client.wait(lambda f: f["type"] == "lobby" and f["lobby"] is not None)
        await client.send({"type": "lobby", "op": "add_computer", "level": "easy"})
        await client.wait(
            lambda f: f["type"] == "lobby" and len((f["lobby"] or {}).get("players", [])) == 2
        )
        await client.send({"type": "lobby", "op": "start"})
        table = await client.wait(lambda f: f["type"] == "table")
        assert titles(table) == [hand_title("ro")]
        await client.send({"type": "language", "language": "et"})
        await client.wait(lambda f: f["type"] == "table" and titles(f) == [hand_title("et")])
        # a refusal comes in the socket's language too
        await client.send({"type": "move", "game_id": 0, "step": 0, "action": "x"})
        refused = await client.wait(lambda f: f["type"] == "refused")
        with i18n.using("et"):
            assert refused["reason"] == i18n._(NOT_HERE) != NOT_HERE
        await client.send({"type": "language", "language": "xx"})  # not one of the bot's
        assert await client.closed_with() == 4000
        await client.close()
    await quiet(fake)


async def test_the_page_speaks_the_viewer_s_discord_language_and_her_pick(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    browser_path = need_browser()

    fake = fake_discord
    guild = fake.guild_named("Test Server")
    alice = fake.user_named("alice")
    set_locales(fake, users={alice: "ro"}, guilds={guild: "en-US"})
    _, port = await start_serving_pages(fake, bot_process, tmp_path)
    channel = fake.add_channel(guild, "table-language")
    instance = fake.activities.add_instance(channel, [alice])
    url = f"http://127.0.0.1:{port}/?instance_id={instance}&channel_id={channel}&user_id={alice}"
    async with launched(browser_path) as browser:
        # an English browser: the Romanian comes from her Discord, not from Chromium
        context = await browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
        page = await context.new_page()
        frames = Frames(page)
        tab = Tab(page, alice, "alice")
        await page.goto(url)
        await page.wait_for_selector(".lobby", timeout=15_000)
        assert frames.last("welcome")["language"] == "ro"
        assert await page.evaluate("document.documentElement.lang") == "ro"
        assert await page.text_content(".lobby h1") == page_word("ro", "The table is free")

        await open_with_computers(tab, "grinch", 2)
        await shows(page, hand_title("ro"))
        assert titles(frames.last("table")) == [hand_title("ro")] == ["Mâna ta"]
        assert await page.text_content(".side h3") == page_word("ro", "Last moves")
        await page.click(".language summary")
        await page.click('[data-language="et"]')
        await shows(page, hand_title("et"))
        version = frames.last("table")["version"]
        assert titles(frames.last("table")) == [hand_title("et")]
        assert await page.evaluate("document.documentElement.lang") == "et"
        assert await page.text_content(".side h3") == page_word("et", "Last moves")
        label = await page.get_attribute(".language summary", "aria-label")
        assert label == f"{page_word('et', 'Language')}: Eesti"

        # the pick is kept: a reload opens the table in Estonian
        await page.reload()
        await shows(page, hand_title("et"))
        assert frames.last("welcome")["language"] == "et"
        assert frames.last("table")["version"] >= version
        assert tab.errors == [], tab.errors
        # the chat is left as it was: her hand, which waited in her DMs while the page
        # showed it, comes once the page closes, in her server's English
        assert fake.dm_messages(alice) == []
        await context.close()
        sent = await dm_titles(fake, alice)
        assert hand_title("en") in sent and hand_title("ro") not in sent, sent
    await quiet(fake)
