"""The baseline every computer player is measured against."""

from __future__ import annotations

import random
from typing import Any

from engine.base import View


class RandomPolicy:
    """Picks uniformly among the legal actions."""

    def choose(self, view: View, legal: list[Any], rng: random.Random) -> Any:
        return rng.choice(legal)
