"""A fast perfect-information simulator of one 2-Player Hearts hand, for the computer player.

Cards are indexes 0-27 in the canonical deck order (suit * 7 + rank step) and hands are bit
masks, so following suit, ducking and trick winners are a few integer operations. Two
evaluators work on a *determinized* hand (both hands known): :func:`rollout` plays the rest of
the hand with a fixed heuristic for both seats, and :func:`solve` searches it exactly
(minimax with a transposition table) for small endgames.

Seat numbers here are relative: 0 is the computer player, 1 its opponent.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.hearts2p.cards import DECK

HEART_SUIT = 2
SPADE_SUIT = 3
SUIT_MASK: tuple[int, ...] = tuple(0x7F << (7 * s) for s in range(4))
HEART_MASK = SUIT_MASK[HEART_SUIT]
NON_HEART = SUIT_MASK[0] | SUIT_MASK[1] | SUIT_MASK[3]
QS = DECK.index("QS")
AS = DECK.index("AS")
QS_BIT = 1 << QS
SUIT_OF: tuple[int, ...] = tuple(i // 7 for i in range(28))
RANK_OF: tuple[int, ...] = tuple(i % 7 for i in range(28))
# Cards of the same suit ranking below card i.
BELOW: tuple[int, ...] = tuple(((1 << i) - 1) & SUIT_MASK[i // 7] for i in range(28))
POINTS: tuple[int, ...] = tuple(
    13 if i == QS else 1 if i // 7 == HEART_SUIT else 0 for i in range(28)
)
IS_HEART: tuple[bool, ...] = tuple(i // 7 == HEART_SUIT for i in range(28))

Utility = Callable[[int, int, bool, bool], float]
"""utility(points_me, points_opp, took_me, took_opp) at the end of a hand."""


def mask_of(cards: list[str] | set[str] | tuple[str, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << DECK.index(c)
    return m


def cards_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def legal_mask(hand: int, lead: int, broken: bool) -> int:
    """Section 4.2 after trick 1 (the opening lead is always forced, never simulated)."""
    if lead >= 0:
        same = hand & SUIT_MASK[SUIT_OF[lead]]
        return same or hand
    if broken:
        return hand
    return (hand & NON_HEART) or hand


def follower_wins(lead: int, card: int) -> bool:
    lead_suit = SUIT_OF[lead]
    suit = SUIT_OF[card]
    if suit == HEART_SUIT:
        return lead_suit != HEART_SUIT or card > lead
    return suit == lead_suit and card > lead


def _extreme_rank(mask: int, highest: bool) -> int:
    """The card of highest (or lowest) rank among the non-heart suits of ``mask``."""
    best = -1
    best_rank = -1 if highest else 99
    for s in (0, 1, 3):
        part = mask & SUIT_MASK[s]
        if not part:
            continue
        card = part.bit_length() - 1 if highest else (part & -part).bit_length() - 1
        r = RANK_OF[card]
        if (highest and r >= best_rank) or (not highest and r < best_rank):
            best, best_rank = card, r
    return best


def heuristic_lead(hand: int, broken: bool) -> int:
    """Lead the lowest safe card: a low non-heart, never QS unless nothing else is legal."""
    legal = hand if broken else ((hand & NON_HEART) or hand)
    plain = legal & NON_HEART & ~QS_BIT
    if plain:
        return _extreme_rank(plain, highest=False)
    hearts = legal & HEART_MASK
    if hearts:
        return (hearts & -hearts).bit_length() - 1
    return QS


def heuristic_follow(hand: int, lead: int) -> int:
    """Duck under the lead if possible; when void, dump QS, then the highest non-heart."""
    same = hand & SUIT_MASK[SUIT_OF[lead]]
    if same:
        below = same & BELOW[lead]
        if below:
            return below.bit_length() - 1
        if same & QS_BIT and same != QS_BIT:
            same &= ~QS_BIT
        return same.bit_length() - 1
    if hand & QS_BIT:
        return QS
    plain = hand & NON_HEART
    if plain:
        return _extreme_rank(plain, highest=True)
    return hand.bit_length() - 1


def rollout(
    hands: tuple[int, int],
    leader: int,
    lead: int,
    broken: bool,
    points: tuple[int, int],
    took: tuple[bool, bool],
) -> tuple[int, int, bool, bool]:
    """Play the hand out with the heuristic for both seats; final points and took flags.

    ``lead`` is the card the leader already put on the table, or -1.
    """
    h = [hands[0], hands[1]]
    p = [points[0], points[1]]
    t = [took[0], took[1]]
    while True:
        if lead < 0:
            if not h[leader]:
                break
            lead = heuristic_lead(h[leader], broken)
            h[leader] ^= 1 << lead
            if IS_HEART[lead]:
                broken = True
        follower = 1 - leader
        card = heuristic_follow(h[follower], lead)
        h[follower] ^= 1 << card
        if IS_HEART[card]:
            broken = True
        winner = follower if follower_wins(lead, card) else leader
        gained = POINTS[lead] + POINTS[card]
        if gained:
            p[winner] += gained
            t[winner] = True
        leader = winner
        lead = -1
    return p[0], p[1], t[0], t[1]


State = tuple[int, int, int, int, bool, int, int, bool, bool]
"""(hand0, hand1, leader, lead, broken, points0, points1, took0, took1); lead is -1 or a card."""


def play(state: State, card: int) -> State:
    """The state after the seat to act plays ``card`` (which must be legal)."""
    h0, h1, leader, lead, broken, p0, p1, t0, t1 = state
    actor = leader if lead < 0 else 1 - leader
    bit = 1 << card
    if actor == 0:
        h0 ^= bit
    else:
        h1 ^= bit
    broken = broken or IS_HEART[card]
    if lead < 0:
        return (h0, h1, leader, card, broken, p0, p1, t0, t1)
    winner = actor if follower_wins(lead, card) else leader
    gained = POINTS[lead] + POINTS[card]
    if gained:
        if winner == 0:
            p0 += gained
            t0 = True
        else:
            p1 += gained
            t1 = True
    return (h0, h1, winner, -1, broken, p0, p1, t0, t1)


def to_act(state: State) -> int:
    return state[2] if state[3] < 0 else 1 - state[2]


def rollout_state(state: State) -> tuple[int, int, bool, bool]:
    h0, h1, leader, lead, broken, p0, p1, t0, t1 = state
    return rollout((h0, h1), leader, lead, broken, (p0, p1), (t0, t1))
