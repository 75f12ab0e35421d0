"""``bench.workers``' yardstick: the same load played by one bot process on its SQLite file.

One process on the gateway (no workers, no HAProxy, no PostgreSQL), the same games, players,
thinking and windows as a ``bench.workers`` run, measured the same way: CPU of the process
and its drawing and thinking children per recorded move, over the clicking and the drain.
What PostgreSQL costs a move is read against this figure, taken in the same run; with
``--repeat``, the two sides take turns at going first (:func:`sqlite_first`) and the ratios'
median is judged (:func:`against`), as the machine's speed drifts within minutes.
"""

from __future__ import annotations

import asyncio
import sqlite3
import statistics
from dataclasses import dataclass
from pathlib import Path

from bench import discord_players as dp
from bench.load_bot import Prepared, prepared

DRAIN_SECONDS = 8.0  # as bench.workers
SQLITE_AT_MOST = 1.5  # CPU per move (bots and PostgreSQL) over this process's


@dataclass(frozen=True, slots=True)
class SqliteFigures:
    games: int
    seconds: float
    moves: int  # while clicking
    all_moves: int  # clicking and drain: what the CPU is divided by
    cpu: float  # seconds, the process with its children
    own: float  # of which the process alone (its event loop and the SQLite driver's thread)

    @property
    def cpu_ms(self) -> float:
        return self.cpu / max(1, self.all_moves) * 1000

    @property
    def own_ms(self) -> float:
        return self.own / max(1, self.all_moves) * 1000

    def line(self) -> str:
        return (
            f"1 process on SQLite: {self.moves / self.seconds:.1f} moves/s, "
            f"{self.all_moves} moves, CPU per move {self.cpu_ms:.2f} ms (its own process "
            f"{self.own_ms:.2f} ms)"
        )


def sqlite_first(repeat: int) -> bool:
    """Whether repeat ``repeat`` (from 1) runs the SQLite process before the workers: every
    other one, so that a machine slowing down (or speeding up) over the runs weighs on both
    sides alike."""
    return repeat % 2 == 0


def against(ratios: dict[int, list[float]]) -> list[str]:
    """Lines for each worker count's CPU per move over the SQLite process's, one ratio per
    repeat: each ratio, their median, and whether the median meets the target."""
    lines = []
    for workers, seen in sorted(ratios.items()):
        median = statistics.median(seen)
        verdict = "met" if median <= SQLITE_AT_MOST else "missed"
        lines.append(
            f"{workers} worker(s) against the SQLite process, repeat by repeat: "
            f"{', '.join(f'{r:.2f}x' for r in seen)}; median {median:.2f}x "
            f"(target at most {SQLITE_AT_MOST:g}x: {verdict})"
        )
    return lines


def recorded_moves(path: Path) -> int:
    """Rows of the action log of the SQLite file (a reader beside the bot's writer)."""
    with sqlite3.connect(path, timeout=30) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0])


async def run_sqlite(
    games: int,
    seconds: float,
    think: tuple[float, float],
    folder: Path,
    *,
    scale: float = 1.0,
    seed: int = 1,
) -> SqliteFigures:
    """One run of ``bench.workers``' load on one process and a SQLite file."""
    async with prepared(games, folder, scale=scale, settled=False) as bot:
        with dp.harness_without_pauses():
            return await measure_sqlite(bot, seconds, think, seed)


async def measure_sqlite(
    bot: Prepared, seconds: float, think: tuple[float, float], seed: int
) -> SqliteFigures:
    """The clicking and the drain of a run on ``bot``."""
    fake, pid, db, tables = bot.fake, bot.pid, bot.db, bot.tables
    moves0, cpu0 = recorded_moves(db), dp.cpu_seconds(pid)
    alone0 = dp.process_cpu_seconds(pid)
    humans = [user for t in tables for user in t.humans]
    _, elapsed = await dp.play_everyone(fake, humans, seed, seconds, think)
    moves = recorded_moves(db) - moves0
    await asyncio.sleep(DRAIN_SECONDS)
    cpu = dp.cpu_seconds(pid) - cpu0
    alone = dp.process_cpu_seconds(pid) - alone0
    all_moves = recorded_moves(db) - moves0
    return SqliteFigures(len(tables), elapsed, moves, all_moves, cpu, alone)
