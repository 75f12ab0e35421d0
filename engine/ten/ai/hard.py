"""The hard computer player for Ten: the normal player's valuation, searched deeper and aimed at
the opponents too. It decides from its seat's view only.

- **Draw or stop by optimal stopping.** The draw pile's contents are known by elimination (only
  their order is hidden). The player values every row it could reach with several more draws,
  drawing from the pile without replacement, and at each of them takes the better of stopping
  and drawing on (an expectimax over the pile's card types). The depth grows while the rows to
  value stay within a fixed budget, so a late turn over a short pile is searched to its end.
- **The opponents count.** Tokens handed to the others (a number reward, a number bust) are
  valued at what they are worth to them, and number cards sent to the market (a currency
  reward) at what the best of them is worth to the next player who could buy it.
- **Bids against the other bidders.** It reads each later bidder's collection and purse to
  estimate the most they would pay, bids just enough to shut them out when the wild is worth
  it, and otherwise raises the price they pay. A wild an opponent wants is worth more to it
  than its own gain: taking it also keeps it from them.
- **Buys weighed against the others' needs**: a market card worth much to an opponent is
  worth a little more to buy.

The search counts rows, never seconds, so a decision is the same for the same view on any
machine.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any, Final

from engine.ten.actions import Bid, Buy, NoBuy, Pass, Take
from engine.ten.ai.normal import TenPolicy, _Context, _row_numbers
from engine.ten.cards import BUST_LINE, BUST_TOKENS, CURRENCY_BUST, CURRENCY_CAP

SEARCH_ROWS: Final = 150  # rows valued per draw decision, at most (the depth that fits)
MAX_DEPTH: Final = 6  # draws looked ahead, at most
RIVAL_TOKEN: Final = 0.7  # share of an opponent's gain in tokens counted against us
RIVAL_CARD: Final = 0.5  # share of an opponent's gain from a card counted against us
DENIAL: Final = 0.5  # share of an opponent's gain from a wild or card we take from them


class _Budget(Exception):
    """The rows to value at this depth exceed the budget."""


class _Rivals:
    """The other seats as the player sees them: their collections, purses and gains.

    A loss spread over ``n`` opponents counts ``1 / sqrt(n)`` of their summed gains: more
    than one opponent's share (one of them may be the one to beat), less than all of it."""

    def __init__(self, ctx: _Context) -> None:
        view = ctx.view
        p = ctx.players
        self.ctx = ctx
        self.seats = [(ctx.seat + k) % p for k in range(1, p)]  # the next seat first
        self.tokens = {s: int(view["seats"][s]["tokens"]) for s in self.seats}
        self.purse = {
            s: self.tokens[s] + 3 * int(view["seats"][s]["bust_tokens"]) for s in self.seats
        }
        self.collection = {s: list(view["seats"][s]["collection"]) for s in self.seats}
        self.weight = 1.0 / max(1, len(self.seats))
        self.spread = len(self.seats) ** -0.5 if self.seats else 0.0
        self._cards: dict[tuple[int, str], float] = {}

    def token_cost(self, amount: int) -> float:
        """What ``amount`` tokens handed to every other seat cost us (the cap counted)."""
        if amount <= 0:
            return 0.0
        got = sum(min(amount, CURRENCY_CAP - self.tokens[s]) for s in self.seats)
        return RIVAL_TOKEN * self.ctx.token_worth * got * self.spread

    def gain(self, seat: int, cards: list[str]) -> float:
        collection = self.collection[seat]
        return self.ctx.worth(collection + cards) - self.ctx.worth(collection)

    def card_gain(self, seat: int, card: str) -> float:
        """A market card's worth to ``seat`` after its price, 0 if blocked or out of reach."""
        key = (seat, card[:2])
        found = self._cards.get(key)
        if found is None:
            held = {c[:2] for c in self.collection[seat] if c[0] != "W" and c[1] != "#"}
            price = int(card[1])
            found = 0.0
            if card[:2] not in held and price <= self.purse[seat]:
                found = max(0.0, self.gain(seat, [card]) - price * self.ctx.token_worth)
            self._cards[key] = found
        return found

    def market_leak(self, cards: list[str]) -> float:
        """What sending ``cards`` to the market costs us: the next seat may buy the best."""
        if not cards or not self.seats or self.ctx.final:
            return 0.0
        best = max(self.card_gain(self.seats[0], c) for c in cards)
        return RIVAL_CARD * best * self.spread

    def ceiling(self, seat: int, wild: str) -> int:
        """The most ``seat`` is expected to bid for ``wild``: its gain in tokens, its purse."""
        worth = self.gain(seat, [wild])
        if worth <= 0:
            return 0
        return min(int(worth / self.ctx.token_worth), self.purse[seat])


