"""``bench.spread``: the median and range of a figure over repeated runs, and its target."""

from __future__ import annotations

from bench import spread
from bench.machine import workload


def test_median_range_and_targets_met() -> None:
    runs = [
        {"ack": 42.0, "moves": 250.0},
        {"ack": 72.0, "moves": 310.0},
        {"ack": 47.0, "moves": 320.0},
    ]
    figures: list[spread.Figure[dict[str, float]]] = [
        spread.Figure("ack p99", lambda r: r["ack"], " ms", 0, at_most=50.0),
        spread.Figure("moves/s", lambda r: r["moves"], at_least=300.0),
        spread.Figure("untargeted", lambda r: r["ack"] / 10, digits=2),
    ]
    assert spread.lines(runs, figures) == [
        "ack p99: 47 ms (42-72), target <= 50 ms met in 2 of 3",
        "moves/s: 310.0 (250.0-320.0), target >= 300 met in 2 of 3",
        "untargeted: 4.70 (4.20-7.20)",
    ]


def test_a_target_of_zero_counts_only_zero() -> None:
    figure = spread.Figure("429s", lambda r: r, digits=0, at_most=0)
    assert spread.lines([0.0, 3.0], [figure]) == ["429s: 2 (0-3), target <= 0 met in 1 of 2"]


def test_the_machine_workload_is_deterministic() -> None:
    assert workload(50) == workload(50) > 0
