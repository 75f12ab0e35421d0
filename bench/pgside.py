"""What PostgreSQL did for one database during a benchmark: its backends' CPU and its commits.

The server runs on this machine, so each backend serving the database (``pg_stat_activity``:
its pid) is a process whose CPU time ``/proc`` tells. Backends come and go with the bot's
pools, so a sampler looks every ``every`` seconds: a backend seen at the start counts from
there, one that appeared later from zero, and one that ended counts up to its last look (its
last moments are lost: the pools keep their connections, so few end within a run). The
server's own processes (WAL writer, checkpointer) serve every database on the server, other
people's too, and are not counted. Commits: ``pg_stat_database.xact_commit``, every
transaction that ended in a commit, read-only ones and single statements included.

The readings go through a connection to another database (the admin URL's), so they add no
transaction to the one measured.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

import asyncpg

from bench.discord_players import process_cpu_seconds


@dataclass(slots=True)
class BackendCpu:
    """First and last CPU seconds seen per backend pid."""

    first: dict[int, float] = field(default_factory=dict)
    last: dict[int, float] = field(default_factory=dict)

    def saw(self, pid: int, cpu: float, *, at_start: bool) -> None:
        if pid not in self.first:
            self.first[pid] = cpu if at_start else 0.0
        if cpu > 0 or pid not in self.last:  # a pid gone meanwhile reads 0: keep the last
            self.last[pid] = max(cpu, self.last.get(pid, 0.0))

    @property
    def seconds(self) -> float:
        return sum(self.last[pid] - self.first[pid] for pid in self.first)

    @property
    def backends(self) -> int:
        return len(self.first)


class Server:
    """Readings of database ``name`` through ``admin`` (a URL of another database)."""

    def __init__(self, admin: str, name: str) -> None:
        self.admin = admin
        self.name = name
        self._conn: asyncpg.Connection[asyncpg.Record] | None = None
        self._sampler: asyncio.Task[None] | None = None
        self.cpu = BackendCpu()

    async def _connection(self) -> asyncpg.Connection[asyncpg.Record]:
        if self._conn is None:
            self._conn = await asyncpg.connect(self.admin)
        return self._conn

    async def backend_pids(self) -> list[int]:
        conn = await self._connection()
        rows = await conn.fetch(
            "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND backend_type = "
            "'client backend'",
            self.name,
        )
        return [int(r["pid"]) for r in rows]

    async def commits(self) -> int:
        conn = await self._connection()
        value = await conn.fetchval(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = $1", self.name
        )
        return int(value or 0)

    async def _look(self, *, at_start: bool) -> None:
        for pid in await self.backend_pids():
            self.cpu.saw(pid, process_cpu_seconds(pid), at_start=at_start)
        for pid in self.cpu.first:  # the ones gone from the view keep their last reading
            self.cpu.saw(pid, process_cpu_seconds(pid), at_start=at_start)

    async def start_sampling(self, every: float = 0.5) -> None:
        """From now on the backends' CPU adds up in ``cpu``."""
        self.cpu = BackendCpu()
        await self._look(at_start=True)

        async def loop() -> None:
            while True:
                await asyncio.sleep(every)
                await self._look(at_start=False)

        self._sampler = asyncio.create_task(loop())

    async def stop_sampling(self) -> BackendCpu:
        if self._sampler is not None:
            self._sampler.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sampler
            self._sampler = None
        await self._look(at_start=False)
        return self.cpu

    async def close(self) -> None:
        if self._sampler is not None:
            await self.stop_sampling()
        if self._conn is not None:
            await self._conn.close()
            self._conn = None


async def recorded_moves(url: str) -> int:
    """Rows of the action log (every move, computers' included) of the database at ``url``."""
    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval("SELECT COUNT(*) FROM actions"))
    finally:
        await conn.close()
