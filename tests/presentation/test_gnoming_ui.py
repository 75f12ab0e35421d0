"""Gnoming A Round renderer: grid buttons, phase choices, the public table and summaries."""

from __future__ import annotations

import json
import random
import re

import pytest

from engine import policy_for
from engine.gnoming import GAME
from engine.gnoming.cards import IDX_OF_ID, card_short
from engine.gnoming.state import GnomeRound, GnomeRoundSeat, State
from engine.gnoming.view import GnomeView
from presentation.base import Button, Control, HandScreen, Names, Panel, Select
from presentation.gnoming import UI

NAMES = Names(("Ann", "Ben", "Cat", "Dan"), frozenset({3}))


def panel_text(panel: Panel) -> str:
    return json.dumps(
        [panel.title, panel.description, panel.fields, panel.footer], ensure_ascii=False
    )


def legal(state: State, seat: int) -> list[str]:
    return [str(a) for a in GAME.legal_actions(state, seat)]


def hand(state: State, seat: int) -> HandScreen:
    return UI.hand(GAME.view(state, seat), legal(state, seat), NAMES)


def table(state: State) -> Panel:
    return UI.table(GAME.view(state, None), NAMES)


def act(state: State, seat: int, text: str) -> State:
    return GAME.apply(state, seat, GAME.parse_action(text))


def offered(controls: tuple[Control, ...]) -> list[str]:
    found: list[str] = []
    for control in controls:
        if isinstance(control, Button) and control.action and not control.disabled:
            found.append(control.action)
        elif isinstance(control, Select):
            found.extend(action for _, action, _ in control.options)
    return found


def grid_buttons(screen: HandScreen) -> list[Button]:
    buttons = [c for c in screen.controls if isinstance(c, Button) and c.row in (0, 1, 2)]
    assert len(buttons) == 9
    return buttons


def button(screen: HandScreen, action: str) -> Button:
    for control in screen.controls:
        if isinstance(control, Button) and control.action == action:
            return control
    raise AssertionError(f"no button for {action}: {screen.controls}")


def put(state: State, seat: int, cell: int, card_id: str, *, up: bool = True) -> None:
    """Swap ``card_id`` into ``seat``'s cell (all 110 cards stay in the game)."""
    card = IDX_OF_ID[card_id]
    stacks = [*state.grid, state.draw, *state.piles]
    source = next(stack for stack in stacks if card in stack)
    at = source.index(card)
    target = state.grid[seat]
    source[at], target[cell] = target[cell], card
    state.up[seat][cell] = up


def hold(state: State, card_id: str) -> None:
    """Make the active player hold ``card_id`` from the deck, in phase play."""
    card = IDX_OF_ID[card_id]
    if card not in state.draw:
        source = next(stack for stack in [*state.grid, *state.piles] if card in stack)
        at = source.index(card)
        source[at], state.draw[-1] = state.draw[-1], card
    state.draw.remove(card)
    state.phase, state.held, state.held_from = "play", card, "deck"


def opened(players: int = 3, seed: int = 5) -> State:
    """A fresh game after everyone turned up cells 0 and 1."""
    state = GAME.new_game(players, seed)
    for seat in range(players):
        state = act(state, seat, "op.0.1")
    assert state.phase == "draw" and state.active == 0
    return state


def table_blocks(panel: Panel) -> list[list[str]]:
    """The cell texts of each seat's grid block on the table, row by row."""
    blocks = []
    for _, value, _ in panel.fields:
        body = re.search(r"```\n(.*?)\n```", value, re.S)
        assert body is not None
        blocks.append(body.group(1).split())
    return blocks


# ---------------------------------------------------------------- over whole games


