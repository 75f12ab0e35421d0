"""Interactions over HTTP: 1, 2 and 4 workers (`bot.py worker`) behind HAProxy on PostgreSQL.

Each run starts a fresh fake Discord enforcing Discord's limits (``--scale`` 1: their real
length), which POSTs every interaction to HAProxy (``tests/e2e/balancer.py``: round robin,
each answer marked with the worker that served it), a fresh PostgreSQL database, one gateway
process (``INTERACTIONS=gateway``: the shard, the commands, no interaction) and N workers.
The offered load is the same in every run: ``--games`` games, one channel each, mixed over the
four games as in ``bench.discord_load``, every human clicking a random live control of their
newest hand DM after thinking 1-3 s (``--think``), for ``--seconds``; then the bot gets a few
seconds to finish its writes. Before the clicking, 5 s with nobody playing measure what the
processes use on their own. ``--balance game``: HAProxy sends all of a game's clicks to one
worker (a hash of the game id in the custom_id) instead of round robin.

Per run, over the clicking and the drain:

- **CPU per recorded move**: every bot process (the workers, the gateway process, and their
  drawing and thinking child processes, from ``/proc``) and PostgreSQL's backends serving the
  database (``bench.pgside``), over the moves in the action log (computers' included);
- moves/s while clicking, accepted clicks/s, the share of interactions each worker served
  (``X-Served-By``) and the largest share over the fair one (1/N);
- per move: database round trips, explicit transactions committed, statements in a
  transaction of their own (read off the wire by ``bench.pgwire``, a proxy between the bots
  and the server), the shared REST budget's calls (``take_rest_slots``), ``xact_commit`` of
  the database (``pg_stat_database``), and REST calls (interaction callbacks apart);
- the load average at the end of the run.

Then (``--sqlite``, the default) the same load on one process and its SQLite file
(``bench.workers_sqlite``; before the workers in every other repeat): each run's CPU per move
against that process's, and its round trips per move, against the targets of the round-trip
issue (at most 1.5x, at most 8). With ``--together`` that process is clicked at the same time
as each workers' run instead, with its own fake Discord and games (:func:`run`): the
machine's speed drifts by half within minutes here, and two sides run at once see the same
machine; the ratio is read pair by pair.

The targets (the scaling issue's): CPU per move flat from 1 to 4 workers (within 15%), and no
worker serving more than 1.5x its fair share. Wall-clock throughput cannot double on 2 cores,
and the offered load is set well below what the machine can take, so moves/s should stay the
same; the figure that must not grow is CPU per move.

Run: ``python -m bench.workers`` (``--workers 1 2 4``, ``--games``, ``--seconds``, ``--think``,
``--scale``, ``--balance``, ``--repeat`` (1 to 5: every other repeat runs the SQLite process
first, and the ratios' medians close the output), ``--together``, ``--postgres``,
``--no-sqlite``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from urllib.parse import urlsplit

from bench import discord_players as dp
from bench import pgside
from bench.load_bot import prepared
from bench.pgwire import CountingProxy
from bench.workers_figures import Figures, show, summary
from bench.workers_sqlite import (
    SQLITE_AT_MOST,
    SqliteFigures,
    against,
    measure_sqlite,
    run_sqlite,
    sqlite_first,
)
from db import pgadmin
from tests.e2e.balancer import Balancer
from tests.e2e.driver import quiet
from tests.fakediscord import FakeDiscord
from tests.fakediscord.endpoint import free_port, wait_ok
from tests.fakediscord.process import BotProcess

DRAIN_SECONDS = 8.0
IDLE_SECONDS = 5.0  # before the clicking: what the processes use with nobody playing
ROUND_TRIPS_AT_MOST = 8  # database round trips per move


def through(url: str, port: int) -> str:
    """``url`` with its host and port replaced by the proxy's, on 127.0.0.1."""
    parts = urlsplit(url)
    user = parts.netloc.rpartition("@")[0]
    netloc = f"{user}@127.0.0.1:{port}" if user else f"127.0.0.1:{port}"
    return parts._replace(netloc=netloc).geturl()


# HAProxy's choice by game: every game control's custom_id starts ``<kind>:<game id>``
# (discordkit/views.py); the body's last custom_id, cut down to its game id, is hashed, so
# a game's clicks all go to one worker (a body with none, a slash command, hashes as "").
BY_GAME = (
    "    balance hash req.body,regsub(^.*custom_id.:.?.[a-z]+:,),regsub([^0-9].*$,)\n"
    "    option http-buffer-request\n"
)


