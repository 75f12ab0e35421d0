"""Gnoming A Round: hazards, mulligans, the empty-pile rule, rebuilds, the final lap, the stall
cap and the first-out adjustment, played through ``GAME.apply``."""

from __future__ import annotations

import json

from engine.gnoming import GAME
from engine.gnoming.cards import CARD_IDS, CARD_KINDS
from engine.gnoming.scoring import score_grid
from engine.gnoming.state import State
from tests.engine.test_gnoming_scenarios import (
    act,
    arrange,
    clear_hazards_and_mulligans,
    conserved,
    fresh,
    open_all,
    put,
    rejected,
)


def answer_flips(state: State, text: str = "nf") -> State:
    while state.phase == "hazard_flips":
        state = act(state, sorted(GAME.to_act(state))[0], text)
    return state


def settle(state: State) -> State:
    """Finish the current turn: decline bounces, pick pile A, decline hazard flips."""
    while state.phase in ("bounce", "discard", "hazard_flips"):
        seat = sorted(GAME.to_act(state))[0]
        legal = [str(a) for a in GAME.legal_actions(state, seat)]
        choice = next(t for t in legal if t.startswith(("nb.", "pi.", "nf")))
        state = act(state, seat, choice)
    return state


def discard_turn(state: State) -> State:
    """The active player draws from the deck and discards it."""
    seat = state.active
    state = act(state, seat, "dr.deck")
    held = state.held
    assert held is not None
    legal = [str(a) for a in GAME.legal_actions(state, seat) if str(a).startswith("x")]
    state = act(state, seat, "x" if CARD_KINDS[held] == "H" else legal[0])
    return answer_flips(state)


# ---------------------------------------------------------------- hazards


def test_drawn_hazard_discarded_opens_simultaneous_flips() -> None:
    state = fresh(4, seed=21)
    clear_hazards_and_mulligans(state)
    put(state, state.draw, 0, "HZ-01")
    state = open_all(state)
    state.up[3] = [True] * 8 + [False]  # seat 3 has a single face-down card: it cannot flip
    state = act(state, 0, "dr.deck")
    assert [str(a) for a in GAME.legal_actions(state, 0) if str(a).startswith("x")] == ["x"]
    assert "no pile" in rejected(state, 0, "x.A")
    state = act(state, 0, "x")
    assert state.phase == "hazard_flips" and GAME.to_act(state) == {1, 2}
    view = GAME.view(state, 3)
    assert view["removed"] == ["HZ-01"] and view["discard"]["A"]["size"] == 1
    assert view["hazard_flips"] is not None
    assert view["hazard_flips"]["waiting"] == [1, 2]
    assert view["hazard_flips"]["cells"][1] == [2, 3, 4, 5, 6, 7, 8]
    assert view["hazard_flips"]["cells"][3] == []
    assert "nothing to flip" in rejected(state, 3, "fl.8")
    assert "face-down" in rejected(state, 1, "fl.0")  # cell 0 is already face up
    state = act(state, 1, "fl.5")
    assert not state.up[1][5]  # nothing shows until everyone answered
    mine, theirs = (GAME.view(state, s)["hazard_flips"] for s in (1, 2))
    assert mine is not None and mine["mine"] == 5
    assert theirs is not None and theirs["mine"] is None
    assert CARD_IDS[state.grid[1][5]] not in json.dumps(GAME.view(state, 2))
    assert "already" in rejected(state, 1, "nf")
    state = act(state, 2, "nf")
    assert state.up[1][5] and state.phase == "draw" and state.active == 1
    assert sum(not up for up in state.up[2]) == 7 and sum(not up for up in state.up[3]) == 1
    conserved(state)


def test_hazard_flips_skipped_when_nobody_can_flip() -> None:
    state = fresh(3, seed=22)
    clear_hazards_and_mulligans(state)
    put(state, state.draw, 0, "HZ-02")
    state = open_all(state)
    state.up[1] = [True] * 9
    state.up[2] = [True] * 8 + [False]
    state = act(state, 0, "dr.deck")
    state = act(state, 0, "x")
    assert state.phase == "draw" and state.active == 1 and CARD_IDS[state.removed[0]] == "HZ-02"


