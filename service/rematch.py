"""Play again: a finished game's players get a new lobby in the same channel (no Discord).

The player who asks hosts the new lobby; the old game's computer players are seated again at
once, each at its level, and the other people are invited to join it (each with one click on
**Join**); the host starts, as in any lobby.
"""

from __future__ import annotations

from dataclasses import dataclass

from db.models import GameStatus
from service.errors import GameClosed, LobbyProblem, NotSeated
from service.games import GameService
from service.reports import Loaded


@dataclass(frozen=True, slots=True)
class Rematch:
    lobby: Loaded
    invited: tuple[int, ...]  # the old game's other people, to be asked to join


async def rematch(
    service: GameService, old_game_id: int, user_id: int, user_name: str, *, channel_id: int
) -> Rematch:
    old = await service.load(old_game_id)
    if old.row.status != GameStatus.FINISHED:
        raise GameClosed("Only a finished game can be played again.")
    if old.row.channel_id != channel_id:
        raise NotSeated("This button belongs to a game in another channel.")
    if old.seat_of(user_id) is None:
        raise NotSeated("Only the players of that game can ask for a rematch.")
    lobby = await service.open_lobby(
        game=old.row.game,
        guild_id=old.row.guild_id,
        channel_id=channel_id,
        host_id=user_id,
        host_name=user_name,
    )
    try:
        for seat in old.seats:
            if seat.is_computer:
                lobby = await service.add_computer(
                    lobby.row.id, user_id, channel_id=channel_id, level=seat.level
                )
    except LobbyProblem:  # the server no longer allows computer players
        lobby = await service.load(lobby.row.id)
    invited = tuple(s.user_id for s in old.seats if s.user_id is not None and s.user_id != user_id)
    return Rematch(lobby, invited)