class HardPolicy(TenPolicy):
    """Optimal-stopping draws, opponent-aware rewards, bids and buys (module docstring)."""

    def __init__(self, rows: int = SEARCH_ROWS, depth: int = MAX_DEPTH) -> None:
        self.rows = rows
        self.depth = depth

    # -- draw phase --------------------------------------------------------------------------
    def _draws_on(self, ctx: _Context) -> bool:
        stop_now, draw_on = _StopSearch(self, ctx).best(self.depth)
        return draw_on > stop_now

    def stop_value(
        self, ctx: _Context, rivals: _Rivals, numbers: list[str], currency: int, buy: float
    ) -> float:
        take_numbers = ctx.gain(numbers) + buy - rivals.token_cost(currency)
        take_currency = ctx.token_worth * min(currency, CURRENCY_CAP - ctx.tokens)
        take_currency -= rivals.market_leak(numbers)
        return max(take_numbers, take_currency)

    # -- reward ------------------------------------------------------------------------------
    def _reward(self, ctx: _Context, legal: list[Any]) -> Any:
        rivals = _Rivals(ctx)
        numbers = _row_numbers(ctx.view)
        currency = ctx.view["row_currency"]
        take_numbers = ctx.gain(numbers) + ctx.best_buy(numbers) - rivals.token_cost(currency)
        take_currency = ctx.token_worth * min(currency, CURRENCY_CAP - ctx.tokens)
        take_currency -= rivals.market_leak(numbers)
        return Take(take_numbers >= take_currency)

    # -- auctions ----------------------------------------------------------------------------
    def _bid(self, ctx: _Context, legal: list[Any]) -> Any:
        rivals = _Rivals(ctx)
        auction = ctx.view["auction"]
        wild = auction["wild"]
        order: list[int] = auction["order"]
        later = order[order.index(ctx.seat) + 1 :]
        ceilings = {s: rivals.ceiling(s, wild) for s in rivals.seats}
        rival_want = max((rivals.gain(s, [wild]) for s in rivals.seats), default=0.0)
        worth = ctx.gain([wild]) + DENIAL * max(0.0, rival_want) * rivals.weight
        purse = ctx.tokens + 3 * ctx.bust
        mine = min(int(worth / ctx.token_worth), purse)
        bids = sorted(a.amount for a in legal if isinstance(a, Bid) and a.amount <= mine)
        if not bids:
            return Pass()
        if not later:
            return Bid(bids[0])  # the last bidder: one above the highest bid wins
        block = max(ceilings[s] for s in later)
        if block < bids[0]:
            return Bid(bids[0])
        if block <= mine:
            return Bid(block)  # no later bidder is expected to go above this
        return Bid(bids[-1])  # they will outbid: make them pay our worth

    # -- buying ------------------------------------------------------------------------------
    def _buy(self, ctx: _Context, legal: list[Any]) -> Any:
        rivals = _Rivals(ctx)
        best: Any = next((a for a in legal if isinstance(a, NoBuy)), legal[0])
        best_gain = 0.05
        denial: dict[str, float] = {}
        for action in legal:
            if not isinstance(action, Buy):
                continue
            card = action.card
            if card not in denial:
                wants = [rivals.card_gain(s, card) for s in rivals.seats] if not ctx.final else []
                denial[card] = DENIAL * max(wants, default=0.0) * rivals.weight
            p = action.payment
            value = ctx.gain([card], p.cards) - p.tokens * ctx.token_worth
            value -= p.bust * ctx.bust_worth
            value += denial[card]
            if value > best_gain:
                best, best_gain = action, value
        return best


