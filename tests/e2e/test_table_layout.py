"""The table's layout in Debian's Chromium, on a phone (390x844) and a desktop (1280x800).

One bot process, the fake Discord, four channels: a player opens each of the four games from the
page with computers (Grinch with 3, Gnoming with 6, Hearts with 1, Ten with 4: 2 to 7 seats),
starts it and plays a few moves from a desktop tab; then a phone tab of theirs opens the same
game. In both, mid-game, on their turn: every seat sits at the table (theirs at the bottom,
ringed and timed while they act), every element a finger can press is a real button of at least
44x44 CSS px with its middle its own, nothing is wider than the screen, a card they can play is
named in words, the moves were announced; Grinch's table is also checked in a short window
(640x360), Gnoming's on the phone on its side (844x390). A game without a page view of its own
(a frame of "fifth", the socket played by the test) is drawn by the generic view with the same
checks, and so is a spectator's Hearts table on a phone (every seat around the middle).
Screenshots go to tests/artifacts/table/.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import REPO, Tab, launched, move_on_page, need_browser
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import bot_env, quiet
from tests.e2e.live import live_env
from tests.fakediscord import FakeDiscord
from tests.fakediscord.endpoint import free_port, wait_ok

pytestmark = pytest.mark.timeout(240)

SHOTS = REPO / "tests" / "artifacts" / "table"
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
PIP = {"width": 640, "height": 360}  # a short window, as Discord's picture-in-picture
SIDEWAYS = {"width": 844, "height": 390}  # the phone on its side
COMPUTERS = {"grinch": 3, "gnome": 6, "hearts": 1, "ten": 4}
# One player per game: the web edge allows a user 6 sockets and 5 instance look-ups at once.
PLAYER = {"grinch": "alice", "gnome": "bob", "hearts": "carol", "ten": "erin"}
MOVES = 4  # alice's moves before the table is measured: mid-game
TARGET = 44  # CSS px a finger needs, each way
PRESSABLE = "button, a[href], summary, input, select, textarea, [role=button], [tabindex]"

# What the page shows, measured in the browser: each pressable element's tag, size and name,
# the widest thing, the seats and the viewer's ring and timer.
MEASURE = """sel => {
  const visible = e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const pressable = [...document.querySelectorAll(sel)].filter(visible).map(e => {
    const r = e.getBoundingClientRect();
    return { tag: e.tagName, w: r.width, h: r.height,
             name: e.getAttribute('aria-label') || e.textContent.trim(),
             card: e.classList.contains('card-button'),
             what: e.dataset.action || e.dataset.cell || e.className };
  });
  // A target is only as big as what of it a finger reaches: the middle 44x44 of each must be
  // its own, not covered by a neighbour (a fanned card's middle is the next card's).
  const covered = [...document.querySelectorAll(sel)].filter(visible).filter(e => {
    e.scrollIntoView({ block: 'center', inline: 'center' });
    const r = e.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2, d = 20;
    return [[x, y], [x - d, y - d], [x + d, y - d], [x - d, y + d], [x + d, y + d]]
      .some(([px, py]) => !e.contains(document.elementFromPoint(px, py)));
  }).map(e => e.dataset.action || e.dataset.cell || e.className);
  window.scrollTo(0, 0);
  const mine = document.querySelector('.mine .seat');
  return {
    pressable,
    covered,
    width: window.innerWidth,
    scroll: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
    seats: document.querySelectorAll('.table .seat').length,
    others: document.querySelectorAll('.others .seat').length,
    mineActing: mine ? mine.classList.contains('acting') : null,
    mineTimer: mine ? mine.querySelector('.timer') !== null : null,
    shownSeats: Number(document.querySelector('.table')?.dataset.seats ?? -1),
  };
}"""


async def new_tab(browser: Any, url: str, user: int, size: str, name: str = "") -> Tab:
    phone = size == "phone"
    context = await browser.new_context(
        viewport=SIZES[size], has_touch=phone, is_mobile=phone, reduced_motion="reduce"
    )
    page = await context.new_page()
    tab = Tab(page, user, name or size, keyboard=not phone)
    # The console's errors count as the page's (a style the Content-Security-Policy refuses).
    page.on("console", lambda m: tab.errors.append(m.text) if m.type == "error" else None)
    await page.goto(url)
    return tab


async def open_with_computers(tab: Tab, game: str, computers: int) -> None:
    await tab.lobby(f"open:{game}")
    for n in range(computers):
        await tab.lobby("add_computer:normal")
        await tab.page.wait_for_function(
            "n => document.querySelectorAll('.lobby .players li').length >= n", arg=n + 2
        )
    await tab.lobby("start")
    await tab.page.wait_for_selector(f'.table[data-game="{game}"]', timeout=15_000)


async def my_turn(tab: Tab) -> None:
    """Waits until the tab offers a move (its cards and buttons are all there)."""
    await tab.page.wait_for_selector("[data-action], [data-cell]", timeout=20_000)


async def measure(tab: Tab, game: str, seats: int) -> dict[str, Any]:
    found: dict[str, Any] = await tab.page.evaluate(MEASURE, PRESSABLE)
    where = f"{game} on the {tab.name}"
    assert found["scroll"] <= found["width"], f"{where}: {found['scroll']} px wide"
    assert found["seats"] == seats == found["shownSeats"], (where, found["seats"])
    small = [p for p in found["pressable"] if p["w"] < TARGET or p["h"] < TARGET]
    assert not small, f"{where}: under {TARGET}x{TARGET} px: {small}"
    assert not found["covered"], f"{where}: a target's middle is covered: {found['covered']}"
    not_buttons = [p for p in found["pressable"] if p["tag"] not in ("BUTTON", "SUMMARY")]
    assert not not_buttons, f"{where}: pressable but not a button: {not_buttons}"
    assert all(p["name"] for p in found["pressable"]), f"{where}: a button without a name"
    SHOTS.mkdir(parents=True, exist_ok=True)
    await tab.page.screenshot(path=str(SHOTS / f"{game}-{tab.name}.png"), full_page=True)
    return found


async def lay_out(browser: Any, fake: FakeDiscord, port: int, game: str, seed: int) -> None:
    user = fake.user_named(PLAYER[game])
    channel = fake.add_channel(fake.guild_named("Test Server"), f"layout-{game}")
    watcher = fake.user_named("dora")  # watches the Hearts game from a phone
    instance = fake.activities.add_instance(
        channel, [user, watcher] if game == "hearts" else [user]
    )
    base = f"http://127.0.0.1:{port}/?instance_id={instance}&channel_id={channel}"
    url = f"{base}&user_id={user}"
    desk = await new_tab(browser, url, user, "desktop")
    await open_with_computers(desk, game, COMPUTERS[game])
    rng = random.Random(seed)
    moved = 0
    while moved < MOVES:
        await my_turn(desk)
        moved += await move_on_page(desk, rng)
    # The moves were told to a screen reader through the live region outside the table.
    told = await desk.page.evaluate("document.getElementById('announce').textContent")
    assert told, f"{game}: no move announced"
    phone = await new_tab(browser, url, user, "phone")
    seats = COMPUTERS[game] + 1
    for tab in (desk, phone):
        await my_turn(tab)
        found = await measure(tab, game, seats)
        assert found["others"] == seats - 1 and found["mineActing"] and found["mineTimer"]
        cards = [p for p in found["pressable"] if p["card"]]
        assert cards or game == "ten", f"{game}: no card to press"  # Ten's turn may be buttons
        if game == "hearts":
            suits = ("hearts", "spades", "clubs", "diamonds")
            assert all(p["name"].split(" of ")[-1] in suits for p in cards), cards
    if game == "hearts":  # a spectator: every seat around the table, none at the bottom
        watching = await new_tab(
            browser, f"{base}&user_id={watcher}", watcher, "phone", "spectator"
        )
        await watching.page.wait_for_selector('.table[data-game="hearts"]', timeout=15_000)
        found = await measure(watching, game, seats)
        assert found["others"] == seats and found["mineActing"] is None, found
        assert watching.errors == [], watching.errors
    if game == "grinch":  # the short window's strip: the same targets, nothing too wide
        await desk.page.set_viewport_size(PIP)
        desk.name = "pip"
        await measure(desk, game, seats)
    if game == "gnome":  # seven seats on a phone on its side
        await phone.page.set_viewport_size(SIDEWAYS)
        phone.name = "phone-sideways"
        await measure(phone, game, seats)
    for tab in (desk, phone):
        assert tab.errors == [], tab.errors


# A frame of a game the page was built without, as the server would send it.
FIFTH = {
    "type": "table", "game": "fifth", "game_id": 9, "version": 3, "seat": 0, "step": 2,
    "view": {"game": "fifth", "players": 3, "seat": 0, "phase": "play", "round": 1,
             "hand": ["3", "12", "7"], "hand_sizes": [3, 3, 2], "totals": [0, 14, 3]},
    "moves": [{"action": "p.3", "label": "Play 3"}, {"action": "p.12", "label": "Play 12"}],
    "seats": [{"name": "alice", "computer": False, "level": None, "you": True, "deadline": None},
              {"name": "Robo", "computer": True, "level": "normal", "you": False, "deadline": None},
              {"name": "bob", "computer": False, "level": None, "you": False, "deadline": None}],
    "to_act": [0], "deadline": None, "last": ["bob played 5"],
    "panels": [{"title": "Your hand", "description": "3, 12, 7", "fields": [], "footer": ""}],
    "scores": None, "status": "active", "result": None,
}  # fmt: skip


async def generic_view(browser: Any, port: int) -> None:
    for size in SIZES:
        tab = await new_tab(browser, "about:blank", 1, size)

        def answer(ws: Any) -> None:
            def hello(message: str | bytes) -> None:
                if json.loads(message).get("type") == "hello":
                    welcome = {"type": "welcome", "user": {"id": "1", "name": "alice"},
                               "channel_id": "5", "language": "en", "expires_in": 900}  # fmt: skip
                    ws.send(json.dumps(welcome))
                    ws.send(json.dumps(FIFTH))

            ws.on_message(hello)

        await tab.page.route_web_socket("**/api/live*", answer)
        await tab.page.goto(f"http://127.0.0.1:{port}/?instance_id=i-fifth&user_id=1")
        await tab.page.wait_for_selector('.table[data-game="fifth"] [data-generic]')
        found = await measure(tab, "fifth", 3)
        assert {p["what"] for p in found["pressable"]} >= {"p.3", "p.12"}
        assert tab.errors == [], tab.errors


async def test_every_game_is_laid_out_as_a_table_on_a_phone_and_a_desktop(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    browser_path = need_browser()

    fake = fake_discord
    fake.add_user("erin")
    port = free_port()
    fake.activities.accept_mock_codes = True
    # Turn timers on (long enough never to fire here) so that whoever acts shows a timer.
    await bot_process.start(env={**bot_env(tmp_path, "600"), **live_env(fake, port)})
    await wait_ok(port)
    async with launched(browser_path) as browser:
        await asyncio.gather(
            *(lay_out(browser, fake, port, game, 7 + i) for i, game in enumerate(COMPUTERS))
        )
        await generic_view(browser, port)
    await quiet(fake)
