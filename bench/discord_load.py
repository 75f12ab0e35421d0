"""The bot under load: the real bot process against the rate-limited fake Discord.

Each run starts a fresh bot process (``tests/fakediscord/process.py``) on a fresh SQLite file
against a fresh fake Discord enforcing Discord's limits at their REAL length (no time
scaling): 5 message writes per 5 s per channel (DM channels too), 50 requests/s per bot
(interaction callbacks and followups exempt). ``--games`` games are opened through slash
commands and lobby buttons, one channel each, mixed over the four games (Grinch 3 humans + 1
computer, Gnoming 3 + 1, Hearts 2 humans, Ten 2 + 1). Then for ``--seconds`` every human
clicks a random live control of their newest hand DM after thinking 0.2-1 s (``--think``),
without waiting for the bot to go quiet; a click on a control that went stale meanwhile is
counted apart. After the clicking stops the bot gets a few seconds to finish its writes.

Per run: accepted clicks/s and recorded moves/s (computer moves included), 429s, REST calls
per accepted click by kind (interaction callbacks and webhooks apart from the rest), click ->
own message updated p50/p95 (the interaction callback as the fake received it), click ->
table updated p95, notifying DMs per player, acknowledgement p99, CPU of the bot (its
process and its drawing and thinking processes, and the process alone) per recorded move (CPU
and moves both counted through the drain) next to a bare durable aiosqlite commit measured in
the same run, after the drain (``bench.commit``: its own process, the median of 5 batches).

The runs at 100 games: players at human pace with the windows 50x shorter is the issue's own
load for its throughput, acknowledgement and CPU targets (no bot gets 300 moves/s through
Discord's real 50 requests/s), though at human pace the players themselves offer only about
300 moves/s; players who click 20-100 ms after each answer find the most the bot can do, and
there the acknowledgement is a queue: ~250 players clicking again the moment they are
answered wait about (players / moves per second - think time). The harness runs the measured
window with its own collector off (``discord_players.harness_without_pauses``).

``--pictures both`` runs each with pictures and with ``PICTURES=off``, in turns, and prints
what pictures cost (CPU per move, own message p95, ack p99: the medians on against off);
``--pictures together`` runs the two bots at the same time and reads their CPU per move pair
by pair (``bench.pictures_cost``);
``--mix hearts`` makes half the games 2-player Hearts (friends who play fast), ``--mix even
hearts`` runs both. The clicking starts once the bot is idle after the openings (its drawing
process has drawn the games' faces ahead, as a bot running for a while has).

Run: ``python -m bench.discord_load`` (all runs, ~10 min) or e.g. ``--games 10 --seconds 30``;
``--startup`` adds the restart with 1,000 open games (``bench.discord_startup``). The
machine is shared: figures are noisy; the load average is printed with each run, and the
machine's speed right after it (``bench.machine``: a fixed Python workload's CPU time; the same
workload took 42 and 69 ms within one hour here). ``--repeat N`` runs each N times and then
prints every figure's median and range, with how many runs met the issue's targets
(``bench.spread``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from bench import discord_players as dp
from bench import spread
from bench.commit import Commit
from bench.commit import measure as measure_commit
from bench.load_bot import Prepared, prepared
from bench.machine import Speed
from bench.machine import measure as measure_speed
from tests.fakediscord import FakeDiscord

DRAIN_SECONDS = 8.0  # after the clicking: the bot's queued writes go out
# The first seconds hold the opening burst (every player of every game holds a live control
# at once); the acknowledgement is printed for the whole run and for the rest apart.
STEADY_AFTER = 5.0
HUMAN = (0.2, 1.0)
FAST = (0.02, 0.1)  # for moves/s and ack p99: players who click at once
# games, seconds, think time, time scale of the rate-limit windows (1: Discord's own)
DEFAULT_RUNS = (
    (1, 60.0, HUMAN, 1.0),
    (10, 60.0, HUMAN, 1.0),
    (50, 60.0, HUMAN, 1.0),
    (100, 45.0, FAST, 1.0),
    (100, 30.0, HUMAN, 0.02),  # windows 50x shorter: the 300 moves/s at human pace
    (100, 30.0, FAST, 0.02),  # and players clicking at once: what the bot itself can do
)


@dataclass(slots=True)
class Figures:
    games: int
    seconds: float
    scale: float
    clicks_per_s: float
    moves_per_s: float
    accepted: int
    stale: int
    vanished: int
    bucket_429: int
    global_429: int
    calls_per_click: float
    interaction_per_click: float
    other_per_click: float
    by_kind: dict[str, float]
    own_p50: float
    own_p95: float
    own_turn: tuple[int, float, float]  # answers showing the clicker's turn: n, p50, p95
    own_other: tuple[int, float, float]  # the other answers
    table_p50: float
    table_p95: float
    table_missing: int
    notify_per_player: float
    notify_max: int
    notify_per_own_move: float
    ack_p99: float
    ack_p99_steady: float  # interactions after the first STEADY_AFTER seconds of clicking
    per_game: dict[str, tuple[int, dict[str, float]]]  # game -> moves, short kind -> per move
    cpu_ms_per_move: float
    # The same from STEADY_AFTER seconds into the clicking: past any one-off work of a start
    # that falls in it (the drawing process draws a game's card faces ahead once it has
    # drawn the game's first picture).
    cpu_ms_per_move_steady: float
    process_ms_per_move: float  # of which the bot's own process: its event loop and threads
    bench_cpu: float  # share of one core the fake Discord and the players used
    drained_moves: int  # moves recorded in the drain (counted in the CPU per move, not in moves/s)
    load: str
    commit: Commit | None = None  # the yardstick, measured after the drain
    machine: Speed | None = None  # the machine's speed, measured right after the run
    setup: str = "pictures on, mix even"

    @property
    def commits_per_move(self) -> float:
        """The bot's CPU per move in bare durable commits (the issue's yardstick)."""
        if self.commit is None:
            return float("nan")
        return self.cpu_ms_per_move / max(self.commit.cpu_ms, 1e-9)


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _short(kind: str) -> str:
    if kind.startswith("POST /interactions/"):
        return "callback"
    if "/webhooks/" in kind:
        return "webhook"
    if kind.startswith("PATCH /channels/"):
        return "edit"
    if kind.startswith("POST /channels/"):
        return "new message"
    if kind.startswith("POST /users/@me/channels"):
        return "dm-open"
    return kind


def _is_interaction(kind: str) -> bool:
    return kind.startswith("POST /interactions/") or "/webhooks/" in kind


async def run(
    games: int,
    seconds: float,
    think: tuple[float, float],
    folder: Path,
    *,
    scale: float = 1.0,
    script: str = "bot.py",
    seed: int = 1,
    pictures: bool = True,
    mix: str = "even",
) -> Figures:
    """One run; ``scale`` < 1 shortens every rate-limit window (the fake's and the bot's
    pacing alike), to measure what the bot itself can do; ``pictures`` False: the bot with
    ``PICTURES=off``; ``mix``: a key of ``discord_players.MIXES``."""
    ready = prepared(games, folder, scale=scale, script=script, pictures=pictures, mix=mix)
    async with ready as bot:
        with dp.harness_without_pauses():
            figures = await measure(bot, seconds, think, seed)
        await yardsticks(figures, bot.db.parent)
        return figures


async def measure(bot: Prepared, seconds: float, think: tuple[float, float], seed: int) -> Figures:
    """The clicking and the drain of one run, and its figures but the yardsticks (see
    :func:`run`)."""
    fake, pid, db, tables = bot.fake, bot.pid, bot.db, bot.tables
    fake.stats.reset()
    first_request = len(fake.requests)
    first_interaction = max(fake.interactions, default=0)
    moves0, cpu0 = dp.recorded_moves(db), dp.cpu_seconds(pid)
    process0 = dp.process_cpu_seconds(pid)
    epoch0 = time.time()
    own0 = _own_cpu()
    humans = [user for t in tables for user in t.humans]
    steady = (
        asyncio.ensure_future(_counters_after(STEADY_AFTER, pid, db))
        if seconds > STEADY_AFTER
        else None
    )
    clicks, elapsed = await dp.play_everyone(fake, humans, seed, seconds, think)
    bench_cpu = (_own_cpu() - own0) / elapsed
    moves = dp.recorded_moves(db) - moves0
    await asyncio.sleep(DRAIN_SECONDS)
    cpu = dp.cpu_seconds(pid) - cpu0
    process = dp.process_cpu_seconds(pid) - process0
    all_moves = dp.recorded_moves(db) - moves0  # the CPU's interval: the drain's moves too
    figures = _figures(
        fake, tables, clicks, len(tables), elapsed, moves, all_moves, cpu,
        first_request, first_interaction,
    )  # fmt: skip
    figures.setup = bot.setup
    figures.bench_cpu = bench_cpu
    figures.process_ms_per_move = process * 1000 / max(all_moves, 1)
    if steady is not None:  # a run longer than STEADY_AFTER
        moves_steady, cpu_steady = await steady
        later = moves0 + all_moves - moves_steady
        figures.cpu_ms_per_move_steady = (cpu0 + cpu - cpu_steady) * 1000 / max(later, 1)
    by_moves = dp.moves_by_game(db, epoch0)
    for game, kinds in dp.calls_by_game(fake, tables, first_request).items():
        n = max(1, by_moves[game])
        short: Counter[str] = Counter()
        for kind, count in kinds.items():
            short[_short(kind)] += count
        figures.per_game[game] = (by_moves[game], {k: v / n for k, v in short.items()})
    return figures


async def _counters_after(seconds: float, pid: int, db: Path) -> tuple[int, float]:
    """The moves recorded and the bot's CPU (seconds, children too) ``seconds`` from now."""
    await asyncio.sleep(seconds)
    return dp.recorded_moves(db), dp.cpu_seconds(pid)


