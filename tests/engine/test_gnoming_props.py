"""Gnoming A Round: properties over many seeded random games of 3 to 7 players.

At every step: all 110 cards are conserved, the state is well formed, illegal actions are
rejected and change nothing; views (checked on a share of the steps) hide every face-down card,
the draw pile, buried discards and a privately drawn card; a replay of seed + log is identical.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.base import BadActionText, IllegalAction
from engine.gnoming import GAME
from engine.gnoming.cards import CARD_IDS, CARD_KINDS
from engine.gnoming.scoring import score_grid
from engine.gnoming.state import State
from tests.engine.conformance import replay

ALL_TEXTS = (
    [f"op.{a}.{b}" for a in range(9) for b in range(a + 1, 9)]
    + ["dr.deck", "dr.A", "dr.B", "x", "x.A", "x.B", "nb.A", "nb.B", "pi.A", "pi.B", "nf"]
    + [f"{head}.{cell}" for head in ("pl", "bo", "fl") for cell in range(9)]
)
VIEW_KEYS = {
    "game", "title", "players", "seat", "phase", "to_act", "active", "round", "rounds",
    "start_seat", "grids", "face_down", "showing", "held", "discard", "draw_size", "removed",
    "locked",
    "bounce", "pending_discard", "opening", "hazard_flips", "final_lap", "turns", "turn_cap",
    "totals", "round_scores", "last_round", "outcome",
}  # fmt: skip


def check_state(state: State) -> None:
    assert sorted(state.all_cards()) == list(range(110))
    assert all(CARD_KINDS[c] != "H" for pile in state.piles for c in pile)
    assert all(CARD_KINDS[c] == "H" for c in state.removed)
    assert (state.held is not None) == (state.phase == "play")
    assert (state.pending is not None) == (state.phase in ("bounce", "discard"))
    assert len(set(state.locked)) == len(state.locked) and set(state.locked) <= set(range(9))
    assert state.totals == [sum(r[s] for r in state.round_scores) for s in range(state.players)]
    if state.phase in ("draw", "play", "bounce", "discard", "hazard_flips"):
        assert state.draw or state.phase != "draw", "DRAW always starts with a draw pile"


def hidden_ids(state: State, seat: int | None) -> set[str]:
    hidden = {CARD_IDS[c] for c in state.draw}
    for pile in state.piles:
        hidden |= {CARD_IDS[c] for c in pile[:-1]}
    for who in range(state.players):
        hidden |= {CARD_IDS[state.grid[who][c]] for c in state.face_down(who)}
    if state.held is not None and state.held_from == "deck" and seat != state.active:
        hidden.add(CARD_IDS[state.held])
    return hidden


def check_views(state: State) -> None:
    for seat in [*range(state.players), None]:
        view = GAME.view(state, seat)
        assert set(view) == VIEW_KEYS
        for who, grid in enumerate(view["grids"]):
            for cell, shown in enumerate(grid):
                assert shown["up"] == state.up[who][cell]
                expected = CARD_IDS[state.grid[who][cell]] if shown["up"] else None
                assert shown["card"] == expected
        public = dict(view)
        public.pop("last_round")  # the previous round's cards, dealt again since
        text = json.dumps(public)
        leaked = [card for card in hidden_ids(state, seat) if f'"{card}"' in text]
        assert not leaked, f"seat {seat} sees {leaked}"
        if state.phase == "opening":
            own = None if seat is None else state.opening[seat]
            assert view["opening"] is not None and view["opening"]["mine"] == own
        if state.phase == "hazard_flips" and seat is not None:
            assert view["hazard_flips"] is not None
            assert view["hazard_flips"]["mine"] in (None, state.flip_pick[seat])


def face_down_drop_is_own_turn(before: State, after: State, seat: int) -> None:
    if after.round != before.round or after.phase == "finished":
        return
    for who in range(before.players):
        if before.face_down(who) and not after.face_down(who):
            assert who == before.active == seat and before.phase in ("play", "bounce")


def check_illegal(state: State, rng: random.Random) -> None:
    before = GAME.to_json(state)
    seat = rng.randrange(state.players)
    legal = {str(a) for a in GAME.legal_actions(state, seat)}
    for text in rng.sample(ALL_TEXTS, 4):
        if text in legal:
            continue
        with pytest.raises(IllegalAction):
            GAME.apply(state, seat, GAME.parse_action(text))
    assert GAME.to_json(state) == before


def play_checked(players: int, seed: int, views_every: int) -> tuple[State, list[tuple[int, str]]]:
    rng = random.Random(seed * 31 + players)
    state = GAME.new_game(players, seed)
    log: list[tuple[int, str]] = []
    step = 0
    while GAME.to_act(state):
        check_state(state)
        if views_every and step % views_every == 0:
            check_views(state)
        check_illegal(state, rng)
        seat = rng.choice(sorted(GAME.to_act(state)))
        action = rng.choice(GAME.legal_actions(state, seat))
        new = GAME.apply(state, seat, action)
        face_down_drop_is_own_turn(state, new, seat)
        log.append((seat, str(action)))
        state = new
        step += 1
        assert step < 5000
    check_state(state)
    return state, log


@pytest.mark.parametrize("players", range(3, 8))
def test_random_games_keep_every_invariant(players: int) -> None:
    for seed in range(12):
        final, log = play_checked(players, 1000 + seed, views_every=7 if seed < 4 else 0)
        outcome = GAME.outcome(final)
        assert outcome is not None and outcome.totals == tuple(final.totals)
        best = min(final.totals)
        assert all(final.totals[s] == best for s in outcome.winners)
        assert len(final.round_scores) == 3
        summary = final.last_round
        assert summary is not None and summary["round"] == 3
        for entry in summary["seats"]:
            assert entry["raw"] == score_grid(entry["grid"])
            assert entry["score"] == entry["raw"] + entry["adjust"]
            assert entry["adjust"] in (-5, 0, 5)
        adjusted = [s for s, e in enumerate(summary["seats"]) if e["adjust"]]
        assert adjusted == ([] if summary["first_out"] is None else [summary["first_out"]])
        again = replay(GAME, players, 1000 + seed, log)
        assert GAME.to_json(again) == GAME.to_json(final)
        assert GAME.to_json(GAME.from_json(GAME.to_json(final))) == GAME.to_json(final)


def test_snapshots_round_trip_mid_game() -> None:
    rng = random.Random(5)
    for players in range(3, 8):
        state = GAME.new_game(players, players)
        for _ in range(300):
            seats = sorted(GAME.to_act(state))
            if not seats:
                break
            text = GAME.to_json(state)
            copy = GAME.from_json(text)
            assert GAME.to_json(copy) == text
            seat = rng.choice(seats)
            action = rng.choice(GAME.legal_actions(state, seat))
            assert GAME.to_json(GAME.apply(copy, seat, action)) == GAME.to_json(
                GAME.apply(state, seat, action)
            )
            state = GAME.apply(state, seat, action)


class _NeverPlace:
    """Draws from the deck and always discards: only the stall cap can end a round."""

    def choose(self, legal: list[Any], rng: random.Random) -> Any:
        texts = {str(a): a for a in legal}
        for wanted in ("dr.deck", "x", "x.A", "x.B", "nf"):
            if wanted in texts:
                return texts[wanted]
        return rng.choice(legal)


@pytest.mark.parametrize("players", [3, 7])
def test_stall_cap_ends_games_that_never_progress(players: int) -> None:
    rng = random.Random(players)
    policy = _NeverPlace()
    state = GAME.new_game(players, 77, {"max_turns_per_player": 5})
    stalled_rounds = 0
    last = 0
    while GAME.to_act(state):
        seat = sorted(GAME.to_act(state))[0]
        state = GAME.apply(state, seat, policy.choose(GAME.legal_actions(state, seat), rng))
        if state.last_round is not None and state.last_round["round"] != last:
            last = state.last_round["round"]
            assert state.last_round["stalled"]
            stalled_rounds += 1
        check_state(state)
    assert stalled_rounds == 3 and GAME.outcome(state) is not None


def test_random_games_end_with_someone_going_out() -> None:
    outs = 0
    for seed in range(10):
        final, _ = play_checked(4, 2000 + seed, views_every=0)
        assert final.last_round is not None
        outs += final.last_round["first_out"] is not None
    assert outs >= 5


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="opdrx.ABlbnfic0123456789ek-", max_size=9))
def test_action_text_parses_back_or_is_rejected(text: str) -> None:
    try:
        action = GAME.parse_action(text)
    except BadActionText:
        return
    assert str(action) == text and text in ALL_TEXTS


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=12))
def test_arbitrary_text_never_crashes_the_parser(text: str) -> None:
    try:
        action = GAME.parse_action(text)
    except BadActionText:
        return
    assert str(action) == text
