"""Store speed: moves recorded per second through the real service and SQLite file.

Each move is what a button press costs the bot below Discord: load the game, apply the
action, and commit the action, snapshot and seat bookkeeping in one transaction (WAL,
synchronous=FULL). Run: ``python -m bench.store`` (``--games`` to change the sample).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from db.store import Store
from engine import GAMES
from service.games import GameService


async def run(games: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.db")
        service = GameService(store, turn_timeout=300)
        game = GAMES["grinch"]
        timings: list[float] = []
        started = time.perf_counter()
        for n in range(games):
            loaded = await service.open_lobby(
                game="grinch", guild_id=1, channel_id=n, host_id=1, host_name="A"
            )
            for user in (2, 3, 4):
                await service.join(loaded.row.id, user, f"P{user}")
            loaded = (await service.start(loaded.row.id, 1)).after
            rng = random.Random(n)
            while loaded.row.status == "active":
                seat = rng.choice(sorted(game.to_act(loaded.state)))
                action = str(rng.choice(game.legal_actions(loaded.state, seat)))
                user = loaded.seats[seat].user_id
                assert user is not None
                t0 = time.perf_counter()
                report = await service.act(loaded.row.id, user, loaded.seats[seat].step, action)
                timings.append(time.perf_counter() - t0)
                loaded = report.after
        total = time.perf_counter() - started
        await store.close()
    timings.sort()
    print(f"4-player Grinch games: {games}, moves: {len(timings)}, wall {total:.1f} s")
    print(f"moves per second (one at a time): {len(timings) / sum(timings):.0f}")
    mean, median = statistics.mean(timings) * 1000, statistics.median(timings) * 1000
    p99, worst = timings[int(len(timings) * 0.99)] * 1000, timings[-1] * 1000
    print(
        f"per move: mean {mean:.2f} ms, median {median:.2f} ms, "
        f"p99 {p99:.2f} ms, max {worst:.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    asyncio.run(run(parser.parse_args().games))


if __name__ == "__main__":
    main()
