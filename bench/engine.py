"""Engine speed: random full games per second for every game and player count, and the mean
decision time of every computer player (``engine/<package>/ai``'s ``POLICY``).

Run from the checkout: ``python -m bench.engine`` (``--seconds`` per measurement).
Each random game asks RandomPolicy for every move and builds the acting seat's view, as the
bot does. Policy timings come from games where that policy plays every seat.
"""

from __future__ import annotations

import argparse
import random
import time
import traceback
from dataclasses import dataclass
from typing import Any

from engine import GAMES, policy_for
from engine.base import Game, Policy, RandomPolicy

MAX_STEPS = 20_000


@dataclass
class Measure:
    games: int = 0
    steps: int = 0
    seconds: float = 0.0
    decisions: int = 0
    decision_seconds: float = 0.0
    decision_max: float = 0.0


def play(game: Game[Any, Any], players: int, seed: int, policy: Policy, measure: Measure) -> None:
    """One full game with ``policy`` in every seat; adds its figures to ``measure``."""
    rng = random.Random(seed)
    started = time.perf_counter()
    state = game.new_game(players, seed)
    for _ in range(MAX_STEPS):
        seats = sorted(game.to_act(state))
        if not seats:
            break
        seat = rng.choice(seats)
        legal = game.legal_actions(state, seat)
        view = game.view(state, seat)
        before = time.perf_counter()
        action = policy.choose(view, legal, rng)
        spent = time.perf_counter() - before
        measure.decisions += 1
        measure.decision_seconds += spent
        measure.decision_max = max(measure.decision_max, spent)
        state = game.apply(state, seat, action)
        measure.steps += 1
    else:
        raise RuntimeError(f"{game.name}: no end after {MAX_STEPS} steps")
    measure.games += 1
    measure.seconds += time.perf_counter() - started


def run(
    game: Game[Any, Any], players: int, policy: Policy, seconds: float, max_games: int
) -> Measure:
    measure = Measure()
    seed = 0
    while measure.games < max_games and (measure.seconds < seconds or measure.games == 0):
        play(game, players, seed, policy, measure)
        seed += 1
    return measure


def policy_of(name: str) -> Policy | None:
    """The game's computer player (``engine/<package>/ai``), or None if it has none."""
    try:
        return policy_for(name)
    except ModuleNotFoundError:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0, help="per measurement")
    parser.add_argument("--max-games", type=int, default=2000, help="per measurement")
    args = parser.parse_args()
    header = (
        f"{'game':<8} {'n':>2} {'games/s':>9} {'steps/game':>10} {'ms/step':>8}   "
        f"{'policy':<20} {'ms/decision':>11} {'max ms':>8} {'decisions':>9}"
    )
    print(f"Random full games (RandomPolicy, {args.seconds:g} s or {args.max_games} games each)")
    print("and computer players (the policy in every seat), per game and player count")
    print(header)
    print("-" * len(header))
    for name, game in sorted(GAMES.items()):
        try:
            policy = policy_of(name)
        except Exception:  # noqa: BLE001 - outer boundary: report, measure the rest
            traceback.print_exc()
            policy = None
        for players in range(game.min_players, game.max_players + 1):
            try:
                rand = run(game, players, RandomPolicy(), args.seconds, args.max_games)
                line = (
                    f"{name:<8} {players:>2} {rand.games / rand.seconds:>9.1f} "
                    f"{rand.steps / rand.games:>10.1f} {1000 * rand.seconds / rand.steps:>8.3f}   "
                )
                if policy is None:
                    line += f"{'(none)':<20}"
                else:
                    ai = run(game, players, policy, args.seconds, args.max_games)
                    line += (
                        f"{type(policy).__name__[:20]:<20} "
                        f"{1000 * ai.decision_seconds / ai.decisions:>11.3f} "
                        f"{1000 * ai.decision_max:>8.2f} {ai.decisions:>9}"
                    )
            except Exception as exc:  # noqa: BLE001 - outer boundary: report, go on
                traceback.print_exc()
                line = f"{name:<8} {players:>2} failed: {type(exc).__name__}: {exc}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
