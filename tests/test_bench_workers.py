"""``bench.workers`` and ``bench.pgside``: the shares, the targets and the sums they print."""

from __future__ import annotations

import math
import subprocess
from pathlib import Path

import pytest

from bench import pg_commits, pgside, rest_slot, workers, workers_figures, workers_sqlite
from bench.pgwire import WireCounts


def test_the_busiest_worker_against_its_fair_share() -> None:
    assert workers_figures.busiest_share([100]) == 1.0
    assert workers_figures.busiest_share([50, 50, 50, 50]) == 1.0
    assert workers_figures.busiest_share([60, 20, 10, 10]) == 2.4
    assert workers_figures.busiest_share([3, 1]) == 1.5
    assert math.isnan(workers_figures.busiest_share([0, 0]))


def test_growth_of_cpu_per_move_is_measured_from_the_first_run() -> None:
    assert round(workers_figures.flat_within([10.0, 10.5, 11.2]), 3) == 0.12
    assert workers_figures.flat_within([10.0, 9.0, 9.5]) == 0.0
    assert math.isnan(workers_figures.flat_within([]))


def test_the_bots_are_pointed_at_the_proxy() -> None:
    url = "postgresql://postgres@127.0.0.1:5432/cardtable_workers_1"
    assert workers.through(url, 6001) == "postgresql://postgres@127.0.0.1:6001/cardtable_workers_1"
    assert workers.through("postgresql://db.example:5432/x", 7) == "postgresql://127.0.0.1:7/x"


def test_backends_count_from_their_start_or_from_zero_and_keep_their_last_reading() -> None:
    cpu = pgside.BackendCpu()
    cpu.saw(11, 5.0, at_start=True)  # was there: counts from 5.0
    cpu.saw(11, 7.5, at_start=False)
    cpu.saw(12, 1.0, at_start=False)  # appeared during the run: all of its time
    cpu.saw(12, 0.0, at_start=False)  # gone: /proc reads nothing, the last reading stays
    assert cpu.backends == 2
    assert cpu.seconds == 2.5 + 1.0


def test_the_table_aligns_its_columns() -> None:
    text = workers_figures.table([["workers", "CPU", "load"], ["1", "12.50", "5.1 4.2"]])
    assert text.splitlines() == ["workers    CPU  load", "      1  12.50  5.1 4.2"]


def test_pgbench_report_is_read_without_connection_time() -> None:
    report = (
        "number of transactions actually processed: 2410\n"
        "latency average = 4.150 ms\n"
        "initial connection time = 3.512 ms\n"
        "tps = 240.963418 (without initial connection time)\n"
    )
    assert pg_commits.tps_of(report) == 240.963418
    with pytest.raises(ValueError, match="no tps"):
        pg_commits.tps_of("pgbench: error: connection refused\n")


def test_rest_slot_calls_take_a_channel_in_turn_and_the_global_bucket() -> None:
    calls = [rest_slot.buckets(i, channels=2) for i in range(3)]
    assert [[key for key, _, _ in call] for call in calls] == [
        ["ch:0", "global"], ["ch:1", "global"], ["ch:0", "global"],
    ]  # fmt: skip
    assert calls[0][0][1:] == (5, 5.5) and calls[0][1][1:] == (40, 1.0)


def test_rest_slot_installs_the_earlier_function_under_its_own_name() -> None:
    script = rest_slot.earlier_function()
    assert f"FUNCTION {rest_slot.EARLIER_NAME}(" in script
    assert "FUNCTION take_rest_slots(" not in script


def test_the_balancer_by_game_is_a_valid_haproxy_configuration(tmp_path: Path) -> None:
    chosen = workers.balancer(tmp_path, 8000, [8001, 8002], by_game=True)
    text = chosen.config.read_text()
    assert "balance hash req.body" in text and "roundrobin" not in text
    check = subprocess.run(
        [chosen.binary, "-c", "-f", str(chosen.config)], capture_output=True, check=False
    )
    assert check.returncode == 0, check.stderr.decode(errors="replace")
    plain = workers.balancer(tmp_path, 8000, [8001], by_game=False).config.read_text()
    assert "balance roundrobin" in plain and "inter 2s downinter 300ms" in plain


def figures(count: int, worker_cpu: float, served: list[int]) -> workers_figures.Figures:
    return workers_figures.Figures(
        workers=count, games=24, seconds=40.0, moves=800, all_moves=1000, accepted=500,
        worker_cpu=[worker_cpu / count] * count, worker_own=[worker_cpu / count / 2] * count,
        gateway_cpu=0.0, postgres_cpu=3.0, backends=20, served=served, rest_calls=1500,
        interaction_calls=500, wire=WireCounts(round_trips=20000, commits=1500),
        xact_commits=14000, load="9.00 9.00 9.00",
    )  # fmt: skip


def test_the_summary_reads_per_move_figures_and_judges_the_targets() -> None:
    runs = [figures(1, 15.0, [600]), figures(4, 18.6, [200, 150, 100, 150])]
    text = workers_figures.summary(runs)
    lines = text.splitlines()
    assert lines[0].split()[:4] == ["workers", "moves/s", "clicks/s", "CPU/move"]
    one, four = lines[1].split(), lines[2].split()
    assert one[:9] == ["1", "20.0", "12.5", "18.00", "15.00", "15.00", "7.50", "0.00", "3.00"]
    assert four[3] == "21.60" and four[9] == "1.33x" and four[10] == "33%/25%/17%/25%"
    assert four[11:13] == ["20.0", "1.50"] and four[16] == "1.00+0.50"
    assert "at most +20% (target within 15%: missed)" in lines[3]
    assert "busiest worker 1.33x its share" in lines[3]


def test_every_other_repeat_runs_the_sqlite_process_first() -> None:
    assert [workers_sqlite.sqlite_first(r) for r in (1, 2, 3, 4)] == [False, True, False, True]


def test_the_ratios_are_judged_by_their_median() -> None:
    lines = workers_sqlite.against({2: [1.2, 1.3, 1.4], 1: [1.7, 1.4, 1.45]})
    assert lines == [
        "1 worker(s) against the SQLite process, repeat by repeat: 1.70x, 1.40x, 1.45x; "
        "median 1.45x (target at most 1.5x: met)",
        "2 worker(s) against the SQLite process, repeat by repeat: 1.20x, 1.30x, 1.40x; "
        "median 1.30x (target at most 1.5x: met)",
    ]
    at_the_limit = workers_sqlite.against({1: [1.4, 1.6, 1.7, 1.2]})
    assert at_the_limit[0].endswith("median 1.50x (target at most 1.5x: met)")
    assert workers_sqlite.against({1: [1.52, 1.6]})[0].endswith(
        "median 1.56x (target at most 1.5x: missed)"
    )
