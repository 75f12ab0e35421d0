"""Gnoming A Round's computer players by level: legal moves, determinism, no peeking."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from engine import policy_for
from engine.base import Level, Policy, RandomPolicy
from engine.gnoming import GAME
from engine.gnoming.ai import POLICIES, POLICY
from engine.gnoming.ai.easy import EasyPolicy
from engine.gnoming.ai.hard import HardPolicy, final_value
from engine.gnoming.ai.normal import Cell, GnomePolicy
from engine.gnoming.scoring import score_kinds
from engine.gnoming.state import State

LEVELS = (Level.EASY, Level.NORMAL, Level.HARD)


def positions(players: int, seed: int) -> Iterator[tuple[State, int]]:
    """Every (state, seat to act) of one game played by random players."""
    rng = random.Random(seed)
    state = GAME.new_game(players, seed, {"max_turns_per_player": 6})
    while GAME.to_act(state):
        seat = min(GAME.to_act(state))
        yield state, seat
        state = GAME.apply(
            state, seat, RandomPolicy().choose({}, GAME.legal_actions(state, seat), rng)
        )


def test_each_level_is_registered_and_normal_is_todays_player() -> None:
    assert POLICIES[Level.NORMAL] is POLICY
    assert isinstance(POLICY, GnomePolicy)
    assert isinstance(POLICIES[Level.EASY], EasyPolicy)
    assert isinstance(POLICIES[Level.HARD], HardPolicy)
    for level in LEVELS:
        assert policy_for("gnome", level) is POLICIES[level]


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (5, 2), (7, 3)])
def test_every_level_answers_legally_in_random_positions(players: int, seed: int) -> None:
    asked = 0
    for step, (state, seat) in enumerate(positions(players, seed)):
        if step % 4:
            continue
        legal = GAME.legal_actions(state, seat)
        view = GAME.view(state, seat)
        for level in LEVELS:
            action = POLICIES[level].choose(view, legal, random.Random(step))
            assert action in legal, (level, state.phase, action)
            asked += 1
    assert asked > 60


def test_every_level_plays_whole_games_to_the_end() -> None:
    for players, levels in ((4, (Level.HARD, Level.EASY, Level.NORMAL, Level.EASY)),):
        policies: list[Policy] = [POLICIES[level] for level in levels]
        state = GAME.new_game(players, 42)
        rng = random.Random(42)
        while GAME.to_act(state):
            seat = min(GAME.to_act(state))
            legal = GAME.legal_actions(state, seat)
            state = GAME.apply(
                state, seat, policies[seat].choose(GAME.view(state, seat), legal, rng)
            )
        assert GAME.outcome(state) is not None


def reshuffle_hidden(state: State, seed: int) -> State:
    """A copy of ``state`` whose hidden cards (every face-down cell, the draw pile and the
    cards under the discard tops) have changed places: any seat's view is unchanged."""
    other = state.copy()
    slots: list[tuple[str, int, int]] = []
    for who in range(other.players):
        slots += [("grid", who, cell) for cell in other.face_down(who)]
    slots += [("draw", 0, i) for i in range(len(other.draw))]
    for p, pile in enumerate(other.piles):
        slots += [("pile", p, i) for i in range(len(pile) - 1)]

    def cards_of(where: State) -> list[int]:
        out = []
        for kind, a, b in slots:
            out.append(
                where.grid[a][b]
                if kind == "grid"
                else where.draw[b]
                if kind == "draw"
                else where.piles[a][b]
            )
        return out

    cards = cards_of(other)
    random.Random(seed).shuffle(cards)
    for (kind, a, b), card in zip(slots, cards, strict=True):
        if kind == "grid":
            other.grid[a][b] = card
        elif kind == "draw":
            other.draw[b] = card
        else:
            other.piles[a][b] = card
    return other


