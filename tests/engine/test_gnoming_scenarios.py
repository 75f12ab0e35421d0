"""Gnoming A Round: set-up, turn flow and every special rule, played through ``GAME.apply``."""

from __future__ import annotations

import json
import random

import pytest

from engine.base import BadActionText, IllegalAction
from engine.gnoming import GAME
from engine.gnoming.actions import Open
from engine.gnoming.cards import CARD_IDS, CARD_KINDS, IDX_OF_ID
from engine.gnoming.state import State


def act(state: State, seat: int, text: str) -> State:
    before = GAME.to_json(state)
    new = GAME.apply(state, seat, GAME.parse_action(text))
    assert GAME.to_json(state) == before
    return new


def rejected(state: State, seat: int, text: str) -> str:
    before = GAME.to_json(state)
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, seat, GAME.parse_action(text))
    assert GAME.to_json(state) == before
    return str(info.value)


def conserved(state: State) -> None:
    assert sorted(state.all_cards()) == list(range(110))


def _slot(state: State, card: int) -> tuple[list[int], int]:
    for row in state.grid:
        if card in row:
            return row, row.index(card)
    for stack in (state.draw, state.piles[0], state.piles[1]):
        if card in stack:
            return stack, stack.index(card)
    raise AssertionError(f"card {CARD_IDS[card]} is not movable")


def put(state: State, target: list[int], index: int, card_id: str) -> None:
    """Swap ``card_id`` into ``target[index]`` (wherever it is), keeping all 110 cards."""
    card = IDX_OF_ID[card_id]
    source, at = _slot(state, card)
    source[at], target[index] = target[index], card


def arrange(state: State, seat: int, cells: dict[int, str]) -> None:
    for cell, card_id in cells.items():
        put(state, state.grid[seat], cell, card_id)


def open_all(state: State, picks: dict[int, str] | None = None) -> State:
    picks = picks or {}
    for seat in sorted(GAME.to_act(state)):
        state = act(state, seat, picks.get(seat, "op.0.1"))
    return state


def fresh(players: int = 3, seed: int = 7, **options: int) -> State:
    return GAME.new_game(players, seed, dict(options) or None)


def clear_hazards_and_mulligans(state: State) -> None:
    """Move every hazard and mulligan out of the grids into the draw pile's bottom part."""
    spare = [i for i, card in enumerate(state.draw) if CARD_KINDS[card] in "PN"]
    for row in state.grid:
        for cell, card in enumerate(row):
            if CARD_KINDS[card] in "HM":
                j = spare.pop()
                row[cell], state.draw[j] = state.draw[j], card


# ---------------------------------------------------------------- set-up


def test_setup_deal_and_piles() -> None:
    for players in range(3, 8):
        state = fresh(players, seed=players)
        conserved(state)
        assert state.phase == "opening" and GAME.to_act(state) == set(range(players))
        assert len(state.draw) == 110 - 9 * players - 2
        assert all(len(pile) == 1 for pile in state.piles)
        assert all(CARD_KINDS[pile[0]] != "H" for pile in state.piles)
        assert not any(any(row) for row in state.up)


def test_deal_order_follows_round_start() -> None:
    # The shuffle of round r is stream 0 of (seed, r); the first player gets cards 0-8.
    state = fresh(4, seed=99)
    cards = list(range(110))
    random.Random("gnome/99/1/0").shuffle(cards)
    assert state.grid[0] == cards[:9] and state.grid[1] == cards[9:18]
    assert state.grid[3] == cards[27:36]


def test_hazard_turned_up_for_a_pile_is_shuffled_back() -> None:
    reshuffled = 0
    for seed in range(400):
        state = fresh(3, seed)
        assert all(CARD_KINDS[pile[0]] != "H" for pile in state.piles)
        conserved(state)
        reshuffled += state.shuffles > 1
    assert reshuffled > 0  # the R5 path was exercised


def test_rounds_rotate_start_seat_and_keep_totals() -> None:
    state = fresh(3, seed=3, max_turns_per_player=1)
    for expected_start in (0, 1, 2):
        assert state.start_seat == expected_start
        state = open_all(state)
        assert state.active == expected_start
        for _ in range(3):  # three turns of pure discards hit the cap of 1 per player
            seat = state.active
            state = act(state, seat, "dr.deck")
            held = state.held
            assert held is not None
            text = "x" if CARD_KINDS[held] == "H" else "x.A"
            state = act(state, seat, text)
            while state.phase == "hazard_flips":
                state = act(state, sorted(GAME.to_act(state))[0], "nf")
    assert state.phase == "finished" and len(state.round_scores) == 3
    assert state.totals == [sum(r[s] for r in state.round_scores) for s in range(3)]


