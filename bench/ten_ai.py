"""Benchmark: the Ten computer player against random players, and in the solo variant.

Run: ``.venv/bin/python -m bench.ten_ai [games]`` (default 500). Plays ``games`` seeded
3-player games, the computer player against two random players (its seat rotates 0, 1, 2), and
prints its win rate (outright and shared); then ``games`` solo games each for the computer
player and for a random player, and prints their median scores and how often they reach the
solo target. Also prints the mean / max time per computer decision (the policy's ``choose``
only; building the view is reported apart).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

from engine.base import Policy, RandomPolicy
from engine.ten import GAME
from engine.ten.ai import POLICY
from engine.ten.cards import SOLO_TARGET
from engine.ten.state import TenState


def play(
    players: int,
    seed: int,
    policies: list[Policy],
    timed: set[int],
    timings: dict[str, list[float]],
) -> TenState:
    """One game; computer decisions of the seats in ``timed`` are timed."""
    rng = random.Random(seed * 1_000_003 + 29)
    state = GAME.new_game(players, seed)
    while True:
        seats = sorted(GAME.to_act(state))
        if not seats:
            return state
        seat = seats[0]
        legal = GAME.legal_actions(state, seat)
        if seat in timed:
            started = time.perf_counter()
            view = GAME.view(state, seat)
            middle = time.perf_counter()
            action: Any = policies[seat].choose(view, legal, rng)
            timings["view"].append(middle - started)
            timings["choose"].append(time.perf_counter() - middle)
        else:
            action = policies[seat].choose({}, legal, rng)
        state = GAME.apply(state, seat, action)


def main(games: int) -> None:
    timings: dict[str, list[float]] = {"view": [], "choose": []}
    started = time.perf_counter()
    wins = shared = 0
    ai_totals: list[int] = []
    random_totals: list[int] = []
    for seed in range(games):
        ai_seat = seed % 3
        policies: list[Policy] = [RandomPolicy(), RandomPolicy(), RandomPolicy()]
        policies[ai_seat] = POLICY
        outcome = GAME.outcome(play(3, seed, policies, {ai_seat}, timings))
        assert outcome is not None
        if ai_seat in outcome.winners:
            wins += 1
            shared += len(outcome.winners) > 1
        ai_totals.append(outcome.totals[ai_seat])
        random_totals += [t for s, t in enumerate(outcome.totals) if s != ai_seat]
    three = time.perf_counter() - started
    print(f"3-player games: {games} (computer vs 2 random, seat rotating), {three:.1f} s")
    print(
        f"  computer wins {wins}/{games} = {100 * wins / games:.1f}% "
        f"({shared} of them shared); mean total computer {statistics.mean(ai_totals):.2f}, "
        f"random {statistics.mean(random_totals):.2f}"
    )
    solo: dict[str, list[int]] = {"computer": [], "random": []}
    for seed in range(games):
        for name, policy in (("computer", POLICY), ("random", RandomPolicy())):
            timed = {0} if name == "computer" else set()
            outcome = GAME.outcome(play(1, 10_000 + seed, [policy], timed, timings))
            assert outcome is not None
            solo[name].append(outcome.totals[0])
    for name, scores in solo.items():
        reached = sum(s >= SOLO_TARGET for s in scores)
        quartiles = statistics.quantiles(scores, n=4)
        print(
            f"solo {name}: {games} games, median score {statistics.median(scores)}, "
            f"quartiles {quartiles[0]:g}/{quartiles[2]:g}, max {max(scores)}, "
            f"reached {SOLO_TARGET}: {reached} ({100 * reached / games:.1f}%)"
        )
    for key, values in timings.items():
        print(
            f"{key} per computer decision: mean {1000 * statistics.mean(values):.2f} ms, "
            f"max {1000 * max(values):.1f} ms over {len(values)} decisions"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
