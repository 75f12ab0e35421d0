"""The Hearts computer players: card inference (``infer``), a bit-set simulator (``sim``), an
exact endgame search (``solve``), the Monte Carlo policy built on them (``normal``), and the
levels: ``easy`` (rules of thumb with slips), normal (``POLICY``) and ``hard``."""

from engine.base import Level, Policy
from engine.hearts2p.ai.easy import EASY_POLICY
from engine.hearts2p.ai.hard import HARD_POLICY
from engine.hearts2p.ai.normal import POLICY as POLICY

POLICIES: dict[Level, Policy] = {
    Level.EASY: EASY_POLICY,
    Level.NORMAL: POLICY,
    Level.HARD: HARD_POLICY,
}
