"""2-Player Hearts (rules/hearts2p.md): 28 cards, two dead cards, hearts are trump: the
``GAME`` object.

The sibling modules hold the cards (``cards``), the one action and its text (``actions``), the
state and its snapshot (``state``), the deal and trick play (``rules``), hand scoring
(``scoring``) and the view (``view``, which documents every key).
"""

from __future__ import annotations

import json
from typing import Any

from engine.base import BadActionText, IllegalAction, Outcome, Seat, check_seat
from engine.hearts2p.actions import Play, parse_action_text
from engine.hearts2p.cards import sorted_cards
from engine.hearts2p.rules import PLAYERS, legal_plays, new_hand, play, refusal, seat_to_play
from engine.hearts2p.state import State, state_from_dict, state_to_dict
from engine.hearts2p.view import HeartsView, build_view


class HeartsGame:
    name = "hearts"
    title = "2-Player Hearts"
    lowest_wins = True
    min_players = PLAYERS
    max_players = PLAYERS

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        if players != PLAYERS:
            raise ValueError("2-Player Hearts needs exactly 2 players.")
        return new_hand(seed, 1, (0, 0), ())

    def to_act(self, state: State) -> set[Seat]:
        seat = seat_to_play(state)
        return set() if seat is None else {seat}

    def legal_actions(self, state: State, seat: Seat) -> list[Play]:
        return [Play(card) for card in sorted_cards(legal_plays(state, seat))]

    def forced(self, state: State, seat: Seat) -> Play | None:
        """The last card of a hand. A forced follow earlier is not played for the player:
        playing it at once would tell the opponent they held a single card of the suit."""
        if seat_to_play(state) != seat or len(state.hands[seat]) != 1:
            return None
        return Play(state.hands[seat][0])

    def apply(self, state: State, seat: Seat, action: Play) -> State:
        check_seat(seat, PLAYERS)
        if state.winner is not None:
            raise IllegalAction("The game is over.")
        if not isinstance(action, Play):
            raise IllegalAction("That is not a Hearts move.")
        if seat_to_play(state) != seat:
            raise IllegalAction("It is not your turn.")
        card = action.card
        if card not in state.hands[seat]:
            raise IllegalAction("That card is not in your hand.")
        legal = legal_plays(state, seat)
        if card not in legal:
            raise refusal(state)
        return play(state, seat, card)

    def parse_action(self, text: str) -> Play:
        action = parse_action_text(text)
        if action is None:
            raise BadActionText("That is not a card play.")
        return action

    def view(self, state: State, seat: Seat | None) -> HeartsView:
        return build_view(state, seat)

    def seat_view(self, state: State, seat: Seat, public: HeartsView) -> HeartsView:
        """``view(state, seat)`` from the state's public view (see engine.base.seat_view):
        a seat sees its own hand and the size of the other's, and all the public rest."""
        check_seat(seat, PLAYERS)
        return {
            **public,
            "seat": seat,
            "hand": sorted_cards(state.hands[seat]),
            "opponent_hand_size": len(state.hands[1 - seat]),
        }

    def to_json(self, state: State) -> str:
        return json.dumps(state_to_dict(state), sort_keys=True, separators=(",", ":"))

    def from_json(self, text: str) -> State:
        return state_from_dict(json.loads(text))

    def outcome(self, state: State) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome(
            totals=state.totals,
            winners=frozenset([state.winner]),
            details={"hands": state.hand_no, "lowest_total_wins": True},
        )


GAME = HeartsGame()