async def yardsticks(figures: Figures, folder: Path) -> None:
    """A bare durable commit in ``folder`` and the machine's speed, measured now (after the
    run, in processes of their own), into ``figures``."""
    figures.commit = await measure_commit(folder)
    figures.machine = await measure_speed()


def _figures(
    fake: FakeDiscord,
    tables: list[dp.Table],
    clicks: dp.Clicks,
    games: int,
    elapsed: float,
    moves: int,
    all_moves: int,
    cpu: float,
    first_request: int,
    first_interaction: int,
) -> Figures:
    accepted = len(clicks.accepted)
    stats = fake.stats
    calls: Counter[str] = stats.calls
    interaction = sum(n for k, n in calls.items() if _is_interaction(k))
    total = sum(calls.values())
    channel_of = {user: t.channel for t in tables for user in t.humans}
    own = dp.own_update_times(fake, clicks.accepted)
    turn = dp.own_update_times(fake, clicks.accepted, turn=True)
    other = dp.own_update_times(fake, clicks.accepted, turn=False)
    table, missing = dp.table_update_times(fake, clicks.accepted, channel_of, first_request)
    notify = dp.notifying_dms(fake, first_request)
    players = [u for t in tables for u in t.humans]
    own_moves = sum(clicks.by_user.values())
    timed = [
        (r.sent_at, r.ack_latency)
        for i, r in fake.interactions.items()
        if i > first_interaction and r.ack_latency is not None
    ]
    acks = [latency for _, latency in timed]
    start = min((sent for sent, _ in timed), default=0.0)
    steady = [latency for sent, latency in timed if sent >= start + STEADY_AFTER]
    per = max(1, accepted)
    return Figures(
        games=games,
        seconds=elapsed,
        scale=fake.time_scale,
        clicks_per_s=accepted / elapsed,
        moves_per_s=moves / elapsed,
        accepted=accepted,
        stale=clicks.stale,
        vanished=clicks.vanished,
        bucket_429=stats.bucket_429,
        global_429=stats.global_429,
        calls_per_click=total / per,
        interaction_per_click=interaction / per,
        other_per_click=(total - interaction) / per,
        by_kind={k: n / per for k, n in calls.most_common()},
        own_p50=dp.percentile(own, 50),
        own_p95=dp.percentile(own, 95),
        own_turn=(len(turn), dp.percentile(turn, 50), dp.percentile(turn, 95)),
        own_other=(len(other), dp.percentile(other, 50), dp.percentile(other, 95)),
        table_p50=dp.percentile(table, 50),
        table_p95=dp.percentile(table, 95),
        table_missing=missing,
        notify_per_player=statistics.fmean([notify[u] for u in players]),
        notify_max=max((notify[u] for u in players), default=0),
        notify_per_own_move=sum(notify.values()) / max(1, own_moves),
        ack_p99=dp.percentile(acks, 99),
        ack_p99_steady=dp.percentile(steady, 99),
        per_game={},
        bench_cpu=0.0,
        cpu_ms_per_move=cpu / max(1, all_moves) * 1000,
        cpu_ms_per_move_steady=float("nan"),
        process_ms_per_move=0.0,
        drained_moves=all_moves - moves,
        load=" ".join(f"{x:.2f}" for x in os.getloadavg()),
    )


