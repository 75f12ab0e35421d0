"""The last few moves of each watched game, for the frames' ``last`` lines.

A move's line (``GameUI.move_line``) is drawn from the spectator's view right after it, so
each game's state is followed move by move from the action log: the moves since the version
last seen are applied to the state kept for it (the first time, the whole log from the seed).
What is kept is the seat, the action and that public view, never a private one.
"""

from __future__ import annotations

import logging
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from db.models import ActionRow
from engine.base import IllegalAction
from service.reports import Loaded

log = logging.getLogger(__name__)

KEPT_MOVES = 5
KEPT_GAMES = 512

Line = tuple[int, str, Any]  # (seat, action text, the spectator's view after the move)
ActionsOf = Callable[[int], Awaitable[list[ActionRow]]]


@dataclass(slots=True)
class _Followed:
    version: int
    state: Any
    moves: deque[Line] = field(default_factory=lambda: deque(maxlen=KEPT_MOVES))


class Recent:
    def __init__(self) -> None:
        self._games: OrderedDict[int, _Followed] = OrderedDict()

    async def moves(self, loaded: Loaded, actions_of: ActionsOf) -> list[Line]:
        """The last moves of ``loaded``'s game, oldest first."""
        game_id, version = loaded.row.id, loaded.row.version
        followed = self._games.get(game_id)
        if followed is not None and followed.version == version:
            self._games.move_to_end(game_id)
            return list(followed.moves)
        if followed is None or followed.version > version:
            game = loaded.game
            followed = _Followed(-1, game.new_game(len(loaded.seats), loaded.row.seed))
        try:
            self._follow(loaded, followed, await actions_of(game_id))
        except (IllegalAction, ValueError):
            log.warning("game %s: its log does not replay; no recent moves shown", game_id)
            followed.moves.clear()
        followed.version, followed.state = version, loaded.state
        self._games[game_id] = followed
        self._games.move_to_end(game_id)
        while len(self._games) > KEPT_GAMES:
            self._games.popitem(last=False)
        return list(followed.moves)

    @staticmethod
    def _follow(loaded: Loaded, followed: _Followed, actions: list[ActionRow]) -> None:
        game, state = loaded.game, followed.state
        for row in actions:
            if row.seq <= followed.version or row.seq > loaded.row.version:
                continue
            state = game.apply(state, row.seat, game.parse_action(row.action))
            followed.moves.append((row.seat, row.action, game.view(state, None)))
