"""Gnoming A Round: round setup and the turn state machine (rules §3-§7).

Functions named ``_do_*`` / ``deal_round`` / ``end_turn`` mutate the state they are given;
``engine.gnoming`` only ever hands them a fresh copy, so ``apply`` stays pure.
"""

from __future__ import annotations

import random

from engine.base import IllegalAction
from engine.gnoming.actions import (
    PILES,
    Bounce,
    ChoosePile,
    Discard,
    Draw,
    Flip,
    GnomeAction,
    NoBounce,
    NoFlip,
    Open,
    Pile,
    Place,
)
from engine.gnoming.cards import CARD_IDS, CARD_KINDS, CARD_VALUES, DECK_SIZE, GRID_CELLS, LINES
from engine.gnoming.scoring import first_out_adjustments, score_cards
from engine.gnoming.state import NO_PICK, ROUNDS, State

OPEN_PAIRS: tuple[Open, ...] = tuple(
    Open(a, b) for a in range(GRID_CELLS) for b in range(a + 1, GRID_CELLS)
)
_PILE_INDEX: dict[Pile, int] = {"A": 0, "B": 1}


# ---------------------------------------------------------------- randomness and setup


def _shuffle(state: State, cards: list[int]) -> None:
    """Shuffle in place with the round's next RNG stream (seed, round, shuffle number)."""
    rng = random.Random(f"gnome/{state.seed}/{state.round}/{state.shuffles}")
    state.shuffles += 1
    rng.shuffle(cards)


def deal_round(state: State) -> None:
    """Round setup (§3): shuffle all 110 cards (R6), deal from the round's first player,
    start piles A and B (a hazard turned up is shuffled back, R5), enter OPENING."""
    n = state.players
    state.shuffles = 0
    cards = list(range(DECK_SIZE))
    _shuffle(state, cards)
    start = state.start_seat
    state.grid = [[] for _ in range(n)]
    for k in range(n):
        state.grid[(start + k) % n] = cards[GRID_CELLS * k : GRID_CELLS * (k + 1)]
    state.draw = cards[GRID_CELLS * n :]
    state.piles = [[], []]
    for pile in state.piles:
        while True:
            card = state.draw.pop(0)
            if CARD_KINDS[card] != "H":
                pile.append(card)
                break
            state.draw.append(card)
            _shuffle(state, state.draw)
    state.up = [[False] * GRID_CELLS for _ in range(n)]
    state.removed = []
    state.held = None
    state.held_from = None
    state.pending = None
    state.locked = []
    state.opening = [None] * n
    state.flip_wait = []
    state.flip_pick = [NO_PICK] * n
    state.first_out = None
    state.lap = []
    state.turns = 0
    state.phase = "opening"
    state.active = start


def _begin_turn(state: State, seat: int) -> None:
    """Start ``seat``'s turn at DRAW, rebuilding an empty draw pile first (R7)."""
    state.active = seat
    state.locked = []
    state.phase = "draw"
    if not state.draw:
        below = state.piles[0][:-1] + state.piles[1][:-1]
        state.piles = [pile[-1:] for pile in state.piles]
        _shuffle(state, below)
        state.draw = below


# ---------------------------------------------------------------- queries


def pile_targets(state: State) -> tuple[Pile, ...]:
    """Piles a non-hazard discard may go to: the empty one if exactly one is empty (R12)."""
    empty = [pile for pile, cards in zip(PILES, state.piles, strict=True) if not cards]
    return (empty[0],) if len(empty) == 1 else PILES


def may_place(state: State, seat: int, cell: int) -> bool:
    """A held mulligan may not go in while another cell holds a face-up mulligan (R13)."""
    if state.held is None or CARD_KINDS[state.held] != "M":
        return True
    grid, up = state.grid[seat], state.up[seat]
    return not any(
        up[other] and CARD_KINDS[grid[other]] == "M" for other in range(GRID_CELLS) if other != cell
    )


def bounce_targets(state: State) -> list[int]:
    return [cell for cell in range(GRID_CELLS) if cell not in state.locked]


def can_bounce(state: State, card: int, was_down: bool) -> bool:
    """Bounce check (§4, R9): a positive card that was face down matches a face-up positive."""
    if not was_down or CARD_KINDS[card] != "P":
        return False
    value = CARD_VALUES[card]
    grid, up = state.grid[state.active], state.up[state.active]
    if not any(
        up[cell] and CARD_KINDS[grid[cell]] == "P" and CARD_VALUES[grid[cell]] == value
        for cell in range(GRID_CELLS)
    ):
        return False
    # Always true in play (locked cells come from face-down ones, at most 7); kept for safety.
    return bool(bounce_targets(state))


def flip_eligible(state: State, seat: int) -> bool:
    """May flip after a hazard discard: not the active player, and 2+ face-down cards (R10)."""
    return seat != state.active and len(state.face_down(seat)) >= 2


