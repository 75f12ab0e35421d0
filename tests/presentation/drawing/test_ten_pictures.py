"""Ten's pictures for the channel, as the other games show a round: after a round the market
and every player's collection, score and tokens; at the end the final standings."""

from __future__ import annotations

from typing import Any

import pytest

from presentation.drawing.api import Pictures
from presentation.drawing.layout import Sheet
from tests.presentation.drawing.sample import MID_GAME, Position, advance


def _recording(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str]]:
    """The cards and the words drawn from now on."""
    cards: list[str] = []
    words: list[str] = []
    card, caption = Sheet.card, Sheet.caption

    def record_card(self: Sheet, face: Any, *args: Any, **kw: Any) -> None:  # never a back here
        cards.append(face)
        card(self, face, *args, **kw)

    def record_caption(self: Sheet, x: float, y: float, value: str, *args: Any, **kw: Any) -> None:
        words.append(value)
        caption(self, x, y, value, *args, **kw)

    monkeypatch.setattr(Sheet, "card", record_card)
    monkeypatch.setattr(Sheet, "caption", record_caption)
    return cards, words


def test_a_rounds_picture_shows_the_market_and_every_players_collection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cards, words = _recording(monkeypatch)
    position = MID_GAME["ten"]
    _, history = advance(position)
    view = history[-1]
    assert Pictures().summary(view, position.names) is not None
    held = [c for seat in view["seats"] for group in seat["by_colour"].values() for c in group]
    assert held, "nobody holds a card yet: a poor sample"
    assert sorted(cards) == sorted([*view["market"], *held])
    assert all(name in words for name in position.names)
    assert any(w.startswith(f"Round {view['turns'] // view['players']}") for w in words), words
    for info in view["seats"]:
        status = f"score {info['score']}  ·  coins {info['tokens']}  ·  bust {info['bust_tokens']}"
        assert any(w.startswith(status) for w in words), (status, words)


def test_the_final_standings_rank_every_player_as_the_result_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cards, words = _recording(monkeypatch)
    position = Position("ten", 4, 5, -1)
    _, history = advance(position)
    view = history[-1]
    outcome = view["outcome"]
    assert outcome is not None
    assert Pictures().summary(view, position.names) is not None
    assert words[0] == "Final standings"
    order = sorted(range(4), key=lambda s: (outcome["places"][s], s))
    ranked = [w for w in words if w[:1].isdigit() and ". Player " in w]
    assert ranked == [f"{outcome['places'][s]}. {position.names[s]}" for s in order]
    held = [c for seat in view["seats"] for group in seat["by_colour"].values() for c in group]
    assert sorted(cards) == sorted(held)


def test_no_picture_before_the_first_turn_ends() -> None:
    position = MID_GAME["ten"]
    _, history = advance(position)
    assert Pictures().summary(history[0], position.names) is None
