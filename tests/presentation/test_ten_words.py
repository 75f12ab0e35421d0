"""Ten's words that agree with their neighbours: an empty market in the gender of "market",
and a row with no numbers said in a whole sentence, never "none" put where cards go."""

from __future__ import annotations

import pytest

import i18n
from engine.ten import GAME
from engine.ten.state import TenState
from presentation.base import Names, Panel
from presentation.ten import UI
from tests.presentation.languages import CLOSE, OPEN, pseudo, screen_text
from tests.presentation.test_ten_ui import rig

NAMES = Names(("Ann", "Ben", "Cat"), frozenset({2}))


def _play(state: TenState, *actions: str) -> TenState:
    for action in actions:
        state = GAME.apply(state, 0, GAME.parse_action(action))
    return state


def _market(panel: Panel, heading: str) -> str:
    return next(value for name, value, _ in panel.fields if heading in name)


def test_an_empty_market_agrees_with_market_in_romanian() -> None:
    state = rig(3, ["R5a"])
    with i18n.using("ro"):
        hand = UI.hand(GAME.view(state, 0), ["draw"], NAMES).panels[0]
        table = UI.table(GAME.view(state, None), NAMES)
        assert _market(hand, i18n._("Market")) == "goală"
        assert _market(table, i18n._("Market (price = number)")) == "goală"


def test_a_row_without_numbers_is_said_in_whole_sentences(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The "none" of an empty list of cards never stands in a sentence about the numbers."""
    pseudo(monkeypatch)
    none = f"{OPEN}none{CLOSE}"
    for players, names in ((3, NAMES), (1, Names(("Ann",)))):
        state = _play(rig(players, ["C3a", "R5a"]), "draw", "stop")
        legal = [str(a) for a in GAME.legal_actions(state, 0)]
        assert "take.n" in legal
        shown = screen_text(UI.hand(GAME.view(state, 0), legal, names))
        assert none not in shown, shown
        after = _play(state, "take.n")
        line = UI.move_line("take.n", 0, GAME.view(after, None), names)
        summaries = "\n".join(
            p.description
            for p in UI.summaries(GAME.view(state, None), GAME.view(after, None), names)
        )
        assert none not in line + summaries, (line, summaries)
