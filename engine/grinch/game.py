"""Dr. Seuss: Grinch, Grow Your Heart! (rules/grinch.md), as a pure state machine.

Action texts: ``d.<card>`` (discard, Who or Grinch), ``t.deck`` (Grinch takes the deck's top
card), ``t.p<seat>`` (Grinch takes the top card of that seat's pile), ``r.<row>`` (choose a
row to score). ROUND_START and WHO_DRAW are automatic and run inside ``new_game``/``apply``,
so ``to_act`` is never empty while the game runs.

``view(state, seat)`` (``seat`` None is a spectator) is a :class:`~engine.grinch.view.GrinchView`,
whose module documents every key.

Card names and bonuses for display: :func:`card_name`, :func:`suit_of`, :func:`rank_of`,
:func:`bonus_of`, :func:`bonus_text`.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any, Final

from engine.base import BadActionText, IllegalAction, Outcome, Seat, check_seat, winners_of
from engine.grinch.scoring import (
    CARD_INDEX,
    CARDS,
    ROW_NAMES,
    ROWS,
    SUIT_NAMES,
    SUITS,
    Action,
    Bonus,
    ChooseRow,
    Discard,
    Take,
    base,
    bonus,
    bonus_of,
    bonus_text,
    canonical,
    card_name,
    parse_action_text,
    rank_of,
    row_values,
    score,
    suit_of,
)
from engine.grinch.state import GrinchState, RoundResult, state_from_dict, state_to_dict
from engine.grinch.view import GrinchRound, GrinchSeatParts, GrinchTake, GrinchView

__all__ = [
    "CARDS",
    "CARD_INDEX",
    "GAME",
    "ROUNDS",
    "ROWS",
    "ROW_NAMES",
    "SUITS",
    "SUIT_NAMES",
    "Action",
    "Bonus",
    "ChooseRow",
    "Discard",
    "GrinchState",
    "Take",
    "base",
    "bonus",
    "bonus_of",
    "bonus_text",
    "canonical",
    "card_name",
    "rank_of",
    "row_values",
    "score",
    "suit_of",
]

ROUNDS: Final = {2: 6, 3: 6, 4: 4, 5: 5, 6: 6}
TURNS: Final = 3
WHO_DISCARD: Final = "WHO_DISCARD"
GRINCH_TAKE: Final = "GRINCH_TAKE"
GRINCH_DISCARD: Final = "GRINCH_DISCARD"
SCORING: Final = "SCORING"
GAME_END: Final = "GAME_END"
PHASES: Final = (WHO_DISCARD, GRINCH_TAKE, GRINCH_DISCARD, SCORING, GAME_END)
DECK: Final = -1  # the "owner" recorded for a take from the deck


def _sorted_hand(cards: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=CARD_INDEX.__getitem__))


def _start_round(state: GrinchState, rnd: int) -> GrinchState:
    """ROUND_START, the deal and the first WHO_DRAW (section 3.2)."""
    n = state.players
    grinch = (rnd - 1) % n
    deck = list(CARDS)
    random.Random(state.key * 100 + rnd).shuffle(deck)
    hands: list[list[str]] = [[] for _ in range(n)]
    pos = 0
    for _ in range(2):
        for i in range(1, n + 1):
            hands[(grinch + i) % n].append(deck[pos])
            pos += 1
    state = replace(
        state,
        round=rnd,
        grinch=grinch,
        turn=1,
        deck=tuple(deck[pos:]),
        hands=tuple(_sorted_hand(h) for h in hands),
        piles=((),) * n,
        pending=(None,) * n,
        takes=(),
    )
    return _who_draw(state)


def _who_draw(state: GrinchState) -> GrinchState:
    """WHO_DRAW: each Who from the Grinch's left takes the top card, then the next one."""
    n = state.players
    need = 2 * (n - 1)
    if len(state.deck) < need:  # ruling 7: impossible unless the engine is wrong
        raise AssertionError("The deck ran short during WHO_DRAW.")
    hands = list(state.hands)
    pos = 0
    for i in range(1, n):
        seat = (state.grinch + i) % n
        hands[seat] = _sorted_hand([*hands[seat], *state.deck[pos : pos + 2]])
        pos += 2
    return replace(
        state,
        phase=WHO_DISCARD,
        deck=state.deck[pos:],
        hands=tuple(hands),
        pending=(None,) * n,
        takes=(),
    )


