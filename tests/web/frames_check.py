"""A check of the live table's frames: a frame shows its viewer exactly their own view (a
spectator the spectator's), and nothing of what another seat sees that its viewer may not."""

from __future__ import annotations

import json
from typing import Any

from engine import GAMES


class Leak(AssertionError):
    """A frame shows something its viewer may not see."""


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def check_frame(frame: dict[str, Any], state: Any, seat: int | None) -> None:
    """Raise Leak unless ``frame`` (a table frame, at ``state``) is right for ``seat``."""
    game = GAMES[frame["game"]]
    if frame.get("seat") != seat:
        raise Leak(f"a frame for seat {seat} says seat {frame.get('seat')}")
    mine = _json(game.view(state, seat))
    if frame["view"] != mine:
        raise Leak(f"the frame's view is not seat {seat}'s view")
    public = _json(game.view(state, None))
    text = json.dumps(frame)
    for other in range(len(frame["seats"])):
        if other == seat:
            continue
        theirs = _json(game.view(state, other))
        for key, value in theirs.items():
            hidden = public.get(key) != value and mine.get(key) != value
            if hidden and isinstance(value, list | dict) and value and json.dumps(value) in text:
                raise Leak(f"seat {seat}'s frame shows seat {other}'s {key!r}")
    legal = set() if seat is None else {str(a) for a in game.legal_actions(state, seat)}
    offered = {m["action"] for m in frame["moves"]}
    if not offered <= legal:
        raise Leak(f"seat {seat} is offered moves it may not make: {offered - legal}")
