"""The live table's figures (not a test): ``python -m bench.live_table [games] [moves]``.

A real bot process (SQLite) against the fake Discord (rate limits off: this measures the
backend, not Discord's pacing) with ``games`` 2-player Hearts games in as many channels, both
players on the live table's websocket. Every game plays ``moves`` moves at once over the
sockets; each move's time runs from the mover's send to the moment the other player's socket
receives the new version. Then ``SPECTATORS`` more sockets watch one game: the bot's resident
memory before and after gives the memory per open websocket, and its CPU time over a burst of
moves, divided by the frames it pushed, the CPU per pushed view.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from tests.e2e.driver import bot_env, open_game
from tests.e2e.live import Client, connect, live_env, login, loopback
from tests.fakediscord import FakeDiscord
from tests.fakediscord.endpoint import free_port, wait_ok
from tests.fakediscord.process import BotProcess

SPECTATORS = 200
CLK_TCK = os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


async def play(pair: dict[int, Client], moves: int) -> list[float]:
    """``moves`` moves over the sockets; each one's send-to-other's-receive time (s)."""
    times: list[float] = []
    for _ in range(moves):
        frames = {u: c.latest() for u, c in pair.items()}
        mover = next((u for u, f in frames.items() if f["moves"]), None)
        if mover is None or frames[mover]["status"] != "active":
            break
        other = next(u for u in pair if u != mover)
        frame = frames[mover]
        seen = len(pair[other].frames)
        sent = time.perf_counter()
        await pair[mover].send(
            {
                "type": "move",
                "game_id": frame["game_id"],
                "step": frame["step"],
                "action": frame["moves"][0]["action"],
            }
        )
        got = await pair[other].wait(
            lambda f, v=frame["version"]: f["type"] == "table" and f["version"] > v
        )
        index = pair[other].frames.index(got, seen)
        times.append(pair[other].times[index] - sent)
        await asyncio.sleep(0.15)  # forced moves land; the next move plays from the newest
    return times


async def main(games: int, moves: int) -> None:
    fake = FakeDiscord()
    fake.rate_limits.disable()
    await fake.start()
    guild = fake.add_guild("Bench")
    channels = [fake.add_channel(guild, f"t{n}") for n in range(games)]
    users = [fake.add_user(f"u{n}") for n in range(2 * games + SPECTATORS)]
    fake.click_settle = 0.0
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        bot = BotProcess(fake, Path(folder) / "bot.log")
        env = {**bot_env(Path(folder)), **live_env(fake, port), "PICTURES": "off"}
        await bot.start(env=env)
        await wait_ok(port)
        assert bot.popen is not None
        pid = bot.popen.pid
        try:
            for n, channel in enumerate(channels):
                await open_game(fake, channel, users[2 * n], [users[2 * n + 1]], 0, game="hearts")
            # one client address per viewer, as viewers come from their own (web/guard.py)
            https = {u: aiohttp.ClientSession(connector=loopback(n)) for n, u in enumerate(users)}
            try:
                pairs = []
                for n, channel in enumerate(channels):
                    instance = fake.activities.add_instance(channel, users[2 * n : 2 * n + 2])
                    pair = {}
                    for user in users[2 * n : 2 * n + 2]:
                        http = https[user]
                        session = await login(http, fake, port, user)
                        pair[user] = await connect(http, port, session, instance, user)
                        await pair[user].wait(lambda f: f["type"] == "table")
                    pairs.append(pair)
                rounds = await asyncio.gather(*(play(p, moves) for p in pairs))
                latencies = sorted(t * 1000 for r in rounds for t in r)
                watched = fake.activities.add_instance(channels[0], users[2 * games :])
                before = rss_kib(pid)
                watchers = []
                for user in users[2 * games :]:
                    session = await login(https[user], fake, port, user)
                    watchers.append(await connect(https[user], port, session, watched, user))
                for watcher in watchers:
                    await watcher.wait(lambda f: f["type"] in ("table", "lobby"))
                await asyncio.sleep(1.0)
                after = rss_kib(pid)
                frames_before = sum(len(w.frames) for w in watchers)
                cpu_before = cpu_seconds(pid)
                more = await play(pairs[0], moves)
                await asyncio.sleep(0.5)
                cpu = cpu_seconds(pid) - cpu_before
                pushed = sum(len(w.frames) for w in watchers) - frames_before
                pushed += 2 * len(more)
            finally:
                await asyncio.gather(*(http.close() for http in https.values()))
        finally:
            await bot.stop()
            await fake.stop()
    q = statistics.quantiles(latencies, n=20)
    print(f"moves: {len(latencies)} over {games} games at once")
    print(f"send -> other socket: p50 {statistics.median(latencies):.1f} ms, p95 {q[18]:.1f} ms")
    print(f"memory per open websocket: {(after - before) / SPECTATORS:.1f} KiB")
    print(f"CPU per pushed view: {1000 * cpu / max(pushed, 1):.3f} ms ({pushed} frames)")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    asyncio.run(main(*(args + [10, 10][len(args) :])))