def test_hazard_revealed_by_placement_or_replaced_face_up_leaves_play() -> None:
    state = fresh(3, seed=23)
    clear_hazards_and_mulligans(state)
    arrange(state, 0, {0: "HZ-01", 5: "HZ-02"})
    state = open_all(state, {0: "op.0.1"})
    # Replacing a face-up hazard discards it: removed, flips open (R11).
    state = act(state, 0, "dr.A")
    state = act(state, 0, "pl.0")
    assert state.phase == "hazard_flips" and [CARD_IDS[c] for c in state.removed] == ["HZ-01"]
    assert state.piles[0] == []  # a hazard leaves pile A empty (R12)
    state = answer_flips(state, "nf")
    state = discard_turn(state)
    state = discard_turn(state)
    # A face-down hazard revealed by a placement also leaves play.
    state = act(state, 0, "dr.deck")
    state = act(state, 0, "pl.5")
    assert state.phase == "hazard_flips" and "HZ-02" in [CARD_IDS[c] for c in state.removed]
    conserved(state)


def test_hazard_may_be_placed_and_costs_ten() -> None:
    state = fresh(3, seed=24)
    clear_hazards_and_mulligans(state)
    put(state, state.draw, 0, "HZ-03")
    state = open_all(state)
    state = act(state, 0, "dr.deck")
    state = act(state, 0, "pl.0")  # R21: legal
    assert CARD_IDS[state.grid[0][0]] == "HZ-03" and state.up[0][0]
    grid = [CARD_IDS[c] for c in state.grid[0]]
    with_hazard = score_grid(grid)
    grid[0] = next(f"N1-0{k}" for k in range(1, 7) if f"N1-0{k}" not in grid)
    assert with_hazard == score_grid(grid) + 11  # +10 instead of -1; both block lines


def test_hazard_cannot_start_a_pile_after_a_rebuild_either() -> None:
    # Hazards never reach a discard pile, so a rebuilt draw pile never holds a discarded one.
    state = open_all(fresh(3, seed=25, max_turns_per_player=0))
    for _ in range(150):
        state = discard_turn(state)
        assert all(CARD_KINDS[c] != "H" for pile in state.piles for c in pile)
        conserved(state)


# ---------------------------------------------------------------- mulligans


def test_second_mulligan_may_only_replace_the_first() -> None:
    state = fresh(3, seed=31)
    clear_hazards_and_mulligans(state)
    arrange(state, 0, {4: "MU-01"})
    put(state, state.draw, 0, "MU-02")
    state = open_all(state, {0: "op.3.4"})
    state = act(state, 0, "dr.deck")
    places = [str(a) for a in GAME.legal_actions(state, 0) if str(a).startswith("pl")]
    assert places == ["pl.4"]
    assert "mulligan" in rejected(state, 0, "pl.0")
    state = act(state, 0, "pl.4")  # replacing that same mulligan is allowed
    assert CARD_IDS[state.grid[0][4]] == "MU-02"
    conserved(state)


def test_extra_mulligans_may_turn_up_and_best_wild_is_scored() -> None:
    state = fresh(3, seed=32, max_turns_per_player=1)
    clear_hazards_and_mulligans(state)
    grid0 = ["MU-01", "P5-01", "P5-02", "P6-01", "MU-02", "P6-02", "P7-01", "P8-01", "P3-01"]
    arrange(state, 0, dict(enumerate(grid0)))
    state = open_all(state, {0: "op.0.4"})  # two mulligans face up at once: allowed
    assert state.up[0][0] and state.up[0][4]
    for _ in range(3):
        state = discard_turn(state)
    summary = state.last_round
    assert summary is not None and summary["stalled"]
    assert summary["seats"][0]["grid"] == grid0
    assert summary["seats"][0]["wild"] == 4 and summary["seats"][0]["raw"] == 22  # vector 9
    assert summary["seats"][0]["lines"] == [{"cells": [3, 4, 5], "value": 6}]


# ---------------------------------------------------------------- empty piles


