"""The yardstick of the bot's CPU per move: one bare durable aiosqlite commit.

WAL, ``synchronous=FULL``, ``BEGIN IMMEDIATE``, one INSERT of 2 kB, ``COMMIT``, on the disk the
benchmark's database is on. Most of a commit's CPU is the kernel's (the write and the fsync),
so it swings with the machine's disk from run to run (0.16-0.47 ms seen here): the benchmarks
measure it in a process of its own (the harness's process also serves the fake Discord, whose
work ``RUSAGE_SELF`` would count), in several batches, and take the median.

Run: ``python -m bench.commit`` prints the batches of one measurement.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from bench.child import json_from

BATCHES = 5
COMMITS = 300  # per batch


@dataclass(frozen=True)
class Commit:
    """CPU and wall ms of one commit: the median batch, and the range over the batches; of
    the CPU, the kernel's part (``system_ms``, the median batch's), where the disk shows."""

    cpu_ms: float
    wall_ms: float
    cpu_low: float
    cpu_high: float
    system_ms: float

    def __str__(self) -> str:
        return (
            f"{self.cpu_ms:.2f} ms CPU (batches {self.cpu_low:.2f}-{self.cpu_high:.2f}; "
            f"{self.system_ms:.2f} ms of it the kernel's; {self.wall_ms:.2f} ms wall)"
        )


async def bare_commit(folder: Path, count: int = COMMITS) -> tuple[float, float, float]:
    """CPU, wall and system CPU ms of one durable commit, over ``count`` of them, in this
    process."""
    conn = await aiosqlite.connect(str(folder / "bare.db"), isolation_level=None)
    try:
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA synchronous = FULL")
        await conn.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT)")
        blob = "x" * 2048
        usage = resource.getrusage(resource.RUSAGE_SELF)
        cpu0, sys0, wall0 = usage.ru_utime + usage.ru_stime, usage.ru_stime, time.perf_counter()
        for _ in range(count):
            await conn.execute("BEGIN IMMEDIATE")
            await conn.execute("INSERT INTO t (v) VALUES (?)", (blob,))
            await conn.execute("COMMIT")
        usage = resource.getrusage(resource.RUSAGE_SELF)
        cpu = usage.ru_utime + usage.ru_stime - cpu0
        wall = time.perf_counter() - wall0
        return cpu / count * 1000, wall / count * 1000, (usage.ru_stime - sys0) / count * 1000
    finally:
        await conn.close()


async def measure(folder: Path, batches: int = BATCHES) -> Commit:
    """One measurement in a child process (this interpreter), on ``folder``'s disk."""
    rows: list[list[float]] = await json_from(
        "bench.commit", "--folder", str(folder), "--batches", str(batches)
    )
    cpu = [row[0] for row in rows]
    median = sorted(rows)[len(rows) // 2]  # the median batch (of an odd count), all its parts
    return Commit(
        cpu_ms=statistics.median(cpu),
        wall_ms=statistics.median(row[1] for row in rows),
        cpu_low=min(cpu),
        cpu_high=max(cpu),
        system_ms=median[2],
    )


async def _batches(folder: Path, batches: int) -> list[tuple[float, float, float]]:
    with tempfile.TemporaryDirectory(dir=folder, prefix="commit-") as tmp:
        return [await bare_commit(Path(tmp)) for _ in range(batches)]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()))
    parser.add_argument("--batches", type=int, default=BATCHES)
    args = parser.parse_args()
    found = asyncio.run(_batches(args.folder, args.batches))
    print(json.dumps(found))