def show(f: Figures) -> None:
    ms = 1000
    print(
        f"\n== {f.games} games, {f.seconds:.0f} s, windows x{f.scale:g}, {f.setup}, "
        f"load average {f.load}\n"
        f"accepted clicks/s {f.clicks_per_s:.1f} (recorded moves/s {f.moves_per_s:.1f}); "
        f"accepted {f.accepted}, stale clicks {f.stale}, controls gone {f.vanished}\n"
        f"429s: bucket {f.bucket_429}, global {f.global_429}\n"
        f"REST calls per accepted click {f.calls_per_click:.2f} "
        f"(interaction callbacks/webhooks {f.interaction_per_click:.2f}, "
        f"the rest {f.other_per_click:.2f})"
    )
    for kind, n in f.by_kind.items():
        print(f"    {n:6.3f}  {kind}")
    for game, (n, kinds) in sorted(f.per_game.items()):
        parts = ", ".join(f"{k} {v:.2f}" for k, v in sorted(kinds.items()))
        print(f"    {game:7s} {n:5d} moves: {sum(kinds.values()):.2f} calls per move ({parts})")
    print(
        f"click -> own message p50 {f.own_p50 * ms:.0f} ms / p95 {f.own_p95 * ms:.0f} ms; "
        f"click -> table p50 {f.table_p50 * ms:.0f} ms / p95 {f.table_p95 * ms:.0f} ms "
        f"({f.table_missing} never drawn after)\n"
        f"own message {_own_split(f)}\n"
        f"notifying DMs per player {f.notify_per_player:.1f} (max {f.notify_max}), "
        f"per own accepted move {f.notify_per_own_move:.2f}\n"
        f"ack p99 {f.ack_p99 * ms:.0f} ms (after the first {STEADY_AFTER:.0f} s: "
        f"{f.ack_p99_steady * ms:.0f} ms)\n"
        f"bot CPU per recorded move {f.cpu_ms_per_move:.2f} ms (clicking and drain, "
        f"{f.drained_moves} moves in the drain; after the first {STEADY_AFTER:.0f} s: "
        f"{f.cpu_ms_per_move_steady:.2f} ms); bare durable aiosqlite commit {f.commit}: "
        f"{f.commits_per_move:.1f}x; of which the bot's own "
        f"process (event loop and threads) {f.process_ms_per_move:.2f} ms\n"
        f"the fake Discord and the players used {f.bench_cpu:.0%} of a core meanwhile; "
        f"the machine: a fixed Python workload {f.machine} (bench.machine)"
    )


