"""What the page games (tests/e2e/test_activity_page.py) check along the way: a screenshot of
each stage (lobby, mid-game, end) at each size, the targets and the width mid-game, the short
window, the end screen and Play again, and a socket the backend closed for flooding."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from tests.e2e.browser import ARTIFACTS, Tab
from tests.e2e.test_table_layout import PIP, TARGET, measure

SHOTS = ARTIFACTS / "games"
FLOOD_MESSAGES = 25  # over the backend's 20 in 5 s (web/live.py)
FLOODING = 4008
RECOVERY_S = 5.0  # the next move shows on a flooded tab within this

# What the end screen shows: its standings' rows, the chart, the final table below it, the
# winner's line, the page's text, its width and the Play again button's size.
END_SCREEN = """() => {
  const again = document.querySelector('[data-lobby="play_again"]').getBoundingClientRect();
  return {
    rows: document.querySelectorAll('.ending .standings tr td:first-child').length,
    chart: document.querySelector('.ending .chart-box svg path.series') !== null,
    finalTable: document.querySelector('.final-table .table') !== null,
    winner: document.querySelector('.ending .winner-line').textContent.trim(),
    text: document.body.innerText,
    width: window.innerWidth,
    scroll: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
    again: { w: again.width, h: again.height },
  };
}"""


def size_of(tab: Tab) -> str:
    width = int((tab.page.viewport_size or {}).get("width", 0))
    return "phone" if width <= 400 else "pip" if width <= 700 else "desktop"


async def shoot(tabs: list[Tab], game: str, stage: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for tab in tabs:
        path = SHOTS / f"{game}-{stage}-{size_of(tab)}.png"
        await tab.page.screenshot(path=str(path), full_page=True)


async def mid_game(tabs: list[Tab], game: str, seats: int) -> None:
    """Every tab measured (targets, width, seats) and shot; Grinch's desktop tab also in the
    short window of picture-in-picture."""
    for tab in tabs:
        await measure(tab, game, seats)
    await shoot(tabs, game, "mid")
    if game == "grinch":
        desk = tabs[0]
        size = desk.page.viewport_size
        await desk.page.set_viewport_size(PIP)
        await measure(desk, game, seats)
        await shoot([desk], game, "mid")
        await desk.page.set_viewport_size(size)


async def the_end(tabs: list[Tab], game: str, seats: int) -> None:
    """The result screen on every tab (standings, chart, winner, Play again), then Play again
    pressed on the first: a new lobby of the same game on every tab."""
    for tab in tabs:
        await tab.page.wait_for_selector(".ending", timeout=15_000)
        found: dict[str, Any] = await tab.page.evaluate(END_SCREEN)
        where = f"{game} on {tab.name}"
        assert found["rows"] == seats and found["chart"] and found["finalTable"], (where, found)
        assert found["winner"].endswith(("wins!", "share the win!", "this time.")), found
        assert "**" not in found["text"], (where, found["text"])
        assert found["scroll"] <= found["width"], (where, found)
        assert found["again"]["w"] >= TARGET and found["again"]["h"] >= TARGET, (where, found)
    await shoot(tabs, game, "end")
    await tabs[0].lobby("play_again")
    for tab in tabs:
        await tab.page.wait_for_function(
            """() => document.querySelector('.ending') === null
                && document.querySelectorAll('.lobby .players li').length >= 1""",
            timeout=15_000,
        )


class Flood:
    """A tab's socket routed through the test, which can send the backend more than it
    allows; it records how each socket to the backend was closed."""

    def __init__(self) -> None:
        self.server: Any = None
        self.sockets = 0
        self.closes: list[int | None] = []
        self.closing: list[asyncio.Task[None]] = []

    def route(self, ws: Any) -> None:
        server = ws.connect_to_server()
        self.server, self.sockets = server, self.sockets + 1

        def closed(code: int | None, reason: str | None) -> None:
            self.closes.append(code)  # and the page's socket closed the same way
            self.closing.append(
                asyncio.get_running_loop().create_task(ws.close(code=code, reason=reason or ""))
            )

        server.on_close(closed)

    async def flood(self) -> None:
        """Sends the backend more messages than it allows in 5 s; returns once it closed the
        socket for it (4008)."""
        for _ in range(FLOOD_MESSAGES):
            self.server.send(json.dumps({"type": "lobby", "op": "nothing"}))
        deadline = time.monotonic() + 10
        while FLOODING not in self.closes:
            assert time.monotonic() < deadline, f"not closed for flooding: {self.closes}"
            await asyncio.sleep(0.05)