@pytest.mark.parametrize("seed", [1, 2])
def test_every_screen_offers_exactly_the_legal_moves_in_a_3x3_layout(seed: int) -> None:
    rng = random.Random(seed)
    policy = policy_for("gnome")
    state = GAME.new_game(4, seed)
    phases: set[str] = set()
    while GAME.to_act(state):
        phases.add(state.phase)
        spectator = GAME.view(state, None)
        # The table shows face-up cards only: each block matches the grid, face-down as "·".
        for seat, cells in enumerate(table_blocks(UI.table(spectator, NAMES))):
            on_table = spectator["grids"][seat]
            expected = [card_short(c["card"]) if c["up"] and c["card"] else "·" for c in on_table]
            assert cells == expected
        for seat in range(4):
            moves = legal(state, seat)
            screen = hand(state, seat)
            assert sorted(offered(screen.controls)) == sorted(moves)
            grid = grid_buttons(screen)
            shown_grid = GAME.view(state, seat)["grids"][seat]
            assert [b.row for b in grid] == [0, 0, 0, 1, 1, 1, 2, 2, 2]
            for cell, (b, shown) in enumerate(zip(grid, shown_grid, strict=True)):
                assert (b.label == "🂠") == (not shown["up"])
                if b.action is not None:
                    assert b.action.endswith(f".{cell}")
            rest = [c for c in screen.controls if c.row not in (0, 1, 2)]
            assert all(c.row in (3, 4) for c in rest)
            for row in (3, 4):
                width = sum(5 if isinstance(c, Select) else 1 for c in rest if c.row == row)
                assert width <= 5
            for control in screen.controls:
                if isinstance(control, Button):
                    assert 0 < len(control.label) <= 80
                else:
                    assert len(control.options) <= 25
        seat = rng.choice(sorted(GAME.to_act(state)))
        choice = (
            policy.choose(GAME.view(state, seat), GAME.legal_actions(state, seat), rng)
            if rng.random() < 0.7
            else rng.choice(GAME.legal_actions(state, seat))
        )
        state = GAME.apply(state, seat, choice)
    assert {"opening", "draw", "play"} <= phases


def test_a_whole_game_gives_one_summary_per_round_then_the_lowest_total_wins() -> None:
    rng = random.Random(3)
    state = GAME.new_game(3, 11)
    previous = GAME.view(state, None)
    titles: list[str] = []
    while GAME.to_act(state):
        seat = rng.choice(sorted(GAME.to_act(state)))
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        current = GAME.view(state, None)
        for panel in UI.summaries(previous, current, NAMES):
            titles.append(panel.title)
            if "scored" in panel.title:
                last = current["last_round"]
                assert last is not None
                scores = [int(name.rsplit(": ", 1)[1]) for name, _, _ in panel.fields]
                assert scores == [entry["score"] for entry in last["seats"]]
                for (_, value, _), entry in zip(panel.fields, last["seats"], strict=True):
                    cells = {c for line in entry["lines"] for c in line["cells"]}
                    assert value.count("[") == len(cells)
        previous = current
    assert titles == [
        "⛳ Round 1 scored",
        "⛳ Round 2 scored",
        "⛳ Round 3 scored",
        "🏆 Gnoming A Round — result",
    ]
    final = GAME.view(state, None)
    result = UI.result(final, NAMES).description
    assert final["outcome"] is not None
    totals = final["outcome"]["totals"]
    lines = [line for line in result.splitlines() if line.startswith(("🏆", "▫️"))]
    shown = [int(line.rsplit("— ", 1)[1]) for line in lines]
    assert shown == sorted(totals)  # lowest first
    assert "Lowest total after three rounds wins." in result
    winner = NAMES[final["outcome"]["winners"][0]]
    assert f"**{winner}** win" in result
    closing = UI.table(final, NAMES)  # the table only closes: the result is shown once
    assert closing.title.endswith("— game over") and "— " not in closing.description
    assert f"**{winner}** win" in closing.description
    last_dm = UI.hand(GAME.view(state, 0), [], NAMES)
    assert not last_dm.controls
    assert result in last_dm.panels[0].description  # the whole result, with her own place


# ---------------------------------------------------------------- hidden information


def test_opening_picks_stay_secret_until_everyone_chose() -> None:
    state = GAME.new_game(3, 5)
    screen = hand(state, 0)
    menus = [c for c in screen.controls if isinstance(c, Select)]
    assert [len(m.options) for m in menus] == [21, 15]
    assert [m.row for m in menus] == [3, 4]
    assert ("top left + centre", "op.0.4", "■□□   □■□   □□□") in menus[0].options
    assert all(b.disabled for b in grid_buttons(screen))

    state = act(state, 0, "op.0.4")
    assert "You turn up top left and centre" in panel_text(hand(state, 0).panels[0])
    assert hand(state, 0).controls and not offered(hand(state, 0).controls)
    assert "centre" not in panel_text(hand(state, 1).panels[0])
    public = table(state)
    assert table_blocks(public)[0] == ["·"] * 9
    assert "Waiting for: ⏳ Ben, ⏳ Cat" in public.text()


