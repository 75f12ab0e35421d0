"""The table page end to end, in Debian's Chromium against the real bot and the fake Discord.

In each of the four games two tabs (alice on a desktop, moving by keyboard; bob on a
phone-sized screen, by taps) play a whole game, opened, joined and started from the page,
while a third player plays the same game from their DMs (the fake's component clicks;
2-player Hearts has no third seat, so there bob plays some of his cards from his DMs). The
four games run at once, each in its own channel with its own Activity instance. Every move
made on one side shows on the other: before each move every tab of the game must show the
version the database holds, and a DM click is answered with a move only when it was made on
the hand as it is now. Along the way (tests/e2e/page_stages.py): each game's lobby, mid-game
and end are shot at both sizes (1280x800 and 390x844) into tests/artifacts/activity/games/;
mid-game every pressable element is measured (44x44 px, its middle its own, nothing wider than
the screen), Grinch's also in picture-in-picture's short window; every tab ends on the result
screen, and Play again opens the next lobby; Hearts' phone tab has its socket closed for
flooding and shows the next move within 5 s.
"""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import Tab, launched, move_on_page, need_browser
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    bot_env,
    find_button,
    move_accepted,
    newest_live_controls,
    old_control_answer,
    quiet,
)
from tests.e2e.live import live_env
from tests.e2e.page_stages import RECOVERY_S, Flood, mid_game, shoot, the_end
from tests.fakediscord import FakeDiscord
from tests.fakediscord.components import buttons
from tests.fakediscord.endpoint import free_port, wait_ok

pytestmark = pytest.mark.timeout(300)

GAMES = tuple(os.environ.get("PAGE_GAMES", "hearts grinch gnome ten").split())
DM_PLAYER = {"hearts": "bob", "grinch": "carol", "gnome": "erin", "ten": "finn"}
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
MOVE_LIMIT = 700
LOST_PRESSES = 3  # at most this many per tab and game: more would be the page losing moves


@dataclass
class Table:
    game: str
    channel: int
    tabs: list[Tab]
    dm_player: int
    flood: Flood | None = None  # the phone tab's socket, for the flood (Hearts only)
    moves: int = 0
    dm_moves: int = 0
    stale_dm: int = 0
    seconds: float = 0.0


def game_in(db: Path, channel: int) -> tuple[str, int] | None:
    """The status and version of the newest game of ``channel``."""
    with sqlite3.connect(db) as conn:
        row = conn.execute(
            "SELECT status, version FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            (channel,),
        ).fetchone()
    return None if row is None else (str(row[0]), int(row[1]))


async def start_serving_pages(
    fake: FakeDiscord, bot: BotProcess, tmp_path: Path
) -> tuple[dict[str, str], int]:
    """The bot started with the table page served (pages sign in by ``?user_id=``): its
    environment, for a restart, and its web port."""
    port = free_port()
    fake.click_settle = 0.05
    fake.activities.accept_mock_codes = True
    env = {**bot_env(tmp_path), **live_env(fake, port)}
    await bot.start(env=env)
    await wait_ok(port)
    return env, port


async def open_tab(
    browser: Any, url: str, user: int, name: str, *, phone: bool = False, route: Flood | None = None
) -> Tab:
    context = await browser.new_context(
        viewport=PHONE if phone else DESKTOP,
        has_touch=phone,
        is_mobile=phone,
        reduced_motion="reduce" if phone else "no-preference",
    )
    page = await context.new_page()
    tab = Tab(page, user, name, keyboard=not phone)
    if route is not None:
        await page.route_web_socket("**/api/live*", route.route)
    await page.goto(url)
    return tab


async def move_in_dms(fake: FakeDiscord, user: int, rng: random.Random) -> bool | None:
    """One click on the user's newest live DM: True for a move, False for a stale hand (the
    answer redraws it), None when there is nothing to click."""
    found = newest_live_controls(fake, user)
    if found is None:
        return None
    message, moves, menus = found
    if menus and (not moves or rng.random() < 0.5):
        menu = rng.choice(menus)
        rec = await fake.select(
            user, int(message["id"]), menu.custom_id, [rng.choice(menu.options)[1]]
        )
    else:
        rec = await fake.click(user, int(message["id"]), rng.choice(moves).custom_id or "")
    reply = await rec.wait_response()
    if old_control_answer(reply):
        return False
    assert move_accepted(reply), reply
    return True


async def join_from_the_channel(fake: FakeDiscord, channel: int, user: int) -> None:
    def lobby() -> dict[str, Any] | None:
        return next(
            (
                m
                for m in reversed(fake.messages(channel))
                if any(b.label == "Join" for b in buttons(m))
            ),
            None,
        )

    await fake.wait_for(lambda: lobby() is not None, timeout=15)
    message = lobby()
    assert message is not None
    click = await fake.click(user, int(message["id"]), find_button(message, "Join").custom_id or "")
    await click.wait_response()


