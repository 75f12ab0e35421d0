"""2-Player Hearts (rules/hearts2p.md): 28 cards, two dead cards, hearts are trump.

The only action is playing a card: text ``"p.<card>"``, e.g. ``"p.QS"``, ``"p.10H"``.
After the 13th trick the hand is scored at once and, unless the game is over, the next hand
is dealt in the same ``apply`` (there is nothing for a player to confirm between hands).

``view(state, seat)`` (``seat`` None is a spectator) is a :class:`~engine.hearts2p.view.HeartsView`,
whose module documents every key.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from engine.base import BadActionText, IllegalAction, Outcome, Seat, check_seat
from engine.hearts2p.rules import (
    CARD_INDEX,
    DECK,
    HEARTS,
    POINT_CARDS,
    QUEEN_OF_SPADES,
    RANK_NAMES,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    TRICKS_PER_HAND,
    card_label,
    card_name,
    card_points,
    deal,
    dealer_of,
    game_winner,
    hand_rng,
    legal_cards,
    points_of,
    rank,
    rank_name,
    rank_value,
    score_hand,
    shuffled_deck,
    sort_key,
    sorted_cards,
    suit,
    suit_symbol,
    trick_winner,
)
from engine.hearts2p.view import HeartsLastHand, HeartsPlay, HeartsTrick, HeartsView

__all__ = [
    "CARD_INDEX",
    "DECK",
    "GAME",
    "HEARTS",
    "POINT_CARDS",
    "QUEEN_OF_SPADES",
    "RANK_NAMES",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "HandRecord",
    "HeartsGame",
    "Play",
    "State",
    "card_label",
    "card_name",
    "card_points",
    "legal_cards",
    "rank",
    "rank_name",
    "rank_value",
    "sort_key",
    "sorted_cards",
    "suit",
    "suit_symbol",
    "trick_winner",
]

PLAYERS = 2

# A completed trick: (leader, leader's card, follower's card, winner).
Trick = tuple[Seat, str, str, Seat]


@dataclass(frozen=True, slots=True)
class Play:
    """Play one card from one's own hand."""

    card: str

    def __str__(self) -> str:
        return f"p.{self.card}"


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A scored hand, kept for the score sheet and the round summary."""

    hand_no: int
    dead: tuple[str, str]
    raw: tuple[int, int]
    points: tuple[int, int]
    moon: Seat | None
    totals: tuple[int, int]  # after this hand
    point_cards: tuple[tuple[str, ...], tuple[str, ...]]  # taken by each seat
    last_trick: Trick


@dataclass(frozen=True, slots=True)
class State:
    seed: int
    hand_no: int
    dealer: Seat
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    dead: tuple[str, str]
    opening_card: str
    leader: Seat
    trick: tuple[tuple[Seat, str], ...]
    trick_no: int
    hearts_broken: bool
    won: tuple[tuple[str, ...], tuple[str, ...]]
    history: tuple[Trick, ...]
    totals: tuple[int, int]
    records: tuple[HandRecord, ...]
    winner: Seat | None  # set once the game is over


def _new_hand(
    seed: int, hand_no: int, totals: tuple[int, int], records: tuple[HandRecord, ...]
) -> State:
    dealer = dealer_of(hand_no)
    dealt = deal(shuffled_deck(hand_rng(seed, hand_no)), dealer)
    return State(
        seed=seed,
        hand_no=hand_no,
        dealer=dealer,
        hands=dealt.hands,
        dead=dealt.dead,
        opening_card=dealt.opening_card,
        leader=dealt.opening_seat,
        trick=(),
        trick_no=1,
        hearts_broken=False,
        won=((), ()),
        history=(),
        totals=totals,
        records=records,
        winner=None,
    )


def _to_act(state: State) -> Seat | None:
    if state.winner is not None:
        return None
    return state.leader if not state.trick else 1 - state.leader


def _legal(state: State, seat: Seat) -> set[str]:
    if _to_act(state) != seat:
        return set()
    return legal_cards(
        state.hands[seat],
        [card for _, card in state.trick],
        state.hearts_broken,
        state.trick_no,
        state.opening_card,
    )


def _pair(values: Any) -> tuple[Any, Any]:
    first, second = values
    return (first, second)


def _trick_view(trick: Trick) -> HeartsTrick:
    leader, led, followed, winner = trick
    return {
        "leader": leader,
        "cards": [{"seat": leader, "card": led}, {"seat": 1 - leader, "card": followed}],
        "winner": winner,
        "points": card_points(led) + card_points(followed),
    }


class HeartsGame:
    name = "hearts"
    title = "2-Player Hearts"
    lowest_wins = True
    min_players = PLAYERS
    max_players = PLAYERS

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        if players != PLAYERS:
            raise ValueError("2-Player Hearts needs exactly 2 players.")
        return _new_hand(seed, 1, (0, 0), ())

    def to_act(self, state: State) -> set[Seat]:
        seat = _to_act(state)
        return set() if seat is None else {seat}

    def legal_actions(self, state: State, seat: Seat) -> list[Play]:
        return [Play(card) for card in sorted_cards(_legal(state, seat))]

    def forced(self, state: State, seat: Seat) -> Play | None:
        """The last card of a hand. A forced follow earlier is not played for the player:
        playing it at once would tell the opponent they held a single card of the suit."""
        if _to_act(state) != seat or len(state.hands[seat]) != 1:
            return None
        return Play(state.hands[seat][0])

    def apply(self, state: State, seat: Seat, action: Play) -> State:
        check_seat(seat, PLAYERS)
        if state.winner is not None:
            raise IllegalAction("The game is over.")
        if not isinstance(action, Play):
            raise IllegalAction("That is not a Hearts move.")
        if _to_act(state) != seat:
            raise IllegalAction("It is not your turn.")
        card = action.card
        if card not in state.hands[seat]:
            raise IllegalAction("That card is not in your hand.")
        legal = _legal(state, seat)
        if card not in legal:
            raise _refusal(state)
        hands = list(state.hands)
        hands[seat] = tuple(c for c in state.hands[seat] if c != card)
        trick = (*state.trick, (seat, card))
        broken = state.hearts_broken or suit(card) == HEARTS
        if len(trick) < 2:
            return replace(state, hands=_pair(hands), trick=trick, hearts_broken=broken)
        (leader, led), (_, followed) = trick
        winner = leader if trick_winner(led, followed) == 0 else 1 - leader
        won = list(state.won)
        won[winner] = (*won[winner], led, followed)
        history = (*state.history, (leader, led, followed, winner))
        done = replace(
            state,
            hands=_pair(hands),
            trick=(),
            hearts_broken=broken,
            won=_pair(won),
            history=history,
        )
        if state.trick_no < TRICKS_PER_HAND:
            return replace(done, trick_no=state.trick_no + 1, leader=winner)
        return _end_hand(done)

    def parse_action(self, text: str) -> Play:
        if not isinstance(text, str) or not text.startswith("p.") or text[2:] not in CARD_INDEX:
            raise BadActionText("That is not a card play.")
        return Play(text[2:])

    def view(self, state: State, seat: Seat | None) -> HeartsView:
        return _view(state, seat)

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
        return json.dumps(_state_dict(state), sort_keys=True, separators=(",", ":"))

    def from_json(self, text: str) -> State:
        return _state_from_dict(json.loads(text))

    def outcome(self, state: State) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome(
            totals=state.totals,
            winners=frozenset([state.winner]),
            details={"hands": state.hand_no, "lowest_total_wins": True},
        )


def _refusal(state: State) -> IllegalAction:
    """Why a card in hand may not be played now (a template and its values, for translation).

    Cards are shown as rank and suit symbol ("2\u2663"), which every language reads alike.
    """
    if not state.trick:
        if state.trick_no == 1:
            return IllegalAction(
                "The first trick must be opened with {card}.",
                card=card_label(state.opening_card),
            )
        return IllegalAction("Hearts are not broken yet: lead another suit.")
    led = suit(state.trick[0][1])
    return IllegalAction("You must follow suit ({suit}).", suit=SUIT_SYMBOLS[led])


def _end_hand(state: State) -> State:
    """Score the finished hand (5.1-5.2), check the end (5.3), deal the next hand."""
    score = score_hand(state.won, state.dead)
    totals = (state.totals[0] + score.points[0], state.totals[1] + score.points[1])
    record = HandRecord(
        hand_no=state.hand_no,
        dead=state.dead,
        raw=score.raw,
        points=score.points,
        moon=score.moon,
        totals=totals,
        point_cards=_pair(tuple(sorted_cards(c for c in w if c in POINT_CARDS)) for w in state.won),
        last_trick=state.history[-1],
    )
    records = (*state.records, record)
    winner = game_winner(totals)
    if winner is not None:
        # The final hand stays on the table (empty hands, its tricks visible).
        return replace(state, totals=totals, records=records, winner=winner)
    return _new_hand(state.seed, state.hand_no + 1, totals, records)


def _view(state: State, seat: Seat | None) -> HeartsView:
    if seat is not None:
        check_seat(seat, PLAYERS)
    actor = _to_act(state)
    played: list[HeartsPlay] = []
    for leader, led, followed, _ in state.history:
        played.append({"seat": leader, "card": led})
        played.append({"seat": 1 - leader, "card": followed})
    played.extend({"seat": s, "card": c} for s, c in state.trick)
    tricks = [_trick_view(t) for t in state.history]
    last = state.records[-1] if state.records else None
    finished = state.winner is not None
    return {
        "game": "hearts",
        "players": PLAYERS,
        "seat": seat,
        "phase": "over" if finished else "play",
        "to_act": [] if actor is None else [actor],
        "hand_no": state.hand_no,
        "dealer": state.dealer,
        "leader": state.leader,
        "trick_no": state.trick_no,
        "hearts_broken": state.hearts_broken,
        "opening_card": state.opening_card,
        "hand": sorted_cards(state.hands[seat]) if seat is not None else [],
        "hand_sizes": [len(h) for h in state.hands],
        "opponent_hand_size": len(state.hands[1 - seat]) if seat is not None else None,
        "trick": [{"seat": s, "card": c} for s, c in state.trick],
        "last_trick": tricks[-1] if tricks else None,
        "tricks": tricks,
        "played": played,
        "taken": [
            {
                "points": points_of(pile),
                "cards": sorted_cards(pile),
                "point_cards": sorted_cards(c for c in pile if c in POINT_CARDS),
            }
            for pile in state.won
        ],
        # Totals of every scored hand (once the game is over, the final hand included).
        "totals": list(state.totals),
        "hands_history": [
            {"hand_no": r.hand_no, "points": list(r.points), "raw": list(r.raw), "moon": r.moon}
            for r in state.records
        ],
        "last_hand": None if last is None else _record_view(last),
        "outcome": (
            None
            if state.winner is None
            else {"totals": list(state.totals), "winners": [state.winner]}
        ),
    }


def _record_view(record: HandRecord) -> HeartsLastHand:
    return {
        "hand_no": record.hand_no,
        "dead": list(record.dead),
        "raw": list(record.raw),
        "points": list(record.points),
        "moon": record.moon,
        "totals": list(record.totals),
        "point_cards": [list(p) for p in record.point_cards],
        "last_trick": _trick_view(record.last_trick),
    }


def _state_dict(state: State) -> dict[str, Any]:
    return {
        "seed": state.seed,
        "hand_no": state.hand_no,
        "dealer": state.dealer,
        "hands": [list(h) for h in state.hands],
        "dead": list(state.dead),
        "opening_card": state.opening_card,
        "leader": state.leader,
        "trick": [list(p) for p in state.trick],
        "trick_no": state.trick_no,
        "hearts_broken": state.hearts_broken,
        "won": [list(w) for w in state.won],
        "history": [list(t) for t in state.history],
        "totals": list(state.totals),
        "records": [
            {
                "hand_no": r.hand_no,
                "dead": list(r.dead),
                "raw": list(r.raw),
                "points": list(r.points),
                "moon": r.moon,
                "totals": list(r.totals),
                "point_cards": [list(p) for p in r.point_cards],
                "last_trick": list(r.last_trick),
            }
            for r in state.records
        ],
        "winner": state.winner,
    }


def _trick_from(values: list[Any]) -> Trick:
    leader, led, followed, winner = values
    return (int(leader), str(led), str(followed), int(winner))


def _state_from_dict(data: dict[str, Any]) -> State:
    return State(
        seed=int(data["seed"]),
        hand_no=int(data["hand_no"]),
        dealer=int(data["dealer"]),
        hands=_pair(tuple(h) for h in data["hands"]),
        dead=_pair(data["dead"]),
        opening_card=str(data["opening_card"]),
        leader=int(data["leader"]),
        trick=tuple((int(s), str(c)) for s, c in data["trick"]),
        trick_no=int(data["trick_no"]),
        hearts_broken=bool(data["hearts_broken"]),
        won=_pair(tuple(w) for w in data["won"]),
        history=tuple(_trick_from(t) for t in data["history"]),
        totals=_pair(data["totals"]),
        records=tuple(
            HandRecord(
                hand_no=int(r["hand_no"]),
                dead=_pair(r["dead"]),
                raw=_pair(r["raw"]),
                points=_pair(r["points"]),
                moon=r["moon"],
                totals=_pair(r["totals"]),
                point_cards=_pair(tuple(p) for p in r["point_cards"]),
                last_trick=_trick_from(r["last_trick"]),
            )
            for r in data["records"]
        ),
        winner=data["winner"],
    )


GAME = HeartsGame()