def _own_split(f: Figures) -> str:
    """The own message's answers that show the clicker's turn (with pictures on, they carry
    its picture) and the others, each n, p50 / p95."""
    ms = 1000

    def part(name: str, n: int, p50: float, p95: float) -> str:
        return f"{name} {n}: p50 {p50 * ms:.0f} / p95 {p95 * ms:.0f} ms" if n else f"{name} 0"

    turn = part("showing the clicker's turn", *f.own_turn)
    return f"{turn}; {part('the others', *f.own_other)}"


def summary_figures(games: int, scale: float) -> list[spread.Figure[Figures]]:
    """What ``--repeat`` summarises, with the issue's targets where they apply: ack and CPU at
    100 games, moves/s at 100 games with shorter windows (Discord's own 50 requests/s allow
    no bot 300 moves/s), calls per click and 429s in every run."""
    many = games >= 100
    capacity = many and scale < 1
    ms = 1000
    return [
        spread.Figure("accepted clicks/s", lambda f: f.clicks_per_s),
        spread.Figure(
            "recorded moves/s", lambda f: f.moves_per_s, at_least=300.0 if capacity else None
        ),
        spread.Figure("429s", lambda f: f.bucket_429 + f.global_429, digits=0, at_most=0),
        spread.Figure("REST calls per accepted click", lambda f: f.calls_per_click, digits=2,
                      at_most=2.5),
        spread.Figure("own message p95", lambda f: f.own_p95 * ms, " ms", 0),
        spread.Figure("table p95", lambda f: f.table_p95 * ms, " ms", 0),
        spread.Figure("ack p99", lambda f: f.ack_p99 * ms, " ms", 0,
                      at_most=50.0 if many else None),
        spread.Figure(f"ack p99 after the first {STEADY_AFTER:.0f} s",
                      lambda f: f.ack_p99_steady * ms, " ms", 0),
        spread.Figure("bot CPU per move", lambda f: f.cpu_ms_per_move, " ms", 2),
        spread.Figure(f"bot CPU per move after the first {STEADY_AFTER:.0f} s",
                      lambda f: f.cpu_ms_per_move_steady, " ms", 2),
        spread.Figure("bare durable commit", lambda f: _commit(f).cpu_ms, " ms", 2),
        spread.Figure("of it the kernel's", lambda f: _commit(f).system_ms, " ms", 2),
        spread.Figure("CPU per move in commits", lambda f: f.commits_per_move, "x",
                      at_most=10.0 if many else None),
        spread.Figure("fixed Python workload", lambda f: f.machine.cpu_ms if f.machine else 0.0,
                      " ms", 0),
    ]  # fmt: skip


