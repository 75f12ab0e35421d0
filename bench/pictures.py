"""Picture cost: render time (p50/p95) and PNG size of a hand, a table, a round summary and a
score chart per game, with a cold kit (a new ``Pictures`` each time, as after a bot start) and
a warm one (the same ``Pictures`` reused, as in a running bot's drawing process). Target: p95
< 50 ms, < 200 KB.

Then the hand a running bot draws on each turn (a new position each time, along a game of
each kind) the reference way (a bare face cache: every text drawn, the picture quantized and
encoded each time, as the bot drew them before kept parts) against kept parts, and kept parts
with faces drawn ahead between turns as the drawing process does (presentation.drawing.warm),
and with the captions of the hands likely next made ahead too (workers.drawing.CaptionsAhead),
measured in turns in the same run, so the machine's load weighs on all alike: target p95 at
most a quarter of the reference's, wall and CPU.

Run from the checkout: ``python -m bench.pictures`` (``--runs`` per measurement).
Positions are the seeded random games of ``tests/presentation/drawing/sample.py``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from engine import GAMES
from engine.base import View
from presentation.drawing.api import Pictures, series_from_views
from presentation.drawing.faces import FaceCache
from presentation.drawing.looks import looks
from presentation.drawing.parts import Parts
from presentation.drawing.warm import Warming
from tests.presentation.drawing.sample import (
    MID_GAME,
    WHOLE_GAME,
    Position,
    advance,
    turns,
    views,
)

Render = Callable[[Pictures], bytes]
TARGET_MS = 50.0
TARGET_BYTES = 200 * 1024
IDLE_MS = 200.0  # the drawing process's idle time between two turns, at most (the hands)
# The games whose turns the hands follow, with as many seats as bench.discord_load gives them.
TURN_GAMES = (("grinch", 4), ("gnome", 4), ("hearts", 2), ("ten", 3))
# A large position per game: the most seats, late enough that piles and collections fill up.
LARGE: dict[str, Position] = {
    "grinch": Position("grinch", 6, 2, 40),
    "gnome": Position("gnome", 7, 4, 120),
    "hearts": Position("hearts", 2, 8, 0),
    "ten": Position("ten", 5, 9, 300),
}


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure(render: Render, runs: int, *, cold: bool) -> tuple[list[float], list[float], int]:
    """Wall and CPU milliseconds per render, and the PNG size; ``cold`` gives every run a new
    face cache. CPU time leaves out the waits of a shared machine; wall time is what a user
    waits for."""
    warm = Pictures()
    size = len(render(warm))  # also warms the process-wide font cache
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(runs):
        pictures = Pictures() if cold else warm
        started, started_cpu = time.perf_counter(), time.process_time()
        render(pictures)
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    return wall, cpu, size


def _hand(view: View, names: list[str]) -> Render:
    return lambda pictures: pictures.hand(view, names)


def _table(view: View, names: list[str]) -> Render:
    return lambda pictures: pictures.table(view, names)


def _summary(view: View, names: list[str]) -> Render:
    def render(pictures: Pictures) -> bytes:
        data = pictures.summary(view, names)
        assert data is not None, "the position is past its first scored round"
        return data

    return render


def cases(game: str) -> dict[str, Render]:
    out: dict[str, Render] = {}
    for label, position in (("mid", MID_GAME[game]), ("large", LARGE[game])):
        state, own, spectator = views(position)
        seat = 0 if own is None else own["seat"]
        out[f"hand/{label}"] = _hand(GAMES[game].view(state, seat), position.names)
        out[f"table/{label}"] = _table(spectator, position.names)
    whole = WHOLE_GAME[game]
    _, history = advance(whole)
    series = series_from_views(history)
    winners = history[-1]["outcome"]["winners"]
    out["summary"] = _summary(history[len(history) // 2], whole.names)
    out["chart"] = lambda pictures: pictures.chart(game, series, whole.names, winners=winners)
    return out


def reference() -> Pictures:
    """Pictures drawn the reference way (see the module's docstring)."""
    return Pictures(FaceCache(looks()))


def turn_hands(seed: int, moves: int) -> list[tuple[View, list[str]]]:
    """The hand of the seat to act after each of ``moves`` random moves of a game of each
    kind (the pictures a running bot draws: one per turn, each a new position)."""
    return [hand for name, players in TURN_GAMES for hand in turns(name, players, seed, moves)]


def _warm_for(warming: Warming, budget_ms: float) -> None:
    """Draw faces ahead as the drawing process does while no request waits, for at most
    ``budget_ms`` of the time between two turns (one face may run past it)."""
    warming.plan()
    ends = time.perf_counter() + budget_ms / 1000
    while time.perf_counter() < ends and warming.step():
        pass


def hands_old_and_new(moves: int, warm_games: int = 1, idle_ms: float = IDLE_MS) -> None:
    """The turn's hand along a game of each kind, in turns: the reference way (old), from kept
    parts (new) and from kept parts with faces drawn ahead between turns (ahead), each picture
    drawn once by each. Before them each drew ``warm_games`` other games of each kind, as a
    running drawing process has (one leaves about one hand in eight with a face drawn for the
    first time without drawing ahead, ten leave none); 0 is the first game after a start. The
    words of each new position are drawn anew, as there. Drawing ahead runs as in the
    drawing process (workers.drawing): planned from the faces each picture asked for (the first
    picture of a game, at its start, tells its sizes and language), then at most ``idle_ms``
    of it between two turns (the fastest player's thinking in bench.discord_load)."""
    old, new, ahead, captions = reference(), Pictures(), Pictures(), Pictures()
    assert isinstance(ahead.faces, Parts) and isinstance(captions.faces, Parts)
    warming, captions_warming = Warming(ahead.faces), Warming(captions.faces)
    spent = captions_spent = 0.0
    kits = (old, new, ahead, captions)
    for seed in range(99, 99 - warm_games, -1):  # the faces, as a running bot has them
        for view, names in turn_hands(seed=seed, moves=moves):
            for pictures in kits:
                pictures.hand(view, names)
            started = time.process_time()
            _warm_for(warming, idle_ms)
            spent += time.process_time() - started
            _warm_for(captions_warming, idle_ms)
            captions.ahead(view, names)
    labels = ("old", "new", "ahead", "captions")
    samples: dict[str, tuple[list[float], list[float]]] = {label: ([], []) for label in labels}
    made = dict.fromkeys(labels, 0)  # captions rasterised while a hand was drawn
    hands = turn_hands(seed=1, moves=moves)
    for view, names in hands:
        for label, pictures in zip(labels, kits, strict=True):
            before = pictures.faces.labels_made if isinstance(pictures.faces, Parts) else 0
            started, started_cpu = time.perf_counter(), time.process_time()
            pictures.hand(view, names)
            samples[label][0].append((time.perf_counter() - started) * 1000)
            samples[label][1].append((time.process_time() - started_cpu) * 1000)
            if isinstance(pictures.faces, Parts):
                made[label] += pictures.faces.labels_made - before
        started = time.process_time()
        _warm_for(warming, idle_ms)
        spent += time.process_time() - started
        _warm_for(captions_warming, idle_ms)
        started = time.process_time()
        captions.ahead(view, names)
        captions_spent += time.process_time() - started
    print(
        f"\nthe turn's hand, {len(hands)} positions of {len(TURN_GAMES)} games (after "
        f"{warm_games} game(s) of each), the reference way (old), from kept parts (new) and "
        f"from kept parts with faces drawn ahead (ahead, at most {idle_ms:.0f} ms between "
        "turns), and with the next hands' captions made ahead too (captions), in turns:"
    )
    print(f"{'':<10} {'wall p50':>9} {'wall p95':>9} {'cpu p50':>8} {'cpu p95':>8}")
    for label in labels:
        wall, cpu = samples[label]
        print(
            f"{label:<10} {percentile(wall, 0.5):>9.2f} {percentile(wall, 0.95):>9.2f}"
            f" {percentile(cpu, 0.5):>8.2f} {percentile(cpu, 0.95):>8.2f}"
        )
    for label in ("new", "ahead", "captions"):
        wall_ratio = percentile(samples[label][0], 0.95) / percentile(samples["old"][0], 0.95)
        cpu_ratio = percentile(samples[label][1], 0.95) / percentile(samples["old"][1], 0.95)
        print(f"{label} / old p95: wall {wall_ratio:.2f}, cpu {cpu_ratio:.2f} (target 0.25)")
    kept = ahead.faces.cards
    print(
        f"drawn ahead: {warming.drawn} faces in {spent * 1000:.0f} ms of CPU between turns "
        f"({spent * 1000 / max(1, warming.drawn):.2f} ms each); {len(kept)} faces kept"
    )
    print(
        f"captions made ahead: {captions_spent * 1000 / len(hands):.2f} ms of CPU a turn; "
        f"captions rasterised while a hand was drawn: {made['ahead']} of {len(hands)} hands' "
        f"(ahead), {made['captions']} (captions)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="Picture rendering benchmark")
    parser.add_argument("--runs", type=int, default=40, help="renders per measurement")
    parser.add_argument("--hands", action="store_true", help="only the hands, old and new")
    parser.add_argument("--moves", type=int, default=60, help="turns per game (the hands)")
    parser.add_argument(
        "--warm-games", type=int, default=1, help="games per kind drawn first (the hands)"
    )
    parser.add_argument(
        "--idle-ms", type=float, default=IDLE_MS, help="drawing ahead between turns (the hands)"
    )
    args = parser.parse_args()
    if args.hands:
        hands_old_and_new(args.moves, args.warm_games, args.idle_ms)
        return
    print(
        f"{'game':<7} {'picture':<12} {'cold p50':>9} {'cold p95':>9} {'warm p50':>9} "
        f"{'warm p95':>9} {'cpu p95':>8} {'KB':>6}"
    )
    worst_wall = worst_cpu = 0.0
    worst_size = 0
    for game in ("grinch", "gnome", "hearts", "ten"):
        for name, render in cases(game).items():
            cold, cold_cpu, size = measure(render, args.runs, cold=True)
            warm, warm_cpu, _ = measure(render, args.runs, cold=False)
            cpu95 = max(percentile(cold_cpu, 0.95), percentile(warm_cpu, 0.95))
            worst_wall = max(worst_wall, percentile(cold, 0.95), percentile(warm, 0.95))
            worst_cpu = max(worst_cpu, cpu95)
            worst_size = max(worst_size, size)
            print(
                f"{game:<7} {name:<12} {percentile(cold, 0.5):>9.1f} {percentile(cold, 0.95):>9.1f}"
                f" {percentile(warm, 0.5):>9.1f} {percentile(warm, 0.95):>9.1f} {cpu95:>8.1f}"
                f" {size / 1024:>6.1f}"
            )
    print(
        f"\nms per picture, {args.runs} runs each; cpu p95 = the worse of cold and warm.\n"
        f"worst p95: wall {worst_wall:.1f} ms, cpu {worst_cpu:.1f} ms (target "
        f"{TARGET_MS:.0f}); largest {worst_size / 1024:.1f} KB (target {TARGET_BYTES // 1024})"
    )
    hands_old_and_new(args.moves, args.warm_games, args.idle_ms)


if __name__ == "__main__":
    main()
