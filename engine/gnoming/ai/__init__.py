"""Gnoming A Round's computer players, one per level (engine.base.Level).

- ``normal``: :class:`GnomePolicy`, a greedy one-step player over an estimate of its grid;
- ``easy``: :class:`EasyPolicy`, the same steps with a myopic valuation and slips;
- ``hard``: :class:`HardPolicy`, normal's estimate searched deeper with sampled unseen cards.

Every level decides from its own view, the legal actions and the given ``random.Random`` only.
"""

from __future__ import annotations

from engine.base import Level, Policy
from engine.gnoming.ai.easy import EasyPolicy
from engine.gnoming.ai.hard import HardPolicy
from engine.gnoming.ai.normal import POLICY as POLICY

POLICIES: dict[Level, Policy] = {
    Level.EASY: EasyPolicy(),
    Level.NORMAL: POLICY,
    Level.HARD: HardPolicy(),
}
