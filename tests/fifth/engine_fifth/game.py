"""High card: each round every seat plays one card face down; the highest card takes the round.

Cards are "1" to "12" (the card's value). Each of the 2–3 seats is dealt three cards from a
deck shuffled by the seed. In each of the three rounds every seat still to play picks one card
(all at once: nobody sees another's card until the round is complete); the highest card scores
the sum of the round's cards. After three rounds the highest total wins (ties share the win).

The only action is ``"p.<card>"``, e.g. ``"p.7"``.

View keys: ``game`` "fifth", ``players``, ``seat`` (None: a spectator), ``phase`` ("play" or
"over"), ``to_act`` (sorted seats), ``round`` (1-3; 3 once over), ``hand`` (the viewer's own
cards; [] for a spectator), ``hand_sizes``, ``played`` (per seat: has played this round),
``my_card`` (the viewer's card this round, or None), ``rounds`` (every complete round:
{"cards", "winner", "points"}), ``totals`` (after the complete rounds), ``outcome`` (None, or
{"totals", "winners"}).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from typing import Any

from engine.base import BadActionText, IllegalAction, Outcome, Seat, View, check_seat, winners_of

DECK: tuple[str, ...] = tuple(str(value) for value in range(1, 13))
HAND = 3  # cards dealt to each seat, and rounds played


@dataclass(frozen=True, slots=True)
class Play:
    """Play one card from one's own hand."""

    card: str

    def __str__(self) -> str:
        return f"p.{self.card}"


@dataclass(frozen=True, slots=True)
class State:
    seed: int
    hands: tuple[tuple[str, ...], ...]
    played: tuple[str | None, ...]  # this round's cards, None: not played yet
    rounds: tuple[tuple[str, ...], ...]  # complete rounds, one card per seat

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def over(self) -> bool:
        return len(self.rounds) == HAND


def round_winner(cards: tuple[str, ...]) -> Seat:
    return max(range(len(cards)), key=lambda seat: int(cards[seat]))


def totals_of(rounds: tuple[tuple[str, ...], ...], players: int) -> tuple[int, ...]:
    totals = [0] * players
    for cards in rounds:
        totals[round_winner(cards)] += sum(int(card) for card in cards)
    return tuple(totals)


class HighCard:
    name = "fifth"
    title = "High Card"
    lowest_wins = False
    min_players = 2
    max_players = 3

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        if not self.min_players <= players <= self.max_players:
            raise ValueError("High card needs 2 or 3 players.")
        deck = list(DECK)
        random.Random(seed).shuffle(deck)
        hands = tuple(
            tuple(sorted(deck[s * HAND : (s + 1) * HAND], key=int)) for s in range(players)
        )
        return State(seed=seed, hands=hands, played=(None,) * players, rounds=())

    def to_act(self, state: State) -> set[Seat]:
        if state.over:
            return set()
        return {seat for seat, card in enumerate(state.played) if card is None}

    def legal_actions(self, state: State, seat: Seat) -> list[Play]:
        if seat not in self.to_act(state):
            return []
        return [Play(card) for card in state.hands[seat]]

    def forced(self, state: State, seat: Seat) -> Play | None:
        legal = self.legal_actions(state, seat)
        return legal[0] if len(legal) == 1 else None

    def apply(self, state: State, seat: Seat, action: Play) -> State:
        check_seat(seat, state.players)
        if state.over:
            raise IllegalAction("The game is over.")
        if not isinstance(action, Play):
            raise IllegalAction("That is not a High card move.")
        if state.played[seat] is not None:
            raise IllegalAction("You have played this round already.")
        if action.card not in state.hands[seat]:
            raise IllegalAction("That card is not in your hand.")
        hands = list(state.hands)
        hands[seat] = tuple(card for card in hands[seat] if card != action.card)
        played = list(state.played)
        played[seat] = action.card
        done = tuple(card for card in played if card is not None)
        if len(done) < state.players:
            return replace(state, hands=tuple(hands), played=tuple(played))
        return replace(
            state,
            hands=tuple(hands),
            played=(None,) * state.players,
            rounds=(*state.rounds, done),
        )

    def parse_action(self, text: str) -> Play:
        if not isinstance(text, str) or not text.startswith("p.") or text[2:] not in DECK:
            raise BadActionText("That is not a card play.")
        return Play(text[2:])

    def view(self, state: State, seat: Seat | None) -> View:
        if seat is not None:
            check_seat(seat, state.players)
        outcome = self.outcome(state)
        return {
            "game": self.name,
            "players": state.players,
            "seat": seat,
            "phase": "over" if state.over else "play",
            "to_act": sorted(self.to_act(state)),
            "round": min(len(state.rounds) + 1, HAND),
            "hand": [] if seat is None else list(state.hands[seat]),
            "hand_sizes": [len(hand) for hand in state.hands],
            "played": [card is not None for card in state.played],
            "my_card": None if seat is None else state.played[seat],
            "rounds": [
                {
                    "cards": list(cards),
                    "winner": round_winner(cards),
                    "points": sum(int(card) for card in cards),
                }
                for cards in state.rounds
            ],
            "totals": list(totals_of(state.rounds, state.players)),
            "outcome": None
            if outcome is None
            else {"totals": list(outcome.totals), "winners": sorted(outcome.winners)},
        }

    def to_json(self, state: State) -> str:
        data = {
            "seed": state.seed,
            "hands": state.hands,
            "played": state.played,
            "rounds": state.rounds,
        }
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    def from_json(self, text: str) -> State:
        data = json.loads(text)
        return State(
            seed=int(data["seed"]),
            hands=tuple(tuple(hand) for hand in data["hands"]),
            played=tuple(data["played"]),
            rounds=tuple(tuple(cards) for cards in data["rounds"]),
        )

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        totals = totals_of(state.rounds, state.players)
        return Outcome(totals=totals, winners=winners_of(totals))


GAME = HighCard()
