"""Exact search of a determinized 2-Player Hearts hand (both hands known).

Alpha-beta over whole tricks: a node is the start of a trick; the leader picks a card and the
follower answers; the transposition table stores trick-start nodes only. Cards that are
interchangeable for the rest of the hand are searched once. Seat 0 maximises the utility of
the final hand points, seat 1 minimises it (the game is zero-sum between the two seats).
"""

from __future__ import annotations

import time

from engine.hearts2p.ai.sim import (
    BELOW,
    HEART_MASK,
    IS_HEART,
    NON_HEART,
    POINTS,
    QS,
    QS_BIT,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    State,
    Utility,
    cards_of,
    follower_wins,
    legal_mask,
    play,
    to_act,
)

EXACT, LOWER, UPPER = 0, 1, 2
INF = 1e9
CLOCK_EVERY = 256  # trick nodes between two looks at the clock
FOLLOWER_WINS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(follower_wins(lead, card) for card in range(28)) for lead in range(28)
)
Key = tuple[int, int, int, bool, int, int, bool, bool]


class OutOfTime(Exception):
    """The search passed its deadline or spent its node budget; its partial results are
    worthless."""


class Budget:
    """A number of trick nodes that searches may still visit, shared by several searches.

    A search charged to a budget raises :class:`OutOfTime` once the budget is spent, so what
    it finds depends on the position only, never on the speed of the machine.
    """

    __slots__ = ("left",)

    def __init__(self, nodes: int) -> None:
        self.left = nodes


def representatives(moves: int, live: int) -> dict[int, int]:
    """Each card of ``moves`` mapped to the card standing for its group of equivalents.

    Two cards of one hand are equivalent when they are of the same suit, worth the same
    points, and no other card still in play (``live``: both hands and the table) lies
    between them: swapping them changes no trick's winner or points. The highest card of a
    group stands for it.
    """
    rep: dict[int, int] = {}
    for card in reversed(cards_of(moves)):
        low = 1 << card
        above = live & SUIT_MASK[SUIT_OF[card]] & ~((low << 1) - 1)
        nxt = above & -above
        up = nxt.bit_length() - 1
        rep[card] = rep[up] if nxt & moves and POINTS[up] == POINTS[card] else card
    return rep


def distinct(moves: int, live: int) -> list[int]:
    """One card per group of equivalent cards among ``moves`` (see representatives)."""
    out = []
    m = moves
    while m:
        low = m & -m
        m ^= low
        card = low.bit_length() - 1
        above = live & SUIT_MASK[SUIT_OF[card]] & ~((low << 1) - 1)
        nxt = above & -above
        if nxt & moves and POINTS[nxt.bit_length() - 1] == POINTS[card]:
            continue
        out.append(card)
    return out


def _lead_order(cards: list[int]) -> list[int]:
    """Low, non-point leads first: they are most often best, which speeds pruning."""
    return sorted(cards, key=lambda c: (POINTS[c] > 0, RANK_OF[c]))


def _follow_order(cards: list[int], lead: int) -> list[int]:
    """Ducks (highest first), then winners of the led suit, QS dumped early, hearts last."""
    below = BELOW[lead]
    lead_suit = SUIT_OF[lead]

    def key(c: int) -> tuple[int, int]:
        if (1 << c) & below:
            return (0, -RANK_OF[c])
        if SUIT_OF[c] == lead_suit:
            return (1, 9 if c == QS else -RANK_OF[c])
        if c == QS:
            return (0, 0)
        if IS_HEART[c]:
            return (3, RANK_OF[c])
        return (2, -RANK_OF[c])

    return sorted(cards, key=key)