def test_empty_pile_rule() -> None:
    state = fresh(3, seed=41)
    clear_hazards_and_mulligans(state)
    arrange(state, 0, {5: "HZ-01"})
    arrange(state, 1, {5: "HZ-02"})
    put(state, state.draw, 0, "P3-05")
    state = open_all(state)
    # Seat 0 empties B, then places onto a face-down hazard: B stays empty (R12).
    state = act(state, 0, "dr.B")
    state = act(state, 0, "pl.5")
    state = answer_flips(state)
    assert state.piles[1] == [] and len(state.piles[0]) == 1
    # Seat 1 must discard onto the empty pile B only.
    state = act(state, 1, "dr.deck")
    legal = [str(a) for a in GAME.legal_actions(state, 1)]
    assert "x.B" in legal and "x.A" not in legal
    assert "Pile B is empty" in rejected(state, 1, "x.A")
    # Instead seat 1 places on a face-up card: the replaced card goes to B automatically.
    replaced = state.grid[1][0]
    state = act(state, 1, "pl.0")
    assert state.piles[1] == [replaced] and state.active == 2
    # Seat 2 takes B's only card, seat 2 places on a face-up card: it goes to B again.
    state = act(state, 2, "dr.B")
    state = act(state, 2, "pl.1")
    assert len(state.piles[1]) == 1 and state.active == 0
    # Seat 0 takes A (B holds one card), seat 0 discards onto A, the empty pile.
    state = act(state, 0, "dr.A")
    assert [str(a) for a in GAME.legal_actions(state, 0) if str(a).startswith("x")] == ["x.A"]
    state = act(state, 0, "x.A")
    # Seat 1: take A, take B next turn... make both empty: take A, place on face-down hazard.
    state = act(state, 1, "dr.A")
    state = act(state, 1, "pl.5")
    state = answer_flips(state)
    state = act(state, 2, "dr.B")
    assert state.piles == [[], []]
    # Both empty: either pile may be chosen.
    legal = [str(a) for a in GAME.legal_actions(state, 2) if str(a).startswith("x")]
    assert legal == ["x.A", "x.B"]
    draws = [str(a) for a in GAME.legal_actions(act(state, 2, "x.B"), 0)]
    assert draws == ["dr.deck", "dr.B"]
    conserved(state)


# ---------------------------------------------------------------- rebuilding the draw pile


def test_draw_pile_rebuilt_from_discards_below_the_tops() -> None:
    state = open_all(fresh(3, seed=51))
    state = act(state, 0, "dr.deck")
    # Move the rest of the draw pile under pile A's top (keeps all 110 cards).
    state.piles[0] = state.draw + state.piles[0]
    state.draw = []
    a_top, b_top = state.piles[0][-1], state.piles[1][-1]
    below = sorted(state.piles[0][:-1] + state.piles[1][:-1])
    held = state.held
    assert held is not None
    state = act(state, 0, "x" if CARD_KINDS[held] == "H" else "x.B")
    state = answer_flips(state)
    new_b_top = b_top if CARD_KINDS[held] == "H" else held
    if CARD_KINDS[held] != "H":
        below = sorted([*below, b_top])
    assert state.active == 1 and state.phase == "draw"
    assert sorted(state.draw) == below and len(state.draw) >= 42
    assert state.piles == [[a_top], [new_b_top]]
    view = GAME.view(state, 1)
    assert view["draw_size"] == len(below)
    assert view["discard"]["A"]["size"] == 1 and view["discard"]["B"]["size"] == 1
    conserved(state)


# ---------------------------------------------------------------- final lap and first out


def _set_up_for_going_out(seed: int, low: list[str], others: list[list[str]]) -> State:
    state = fresh(3, seed=seed)
    clear_hazards_and_mulligans(state)
    for seat, cards in enumerate([low, *others]):
        arrange(state, seat, dict(enumerate(cards)))
    put(state, state.draw, 0, "N1-01")
    state = open_all(state)
    state.up[0] = [True] * 8 + [False]
    return state


