"""The shared REST budget's price: one ``take_rest_slots`` call (db/budget.py), time and CPU,
today's function against migration 024's in one run.

On PostgreSQL every REST call of the bot first takes its slots from the database's buckets
(``delivery/pacing.py``): its channel's and the global one, in one call of one round trip.
On a throw-away database of the server at 127.0.0.1:5432 this measures:

- the call as the bot makes it (``PostgresStore.take_rest_slots``: a connection from the
  pool, the statement, the connection back), one call after the other, then ``--tasks`` at
  once on the same buckets (several processes' pacers contending for the global row). Calls
  back to back meet a full global bucket (40 per s): most are answered with a wait;
- paced: one call every ``--pause`` seconds with every call granted, as a bot at human pace
  makes them (each call wakes an idle backend), on a connection held throughout, through
  today's function and through migration 024's (read from its migration file and installed
  beside today's under another name), in turns, ``--rounds`` times.

Per call: wall time (mean, p50, p99), the CPU of this process (the client's side: asyncpg and
the pool) and of the backends serving the database (``/proc``, as ``bench.pgside`` counts
them), and the share of calls granted.

Run: ``python -m bench.rest_slot`` (``--calls``, ``--tasks``, ``--channels``, ``--paced``,
``--pause``, ``--rounds``, ``--postgres``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from bench import pgside
from bench.discord_players import percentile, process_cpu_seconds
from db import pgadmin
from db.budget import TAKE_SLOTS, Bucket, columns, wait_of
from db.postgres import PostgresStore
from delivery.pacing import CHANNEL_LIMIT, CHANNEL_PERIOD, GLOBAL_KEY, GLOBAL_LIMIT, GLOBAL_PERIOD

Take = Callable[[Sequence[Bucket]], Awaitable[float]]
EARLIER = Path(__file__).resolve().parents[1] / "db/migrations/postgres/024_rest_slots_lean.sql"
EARLIER_NAME = "take_rest_slots_024"


@dataclass(frozen=True, slots=True)
class Cost:
    label: str
    calls: int
    mean_ms: float
    p50_ms: float
    p99_ms: float
    client_ms: float  # CPU per call, this process
    server_ms: float  # CPU per call, the backends
    granted: float  # share of calls that took their slots (the rest were told to wait)

    def __str__(self) -> str:
        return (
            f"{self.label:<40} {self.calls:>6}  wall mean {self.mean_ms:.3f} ms, p50 "
            f"{self.p50_ms:.3f}, p99 {self.p99_ms:.3f}; CPU client {self.client_ms:.3f} ms + "
            f"server {self.server_ms:.3f} ms; {self.granted:.0%} granted"
        )


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def buckets(i: int, channels: int) -> list[Bucket]:
    """Call ``i``'s buckets, as the bot's pacer asks for a channel write: the channel's (the
    channels in turn) and the global one."""
    return [
        (f"ch:{i % channels}", CHANNEL_LIMIT, CHANNEL_PERIOD),
        (GLOBAL_KEY, GLOBAL_LIMIT, GLOBAL_PERIOD),
    ]


def earlier_function() -> str:
    """Migration 024's ``take_rest_slots``, named :data:`EARLIER_NAME`."""
    script = EARLIER.read_text(encoding="utf-8")
    if "FUNCTION take_rest_slots(" not in script:
        raise RuntimeError(f"{EARLIER.name} no longer defines take_rest_slots")
    return script.replace("FUNCTION take_rest_slots(", f"FUNCTION {EARLIER_NAME}(")


async def _backend_cpu(server: pgside.Server) -> float:
    return sum(process_cpu_seconds(pid) for pid in await server.backend_pids())


async def measure(
    label: str,
    take: Take,
    server: pgside.Server,
    calls: int,
    tasks: int,
    channels: int,
    *,
    pause: float = 0.0,
) -> Cost:
    times: list[float] = []
    granted = 0

    async def caller(first: int) -> None:
        nonlocal granted
        for i in range(first, calls, tasks):
            t0 = time.perf_counter()
            wait = await take(buckets(i, channels))
            times.append(time.perf_counter() - t0)
            granted += wait == 0
            if pause:
                await asyncio.sleep(pause)

    server0, client0 = await _backend_cpu(server), _own_cpu()
    await asyncio.gather(*(caller(k) for k in range(tasks)))
    client = _own_cpu() - client0
    backend = await _backend_cpu(server) - server0
    ms = 1000
    return Cost(
        label=label,
        calls=len(times),
        mean_ms=statistics.fmean(times) * ms,
        p50_ms=percentile(times, 50) * ms,
        p99_ms=percentile(times, 99) * ms,
        client_ms=client / len(times) * ms,
        server_ms=backend / len(times) * ms,
        granted=granted / len(times),
    )


def held(conn: asyncpg.Connection[asyncpg.Record], statement: str) -> Take:
    """The statement alone, on a connection held throughout."""

    async def take(chosen: Sequence[Bucket]) -> float:
        return wait_of(await conn.fetchval(statement, *columns(chosen)))

    return take


async def main_async(args: argparse.Namespace) -> None:
    name = pgadmin.fresh_name("cardtable_slot")
    url = await pgadmin.create_database(args.postgres, name)
    server = pgside.Server(args.postgres, name)
    store = await PostgresStore.connect(url, min_size=args.tasks, max_size=args.tasks)
    conn = await asyncpg.connect(url)
    channels = args.channels
    try:
        await conn.execute(earlier_function())
        earlier = held(conn, TAKE_SLOTS.replace("take_rest_slots(", f"{EARLIER_NAME}("))
        today = held(conn, TAKE_SLOTS)
        # Every channel's row made (today's function answers MISSING without one).
        warm = max(200, channels)
        await measure("warm-up", store.take_rest_slots, server, warm, 1, channels)
        await measure("warm-up", earlier, server, warm, 1, channels)
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(await measure("store (pool), one at a time", store.take_rest_slots, server,
                            args.calls, 1, channels))  # fmt: skip
        print(await measure(f"store (pool), {args.tasks} at once", store.take_rest_slots,
                            server, args.calls, args.tasks, channels))  # fmt: skip
        paced: dict[str, list[Cost]] = {"today": [], "024": []}
        for _ in range(args.rounds):
            await asyncio.sleep(GLOBAL_PERIOD)  # the global bucket empties between runs
            for label, take in (("today", today), ("024", earlier)):
                cost = await measure(f"paced, held connection, {label}", take, server,
                                     args.paced, 1, channels, pause=args.pause)  # fmt: skip
                paced[label].append(cost)
                print(cost)
        for label, costs in paced.items():
            servers = ", ".join(f"{c.server_ms:.3f}" for c in costs)
            clients = ", ".join(f"{c.client_ms:.3f}" for c in costs)
            print(f"paced, {label}: server CPU per call {servers} ms; client {clients} ms")
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        await conn.close()
        await store.close()
        await server.close()
        await pgadmin.drop_database(args.postgres, name)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=4000)
    parser.add_argument("--tasks", type=int, default=4)
    parser.add_argument("--channels", type=int, default=64)
    parser.add_argument("--paced", type=int, default=600, help="calls in each paced run")
    parser.add_argument("--pause", type=float, default=0.03, help="seconds between paced calls")
    parser.add_argument("--rounds", type=int, default=3, help="paced runs of each function")
    parser.add_argument("--postgres", default=pgadmin.admin_url())
    asyncio.run(main_async(parser.parse_args()))
