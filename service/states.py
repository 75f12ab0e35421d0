"""The engine state each game was last seen in, kept so a move's load does not parse again
the snapshot this process's previous move of that game wrote (a Grinch snapshot takes about
0.1 ms to parse, a move loads one). It also hands the publisher the very state object its
last report ended on, whose views it has already drawn.

A game's snapshot changes only with its version (``store.start`` writes version 0,
``store.play.record_move`` the next one, on any process), so a state known for the version the
database holds is that snapshot's state. States are never modified. Only running games are
kept, the most recently used first, at most :data:`STATES_KEPT`.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from db.models import GameRow, GameStatus
from engine import GAMES

STATES_KEPT = 4096  # running games whose state is kept (one state each)


class KnownStates:
    def __init__(self, kept: int = STATES_KEPT) -> None:
        self._kept = kept
        self._states: OrderedDict[int, tuple[int, Any]] = OrderedDict()  # id -> (version, state)

    def of(self, row: GameRow) -> Any | None:
        """The state of ``row``'s snapshot (None before the game started)."""
        if not row.snapshot:
            return None
        known = self._states.get(row.id)
        if known is not None and known[0] == row.version:
            state = known[1]
        else:
            state = GAMES[row.game].from_json(row.snapshot)
        self.saw(row, state)  # kept while the game runs, forgotten once it ended
        return state

    def saw(self, row: GameRow, state: Any) -> None:
        """``state`` is ``row``'s (just recorded or parsed): kept while the game runs."""
        if row.status != GameStatus.ACTIVE:
            self._states.pop(row.id, None)
            return
        self._states[row.id] = (row.version, state)
        self._states.move_to_end(row.id)
        if len(self._states) > self._kept:
            self._states.popitem(last=False)

    def __len__(self) -> int:
        return len(self._states)
