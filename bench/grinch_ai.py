"""How much better the Grinch computer player does than random play.

Plays seeded games with the normal policy of engine/grinch/ai/ in one seat (rotating) against
RandomPolicy in the others, and prints its win rate (shared wins count), its sole-win rate,
mean totals and decision times. Run from the checkout: ``python -m bench.grinch_ai``.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from engine.base import Policy, RandomPolicy
from engine.grinch import GAME
from engine.grinch.ai import POLICY


def play(players: int, seed: int, ai_seat: int, ai: Policy) -> tuple[Any, list[float]]:
    """One game; returns its outcome and the AI's decision times in seconds."""
    state = GAME.new_game(players, seed)
    policies: list[Policy] = [RandomPolicy() for _ in range(players)]
    policies[ai_seat] = ai
    rngs = [random.Random(seed * 10 + s) for s in range(players)]
    order = random.Random(seed)
    times: list[float] = []
    while True:
        seats = sorted(GAME.to_act(state))
        if not seats:
            return GAME.outcome(state), times
        seat = order.choice(seats)
        legal = GAME.legal_actions(state, seat)
        start = time.perf_counter()
        action = policies[seat].choose(GAME.view(state, seat), legal, rngs[seat])
        if seat == ai_seat:
            times.append(time.perf_counter() - start)
        state = GAME.apply(state, seat, action)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    n = args.players
    wins = sole = 0
    ai_points = other_points = 0
    times: list[float] = []
    started = time.perf_counter()
    for game in range(args.games):
        seat = game % n
        outcome, spent = play(n, args.seed + game, seat, POLICY)
        times += spent
        if seat in outcome.winners:
            wins += 1
            sole += len(outcome.winners) == 1
        ai_points += outcome.totals[seat]
        other_points += sum(outcome.totals) - outcome.totals[seat]
    games = args.games
    print(f"Grinch AI vs {n - 1} RandomPolicy players, {games} games (AI seat rotates)")
    print(f"  win rate (shared wins count): {100 * wins / games:.1f}%  (random: {100 / n:.0f}%)")
    print(f"  sole-win rate:                {100 * sole / games:.1f}%")
    print(f"  mean total: AI {ai_points / games:.1f}, random {other_points / games / (n - 1):.1f}")
    print(
        f"  decision time: mean {1000 * sum(times) / len(times):.2f} ms, "
        f"max {1000 * max(times):.1f} ms over {len(times)} decisions"
    )
    print(f"  wall time: {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
