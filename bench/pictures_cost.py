"""What pictures cost the bot under load: ``bench.discord_load`` with pictures on against
``PICTURES=off``, and the pictures' issue's targets (CPU per move within 1.5x, own message p95
and ack p99 within 1.2x).

Two ways, as ``--pictures`` chooses:

- ``both``: the two bots run one after the other, in turns, each alone on the machine; every
  figure is the median of its side's runs (:func:`show_pictures_cost`). The latencies are
  read this way: each bot has the machine to itself, as a deployed bot has.
- ``together``: the two bots run at the same time, each with its own fake Discord and its own
  ``--games`` games (:func:`together`). The machine's speed moves by half within minutes here,
  so two runs a minute apart can differ more than pictures cost; run at once, both sides see
  the same machine, and the ratio of their CPU per move is read pair by pair. Their latencies
  are not: each bot waits for the other's work too, pictures included. The harness's share of
  a core that each run prints is both fake Discords' and all the players' together.
"""

from __future__ import annotations

import asyncio
import statistics
from collections.abc import Callable
from contextlib import AsyncExitStack
from pathlib import Path

from bench import discord_players as dp
from bench.discord_load import (
    STEADY_AFTER,
    Figures,
    measure,
    run,
    show,
    show_spread,
    yardsticks,
)
from bench.load_bot import prepared

CPU_AT_MOST = 1.5  # CPU per move with pictures over PICTURES=off


def show_pictures_cost(on: list[Figures], off: list[Figures]) -> None:
    """Pictures on against ``PICTURES=off``, run in turns: each figure the median of its
    side's runs."""

    def median(runs: list[Figures], figure: Callable[[Figures], float]) -> float:
        return statistics.median(figure(f) for f in runs)

    cpu = median(on, lambda f: f.cpu_ms_per_move), median(off, lambda f: f.cpu_ms_per_move)
    steady = tuple(median(side, lambda f: f.cpu_ms_per_move_steady) for side in (on, off))
    own = median(on, lambda f: f.own_p95 * 1000), median(off, lambda f: f.own_p95 * 1000)
    ack = median(on, lambda f: f.ack_p99 * 1000), median(off, lambda f: f.ack_p99 * 1000)
    drawing = median(on, lambda f: f.cpu_ms_per_move - f.process_ms_per_move)
    turn = tuple(median(side, lambda f: f.own_turn[2] * 1000) for side in (on, off))
    other = tuple(median(side, lambda f: f.own_other[2] * 1000) for side in (on, off))
    runs = f"medians of {len(on)} runs" if len(on) > 1 else "one run"
    print(
        f"\npictures on / off ({runs}): CPU per move {cpu[0]:.2f} / {cpu[1]:.2f} ms = "
        f"{cpu[0] / cpu[1]:.2f}x (target {CPU_AT_MOST:g}x; "
        f"the drawing and thinking processes {drawing:.2f} ms with pictures; after the first "
        f"{STEADY_AFTER:.0f} s {steady[0]:.2f} / {steady[1]:.2f} ms = "
        f"{steady[0] / steady[1]:.2f}x); own message p95 "
        f"{own[0]:.1f} / {own[1]:.1f} ms = {own[0] / max(own[1], 1e-9):.2f}x; ack p99 "
        f"{ack[0]:.1f} / {ack[1]:.1f} ms = {ack[0] / max(ack[1], 1e-9):.2f}x (target 1.2x); "
        f"own message p95 of the answers showing the clicker's turn (with its picture) "
        f"{turn[0]:.1f} / {turn[1]:.1f} ms, of the others {other[0]:.1f} / {other[1]:.1f} ms"
    )


async def together(
    games: int,
    seconds: float,
    think: tuple[float, float],
    folder: Path,
    *,
    scale: float = 1.0,
    seed: int = 1,
    mix: str = "even",
) -> tuple[Figures, Figures]:
    """One pair: a bot with pictures and one with ``PICTURES=off``, each with ``games`` games
    of its own, opened one after the other, then clicked at the same time with the same
    players' seed; (on, off)."""
    async with AsyncExitStack() as stack:
        bots = [
            await stack.enter_async_context(
                prepared(games, folder, scale=scale, pictures=on, mix=mix)
            )
            for on in (True, False)
        ]
        with dp.harness_without_pauses():
            on, off = await asyncio.gather(*(measure(b, seconds, think, seed) for b in bots))
        for figures, bot in ((on, bots[0]), (off, bots[1])):
            await yardsticks(figures, bot.db.parent)
    return on, off


def together_line(cpu: list[tuple[float, float]], steady: list[tuple[float, float]]) -> str:
    """Each pair's CPU per move (ms) with pictures / without and its ratio, then the ratios'
    median against the target; then the same from :data:`STEADY_AFTER` seconds into the
    clicking (``steady``)."""
    ratios = [on / max(off, 1e-9) for on, off in cpu]
    median = statistics.median(ratios)
    verdict = "met" if median <= CPU_AT_MOST else "missed"
    later = [on / max(off, 1e-9) for on, off in steady]
    return (
        f"pictures on / off, run at the same time, pair by pair: CPU per move {_each(cpu)}; "
        f"median {median:.2f}x (target at most {CPU_AT_MOST:g}x: {verdict}); after the "
        f"first {STEADY_AFTER:.0f} s {_each(steady)}; "
        f"median {statistics.median(later):.2f}x"
    )


def _each(cpu: list[tuple[float, float]]) -> str:
    return ", ".join(f"{on:.2f} / {off:.2f} ms = {on / max(off, 1e-9):.2f}x" for on, off in cpu)


def show_together(pairs: list[tuple[Figures, Figures]]) -> None:
    cpu = [(on.cpu_ms_per_move, off.cpu_ms_per_move) for on, off in pairs]
    steady = [(on.cpu_ms_per_move_steady, off.cpu_ms_per_move_steady) for on, off in pairs]
    print("\n" + together_line(cpu, steady))


async def compare(
    how: str,
    games: int,
    seconds: float,
    think: tuple[float, float],
    folder: Path,
    *,
    scale: float,
    mix: str,
    repeat: int,
) -> None:
    """``repeat`` runs of each side, ``how``: ``both`` (in turns) or ``together``; every
    run's figures, then what pictures cost."""
    if how == "together":
        pairs = []
        for seed in range(1, repeat + 1):
            pair = await together(games, seconds, think, folder, scale=scale, seed=seed, mix=mix)
            pairs.append(pair)
            for figures in pair:
                show(figures)
        show_together(pairs)
        return
    # on and off in turns, so that the machine's drift weighs on both alike
    on: list[Figures] = []
    off: list[Figures] = []
    for seed in range(1, repeat + 1):
        for pictures, side in ((True, on), (False, off)):
            figures = await run(
                games, seconds, think, folder, scale=scale, seed=seed, pictures=pictures, mix=mix
            )
            side.append(figures)
            show(figures)
    if repeat > 1:
        show_spread(on)
        show_spread(off)
    show_pictures_cost(on, off)
