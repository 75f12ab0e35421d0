"""The score chart and the round-by-round series it is drawn from."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from presentation.drawing.api import Pictures, series_from_view, series_from_views
from presentation.drawing.chart import chart, nice_step
from tests.presentation.drawing.sample import WHOLE_GAME, advance


@pytest.mark.parametrize("game", sorted(WHOLE_GAME))
def test_series_ends_at_the_outcome_totals(game: str) -> None:
    _, history = advance(WHOLE_GAME[game])
    series = series_from_views(history)
    assert series, "at least one round was scored"
    assert series[-1] == history[-1]["outcome"]["totals"]
    single = series_from_view(history[-1])
    if game in ("gnome", "hearts"):
        assert single == series
    else:
        assert single is None


def test_series_records_each_round_once() -> None:
    _, history = advance(WHOLE_GAME["grinch"])
    assert len(series_from_views(history)) == history[-1]["rounds"]
    assert series_from_views([history[0]] * 3) == []


@pytest.mark.parametrize("game", sorted(WHOLE_GAME))
def test_chart_of_a_whole_game(game: str) -> None:
    position = WHOLE_GAME[game]
    _, history = advance(position)
    data = Pictures().chart(
        game,
        series_from_views(history),
        position.names,
        winners=history[-1]["outcome"]["winners"],
    )
    assert len(data) < 200 * 1024
    image = Image.open(io.BytesIO(data))
    assert image.width <= 1200


def test_winner_and_names_change_the_picture() -> None:
    series = [[10, 5], [12, 20]]
    base = chart(series, ["Ann", "Bo"], winners=[1])
    assert chart(series, ["Ann", "Bo"], winners=[1]) == base
    assert chart(series, ["Ann", "Bo"], winners=[0]) != base
    assert chart(series, ["Ann", "Cy"], winners=[1]) != base


@pytest.mark.parametrize(
    ("series", "names"),
    [([[1, 2, 3]], ["a", "b"]), ([[1]], []), ([[1] * 8], [str(i) for i in range(8)])],
)
def test_bad_series_are_refused(series: list[list[int]], names: list[str]) -> None:
    with pytest.raises(ValueError):
        chart(series, names)


def test_negative_and_flat_totals_render() -> None:
    chart([[-5, -12, 3], [-20, -8, 3]], ["a", "b", "c"], winners=[0], lowest_wins=True)
    chart([[0, 0]], ["a", "b"])
    chart([], ["a", "b"])


@pytest.mark.parametrize(("span", "step"), [(0, 1), (7, 2), (45, 10), (130, 50), (999, 200)])
def test_nice_steps(span: int, step: int) -> None:
    assert nice_step(span) == step
