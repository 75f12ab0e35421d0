"""The floor under the bot's CPU per move: discord.py's part of a move with no game behind it.

``bench.discord_load`` gives the real bot's CPU per move next to a bare durable commit (the
issue's yardstick: at most 10x). This runs ``bench/bots/floor.py`` instead, in the same way (a
real process against the same rate-limited fake Discord, windows ``--scale`` shorter, players
thinking ``--think`` seconds between clicks on their hand DMs), a bot that for each click makes
one durable commit, answers the click with an update of the hand and edits the table and the
next player's hand: the REST calls of a move (3 per click against the real bot's 2.1-2.8) and
its commit, with no game, no drawing and no thinking.

Printed: accepted clicks/s, REST calls per click by kind, 429s, ack p99, the floor bot's CPU
per click (its process: the event loop and the SQLite thread) and a bare durable aiosqlite
commit measured in the same run, as ``bench.discord_load`` prints them. Choose ``--tables``
and ``--players`` so that the click rate is the real run's: CPU per move falls as the rate
grows (more moves share each wake-up of the loop).

Run: ``python -m bench.discord_floor`` (defaults: 63 tables of 2 players, human pace, windows
50x shorter, 30 s: about 210 clicks/s, the click rate of ``bench.discord_load``'s run at 100
games). The fake answers 1-2% of the ~12,700 edits of such a run with a global 429, each
one retry (counted in the calls per click). They are the harness's: the fake counts a
request when its loop reads it, and after a pause of its own process (90-110 ms seen, no
click sent meanwhile) it reads the backlog at once, up to 141 edits within 20 ms where the
bot's pacing sends at most 40; Discord counts requests as they arrive.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench import discord_players as dp
from bench.commit import measure as measure_commit
from bench.discord_load import DRAIN_SECONDS, HUMAN
from tests.fakediscord import FakeDiscord
from tests.fakediscord.components import buttons
from tests.fakediscord.process import BotProcess

UPDATE = 7  # the click answered with an update of its message


async def player(
    fake: FakeDiscord,
    user: int,
    rng: random.Random,
    until: float,
    think: tuple[float, float],
    acks: list[float],
) -> None:
    """Think, click the hand's button, wait for the answer, repeat."""
    while await dp.think_then(rng, think, until):
        hands = fake.dm_messages(user)
        if not hands:
            continue
        message = hands[-1]
        found = buttons(message)
        if not found:
            continue
        rec = await fake.click(user, int(message["id"]), found[0].custom_id or "")
        try:
            reply = await rec.wait_response(timeout=5.0)
        except TimeoutError:
            continue
        if reply.type == UPDATE and rec.ack_latency is not None:
            acks.append(rec.ack_latency)


async def run(tables: int, players: int, seconds: float, think: tuple[float, float],
              scale: float, folder: Path) -> None:  # fmt: skip
    fake = FakeDiscord()
    fake.click_settle = 0.0
    if scale != 1.0:
        fake.scale_time(scale)
    await fake.start()
    guild = fake.add_guild("Floor")
    layout: list[dict[str, Any]] = []
    for n in range(tables):
        channel = fake.add_channel(guild, f"floor-{n}")
        users = [fake.add_user(f"f{n}-{k}", guild_ids=[guild]) for k in range(players)]
        layout.append({"channel": channel, "players": [[u, fake.open_dm(u)] for u in users]})
    users = [u for t in layout for u, _ in t["players"]]
    bot = BotProcess(
        fake,
        folder / "floor.log",
        env={"FLOOR_TABLES": json.dumps(layout), "FLOOR_DB": str(folder / "floor.db")},
    )
    try:
        await bot.start("bench/bots/floor.py", commands=False, timeout=60)
        assert bot.popen is not None
        while not all(fake.dm_messages(u) for u in users):
            await asyncio.sleep(0.1)
        await asyncio.sleep(1.0)
        pid = bot.popen.pid
        fake.stats.reset()
        acks: list[float] = []
        cpu0 = dp.process_cpu_seconds(pid)
        rng = random.Random(1)
        start = time.monotonic()
        with dp.harness_without_pauses():
            await asyncio.gather(
                *(player(fake, u, random.Random(rng.random()), start + seconds, think, acks)
                  for u in users)
            )  # fmt: skip
        elapsed = time.monotonic() - start
        await asyncio.sleep(DRAIN_SECONDS)
        cpu = dp.process_cpu_seconds(pid) - cpu0
        commit = await measure_commit(folder)
    finally:
        await bot.stop()
        await fake.stop()
    clicks = max(1, len(acks))
    calls: Counter[str] = fake.stats.calls
    per_click = cpu / clicks * 1000
    print(
        f"\n== floor: {tables} tables x {players} players, {elapsed:.0f} s, windows x{scale:g}, "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n"
        f"accepted clicks/s {len(acks) / elapsed:.1f}; 429s: bucket {fake.stats.bucket_429}, "
        f"global {fake.stats.global_429}\n"
        f"REST calls per click {sum(calls.values()) / clicks:.2f}"
    )
    for kind, n in calls.most_common():
        print(f"    {n / clicks:6.3f}  {kind}")
    print(
        f"ack p99 {dp.percentile(acks, 99) * 1000:.0f} ms\n"
        f"floor bot CPU per click {per_click:.2f} ms; bare durable aiosqlite commit "
        f"{commit}: {per_click / commit.cpu_ms:.1f}x"
    )


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="discord-floor-") as tmp:
        for _ in range(args.runs):
            await run(args.tables, args.players, args.seconds, tuple(args.think), args.scale,
                      Path(tmp))  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=63)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, nargs=2, default=HUMAN, metavar=("MIN", "MAX"))
    parser.add_argument("--scale", type=float, default=0.02, help="rate-limit time scale")
    parser.add_argument("--runs", type=int, default=1)
    asyncio.run(main(parser.parse_args()))
