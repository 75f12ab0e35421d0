"""The easy computer player for Ten: legal, sensible moves with visible mistakes.

- **Draws by a fixed rule**: it goes on while the row's net total and its currency are both
  low, never counting what is left in the draw pile, and near the line it decides by a coin
  (seeded).
- **Rewards by the points in sight**: the number cards when they add to its score now or
  the currency is small, else the currency; it ignores what the others gain.
- **Misjudged bids**: it values a wild by the points it adds at once plus a guess, so it
  often bids too little for a wild that would complete a run, or too much for a loose one.
- **Careless buys**: it buys what raises its score now, sometimes a cheaper and worse card
  than the best one, and it pays as the normal player does.

Every chance comes from the rng it is given, so a decision is the same for the same view,
legal actions and seed.
"""

from __future__ import annotations

from typing import Any, Final

from engine.ten.actions import Bid, Buy, NoBuy, Pass, Take
from engine.ten.ai.normal import TenPolicy, _Context, _row_numbers
from engine.ten.scoring import score_collection

SAFE_NET: Final = 5  # it always draws up to this net total
RISKY_NET: Final = 7  # it stops from this net total on; in between a coin decides
SAFE_CURRENCY: Final = 5  # the same two lines for the row's currency
RISKY_CURRENCY: Final = 8
DRAW_CHANCE: Final = 0.4  # the coin between the lines
SLIP: Final = 0.3  # chance of a worse purchase, or of a wrong guess at a wild's worth


class EasyPolicy(TenPolicy):
    """A player with rules of thumb and seeded slips (see the module docstring). It decides
    every phase its own way but paying, which it does as the normal player does."""

    def __init__(self, slip: float = SLIP) -> None:
        self.slip = slip

    def _draws_on(self, ctx: _Context) -> bool:
        net, currency = ctx.view["net"], ctx.view["row_currency"]
        if net >= RISKY_NET or currency >= RISKY_CURRENCY:
            return False
        if net <= SAFE_NET and currency <= SAFE_CURRENCY:
            return True
        return ctx.rng.random() < DRAW_CHANCE

    def _reward(self, ctx: _Context, legal: list[Any]) -> Any:
        numbers = _row_numbers(ctx.view)
        currency = ctx.view["row_currency"]
        points = score_collection(ctx.collection + numbers) - score_collection(ctx.collection)
        return Take(points > 0 or currency <= 2 or (bool(numbers) and ctx.tokens >= 8))

    def _bid(self, ctx: _Context, legal: list[Any]) -> Any:
        wild = ctx.view["auction"]["wild"]
        points = score_collection([*ctx.collection, wild]) - score_collection(ctx.collection)
        rng = ctx.rng
        guess = points + (rng.choice((-1, 1, 2)) if rng.random() < self.slip else 0)
        bids = [a.amount for a in legal if isinstance(a, Bid) and a.amount <= ctx.tokens]
        if guess <= 0 or not bids or min(bids) > guess + 1:
            return Pass()
        return Bid(min(bids))

    def _buy(self, ctx: _Context, legal: list[Any]) -> Any:
        before = score_collection(ctx.collection)
        options: list[tuple[int, int, Any]] = []
        for action in legal:
            if isinstance(action, Buy) and not action.payment.cards and not action.payment.bust:
                points = score_collection([*ctx.collection, action.card]) - before
                if points > 0:
                    options.append((points, -int(action.card[1]), action))
        if not options:
            return next(a for a in legal if isinstance(a, NoBuy))
        options.sort(key=lambda o: (o[0], o[1]), reverse=True)
        if len(options) > 1 and ctx.rng.random() < self.slip:
            return options[-1][2]
        return options[0][2]
