"""Leaving a running game (a computer takes the seat and plays on) and closing idle lobbies.

No Discord. A person who leaves is replaced at once by a computer player, which moves
whenever the seat is due, so the game always reaches its end; the seat (and the result,
once the game is over) keeps who left. If the host leaves, the host's powers pass to the next
person in seat order.

The leaver keeps a result of their own: their total when they left (and the step), placed
last among the seats by the rating (``service.ratings.leavers_last``).
"""

from __future__ import annotations

from dataclasses import dataclass

from db.models import GameStatus
from engine.base import Level
from i18n import Later, later
from service.errors import GameClosed, NotSeated
from service.games import GameService
from service.lobbies import COMPUTER_NAMES
from service.owed import line
from service.reports import Loaded, Report, Said, here

LOBBY_IDLE = 15 * 60.0  # seconds without a seat taken or given up before a lobby closes


@dataclass(frozen=True, slots=True)
class Left:
    report: Report  # what the computer did after taking the seat (for the publisher)
    computer: str
    new_host: str | None
    level: Level = Level.NORMAL  # the computer's (the server's default)


def level_later(level: Level) -> Later:
    """The level's word as presentation.base.level_word says it, translated where shown."""
    return Later(str(level), context="computer level")


async def leave_game(
    service: GameService, game_id: int, user_id: int, *, channel_id: int | None = None
) -> Left:
    async with service.lock(game_id):
        loaded = here(await service.load(game_id), channel_id)
        if loaded.row.status == GameStatus.LOBBY:
            raise GameClosed(GameClosed.NOT_STARTED)
        if loaded.row.status != GameStatus.ACTIVE:
            raise GameClosed(GameClosed.OVER)
        seat = loaded.seat_of(user_id)
        if seat is None:
            raise NotSeated(NotSeated.NOT_A_PLAYER)
        taken = {s.name for s in loaded.seats}
        computer = next((n for n in COMPUTER_NAMES if n not in taken), "Computer")
        people = [s for s in loaded.seats if s.user_id is not None and s.user_id != user_id]
        heir = people[0] if people and user_id == loaded.row.host_id else None
        # Due now, the computer moves below; should this process stop first, another one
        # plays it after the grace. Not due, the move that makes it due marks the game.
        due = seat.seat in loaded.game.to_act(loaded.state)
        level = (await service.store.servers.guild_settings(loaded.row.guild_id)).computer_level
        totals = loaded.game.view(loaded.state, None)["totals"]  # every game's view has them
        if heir is None:
            text = later(
                "🚪 {name} left the game; {computer} 🤖 {level} plays their seat.",
                name=seat.name,
                computer=computer,
                level=level_later(level),
            )
        else:
            text = later(
                "🚪 {name} left the game; {computer} 🤖 {level} plays their seat. {host} is the "
                "host now.",
                name=seat.name,
                computer=computer,
                level=level_later(level),
                host=heir.name,
            )
        # The channel's line is owed from the leave's own transaction (service.owed).
        said = Said(line(game_id, loaded.row.version, text), text=text)
        handed = await service.store.seats.hand_seat_to_computer(
            game_id,
            seat.seat,
            name=computer,
            new_host=None if heir is None else heir.user_id,
            resume_after=service.resume_deadline() if due else None,
            level=level,  # the server's default: nobody chose one
            owed=[said.owed],
            left_total=int(totals[seat.seat]),  # the leaver's own result, as they leave it
        )
        if not handed:
            raise GameClosed(GameClosed.OVER)
    report = await service.resume(game_id)  # the computer moves if the seat is due
    report.notices.insert(0, text)
    report.said.insert(0, said)
    return Left(report, computer, None if heir is None else heir.name, level)


async def close_idle_lobbies(
    service: GameService, now: float, *, idle: float = LOBBY_IDLE
) -> list[Loaded]:
    """Cancel every lobby idle for ``idle`` seconds; the closed lobbies (their channels are
    free again)."""
    closed = []
    for game_id in await service.store.lobbies.idle_lobbies(now - idle):
        async with service.lock(game_id):
            if await service.store.lobbies.close_idle_lobby(game_id, now - idle):
                closed.append(await service.load(game_id))
    return closed