# ---------------------------------------------------------------- opening


def test_opening_is_simultaneous_and_hidden_until_all_pick() -> None:
    state = fresh(3)
    state = act(state, 1, "op.2.6")
    assert GAME.to_act(state) == {0, 2}
    assert "already" in rejected(state, 1, "op.0.1")
    for seat in (0, 2, None):
        view = GAME.view(state, seat)
        assert not any(cell["up"] for grid in view["grids"] for cell in grid)
        assert view["opening"] is not None
        assert view["opening"]["waiting"] == [0, 2]
        assert view["opening"]["mine"] is None
    own = GAME.view(state, 1)["opening"]
    assert own is not None and own["mine"] == [2, 6]
    state = act(state, 0, "op.0.8")
    state = act(state, 2, "op.4.5")
    assert state.phase == "draw" and state.active == 0
    assert [c for c in range(9) if state.up[1][c]] == [2, 6]
    assert [c for c in range(9) if state.up[0][c]] == [0, 8]
    view = GAME.view(state, 2)
    assert view["grids"][1][2]["card"] == CARD_IDS[state.grid[1][2]]
    assert view["grids"][1][0] == {"card": None, "up": False}


def test_opening_text_must_name_two_different_cells() -> None:
    with pytest.raises(BadActionText):
        GAME.parse_action("op.3.3")
    with pytest.raises(BadActionText):
        GAME.parse_action("op.5.1")
    assert "two different positions" in rejected(fresh(), 0, "dr.deck")
    with pytest.raises(IllegalAction):
        GAME.apply(fresh(), 0, Open(3, 3))


# ---------------------------------------------------------------- drawing, visibility


def test_held_card_from_deck_is_private_from_pile_public() -> None:
    state = open_all(fresh(3))
    top = state.draw[0]
    state = act(state, 0, "dr.deck")
    assert GAME.view(state, 0)["held"] == {"card": CARD_IDS[top], "from": "deck"}
    for seat in (1, 2, None):
        view = GAME.view(state, seat)
        assert view["held"] == {"card": None, "from": "deck"}
        assert CARD_IDS[top] not in json.dumps(view)
    state = open_all(fresh(3))
    a_top = state.piles[0][-1]
    state = act(state, 0, "dr.A")
    assert GAME.view(state, 2)["held"] == {"card": CARD_IDS[a_top], "from": "A"}
    assert GAME.view(state, 2)["discard"]["A"] == {"top": None, "size": 0}


def test_wrong_seat_and_wrong_phase_are_rejected() -> None:
    state = open_all(fresh(3))
    assert rejected(state, 1, "dr.deck") == "It is not your turn."
    assert "Draw a card first" in rejected(state, 0, "pl.3")
    with pytest.raises(IllegalAction):
        GAME.apply(state, 5, GAME.parse_action("dr.deck"))
    state = act(state, 0, "dr.deck")
    assert "Place" in rejected(state, 0, "dr.A")


def test_discarding_a_card_taken_from_a_pile_is_allowed() -> None:
    state = open_all(fresh(3))
    top = state.piles[1][-1]
    state = act(state, 0, "dr.B")
    state = act(state, 0, "x.B")  # B is empty, so only B is offered
    assert state.piles[1][-1] == top and state.active == 1 and state.phase == "draw"


# ---------------------------------------------------------------- bouncing


