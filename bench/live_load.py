"""Many games at once on the live table (not a test):
``python -m bench.live_load [--games 100] [--moves 20] [--think 0.15] [--postgres]``.

``games`` 2-player Hearts games, each in its own channel, both players on the live table's
websocket, play ``moves`` moves each, all games at once, against the fake Discord (rate limits
off: this measures the backend, not Discord's pacing). A player sends its move, the harness
waits until the other player's socket receives the new version, thinks ``think`` seconds (a
computer's or a forced move lands meanwhile), and the next mover plays.

- SQLite: one bot process serves every socket.
- ``--postgres``: two sharded bot processes on one fresh PostgreSQL database (``TEST_POSTGRES_URL``
  or 127.0.0.1:5432); each game's first player is on process 0's socket and the second on
  process 1's (as a round-robin balancer places them), so every move crosses processes through
  the database's notifications.

Sockets are opened one after another, each as the page opens it (a sign-in, then the hello);
one the web edge's limits close with 1013 (its ceiling of instance look-ups in Discord) is
opened again a second later, as the page does, and counted.

Printed: moves per second over the whole burst; p50/p95 of send to the other socket's receipt;
bot CPU per move (every bot process, and PostgreSQL's backends for the database), and the
share of a core this process (every player's socket) used; memory per
open websocket (``SPECTATORS`` more sockets on one game, resident memory before and after);
the REST requests the bot made to Discord during the burst, by route, and per move; the
machine's load average before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from bench import pgside
from bench.live_table import cpu_seconds, rss_kib
from db import pgadmin
from tests.e2e.driver import bot_env, open_game
from tests.e2e.live import Client, connect, live_env, login, loopback
from tests.fakediscord import FakeDiscord, RecordedRequest
from tests.fakediscord.endpoint import free_port, wait_ok
from tests.fakediscord.process import BotProcess

SPECTATORS = 200
SETTLE = 3.0  # seconds after the burst for coalesced channel edits to go out
TRY_AGAIN = 1013  # the web edge's limits said "later" (web/live.py)
TRY_AGAIN_AFTER = 1.0  # seconds, as the page's first reconnection waits (page/src/launch.ts)


class Opener:
    """Sockets opened as the page opens them, again after a while when the web edge's limits
    close one with 1013 (a burst of hellos spends its ceiling of instance look-ups);
    ``refused`` counts those closings."""

    def __init__(self, fake: FakeDiscord, https: dict[int, aiohttp.ClientSession]) -> None:
        self.fake = fake
        self.https = https
        self.refused = 0

    async def open(self, port: int, instance: str, user: int, first: str) -> Client:
        """``user``'s socket on ``port``, once it has its first frame of type ``first``."""
        while True:
            session = await login(self.https[user], self.fake, port, user)
            client = await connect(self.https[user], port, session, instance, user)
            try:
                await client.wait(lambda f: f["type"] in (first, "table"), timeout=60)
                return client
            except AssertionError:
                if client.closed != TRY_AGAIN:
                    raise
            self.refused += 1
            await asyncio.sleep(TRY_AGAIN_AFTER)


async def play(pair: list[Client], moves: int, think: float) -> list[float]:
    """``moves`` moves over the sockets; each one's send-to-other's-receive time (s)."""
    times: list[float] = []
    for _ in range(moves):
        newest = max(c.latest()["version"] for c in pair)
        for client in pair:  # both sockets have the newest version: the mover is known
            await client.wait(lambda f, v=newest: f["type"] == "table" and f["version"] >= v)
        frames = [c.latest() for c in pair]
        mover = next((i for i, f in enumerate(frames) if f["moves"]), None)
        if mover is None or frames[mover]["status"] != "active":
            break
        other = pair[1 - mover]
        frame = frames[mover]
        seen = len(other.frames)
        older = {id(f) for f in other.frames}
        sent = time.perf_counter()
        action = frame["moves"][0]["action"]
        await pair[mover].send(
            {"type": "move", "game_id": frame["game_id"], "step": frame["step"], "action": action}
        )
        got = await other.wait(
            lambda f, v=frame["version"], o=older: (
                f["type"] == "table" and f["version"] > v and id(f) not in o
            ),
            timeout=60,
        )
        times.append(other.times[other.frames.index(got, seen)] - sent)
        await asyncio.sleep(think)
    return times


def by_route(requests: list[RecordedRequest], tables: set[int]) -> collections.Counter[str]:
    """Requests counted by route, a channel's route also by whose channel: a game's table
    channel or a player's DM channel."""
    counts: collections.Counter[str] = collections.Counter()
    for request in requests:
        route = request.kind or f"{request.method} {request.path}"
        found = re.match(r"/channels/(\d+)", request.path)
        if found:
            route += " (table channel)" if int(found[1]) in tables else " (DM channel)"
        counts[route] += 1
    return counts