def to_act(state: State) -> set[int]:
    if state.phase == "finished":
        return set()
    if state.phase == "opening":
        return {seat for seat, pick in enumerate(state.opening) if pick is None}
    if state.phase == "hazard_flips":
        return set(state.flip_wait)
    return {state.active}


def legal_actions(state: State, seat: int) -> list[GnomeAction]:
    if seat not in to_act(state):
        return []
    phase = state.phase
    if phase == "opening":
        return list(OPEN_PAIRS)
    if phase == "draw":
        draws: list[GnomeAction] = [Draw("deck")]
        draws += [Draw(pile) for pile, cards in zip(PILES, state.piles, strict=True) if cards]
        return draws
    if phase == "play":
        assert state.held is not None
        plays: list[GnomeAction] = [
            Place(cell) for cell in range(GRID_CELLS) if may_place(state, seat, cell)
        ]
        if CARD_KINDS[state.held] == "H":
            plays.append(Discard(None))
        else:
            plays += [Discard(pile) for pile in pile_targets(state)]
        return plays
    if phase == "bounce":
        bounces: list[GnomeAction] = [Bounce(cell) for cell in bounce_targets(state)]
        return bounces + [NoBounce(pile) for pile in pile_targets(state)]
    if phase == "discard":
        return [ChoosePile(pile) for pile in pile_targets(state)]
    # hazard_flips
    flips: list[GnomeAction] = [Flip(cell) for cell in state.face_down(seat)]
    return [*flips, NoFlip()]


def why_illegal(state: State, seat: int, action: GnomeAction) -> IllegalAction:
    """The error to raise for a syntactically valid action that is not legal now.

    Its reason is a short sentence (a template the catalogs list, with named values).
    """
    phase = state.phase
    if phase == "finished":
        return IllegalAction("The game is over.")
    if seat not in to_act(state):
        if phase in ("opening", "hazard_flips"):
            if phase == "hazard_flips" and not flip_eligible(state, seat):
                return IllegalAction("You have nothing to flip now.")
            return IllegalAction("You have already chosen; waiting for the others.")
        return IllegalAction("It is not your turn.")
    if phase == "opening":
        return IllegalAction("Choose two different positions of your grid to turn up.")
    if phase == "draw":
        if isinstance(action, Draw):
            return IllegalAction("That discard pile is empty.")
        return IllegalAction("Draw a card first: from the deck or a discard pile.")
    if phase == "play":
        if isinstance(action, Place):
            return IllegalAction("You already have a face-up mulligan in your grid.")
        if isinstance(action, Discard):
            return _discard_reason(state, state.held)
        return IllegalAction("Place the card you hold in your grid or discard it.")
    if phase == "bounce":
        if isinstance(action, Bounce):
            return IllegalAction("That position was already filled this turn.")
        if isinstance(action, NoBounce):
            return _discard_reason(state, state.pending)
        return IllegalAction("Bounce the revealed card to another position, or discard it.")
    if phase == "discard":
        return IllegalAction("Choose discard pile A or B.")
    if isinstance(action, Flip):
        return IllegalAction("You can only turn up one of your own face-down cards.")
    return IllegalAction("Turn up one of your face-down cards, or decline.")


def _discard_reason(state: State, card: int | None) -> IllegalAction:
    if card is not None and CARD_KINDS[card] == "H":
        return IllegalAction("A discarded hazard leaves play; it goes on no pile.")
    targets = pile_targets(state)
    if len(targets) == 1:
        return IllegalAction("Pile {pile} is empty, so the card must go there.", pile=targets[0])
    return IllegalAction("Only a hazard is discarded without a pile.")


# ---------------------------------------------------------------- transitions


def do_action(state: State, seat: int, action: GnomeAction) -> None:
    """Apply a legal action to ``state`` in place (the caller checked legality)."""
    if isinstance(action, Open):
        _do_open(state, seat, action)
    elif isinstance(action, Draw):
        if action.source == "deck":
            state.held = state.draw.pop(0)
        else:
            state.held = state.piles[_PILE_INDEX[action.source]].pop()
        state.held_from = action.source
        state.phase = "play"
    elif isinstance(action, Place):
        _do_place(state, action.cell)
    elif isinstance(action, Discard):
        card = state.held
        assert card is not None
        state.held = None
        state.held_from = None
        _discard(state, card, action.pile)
    elif isinstance(action, Bounce):
        _do_bounce(state, action.cell)
    elif isinstance(action, NoBounce | ChoosePile):
        card = state.pending
        assert card is not None
        state.pending = None
        _discard(state, card, action.pile)
    elif isinstance(action, Flip | NoFlip):
        _do_flip_answer(state, seat, action)
    else:  # pragma: no cover - the union is exhaustive
        raise IllegalAction("Unknown action.")


