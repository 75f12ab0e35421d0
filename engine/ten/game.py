"""Ten (push-your-luck and auction), 1-5 players, per rules/ten.md.

The ``GAME`` object and the UI's payment helpers :func:`payment_options` and
:func:`payment_with_cards` (they read a state or any view of it). The view's docstring
(:mod:`engine.ten.view`) lists every key.

Action texts: ``draw``, ``stop``, ``take.n``, ``take.c``, ``bid.<k>``, ``pass``,
``pay.<t>.<b>[.<cards>]``, ``buy.<card>.<t>.<b>[.<cards>]``, ``nobuy``, ``decline``.
``legal_actions`` lists every legal action except that payments are reduced to one canonical
payment per bust-token count (see :mod:`engine.ten.payments`) and, when the market holds two
copies of one number card, only the first to arrive is offered; ``apply`` accepts every legal
action. :func:`payment_options` and :func:`payment_with_cards` build any other payment.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.base import Outcome, Seat
from engine.ten.actions import (
    Buy,
    Pay,
    TenAction,
    parse_action,
)
from engine.ten.payments import Payment, PaymentOption, options_for, with_cards
from engine.ten.rules import (
    actor,
    apply,
    legal_actions,
    new_game,
    outcome,
)
from engine.ten.state import TenState, state_from_json, state_to_json
from engine.ten.view import TenView, build_view, seat_view


# ---- payment helpers for the UI ------------------------------------------------------------
def _payer(source: TenState | TenView, seat: Seat) -> tuple[int, int, list[str]]:
    if isinstance(source, TenState):
        return source.tokens[seat], source.bust[seat], list(source.collections[seat])
    info = source["seats"][seat]
    return int(info["tokens"]), int(info["bust_tokens"]), list(info["collection"])


def payment_options(source: TenState | TenView, seat: Seat, price: int) -> list[PaymentOption]:
    """Every legal way (token counts and number of cards) for ``seat`` to pay ``price``.

    ``source`` is a state or any view of it. Options without cards come first, fewest bust
    tokens first ("tokens first"); then options that add cards, fewest cards first. Each option
    carries the engine's suggested cards and the payment text; to let the player choose the
    cards, use :func:`payment_with_cards`.
    """
    tokens, bust, collection = _payer(source, seat)
    return options_for(price, tokens, bust, collection)


def payment_with_cards(
    source: TenState | TenView, seat: Seat, price: int, cards: Sequence[str]
) -> Payment | None:
    """The legal payment that spends exactly ``cards`` (ids) plus tokens, or None if none.

    ``str(Pay(p))`` or ``str(Buy(card, p))`` gives the action text.
    """
    tokens, bust, collection = _payer(source, seat)
    return with_cards(price, tokens, bust, collection, cards)


# ---- the game object -----------------------------------------------------------------------
class TenGame:
    name = "ten"
    title = "Ten"
    lowest_wins = False
    min_players = 1
    max_players = 5

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> TenState:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Ten is for 1 to 5 players, not {players}.")
        return new_game(players, seed)

    def to_act(self, state: TenState) -> set[Seat]:
        seat = actor(state)
        return set() if seat is None else {seat}

    def legal_actions(self, state: TenState, seat: Seat) -> list[TenAction]:
        return legal_actions(state, seat)

    def forced(self, state: TenState, seat: Seat) -> TenAction | None:
        """A single legal move (the first draw of a turn, a stop on an empty deck, a pass
        that cannot outbid, nothing to buy, a wild that cannot be afforded). Never a payment:
        the listed payments are one per token count, and cards can pay too (rules §4.6)."""
        legal = legal_actions(state, seat)
        if len(legal) != 1 or isinstance(legal[0], Pay | Buy):
            return None
        return legal[0]

    def apply(self, state: TenState, seat: Seat, action: TenAction) -> TenState:
        return apply(state, seat, action)

    def parse_action(self, text: str) -> TenAction:
        return parse_action(text)

    def view(self, state: TenState, seat: Seat | None) -> TenView:
        return build_view(state, seat)

    def seat_view(self, state: TenState, seat: Seat, public: TenView) -> TenView:
        """``view(state, seat)`` from the state's public view (see engine.base.seat_view)."""
        return seat_view(state, seat, public)

    def to_json(self, state: TenState) -> str:
        return state_to_json(state)

    def from_json(self, text: str) -> TenState:
        return state_from_json(text)

    def outcome(self, state: TenState) -> Outcome | None:
        return outcome(state)


GAME = TenGame()
