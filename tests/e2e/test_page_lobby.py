"""The lobby and drop-in on the live table, in Debian's Chromium on phones (390x844, by touch),
against the real bot process and the fake Discord.

alice opens Grinch from the page (each game has its line), adds a computer (a double press
adds one), changes its level and removes it; bob arrives, sees who starts, joins and leaves
again. alice plays with computers in one press; bob, arriving late, watches at once (no hand)
and asks for the next game. alice leaves the running game from the page after a confirm step:
the channel says a computer took her seat and its table shows the computer; she watches the
game end. Its Play again is refused to her on the page (she left); from the end screen she
opens the next game, and bob has a seat in it at once.
Every element a finger can press is a button of at least 44x44 CSS px, on every screen.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import ARTIFACTS, Tab, launched, need_browser
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import bot_env, game_row, quiet
from tests.e2e.live import live_env
from tests.e2e.test_table_layout import MEASURE, PRESSABLE, TARGET, new_tab
from tests.fakediscord import FakeDiscord
from tests.fakediscord.endpoint import free_port, wait_ok

pytestmark = pytest.mark.timeout(240)

WAIT_MS = 20_000
PLAYERS = "n => document.querySelectorAll('.lobby .players li').length === n"


async def fingers(tab: Tab, where: str) -> None:
    """Every pressable element is a named button of 44x44 CSS px or more, its middle its own,
    and nothing is wider than the phone."""
    found: dict[str, Any] = await tab.page.evaluate(MEASURE, PRESSABLE)
    small = [p for p in found["pressable"] if p["w"] < TARGET or p["h"] < TARGET]
    assert not small, f"{where}: under {TARGET}x{TARGET} px: {small}"
    assert not found["covered"], f"{where}: a target's middle is covered: {found['covered']}"
    odd = [p for p in found["pressable"] if p["tag"] not in ("BUTTON", "SUMMARY") or not p["name"]]
    assert not odd, f"{where}: pressable but not a named button: {odd}"
    assert found["scroll"] <= found["width"], f"{where}: {found['scroll']} px wide"


async def text(tab: Tab, selector: str) -> str:
    return str(await tab.page.locator(selector).first.inner_text())


async def players(tab: Tab, n: int) -> None:
    await tab.page.wait_for_function(PLAYERS, arg=n, timeout=WAIT_MS)


def channel_text(fake: FakeDiscord, channel: int) -> str:
    return json.dumps([(m.get("content"), m.get("embeds")) for m in fake.messages(channel)])


async def test_lobby_and_drop_in_on_phones(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    browser_path = need_browser()

    fake, port = fake_discord, free_port()
    fake.activities.accept_mock_codes = True
    await bot_process.start(env={**bot_env(tmp_path), **live_env(fake, port)})
    await wait_ok(port)
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    channel = fake.add_channel(fake.guild_named("Test Server"), "lobby")
    instance = fake.activities.add_instance(channel, [alice, bob])
    base = f"http://127.0.0.1:{port}/?instance_id={instance}&channel_id={channel}"
    async with launched(browser_path) as browser:
        host = await new_tab(browser, f"{base}&user_id={alice}", alice, "phone", "alice")
        await host.page.wait_for_selector('[data-lobby="open:grinch"]', timeout=WAIT_MS)
        lines = await host.page.locator(".openers .game-line").all_inner_texts()
        assert len(lines) == 4 and any(t.startswith("2-Player Hearts, for two:") for t in lines)
        await fingers(host, "the free table")

        # A lobby: a computer added (a double press adds one), its level, then removed.
        await host.lobby("open:grinch")
        await players(host, 1)
        await host.page.locator('[data-lobby="add_computer:normal"]').dblclick()
        await players(host, 2)
        await quiet(fake)
        assert await host.page.locator(".lobby .players li").count() == 2
        await host.lobby("computer_level:1:hard")
        await host.page.wait_for_selector(
            '[data-lobby="computer_level:1:hard"][aria-pressed="true"]', timeout=WAIT_MS
        )
        assert "Robo Max 🤖 hard" in await text(host, ".lobby .players li.computer")
        await fingers(host, "the host's lobby")
        await host.screenshot("lobby-host")
        await host.lobby("remove_computer:1")
        await players(host, 1)
        assert "needed to start" in await text(host, ".lobby .waiting")

        # bob sees who starts, joins, and leaves again.
        guest = await new_tab(browser, f"{base}&user_id={bob}", bob, "phone", "bob")
        await guest.lobby("join")
        await players(guest, 2)
        assert await text(guest, ".lobby .waiting") == "Waiting for alice to start."
        await fingers(guest, "a guest's lobby")
        await guest.screenshot("lobby-guest")
        await guest.lobby("leave")
        await players(host, 1)
        await guest.page.wait_for_selector('[data-lobby="join"]', timeout=WAIT_MS)
        await guest.page.close()

        # Play with computers: one press fills the seats and starts.
        await quiet(fake)
        await host.lobby("play_computers")
        await host.page.wait_for_selector('.table[data-game="grinch"]', timeout=WAIT_MS)
        assert await host.page.evaluate("document.querySelectorAll('.table .seat').length") == 2
        game = game_row(tmp_path / "bot.db")
        assert game["status"] == "active"

        # bob arrives late: he watches at once, without a hand, and asks for the next game.
        late = await new_tab(browser, f"{base}&user_id={bob}", bob, "phone", "late")
        await late.page.wait_for_selector('.table[data-game="grinch"]', timeout=WAIT_MS)
        assert await late.page.query_selector(".mine .seat") is None
        assert await late.page.query_selector("[data-action]") is None
        await fingers(late, "a spectator's table")
        await late.screenshot("lobby-spectator")
        await late.lobby("next_game")
        await late.page.wait_for_selector(
            ".dropin :text('You will have a seat in the next game')", timeout=WAIT_MS
        )

        # alice leaves the running game: a confirm step, then a computer takes her seat.
        await host.lobby("ask_leave")
        await host.lobby("stay")
        await host.lobby("ask_leave")
        assert "A computer player takes your seat" in await text(host, ".dropin")
        await fingers(host, "the confirm step")
        await host.screenshot("lobby-leave-confirm")
        await host.lobby("leave_game")
        await host.page.wait_for_selector(
            ".notice:text('You left the game; Cindy-Bot')", timeout=WAIT_MS
        )
        await fake.wait_for(
            lambda: "alice left the game; Cindy-Bot" in channel_text(fake, channel),
            timeout=15,
        )
        await fake.wait_for(
            lambda: any("Cindy-Bot" in json.dumps(m.get("embeds")) for m in fake.messages(channel)),
            timeout=15,
        )
        seats = [s["name"] for s in await seat_rows(tmp_path / "bot.db", game["id"])]
        assert seats == ["Cindy-Bot", "Robo Max"]

        # Two computers play it to its end; the end screen offers the next game to anyone.
        await host.page.wait_for_selector(".ending", timeout=60_000)
        await host.page.wait_for_selector('[data-lobby="open:grinch"]', timeout=WAIT_MS)
        await fingers(host, "the end screen")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        await host.page.screenshot(path=str(ARTIFACTS / "lobby-end.png"), full_page=True)
        # She left it, so its Play again is not hers: not offered (the backend refuses it).
        assert await host.page.query_selector('[data-lobby="play_again"]') is None
        assert game_row(tmp_path / "bot.db")["id"] == game["id"]
        await quiet(fake)
        await host.lobby("open:grinch")
        await players(host, 2)  # bob, who asked for it, is seated in the next game
        await players(late, 2)
        assert await text(late, ".lobby .waiting") == "Waiting for alice to start."
        names = await host.page.locator(".lobby .players li").all_inner_texts()
        assert names[1].startswith("bob"), names
        for tab in (host, late):
            assert tab.errors == [], tab.errors
    await quiet(fake)


async def seat_rows(db: Path, game_id: int) -> list[dict[str, Any]]:
    import sqlite3

    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        rows = conn.execute(
            "SELECT name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        ).fetchall()
    return [dict(r) for r in rows]