def test_final_lap_and_first_out_bonus() -> None:
    low = ["N4-01", "N4-02", "N4-03", "N3-01", "N3-02", "N3-03", "N3-04", "N3-05", "P8-01"]
    mid = ["P3-01", "P4-01", "P5-01", "P6-01", "P7-01", "P8-02", "P3-02", "P4-02", "P5-02"]
    high = ["P6-02", "P7-02", "P8-03", "P6-03", "P7-03", "P8-04", "P3-03", "P4-03", "P5-03"]
    state = _set_up_for_going_out(61, low, [mid, high])
    state = act(state, 0, "dr.deck")
    state = act(state, 0, "pl.8")  # the last face-down card: seat 0 goes out
    state = settle(state)
    view = GAME.view(state, 1)
    assert view["final_lap"] == {"first_out": 0, "remaining": [1, 2]}
    assert state.active == 1
    state = discard_turn(state)
    assert GAME.view(state, 0)["final_lap"] == {"first_out": 0, "remaining": [2]}
    state = discard_turn(state)
    summary = state.last_round
    assert summary is not None and summary["first_out"] == 0 and not summary["stalled"]
    seat0 = summary["seats"][0]
    assert seat0["raw"] == -12 - 15 - 1 and seat0["adjust"] == -5 and seat0["score"] == -33
    assert summary["seats"][1]["adjust"] == 0 and summary["seats"][1]["raw"] == 45
    assert state.round == 2 and state.round_scores == [[-33, 45, 54]]
    assert state.phase == "opening" and state.first_out is None


def test_first_out_without_the_lowest_score_pays_five() -> None:
    high = ["P8-01", "P8-02", "P7-01", "P7-02", "P6-01", "P6-02", "P5-01", "P5-02", "P4-01"]
    low = ["N4-01", "N4-02", "N4-03", "N3-01", "N3-02", "N3-03", "N3-04", "N3-05", "N2-01"]
    mid = ["P3-01", "P4-02", "P5-03", "P6-03", "P7-03", "P8-03", "P3-02", "P4-03", "P5-04"]
    state = _set_up_for_going_out(62, high, [low, mid])
    state = act(state, 0, "dr.deck")
    state = act(state, 0, "pl.8")
    state = settle(state)
    state = discard_turn(state)
    state = discard_turn(state)
    summary = state.last_round
    assert summary is not None
    assert summary["seats"][0]["raw"] == 8 + 8 + 7 + 7 + 6 + 6 + 5 + 5 - 1
    assert summary["seats"][0]["adjust"] == 5 and summary["seats"][1]["adjust"] == 0


def test_player_with_no_face_down_cards_still_plays_the_final_lap() -> None:
    state = _set_up_for_going_out(63, [], [])
    state.up[1] = [True] * 9  # seat 1 already has no face-down card (e.g. after flips)
    state.up[0] = [True] * 8 + [False]
    state = act(state, 0, "dr.deck")
    state = act(state, 0, "pl.8")
    state = settle(state)
    state = answer_flips(state)
    assert state.first_out == 0 and state.active == 1
    state = act(state, 1, "dr.deck")
    state = act(state, 1, "pl.3")  # may replace a face-up card
    state = settle(state)
    assert state.active == 2 and state.lap == [2]


def test_hazard_flip_never_takes_the_last_card() -> None:
    state = fresh(3, seed=64)
    clear_hazards_and_mulligans(state)
    put(state, state.draw, 0, "HZ-01")
    state = open_all(state)
    state.up[1] = [True] * 7 + [False, False]
    state.up[2] = [True] * 8 + [False]
    state = act(state, 0, "dr.deck")
    state = act(state, 0, "x")
    assert GAME.to_act(state) == {1}
    state = act(state, 1, "fl.7")
    assert state.up[1].count(False) == 1 and state.first_out is None


# ---------------------------------------------------------------- stall cap


def test_stall_cap_ends_the_round_without_adjustment() -> None:
    state = open_all(fresh(3, seed=71, max_turns_per_player=2))
    for turn in range(6):
        assert state.round == 1 and state.turns == turn
        assert GAME.view(state, 0)["turn_cap"] == 6
        state = discard_turn(state)
    summary = state.last_round
    assert summary is not None and summary["stalled"] and summary["first_out"] is None
    assert all(entry["adjust"] == 0 for entry in summary["seats"])
    assert state.round_scores[0] == [entry["raw"] for entry in summary["seats"]]
    assert all(entry["raw"] == score_grid(entry["grid"]) for entry in summary["seats"])


def test_no_cap_and_default_cap() -> None:
    assert GAME.view(fresh(4), 0)["turn_cap"] == 120  # default 30 per player
    state = open_all(fresh(3, seed=72, max_turns_per_player=0))
    for _ in range(200):
        state = discard_turn(state)
    assert state.round == 1 and state.turns == 200
    for bad in (-1, "3", True):
        try:
            GAME.new_game(3, 1, {"max_turns_per_player": bad})
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} accepted")
