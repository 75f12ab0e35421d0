"""The Hearts computer players: card inference (``infer``), a bit-set simulator (``sim``), an
exact endgame search (``solve``), the Monte Carlo policy built on them (``policy``), and the
levels: ``easy`` (rules of thumb with slips), normal (``POLICY``) and ``hard``."""

from engine.base import Level, Policy
from engine.hearts2p.ai.easy import EASY_POLICY, EasyPolicy
from engine.hearts2p.ai.hard import HARD_POLICY, HardPolicy
from engine.hearts2p.ai.policy import (
    POLICY,
    RULE_POLICY,
    MonteCarloPolicy,
    RulePolicy,
    hand_utility,
    win_chance,
)

POLICIES: dict[Level, Policy] = {
    Level.EASY: EASY_POLICY,
    Level.NORMAL: POLICY,
    Level.HARD: HARD_POLICY,
}

__all__ = [
    "EASY_POLICY",
    "HARD_POLICY",
    "POLICIES",
    "POLICY",
    "RULE_POLICY",
    "EasyPolicy",
    "HardPolicy",
    "MonteCarloPolicy",
    "RulePolicy",
    "hand_utility",
    "win_chance",
]
