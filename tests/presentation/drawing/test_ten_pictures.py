"""Ten's round picture shows the turn as the other games show a round: what happened, and
every seat's standing after it."""

from __future__ import annotations

from typing import Any

import pytest

from presentation.drawing.api import Pictures
from presentation.drawing.layout import Sheet
from tests.presentation.drawing.sample import MID_GAME, advance


def test_a_turns_picture_shows_every_seats_collection(monkeypatch: pytest.MonkeyPatch) -> None:
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
    position = MID_GAME["ten"]
    _, history = advance(position)
    view = history[-1]
    assert Pictures().summary(view, position.names) is not None
    last = view["last_turn"]
    bought = [last["buy"]] if last["buy"] not in ("", "nobuy") else []
    turn = [*last["drawn"], *bought, *(a["wild"] for a in last["auctions"])]
    held = [c for seat in view["seats"] for group in seat["by_colour"].values() for c in group]
    assert held, "nobody holds a card yet: a poor sample"
    assert sorted(cards) == sorted([*turn, *held])
    assert all(name in words for name in position.names)
