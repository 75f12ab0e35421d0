"""Computer player for Ten. It decides from its seat's view only.

- **Worth of a collection**: its score plus a small bonus per distinct number card and per wild
  (future runs), the bonus fading as the draw pile runs out.
- **Worth of a token**: about 0.4 points while there is time to spend it (a market card
  of number ``n`` costs ``n``), almost nothing in the final buys (tokens only break ties).
- **Draw or stop**: the draw pile's contents are known by elimination (every other card of the
  game is public: row, market, discard, collections, auction slot). For each kind of card still
  in it the player values the outcome (a bust, or stopping one card later with the better
  reward) and draws when that expectation beats stopping now.
- **Auctions**: it bids up to the wild's worth to its runs in tokens, only what it can pay with
  tokens; the active player (last to bid) bids just one above the highest bid.
- **Buying and paying**: it buys the card with the best gain after its price and pays with the
  cheapest listed payment (tokens, bust tokens, or the cards that cost it least).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from engine.base import View
from engine.ten.actions import Bid, Buy, Decline, Draw, NoBuy, Pass, Pay, Stop, Take
from engine.ten.cards import BUST_LINE, BUST_TOKENS, CURRENCY_BUST, CURRENCY_CAP, deck_for
from engine.ten.scoring import score_collection

TOKEN_WORTH = 0.4  # points per currency token while there is time to spend it
BUST_TOKEN_WORTH = 0.75  # points per bust token (pays 3, never split, no change)
CARD_BONUS = 0.5  # potential per distinct number card or wild
OPPONENT_GAIN = 0.06  # cost per token handed to each other player
LATE_GAME = 24  # draw-pile size below which tokens and potential fade


class _Context:
    """What one decision needs, read from the view, with a small score cache; ``rng`` is
    the decision's chance, for a policy that leaves some choices to it."""

    def __init__(self, view: View, rng: random.Random) -> None:
        self.view = view
        self.rng = rng
        self.seat: int = view["seat"]
        me = view["seats"][self.seat]
        self.collection: list[str] = list(me["collection"])
        self.tokens: int = me["tokens"]
        self.bust: int = me["bust_tokens"]
        self.players: int = view["players"]
        self.deck_size: int = view["deck_size"]
        self.final = view["phase"] == "final_buy" or self.deck_size == 0
        fade = min(1.0, self.deck_size / LATE_GAME)
        self.token_worth = 0.01 if self.final else 0.05 + (TOKEN_WORTH - 0.05) * fade
        self.bust_worth = 0.02 if self.final else 0.1 + (BUST_TOKEN_WORTH - 0.1) * fade
        self.bonus = 0.0 if self.final else CARD_BONUS * fade
        self._cache: dict[tuple[str, ...], float] = {}

    def worth(self, cards: list[str]) -> float:
        key = tuple(sorted(c[:2] for c in cards))
        if key not in self._cache:
            numbers = {t for t in key if t[0] != "W" and t[1] != "#"}
            wilds = sum(1 for t in key if t[0] == "W" or t[1] == "#")
            self._cache[key] = score_collection(key) + self.bonus * (len(numbers) + wilds)
        return self._cache[key]

    def gain(self, add: list[str], remove: tuple[str, ...] = ()) -> float:
        """Change in worth when ``add`` joins and card types ``remove`` leave the collection."""
        after = list(self.collection)
        for ctype in remove:
            after.remove(next(c for c in sorted(after) if c[:2] == ctype))
        return self.worth(after + add) - self.worth(self.collection)

    def unseen(self) -> Counter[str]:
        """The draw pile's contents by card type (everything else is public)."""
        left = Counter(deck_for(self.players))
        view = self.view
        seen = [*view["row"], *view["market"], *view["discard"]]
        seen += [c for s in view["seats"] for c in s["collection"]]
        if view["auction"]:
            seen.append(view["auction"]["wild"])
        left.subtract(seen)
        types: Counter[str] = Counter()
        for card, count in left.items():
            if count > 0:
                types[card[:2]] += count
        return types

    def payment_cost(self, tokens: int, bust: int, cards: tuple[str, ...]) -> float:
        loss = -self.gain([], cards) if cards else 0.0
        return tokens * self.token_worth + bust * self.bust_worth + loss

    def best_buy(self, extra: list[str]) -> float:
        """Worth of the best purchase after ``extra`` joins the collection (tokens only)."""
        held = {c[:2] for c in self.collection + extra if c[0] != "W" and c[1] != "#"}
        best = 0.0
        base = self.worth(self.collection + extra)
        for card in set(self.view["market"]):
            price = int(card[1])
            if card[:2] in held or price > self.tokens + 3 * self.bust:
                continue
            value = self.worth([*self.collection, *extra, card]) - base
            best = max(best, value - price * self.token_worth)
        return best


def _row_numbers(view: View) -> list[str]:
    return [c for c in view["row"] if c[0] != "C"]


