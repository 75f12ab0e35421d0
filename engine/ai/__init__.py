"""Computer players. Each sees only its own seat's view and the legal actions."""

from __future__ import annotations

import importlib

from engine.base import Policy

# Game name (as in engine.GAMES) -> module under engine/ai/ exposing POLICY.
_MODULES = {"grinch": "grinch", "hearts": "hearts2p", "gnome": "gnoming", "ten": "ten"}


def policy_for(game_name: str) -> Policy:
    """The computer player for a game (raises KeyError for an unknown game)."""
    module = importlib.import_module(f"engine.ai.{_MODULES[game_name]}")
    policy: Policy = module.POLICY
    return policy