def solve_moves(
    state: State,
    utility: Utility,
    margin: float | None = None,
    deadline: float | None = None,
    budget: Budget | None = None,
) -> dict[int, float]:
    """Minimax value of every legal card of the seat to act, which must be seat 0.

    Exact when ``margin`` is None; otherwise a card worse than the best by more than
    ``margin`` gets an upper bound of its value (cheaper to prove). Raises
    :class:`OutOfTime` once ``time.perf_counter()`` passes ``deadline``, or once it has
    visited more trick nodes than ``budget`` has left (each node visited is taken from it).
    """
    if to_act(state) != 0:
        raise ValueError("solve_moves is asked for seat 0's moves only")
    table: dict[Key, tuple[float, int, int]] = {}
    lead_orders: dict[tuple[int, int], list[int]] = {}
    answer_orders: dict[tuple[int, int, int], list[int]] = {}
    visits = [0]

    def trick(
        h0: int,
        h1: int,
        leader: int,
        broken: bool,
        p0: int,
        p1: int,
        t0: bool,
        t1: bool,
        alpha: float,
        beta: float,
    ) -> float:
        """Value of the hand from the start of a trick led by ``leader``."""
        if not h0 & (h0 - 1):  # the last trick (or none left): both cards are forced
            if not h0:
                return utility(p0, p1, t0, t1)
            c0, c1 = h0.bit_length() - 1, h1.bit_length() - 1
            lead, card = (c0, c1) if leader == 0 else (c1, c0)
            gained = POINTS[lead] + POINTS[card]
            if gained:
                if (leader == 0) != FOLLOWER_WINS[lead][card]:
                    return utility(p0 + gained, p1, True, t1)
                return utility(p0, p1 + gained, t0, True)
            return utility(p0, p1, t0, t1)
        live = h0 | h1
        left = (live & HEART_MASK).bit_count() + (13 if live & QS_BIT else 0)
        if not left:  # no point card left to take: the hand's result is settled
            return utility(p0, p1, t0, t1)
        if t0 and t1:
            # No moon is possible any more and the utility only falls as seat 0 takes more
            # points, so it lies between these two; outside the window nothing is to learn.
            high = utility(p0, p1 + left, True, True)
            if high <= alpha:
                return high
            low = utility(p0 + left, p1, True, True)
            if low >= beta:
                return low
        if budget is not None:
            budget.left -= 1
            if budget.left < 0:
                raise OutOfTime
        if deadline is not None:
            visits[0] += 1
            if not visits[0] % CLOCK_EVERY and time.perf_counter() > deadline:
                raise OutOfTime
        key = (h0, h1, leader, broken, p0, p1, t0, t1)
        entry = table.get(key)
        hint = -1
        if entry is not None:
            v, flag, hint = entry
            if flag == EXACT:
                return v
            if flag == LOWER:
                alpha = max(alpha, v)
            else:
                beta = min(beta, v)
            if alpha >= beta:
                return v
        a0, b0 = alpha, beta
        hand = h0 if leader == 0 else h1
        lead_key = (hand if broken else (hand & NON_HEART) or hand, live)
        leads = lead_orders.get(lead_key)
        if leads is None:
            leads = lead_orders[lead_key] = _lead_order(distinct(*lead_key))
        if hint >= 0 and leads[0] != hint:
            leads = [hint, *[c for c in leads if c != hint]]
        best = -INF if leader == 0 else INF
        best_lead = -1
        for lead in leads:
            v = answer(h0, h1, leader, lead, broken, p0, p1, t0, t1, alpha, beta)
            if leader == 0:
                if v > best:
                    best, best_lead = v, lead
                    alpha = max(alpha, v)
            elif v < best:
                best, best_lead = v, lead
                beta = min(beta, v)
            if alpha >= beta:
                break
        table[key] = (best, UPPER if best <= a0 else LOWER if best >= b0 else EXACT, best_lead)
        return best

    def answer(
        h0: int,
        h1: int,
        leader: int,
        lead: int,
        broken: bool,
        p0: int,
        p1: int,
        t0: bool,
        t1: bool,
        alpha: float,
        beta: float,
    ) -> float:
        """Value once ``leader`` leads ``lead`` (still in its hand) and the other answers."""
        live = h0 | h1
        follower = 1 - leader
        hand = h1 if follower == 1 else h0
        order_key = ((hand & SUIT_MASK[SUIT_OF[lead]]) or hand, live, lead)
        options = answer_orders.get(order_key)
        if options is None:
            options = _follow_order(distinct(order_key[0], live), lead)
            answer_orders[order_key] = options
        lead_bit = 1 << lead
        h0 &= ~lead_bit
        h1 &= ~lead_bit
        broken = broken or IS_HEART[lead]
        wins = FOLLOWER_WINS[lead]
        best = -INF if follower == 0 else INF
        for card in options:
            bit = 1 << card
            n0, n1 = (h0 ^ bit, h1) if follower == 0 else (h0, h1 ^ bit)
            winner = follower if wins[card] else leader
            gained = POINTS[lead] + POINTS[card]
            b = broken or IS_HEART[card]
            if not gained:
                v = trick(n0, n1, winner, b, p0, p1, t0, t1, alpha, beta)
            elif winner == 0:
                v = trick(n0, n1, 0, b, p0 + gained, p1, True, t1, alpha, beta)
            else:
                v = trick(n0, n1, 1, b, p0, p1 + gained, t0, True, alpha, beta)
            if follower == 0:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            elif v < best:
                best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    h0, h1, _, lead, broken, p0, p1, t0, t1 = state
    legal = legal_mask(h0, lead, broken)
    rep = representatives(legal, h0 | h1 | (1 << lead if lead >= 0 else 0))
    moves = [c for c in rep if rep[c] == c]
    moves = _lead_order(moves) if lead < 0 else _follow_order(moves, lead)
    values: dict[int, float] = {}
    best = -INF
    for card in moves:
        # With a margin, a card is only searched to show it is ``margin`` worse than the
        # best so far; its value is then an upper bound, which is good enough to rank it.
        alpha = -INF if margin is None else best - margin
        if lead < 0:
            v = answer(h0, h1, 0, card, broken, p0, p1, t0, t1, alpha, INF)
        else:
            n0, n1, w, _, b, q0, q1, s0, s1 = play(state, card)
            v = trick(n0, n1, w, b, q0, q1, s0, s1, alpha, INF)
        values[card] = v
        best = max(best, v)
    return {card: values[rep[card]] for card in cards_of(legal)}