def test_bounce_chain_example() -> None:
    """Rules §10: 6 at 0 and 4 at 4 face up; draw a 7, place at 8 revealing a 6, bounce it to 1
    revealing a -2, which is discarded. locked = {8, 1}."""
    state = fresh(3, seed=11)
    clear_hazards_and_mulligans(state)
    arrange(state, 0, {0: "P6-01", 4: "P4-01", 8: "P6-02", 1: "N2-01"})
    arrange(state, 0, {2: "P3-01", 3: "P3-02", 5: "P5-01", 6: "P8-01", 7: "P8-02"})
    put(state, state.draw, 0, "P7-01")
    state = open_all(state, {0: "op.0.4"})
    state = act(state, 0, "dr.deck")
    state = act(state, 0, "pl.8")
    view = GAME.view(state, 1)
    assert state.phase == "bounce" and view["bounce"] is not None
    assert view["bounce"]["card"] == "P6-02"
    assert view["bounce"]["targets"] == [0, 1, 2, 3, 4, 5, 6, 7]
    assert "already" in rejected(state, 0, "bo.8")
    state = act(state, 0, "bo.1")
    assert state.phase == "discard"
    view = GAME.view(state, 2)
    assert view["pending_discard"] == {"card": "N2-01", "piles": ["A", "B"]}
    assert sorted(view["locked"]) == [1, 8]
    grid = view["grids"][0]
    assert [grid[c]["card"] for c in (0, 1, 4, 8)] == ["P6-01", "P6-02", "P4-01", "P7-01"]
    assert view["showing"][0] == 6 + 6 + 4 + 7
    assert [c for c in range(9) if not grid[c]["up"]] == [2, 3, 5, 6, 7]
    state = act(state, 0, "pi.A")
    assert CARD_IDS[state.piles[0][-1]] == "N2-01" and state.active == 1
    assert state.locked == []
    conserved(state)


def test_bounce_is_optional_and_only_from_face_down() -> None:
    state = fresh(3, seed=12)
    clear_hazards_and_mulligans(state)
    arrange(state, 0, {0: "P6-01", 1: "P5-01", 2: "P6-02", 3: "P5-02"})
    put(state, state.draw, 0, "P3-01")
    state = open_all(state, {0: "op.0.1"})
    state = act(state, 0, "dr.deck")
    # Replacing the face-up 5 at 1: a face-up card never bounces, even with a 5 showing elsewhere
    state = act(state, 0, "pl.1")
    assert state.phase == "discard" and CARD_IDS[state.pending or 0] == "P5-01"
    state = act(state, 0, "pi.B")
    # Seat 0 again later: a revealed 6 may bounce, and declining discards it.
    state = fresh(3, seed=12)
    clear_hazards_and_mulligans(state)
    arrange(state, 0, {0: "P6-01", 2: "P6-02"})
    put(state, state.draw, 0, "P3-01")
    state = open_all(state, {0: "op.0.1"})
    state = act(state, 0, "dr.deck")
    state = act(state, 0, "pl.2")
    assert state.phase == "bounce"
    state = act(state, 0, "nb.A")
    assert CARD_IDS[state.piles[0][-1]] == "P6-02" and state.active == 1


def test_revealed_card_matching_only_the_placed_card_bounces() -> None:
    state = fresh(3, seed=13)
    clear_hazards_and_mulligans(state)
    arrange(state, 0, {0: "P3-01", 1: "P4-01", 5: "P8-01"})
    put(state, state.draw, 0, "P8-02")
    state = open_all(state, {0: "op.0.1"})
    state = act(state, 0, "dr.deck")
    state = act(state, 0, "pl.5")  # reveals an 8 that matches the 8 just placed
    assert state.phase == "bounce" and CARD_IDS[state.pending or 0] == "P8-01"


def test_negative_mulligan_and_hazard_never_bounce() -> None:
    for hidden in ("N3-01", "MU-01", "HZ-01"):
        state = fresh(3, seed=14)
        clear_hazards_and_mulligans(state)
        arrange(state, 0, {0: "P5-01", 1: "P5-02", 4: hidden})
        put(state, state.draw, 0, "P5-03")
        state = open_all(state, {0: "op.0.1"})
        state = act(state, 0, "dr.deck")
        state = act(state, 0, "pl.4")
        assert state.phase != "bounce"
        conserved(state)


def test_mulligan_in_grid_does_not_make_a_match_for_bouncing() -> None:
    state = fresh(3, seed=15)
    clear_hazards_and_mulligans(state)
    arrange(state, 0, {0: "MU-01", 1: "P3-01", 4: "P7-01"})
    put(state, state.draw, 0, "P4-01")
    state = open_all(state, {0: "op.0.1"})
    state = act(state, 0, "dr.deck")
    state = act(state, 0, "pl.4")
    assert state.phase == "discard" and CARD_IDS[state.pending or 0] == "P7-01"
