"""``bench.pictures_cost``: the pairs run at the same time, read one by one and by their median,
over the whole run and past its first seconds."""

from __future__ import annotations

from bench import pictures_cost


def test_each_pair_is_a_ratio_and_the_median_is_judged() -> None:
    line = pictures_cost.together_line(
        [(7.5, 5.0), (9.0, 5.0), (7.0, 5.0)], [(6.0, 5.0), (6.6, 6.0), (5.5, 5.0)]
    )
    assert line == (
        "pictures on / off, run at the same time, pair by pair: CPU per move "
        "7.50 / 5.00 ms = 1.50x, 9.00 / 5.00 ms = 1.80x, 7.00 / 5.00 ms = 1.40x; "
        "median 1.50x (target at most 1.5x: met); after the first 5 s 6.00 / 5.00 ms = 1.20x, "
        "6.60 / 6.00 ms = 1.10x, 5.50 / 5.00 ms = 1.10x; median 1.10x"
    )
    missed = pictures_cost.together_line([(8.0, 5.0)], [(6.0, 5.0)])
    assert "median 1.60x (target at most 1.5x: missed)" in missed
    assert missed.endswith("median 1.20x")
