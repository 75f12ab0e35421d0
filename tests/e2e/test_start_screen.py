"""The live table opened where no game is (the App Launcher's Entry Point opens it in any
channel): its start screen offers the four games, and starting one opens the lobby through
the service's path, with its message in the chat as `/<game> start` posts it. Where the bot
may not post, the screen says so, whether the bot knew it already (the gateway told it) or
learns it from Discord's refusal. Seats show the members' server names and avatars.

Over the socket with the real bot process and the fake Discord, then in Chromium on a phone
(390x844): both screens, every button at least 44x44; screenshots go to
tests/artifacts/activity/start-*.png.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.e2e.browser import ARTIFACTS, launched, need_browser
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import bot_env, find_button, quiet
from tests.e2e.live import connect, live_env, login
from tests.e2e.test_activity_page import start_serving_pages
from tests.e2e.test_table_layout import MEASURE, PRESSABLE, TARGET, new_tab
from tests.fakediscord import FakeDiscord
from tests.fakediscord.endpoint import free_port, wait_ok
from tests.fakediscord.models import SEND_MESSAGES
from web.live import CANNOT_POST

pytestmark = pytest.mark.timeout(120)

HASH = "0123456789abcdef0123456789abcdef"


def games_in(db: Path, channel: int) -> list[tuple[str, str]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT game, status FROM games WHERE channel_id = ? ORDER BY id", (channel,)
        ).fetchall()
    return [(str(g), str(s)) for g, s in rows]


def start_screen(frame: dict[str, Any]) -> bool:
    return frame["type"] == "lobby" and frame["lobby"] is None and "games" in frame


async def test_starting_a_game_where_there_is_none(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, port = fake_discord, free_port()
    await bot_process.start(env={**bot_env(tmp_path), **live_env(fake, port)})
    await wait_ok(port)
    guild = fake.guild_named("Test Server")
    alice = fake.user_named("alice")
    fake.guilds[guild].nicks[alice] = "Captain Al"
    fake.users[alice].avatar = HASH
    channel = fake.add_channel(guild, "launcher")
    instance = fake.activities.add_instance(channel, [alice])
    async with aiohttp.ClientSession() as http:
        client = await connect(http, port, await login(http, fake, port, alice), instance, alice)
        shown = await client.wait(start_screen)
        assert shown["can_post"] is True  # the gateway told the bot what it may do there
        assert {g["game"]: (g["min"], g["max"]) for g in shown["games"]} == {
            "grinch": (2, 6),
            "gnome": (3, 7),
            "hearts": (2, 2),
            "ten": (1, 5),
        }
        await client.send({"type": "lobby", "op": "open", "game": "hearts"})
        lobby = await client.wait(lambda f: f["type"] == "lobby" and f["lobby"] is not None)
        assert lobby["lobby"]["game"] == "hearts" and lobby["lobby"]["host"] is True
        # the chat has the lobby's message, with the buttons `/hearts start` gives it
        await fake.wait_for(lambda: bool(fake.messages(channel)), timeout=10)
        (message,) = fake.messages(channel)
        assert find_button(message, "Join")
        assert games_in(tmp_path / "bot.db", channel) == [("hearts", "lobby")]
        # with a computer, the game starts: alice's seat has her server name and avatar
        await client.send({"type": "lobby", "op": "add_computer", "level": "easy"})
        await client.wait(
            lambda f: f["type"] == "lobby" and len((f["lobby"] or {}).get("players", [])) == 2
        )
        await client.send({"type": "lobby", "op": "start"})
        # (a first frame may go without her face while Discord is asked: then it comes again)
        table = await client.wait(lambda f: f["type"] == "table" and f["seats"][0]["avatar"])
        mine, robot = table["seats"]
        assert mine["name"] == "Captain Al" and mine["you"] is True
        assert mine["avatar"] == f"avatars/{alice}/{HASH}.png?size=64"
        assert robot["computer"] is True and robot["avatar"] is None
        looked_up = [r for r in fake.requests if r.path == f"/guilds/{guild}/members/{alice}"]
        assert len(looked_up) == 1 and looked_up[0].status == 200
        await client.close()
    await quiet(fake)


@pytest.mark.parametrize("known", [True, False], ids=["told", "refused"])
async def test_a_channel_the_bot_cannot_post_in_says_so(
    known: bool, fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    """``told``: the gateway's channel update reached the bot, so the screen says it at once
    and nothing is asked of Discord; ``refused``: the bot missed it, tries to post the lobby,
    is refused (50013), takes the lobby back and the screen says it."""
    fake, port = fake_discord, free_port()
    guild = fake.guild_named("Test Server")
    alice = fake.user_named("alice")
    channel = fake.add_channel(guild, "read-only")
    if known:  # before the bot connects: its guild's snapshot holds the overwrite
        fake.set_bot_permissions(channel, deny=SEND_MESSAGES)
    await bot_process.start(env={**bot_env(tmp_path), **live_env(fake, port)})
    await wait_ok(port)
    if not known:  # a change the bot never hears of
        fake.set_bot_permissions(channel, deny=SEND_MESSAGES, event=False)
    instance = fake.activities.add_instance(channel, [alice])
    path = f"/channels/{channel}/messages"
    async with aiohttp.ClientSession() as http:
        client = await connect(http, port, await login(http, fake, port, alice), instance, alice)
        if known:
            shown = await client.wait(start_screen)
            assert shown["can_post"] is False
            await client.send({"type": "lobby", "op": "open", "game": "grinch"})
            refused = await client.wait(lambda f: f["type"] == "refused")
            assert refused["reason"] == CANNOT_POST
            assert games_in(tmp_path / "bot.db", channel) == []
        else:
            shown = await client.wait(start_screen)
            assert shown["can_post"] is True  # as far as the bot knows
            await client.send({"type": "lobby", "op": "open", "game": "grinch"})
            await client.wait(lambda f: f["type"] == "lobby" and f["lobby"] is not None)
            after = await client.wait(lambda f: start_screen(f) and f["can_post"] is False)
            assert after["lobby"] is None
            assert games_in(tmp_path / "bot.db", channel) == [("grinch", "cancelled")]
            # a second try is refused before Discord is asked again
            await client.send({"type": "lobby", "op": "open", "game": "ten"})
            refused = await client.wait(lambda f: f["type"] == "refused")
            assert refused["reason"] == CANNOT_POST
        posts = [r for r in fake.requests if r.method == "POST" and r.path == path]
        assert [r.status for r in posts] == ([] if known else [403])
        if known:  # an admin lets the bot post: "Check again" shows the games
            fake.set_bot_permissions(channel)
            # the channel's update is read before this interaction, which comes after it
            await (await fake.slash(alice, channel, "scores")).wait_response()
            await client.send({"type": "lobby", "op": "check"})
            again = await client.wait(lambda f: start_screen(f) and f["can_post"] is True)
            assert len(again["games"]) == 4
        await client.close()
    await quiet(fake)


async def measure_phone(tab: Any, name: str) -> None:
    found: dict[str, Any] = await tab.page.evaluate(MEASURE, PRESSABLE)
    assert found["scroll"] <= found["width"], f"{name}: {found['scroll']} px wide"
    small = [p for p in found["pressable"] if p["w"] < TARGET or p["h"] < TARGET]
    assert not small, f"{name}: under {TARGET}x{TARGET} px: {small}"
    assert not found["covered"], f"{name}: covered: {found['covered']}"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    await tab.page.screenshot(path=str(ARTIFACTS / f"start-{name}.png"), full_page=True)


async def test_the_start_screen_on_a_phone(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    browser_path = need_browser()

    fake = fake_discord
    guild = fake.guild_named("Test Server")
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    free = fake.add_channel(guild, "free")
    closed = fake.add_channel(guild, "closed")
    fake.set_bot_permissions(closed, deny=SEND_MESSAGES)  # in the guild's snapshot
    fake.guilds[guild].nicks[alice] = "Captain Al"
    fake.users[alice].avatar = HASH
    _env, port = await start_serving_pages(fake, bot_process, tmp_path)
    free_instance = fake.activities.add_instance(free, [alice])
    closed_instance = fake.activities.add_instance(closed, [bob])
    base = f"http://127.0.0.1:{port}/"
    async with launched(browser_path) as browser:
        url = f"{base}?instance_id={free_instance}&channel_id={free}&user_id={alice}"
        url += "&dialogs=record"  # the stand-in answers Discord's invite dialog, and records it
        tab = await new_tab(browser, url, alice, "phone", "start")
        await tab.page.wait_for_selector(".openers li", timeout=15_000)
        offers = await tab.page.eval_on_selector_all(
            ".openers li",
            "els => els.map(e => [e.dataset.game, e.querySelector('.game-line').textContent,"
            " [...e.querySelectorAll('button')].map(b => b.dataset.lobby)])",
        )
        games = ("grinch", "gnome", "hearts", "ten")
        assert [o[0] for o in offers] == list(games)
        assert [o[2] for o in offers] == [[f"open:{g}", f"play_computers:{g}"] for g in games]
        counts = ("for 2 to 6 players", "for 3 to 7 players", "for two", "for 1 to 5 players")
        assert all(c in o[1] for o, c in zip(offers, counts, strict=True)), offers
        await measure_phone(tab, "phone")
        await tab.lobby("open:ten")
        await tab.page.wait_for_selector('[data-lobby="start"]', timeout=15_000)
        # alone in a lobby with seats free: Invite opens Discord's invite dialog
        await tab.lobby("invite")
        await tab.page.wait_for_function("() => window.discordDialogs.length > 0")
        calls = await tab.page.evaluate("() => window.discordDialogs")
        assert calls == [{"command": "openInviteDialog"}], calls
        await fake.wait_for(lambda: bool(fake.messages(free)), timeout=10)
        assert find_button(fake.messages(free)[0], "Join")
        # the game on: her seat has her server nickname, and (outside Discord, where no
        # avatar is loaded) her letter; the computer its robot
        await tab.lobby("add_computer:easy")
        await tab.lobby("start")
        await tab.page.wait_for_selector('.table[data-game="ten"]', timeout=15_000)
        await tab.page.wait_for_function(
            "() => document.querySelector('.mine .seat .name')?.textContent === 'Captain Al'",
            timeout=15_000,
        )
        assert await tab.page.text_content(".mine .seat .badge") == "C"
        assert await tab.page.query_selector(".seat.computer .badge.computer svg")
        assert await tab.page.query_selector("img.avatar") is None
        # Discord's picture in picture (the root's layout, as the SDK's event sets it):
        # the side column and the language menu are left out, every target keeps 44 px
        left_out = (".table > .side", ".language summary")
        assert [await tab.page.is_visible(s) for s in left_out] == [True, True]
        await tab.page.evaluate("document.documentElement.dataset.layout = 'pip'")
        assert [await tab.page.is_visible(s) for s in left_out] == [False, False]
        await measure_phone(tab, "pip")
        assert not tab.errors, tab.errors

        url = f"{base}?instance_id={closed_instance}&channel_id={closed}&user_id={bob}"
        tab = await new_tab(browser, url, bob, "phone", "closed")
        notice = await tab.page.wait_for_selector(".cannot-post", timeout=15_000)
        assert await notice.text_content() == CANNOT_POST
        offered = await tab.page.eval_on_selector_all(
            "[data-lobby]", "els => els.map(e => e.dataset.lobby)"
        )
        assert offered == ["check"]  # no game to start, only "Check again"
        await measure_phone(tab, "cannot-post")
        assert not tab.errors, tab.errors
    assert fake.messages(closed) == []
    await quiet(fake)


WELCOME = {"type": "welcome", "user": {"id": "1", "name": "alice"}, "channel_id": "5",
           "language": "en", "expires_in": 900}  # fmt: skip
# A channel whose last game is over (its result, no lobby), as the server sends it.
FINISHED = {
    "type": "lobby", "lobby": None, "can_post": True,
    "games": [{"game": "grinch", "min": 2, "max": 6}, {"game": "gnome", "min": 3, "max": 7},
              {"game": "hearts", "min": 2, "max": 2}, {"game": "ten", "min": 1, "max": 5}],
    "last_result": {
        "game": "hearts", "game_id": 7, "names": ["alice", "Robo"], "lowest_wins": True,
        "panel": {"title": "Game over", "description": "alice wins!", "fields": [], "footer": ""},
        "standings": [{"seat": 0, "name": "alice", "total": 40, "place": 1, "winner": True},
                      {"seat": 1, "name": "Robo", "total": 104, "place": 2, "winner": False}],
        "rounds": [[10, 30], [40, 104]],
    },
}  # fmt: skip


async def test_after_a_game_any_game_can_be_started(tmp_path: Path) -> None:
    """Under a finished game's result (Play again), the start screen's games: the channel has
    no game. The page is served by the bot's web server alone; the socket is the test's."""
    browser_path = need_browser()

    from web.page import PageFiles
    from web.server import WebServer

    port = free_port()
    server = WebServer("127.0.0.1", port, lambda: True)
    server.add_routes(PageFiles().routes())
    await server.start()
    opened = asyncio.Event()
    sent: list[dict[str, Any]] = []
    token = {"access_token": "t", "session": "s", "expires_in": 900,
             "user": {"id": "1", "name": "alice", "locale": "en-US"}}  # fmt: skip
    try:
        async with launched(browser_path) as browser:
            tab = await new_tab(browser, "about:blank", 1, "phone", "after")

            def answer(ws: Any) -> None:
                def received(message: str | bytes) -> None:
                    data = json.loads(message)
                    sent.append(data)
                    if data.get("op") == "open":
                        opened.set()
                    if data.get("type") == "hello":
                        ws.send(json.dumps(WELCOME))
                        ws.send(json.dumps(FINISHED))

                ws.on_message(received)

            await tab.page.route("**/api/token", lambda route: route.fulfill(json=token))
            await tab.page.route_web_socket("**/api/live*", answer)
            await tab.page.goto(f"http://127.0.0.1:{port}/?instance_id=i-after&user_id=1")
            await tab.page.wait_for_selector('[data-lobby="play_again"]', timeout=15_000)
            offered = await tab.page.eval_on_selector_all(
                ".next-game [data-lobby^='open:']", "els => els.map(e => e.dataset.lobby)"
            )
            assert offered == [f"open:{g}" for g in ("grinch", "gnome", "hearts", "ten")]
            await measure_phone(tab, "after-a-game")
            await tab.press('[data-lobby="open:gnome"]')
            await asyncio.wait_for(opened.wait(), 10)
            assert sent[-1] == {"type": "lobby", "op": "open", "game": "gnome"}
            assert not tab.errors, tab.errors
    finally:
        await server.stop()