# The tests' health checks (every 300 ms, down after 2 missed) take out a worker whose loop
# is busy for 0.6 s, which a loaded shared machine does; the bench checks a live worker as
# compose does (every 2 s) and one that is down (not started yet) every 300 ms.
TEST_CHECKS = "inter 300ms fall 2"
BENCH_CHECKS = "inter 2s downinter 300ms fall 3"
UP_AFTER = 0.6  # seconds after a worker answers its /health until the balancer has seen it


def balancer(folder: Path, front: int, ports: list[int], *, by_game: bool) -> Balancer:
    """tests/e2e/balancer.py's HAProxy (round robin), its health checks every 2 s, or with
    ``by_game`` the same choosing the worker by the game's id."""
    found = Balancer(folder, front, ports)
    text = found.config.read_text()
    chosen = text.replace(TEST_CHECKS, BENCH_CHECKS)
    if by_game:
        chosen = chosen.replace("    balance roundrobin\n", BY_GAME)
    assert chosen.count("balance ") == 1 and BENCH_CHECKS in chosen, chosen
    assert by_game == ("balance hash" in chosen), chosen
    found.config.write_text(chosen)
    return found


def _is_interaction(kind: str) -> bool:
    return kind.startswith("POST /interactions/") or "/webhooks/" in kind


@dataclass(frozen=True, slots=True)
class Ready:
    """A run's processes up and its games opened: what :func:`measure` reads."""

    fake: FakeDiscord
    gateway: BotProcess
    procs: list[BotProcess]
    direct: str  # the database's own URL (not through the proxy)
    server: pgside.Server
    proxy: CountingProxy
    tables: list[dp.Table]


async def run(
    workers: int,
    games: int,
    seconds: float,
    think: tuple[float, float],
    folder: Path,
    admin: str,
    *,
    scale: float = 1.0,
    seed: int = 1,
    by_game: bool = False,
    together: bool = False,
) -> tuple[Figures, SqliteFigures | None]:
    """One run with ``workers`` workers (see the module's docstring); ``by_game``: the
    balancer sends each game's clicks to one worker. ``together``: the SQLite process is
    clicked at the same time, with its own fake Discord and ``games`` games and the same
    players' seed, so that the machine's speed, which drifts by half within minutes here,
    weighs on both alike (its figures second; the harness's share of a core is then both
    fake Discords' and all the players')."""
    async with AsyncExitStack() as stack:
        up = await stack.enter_async_context(
            ready(workers, games, folder, admin, scale=scale, by_game=by_game)
        )
        bot = None
        if together:
            beside = prepared(games, folder, scale=scale, settled=False)
            bot = await stack.enter_async_context(beside)
        idle = await idle_cpu(up)
        with dp.harness_without_pauses():
            if bot is None:
                return await measure(up, idle, seconds, think, seed), None
            on_postgres, on_sqlite = await asyncio.gather(
                measure(up, idle, seconds, think, seed), measure_sqlite(bot, seconds, think, seed)
            )
            return on_postgres, on_sqlite


