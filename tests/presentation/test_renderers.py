"""Every renderer, on random positions of its game: controls match the legal moves exactly."""

from __future__ import annotations

import json
import random

import pytest

from engine import GAMES
from presentation import UIS
from presentation.base import Button, Names, Panel, Select

GAME_NAMES = sorted(UIS)


def test_every_game_has_a_renderer() -> None:
    assert set(UIS) == set(GAMES)
    assert all(UIS[name].name == name for name in UIS)


def _text(panel: Panel) -> str:
    return json.dumps([panel.title, panel.description, panel.fields, panel.footer])


@pytest.mark.parametrize("name", GAME_NAMES)
def test_controls_are_exactly_the_legal_moves(name: str) -> None:
    game, ui = GAMES[name], UIS[name]
    players = max(game.min_players, min(4, game.max_players))
    names = Names(tuple(f"Player {s}" for s in range(players)), frozenset({players - 1}))
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_game(players, seed)
        previous = game.view(state, None)
        for _ in range(3000):
            to_act = game.to_act(state)
            spectator = game.view(state, None)
            assert ui.table(spectator, names).title
            assert isinstance(ui.table_key(spectator), str)
            for panel in ui.summaries(previous, spectator, names):
                assert panel.title
            previous = spectator
            for seat in range(players):
                legal = [str(a) for a in game.legal_actions(state, seat)]
                screen = ui.hand(game.view(state, seat), legal, names)
                offered: list[str] = []
                for control in screen.controls:
                    if isinstance(control, Button) and control.action and not control.disabled:
                        offered.append(control.action)
                    elif isinstance(control, Select):
                        offered.extend(action for _, action, _ in control.options)
                # Every control must be a move the engine accepts. Most games offer exactly
                # legal_actions; Ten also offers payments with chosen cards, which
                # legal_actions folds into one canonical payment but apply accepts.
                for action in set(offered) - set(legal):
                    game.apply(state, seat, game.parse_action(action))  # raises if illegal
                if seat in to_act:
                    assert offered, f"seat {seat} must act but has no control"
                assert len(screen.controls) <= 25
            if not to_act:
                break
            seat = rng.choice(sorted(to_act))
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        final = game.view(state, None)
        assert "wins" in _text(ui.table(final, names)) or "win" in _text(ui.table(final, names))
        assert ui.scores(final, names).description


@pytest.mark.parametrize("name", GAME_NAMES)
def test_rules_summary_exists(name: str) -> None:
    panel = UIS[name].rules()
    assert len(panel.description) > 200


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_end_is_shown_once_and_the_sheet_fits_a_phone(name: str) -> None:
    """Any game played out: one result in the channel, in every last DM; a narrow full sheet."""
    game, ui = GAMES[name], UIS[name]
    players = min(6, game.max_players)
    names = Names(tuple(f"Player Number {s} Long" for s in range(players)))
    rng = random.Random(4)
    state = game.new_game(players, 4)
    previous = game.view(state, None)
    results: list[Panel] = []
    for _ in range(20000):
        to_act = game.to_act(state)
        if not to_act:
            break
        seat = rng.choice(sorted(to_act))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        current = game.view(state, None)
        results += [p for p in ui.summaries(previous, current, names) if p.title.endswith("result")]
        previous = current
    final = game.view(state, None)
    assert results == [ui.result(final, names)]
    assert ui.table(final, names).title.endswith("game over")
    for seat in range(players):
        screen = ui.hand(game.view(state, seat), [], names)
        assert not screen.controls
        assert results[0].description in screen.panels[0].description
    sheet = ui.scores(final, names)
    for line in "\n".join([sheet.description, *(v for _, v, _ in sheet.fields)]).splitlines():
        assert len(line) <= 40, line
    for player in names.names:
        assert player in sheet.description and any(f[0] == player for f in sheet.fields)