def _check_hand_sizes(state: GrinchState, size: int) -> None:
    if any(len(h) != size for h in state.hands):
        raise AssertionError(f"Every hand should hold {size} cards now.")


def _totals(state: GrinchState) -> tuple[int, ...]:
    return tuple(sum(v for v in cells if v is not None) for cells in state.sheet)


def _result_view(last: RoundResult) -> GrinchRound:
    return {
        "round": last.round,
        "grinch": last.grinch,
        "hands": [list(h) for h in last.hands],
        "rows": list(last.rows),
        "points": list(last.points),
    }


def _take_view(owner: int, card: str, me_grinch: bool) -> GrinchTake:
    """One take as a viewer sees it: a card from the deck is the Grinch's secret."""
    if owner == DECK:
        return {"source": "deck", "owner": None, "card": card if me_grinch else None}
    return {"source": "pile", "owner": owner, "card": card}


def _seat_parts(state: GrinchState, seat: Seat | None) -> GrinchSeatParts:
    """The parts of a view that differ from seat to seat: the seat's role, hand, pending card,
    row values and used rows, and the round's takes (see :func:`_take_view`)."""
    me_grinch = seat is not None and seat == state.grinch
    takes = [_take_view(owner, card, me_grinch) for owner, card in state.takes]
    simultaneous = state.phase in (WHO_DISCARD, SCORING)
    values = None
    if state.phase == SCORING and seat is not None and state.pending[seat] is None:
        values = row_values(state.hands[seat])
    return {
        "seat": seat,
        "role": None if seat is None else ("grinch" if me_grinch else "who"),
        "my_pending": state.pending[seat] if seat is not None and simultaneous else None,
        "hand": None if seat is None else list(state.hands[seat]),
        "takes": takes,
        "row_values": values,
        "used_rows": None
        if seat is None
        else [r for r, v in zip(ROWS, state.sheet[seat], strict=True) if v is not None],
    }


def _whos(state: GrinchState) -> list[Seat]:
    return [s for s in range(state.players) if s != state.grinch]


# ---------------------------------------------------------------- transitions


def _who_discard(state: GrinchState, seat: Seat, action: Action) -> GrinchState:
    if seat == state.grinch:
        raise IllegalAction("The Grinch waits while the Whos discard.")
    if state.pending[seat] is not None:
        raise IllegalAction("You have already discarded this turn.")
    if not isinstance(action, Discard):
        raise IllegalAction("Now each Who discards one card.")
    if action.card not in state.hands[seat]:
        raise IllegalAction("That card is not in your hand.")
    pending = list(state.pending)
    pending[seat] = action.card
    if any(pending[s] is None for s in _whos(state)):
        return replace(state, pending=tuple(pending))
    # Every Who is in: all discards move to their piles and become visible together.
    hands = list(state.hands)
    piles = list(state.piles)
    for s in _whos(state):
        card = pending[s]
        assert card is not None
        hands[s] = tuple(c for c in hands[s] if c != card)
        piles[s] = (*piles[s], card)
    return replace(
        state,
        phase=GRINCH_TAKE,
        hands=tuple(hands),
        piles=tuple(piles),
        pending=(None,) * state.players,
        takes=(),
    )


