"""The shared REST budget's price: one ``take_rest_slot`` call (db/budget.py), time and CPU.

On PostgreSQL every REST call of the bot first takes a slot from the database's buckets (its
channel's, then the global one: ``delivery/pacing.py``), one round trip each. This measures
one call as the bot makes it (``PostgresStore.take_rest_slot``: a connection from the pool,
the statement, the connection back), and the bare statement on a connection held throughout,
on a throw-away database of the server at 127.0.0.1:5432:

- wall time per call (mean, p50, p99), calls made one after the other, then ``--tasks``
  at once on the same buckets (several processes' pacers contending for the global row);
- CPU per call of this process (the client's side: asyncpg and the pool) and of the
  backends serving the database (``/proc``, as ``bench.pgside`` counts them).

The buckets are the bot's: a REST call takes its channel's (5 per 5.5 s, over ``--channels``
channels in turn) and then the global one (40 per s), so most calls here find their bucket
full and are answered with a wait (the same statement, the same row lock and update).

Run: ``python -m bench.rest_slot`` (``--calls``, ``--tasks``, ``--channels``, ``--postgres``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import asyncpg

from bench import pgside
from bench.discord_players import percentile, process_cpu_seconds
from db import pgadmin
from db.budget import TAKE_SLOT
from db.postgres import PostgresStore
from delivery.pacing import CHANNEL_LIMIT, CHANNEL_PERIOD, GLOBAL_KEY, GLOBAL_LIMIT, GLOBAL_PERIOD

Take = Callable[[str, int, float], Awaitable[float]]


@dataclass(frozen=True, slots=True)
class Cost:
    label: str
    calls: int
    mean_ms: float
    p50_ms: float
    p99_ms: float
    client_ms: float  # CPU per call, this process
    server_ms: float  # CPU per call, the backends
    granted: float  # share of calls that took a slot (the rest were told to wait)

    def __str__(self) -> str:
        return (
            f"{self.label:<34} {self.calls:>6}  wall mean {self.mean_ms:.3f} ms, p50 "
            f"{self.p50_ms:.3f}, p99 {self.p99_ms:.3f}; CPU client {self.client_ms:.3f} ms + "
            f"server {self.server_ms:.3f} ms; {self.granted:.0%} granted"
        )


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def bucket(i: int, channels: int, *, open_: bool = False) -> tuple[str, int, float]:
    """Call ``i``'s bucket: even calls a channel's (in turn), odd ones the global one.
    ``open_``: windows of 0.1 ms, so that every call is granted (the path that appends)."""
    if i % 2:
        key, limit, period = GLOBAL_KEY, GLOBAL_LIMIT, GLOBAL_PERIOD
    else:
        key, limit, period = f"ch:{i // 2 % channels}", CHANNEL_LIMIT, CHANNEL_PERIOD
    return key, limit, 0.0001 if open_ else period


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
    open_: bool = False,
) -> Cost:
    times: list[float] = []
    granted = 0

    async def caller(first: int) -> None:
        nonlocal granted
        for i in range(first, calls, tasks):
            key, limit, period = bucket(i, channels, open_=open_)
            t0 = time.perf_counter()
            wait = await take(key, limit, period)
            times.append(time.perf_counter() - t0)
            granted += wait == 0

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


async def main_async(admin: str, calls: int, tasks: int, channels: int) -> None:
    name = pgadmin.fresh_name("cardtable_slot")
    url = await pgadmin.create_database(admin, name)
    server = pgside.Server(admin, name)
    store = await PostgresStore.connect(url, min_size=tasks, max_size=tasks)
    held = await asyncpg.connect(url)
    try:

        async def bare(key: str, limit: int, period: float) -> float:
            value = await held.fetchval(TAKE_SLOT, key, limit, period)
            return 0.0 if value is None else float(value)

        await measure("warm-up", store.take_rest_slot, server, 200, 1, channels)
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(await measure("bare statement, held connection", bare, server, calls, 1, channels))
        print(await measure("store (pool), one at a time", store.take_rest_slot, server, calls,
                            1, channels))  # fmt: skip
        print(await measure(f"store (pool), {tasks} at once", store.take_rest_slot, server,
                            calls, tasks, channels))  # fmt: skip
        print(await measure("store (pool), every call granted", store.take_rest_slot, server,
                            calls, 1, channels, open_=True))  # fmt: skip
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        await held.close()
        await store.close()
        await server.close()
        await pgadmin.drop_database(admin, name)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=4000)
    parser.add_argument("--tasks", type=int, default=4)
    parser.add_argument("--channels", type=int, default=64)
    parser.add_argument("--postgres", default=pgadmin.admin_url())
    args = parser.parse_args()
    asyncio.run(main_async(args.postgres, args.calls, args.tasks, args.channels))
