"""2-Player Hearts computer player: seeded full games against baselines.

Usage: python -m bench.hearts_ai [--games N] [--workers W] [--opponents random,rule]
       [--deals D] [--time-limit S]

Game i uses seed i, and the player under test takes seat i % 2 (seats alternate). Prints the
game win rate against each opponent, the mean hand points of each side, and the player's
decision times (mean and max over every decision with more than one legal card).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engine.ai.base import RandomPolicy
from engine.ai.hearts2p import RULE_POLICY, MonteCarloPolicy
from engine.hearts2p import GAME


def play_game(args: tuple[int, str, int, float]) -> dict[str, Any]:
    seed, opponent_name, deals, time_limit = args
    tested = MonteCarloPolicy(deals=deals, time_limit=time_limit)
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
        "won": me in outcome.winners,
        "hands": state.hand_no,
        "points_me": sum(r.points[me] for r in state.records),
        "points_opp": sum(r.points[1 - me] for r in state.records),
        "moons": moons,
        "times": times,
    }


def run(opponent: str, games: int, workers: int, deals: int, time_limit: float) -> None:
    started = time.perf_counter()
    jobs = [(seed, opponent, deals, time_limit) for seed in range(games)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(play_game, jobs, chunksize=4))
    elapsed = time.perf_counter() - started
    wins = sum(r["won"] for r in results)
    hands = sum(r["hands"] for r in results)
    times = [t for r in results for t in r["times"]]
    per_hand_me = sum(r["points_me"] for r in results) / hands
    per_hand_opp = sum(r["points_opp"] for r in results) / hands
    moons_me = sum(r["moons"][0] for r in results)
    moons_opp = sum(r["moons"][1] for r in results)
    print(
        f"vs {opponent}: {games} games, won {wins} = {100 * wins / games:.1f}% "
        f"({hands} hands; points per hand {per_hand_me:.2f} vs {per_hand_opp:.2f}; "
        f"moons {moons_me} vs {moons_opp})"
    )
    print(
        f"  decisions {len(times)}, mean {1000 * statistics.fmean(times):.1f} ms, "
        f"median {1000 * statistics.median(times):.1f} ms, max {1000 * max(times):.1f} ms; "
        f"wall {elapsed:.0f} s on {workers} workers"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--opponents", default="random,rule")
    parser.add_argument("--deals", type=int, default=MonteCarloPolicy().deals)
    parser.add_argument("--time-limit", type=float, default=MonteCarloPolicy().time_limit)
    args = parser.parse_args()
    print(f"MonteCarloPolicy(deals={args.deals}, time_limit={args.time_limit})")
    for opponent in args.opponents.split(","):
        run(opponent, args.games, args.workers, args.deals, args.time_limit)


if __name__ == "__main__":
    main()
