"""The Hearts computer player: card inference (``infer``), a bit-set simulator (``sim``), an
exact endgame search (``solve``) and the Monte Carlo policy built on them (``policy``)."""

from engine.hearts2p.ai.policy import (
    POLICY,
    RULE_POLICY,
    MonteCarloPolicy,
    RulePolicy,
    hand_utility,
    win_chance,
)

__all__ = ["POLICY", "RULE_POLICY", "MonteCarloPolicy", "RulePolicy", "hand_utility", "win_chance"]
