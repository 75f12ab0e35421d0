"""The computer players' levels head to head: who beats whom, how often, and how fast they think.

For each game and each pairing of levels (hard vs normal, normal vs easy, easy vs random) it
plays seeded games with the seats rotated and prints:

- head to head: the stronger level's score against the weaker in games of two (Gnoming, whose
  minimum is three, adds one normal filler and compares the two players' totals), a win 1, a
  shared win or an equal total 1/2, with a 95% confidence interval (Wilson);
- multi-player (``--seats`` above two): one player of the stronger level against the weaker in
  every other seat, its share of the wins (shared wins split) against the fair share;
- decision time per level: p50 and p95 of one decision, and the mean thinking per game.

Run from the checkout: ``python -m bench.levels`` (every game and pairing), or for example
``python -m bench.levels --game hearts --pair hard:normal --games 1000 --jobs 2``. The table it
prints is the one in docs/computer-players.md. Forced moves are played as the service plays
them (``Game.forced``), without asking the policy.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from engine import GAMES, policy_for
from engine.base import Level, Policy, RandomPolicy

PAIRS: tuple[tuple[str, str], ...] = (("hard", "normal"), ("normal", "easy"), ("easy", "random"))
Z95 = 1.959964


def policy(name: str, game: str) -> Policy:
    """A level's policy, or the uniform baseline for ``random``."""
    return RandomPolicy() if name == "random" else policy_for(game, Level(name))


@dataclass
class Played:
    """One game's figures: the stronger side's score (or win share) and the decisions' times."""

    score: float
    times: dict[str, list[float]] = field(default_factory=dict)


def play(game_name: str, levels: Sequence[str], seed: int) -> tuple[Any, dict[str, list[float]]]:
    """One game with ``levels[s]`` in seat ``s``: its outcome and each level's decision times."""
    game = GAMES[game_name]
    policies = [policy(level, game_name) for level in levels]
    state = game.new_game(len(levels), seed)
    order = random.Random(seed)
    times: dict[str, list[float]] = {level: [] for level in levels}
    step = 0
    while True:
        seats = sorted(game.to_act(state))
        if not seats:
            return game.outcome(state), times
        seat = order.choice(seats)
        action = game.forced(state, seat)
        if action is None:
            legal = game.legal_actions(state, seat)
            rng = random.Random(f"{seed}:{step}:{seat}")
            view = game.view(state, seat)
            started = time.perf_counter()
            action = policies[seat].choose(view, legal, rng)
            times[levels[seat]].append(time.perf_counter() - started)
        state = game.apply(state, seat, action)
        step += 1


def head_to_head(game_name: str, strong: str, weak: str, index: int, seed: int) -> Played:
    """Game ``index`` of a pairing: the strong level's score against the weak one."""
    game = GAMES[game_name]
    seats = max(2, game.min_players)
    strong_seat = index % seats
    weak_seat = (strong_seat + 1) % seats
    levels = ["normal"] * seats
    levels[strong_seat], levels[weak_seat] = strong, weak
    outcome, times = play(game_name, levels, seed + index)
    if seats == 2:
        won = [s in outcome.winners for s in (strong_seat, weak_seat)]
        score = 0.5 if won[0] == won[1] else float(won[0])
    else:
        mine, theirs = outcome.totals[strong_seat], outcome.totals[weak_seat]
        if game.lowest_wins:
            mine, theirs = -mine, -theirs
        score = 0.5 if mine == theirs else float(mine > theirs)
    return Played(score, times)


def multi(game_name: str, strong: str, weak: str, seats: int, index: int, seed: int) -> Played:
    """Game ``index`` of ``seats``: one strong player, the weak level everywhere else."""
    strong_seat = index % seats
    levels = [weak] * seats
    levels[strong_seat] = strong
    outcome, times = play(game_name, levels, seed + index)
    share = 1 / len(outcome.winners) if strong_seat in outcome.winners else 0.0
    return Played(share, times)


def wilson(mean: float, n: int) -> tuple[float, float]:
    """A 95% confidence interval for a proportion (Wilson's score interval)."""
    if n == 0:
        return 0.0, 1.0
    denominator = 1 + Z95**2 / n
    centre = (mean + Z95**2 / (2 * n)) / denominator
    half = Z95 * math.sqrt(mean * (1 - mean) / n + Z95**2 / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Summary:
    label: str
    games: int
    mean: float
    low: float
    high: float
    fair: float
    times: dict[str, list[float]]

    def line(self) -> str:
        ratio = f", {self.mean / self.fair:.2f}x the fair share" if self.fair < 0.5 else ""
        return (
            f"{self.label}: {100 * self.mean:.1f}% (95% CI {100 * self.low:.1f}-"
            f"{100 * self.high:.1f}%) over {self.games} games{ratio}"
        )


def summarise(label: str, played: Sequence[Played], fair: float) -> Summary:
    mean = statistics.fmean(p.score for p in played)
    low, high = wilson(mean, len(played))
    times: dict[str, list[float]] = {}
    for p in played:
        for level, spent in p.times.items():
            times.setdefault(level, []).append(sum(spent))
            times.setdefault(f"{level} decisions", []).extend(spent)
    return Summary(label, len(played), mean, low, high, fair, times)


def timing_lines(summary: Summary) -> list[str]:
    out = []
    for level in sorted(k for k in summary.times if not k.endswith(" decisions")):
        decisions = summary.times[f"{level} decisions"]
        if level == "random" or not decisions:
            continue
        out.append(
            f"  {level}: decision p50 {1000 * percentile(decisions, 0.5):.2f} ms, "
            f"p95 {1000 * percentile(decisions, 0.95):.2f} ms, "
            f"max {1000 * max(decisions):.1f} ms; thinking per game "
            f"{statistics.fmean(summary.times[level]):.2f} s"
        )
    return out


def run(args: argparse.Namespace) -> list[Summary]:
    games = [args.game] if args.game else sorted(GAMES)
    pairs = [tuple(p.split(":")) for p in args.pair] if args.pair else list(PAIRS)
    summaries = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for name in games:
            game = GAMES[name]
            for strong, weak in pairs:
                if args.games:
                    jobs = [
                        pool.submit(head_to_head, name, strong, weak, i, args.seed)
                        for i in range(args.games)
                    ]
                    label = f"{name} {strong} vs {weak}, head to head"
                    summary = summarise(label, [j.result() for j in jobs], 0.5)
                    summaries.append(summary)
                    print(summary.line(), *timing_lines(summary), sep="\n", flush=True)
                seats = args.seats or min(4, game.max_players)
                n = args.multi_games or args.games
                if seats > 2 and n:
                    jobs = [
                        pool.submit(multi, name, strong, weak, seats, i, args.seed)
                        for i in range(n)
                    ]
                    label = f"{name} {strong} vs {seats - 1} {weak}, win share"
                    summary = summarise(label, [j.result() for j in jobs], 1 / seats)
                    summaries.append(summary)
                    print(summary.line(), *timing_lines(summary), sep="\n", flush=True)
    return summaries


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", choices=sorted(GAMES), help="one game (default: all)")
    parser.add_argument(
        "--pair", action="append", help="strong:weak, e.g. hard:normal (repeatable; default: all)"
    )
    parser.add_argument(
        "--games", type=int, default=1000, help="games per pairing (0: multi-player games only)"
    )
    parser.add_argument("--multi-games", type=int, help="games per multi-player pairing")
    parser.add_argument("--seats", type=int, help="seats of the multi-player games (default 4)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    run(args)
    print(f"wall time: {time.perf_counter() - started:.0f} s with {args.jobs} processes")


if __name__ == "__main__":
    main()
