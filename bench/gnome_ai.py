"""Benchmark: the Gnoming computer player against three random players.

Run: ``.venv/bin/python -m bench.gnome_ai [games]`` (default 500 seeded 4-player games; the
computer player's seat rotates 0, 1, 2, 3). Prints the win rate (outright and shared wins),
the mean game totals, how rounds ended, and the mean / max time per computer decision.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from engine.base import Policy, RandomPolicy
from engine.gnoming import GAME
from engine.gnoming.ai import POLICY
from engine.gnoming.state import State

PLAYERS = 4


def play_one(seed: int, ai_seat: int, timings: list[float]) -> tuple[State, dict[str, int]]:
    """Play one game; append every computer decision time (seconds) to ``timings``."""
    rng = random.Random(seed * 1_000_003 + 17)
    policies: list[Policy] = [RandomPolicy() for _ in range(PLAYERS)]
    policies[ai_seat] = POLICY
    state = GAME.new_game(PLAYERS, seed)
    ends = {"first_out": 0, "stalled": 0, "ai_out_first": 0}
    last_round = 0
    while True:
        seats = sorted(GAME.to_act(state))
        if not seats:
            break
        seat = seats[0]
        legal = GAME.legal_actions(state, seat)
        if seat == ai_seat:
            started = time.perf_counter()
            action: Any = policies[seat].choose(GAME.view(state, seat), legal, rng)
            timings.append(time.perf_counter() - started)
        else:
            action = policies[seat].choose({}, legal, rng)
        state = GAME.apply(state, seat, action)
        summary = state.last_round
        if summary is not None and summary["round"] != last_round:
            last_round = summary["round"]
            if summary["stalled"]:
                ends["stalled"] += 1
            else:
                ends["first_out"] += 1
                ends["ai_out_first"] += summary["first_out"] == ai_seat
    return state, ends


def main(games: int = 500) -> None:
    timings: list[float] = []
    outright = shared = 0
    ai_total = other_total = 0.0
    ends = {"first_out": 0, "stalled": 0, "ai_out_first": 0}
    started = time.perf_counter()
    for game in range(games):
        ai_seat = game % PLAYERS
        final, game_ends = play_one(game, ai_seat, timings)
        for key, value in game_ends.items():
            ends[key] += value
        outcome = GAME.outcome(final)
        assert outcome is not None
        if ai_seat in outcome.winners:
            if len(outcome.winners) == 1:
                outright += 1
            else:
                shared += 1
        ai_total += outcome.totals[ai_seat]
        other_total += (sum(outcome.totals) - outcome.totals[ai_seat]) / (PLAYERS - 1)
    elapsed = time.perf_counter() - started
    wins = outright + shared
    rounds = ends["first_out"] + ends["stalled"]
    print(f"Gnoming A Round: {games} seeded {PLAYERS}-player games, AI vs 3 random players")
    print(f"AI win rate: {wins / games:.1%} ({outright} outright + {shared} shared of {games})")
    print(f"mean total: AI {ai_total / games:.1f}, random players {other_total / games:.1f}")
    print(
        f"rounds: {rounds}; ended by going out {ends['first_out']}, by stall cap "
        f"{ends['stalled']}; AI went out first {ends['ai_out_first']}"
    )
    mean_ms = 1000 * sum(timings) / len(timings)
    max_ms = 1000 * max(timings)
    print(f"AI decisions: {len(timings)}, mean {mean_ms:.3f} ms, max {max_ms:.3f} ms")
    print(f"wall time: {elapsed:.1f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
