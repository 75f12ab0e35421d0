"""The table page in a real browser for the end-to-end tests: Debian's Chromium driven by
Playwright (never Playwright's own browser download), the page served by the bot from
``page/dist``. :func:`need_browser` skips a test when something is missing, or fails it when
``REQUIRE_BROWSER`` is set (CI); :func:`launched` starts it; :class:`Tab` is one player's
page, :func:`move_on_page` one move from it."""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.async_api import Browser

REPO = Path(__file__).resolve().parents[2]
DIST = REPO / "page" / "dist" / "index.html"
ARTIFACTS = REPO / "tests" / "artifacts" / "activity"
# Chromium's switches for every browser test (see launched).
CHROMIUM_ARGS = (
    "--no-sandbox",  # Debian's Chromium run as root in a container cannot start its sandbox
    "--disable-gpu",  # there is no GPU
)
POLL_MS = 25  # how often a wait looks at the page (not every animation frame: cheaper)
FOCUSED = "s => document.activeElement?.matches(s) ? document.activeElement.tagName : null"
PRESS_MS = 3000  # a move that does not come within this is gone (the table moved on)
LOST_PRESS_MS = 8000  # a press that changed nothing by then reached no button
# The notice of a press the page could not send: its socket reconnects (page/src/main.ts).
UNSENT = """() => document.querySelector('.notice:not([data-seen])')
    ?.textContent?.startsWith('Not connected') ?? false"""
# Prefer a face-down cell (Gnoming) or a card-bound move: games end sooner, as hurried people
# play them.
PICK = """els => els.map(e => [
    e.dataset.action, e.querySelector('.card:not([data-card])') !== null])"""


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


def need_browser() -> str:
    """The Chromium to drive; skips (or, with REQUIRE_BROWSER, fails) when it cannot run."""
    missing = []
    if not DIST.is_file():
        missing.append("the page is not built (make page)")
    browser = chromium()
    if browser is None:
        missing.append("no chromium (apt-get install chromium)")
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        missing.append("no playwright (pip install -e '.[test]')")
    if missing:
        why = "browser test skipped: " + "; ".join(missing)
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(why + " (REQUIRE_BROWSER is set)")
        pytest.skip(why + "; set REQUIRE_BROWSER=1 to make this a failure")
    assert browser is not None
    return browser


@asynccontextmanager
async def launched(browser_path: str) -> AsyncIterator[Browser]:
    """The Chromium at ``browser_path`` (from :func:`need_browser`), launched by Playwright with
    :data:`CHROMIUM_ARGS`: the one launch every browser test shares. On the way out it closes
    the browser, then stops Playwright."""
    from playwright.async_api import async_playwright

    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=browser_path, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            await browser.close()


class Tab:
    """One user's page: what it shows (version, moves) and how it moves."""

    def __init__(self, page: Any, user: int, name: str, *, keyboard: bool = False) -> None:
        self.page = page
        self.user = user
        self.name = name
        self.keyboard = keyboard  # moves made by Tab and Enter, not by the mouse
        self.errors: list[str] = []
        self.lost_presses = 0  # presses that reached no button (see test_activity_page)
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    async def version(self) -> int:
        value = await self.page.evaluate(
            "() => Number(document.querySelector('.table')?.dataset.version ?? -1)"
        )
        return int(value)

    async def game(self) -> str | None:
        value = await self.page.evaluate(
            "() => document.querySelector('.table')?.dataset.game ?? null"
        )
        return None if value is None else str(value)

    async def wait_version(self, version: int, timeout: float = 15.0) -> None:
        await self.page.wait_for_function(
            "v => Number(document.querySelector('.table')?.dataset.version ?? -1) >= v",
            arg=version,
            timeout=timeout * 1000,
            polling=POLL_MS,
        )

    async def actions(self) -> list[str]:
        found = await self.page.eval_on_selector_all(
            "[data-action]", "els => els.map(e => e.dataset.action)"
        )
        return [str(a) for a in found]

    async def cells(self) -> list[str]:
        """Gnoming's opening: the cells that may be picked now (not the one already picked)."""
        found = await self.page.eval_on_selector_all(
            "[data-cell][aria-pressed=false]", "els => els.map(e => e.dataset.cell)"
        )
        return [str(c) for c in found]

    async def press(self, selector: str) -> bool:
        """Press the button ``selector`` (Tab's focus and Enter, or a tap); False when it went
        away first (a new table without that move)."""
        from playwright.async_api import TimeoutError as NotThere

        element = self.page.locator(selector).first
        try:
            if self.keyboard:
                await element.focus(timeout=PRESS_MS)
                focused = await self.page.evaluate(FOCUSED, selector)
                if focused is None:  # redrawn between the focus and the look
                    return False
                assert focused == "BUTTON", f"{selector} is not a focusable button ({focused})"
                await self.page.keyboard.press("Enter")
            else:
                await element.click(timeout=PRESS_MS)
        except NotThere:
            return False
        return True

    async def lobby(self, op: str, timeout: float = 15.0) -> None:
        selector = f'[data-lobby="{op}"]'
        await self.page.wait_for_selector(selector, timeout=timeout * 1000)
        await self.press(selector)

    async def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        await self.page.screenshot(path=str(path), full_page=True)
        return path


async def move_on_page(tab: Tab, rng: random.Random) -> bool:
    """One move from what the tab offers; False when it offers none, or could not send it."""
    before = await tab.version()
    # A refusal's notice stays until the next table: one already there is not this press's
    # answer. Taken for one, a tab can press again and again while its move is on its way,
    # until the server closes its socket for flooding.
    await tab.page.evaluate("document.querySelector('.notice')?.setAttribute('data-seen', '')")
    cells = await tab.cells()
    if cells:  # Gnoming's opening: two cells, one after the other
        first = rng.choice(cells)
        if not await tab.press(f'[data-cell="{first}"]'):
            return False
        await tab.page.wait_for_selector(f'[data-cell="{first}"][aria-pressed=true]')
        if not await tab.press(f'[data-cell="{rng.choice(await tab.cells())}"]'):
            return False
    else:
        offered = await tab.page.eval_on_selector_all("[data-action]", PICK)
        if not offered:
            return False
        down = [action for action, face_down in offered if face_down]
        pool = down if down and rng.random() < 0.85 else [action for action, _ in offered]
        if not await tab.press(f'[data-action="{rng.choice(pool)}"]'):
            return False
    from playwright.async_api import TimeoutError as NothingCame

    try:
        await tab.page.wait_for_function(
            """v => Number(document.querySelector('.table')?.dataset.version ?? -1) > v
                || document.querySelector('.notice:not([data-seen])') !== null
                || document.querySelector('.lobby') !== null""",
            arg=before,
            timeout=LOST_PRESS_MS,
            polling=POLL_MS,
        )
    except NothingCame:
        # The table was redrawn between the focus and the key (the button pressed was
        # replaced), so the press reached nothing: counted, and the game plays on.
        tab.lost_presses += 1
        return False
    # A press the page kept to itself, its socket reconnecting, moved nothing.
    return not await tab.page.evaluate(UNSENT)