async def play(fake: FakeDiscord, db: Path, table: Table, seed: int) -> None:
    """Open the table's game from the first tab, join and start it, play it to its end."""
    rng = random.Random(seed)
    started = time.monotonic()
    host, guest = table.tabs
    await host.lobby(f"open:{table.game}")
    await guest.lobby("join")
    if table.game != "hearts":
        await join_from_the_channel(fake, table.channel, table.dm_player)
    seats = 2 if table.game == "hearts" else 3
    for tab in table.tabs:
        await tab.page.wait_for_function(
            "n => document.querySelectorAll('.lobby .players li').length === n", arg=seats
        )
    await shoot(table.tabs, table.game, "lobby")
    await host.lobby("start")
    for tab in table.tabs:
        await tab.page.wait_for_selector(f'.table[data-game="{table.game}"]', timeout=15_000)
    shot = False
    idle = 0
    while (row := game_in(db, table.channel)) is not None and row[0] == "active":
        for tab in table.tabs:  # the page shows every move, whichever side made it
            await tab.wait_version(row[1])
        if table.moves >= 8 and not shot:
            await mid_game(table.tabs, table.game, seats)
            shot = True
        if table.flood is not None and table.moves >= 10:
            await flooded(fake, table, rng)
        moved: bool | None = False
        dm_turn = rng.random() < (0.15 if table.game == "hearts" else 0.5)
        if dm_turn:
            moved = await move_in_dms(fake, table.dm_player, rng)
        for tab in rng.sample(table.tabs, len(table.tabs)):
            if moved:
                break
            moved = await move_on_page(tab, rng)
        if not moved and not dm_turn:
            moved = await move_in_dms(fake, table.dm_player, rng)
        if moved:
            table.moves += 1
            table.dm_moves += dm_turn
            idle = 0
        else:
            table.stale_dm += moved is False
            idle += 1
            assert idle < 400, f"{table.game}: nobody could move"
            await asyncio.sleep(0.02)  # a move is still on its way to a tab or a DM
        assert table.moves < MOVE_LIMIT
    await the_end(table.tabs, table.game, seats)
    table.seconds = time.monotonic() - started


async def flooded(fake: FakeDiscord, table: Table, rng: random.Random) -> None:
    """The phone tab's socket is closed for flooding; the next move shows on it within 5 s."""
    flood, phone = table.flood, table.tabs[1]
    assert flood is not None
    table.flood = None
    before = await table.tabs[0].version()  # every tab shows the database's version here
    await flood.flood()
    started = time.monotonic()
    # The next move, by whoever has it: the desktop tab, the DMs, or the flooded tab itself
    # once its new socket is open (its player's DM waits while their page is open; a press
    # while the page reconnects is not sent, and move_on_page says it moved nothing).
    while not (
        await move_on_page(table.tabs[0], rng)
        or await move_in_dms(fake, table.dm_player, rng)
        or (flood.sockets >= 2 and await move_on_page(phone, rng))
    ):
        assert time.monotonic() - started < 10, "nobody could move after the flood"
        await asyncio.sleep(0.05)
    table.moves += 1
    from playwright.async_api import TimeoutError as NotShown

    try:
        await phone.wait_version(before + 1, timeout=RECOVERY_S)
    except NotShown:
        status = await phone.page.evaluate("document.body.innerText.slice(0, 300)")
        closes, sockets = flood.closes, flood.sockets
        raise AssertionError(f"after the flood ({closes}, {sockets} sockets): {status!r}") from None
    assert flood.sockets >= 2, "the flooded tab did not open a new socket"


async def test_two_tabs_and_a_dm_player_play_every_game(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    browser_path = need_browser()

    fake, db = fake_discord, tmp_path / "bot.db"
    guild = fake.guild_named("Test Server")
    for name in ("erin", "finn"):
        fake.add_user(name)
    _, port = await start_serving_pages(fake, bot_process, tmp_path)
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    async with launched(browser_path) as browser:
        tables = []
        for game in GAMES:
            channel = fake.add_channel(guild, f"table-{game}")
            third = fake.user_named(DM_PLAYER[game])
            instance = fake.activities.add_instance(channel, [alice, bob, third])
            base = f"http://127.0.0.1:{port}/?instance_id={instance}&channel_id={channel}"
            flood = Flood() if game == "hearts" else None
            tabs = [
                await open_tab(browser, f"{base}&user_id={alice}", alice, f"{game}-alice"),
                await open_tab(
                    browser,
                    f"{base}&user_id={bob}",
                    bob,
                    f"{game}-bob",
                    phone=True,
                    route=flood,
                ),
            ]
            tables.append(Table(game, channel, tabs, third, flood))
        await asyncio.gather(*(play(fake, db, t, 20261203 + i) for i, t in enumerate(tables)))
        for table in tables:
            for tab in table.tabs:
                assert tab.errors == [], tab.errors
                assert tab.lost_presses <= LOST_PRESSES, (tab.name, tab.lost_presses)
            assert table.dm_moves > 0
    await quiet(fake)
    sys.stdout.write(
        "\npage games: "
        + ", ".join(
            f"{t.game} {t.seconds:.1f} s, {t.moves} moves ({t.dm_moves} in DMs, {t.stale_dm} stale)"
            for t in tables
        )
        + "\n"
    )
