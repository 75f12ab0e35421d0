"""The score chart and the round-by-round series it is drawn from."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from PIL import Image, ImageDraw

import i18n
from engine import GAMES
from i18n import pgettext
from presentation.drawing import chart as chart_module
from presentation.drawing import fonts
from presentation.drawing.api import Pictures, chart_sheet, series_from_view, series_from_views
from presentation.drawing.chart import chart, nice_step
from presentation.drawing.faces import FaceCache
from presentation.drawing.layout import Sheet
from presentation.drawing.looks import looks
from presentation.drawing.palette import GOLD
from tests.presentation.drawing.regen import shown
from tests.presentation.drawing.sample import MID_GAME, WHOLE_GAME, Position, advance


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


@pytest.mark.parametrize(("players", "seed"), [(1, 1), (2, 0), (3, 4), (4, 5), (5, 7)])
def test_a_ten_chart_ends_at_the_result_after_the_final_purchases(players: int, seed: int) -> None:
    _, history = advance(Position("ten", players, seed, -1))
    series = series_from_views(history)
    assert series[-1] == history[-1]["outcome"]["totals"]
    assert len(series) == history[-1]["turns"]  # one point a turn, the last one corrected


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
    base = shown(chart(series, ["Ann", "Bo"], winners=[1]))
    assert shown(chart(series, ["Ann", "Bo"], winners=[1])) == base
    assert shown(chart(series, ["Ann", "Bo"], winners=[0])) != base
    assert shown(chart(series, ["Ann", "Cy"], winners=[1])) != base


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


def test_the_winners_star_sits_on_their_last_point() -> None:
    """Totals 10 then 30 (winner) against 20 then 40: the value axis runs 0..40 in steps of
    10 over the plot box (80, 100)-(730, 500), so the winner's last point is at x 730 (the
    right edge), y 500 - 400 * 30/40 = 200. The star is the only pure gold in the plot."""
    data = chart([[10, 20], [30, 40]], ["Ann", "Bo"], winners=[0], lowest_wins=True)
    image = Image.open(io.BytesIO(data)).convert("RGB")
    plot = image.crop((0, 0, chart_module.WIDTH - chart_module.LEGEND, chart_module.HEIGHT))
    gold = [
        (x, y)
        for y in range(plot.height)
        for x in range(plot.width)
        if plot.getpixel((x, y)) == GOLD
    ]
    assert gold, "no star on the chart"
    cx = sum(x for x, _ in gold) / len(gold)
    cy = sum(y for _, y in gold) / len(gold)
    assert abs(cx - 730) <= 2 and abs(cy - 200) <= 2, (cx, cy)


@pytest.mark.parametrize("game", ["hearts", "grinch", "ten", "gnome"])
def test_a_chart_is_drawn_in_one_typeface(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A name with a letter the embedded font lacks must not put the rest of the chart (or
    that name) in another typeface."""
    used: set[str] = set()
    real = ImageDraw.ImageDraw.text

    def recording(self: ImageDraw.ImageDraw, *args: Any, **kw: Any) -> None:
        used.add("dejavu" if kw["font"] is fonts.font(kw["font"].size, "dejavu") else "other")
        real(self, *args, **kw)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recording)
    position = WHOLE_GAME[game]
    _, history = advance(position)
    names = ["Ștefan", *position.names[1:]]
    Pictures().chart(game, series_from_views(history), names, winners=[0])
    assert used == {"dejavu"}


def test_the_winner_caption_is_drawn_without_a_stroke(monkeypatch: pytest.MonkeyPatch) -> None:
    """A one-pixel stroke of the letters' own colour (the kit's bold) smudges text at the
    legend's sizes: the winner's name and caption are drawn plain."""
    drawn: list[tuple[str, bool]] = []
    real = Sheet.text

    def recording(sheet: Sheet, xy: Any, value: str, size: int, fill: Any, **kw: Any) -> None:
        drawn.append((value, bool(kw.get("bold"))))
        real(sheet, xy, value, size, fill, **kw)

    monkeypatch.setattr(Sheet, "text", recording)
    chart([[10, 20]], ["Ann", "Bo"], winners=[1])
    assert ("winner", False) in drawn and ("Bo", False) in drawn
    assert all(not bold for value, bold in drawn if value in ("winner", "Bo"))


