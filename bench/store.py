"""Store speed: SQLite versus PostgreSQL, one and two bot processes, the same load.

Two measures per run, each in separate client processes (as separate bot processes would be):

- ``service``: a button press below Discord — load the game, apply the action, commit the
  action, snapshot and seat bookkeeping in one transaction — through the real GameService,
  over 4-player Grinch games whose players pick random legal moves.
- ``record``: the store alone — ``record_move`` calls back to back with a 2 kB snapshot.

The load is fixed (``--games`` games and ``--moves`` raw moves in all) and split evenly
between the clients; each client plays its own games one move at a time. moves/s is all
moves over the wall time from the common start to the last client's end; latencies are per
move. SQLite runs with one client only (its file lock refuses a second process). PostgreSQL
uses a throw-away database on the server at 127.0.0.1:5432 (``--postgres`` to change it).

Run: ``python -m bench.store`` (``--games``, ``--moves``, ``--postgres``, ``--no-postgres``).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from db import pgadmin
from db.models import Actor
from db.opening import open_store
from db.play import SeatUpdate
from engine import GAMES
from service.games import GameService

START_DELAY = 2.0  # seconds for every client to import and connect before the common start


@dataclass(frozen=True, slots=True)
class ClientRun:
    latencies: list[float]
    began: float
    ended: float


async def _service_client(target: str, client: int, games: int, start_at: float) -> ClientRun:
    store = await open_store(target)
    service = GameService(store, turn_timeout=300)
    game = GAMES["grinch"]
    latencies: list[float] = []
    await asyncio.sleep(max(0.0, start_at - time.time()))
    began = time.time()
    for n in range(games):
        channel = client * 1_000_000 + n
        loaded = await service.open_lobby(
            game="grinch", guild_id=1, channel_id=channel, host_id=1, host_name="A"
        )
        for user in (2, 3, 4):
            await service.join(loaded.row.id, user, f"P{user}")
        loaded = (await service.start(loaded.row.id, 1)).after
        rng = random.Random(channel)
        while loaded.row.status == "active":
            seat = rng.choice(sorted(game.to_act(loaded.state)))
            action = str(rng.choice(game.legal_actions(loaded.state, seat)))
            player = loaded.seats[seat].user_id
            assert player is not None
            t0 = time.perf_counter()
            report = await service.act(loaded.row.id, player, loaded.seats[seat].step, action)
            latencies.append(time.perf_counter() - t0)
            loaded = report.after
    ended = time.time()
    await store.close()
    return ClientRun(latencies, began, ended)


async def _record_client(target: str, client: int, moves: int, start_at: float) -> ClientRun:
    store = await open_store(target)
    row = await store.lobbies.create_lobby(
        guild_id=2, channel_id=-1 - client, game="ten", host_id=1, host_name="A", seed=client
    )
    for user in (2, 3, 4):
        await store.lobbies.add_seat(row.id, user_id=user, name=f"P{user}", max_seats=4)
    await store.play.start(row.id, "{}", {s: None for s in range(4)})
    snapshot = "x" * 2048
    latencies: list[float] = []
    await asyncio.sleep(max(0.0, start_at - time.time()))
    began = time.time()
    for version in range(moves):
        updates = [SeatUpdate(s, time.time() + 300, 0, False) for s in range(4)]
        t0 = time.perf_counter()
        await store.play.record_move(
            row.id,
            expected_version=version,
            seat=version % 4,
            action="p.1",
            actor=Actor.PLAYER,
            snapshot=snapshot,
            seat_updates=updates,
        )
        latencies.append(time.perf_counter() - t0)
    ended = time.time()
    await store.close()
    return ClientRun(latencies, began, ended)


def _client(kind: str, target: str, client: int, amount: int, start_at: float) -> ClientRun:
    """One client process's whole run (a top-level function, so it can be spawned)."""
    body = _service_client if kind == "service" else _record_client
    return asyncio.run(body(target, client, amount, start_at))


def measure(kind: str, target: str, clients: int, total: int) -> tuple[int, float, list[float]]:
    """(moves, wall seconds, sorted latencies) of ``clients`` processes sharing ``total``."""
    shares = [total // clients + (1 if i < total % clients else 0) for i in range(clients)]
    start_at = time.time() + START_DELAY
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=clients, mp_context=context) as pool:
        futures = [
            pool.submit(_client, kind, target, i, share, start_at) for i, share in enumerate(shares)
        ]
        runs = [f.result() for f in futures]
    latencies = sorted(t for run in runs for t in run.latencies)
    wall = max(r.ended for r in runs) - min(r.began for r in runs)
    return len(latencies), wall, latencies


def _line(label: str, kind: str, clients: int, result: tuple[int, float, list[float]]) -> str:
    moves, wall, lat = result

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(len(lat) * p))] * 1000

    return (
        f"{label:<10} {kind:<8} {clients:>7} {moves:>6} {wall:>7.2f} {moves / wall:>8.0f} "
        f"{pct(0.50):>7.2f} {pct(0.99):>7.2f} {lat[-1] * 1000:>8.2f}"
    )


async def _fresh_pg(admin: str) -> tuple[str, str] | None:
    why = await pgadmin.reachable(admin)
    if why is not None:
        print(f"PostgreSQL not measured: no server at {admin} ({why})")
        return None
    name = pgadmin.fresh_name("cardtable_bench")
    return name, await pgadmin.create_database(admin, name)


def run(games: int, moves: int, admin: str | None) -> None:
    print(f"load: {games} 4-player Grinch games through the service; {moves} raw record_move")
    print(f"{'engine':<10} {'measure':<8} clients  moves  wall s  moves/s  p50 ms  p99 ms   max ms")
    pg = asyncio.run(_fresh_pg(admin)) if admin else None
    try:
        for kind, total in (("service", games), ("record", moves)):
            with tempfile.TemporaryDirectory() as folder:
                sqlite_target = str(Path(folder) / "bench.db")
                print(_line("sqlite", kind, 1, measure(kind, sqlite_target, 1, total)))
            if pg is None:
                continue
            for clients in (1, 2):
                asyncio.run(pgadmin.reset_schema(pg[1]))
                print(_line("postgres", kind, clients, measure(kind, pg[1], clients, total)))
    finally:
        if pg is not None and admin is not None:
            asyncio.run(pgadmin.drop_database(admin, pg[0]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="Grinch games in all")
    parser.add_argument("--moves", type=int, default=2000, help="raw record_move calls in all")
    parser.add_argument("--postgres", default=pgadmin.admin_url(), help="server to use")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    args = parser.parse_args()
    run(args.games, args.moves, None if args.no_postgres else args.postgres)


if __name__ == "__main__":
    main()
