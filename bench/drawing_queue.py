"""A click's picture behind a burst: the drawing process is asked for a round's end in a
7-seat Gnoming game (every seat's hand for its DM, then the round's summary, none of which a
click waits for), and at once for the hand a click's answer waits for (another game's). That
hand's wait, asked urgent as the bot asks it and not urgent (drawn in the order asked), in
turns; then the burst's own last picture, which an urgent hand puts one picture later.

Run from the checkout: ``python -m bench.drawing_queue`` (``--rounds`` of each).
"""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

from bench.pictures import percentile
from engine import GAMES
from tests.presentation.drawing.sample import Position, advance, views
from workers.drawing import DrawingProcess

BURST = Position("gnome", 7, 4, 120)  # late in a round: every seat holds cards
CLICK = Position("hearts", 2, 8, 0)  # another game's trick winner, to lead the next


def _burst() -> list[tuple[str, Any, list[str]]]:
    """The pictures a round's end asks for: each seat's hand, then the summary."""
    game = GAMES[BURST.game]
    state, _ = advance(BURST)
    asked: list[tuple[str, Any, list[str]]] = [
        ("hand", game.view(state, seat), BURST.names) for seat in range(BURST.players)
    ]
    asked.append(("summary", game.view(state, None), BURST.names))
    return asked


async def _once(
    painter: DrawingProcess, burst: list[tuple[str, Any, list[str]]], click: Any, urgent: bool
) -> tuple[float, float]:
    """Milliseconds until the click's hand came, and until the burst's last picture did."""
    started = time.perf_counter()
    asked = [asyncio.ensure_future(painter.draw(m, v, n)) for m, v, n in burst]
    await asyncio.sleep(0)  # each written to the child before the click's
    await painter.draw("hand", click, CLICK.names, urgent=urgent)
    clicked = time.perf_counter() - started
    await asyncio.gather(*asked)
    return clicked * 1000, (time.perf_counter() - started) * 1000


async def main(rounds: int) -> None:
    burst = _burst()
    _, click, _ = views(CLICK)
    assert click is not None
    painter = DrawingProcess()
    await painter.start()
    try:
        for _ in range(5):  # faces, captions and the child's memory as a running bot has them
            await _once(painter, burst, click, False)
        waits: dict[bool, tuple[list[float], list[float]]] = {True: ([], []), False: ([], [])}
        for turn in range(2 * rounds):
            urgent = turn % 2 == 0
            clicked, whole = await _once(painter, burst, click, urgent)
            waits[urgent][0].append(clicked)
            waits[urgent][1].append(whole)
            await asyncio.sleep(0.05)  # the child idle between rounds, as between moves
    finally:
        await painter.close()
    print(
        f"a click's hand asked right after {len(burst)} pictures of a round's end "
        f"({BURST.players}-seat {BURST.game}), {rounds} rounds each, in turns (ms):"
    )
    print(f"{'':<12} {'click p50':>10} {'click p95':>10} {'burst p50':>10} {'burst p95':>10}")
    for urgent in (False, True):
        clicks, bursts = waits[urgent]
        label = "urgent" if urgent else "in order"
        print(
            f"{label:<12} {percentile(clicks, 0.5):>10.1f} {percentile(clicks, 0.95):>10.1f}"
            f" {percentile(bursts, 0.5):>10.1f} {percentile(bursts, 0.95):>10.1f}"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40, help="bursts of each kind")
    asyncio.run(main(parser.parse_args().rounds))
