"""Grinch, Grow Your Heart: the round flow (rules/grinch.md section 3) as pure transitions.

ROUND_START and WHO_DRAW are automatic and run inside the transitions, so someone always has
to act while the game runs. Every function returns a new state and never changes the one given.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Final

from engine.base import IllegalAction, Seat
from engine.grinch.actions import Action, ChooseRow, Discard, Take
from engine.grinch.cards import CARD_INDEX, CARDS, ROWS
from engine.grinch.scoring import score
from engine.grinch.state import GrinchState, RoundResult

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


def start_round(state: GrinchState, rnd: int) -> GrinchState:
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


def sheet_totals(state: GrinchState) -> tuple[int, ...]:
    return tuple(sum(v for v in cells if v is not None) for cells in state.sheet)


def whos(state: GrinchState) -> list[Seat]:
    return [s for s in range(state.players) if s != state.grinch]


# ---------------------------------------------------------------- transitions


def who_discard(state: GrinchState, seat: Seat, action: Action) -> GrinchState:
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
    if any(pending[s] is None for s in whos(state)):
        return replace(state, pending=tuple(pending))
    # Every Who is in: all discards move to their piles and become visible together.
    hands = list(state.hands)
    piles = list(state.piles)
    for s in whos(state):
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


def grinch_take(state: GrinchState, action: Action) -> GrinchState:
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


def grinch_discard(state: GrinchState, action: Action) -> GrinchState:
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


def choose_row(state: GrinchState, seat: Seat, action: Action) -> GrinchState:
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
        return start_round(state, state.round + 1)
    return replace(state, phase=GAME_END)