def _commit(f: Figures) -> Commit:
    assert f.commit is not None, "a run's yardsticks are measured before it is summarised"
    return f.commit


def show_spread(runs: list[Figures]) -> None:
    f = runs[0]
    print(
        f"\n== {f.games} games, {f.seconds:.0f} s, windows x{f.scale:g}: "
        f"median (lowest-highest) of {len(runs)} runs"
    )
    for line in spread.lines(runs, summary_figures(f.games, f.scale)):
        print(f"    {line}")


async def main(args: argparse.Namespace) -> None:
    from bench import pictures_cost  # it builds on this module

    runs: list[tuple[int, float, tuple[float, float], float]]
    if args.games is not None:
        runs = [(g, args.seconds or 60.0, tuple(args.think), args.scale) for g in args.games]
    else:
        runs = [(g, args.seconds or s, t, scale) for g, s, t, scale in DEFAULT_RUNS]
    with tempfile.TemporaryDirectory(prefix="discord-load-") as tmp:
        for games, seconds, think, scale in runs:
            for mix in args.mix:
                if args.pictures in ("both", "together"):
                    await pictures_cost.compare(
                        args.pictures, games, seconds, think, Path(tmp),
                        scale=scale, mix=mix, repeat=args.repeat,
                    )  # fmt: skip
                    continue
                repeated = []
                for seed in range(1, args.repeat + 1):
                    figures = await run(
                        games, seconds, think, Path(tmp), scale=scale, seed=seed,
                        pictures=args.pictures == "on", mix=mix,
                    )  # fmt: skip
                    repeated.append(figures)
                    show(figures)
                if len(repeated) > 1:
                    show_spread(repeated)
        if args.startup:
            from bench.discord_startup import startup

            await startup(Path(tmp), args.startup_games)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="*", help="games per run (default 1 10 50 100)")
    parser.add_argument("--seconds", type=float, help="clicking time per run (default 60/45)")
    parser.add_argument("--think", type=float, nargs=2, default=(0.2, 1.0), metavar=("MIN", "MAX"))
    parser.add_argument("--scale", type=float, default=1.0, help="rate-limit time scale")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each (a summary if > 1)")
    parser.add_argument("--startup", action="store_true", help="also the 1,000-game restart")
    parser.add_argument("--startup-games", type=int, default=1000)
    parser.add_argument(
        "--pictures", choices=("on", "off", "both", "together"), default="on",
        help="pictures on, PICTURES=off, both one after the other, or both at the same time "
        "(their cost printed: bench.pictures_cost)",
    )  # fmt: skip
    parser.add_argument(
        "--mix", choices=tuple(dp.MIXES), nargs="+", default=["even"],
        help="games' mix: even over the four, or half of them 2-player Hearts",
    )  # fmt: skip
    asyncio.run(main(parser.parse_args()))
