"""The suite's order (tests/scheduling.py): each worker starts with a long test, the other
long ones are spread over the first part of the suite, and nothing is lost."""

from __future__ import annotations

from tests.scheduling import LONG, ordered, weight

PAGE = "tests/e2e/test_activity_page.py::test_two_tabs_and_a_dm_player_play_every_game"
WORKERS = "tests/e2e/test_workers.py::test_three_workers"
GRINCH = "tests/e2e/test_grinch_game.py::test_full_game"
TEN = "tests/e2e/test_ten_game.py::test_solo_game"


def test_a_test_weighs_what_its_longest_prefix_says() -> None:
    assert weight(PAGE) == LONG["tests/e2e/test_activity_page.py::"]
    assert weight(TEN) == 20
    assert weight("tests/e2e/test_ten_game.py::test_full_game_two_humans_and_a_computer") == 36
    assert weight("tests/engine/test_deck.py::test_anything") == 0


def short(n: int) -> list[str]:
    return [f"tests/engine/test_deck.py::test_{k}" for k in range(n)]


def test_each_worker_is_handed_one_long_test_first() -> None:
    ids = [*short(20), TEN, GRINCH, PAGE, WORKERS]  # equal weights keep their order
    order = ordered(ids, workers=2, share=0.5)
    assert sorted(order) == list(range(len(ids)))
    # Worker 0 is handed positions 0 and 1, worker 1 positions 2 and 3.
    assert [ids[i] for i in order[:4]] == [PAGE, ids[0], WORKERS, ids[1]]
    # The other two, longest first, each after an equal run of short tests, within the
    # first half of the 18 left: 4 short ones, then Grinch, 4 more, then Ten.
    assert order[4:14] == [2, 3, 4, 5, 21, 6, 7, 8, 9, 20]
    assert order[14:] == list(range(10, 20))  # the others keep their order


def test_one_worker_runs_the_long_tests_first_and_nothing_is_lost() -> None:
    ids = [*short(3), GRINCH, PAGE]
    order = ordered(ids, workers=1, share=0.0)
    assert [ids[i] for i in order] == [PAGE, GRINCH, *short(3)]
    assert ordered(short(3), workers=4) == [0, 1, 2]
