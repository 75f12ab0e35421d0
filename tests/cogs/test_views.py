"""The publisher's memo of views and legal actions: each computed once per state and seat,
the same as the game's own answers, and bounded."""

from __future__ import annotations

from typing import Any, cast

from engine import GAMES
from engine.base import Game
from presentation.viewing import Views


class Counting:
    """A game that counts how often it is asked (the rest from Ten)."""

    def __init__(self) -> None:
        self.game = GAMES["ten"]
        self.views = 0
        self.legal = 0

    def view(self, state: Any, seat: int | None) -> Any:
        self.views += 1
        return self.game.view(state, seat)

    def legal_actions(self, state: Any, seat: int) -> list[Any]:
        self.legal += 1
        return self.game.legal_actions(state, seat)


def test_each_is_computed_once_per_state_and_seat_and_matches_the_game() -> None:
    counting, ten = Counting(), GAMES["ten"]
    game = cast(Game[Any, Any], counting)
    memo = Views()
    state = ten.new_game(3, 4)
    seat = sorted(ten.to_act(state))[0]
    wanted = [str(a) for a in ten.legal_actions(state, seat)]
    for _ in range(3):
        assert memo.legal(game, state, seat) == wanted
        assert memo.of(game, state, seat) == ten.view(state, seat)
    assert (counting.legal, counting.views) == (1, 1)
    following = ten.apply(state, seat, ten.legal_actions(state, seat)[0])
    memo.legal(game, following, seat)
    memo.legal(game, state, (seat + 1) % 3)
    assert counting.legal == 3


def test_the_oldest_are_forgotten() -> None:
    counting, ten = Counting(), GAMES["ten"]
    game = cast(Game[Any, Any], counting)
    memo = Views(kept=2)
    states = [ten.new_game(2, seed) for seed in range(3)]
    for state in states:
        memo.legal(game, state, 0)
    memo.legal(game, states[2], 0)
    assert counting.legal == 3
    memo.legal(game, states[0], 0)
    assert counting.legal == 4


def test_the_private_part_is_what_the_public_view_does_not_show() -> None:
    counting, ten = Counting(), GAMES["ten"]
    game = cast(Game[Any, Any], counting)
    memo = Views()
    state = ten.new_game(3, 7)
    public = ten.view(state, None)
    for seat in range(3):
        view = ten.view(state, seat)
        private, legal = memo.private(game, state, seat)
        assert private and private == {k: v for k, v in view.items() if public.get(k) != v}
        assert legal == [str(a) for a in ten.legal_actions(state, seat)]
        assert memo.private(game, state, seat) == (private, legal)
    # Each seat's view and the public one once; asked again, nothing is worked out again.
    assert (counting.views, counting.legal) == (4, 3)