class _StopSearch:
    """The expectimax over the draws of the rest of this turn (see the module docstring)."""

    def __init__(self, policy: HardPolicy, ctx: _Context) -> None:
        self.policy = policy
        self.ctx = ctx
        self.rivals = _Rivals(ctx)
        view = ctx.view
        self.numbers = _row_numbers(view)
        self.currency: int = view["row_currency"]
        self.net = sum(int(c[1]) for c in self.numbers) - self.currency
        unseen = ctx.unseen()
        self.pile = sum(unseen.values())
        # A wild drawn goes to auction and leaves the row as it was: the search looks at the
        # number and currency cards only, each as likely as its share of them.
        self.kinds = sorted((t, n) for t, n in unseen.items() if t[0] != "W" and t[1] != "#")
        self.buy = ctx.best_buy(self.numbers)
        bust_supply = BUST_TOKENS - sum(s["bust_tokens"] for s in view["seats"])
        self.token = ctx.bust_worth if bust_supply > 0 else 0.0
        self.stops: dict[tuple[tuple[str, ...], int], float] = {}
        self.values: dict[tuple[tuple[str, ...], int], tuple[float, float]] = {}
        self.complete = True
        self.limit: float = policy.rows

    def best(self, most: int) -> tuple[float, float]:
        """(stop now, draw on) at the deepest depth up to ``most`` that fits the budget (one
        draw is always looked at)."""
        found = (0.0, -math.inf)
        for depth in range(1, most + 1):
            self.values = {}
            self.complete = True
            try:
                self._value((), 0, 0, depth)
            except _Budget:
                if depth > 1:
                    break
                self.limit = math.inf  # one draw ahead, whatever it costs
                self._value((), 0, 0, depth)
                return self.values[((), depth)]
            found = self.values[((), depth)]
            if self.complete:
                break
        return found

    def _stop(self, added: tuple[str, ...], currency: int) -> float:
        key = (added, currency)
        found = self.stops.get(key)
        if found is None:
            if len(self.stops) >= self.limit:
                raise _Budget
            numbers = [*self.numbers, *(t for t in added if t[0] != "C")]
            found = self.policy.stop_value(
                self.ctx, self.rivals, numbers, self.currency + currency, self.buy
            )
            self.stops[key] = found
        return found

    def _value(self, added: tuple[str, ...], currency: int, net: int, depth: int) -> float:
        """max(stop, draw) after drawing ``added`` (sorted types) on top of today's row."""
        key = (added, depth)
        if key in self.values:
            return max(self.values[key])
        stop = self._stop(added, currency)
        left = self.pile - len(added)
        if depth == 0 or left <= 0:
            if left > 0:
                self.complete = False
            self.values[key] = (stop, -math.inf)
            return stop
        used = Counter(added)
        total = sum(n - used[t] for t, n in self.kinds)
        if total <= 0:
            self.values[key] = (stop, -math.inf)
            return stop
        c_now = self.currency + currency
        n_now = self.net + net
        expected = 0.0
        for ctype, held in self.kinds:
            count = held - used[ctype]
            if count <= 0:
                continue
            v = int(ctype[1])
            if ctype[0] == "C":
                if c_now + v >= CURRENCY_BUST:
                    outcome = self.token
                else:
                    nxt = tuple(sorted((*added, ctype)))
                    outcome = self._value(nxt, currency + v, net - v, depth - 1)
            elif n_now + v >= BUST_LINE:
                outcome = self.token - self.rivals.token_cost(c_now)
            else:
                nxt = tuple(sorted((*added, ctype)))
                outcome = self._value(nxt, currency, net + v, depth - 1)
            expected += count * outcome
        draw = expected / total
        self.values[key] = (stop, draw)
        return max(stop, draw)
