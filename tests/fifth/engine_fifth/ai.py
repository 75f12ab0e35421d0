"""The computer player of High card: its highest card when it could take the round, else its
lowest (it sees only its own view: its hand and the complete rounds)."""

from __future__ import annotations

import random
from typing import Any

from engine.base import View

from .game import DECK


class HighCardPolicy:
    def choose(self, view: View, legal: list[Any], rng: random.Random) -> Any:
        ordered = sorted(legal, key=lambda action: int(str(action)[2:]))
        seen = {card for record in view["rounds"] for card in record["cards"]}
        unseen = [card for card in DECK if card not in seen and card not in view["hand"]]
        best = ordered[-1]
        if not unseen or int(str(best)[2:]) > max(int(card) for card in unseen):
            return best
        return ordered[0] if rng.random() < 0.8 else best


POLICY = HighCardPolicy()