def decision_points(players: int, seed: int, every: int) -> Iterator[tuple[State, int]]:
    """Positions of a game between normal players where a seat has a real choice to make:
    every ``every``-th one, and each one where the seat is about to go out or plays its
    last turn of a round."""
    rng = random.Random(seed)
    state = GAME.new_game(players, seed)
    step = 0
    while GAME.to_act(state):
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        if state.phase != "opening" and len(legal) > 1:
            late = state.first_out is not None or len(state.face_down(seat)) <= 1
            if late or step % every == 0:
                yield state, seat
            step += 1
        state = GAME.apply(state, seat, POLICY.choose(GAME.view(state, seat), legal, rng))


@pytest.mark.parametrize("level", [Level.HARD, Level.EASY])
def test_a_level_cannot_read_the_cards_it_does_not_see(level: Level) -> None:
    policy = POLICIES[level]
    checked = late = 0
    phases: set[str] = set()
    for step, (state, seat) in enumerate(decision_points(4, 9, 8)):
        other = reshuffle_hidden(state, step)
        assert (other.grid, other.draw) != (state.grid, state.draw)
        view = GAME.view(state, seat)
        assert GAME.view(other, seat) == view
        legal = GAME.legal_actions(state, seat)
        assert GAME.legal_actions(other, seat) == legal
        mine = policy.choose(view, legal, random.Random(step))
        again = policy.choose(GAME.view(other, seat), legal, random.Random(step))
        assert mine == again, (state.phase, mine, again)
        checked += 1
        phases.add(state.phase)
        late += state.first_out is not None
    assert checked >= 20 and late >= 5
    assert {"draw", "play", "hazard_flips"} <= phases


@pytest.fixture(scope="module")
def some_points() -> list[tuple[State, int]]:
    return list(decision_points(3, 5, 5))


@pytest.mark.parametrize("level", LEVELS)
def test_a_level_is_deterministic_for_a_seed(
    level: Level, some_points: list[tuple[State, int]]
) -> None:
    policy = POLICIES[level]
    choices: list[list[Any]] = [[], []]
    for run in range(2):
        for step, (state, seat) in enumerate(some_points):
            legal = GAME.legal_actions(state, seat)
            choices[run].append(policy.choose(GAME.view(state, seat), legal, random.Random(step)))
    assert choices[0] == choices[1]
    assert len(choices[0]) > 50


def exact_final(cells: list[Cell], unseen: Counter[Cell]) -> float:
    """The expected score of a grid with one face-down cell, over every unseen card."""
    down = cells.index(None)
    total = sum(unseen.values())
    expected = 0.0
    for card, count in unseen.items():
        filled = [card if c is None else c for c in cells]
        kinds = [c[0] for c in filled if c is not None]
        values = [c[1] for c in filled if c is not None]
        expected += count / total * score_kinds(kinds, values).raw
    assert cells[down] is None
    return expected


@pytest.mark.parametrize(
    "grid",
    [
        "6 6 . / 3 4 5 / 7 8 3",  # a row of 6s waiting for its third card
        "5 5 . / 5 3 4 / 5 7 8",  # the pair's first cell is in a matched column already
        "M 4 . / 7 3 5 / 7 8 6",  # a wild mulligan and a 4
        "3 4 . / -1 H 5 / 7 8 6",  # nothing to complete
    ],
)
def test_the_last_turn_valuation_is_exact_with_one_face_down_cell(grid: str) -> None:
    cells: list[Cell] = []
    for text in grid.replace("/", " ").split():
        if text == ".":
            cells.append(None)
        elif text in "HM":
            cells.append((text, 10 if text == "H" else 0))
        else:
            cells.append(("P" if int(text) > 0 else "N", int(text)))
    cards: dict[tuple[str, int], int] = {("P", 6): 9, ("P", 5): 7, ("P", 4): 5, ("M", 0): 2}
    cards |= {("N", -2): 4, ("H", 10): 1}
    unseen: Counter[Cell] = Counter(cards)
    total = sum(cards.values())
    chance: dict[Cell, float] = {card: k / total for card, k in cards.items()}
    mean = sum(card[1] * k for card, k in cards.items()) / total
    assert final_value(cells, chance, mean) == pytest.approx(exact_final(cells, unseen))
