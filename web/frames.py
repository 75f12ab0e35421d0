"""The frames the live table sends a viewer (docs/activity.md), made from engine views only.

A seated viewer's frame holds ``game.view(state, their seat)``, and its moves and panels are
their DM's, drawn by the same renderer (``presentation/<game>``); anyone else gets the
spectator's view (``game.view(state, None)``) and the table's panel. Raw state never enters a
frame. Text is in the current language (the caller sets the viewer's).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from db.models import GameStatus, SeatRow
from engine import GAMES
from presentation import UIS
from presentation.base import Button, Control, Panel, Select, onlookers
from presentation.viewing import Views, names_of
from service.reports import Loaded
from web.members import Face

JSON = dict[str, Any]
# Each game a lobby can open and its count of players, in the registry's order.
GAME_LIST = [{"game": n, "min": g.min_players, "max": g.max_players} for n, g in GAMES.items()]


def panel_json(panel: Panel) -> JSON:
    return {
        "title": panel.title,
        "description": panel.text(),
        "fields": [[name, value] for name, value, _inline in panel.fields],
        "footer": panel.foot(),
    }


def moves_of(controls: tuple[Control, ...]) -> list[JSON]:
    """The moves a hand's controls offer: each clickable button, each option of a menu."""
    moves: list[JSON] = []
    for control in controls:
        if isinstance(control, Button):
            if control.action is not None and not control.disabled:
                label = f"{control.emoji} {control.label}" if control.emoji else control.label
                moves.append({"action": control.action, "label": label.strip()})
        elif isinstance(control, Select):
            for label, action, description in control.options:
                moves.append({"action": action, "label": label, "detail": description})
    return moves


def seats_json(
    loaded: Loaded, user_id: int | None, faces: Mapping[int, Face] | None = None
) -> list[JSON]:
    """Each seat's name and kind, whether it is the viewer's, and when its running turn timer
    ends (as the chat table shows every seat's timer), so the table can time whoever acts; a
    person's name in the server and avatar (a path on Discord's CDN) when ``faces`` has them
    (web/members.py), else the stored name and no avatar."""
    live = loaded.row.status == GameStatus.ACTIVE
    known = faces or {}

    def face(s: SeatRow) -> Face | None:
        return None if s.is_computer or s.user_id is None else known.get(s.user_id)

    return [
        {
            "name": (found.name if (found := face(s)) and found.name else s.name),
            "avatar": found.avatar if found else None,
            "computer": s.is_computer,
            "level": str(s.level) if s.is_computer else None,
            "you": user_id is not None and s.user_id == user_id,
            "deadline": s.deadline if live else None,
        }
        for s in loaded.seats
    ]


def table_frame(
    loaded: Loaded,
    seat: SeatRow | None,
    views: Views,
    last: list[str],
    faces: Mapping[int, Face] | None = None,
) -> JSON:
    """The frame of a started game for the viewer in ``seat`` (None: a spectator); ``faces``:
    the seated people's names and avatars (see :func:`seats_json`)."""
    game, state, ui = loaded.game, loaded.state, UIS[loaded.row.game]
    names = names_of(loaded)
    live = loaded.row.status == GameStatus.ACTIVE
    public = views.of(game, state, None)
    seat_no = None if seat is None else seat.seat
    to_act = sorted(game.to_act(state)) if live else []
    if seat is None:
        view = public
        moves: list[JSON] = []
        panels = [panel_json(onlookers(ui.table(public, names)))]
        deadline = min((s.deadline for s in loaded.seats if s.deadline is not None), default=None)
    else:
        view = views.of(game, state, seat.seat)
        legal = views.legal(game, state, seat.seat) if live else []
        screen = ui.hand(view, legal, names)
        # A seat's only move that the bot plays for it (``Game.forced``) is played right after
        # this version is saved: offering it would show a button that is gone before it works.
        forced = len(legal) == 1 and game.forced(state, seat.seat) is not None
        moves = moves_of(screen.controls) if live and not forced else []
        panels = [panel_json(p) for p in screen.panels]
        deadline = seat.deadline
    outcome = game.outcome(state)
    result = None
    if outcome is not None:
        result = {
            "panel": panel_json(ui.result(public, names)),
            "winners": sorted(outcome.winners),
            "totals": list(outcome.totals),
        }
    return {
        "type": "table",
        "game": loaded.row.game,
        "game_id": loaded.row.id,
        "version": loaded.row.version,
        "seat": seat_no,
        "step": None if seat is None or not live else seat.step,
        "view": view,
        "moves": moves,
        "seats": seats_json(loaded, None if seat is None else seat.user_id, faces),
        "to_act": to_act,
        "deadline": deadline,
        "last": last,
        "panels": panels,
        "scores": panel_json(ui.scores(public, names)),
        "status": "active" if live else "finished",
        "result": result,
    }


def lobby_frame(
    lobby: Loaded | None,
    user_id: int,
    *,
    computers: bool,
    last_result: JSON | None,
    can_post: bool | None = None,
) -> JSON:
    """The frame of a channel with no running game: its lobby (if one is open) and the result
    of its last finished game; with no lobby, the games that can be started and whether the
    bot may post in the channel (``can_post``; None: not known before it tries)."""
    body: JSON | None = None
    if lobby is not None:
        game = GAMES[lobby.row.game]
        joined = lobby.seat_of(user_id) is not None
        host = lobby.row.host_id == user_id
        hosting = next((s.name for s in lobby.seats if s.user_id == lobby.row.host_id), "")
        body = {
            "game": lobby.row.game,
            "game_id": lobby.row.id,
            "host": host,
            "host_name": hosting,
            "players": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "computer": s.is_computer,
                    "level": str(s.level) if s.is_computer else None,
                    "accepted": s.accepted,
                }
                for s in lobby.seats
            ],
            "min": game.min_players,
            "max": game.max_players,
            "joined": joined,
            "can_start": host and len(lobby.seats) >= game.min_players,
            "computers": computers,
        }
    frame: JSON = {"type": "lobby", "lobby": body, "last_result": last_result, "games": GAME_LIST}
    if lobby is None:
        frame["can_post"] = can_post
    return frame


def result_json(
    finished: Loaded,
    ending: JSON | None = None,
    *,
    seat: SeatRow | None = None,
    views: Views | None = None,
    last: list[str] | None = None,
) -> JSON | None:
    """The last result of a channel: its game's result panel (None: not a finished game);
    with ``ending`` (web/ending.py) its standings and rounds, and with ``views`` the final
    table as the viewer in ``seat`` sees it (the last trick or round left on the table), with
    ``last``, its last moves in words."""
    if finished.row.status != GameStatus.FINISHED or finished.state is None:
        return None
    game = finished.game
    public = game.view(finished.state, None)
    panel = UIS[finished.row.game].result(public, names_of(finished))
    found: JSON = {
        "game": finished.row.game,
        "game_id": finished.row.id,
        "panel": panel_json(panel),
    }
    if ending is not None:
        found.update(ending)
    if views is not None:
        found["table"] = table_frame(finished, seat, views, last or [])
    return found
