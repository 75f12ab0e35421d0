"""``bench.workers``' readings of one run and how they are printed: the per-move figures, the
table, the targets of the scaling issue."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from bench.pgwire import WireCounts

FLAT_WITHIN = 0.15  # CPU per move from 1 to N workers
FAIR_SHARE_AT_MOST = 1.5  # the busiest worker's share over 1/N
REST_SLOT = "take_rest_slot"  # both functions: take_rest_slot, take_rest_slots


@dataclass(slots=True)
class Figures:
    """One run's readings; the per-move figures are properties."""

    workers: int
    games: int
    seconds: float
    moves: int  # while clicking
    all_moves: int  # clicking and drain: what the CPU is divided by
    accepted: int
    worker_cpu: list[float]  # seconds, each worker with its child processes
    worker_own: list[float]  # of which each worker's own process (its event loop and threads)
    gateway_cpu: float
    postgres_cpu: float
    backends: int
    served: list[int]  # interactions each worker answered
    rest_calls: int
    interaction_calls: int
    wire: WireCounts
    xact_commits: int
    load: str
    statements: Counter[str] = field(default_factory=Counter)
    idle_bot: float = 0.0  # CPU s/s of the bot's processes with nobody clicking
    idle_postgres: float = 0.0  # and of the database's backends
    harness: float = 0.0  # share of a core the fake Discord, the players and the proxy used

    def per_move(self, value: float) -> float:
        return value / max(1, self.all_moves)

    @property
    def bot_ms(self) -> float:
        return self.per_move(sum(self.worker_cpu) + self.gateway_cpu) * 1000

    @property
    def cpu_ms(self) -> float:
        """All of it: the bot's processes and PostgreSQL's backends, per move."""
        return self.bot_ms + self.per_move(self.postgres_cpu) * 1000

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.seconds

    @property
    def busiest(self) -> float:
        return busiest_share(self.served)


def busiest_share(served: list[int]) -> float:
    """The largest worker's share of the interactions over the fair share (1/N): 1.0 is an
    even spread; nan when nothing was served."""
    total = sum(served)
    if not served or total == 0:
        return float("nan")
    return max(served) * len(served) / total


def flat_within(values: list[float]) -> float:
    """How far the largest of ``values`` is above the first, as a fraction of the first (the
    growth of CPU per move from 1 worker to N)."""
    return max(values) / values[0] - 1 if values and values[0] > 0 else float("nan")


HEADER = (
    "workers", "moves/s", "clicks/s", "CPU/move", "bot", "workers", "loops", "gateway",
    "PostgreSQL",
    "busiest", "shares", "round trips", "commits", "autocommit", "rest slots", "xact_commit",
    "REST", "idle ms/s", "load average",
)  # fmt: skip


def row(f: Figures) -> list[str]:
    """One line of the table: CPU in ms per move, database and REST counts per move."""
    ms = 1000
    total = max(1, sum(f.served))
    slots = sum(n for k, n in f.statements.items() if REST_SLOT in k)
    return [
        str(f.workers),
        f"{f.moves_per_s:.1f}",
        f"{f.accepted / f.seconds:.1f}",
        f"{f.cpu_ms:.2f}",
        f"{f.bot_ms:.2f}",
        f"{f.per_move(sum(f.worker_cpu)) * ms:.2f}",
        f"{f.per_move(sum(f.worker_own)) * ms:.2f}",
        f"{f.per_move(f.gateway_cpu) * ms:.2f}",
        f"{f.per_move(f.postgres_cpu) * ms:.2f}",
        f"{f.busiest:.2f}x",
        "/".join(f"{n / total:.0%}" for n in f.served),
        f"{f.per_move(f.wire.round_trips):.1f}",
        f"{f.per_move(f.wire.commits):.2f}",
        f"{f.per_move(f.wire.autocommit):.2f}",
        f"{f.per_move(slots):.2f}",
        f"{f.per_move(f.xact_commits):.2f}",
        f"{f.per_move(f.rest_calls - f.interaction_calls):.2f}"
        f"+{f.per_move(f.interaction_calls):.2f}",
        f"{f.idle_bot * 1000:.0f}+{f.idle_postgres * 1000:.0f}",
        f.load,
    ]


def table(rows: list[list[str]]) -> str:
    """Rows (the first a header) as columns aligned on the right, the last column left."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(
            cell.ljust(w) if i == len(r) - 1 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(r, widths, strict=True))
        ).rstrip()
        for r in rows
    )


def show(f: Figures) -> None:
    print(
        f"\n== {f.workers} worker(s), {f.games} games, {f.seconds:.0f} s, load average {f.load}\n"
        f"moves {f.moves} while clicking, {f.all_moves} with the drain; accepted clicks "
        f"{f.accepted}; interactions served {f.served} (busiest {f.busiest:.2f}x its share)\n"
        f"CPU s: workers {' '.join(f'{c:.2f}' for c in f.worker_cpu)} (their own processes "
        f"{' '.join(f'{c:.2f}' for c in f.worker_own)}), gateway "
        f"{f.gateway_cpu:.2f}, PostgreSQL {f.postgres_cpu:.2f} ({f.backends} backends); with "
        f"nobody clicking: the bot {f.idle_bot * 1000:.0f} ms/s, PostgreSQL "
        f"{f.idle_postgres * 1000:.0f} ms/s; the harness used {f.harness:.0%} of a core\n"
        f"round trips {f.wire.round_trips}, commits {f.wire.commits}, rollbacks "
        f"{f.wire.rollbacks}, autocommit {f.wire.autocommit}, xact_commit {f.xact_commits}, "
        f"new connections {f.wire.connections}; REST calls {f.rest_calls - f.interaction_calls} "
        f"(+{f.interaction_calls} interaction responses); statements per move:"
    )
    for text, n in f.statements.most_common(14):
        print(f"    {f.per_move(n):6.2f}  {text}")


def summary(runs: list[Figures]) -> str:
    """The table, then whether the targets were met (CPU per move against the 1-worker run
    of the same repeat)."""
    lines = [table([list(HEADER), *(row(f) for f in runs)])]
    cpu = [f.cpu_ms for f in runs]
    growth = flat_within(cpu)
    lines.append(
        f"CPU per move from {runs[0].workers} to {max(f.workers for f in runs)} workers: "
        f"at most {growth:+.0%} (target within {FLAT_WITHIN:.0%}: "
        f"{'met' if abs(growth) <= FLAT_WITHIN else 'missed'}); busiest worker "
        f"{max(f.busiest for f in runs):.2f}x its share (target at most "
        f"{FAIR_SHARE_AT_MOST:g}x)"
    )
    return "\n".join(lines)