class TenPolicy:
    """Push-your-luck with a counted bust risk, value bidding and run-building purchases."""

    def choose(self, view: View, legal: list[Any], rng: random.Random) -> Any:
        if len(legal) == 1:
            return legal[0]
        ctx = _Context(view, rng)
        phase = view["phase"]
        if phase == "draw":
            return self._draw_or_stop(ctx, legal)
        if phase == "bid":
            return self._bid(ctx, legal)
        if phase in ("pay", "solo_wild"):
            return self._pay(ctx, legal)
        if phase == "reward":
            return self._reward(ctx, legal)
        return self._buy(ctx, legal)

    # -- draw phase --------------------------------------------------------------------------
    def _stop_value(
        self, ctx: _Context, numbers: list[str], currency: int, buy: float | None = None
    ) -> float:
        """Worth of stopping with this row: the better reward (``buy``: the buy phase's worth,
        computed here when not given)."""
        buy = ctx.best_buy(numbers) if buy is None else buy
        take_numbers = ctx.gain(numbers) + buy
        take_numbers -= OPPONENT_GAIN * currency * (ctx.players - 1)
        take_currency = ctx.token_worth * min(currency, CURRENCY_CAP - ctx.tokens)
        return max(take_numbers, take_currency)

    def _draw_value(self, ctx: _Context, numbers: list[str], currency: int) -> float:
        net = sum(int(c[1]) for c in numbers) - currency
        unseen = ctx.unseen()
        total = sum(unseen.values())
        if total == 0:
            return -math.inf
        bust_supply = BUST_TOKENS - sum(s["bust_tokens"] for s in ctx.view["seats"])
        token = ctx.bust_worth if bust_supply > 0 else 0.0
        buy = ctx.best_buy(numbers)  # the market barely changes with one more card
        expected = 0.0
        for ctype, count in unseen.items():
            if count <= 0:
                continue
            if ctype[0] == "W" or ctype[1] == "#":
                outcome = self._stop_value(ctx, numbers, currency, buy)
            elif ctype[0] == "C":
                v = int(ctype[1])
                if currency + v >= CURRENCY_BUST:
                    outcome = token
                else:
                    outcome = self._stop_value(ctx, numbers, currency + v, buy)
            elif net + int(ctype[1]) >= BUST_LINE:
                outcome = token - OPPONENT_GAIN * currency * (ctx.players - 1)
            else:
                outcome = self._stop_value(ctx, [*numbers, ctype], currency, buy)
            expected += count * outcome
        return expected / total

    def _draw_or_stop(self, ctx: _Context, legal: list[Any]) -> Any:
        draw = next((a for a in legal if isinstance(a, Draw)), None)
        stop = next((a for a in legal if isinstance(a, Stop)), None)
        if draw is None or stop is None:
            return draw or stop
        return draw if self._draws_on(ctx) else stop

    def _draws_on(self, ctx: _Context) -> bool:
        """Whether to draw again when both drawing and stopping are allowed."""
        numbers = _row_numbers(ctx.view)
        currency = ctx.view["row_currency"]
        return self._draw_value(ctx, numbers, currency) > self._stop_value(ctx, numbers, currency)

    # -- reward ------------------------------------------------------------------------------
    def _reward(self, ctx: _Context, legal: list[Any]) -> Any:
        numbers = _row_numbers(ctx.view)
        currency = ctx.view["row_currency"]
        take_numbers = ctx.gain(numbers) + ctx.best_buy(numbers)
        take_numbers -= OPPONENT_GAIN * currency * (ctx.players - 1)
        take_currency = ctx.token_worth * min(currency, CURRENCY_CAP - ctx.tokens)
        return Take(take_numbers >= take_currency)

    # -- auctions ----------------------------------------------------------------------------
    def _bid(self, ctx: _Context, legal: list[Any]) -> Any:
        auction = ctx.view["auction"]
        worth = ctx.gain([auction["wild"]])
        ceiling = min(int(worth / ctx.token_worth), ctx.tokens + 3 * ctx.bust)
        bids = [a.amount for a in legal if isinstance(a, Bid) and a.amount <= ceiling]
        if not bids:
            return Pass()
        last = ctx.seat == ctx.view["active"]
        if last:
            return Bid(min(bids))
        target = max(min(bids), math.ceil(0.6 * ceiling))
        return Bid(min(b for b in bids if b >= target))

    def _pay(self, ctx: _Context, legal: list[Any]) -> Any:
        pays = [a for a in legal if isinstance(a, Pay)]
        if ctx.view["phase"] == "solo_wild":
            auction = ctx.view["auction"]
            worth = ctx.gain([auction["wild"]])
            best = min(pays, key=lambda a: self._cost(ctx, a), default=None)
            if best is None or self._cost(ctx, best) >= worth:
                return next(a for a in legal if isinstance(a, Decline))
            return best
        return min(pays, key=lambda a: self._cost(ctx, a))

    def _cost(self, ctx: _Context, action: Pay | Buy) -> float:
        p = action.payment
        return ctx.payment_cost(p.tokens, p.bust, p.cards)

    # -- buying ------------------------------------------------------------------------------
    def _buy(self, ctx: _Context, legal: list[Any]) -> Any:
        best: Any = next((a for a in legal if isinstance(a, NoBuy)), legal[0])
        best_gain = 0.05
        for action in legal:
            if not isinstance(action, Buy):
                continue
            p = action.payment
            value = ctx.gain([action.card], p.cards) - p.tokens * ctx.token_worth
            value -= p.bust * ctx.bust_worth
            if value > best_gain:
                best, best_gain = action, value
        return best


POLICY = TenPolicy()