def _grinch_take(state: GrinchState, action: Action) -> GrinchState:
    if not isinstance(action, Take):
        raise IllegalAction("The Grinch must take a card first.")
    piles = state.piles
    deck = state.deck
    if action.pile is None:
        if not deck:  # ruling 7: never happens
            raise IllegalAction("The deck is empty.")
        card, deck, owner = deck[0], deck[1:], DECK
    else:
        owner = action.pile
        if not 0 <= owner < state.players:
            raise IllegalAction("There is no such pile.")
        if not piles[owner]:
            raise IllegalAction("That pile is empty.")
        card = piles[owner][-1]
        piles = (*piles[:owner], piles[owner][:-1], *piles[owner + 1 :])
    hands = list(state.hands)
    hands[state.grinch] = _sorted_hand([*hands[state.grinch], card])
    takes = (*state.takes, (owner, card))
    return replace(
        state,
        phase=GRINCH_DISCARD if len(takes) == 2 else GRINCH_TAKE,
        deck=deck,
        hands=tuple(hands),
        piles=piles,
        takes=takes,
    )


def _grinch_discard(state: GrinchState, action: Action) -> GrinchState:
    if not isinstance(action, Discard):
        raise IllegalAction("The Grinch must discard a card now.")
    g = state.grinch
    if action.card not in state.hands[g]:
        raise IllegalAction("That card is not in your hand.")
    hands = list(state.hands)
    hands[g] = tuple(c for c in hands[g] if c != action.card)
    piles = list(state.piles)
    piles[g] = (*piles[g], action.card)
    state = replace(state, hands=tuple(hands), piles=tuple(piles))
    _check_hand_sizes(state, state.turn + 2)  # the Grinch tile: 3, then 4, then 5
    if state.turn < TURNS:
        return _who_draw(replace(state, turn=state.turn + 1))
    return replace(state, phase=SCORING, pending=(None,) * state.players)


def _choose_row(state: GrinchState, seat: Seat, action: Action) -> GrinchState:
    if state.pending[seat] is not None:
        raise IllegalAction("You have already chosen a row this round.")
    if not isinstance(action, ChooseRow):
        raise IllegalAction("Choose a row to score your hand.")
    if action.row not in ROWS:
        raise IllegalAction("There is no such row.")
    if state.sheet[seat][ROWS.index(action.row)] is not None:
        raise IllegalAction("You have already filled that row.")
    pending = list(state.pending)
    pending[seat] = action.row
    if any(p is None for p in pending):
        return replace(state, pending=tuple(pending))
    rows = tuple(p for p in pending if p is not None)
    points = tuple(score(state.hands[s], rows[s]) for s in range(state.players))
    sheet = []
    for s, cells in enumerate(state.sheet):
        new = list(cells)
        new[ROWS.index(rows[s])] = points[s]
        sheet.append(tuple(new))
    result = RoundResult(state.round, state.grinch, state.hands, rows, points)
    state = replace(state, sheet=tuple(sheet), pending=(None,) * state.players, last_round=result)
    if state.round < ROUNDS[state.players]:
        return _start_round(state, state.round + 1)
    return replace(state, phase=GAME_END)


# ---------------------------------------------------------------- the game object