def test_a_card_drawn_from_the_deck_is_shown_only_to_the_drawer() -> None:
    state = opened()
    state.draw[0] = IDX_OF_ID["N4-01"]
    state.draw[1:] = [c for c in state.draw[1:] if c != IDX_OF_ID["N4-01"]]
    state = act(state, 0, "dr.deck")
    mine = panel_text(hand(state, 0).panels[0])
    assert "You hold **-4** (from the deck)" in mine
    public = table(state)
    assert "**Ann** drew from the deck and is deciding." in public.description
    assert "-4" not in public.description
    other = panel_text(hand(state, 1).panels[0])
    assert "Ann** drew from the deck" in other and "-4**" not in other


def test_a_card_taken_from_a_pile_is_public() -> None:
    state = opened()
    for pile, card_id in ((0, "P8-05"), (1, "MU-03")):
        card = IDX_OF_ID[card_id]
        source = next(stack for stack in [*state.grid, state.draw, *state.piles] if card in stack)
        at = source.index(card)
        source[at], state.piles[pile][-1] = state.piles[pile][-1], card
    screen = hand(state, 0)
    assert button(screen, "dr.A").label == "Take 8 from A"
    assert (button(screen, "dr.B").label, button(screen, "dr.B").emoji) == (
        "Take Mulligan from B",
        "🃏",
    )
    assert button(screen, "dr.deck").label.startswith("Draw from the deck (")
    assert "Discard A: **8** (1) · B: **🃏 Mulligan** (1)" in table(state).description
    state = act(state, 0, "dr.B")
    assert "**Ann** took **🃏 Mulligan** from pile B" in table(state).description
    assert "Ann** took **🃏 Mulligan** from pile B" in hand(state, 1).panels[0].description


# ---------------------------------------------------------------- labels and special cards


def test_grid_buttons_show_backs_values_and_special_cards() -> None:
    state = opened()
    put(state, 0, 0, "HZ-01")
    put(state, 0, 1, "MU-01")
    put(state, 0, 2, "N2-01")
    put(state, 0, 3, "P6-01")
    cells = grid_buttons(hand(state, 0))
    assert (cells[0].label, cells[0].emoji, cells[0].style) == ("Hazard", "⚠️", "danger")
    assert (cells[1].label, cells[1].emoji) == ("Mulligan", "🃏")
    assert (cells[2].label, cells[2].style) == ("-2", "success")
    assert cells[3].label == "6"
    assert all(b.label == "🂠" for b in cells[4:])
    assert all(b.disabled and b.action is None for b in cells)  # drawing: display only
    assert table_blocks(table(state))[0][:4] == ["H", "M", "-2", "6"]


def test_a_held_hazard_is_discarded_out_of_play() -> None:
    state = opened()
    hold(state, "HZ-02")
    screen = hand(state, 0)
    assert "You hold **⚠️ Hazard**" in screen.panels[0].description
    assert button(screen, "x").label == "Discard the hazard (it leaves play)"
    assert all(b.style == "primary" and not b.disabled for b in grid_buttons(screen))

    state = act(state, 0, "x")
    assert state.phase == "hazard_flips"
    flipper = hand(state, 1)
    assert "Ann** discarded a hazard!" in flipper.panels[0].description
    assert button(flipper, "nf").label == "Don't flip"
    enabled = {b.action for b in grid_buttons(flipper) if not b.disabled}
    assert enabled == {f"fl.{c}" for c in range(2, 9)}
    assert "Waiting for: Ben, Cat" in hand(state, 0).panels[0].description
    assert "⚠️ Hazards out of play this round: 1" in table(state).description

    state = act(state, 1, "fl.5")
    assert "You turn up your middle right card" in hand(state, 1).panels[0].description
    assert table_blocks(table(state))[1][5] == "·"  # not revealed before everyone answered


def test_a_second_mulligan_can_only_replace_the_first() -> None:
    state = opened()
    put(state, 0, 4, "MU-01")
    hold(state, "MU-02")
    screen = hand(state, 0)
    enabled = [b.action for b in grid_buttons(screen) if not b.disabled]
    assert enabled == ["pl.4"]
    assert "Only one face-up mulligan" in screen.panels[0].description


