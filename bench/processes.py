"""Whole-bot throughput: 1 process on SQLite, 1 and 2 sharded processes on PostgreSQL.

The real bot processes run against the fake Discord (tests/fakediscord, rate limits off), with
the same load in every configuration of one run: ``--games`` Grinch games (two people and a
computer each), one per guild, the guilds spread over shards 0 and 1 of 2. Every channel has its
own player loop, all running at once for ``--seconds``: press **My hand** on the table, click
a random live move in the ephemeral hand, repeat; a finished game is followed by a new one in
its channel, so ``--games`` games are in play for the whole window. Clicks are made as fast
as the bot answers (no human pause). Both are guild interactions, so with two processes each
serves the guilds of its own shard (DM clicks would all go to shard 0).

Figures: accepted moves per second over the measured window, and the acknowledgement time of
the move clicks (the fake's dispatch -> the bot's interaction response), p50 and p99. Turn
timers are off. PostgreSQL gets a throw-away database per configuration on the server at
127.0.0.1:5432 (``--postgres`` to change it).

Run: ``python -m bench.processes`` (``--games``, ``--seconds``, ``--postgres``).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

from db import pgadmin
from tests.e2e.driver import (
    add_computer,
    channel_message_with_button,
    find_button,
    live_move_buttons,
    move_accepted,
    open_game,
)
from tests.fakediscord import DEFAULT_TOKEN, FakeDiscord
from tests.fakediscord.components import JSON, buttons
from tests.fakediscord.process import BotProcess


@dataclass
class Tally:
    moves: int = 0
    refused: int = 0
    acks: list[float] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Table:
    channel: int
    users: tuple[int, int]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def live_table(fake: FakeDiscord, channel: int) -> JSON | None:
    try:
        return channel_message_with_button(fake, channel, "My hand")
    except LookupError:
        return None


async def start_game(fake: FakeDiscord, table: Table) -> None:
    """A new game in the table's channel (without waiting for the whole bot to be idle):
    `/grinch start`, the other player joins, a computer is added, the host starts."""
    host, joiner = table.users
    rec = await fake.slash(host, table.channel, "grinch start")
    lobby = (await rec.wait_response()).message()
    if lobby is None or "Join" not in [b.label for b in buttons(lobby)]:
        await asyncio.sleep(0.1)  # the game goes on: its table was between two rounds
        return
    lobby_id = int(lobby["id"])
    join = find_button(fake.message(lobby_id) or lobby, "Join")
    await (await fake.click(joiner, lobby_id, join.custom_id or "")).wait_response()
    await (await add_computer(fake, host, lobby_id)).wait_response()
    start = find_button(fake.message(lobby_id) or lobby, "Start")
    await (await fake.click(host, lobby_id, start.custom_id or "")).wait_response()
    await fake.wait_for(lambda: live_table(fake, table.channel) is not None, timeout=30)


async def player_loop(fake: FakeDiscord, table: Table, until: float, tally: Tally) -> None:
    """Play the table's game until ``until``; a finished game is followed by a new one, so
    the load stays the same for the whole window."""
    rng = random.Random(table.channel)
    while time.monotonic() < until:
        progressed = False
        for user in table.users:
            message = live_table(fake, table.channel)
            if message is None:  # the game is over: the next one
                await start_game(fake, table)
                break
            button = find_button(message, "My hand").custom_id or ""
            opened = await fake.click(user, int(message["id"]), button)
            await opened.wait_response()
            hand = await opened.wait_message()
            found = live_move_buttons([hand])
            if not found:
                continue
            choice = rng.choice(found[1]).custom_id or ""
            rec = await fake.click(user, int(hand["id"]), choice)
            reply = await rec.wait_response()
            if rec.ack_latency is not None:
                tally.acks.append(rec.ack_latency)
            if move_accepted(reply) and time.monotonic() < until:
                tally.moves += 1
                progressed = True
            else:
                tally.refused += 1
        if not progressed:
            await asyncio.sleep(0.05)  # the computer's turn, or a table not redrawn yet


async def run_config(
    label: str, target: str, processes: int, games: int, seconds: float, folder: Path
) -> tuple[str, Tally, float]:
    fake = FakeDiscord(token=DEFAULT_TOKEN)
    fake.rate_limits.disable()
    fake.click_settle = 0.0  # no human pause before a click: the bot is the limit
    await fake.start()
    tables = []
    for n in range(games):
        guild = fake.add_guild(f"g{n}", shard=(n % 2, 2))
        channel = fake.add_channel(guild, "play")
        users = (fake.add_user(f"a{n}"), fake.add_user(f"b{n}"))
        for user in users:
            fake.join_guild(user, guild)
        tables.append(Table(channel, users))
    procs: list[BotProcess] = []
    try:
        for i in range(processes):
            env = {
                "DATABASE_PATH": str(folder / f"{label.replace(' ', '-')}-{i}.db"),
                "TURN_TIMEOUT_SECONDS": "0",
            }
            if target.startswith("postgresql://"):
                env["DATABASE_URL"] = target
            if processes > 1:
                env |= {"SHARD_COUNT": str(processes), "SHARD_IDS": str(i)}
            proc = BotProcess(fake, folder / f"{label.replace(' ', '-')}-{i}.log")
            procs.append(proc)
            await proc.start(env=env)
        for table in tables:
            await open_game(fake, table.channel, table.users[0], [table.users[1]], 1)
        tally = Tally()
        until = time.monotonic() + seconds
        await asyncio.gather(*(player_loop(fake, t, until, tally) for t in tables))
        return label, tally, seconds
    finally:
        for proc in procs:
            with suppress(Exception):
                await proc.stop()
        await fake.stop()


async def main_async(games: int, seconds: float, admin: str) -> None:
    why = await pgadmin.reachable(admin)
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        results.append(
            await run_config("SQLite", str(folder / "SQLite-0.db"), 1, games, seconds, folder)
        )
        if why is not None:
            print(f"PostgreSQL skipped: {why}")
        for processes in (1, 2) if why is None else ():
            name = pgadmin.fresh_name("cardtable_bench")
            url = await pgadmin.create_database(admin, name)
            try:
                label = f"PostgreSQL x{processes}"
                results.append(await run_config(label, url, processes, games, seconds, folder))
            finally:
                await pgadmin.drop_database(admin, name)
    print(f"{games} games at all times, {seconds:.0f} s each; My hand + move clicks (guild)")
    print(f"{'configuration':<16} {'moves':>6} {'moves/s':>8} {'ack p50':>9} {'ack p99':>9}")
    for label, tally, elapsed in results:
        p50 = statistics.median(tally.acks) * 1000 if tally.acks else float("nan")
        p99 = percentile(tally.acks, 0.99) * 1000
        rate = tally.moves / elapsed
        print(f"{label:<16} {tally.moves:>6} {rate:>8.1f} {p50:>7.0f}ms {p99:>7.0f}ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--postgres", default=pgadmin.admin_url())
    args = parser.parse_args()
    asyncio.run(main_async(args.games, args.seconds, args.postgres))


if __name__ == "__main__":
    main()
