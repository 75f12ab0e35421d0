"""Computer players thinking in a process of their own: ``python -m workers.thinking``.

A computer's choice is pure Python, from about a millisecond (Gnoming, Ten) to over a hundred
(Hearts at its hardest points). In a thread of the bot's process that would hold the
interpreter lock the event loop needs, and every click of every game would wait behind it.
:class:`Thinker` sends the seat's view, its legal actions, the seeded ``Random`` and the level
it plays at (``engine.base.Level``) to a child process (workers.runner) and gets the action
back: the same action the thread would have chosen,
since the child draws from a copy of the same ``Random`` (Hearts's computer searches for a
fixed time, so how far it gets depends on the machine's load wherever it runs).

If the process cannot answer (it died, hung or could not start), the computer thinks in a
thread instead: a game never waits on a broken helper. A policy that raises is raised here
too, and the service plays at random for it.
"""

from __future__ import annotations

import asyncio
import logging
import random
import sys
from collections.abc import Sequence
from typing import Any

from engine import GAMES, policy_for
from engine.base import Level
from workers.runner import ChildFailed, ChildProcess, Handlers, run_child

log = logging.getLogger(__name__)

MODULE = "workers.thinking"


def choose(
    game: str, view: Any, legal: list[Any], rng: random.Random, level: str = Level.NORMAL
) -> Any:
    """The computer's action at ``level`` (in the child; the level crosses the pipe as its
    text, so a child from before levels existed is never sent a class it lacks)."""
    return policy_for(game, Level(level)).choose(view, legal, rng)


HANDLERS: Handlers = {"choose": choose}


class Thinker:
    """The service's ``think``: computers choose in a child process, else in a thread."""

    def __init__(self, command: Sequence[str] | None = None) -> None:
        self.child = ChildProcess(MODULE, command=command)

    async def __call__(
        self,
        game: str,
        view: Any,
        legal: list[Any],
        rng: random.Random,
        level: Level = Level.NORMAL,
    ) -> Any:
        try:
            return await self.child.call("choose", game, view, legal, rng, str(level))
        except ChildFailed as exc:
            if not exc.crashed:
                raise  # the policy itself failed: the caller plays at random, as in a thread
            log.warning("computer player thinking in a thread: %s", exc)
        return await asyncio.to_thread(choose, game, view, legal, rng, str(level))

    async def start(self) -> None:
        await self.child.start()

    async def close(self) -> None:
        await self.child.close()


if __name__ == "__main__":
    for name in GAMES:  # every computer ready before the first question (Hearts's takes ~0.1 s)
        for each in Level:
            policy_for(name, each)
    sys.exit(run_child(HANDLERS))