@pytest.mark.parametrize("language", ["ro", "et", "lt"])
def test_the_charts_words_are_translated(language: str) -> None:
    """The x axis's first tick ("start") and the legend's "winner" are words of the reader's
    language, not English left as it was."""
    with i18n.using(language):
        for word in ("start", "winner"):
            assert pgettext("chart", word) != word, (language, word)


FACES = FaceCache(looks())  # shared by the pictures of a test, as by the bot's


@pytest.mark.parametrize("kind", ["hand", "table", "summary"])
@pytest.mark.parametrize("game", ["hearts", "grinch", "ten", "gnome"])
def test_a_picture_is_drawn_in_one_typeface(
    game: str, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As the chart: one player's name needing DejaVu puts the whole picture in DejaVu."""
    used: set[str] = set()
    real = ImageDraw.ImageDraw.text

    def recording(self: ImageDraw.ImageDraw, *args: Any, **kw: Any) -> None:
        used.add("dejavu" if kw["font"] is fonts.font(kw["font"].size, "dejavu") else "other")
        real(self, *args, **kw)

    position = WHOLE_GAME[game] if kind == "summary" else MID_GAME[game]
    state, history = advance(position)
    names = ["Ștefan", *position.names[1:]]
    pictures = Pictures(FACES)
    # The same cards drawn first with plain names: their faces, cached in the embedded
    # typeface, must not come back into a DejaVu picture.
    pictures.hand(GAMES[game].view(state, 0), position.names)
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recording)
    if kind == "hand":
        pictures.hand(GAMES[game].view(state, 0), names)
    elif kind == "table":
        pictures.table(GAMES[game].view(state, None), names)
    else:
        pictures.summary(history[-1], names)
    assert used == {"dejavu"}


def test_a_face_drawn_in_one_typeface_is_not_reused_in_another() -> None:
    faces = FaceCache(looks())
    plain = faces.face("hearts", "2H", 120)
    with fonts.one_face("Ștefan"):
        dejavu = faces.face("hearts", "2H", 120)
    assert dejavu is not plain
    assert faces.face("hearts", "2H", 120) is plain


def test_the_charts_title_names_the_game_in_the_readers_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The chart's title is the game's one name in the current language, as everywhere else."""
    titles: list[str] = []

    def spy(*args: Any, **kwargs: Any) -> bytes:
        titles.append(kwargs["title"])
        return b""

    monkeypatch.setattr(chart_module, "chart", spy)
    with i18n.using("lt"):
        Pictures().chart("ten", [[1, 2]], ["A", "B"])
    with i18n.using("en"):
        Pictures().chart("ten", [[1, 2]], ["A", "B"])
    assert titles[1] == "Ten: scores"
    assert "Dešimt" in titles[0] and "Ten" not in titles[0]


def test_a_chart_carries_the_numbers_it_shows() -> None:
    png = chart([[3, 5], [12, 7]], ["Ann", "Bo"], winners=[0])
    with Image.open(io.BytesIO(png)) as image:
        image.load()
        texts = dict(getattr(image, "text", {}))
    assert json.loads(texts[chart_module.DATA_KEY]) == {
        "names": ["Ann", "Bo"],
        "series": [[3, 5], [12, 7]],
        "winners": [0],
    }
    again = chart([[3, 5], [12, 7]], ["Ann", "Bo"], winners=[0])
    assert shown(png) == shown(again)  # still the same picture


@pytest.mark.parametrize("game", sorted(WHOLE_GAME))
def test_the_chart_sheet_is_the_results_sheet(game: str) -> None:
    _, history = advance(WHOLE_GAME[game])
    sheet = chart_sheet(history[-1], lambda: history)
    outcome = history[-1]["outcome"]
    assert sheet.rounds[-1] == sheet.totals == tuple(outcome["totals"])
    assert sheet.winners == frozenset(outcome["winners"])
