"""The suite's order: its long tests early and spread out, so that no worker is left with one.

`make unit` runs pytest on 4 workers with ``--dist load --maxschedchunk 1``: each worker is
handed two tests at the start, then one more each time it finishes one, in this order. A
long test that starts late holds the whole run up on one worker while the others are done
(the Chromium game or the three-worker game takes as long as a quarter of the suite). So
each worker starts with one of the longest, and the other long tests follow, longest first,
spread over the first half of the others. The rest keep pytest's own order. Only the order
changes here: every test still runs.
"""

from __future__ import annotations

from itertools import islice

import pytest

# Node id prefixes and their rough seconds on 2 busy cores. Only the order they give matters;
# a test that is not here runs after all of these, in pytest's order. The first four start
# together: with the kill tests' many restarts among them, beside Chromium and the three
# workers, they starved each other and the suite took 9.3 minutes instead of 7.9.
LONG: dict[str, float] = {
    "tests/e2e/test_activity_page.py::": 120,
    "tests/e2e/test_workers.py::": 120,
    "tests/e2e/test_shards.py::test_two_sharded_processes_on_postgres": 52,
    "tests/e2e/test_reliability_faults.py::test_faults_during_a_whole_game": 38,
    "tests/e2e/test_pictures.py::": 40,
    "tests/e2e/test_http_interactions.py::test_a_whole_game_over_http": 30,
    "tests/e2e/test_reliability_kills.py::test_killed_at_random_moments": 30,
    "tests/e2e/test_ten_game.py::test_full_game": 36,
    "tests/e2e/test_gnome_game.py::": 33,
    "tests/e2e/test_http_interactions.py::test_a_worker_without_a_gateway": 32,
    "tests/e2e/test_hearts_game.py::": 32,
    "tests/e2e/test_computer_levels.py::": 31,
    "tests/e2e/test_players.py::test_a_rated_game": 28,
    "tests/e2e/test_stale_messages.py::test_a_dm_left_behind": 27,
    "tests/e2e/test_stale_messages.py::test_a_crash_before": 26,
    "tests/e2e/test_grinch_game.py::": 24,
    "tests/engine/test_hearts2p_props.py::test_random_games": 22,
    "tests/e2e/test_shards.py::test_one_process_on_sqlite": 21,
    "tests/e2e/test_ten_game.py::test_solo_game": 20,
    "tests/e2e/test_grinch_robustness.py::": 18,
    "tests/e2e/test_permission_fix.py::": 17,
    "tests/e2e/test_players.py::test_a_player_leaves": 17,
    "tests/engine/test_ten_codec.py::test_cheapest_cards": 15,
    "tests/store/test_ratings.py::": 14,
    "tests/e2e/test_shard_leases.py::": 13,
    "tests/e2e/test_old_controls.py::": 12,
    "tests/engine/test_ten_levels.py::": 11,
    "tests/cogs/test_raw_components.py::test_any_controls": 11,
    "tests/store/test_without_postgres.py::": 10,
    "tests/e2e/test_activity_restart.py::": 10,
}
# The long tests after the first few are spread over this share of the others: started
# together, the multi-process ones (Chromium, three workers, pictures) starve each other of
# the two cores, and a hand picture misses its deadline.
SPREAD = 0.5


def weight(nodeid: str) -> float:
    """The rough seconds of the longest prefix of ``nodeid`` in :data:`LONG`, else 0."""
    found = [prefix for prefix in LONG if nodeid.startswith(prefix)]
    return LONG[max(found, key=len)] if found else 0.0


def ordered(nodeids: list[str], workers: int, share: float = SPREAD) -> list[int]:
    """The positions of ``nodeids`` in the order to run them: one long test for each worker's
    first (each worker is handed two at once: a long one, then another), then the other long
    tests, longest first, each after an equal run of the others, so that all are handed out
    within the first ``share`` of the suite, then the rest in pytest's order."""
    long = sorted(
        (i for i, nodeid in enumerate(nodeids) if weight(nodeid) > 0),
        key=lambda i: -weight(nodeids[i]),
    )
    chosen = set(long)
    others = iter([i for i in range(len(nodeids)) if i not in chosen])
    head, spaced = long[:workers], long[workers:]
    order: list[int] = []
    for i in head:
        order.append(i)
        if workers > 1:
            order += islice(others, 1)
    rest = list(others)
    gap = int(len(rest) * share) // max(1, len(spaced))
    taken = 0
    for i in spaced:
        order += [*rest[taken : taken + gap], i]
        taken += gap
    return order + rest[taken:]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    workerinput = getattr(config, "workerinput", None)
    workers = int(workerinput["workercount"]) if workerinput else 1
    order = ordered([item.nodeid for item in items], workers)
    items[:] = [items[i] for i in order]
