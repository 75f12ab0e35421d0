"""Ten's computer players, one per level (engine.base.Level).

- ``normal``: :class:`TenPolicy`, push-your-luck with the bust risk counted one draw ahead,
  value bidding and run-building purchases;
- ``easy``: :class:`EasyPolicy`, rules of thumb (a fixed drawing line, points in sight) with
  seeded slips;
- ``hard``: :class:`HardPolicy`, normal's valuation with an optimal-stopping search over the
  known draw pile and the opponents' gains, purses and needs counted.

Every level decides from its own view, the legal actions and the given ``random.Random`` only.
"""

from __future__ import annotations

from engine.base import Level, Policy
from engine.ten.ai.easy import EasyPolicy
from engine.ten.ai.hard import HardPolicy
from engine.ten.ai.normal import POLICY as POLICY

POLICIES: dict[Level, Policy] = {
    Level.EASY: EasyPolicy(),
    Level.NORMAL: POLICY,
    Level.HARD: HardPolicy(),
}