@asynccontextmanager
async def ready(
    workers: int, games: int, folder: Path, admin: str, *, scale: float, by_game: bool
) -> AsyncIterator[Ready]:
    """A fresh fake Discord, database, gateway process and ``workers`` workers behind
    HAProxy, with ``games`` games opened; all stopped on leaving (their logs printed if
    anything failed)."""
    fake = FakeDiscord()
    fake.click_settle = 0.0
    if scale != 1.0:
        fake.scale_time(scale)
    await fake.start()
    # after the fake has its port: the endpoint's free port is then not the fake's own
    endpoint = fake.serve_interactions_over_http()
    own = Path(tempfile.mkdtemp(dir=folder, prefix=f"workers-{workers}-"))
    name = pgadmin.fresh_name("cardtable_workers")
    direct = await pgadmin.create_database(admin, name)
    target = urlsplit(admin)
    proxy = CountingProxy(target.hostname or "127.0.0.1", target.port or 5432)
    await proxy.start()
    server = pgside.Server(admin, name)
    common = {
        "DATABASE_URL": through(direct, proxy.port),
        "TURN_TIMEOUT_SECONDS": "300",
        "LOG_LEVEL": "WARNING",
    }
    gateway = BotProcess(fake, own / "gateway.log")
    ports = [free_port() for _ in range(workers)]
    procs = [BotProcess(fake, own / f"worker{i}.log") for i in range(workers)]
    try:
        tables = dp.world(fake, games)
        await dp.known_dm_channels(fake, direct, [u for t in tables for u in t.humans])
        await gateway.start(
            env={
                **common,
                "INTERACTIONS": "gateway",
                "WEB_PORT": "",
                "DATABASE_PATH": str(own / "gateway.db"),
            },
            timeout=60,
        )
        with balancer(own, endpoint.port, ports, by_game=by_game):
            for i, (proc, port) in enumerate(zip(procs, ports, strict=True)):
                env = {**common, "WEB_PORT": str(port), "DATABASE_PATH": str(own / f"w{i}.db")}
                await proc.start(env=env, args=("worker",), wait=False)
                await wait_ok(port, timeout=60)
            await asyncio.sleep(UP_AFTER)
            await open_tables(fake, tables, workers)
            await quiet(fake, idle=0.5, timeout=180)
            yield Ready(fake, gateway, procs, direct, server, proxy, tables)
    except BaseException:
        for proc in (gateway, *procs):
            print(f"---- {proc.log_path.name} ----\n{proc.log_text()[-3000:]}", file=sys.stderr)
        raise
    finally:
        for proc in (*procs, gateway):
            await proc.stop()
        await server.close()
        await proxy.stop()
        await pgadmin.drop_database(admin, name)
        await fake.stop()


async def open_tables(
    fake: FakeDiscord, tables: list[dp.Table], workers: int, at_once: int = 4
) -> None:
    """Every table's game opened, ``at_once`` at a time after the first ``2 * workers`` one by
    one: a worker's first interactions (its pool's first connections, its first statements
    prepared, its drawing process started) can miss Discord's 3 s on a busy machine."""
    for table in tables[: 2 * workers]:
        await dp.open_table(fake, table)
    gate = asyncio.Semaphore(at_once)

    async def one(table: dp.Table) -> None:
        async with gate:
            await dp.open_table(fake, table)

    await asyncio.gather(*(one(t) for t in tables[2 * workers :]))


def _pid(proc: BotProcess) -> int:
    assert proc.popen is not None
    return proc.popen.pid


async def measure(
    up: Ready, idle: tuple[float, float], seconds: float, think: tuple[float, float], seed: int
) -> Figures:
    """The clicking and the drain of a run (``idle``: :func:`idle_cpu`'s, read before)."""
    fake, gateway, procs, direct = up.fake, up.gateway, up.procs, up.direct
    server, proxy, tables = up.server, up.proxy, up.tables
    assert fake.endpoint is not None
    endpoint = fake.endpoint
    fake.stats.reset()
    served0 = Counter(endpoint.served_by)
    moves0 = await pgside.recorded_moves(direct)
    worker0 = [dp.cpu_seconds(_pid(p)) for p in procs]
    own0 = [dp.process_cpu_seconds(_pid(p)) for p in procs]
    gateway0 = dp.cpu_seconds(_pid(gateway))
    wire0 = proxy.counts.copy()
    commits0 = await server.commits()
    await server.start_sampling()
    harness0 = _own_cpu()
    humans = [user for t in tables for user in t.humans]
    clicks, elapsed = await dp.play_everyone(fake, humans, seed, seconds, think)
    harness = (_own_cpu() - harness0) / elapsed
    moves = await pgside.recorded_moves(direct) - moves0
    await asyncio.sleep(DRAIN_SECONDS)
    backend = await server.stop_sampling()
    worker_cpu = [dp.cpu_seconds(_pid(p)) - c for p, c in zip(procs, worker0, strict=True)]
    worker_own = [dp.process_cpu_seconds(_pid(p)) - c for p, c in zip(procs, own0, strict=True)]
    gateway_cpu = dp.cpu_seconds(_pid(gateway)) - gateway0
    wire = proxy.counts.minus(wire0)
    commits = await server.commits() - commits0
    all_moves = await pgside.recorded_moves(direct) - moves0
    calls = fake.stats.calls
    served = Counter(endpoint.served_by) - served0
    return Figures(
        workers=len(procs),
        games=len(tables),
        seconds=elapsed,
        moves=moves,
        all_moves=all_moves,
        accepted=len(clicks.accepted),
        worker_cpu=worker_cpu,
        worker_own=worker_own,
        gateway_cpu=gateway_cpu,
        postgres_cpu=backend.seconds,
        backends=backend.backends,
        served=[served[f"w{i}"] for i in range(len(procs))],
        rest_calls=sum(calls.values()),
        interaction_calls=sum(n for k, n in calls.items() if _is_interaction(k)),
        wire=wire,
        xact_commits=commits,
        load=" ".join(f"{x:.2f}" for x in os.getloadavg()),
        statements=wire.statements,
        idle_bot=idle[0],
        idle_postgres=idle[1],
        harness=harness,
    )


