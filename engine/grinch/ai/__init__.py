"""The Grinch computer players: the normal expected-value player (``normal``) and the easy and
hard levels built on its hand valuation (``easy``, ``hard``)."""

from __future__ import annotations

from typing import Final

from engine.base import Level, Policy
from engine.grinch.ai.easy import EasyPolicy
from engine.grinch.ai.hard import HardPolicy
from engine.grinch.ai.normal import POLICY as POLICY

POLICIES: Final[dict[Level, Policy]] = {
    Level.EASY: EasyPolicy(),
    Level.NORMAL: POLICY,
    Level.HARD: HardPolicy(future=POLICY.future),
}