class Bots:
    """The bot processes of one run and the web port each serves."""

    def __init__(self, fake: FakeDiscord, folder: Path, postgres: str | None) -> None:
        self.fake = fake
        self.postgres = postgres
        count = 2 if postgres else 1
        self.ports = [free_port() for _ in range(count)]
        self.procs = [BotProcess(fake, folder / f"bot{i}.log") for i in range(count)]
        self.envs = []
        for i, port in enumerate(self.ports):
            env = {**bot_env(folder), **live_env(fake, port), "PICTURES": "off"}
            env["DATABASE_PATH"] = str(folder / f"bot{i}.db")
            env["LOG_LEVEL"] = "WARNING"
            if postgres:
                env |= {"DATABASE_URL": postgres, "SHARD_COUNT": "2", "SHARD_IDS": str(i)}
            self.envs.append(env)

    async def start(self) -> None:
        for proc, env, port in zip(self.procs, self.envs, self.ports, strict=True):
            await proc.start(env=env, commands=proc is self.procs[0], timeout=60)
            await wait_ok(port, timeout=60)
        if self.postgres:
            await self.fake.wait_shards([0, 1], 2)

    async def stop(self) -> None:
        for proc in self.procs:
            await proc.stop()

    @property
    def pids(self) -> list[int]:
        return [p.popen.pid for p in self.procs if p.popen is not None]

    def cpu(self) -> float:
        return sum(cpu_seconds(pid) for pid in self.pids)

    def rss(self) -> int:
        return sum(rss_kib(pid) for pid in self.pids)


async def run(games: int, moves: int, think: float, postgres: str | None) -> None:
    fake = FakeDiscord()
    fake.rate_limits.disable()
    fake.click_settle = 0.0
    await fake.start()
    guild = fake.add_guild("Bench")
    channels = [fake.add_channel(guild, f"t{n}") for n in range(games)]
    users = [fake.add_user(f"u{n}") for n in range(2 * games + SPECTATORS)]
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        bots = Bots(fake, folder, postgres)
        server = None
        if postgres:
            server = pgside.Server(pgadmin.admin_url(), postgres.rsplit("/", 1)[1])
        https = {u: aiohttp.ClientSession(connector=loopback(n)) for n, u in enumerate(users)}
        opener = Opener(fake, https)
        try:
            await bots.start()
            for n, channel in enumerate(channels):
                await open_game(fake, channel, users[2 * n], [users[2 * n + 1]], 0, game="hearts")
            pairs: list[list[Client]] = []
            for n, channel in enumerate(channels):
                instance = fake.activities.add_instance(channel, users[2 * n : 2 * n + 2])
                pair = []
                for i, user in enumerate(users[2 * n : 2 * n + 2]):
                    port = bots.ports[i % len(bots.ports)]
                    pair.append(await opener.open(port, instance, user, "table"))
                pairs.append(pair)
            await asyncio.sleep(SETTLE)  # the openings' own edits are not the burst's
            load_before = os.getloadavg()
            first_request = len(fake.requests)
            if server:
                await server.start_sampling()
            cpu_before = bots.cpu()
            own_before = time.process_time()
            began = time.perf_counter()
            rounds = await asyncio.gather(*(play(p, moves, think) for p in pairs))
            wall = time.perf_counter() - began
            cpu = bots.cpu() - cpu_before
            own = time.process_time() - own_before
            db_cpu = (await server.stop_sampling()).seconds if server else 0.0
            load_after = os.getloadavg()
            await asyncio.sleep(SETTLE)
            routes = by_route(fake.requests[first_request:], set(channels))

            watched = fake.activities.add_instance(channels[0], users[2 * games :])
            before = bots.rss()
            for n, user in enumerate(users[2 * games :]):
                await opener.open(bots.ports[n % len(bots.ports)], watched, user, "lobby")
            await asyncio.sleep(1.0)
            after = bots.rss()
        except BaseException:
            for proc in bots.procs:
                print(f"---- {proc.log_path.name} ----\n{proc.log_text()[-3000:]}", file=sys.stderr)
            raise
        finally:
            await asyncio.gather(*(http.close() for http in https.values()))
            await bots.stop()
            if server:
                await server.close()
            await fake.stop()
    latencies = sorted(t * 1000 for r in rounds for t in r)
    played = len(latencies)
    q = statistics.quantiles(latencies, n=20)
    where = "2 processes, PostgreSQL" if postgres else "1 process, SQLite"
    print(f"{where}: {played} moves over {games} games at once, think {think:.2f} s")
    print(f"moves per second: {played / wall:.1f} ({wall:.1f} s)")
    print(f"send -> other socket: p50 {statistics.median(latencies):.1f} ms, p95 {q[18]:.1f} ms")
    print(f"bot CPU per move: {1000 * cpu / played:.2f} ms", end="")
    print(f" (+ PostgreSQL backends {1000 * db_cpu / played:.2f} ms)" if postgres else "")
    print(f"this process's CPU (the players' sockets): {100 * own / wall:.0f}% of a core")
    print(f"memory per open websocket: {(after - before) / SPECTATORS:.1f} KiB")
    print(f"REST requests during the burst: {sum(routes.values())}, per move "
          f"{sum(routes.values()) / played:.3f}")  # fmt: skip
    for route, count in routes.most_common():
        print(f"  {count:6d}  {route}")
    print(f"sockets closed with {TRY_AGAIN} (opened again {TRY_AGAIN_AFTER:.0f} s later): "
          f"{opener.refused}")  # fmt: skip
    print("load average before/after: " + " / ".join(
        ", ".join(f"{x:.2f}" for x in load) for load in (load_before, load_after)))  # fmt: skip


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--think", type=float, default=0.15)
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()
    if not args.postgres:
        await run(args.games, args.moves, args.think, None)
        return
    admin = pgadmin.admin_url()
    name = pgadmin.fresh_name("cardtable_live_load")
    url = await pgadmin.create_database(admin, name)
    try:
        await run(args.games, args.moves, args.think, url)
    finally:
        await pgadmin.drop_database(admin, name)


if __name__ == "__main__":
    asyncio.run(main())
