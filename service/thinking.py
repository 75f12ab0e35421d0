"""How the service asks a computer player for its move, at a level (no Discord).

:data:`Think` is the question; the bot answers it in a process of its own
(``workers.thinking.Thinker``), tests and tools in a thread (:func:`think_in_thread`).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any

from engine import policy_for
from engine.base import Level

# A computer's choice: (game name, the seat's view, its legal actions, a seeded Random, the
# level it plays at) -> an action.
Think = Callable[[str, Any, list[Any], random.Random, Level], Awaitable[Any]]


async def think_in_thread(
    game: str, view: Any, legal: list[Any], rng: random.Random, level: Level = Level.NORMAL
) -> Any:
    """The game's policy at ``level`` in a worker thread of this process."""
    return await asyncio.to_thread(policy_for(game, level).choose, view, legal, rng)
