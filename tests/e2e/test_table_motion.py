"""Each move seen on the live table, in Debian's Chromium against the real bot and the fake
Discord: alice plays Hearts against a computer from a desktop tab (by mouse). The cards that
change places fly there (the page's flights, Web Animations of at most 300 ms); a press made
while a flight is held mid-way is taken at once (a flying card lets presses through); the next
frame ends the flights still going and leaves no flying card behind. A second tab of hers, a
phone asking for reduced motion, sees the same moves with no flight at all. The last moves are
listed beside the table on the desktop, under it on the phone, and told to a screen reader.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import POLL_MS, Tab, launched, move_on_page, need_browser
from tests.e2e.conftest import BotProcess
from tests.e2e.driver import bot_env, quiet
from tests.e2e.live import live_env
from tests.e2e.test_table_layout import SIZES, my_turn, open_with_computers
from tests.fakediscord import FakeDiscord
from tests.fakediscord.endpoint import free_port, wait_ok

pytestmark = pytest.mark.timeout(240)

MOVES = 5  # alice's moves before the flights are looked at
TRIES = 30  # alice's turns to wait for one that comes with a flight
MOTION_MS = 300

# Every animation the page starts, as it starts (the page's own flights have the id "flight");
# with ``__hold`` set, each new flight is paused where it starts, to be pressed through.
RECORD = """
window.__flights = [];
window.__held = [];
window.__hold = false;
const animate = Element.prototype.animate;
Element.prototype.animate = function (keyframes, options) {
  const animation = animate.call(this, keyframes, options);
  const duration = typeof options === 'number' ? options : options?.duration;
  window.__flights.push({ id: animation.id, duration });
  if (window.__hold && animation.id === 'flight') {
    animation.pause();
    window.__held.push(animation);
  }
  return animation;
};
document.addEventListener('click', () => {
  window.__pressedDuring = document.getAnimations()
    .some(a => a.id === 'flight' && a.playState === 'paused');
}, true);
"""

# Where the last moves are: beside the board (to its right) or under it.
SIDE = """() => {
  const board = document.querySelector('.table .board').getBoundingClientRect();
  const last = document.querySelector('.table .side .last').getBoundingClientRect();
  return { beside: last.left >= board.right - 1, under: last.top >= board.bottom - 1,
           lines: document.querySelectorAll('.table .side .last li').length,
           told: document.getElementById('announce').textContent };
}"""

LEFT_BEHIND = """() => document.querySelector('.card.flying, .flights .card') === null
  && !document.getAnimations().some(a => a.id === 'flight' && a.playState !== 'finished')"""


async def open_tab(browser: Any, url: str, user: int, size: str, reduced: bool) -> Tab:
    phone = size == "phone"
    context = await browser.new_context(
        viewport=SIZES[size],
        has_touch=phone,
        is_mobile=phone,
        reduced_motion="reduce" if reduced else "no-preference",
    )
    page = await context.new_page()
    await page.add_init_script(RECORD)
    tab = Tab(page, user, size)  # by mouse (or tap): a press lands on what lies under it
    page.on("console", lambda m: tab.errors.append(m.text) if m.type == "error" else None)
    await page.goto(url)
    return tab


async def flights(tab: Tab) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = await tab.page.evaluate(
        "window.__flights.filter(f => f.id === 'flight')"
    )
    return found


async def test_each_move_is_seen_flying_and_a_press_mid_flight_is_taken(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    browser_path = need_browser()

    fake, port = fake_discord, free_port()
    fake.activities.accept_mock_codes = True
    await bot_process.start(env={**bot_env(tmp_path), **live_env(fake, port)})
    await wait_ok(port)
    alice = fake.user_named("alice")
    channel = fake.add_channel(fake.guild_named("Test Server"), "motion")
    instance = fake.activities.add_instance(channel, [alice])
    url = f"http://127.0.0.1:{port}/?instance_id={instance}&channel_id={channel}&user_id={alice}"
    async with launched(browser_path) as browser:
        desk = await open_tab(browser, url, alice, "desktop", reduced=False)
        await open_with_computers(desk, "hearts", 1)
        phone = await open_tab(browser, url, alice, "phone", reduced=True)
        await phone.page.wait_for_selector('.table[data-game="hearts"]', timeout=15_000)
        rng = random.Random(5)
        moved = 0
        while moved < MOVES:
            await my_turn(desk)
            moved += await move_on_page(desk, rng)

        # The moves flew on the desktop, each within 300 ms.
        flown = await flights(desk)
        assert flown, "no card flew"
        assert all(0 < f["duration"] <= MOTION_MS for f in flown), flown
        assert int(await desk.page.evaluate("document.body.dataset.flights ?? 0")) > 0

        # A press while a flight is held mid-way: taken at once, the flight ended cleanly.
        await desk.page.evaluate("window.__hold = true")
        for _ in range(TRIES):
            await my_turn(desk)
            held = await desk.page.evaluate(
                "window.__held.filter(a => a.playState === 'paused').length"
            )
            if held and await desk.page.query_selector('[data-action^="p."]'):
                break
            await move_on_page(desk, rng)
        else:
            raise AssertionError("no turn of alice's came with a card flying")
        # A flying card takes no press: what lies under it does.
        through = await desk.page.evaluate(
            "window.__held.filter(a => a.playState === 'paused')"
            ".every(a => getComputedStyle(a.effect.target).pointerEvents === 'none')"
        )
        assert through, "a flying card would take a press meant for what lies under it"
        before = await desk.version()
        await desk.page.locator('[data-action^="p."]').first.click(timeout=3000)
        assert await desk.page.evaluate("window.__pressedDuring") is True
        await desk.page.wait_for_function(
            """v => Number(document.querySelector('.table')?.dataset.version ?? -1) > v""",
            arg=before,
            timeout=10_000,
            polling=POLL_MS,
        )
        assert await desk.page.query_selector(".notice") is None  # taken, not refused
        await desk.page.evaluate("window.__hold = false; window.__held.forEach(a => a.play())")
        await desk.page.wait_for_function(LEFT_BEHIND, timeout=5_000, polling=POLL_MS)

        # The same moves on the phone that asks for reduced motion: none flew.
        await phone.wait_version(await desk.version())
        assert await flights(phone) == []
        assert await phone.page.evaluate("document.body.dataset.flights ?? null") is None

        # The last moves: beside the table on the desktop, under it on the phone; told.
        wide, narrow = await desk.page.evaluate(SIDE), await phone.page.evaluate(SIDE)
        assert wide["beside"] and wide["lines"] > 0 and wide["told"], wide
        assert narrow["under"] and narrow["lines"] > 0 and narrow["told"], narrow
        for tab in (desk, phone):
            assert tab.errors == [], tab.errors
    await quiet(fake)
