"""Ten in the channel: a message after every round (every player has had a turn), as the other
games post one per round, and the result at the end."""

from __future__ import annotations

from itertools import pairwise

from presentation import UIS
from presentation.base import Names
from tests.presentation.drawing.sample import Position, advance

NAMES = Names(("Ann", "Bo", "Robo"), frozenset({2}))


def test_a_message_after_each_round_and_the_result_at_the_end() -> None:
    _, history = advance(Position("ten", 3, 2, -1))
    ui = UIS["ten"]
    said = [ui.summaries(a, b, NAMES) for a, b in pairwise(history)]
    posted = [panels for panels in said if panels]
    final = history[-1]
    rounds = final["turns"] // 3
    assert len(posted) in (rounds, rounds + 1)  # the last round may end with the game
    assert posted[-1] == [ui.result(final, NAMES)]
    first = posted[0][0]
    assert first.title == "🔟 Ten — round 1"
    lines = first.description.splitlines()
    assert len(lines) == 3 and all(n in first.description for n in ("Ann", "Bo", "Robo 🤖"))
    assert lines[0].startswith("1. **")
