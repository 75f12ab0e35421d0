"""The end of a game on the live table, through the real bot and the fake Discord.

Over the socket: alice plays Hearts against a hard computer to its end; the channel's last
result carries the standings and the chart's rounds of the game's score sheet (the numbers the
results store) and the final table; **Play again** (the ``play_again`` lobby op) opens a new
lobby with the same computer at its level and posts it in the channel, and is refused to
someone who did not play, for a game of another channel and once a lobby is open; **Share**
(the ``share`` op) uploads the final table's picture once and answers every sharer in the
channel with its CDN URL.

In Debian's Chromium on a phone (390x844, by touch): the same game played from the page ends
on the result screen (winner, standings, chart; no Markdown, nothing wider than the screen,
Play again a real 44 px button); Share uploads the final table's picture and opens the
share dialog with its URL (the SDK's mock recording it); pressing Play again shows the new
lobby with the computer.
A screenshot goes to tests/artifacts/activity/.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from engine import GAMES
from engine.sheet import final_sheet
from tests.e2e.browser import ARTIFACTS, Tab, launched, move_on_page, need_browser
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import bot_env, game_row, quiet
from tests.e2e.live import Client, connect, live_env, login
from tests.e2e.page_stages import END_SCREEN
from tests.e2e.test_table_layout import new_tab, open_with_computers
from tests.fakediscord import FakeDiscord
from tests.fakediscord.endpoint import free_port, wait_ok
from web.live import FLOOD_SECONDS
from web.share import NOT_SHAREABLE

pytestmark = pytest.mark.timeout(240)

PACE = 0.3  # seconds between two of alice's moves over the socket
MOVE_LIMIT = 4000  # tries (a move, or a short wait): a Hearts game ends well before


def _players(frame: dict[str, Any]) -> list[tuple[str, str | None]]:
    lobby = frame.get("lobby") or {}
    return [(p["name"], p["level"]) for p in lobby.get("players", [])]


def _seats(db: Path, game_id: int) -> list[tuple[str, int, str]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT name, is_computer, level FROM seats WHERE game_id = ? ORDER BY seat",
            (game_id,),
        ).fetchall()
    return [(str(name), int(computer), str(level)) for name, computer, level in rows]


async def _play_to_the_end(alice: Client) -> dict[str, Any]:
    """Alice's moves (a card when she has one) until the channel's lobby frame with the game's
    result comes; that frame."""
    seen = -1

    def next_frame(f: dict[str, Any]) -> bool:
        if f["type"] == "lobby":
            return f.get("last_result") is not None
        return (
            f["type"] == "table"
            and f["version"] > seen
            and bool(f["moves"])
            and (f["step"] is not None)
        )

    for _ in range(MOVE_LIMIT):
        frame = await alice.wait(next_frame, timeout=30)
        if frame["type"] == "lobby":
            return frame
        actions = [m["action"] for m in frame["moves"]]
        cards = [a for a in actions if a.startswith("p.")]
        await alice.send(
            {"type": "move", "game_id": frame["game_id"], "step": frame["step"],
             "action": (cards or actions)[0]}
        )  # fmt: skip
        seen = frame["version"]
        await asyncio.sleep(PACE)  # under the web edge's 20 messages in 5 s (web/live.py)
    raise AssertionError("the game did not end")


async def _window_passed() -> None:
    """The web edge's flood window over alice's last moves has passed: the messages the test
    sends next are not counted with them (a game ending soon after her last move left up to
    17 in the window, and the test sends five more at once)."""
    await asyncio.sleep(FLOOD_SECONDS)


async def test_the_result_and_play_again_over_the_socket(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake, db, port = fake_discord, tmp_path / "bot.db", free_port()
    await bot_process.start(env={**bot_env(tmp_path), **live_env(fake, port)})
    await wait_ok(port)
    channel = fake.channel_named("games")
    alice, carol = fake.user_named("alice"), fake.user_named("carol")
    instance = fake.activities.add_instance(channel, [alice, carol])
    async with aiohttp.ClientSession() as http:
        host, stranger = [
            await connect(http, port, await login(http, fake, port, user), instance, user)
            for user in (alice, carol)
        ]
        await host.send({"type": "lobby", "op": "open", "game": "hearts"})
        await host.wait(lambda f: f["type"] == "lobby" and _players(f) == [("alice", None)])
        await host.send({"type": "lobby", "op": "add_computer", "level": "hard"})
        computer = _players(await host.wait(lambda f: len(_players(f)) == 2))[1]
        assert computer[1] == "hard"
        await host.send({"type": "lobby", "op": "start"})

        last = (await _play_to_the_end(host))["last_result"]
        await _window_passed()
        old = game_row(db)
        assert old["status"] == "finished" and last["game_id"] == old["id"]
        game = GAMES["hearts"]
        outcome = game.outcome(game.from_json(old["snapshot"]))
        assert outcome is not None
        sheet = final_sheet(outcome, lowest_wins=game.lowest_wins)
        shown = {r["seat"]: (r["total"], r["place"], r["winner"]) for r in last["standings"]}
        assert shown == {
            s: (sheet.totals[s], sheet.places[s], s in sheet.winners) for s in range(2)
        }
        assert last["rounds"][-1] == list(sheet.totals)
        assert last["table"]["status"] == "finished" and last["table"]["seat"] == 0
        assert last["table"]["version"] == old["version"]
        assert last["table"]["last"], "the final table without its last moves"

        # Share: the final table's picture uploaded once, its CDN URL given to every sharer
        # in the channel (a spectator too); an older or unknown game is refused.
        await host.send({"type": "share", "game_id": old["id"]})
        shared = await host.wait(lambda f: f["type"] == "shared")
        [upload] = fake.activities.uploads
        assert shared == {"type": "shared", "game_id": old["id"], "url": upload.url}
        assert upload.content.startswith(b"\x89PNG") and upload.caller == "bot"
        await stranger.send({"type": "share", "game_id": old["id"]})
        assert (await stranger.wait(lambda f: f["type"] == "shared"))["url"] == upload.url
        await host.send({"type": "share", "game_id": old["id"] - 1})
        await host.wait(lambda f: f["type"] == "refused" and f["reason"] == NOT_SHAREABLE)
        assert len(fake.activities.uploads) == 1

        # Someone who did not play, and a game of another channel: refused, nothing opened.
        await stranger.send({"type": "lobby", "op": "play_again", "game_id": old["id"]})
        refused = await stranger.wait(lambda f: f["type"] == "refused")
        assert refused["reason"].startswith("Only the players"), refused
        await host.send({"type": "lobby", "op": "play_again", "game_id": "1"})
        await host.wait(lambda f: f["type"] == "refused")
        assert game_row(db)["id"] == old["id"]

        await host.send({"type": "lobby", "op": "play_again", "game_id": old["id"]})
        again = await host.wait(
            lambda f: f["type"] == "lobby" and f["lobby"] is not None
            and f["lobby"]["game_id"] != old["id"] and len(_players(f)) == 2
        )  # fmt: skip
        assert again["lobby"]["game"] == "hearts"
        assert _players(again) == [("alice", None), computer]
        new_id = again["lobby"]["game_id"]
        assert [(n, c) for n, c, _ in _seats(db, new_id)] == [("alice", 0), (computer[0], 1)]
        assert _seats(db, new_id)[1][2] == "hard"
        # The lobby is posted in the channel, as one opened from the page is.
        await fake.wait_for(
            lambda: any('"label": "Join"' in json.dumps(m.get("components")) for m in
                        fake.messages(channel)),
            timeout=15,
        )  # fmt: skip
        # Pressed twice: the channel already has its lobby.
        await host.send({"type": "lobby", "op": "play_again", "game_id": old["id"]})
        await host.wait(lambda f: f["type"] == "refused" and "already has a game" in f["reason"])
        assert game_row(db)["id"] == new_id
        for client in (host, stranger):
            await client.close()
    await quiet(fake)


async def test_the_end_screen_and_play_again_on_a_phone(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    browser_path = need_browser()

    fake, port = fake_discord, free_port()
    fake.activities.accept_mock_codes = True
    await bot_process.start(env={**bot_env(tmp_path), **live_env(fake, port)})
    await wait_ok(port)
    alice = fake.user_named("alice")
    channel = fake.add_channel(fake.guild_named("Test Server"), "ending")
    instance = fake.activities.add_instance(channel, [alice])
    url = f"http://127.0.0.1:{port}/?instance_id={instance}&channel_id={channel}&user_id={alice}"
    url += "&dialogs=record"  # the mock stands in for Discord's share dialog, and records it
    async with launched(browser_path) as browser:
        tab = await new_tab(browser, url, alice, "phone")
        await open_with_computers(tab, "hearts", 1)
        rng = random.Random(49)
        for _ in range(MOVE_LIMIT):
            if await tab.page.query_selector(".ending") is not None:
                break
            if not await move_on_page(tab, rng):
                await asyncio.sleep(0.05)
        else:
            raise AssertionError("the end screen did not come")
        found = await tab.page.evaluate(END_SCREEN)
        assert found["rows"] == 2 and found["chart"] and found["finalTable"], found
        assert found["winner"].endswith(("wins!", "share the win!", "this time.")), found
        assert "**" not in found["text"], found["text"]
        assert found["scroll"] <= found["width"], found
        assert found["again"]["w"] >= 44 and found["again"]["h"] >= 44, found
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        await tab.page.screenshot(path=str(ARTIFACTS / "ending-phone.png"), full_page=True)

        await tab.lobby("share")  # the picture uploaded, then Discord's share dialog
        from playwright.async_api import TimeoutError as NoDialog

        try:
            await tab.page.wait_for_function("() => window.discordDialogs.length > 0")
        except NoDialog:
            said = await tab.page.evaluate("document.body.innerText.slice(0, 400)")
            uploads = fake.activities.uploads
            raise AssertionError(f"no dialog; uploads {uploads}: {said!r}") from None
        calls = await tab.page.evaluate("() => window.discordDialogs")
        [upload] = fake.activities.uploads
        assert calls == [{"command": "openShareMomentDialog", "mediaUrl": upload.url}]

        await tab.lobby("play_again")
        await tab.page.wait_for_function(
            """() => document.querySelector('.ending') === null
                && document.querySelectorAll('.lobby .players li').length === 2""",
            timeout=15_000,
        )
        assert await tab.page.query_selector('[data-lobby="start"]') is not None
        await start(tab, fake)
        assert tab.errors == [], tab.errors
    await quiet(fake)


async def start(tab: Tab, fake: FakeDiscord) -> None:
    """Start the lobby from the page once the bot is done with it: the lobby's message posted
    in the channel redraws the page's lobby once more, and a press during that redraw would
    land on a button that is gone."""
    await quiet(fake)
    await tab.lobby("start")
    await tab.page.wait_for_selector('.table[data-game="hearts"]', timeout=15_000)
