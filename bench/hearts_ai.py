"""2-Player Hearts computer player: seeded full games against baselines.

Usage: python -m bench.hearts_ai [--games N] [--minutes M] [--workers W]
       [--opponents random,rule] [--time-limit S]

Game i uses seed i, and the player under test takes seat i % 2 (seats alternate). Against
each opponent, games are played until N are done or M minutes have passed (0: no limit);
the games finished are reported. Prints the game win rate, the points per hand of each side,
moons, and the player's decision times (mean, median and max over every decision with more
than one legal card; forced plays take no time and are left out).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engine.base import RandomPolicy
from engine.hearts2p import GAME
from engine.hearts2p.ai.normal import RULE_POLICY, MonteCarloPolicy


def play_game(args: tuple[int, str, float]) -> dict[str, Any]:
    seed, opponent_name, time_limit = args
    tested = MonteCarloPolicy(time_limit=time_limit)
    opponent: Any = RandomPolicy() if opponent_name == "random" else RULE_POLICY
    me = seed % 2
    policies = {me: tested, 1 - me: opponent}
    rngs = {s: random.Random(f"bench/{seed}/{s}") for s in (0, 1)}
    state = GAME.new_game(2, seed)
    times: list[float] = []
    moons = [0, 0]
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        view = GAME.view(state, seat)
        started = time.perf_counter()
        action = policies[seat].choose(view, legal, rngs[seat])
        if seat == me and len(legal) > 1:
            times.append(time.perf_counter() - started)
        state = GAME.apply(state, seat, action)
    outcome = GAME.outcome(state)
    assert outcome is not None
    for record in state.records:
        if record.moon is not None:
            moons[0 if record.moon == me else 1] += 1
    return {
        "seat": me,
        "won": me in outcome.winners,
        "hands": state.hand_no,
        "points_me": sum(r.points[me] for r in state.records),
        "points_opp": sum(r.points[1 - me] for r in state.records),
        "moons": moons,
        "times": times,
    }


def run(opponent: str, games: int, minutes: float, workers: int, time_limit: float) -> None:
    started = time.perf_counter()
    budget = minutes * 60 if minutes > 0 else None
    results: list[dict[str, Any]] = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending = [pool.submit(play_game, (seed, opponent, time_limit)) for seed in range(games)]
        for future in pending:
            if budget is not None and time.perf_counter() - started > budget:
                future.cancel()
                continue
            results.append(future.result())
    elapsed = time.perf_counter() - started
    played = len(results)
    wins = sum(r["won"] for r in results)
    seat_games = [sum(1 for r in results if r["seat"] == s) for s in (0, 1)]
    seat_wins = [sum(1 for r in results if r["seat"] == s and r["won"]) for s in (0, 1)]
    hands = sum(r["hands"] for r in results)
    times = [t for r in results for t in r["times"]]
    per_hand_me = sum(r["points_me"] for r in results) / hands
    per_hand_opp = sum(r["points_opp"] for r in results) / hands
    moons_me = sum(r["moons"][0] for r in results)
    moons_opp = sum(r["moons"][1] for r in results)
    print(
        f"vs {opponent}: {played} games, won {wins} = {100 * wins / played:.1f}% "
        f"(as seat 0 {seat_wins[0]}/{seat_games[0]}, as seat 1 {seat_wins[1]}/{seat_games[1]})"
    )
    print(
        f"  {hands} hands; points per hand {per_hand_me:.2f} vs {per_hand_opp:.2f}; "
        f"moons {moons_me} vs {moons_opp}"
    )
    print(
        f"  decisions {len(times)}, mean {1000 * statistics.fmean(times):.1f} ms, "
        f"median {1000 * statistics.median(times):.1f} ms, max {1000 * max(times):.1f} ms; "
        f"wall {elapsed:.0f} s on {workers} workers"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--minutes", type=float, default=5.0, help="per opponent; 0 = no limit")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--opponents", default="random,rule")
    parser.add_argument("--time-limit", type=float, default=MonteCarloPolicy().time_limit)
    args = parser.parse_args()
    print(f"MonteCarloPolicy(time_limit={args.time_limit})")
    for opponent in args.opponents.split(","):
        run(opponent, args.games, args.minutes, args.workers, args.time_limit)


if __name__ == "__main__":
    main()