def _do_open(state: State, seat: int, action: Open) -> None:
    state.opening[seat] = [action.a, action.b]
    if any(pick is None for pick in state.opening):
        return
    for who, pick in enumerate(state.opening):  # R4: all picks turn up at once
        assert pick is not None
        for cell in pick:
            state.up[who][cell] = True
    state.opening = []
    _begin_turn(state, state.start_seat)


def _do_place(state: State, cell: int) -> None:
    card = state.held
    assert card is not None
    state.held = None
    state.held_from = None
    _put_face_up(state, cell, card)


def _do_bounce(state: State, cell: int) -> None:
    card = state.pending
    assert card is not None
    state.pending = None
    _put_face_up(state, cell, card)


def _put_face_up(state: State, cell: int, card: int) -> None:
    """Lay ``card`` face up at the active seat's ``cell``, lock the cell and go on with the
    card it replaces."""
    seat = state.active
    removed = state.grid[seat][cell]
    was_down = not state.up[seat][cell]
    state.grid[seat][cell] = card
    state.up[seat][cell] = True
    state.locked.append(cell)
    _after_removal(state, removed, was_down)


def _after_removal(state: State, card: int, was_down: bool) -> None:
    if can_bounce(state, card, was_down):
        state.phase = "bounce"
        state.pending = card
        return
    targets = pile_targets(state)
    if CARD_KINDS[card] == "H" or len(targets) == 1:
        _discard(state, card, None if CARD_KINDS[card] == "H" else targets[0])
    else:
        state.phase = "discard"
        state.pending = card


def _discard(state: State, card: int, pile: Pile | None) -> None:
    """DISCARD (§4): a hazard leaves play and opens HAZARD_FLIPS; any other card goes on
    ``pile`` and the turn ends."""
    if CARD_KINDS[card] == "H":
        state.removed.append(card)
        _start_flips(state)
        return
    assert pile is not None
    state.piles[_PILE_INDEX[pile]].append(card)
    end_turn(state)


def _start_flips(state: State) -> None:
    waiting = [seat for seat in range(state.players) if flip_eligible(state, seat)]
    if not waiting:
        end_turn(state)
        return
    state.phase = "hazard_flips"
    state.flip_wait = waiting
    state.flip_pick = [NO_PICK] * state.players


def _do_flip_answer(state: State, seat: int, action: Flip | NoFlip) -> None:
    state.flip_pick[seat] = action.cell if isinstance(action, Flip) else NO_PICK
    state.flip_wait.remove(seat)
    if state.flip_wait:
        return
    n = state.players
    for k in range(1, n):  # resolved in turn order after the active player
        who = (state.active + k) % n
        cell = state.flip_pick[who]
        if cell != NO_PICK:
            state.up[who][cell] = True
    state.flip_pick = [NO_PICK] * n
    end_turn(state)


def end_turn(state: State) -> None:
    """END_CHECK (§4): first out and the final lap, the stall cap (R20), else next seat."""
    n = state.players
    state.turns += 1
    active = state.active
    if state.first_out is None and not state.face_down(active):
        state.first_out = active
        state.lap = [(active + k) % n for k in range(1, n)]
    elif state.first_out is not None and state.lap and state.lap[0] == active:
        state.lap.pop(0)
    if state.first_out is not None and not state.lap:
        _end_round(state)
        return
    if state.first_out is None and state.max_turns > 0 and state.turns >= n * state.max_turns:
        _end_round(state)
        return
    _begin_turn(state, (active + 1) % n)


def _end_round(state: State) -> None:
    """ROUND_END: reveal everything, score (§6), record, then deal the next round or finish."""
    n = state.players
    state.up = [[True] * GRID_CELLS for _ in range(n)]
    scores = [score_cards(state.grid[seat]) for seat in range(n)]
    raw = [score.raw for score in scores]
    adjust = first_out_adjustments(raw, state.first_out)
    final = [r + a for r, a in zip(raw, adjust, strict=True)]
    state.round_scores.append(final)
    state.totals = [t + f for t, f in zip(state.totals, final, strict=True)]
    state.last_round = {
        "round": state.round,
        "first_out": state.first_out,
        "stalled": state.first_out is None,
        "seats": [
            {
                "grid": [CARD_IDS[card] for card in state.grid[seat]],
                "lines": [
                    {"cells": list(LINES[index]), "value": value}
                    for index, value in scores[seat].lines
                ],
                "hazards": scores[seat].hazards,
                "wild": scores[seat].wild,
                "raw": raw[seat],
                "adjust": adjust[seat],
                "score": final[seat],
            }
            for seat in range(n)
        ],
    }
    state.locked = []
    state.lap = []
    state.flip_wait = []
    if state.round >= ROUNDS:
        state.phase = "finished"
        return
    state.round += 1
    deal_round(state)