def test_bounce_chain_from_the_rules() -> None:
    """Rules §10: 6 at 0 and 4 at 4 face up; a 7 placed at 8 reveals a 6, which may bounce."""
    state = opened()
    state.up[0] = [False] * 9
    put(state, 0, 0, "P6-01")
    put(state, 0, 4, "P4-01")
    put(state, 0, 8, "P6-02", up=False)
    put(state, 0, 1, "N2-01", up=False)
    hold(state, "P7-01")
    state = act(state, 0, "pl.8")
    assert state.phase == "bounce"
    screen = hand(state, 0)
    assert "You revealed a **6**" in screen.panels[0].description
    cells = grid_buttons(screen)
    assert cells[8].disabled and cells[8].label == "7"  # filled this turn
    assert [b.action for b in cells if not b.disabled] == [f"bo.{c}" for c in range(8)]
    assert {b.label for b in screen.controls if isinstance(b, Button) and b.row == 3} == {
        "No bounce: discard on A",
        "No bounce: discard on B",
    }
    assert "**Ann** revealed a **6** that matches" in table(state).description


# ---------------------------------------------------------------- summaries, result, scores


def _finished_view(totals: list[int], winners: list[int], last: list[int]) -> GnomeView:
    return {
        **GAME.view(opened(), None),
        "outcome": {"totals": totals, "winners": winners},
        "round_scores": [[0, 0, 0], [0, 0, 0], last],
        "totals": totals,
    }


def test_result_explains_lowest_total_and_the_round_3_tie_break() -> None:
    broken = UI.result(_finished_view([30, 30, 41], [0], [4, 9, 20]), NAMES).description
    assert broken.startswith("**Ann** wins!")
    assert "Tie on 30: the lower round-3 score wins (Ann 4, Ben 9)." in broken
    assert broken.index("Ann") < broken.index("Ben") < broken.index("Cat")
    shared = UI.result(_finished_view([30, 30, 41], [0, 1], [4, 4, 20]), NAMES).description
    assert shared.startswith("**Ann and Ben** share the win!")


def test_round_summary_names_first_out_and_the_scoring() -> None:
    before = GAME.view(opened(), None)
    seat_entry: GnomeRoundSeat = {
        "grid": ["P6-01", "P6-02", "MU-01", "P3-01", "N2-01", "P5-01", "P7-01", "P8-01", "HZ-01"],
        "lines": [{"cells": [0, 1, 2], "value": 6}],
        "hazards": 1,
        "wild": 2,
        "raw": 23,
        "adjust": -5,
        "score": 18,
    }
    plain: GnomeRoundSeat = {
        **seat_entry,
        "lines": [],
        "hazards": 0,
        "wild": None,
        "adjust": 0,
        "score": 30,
    }
    last: GnomeRound = {
        "round": 1,
        "first_out": 0,
        "stalled": False,
        "seats": [seat_entry, plain, plain],
    }
    after: GnomeView = {**before, "last_round": last}
    (panel,) = UI.summaries(before, after, NAMES)
    assert panel.title == "⛳ Round 1 scored"
    assert "**Ann** went out first with the lowest score: **-5**." in panel.description
    name, value, _ = panel.fields[0]
    assert name == "Ann: 18"
    assert "[6][6][M]" in value and "-2" in value
    assert "✅ top row of 6s: -6" in value
    assert "⚠️ hazards: 1 (+10 each)" in value
    assert "🃏 wild mulligan: top right" in value
    assert "Raw 23 · went out -5 → **18**" in value
    assert UI.summaries(after, after, NAMES) == []


def test_score_sheet_has_a_row_per_round_and_says_lowest_wins() -> None:
    view: GnomeView = {
        **GAME.view(opened(), None),
        "round_scores": [[12, -3, 40]],
        "totals": [12, -3, 40],
    }
    panel = UI.scores(view, NAMES)
    assert panel.description.splitlines()[0] == "1. **Ben** — -3"
    assert "Lowest total wins." in panel.description
    assert panel.fields[1] == ("Ben", "Round 1: -3 · Round 2: — · Round 3: —\nTotal: -3", True)
    assert panel.fields[-1] == ("Leading", "Ben", False)


def test_rules_summary_is_about_this_game() -> None:
    text = UI.rules().description
    for word in ("lowest total wins", "Hazard", "Mulligan", "Bounce", "−5", "3–7 players"):
        assert word in text
