"""The end of a game on the live table: its final standings and each round's totals.

Both come from the game's score sheet (engine/sheet.py, through
:func:`presentation.drawing.api.chart_sheet`), the one the chat's result, ``/scores`` and the
score chart take theirs from, so the page's numbers are the chat's. No words: the page names
places and rounds itself.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from db.models import ActionRow
from engine.base import View
from presentation.drawing.api import chart_sheet
from service.reports import Loaded

JSON = dict[str, Any]


def replayed_views(loaded: Loaded, actions: Sequence[ActionRow]) -> list[View]:
    """Spectator views after every move, replaying the log from the game's seed (the chart's
    rounds of a game whose final view does not keep them)."""
    game = loaded.game
    options = json.loads(loaded.row.options or "{}") or None  # as the game was started
    state = game.new_game(len(loaded.seats), loaded.row.seed, options)
    views: list[View] = []
    for action in actions:
        state = game.apply(state, action.seat, game.parse_action(action.action))
        views.append(game.view(state, None))
    return views


def ending_json(loaded: Loaded, actions: Sequence[ActionRow]) -> JSON:
    """A finished game's standings, best place first (name, total, place, whether it won), and
    every player's total after each round (the chart's points, the last one the totals)."""
    final = loaded.game.view(loaded.state, None)
    sheet = chart_sheet(final, lambda: replayed_views(loaded, actions))
    names = [s.name for s in sorted(loaded.seats, key=lambda s: s.seat)]
    order = sorted(range(len(sheet.totals)), key=lambda s: (sheet.places[s], s))
    return {
        "names": names,
        "standings": [
            {
                "seat": s,
                "name": names[s] if s < len(names) else "?",
                "total": sheet.totals[s],
                "place": sheet.places[s],
                "winner": s in sheet.winners,
            }
            for s in order
        ],
        "rounds": [list(row) for row in sheet.rounds],
        "lowest_wins": loaded.game.lowest_wins,
    }
