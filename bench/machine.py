"""How fast this machine runs Python right now: a fixed workload's CPU time.

The benchmarks' figures are CPU and latency on a shared machine whose speed moves from hour to
hour (the same code measured 3.3 ms of CPU per move on one day and 5.7 on another). A fixed
workload of the kind the bot does (dicts, strings, small objects, sorting; no I/O), timed in a
process of its own next to each run, says how fast the machine was then.

Run: ``python -m bench.machine`` prints the batches of one measurement (CPU ms each).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import dataclass

from bench.child import json_from

BATCHES = 5


@dataclass(frozen=True)
class Speed:
    """CPU ms of the fixed workload: the median batch and the range."""

    cpu_ms: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{self.cpu_ms:.0f} ms CPU (batches {self.low:.0f}-{self.high:.0f})"


def workload(rounds: int = 8_000) -> int:
    """Deterministic work of the bot's kind; returns a checksum so nothing is optimised away."""
    total = 0
    for r in range(rounds):
        seats = {f"seat{i}": (list(range(i, i + 12)), i * r) for i in range(6)}
        text = ", ".join(
            f"{name}: {len(hand)} cards, {score}" for name, (hand, score) in seats.items()
        )
        order = sorted(seats.values(), key=lambda seat: (-seat[1], len(seat[0])))
        total += len(text) + order[0][1] % 7
    return total


def batches(count: int = BATCHES) -> list[float]:
    """CPU ms of ``count`` runs of :func:`workload` in this process."""
    out = []
    for _ in range(count):
        start = time.process_time()
        workload()
        out.append((time.process_time() - start) * 1000)
    return out


async def measure(count: int = BATCHES) -> Speed:
    """One measurement in a child process (this interpreter)."""
    found: list[float] = await json_from("bench.machine", "--batches", str(count))
    return Speed(cpu_ms=statistics.median(found), low=min(found), high=max(found))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batches", type=int, default=BATCHES)
    print(json.dumps(batches(parser.parse_args().batches)))