class GrinchGame:
    name = "grinch"
    title = "Grinch Grow Your Heart"
    lowest_wins = False
    min_players = 2
    max_players = 6

    def new_game(
        self, players: int, seed: int, options: dict[str, Any] | None = None
    ) -> GrinchState:
        if not isinstance(players, int) or not 2 <= players <= 6:
            raise IllegalAction("Grinch is played by 2 to 6 players.")
        empty: tuple[int | None, ...] = (None,) * len(ROWS)
        state = GrinchState(
            players=players,
            key=int(seed),
            round=0,
            grinch=0,
            turn=1,
            phase=WHO_DISCARD,
            deck=(),
            hands=((),) * players,
            piles=((),) * players,
            sheet=(empty,) * players,
            pending=(None,) * players,
            takes=(),
        )
        return _start_round(state, 1)

    def to_act(self, state: GrinchState) -> set[Seat]:
        phase = state.phase
        if phase == WHO_DISCARD:
            return {s for s in _whos(state) if state.pending[s] is None}
        if phase in (GRINCH_TAKE, GRINCH_DISCARD):
            return {state.grinch}
        if phase == SCORING:
            return {s for s in range(state.players) if state.pending[s] is None}
        return set()

    def legal_actions(self, state: GrinchState, seat: Seat) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        phase = state.phase
        if phase in (WHO_DISCARD, GRINCH_DISCARD):
            return [Discard(c) for c in state.hands[seat]]
        if phase == GRINCH_TAKE:
            takes: list[Action] = [Take(None)] if state.deck else []
            takes.extend(Take(s) for s in range(state.players) if state.piles[s])
            return takes
        cells = state.sheet[seat]
        return [ChooseRow(row) for i, row in enumerate(ROWS) if cells[i] is None]

    def forced(self, state: GrinchState, seat: Seat) -> Action | None:
        """Only the Grinch's take can come down to one choice (the deck, every pile empty:
        ruling 14 makes both takes compulsory); discards and rows never do."""
        legal = self.legal_actions(state, seat)
        return legal[0] if len(legal) == 1 else None

    def apply(self, state: GrinchState, seat: Seat, action: Action) -> GrinchState:
        if state.phase == GAME_END:
            raise IllegalAction("The game is over.")
        check_seat(seat, state.players)
        if not isinstance(action, Discard | Take | ChooseRow):
            raise IllegalAction("That is not a Grinch move.")
        phase = state.phase
        if phase == WHO_DISCARD:
            return _who_discard(state, seat, action)
        if phase == SCORING:
            return _choose_row(state, seat, action)
        if seat != state.grinch:
            raise IllegalAction("It is the Grinch's turn.")
        if phase == GRINCH_TAKE:
            return _grinch_take(state, action)
        return _grinch_discard(state, action)

    def parse_action(self, text: str) -> Action:
        action = parse_action_text(text) if isinstance(text, str) else None
        if action is None:
            raise BadActionText("That is not a Grinch move.")
        return action

    def view(self, state: GrinchState, seat: Seat | None) -> GrinchView:
        if seat is not None:
            check_seat(seat, state.players)
        n = state.players
        phase = state.phase
        simultaneous = phase in (WHO_DISCARD, SCORING)
        last = state.last_round
        outcome = self.outcome(state)
        return {
            "game": self.name,
            "players": n,
            "round": state.round,
            "rounds": ROUNDS[n],
            "grinch": state.grinch,
            "turn": state.turn,
            "heart": state.turn + 2,
            "phase": phase,
            "takes_done": len(state.takes),
            "to_act": sorted(self.to_act(state)),
            "submitted": [s for s in range(n) if state.pending[s] is not None]
            if simultaneous
            else [],
            "deck_size": len(state.deck),
            "piles": [list(p) for p in state.piles],
            "takeable": [s for s in range(n) if state.piles[s]] if phase == GRINCH_TAKE else [],
            "hand_sizes": [len(h) for h in state.hands],
            "rows": list(ROWS),
            "sheet": [dict(zip(ROWS, cells, strict=True)) for cells in state.sheet],
            "totals": list(_totals(state)),
            "last_round": None if last is None else _result_view(last),
            "outcome": None
            if outcome is None
            else {"totals": list(outcome.totals), "winners": sorted(outcome.winners)},
            **_seat_parts(state, seat),
        }

    def seat_view(self, state: GrinchState, seat: Seat, public: GrinchView) -> GrinchView:
        """``view(state, seat)`` from the state's public view (see engine.base.seat_view)."""
        check_seat(seat, state.players)
        return {**public, **_seat_parts(state, seat)}

    def to_json(self, state: GrinchState) -> str:
        data = {"game": self.name, **state_to_dict(state)}
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    def from_json(self, text: str) -> GrinchState:
        data = json.loads(text)
        if data.get("game") != self.name or data.get("phase") not in PHASES:
            raise ValueError("Not a Grinch snapshot.")
        return state_from_dict(data)

    def outcome(self, state: GrinchState) -> Outcome | None:
        if state.phase != GAME_END:
            return None
        totals = _totals(state)
        details = {"sheet": [list(c) for c in state.sheet], "rounds": ROUNDS[state.players]}
        return Outcome(totals=totals, winners=winners_of(totals), details=details)


GAME: Final = GrinchGame()