async def idle_cpu(up: Ready) -> tuple[float, float]:
    """CPU seconds per second of the bot's processes together and of the database's backends
    with nobody clicking (after the tables are shown): what runs on its own (turn timers,
    repairs, heartbeats, lease renewals, the pools)."""
    pids = [_pid(p) for p in (up.gateway, *up.procs)]
    bot0 = sum(dp.cpu_seconds(pid) for pid in pids)
    await up.server.start_sampling()
    await asyncio.sleep(IDLE_SECONDS)
    backends = await up.server.stop_sampling()
    bot = sum(dp.cpu_seconds(pid) for pid in pids) - bot0
    return bot / IDLE_SECONDS, backends.seconds / IDLE_SECONDS


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def main(args: argparse.Namespace) -> None:
    if shutil.which("haproxy") is None and not Path("/usr/sbin/haproxy").exists():
        raise SystemExit("bench.workers needs HAProxy (Debian: apt-get install haproxy)")
    why = await pgadmin.reachable(args.postgres)
    if why is not None:
        raise SystemExit(f"bench.workers needs PostgreSQL at {args.postgres}: {why}")
    ratios: dict[int, list[float]] = {}
    in_turns = args.sqlite and not args.together
    with tempfile.TemporaryDirectory(prefix="bench-workers-") as tmp:
        think, folder = tuple(args.think), Path(tmp)
        alone = partial(run_sqlite, args.games, args.seconds, think, folder, scale=args.scale)
        for repeat in range(1, args.repeat + 1):
            first = await alone(seed=repeat) if in_turns and sqlite_first(repeat) else None
            runs, beside = [], []
            for workers in args.workers:
                figures, sqlite = await run(
                    workers, args.games, args.seconds, think, folder, args.postgres,
                    scale=args.scale, seed=repeat, by_game=args.balance == "game",
                    together=args.together,
                )  # fmt: skip
                if sqlite is not None:
                    beside.append(sqlite)
                show(figures)
                runs.append(figures)
            print(
                f"\n== repeat {repeat}: {args.games} games, {args.seconds:.0f} s each, "
                f"windows x{args.scale:g}, balanced by {args.balance}; CPU in ms per recorded "
                "move, counts per move"
            )
            print(summary(runs))
            if not args.sqlite:
                continue
            when = " (clicked at the same time)" if args.together else ""
            if in_turns:
                beside = [first or await alone(seed=repeat)] * len(runs)
                when = " (run before the workers)" if first else ""
            for f, yardstick in zip(runs, beside, strict=True):
                print(yardstick.line() + when)
                ratio = f.cpu_ms / yardstick.cpu_ms
                ratios.setdefault(f.workers, []).append(ratio)
                print(
                    f"{f.workers} worker(s) on PostgreSQL: CPU per move "
                    f"{ratio:.2f}x the SQLite process's (target at most "
                    f"{SQLITE_AT_MOST:g}x), {f.per_move(f.wire.round_trips):.1f} round trips "
                    f"per move (target at most {ROUND_TRIPS_AT_MOST})"
                )
    if args.repeat > 1 and ratios:
        print("\n" + "\n".join(against(ratios)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--think", type=float, nargs=2, default=(1.0, 3.0), metavar=("MIN", "MAX"))
    parser.add_argument("--scale", type=float, default=1.0, help="rate-limit time scale")
    parser.add_argument("--balance", choices=("roundrobin", "game"), default="roundrobin")
    parser.add_argument("--repeat", type=int, default=1, choices=range(1, 6))
    parser.add_argument("--postgres", default=pgadmin.admin_url())
    parser.add_argument(
        "--sqlite",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the same load on one process and SQLite, after the workers' runs",
    )
    parser.add_argument(
        "--together", action="store_true",
        help="the SQLite process clicked at the same time as each workers' run",
    )  # fmt: skip
    asyncio.run(main(parser.parse_args()))
