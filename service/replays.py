"""History and replays of finished games, from the seed and the action log (no Discord).

A replay is recomputed, never stored: the engine is deterministic for a seed, so the state
after step ``k`` is the first state with the first ``k`` actions of the log applied. The
export (:meth:`Replays.export`) is a JSON document with everything needed for that, and each
computer player's level; :func:`replay_export` plays one back to its final state.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from db.errors import NotFound
from db.models import ActionRow, GameRow, GameStatus, SeatRow
from db.store import Store
from engine import GAMES
from engine.base import IllegalAction, Level, View
from engine.sheet import final_sheet
from service.errors import NoGame

EXPORT_FORMAT = 1
HISTORY_LIMIT = 5


@dataclass(frozen=True, slots=True)
class Player:
    """A seat as a replay shows it; its facts named as a stored seat's (:class:`SeatRow`)."""

    seat: int
    name: str
    user_id: int | None
    is_computer: bool
    level: Level | None = None  # a computer's level (None for a person)
    left_name: str | None = None  # who left this seat to the computer playing it
    left_total: int | None = None  # and their total when they left


@dataclass(frozen=True, slots=True)
class Summary:
    """One finished game as /history lists it."""

    game_id: int
    game: str
    ended_at: float
    players: tuple[Player, ...]
    totals: tuple[int, ...]
    winners: frozenset[int]


@dataclass(frozen=True, slots=True)
class Frame:
    """One step of a replay: the spectator's view after ``step`` of ``steps`` actions.

    ``move`` is the action that led here (seat, action text, who played it). Only the
    spectator's view is ever given: what a finished game reveals (its result) is in the view
    of the last step, and nothing hidden is shown at any step before it.
    """

    game_id: int
    game: str
    step: int
    steps: int
    view: View
    players: tuple[Player, ...]
    move: tuple[int, str, str] | None
    left: tuple[int, ...] = ()  # the seats whose person left right after this step


def _player(s: SeatRow, step: int | None = None) -> Player:
    """The seat as the game showed it after ``step`` moves (None: at its end): the person who
    left it until they left, then the computer that took it over."""
    if s.left_name is not None and step is not None and step < (s.left_step or 0):
        return Player(s.seat, s.left_name, s.left_user_id, False)
    level = s.level if s.is_computer else None
    return Player(s.seat, s.name, s.user_id, s.is_computer, level, s.left_name, s.left_total)


def _players(seats: list[SeatRow], step: int | None = None) -> tuple[Player, ...]:
    return tuple(_player(s, step) for s in seats)


def _options(row: GameRow) -> dict[str, Any] | None:
    found = json.loads(row.options or "{}")
    return found if isinstance(found, dict) and found else None


def replay_export(data: Mapping[str, Any]) -> Any:
    """The final state of an exported game, replayed by the engine; ValueError if the
    document is not an export or an action does not apply."""
    if data.get("format") != EXPORT_FORMAT or data.get("game") not in GAMES:
        raise ValueError("not a game export of this bot")
    game = GAMES[str(data["game"])]
    options = data.get("options") or None
    state = game.new_game(len(data["players"]), int(data["seed"]), options)
    for entry in data["actions"]:
        try:
            state = game.apply(state, int(entry["seat"]), game.parse_action(str(entry["action"])))
        except IllegalAction as exc:
            raise ValueError(f"action {entry.get('seq')} does not apply: {exc}") from exc
    return state


class Replays:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def recent(
        self,
        guild_id: int,
        *,
        channel_id: int | None = None,
        user_id: int | None = None,
        limit: int = HISTORY_LIMIT,
    ) -> list[Summary]:
        rows = await self.store.players.recent_games(
            guild_id, channel_id=channel_id, user_id=user_id, limit=limit
        )
        found = []
        for row in rows:
            seats = await self.store.games.seats(row.id)
            results = await self.store.games.result_rows(row.id)
            found.append(
                Summary(
                    row.id,
                    row.game,
                    float(row.ended_at or row.updated_at),
                    _players(seats),
                    tuple(r.total for r in results),
                    frozenset(r.seat for r in results if r.won),
                )
            )
        return found

    async def _finished(self, game_id: int, guild_id: int) -> tuple[GameRow, list[SeatRow]]:
        try:
            row = await self.store.games.game(game_id)
        except NotFound as exc:
            raise NoGame(NoGame.GONE) from exc
        if row.guild_id != guild_id:
            raise NoGame("That game was played in another server.")
        if row.status != GameStatus.FINISHED:
            raise NoGame("Only finished games can be replayed.")
        return row, await self.store.games.seats(game_id)

    async def frame(self, game_id: int, step: int, *, guild_id: int) -> Frame:
        """The replay at ``step`` (clamped to 0..the number of actions)."""
        row, seats = await self._finished(game_id, guild_id)
        actions = await self.store.games.actions(game_id)
        step = max(0, min(step, len(actions)))
        game = GAMES[row.game]
        state = game.new_game(len(seats), row.seed, _options(row))
        for action in actions[:step]:
            state = game.apply(state, action.seat, game.parse_action(action.action))
        last: ActionRow | None = actions[step - 1] if step else None
        return Frame(
            game_id,
            row.game,
            step,
            len(actions),
            game.view(state, None),
            _players(seats, step),
            None if last is None else (last.seat, last.action, last.actor),
            tuple(s.seat for s in seats if s.left_name is not None and s.left_step == step),
        )

    async def export(self, game_id: int, *, guild_id: int) -> dict[str, Any]:
        """Seed, options, players, every action in order and the outcome, as JSON data."""
        row, seats = await self._finished(game_id, guild_id)
        game = GAMES[row.game]
        outcome = game.outcome(game.from_json(row.snapshot or ""))
        if outcome is None:
            raise NoGame("That game has no result.")
        sheet = final_sheet(outcome, lowest_wins=game.lowest_wins)
        return {
            "format": EXPORT_FORMAT,
            "game_id": row.id,
            "game": row.game,
            "title": game.title,
            "seed": row.seed,
            "options": _options(row) or {},
            "started_at": row.created_at,
            "ended_at": row.ended_at,
            "players": [
                {  # "level": a computer's ("easy", "normal", "hard"); null for a person
                    "seat": s.seat,
                    "name": s.name,
                    "user_id": s.user_id,
                    "computer": s.is_computer,
                    "level": s.level if s.is_computer else None,
                    # the person who left the seat to that computer: after how many actions,
                    # with which total; null for a seat nobody left
                    "left": None
                    if s.left_name is None
                    else {
                        "name": s.left_name,
                        "user_id": s.left_user_id,
                        "step": s.left_step,
                        "total": s.left_total,
                    },
                }
                for s in seats
            ],
            "actions": [
                {"seq": a.seq, "seat": a.seat, "action": a.action, "actor": a.actor, "at": a.at}
                for a in await self.store.games.actions(game_id)
            ],
            "outcome": {  # the score sheet every screen reads
                "totals": list(sheet.totals),
                "winners": sorted(sheet.winners),
                "places": list(sheet.places),
                "reason": outcome.reason,
            },
        }
