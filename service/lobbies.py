"""Lobbies: opening, joining, leaving, computer seats, starting and cancelling a game.

A mixin of :class:`service.games.GameService`, which supplies the store, the per-game locks
and the move machinery a started game needs.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import replace

from db.errors import AlreadySeated, ChannelBusy, StaleVersion
from db.models import GameRow, GameStatus, SeatRow
from db.store import Store
from engine import GAMES
from engine.base import Level
from i18n import N_, Later
from service.errors import GameClosed, LobbyProblem, NotAllowed, NotSeated
from service.reports import Loaded, Report, here, upcoming_at

# Messages raised from more than one place (the lobby cog says COMPUTER_GONE too).
STARTED = N_("This game has already started.")
ALREADY_IN = N_("You are already in this game.")
A_CHALLENGE = N_("This is a challenge between two players.")
FULL = N_("This game is full.")
COMPUTER_GONE = N_("That computer player has already left this lobby.")
ONLY_HOST = N_("Only the host can start the game.")
NO_COMPUTERS = N_("This server's settings do not allow computer players.")

COMPUTER_NAMES = ("Robo Max", "Cindy-Bot", "Unit Lou", "Byte Who", "Gear Gnome", "Tin Ten")
MOST_WAITING = 50  # people waiting for one channel's next game

log = logging.getLogger(__name__)


class Lobbies(ABC):
    store: Store
    _clock: Callable[[], float]

    @abstractmethod
    def lock(self, game_id: int) -> asyncio.Lock: ...

    @abstractmethod
    async def load(self, game_id: int) -> Loaded: ...

    @abstractmethod
    def _deadlines(
        self,
        seats: list[SeatRow],
        to_act: set[int],
        previous: dict[int, float | None],
        was_to_act: set[int],
        row: GameRow,
    ) -> dict[int, float | None]: ...

    @abstractmethod
    def resume_deadline(self) -> float: ...

    @abstractmethod
    async def _run_computers(self, report: Report) -> None: ...

    @abstractmethod
    def _timers_set(self, deadlines: Iterable[float | None]) -> None: ...

    # -- lobby ---------------------------------------------------------------------------

    async def open_lobby(
        self,
        *,
        game: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        opponent: tuple[int, str] | None = None,
    ) -> Loaded:
        """A lobby with the host seated; an invited opponent gets a seat to accept."""
        try:
            row = await self.store.lobbies.create_lobby(
                guild_id=guild_id,
                channel_id=channel_id,
                game=game,
                host_id=host_id,
                host_name=host_name,
                seed=secrets.randbits(31),
            )
        except ChannelBusy as exc:
            raise LobbyProblem(
                "This channel already has a game. Finish or cancel it first."
            ) from exc
        if opponent is not None:
            await self.store.lobbies.add_seat(
                row.id,
                user_id=opponent[0],
                name=opponent[1],
                max_seats=GAMES[game].max_players,
                accepted=False,
            )
        else:
            await self._seat_waiting(row.id, channel_id, host_id)
        return await self.load(row.id)

    # -- the next game -------------------------------------------------------------------

    async def wait_for_next_game(self, channel_id: int, user_id: int, name: str) -> None:
        """Someone watching the channel's running game asks for a seat in its next one:
        the channel's next lobby seats them (asked twice: still one ask)."""
        if not await self.store.waits.ask(channel_id, user_id, name, self._clock(), MOST_WAITING):
            raise LobbyProblem(FULL)

    async def skip_next_game(self, channel_id: int, user_id: int) -> None:
        """The user no longer asks for a seat in the channel's next game."""
        await self.store.waits.drop(channel_id, user_id)

    async def waits_for_next_game(self, channel_id: int, user_id: int) -> bool:
        """Whether the user asked for a seat in the channel's next game (and may still get it)."""
        return await self.store.waits.waiting(channel_id, user_id, self._clock())

    async def _seat_waiting(self, game_id: int, channel_id: int, host_id: int) -> None:
        """Seat whoever asked for a seat in the channel's next game, the oldest ask first, as
        a press of **Join** would. A challenge's lobby seats nobody: they wait for the next.
        Whoever cannot be seated (the lobby full) waits no more; the lobby is open to them."""
        try:
            waiting = await self.store.waits.take(channel_id, self._clock())
        except Exception:
            log.exception("could not read who waits for channel %s's next game", channel_id)
            return
        for user_id, name in waiting:
            if user_id == host_id:
                continue
            try:
                await self.join(game_id, user_id, name, channel_id=channel_id)
            except LobbyProblem as exc:
                log.info("user %s waited for a seat in game %s: %s", user_id, game_id, exc)
            except Exception:
                log.exception("could not seat user %s in game %s", user_id, game_id)

    async def _lobby(self, game_id: int, channel_id: int | None) -> Loaded:
        loaded = here(await self.load(game_id), channel_id)
        if loaded.row.status == GameStatus.ACTIVE:
            raise LobbyProblem(STARTED)
        if loaded.row.status != GameStatus.LOBBY:
            raise LobbyProblem("This lobby is closed.")
        return loaded

    async def join(
        self, game_id: int, user_id: int, name: str, *, channel_id: int | None = None
    ) -> Loaded:
        async with self.lock(game_id):
            loaded = await self._lobby(game_id, channel_id)
            seat = loaded.seat_of(user_id)
            if seat is not None:
                raise LobbyProblem(ALREADY_IN)
            if any(not s.accepted for s in loaded.seats):
                raise LobbyProblem(A_CHALLENGE)
            try:
                added = await self.store.lobbies.add_seat(
                    game_id, user_id=user_id, name=name, max_seats=loaded.game.max_players
                )
            except AlreadySeated as exc:
                raise LobbyProblem(ALREADY_IN) from exc
            if added is None:
                raise LobbyProblem(FULL)
            return await self.load(game_id)

    async def accept(self, game_id: int, user_id: int, *, channel_id: int | None = None) -> Report:
        """The challenged player accepts: the game starts at once."""
        async with self.lock(game_id):
            loaded = await self._lobby(game_id, channel_id)
            seat = loaded.seat_of(user_id)
            if seat is None or seat.accepted:
                raise NotSeated("This challenge is for someone else.")
            await self.store.lobbies.accept_seat(game_id, seat.seat)
            return await self._start(await self.load(game_id))

    async def leave(
        self, game_id: int, user_id: int, *, channel_id: int | None = None
    ) -> Loaded | None:
        """Leave a lobby; when the host leaves, the lobby closes (returns None)."""
        async with self.lock(game_id):
            loaded = await self._lobby(game_id, channel_id)
            seat = loaded.seat_of(user_id)
            if seat is None:
                raise LobbyProblem("You are not in this game.")
            if user_id == loaded.row.host_id or not seat.accepted:
                await self.store.play.end(game_id, GameStatus.CANCELLED)
                return None
            await self.store.lobbies.remove_seat(game_id, seat.seat)
            return await self.load(game_id)

    async def add_computer(
        self,
        game_id: int,
        user_id: int,
        *,
        channel_id: int | None = None,
        level: Level | None = None,
    ) -> Loaded:
        """Seat a computer player at ``level`` (None: the server's default level)."""
        async with self.lock(game_id):
            loaded = await self._lobby(game_id, channel_id)
            if loaded.seat_of(user_id) is None:
                raise NotSeated("Join the game first, then you can add computer players.")
            if any(not s.accepted for s in loaded.seats):
                raise LobbyProblem(A_CHALLENGE)
            settings = await self.store.servers.guild_settings(loaded.row.guild_id)
            if not settings.computers:
                raise LobbyProblem(NO_COMPUTERS)
            taken = {s.name for s in loaded.seats}
            name = next((n for n in COMPUTER_NAMES if n not in taken), "Computer")
            added = await self.store.lobbies.add_seat(
                game_id,
                user_id=None,
                name=name,
                max_seats=loaded.game.max_players,
                is_computer=True,
                level=settings.computer_level if level is None else level,
            )
            if added is None:
                raise LobbyProblem(FULL)
            return await self.load(game_id)

    async def remove_computer(
        self, game_id: int, user_id: int, seat: int, name: str, *, channel_id: int | None = None
    ) -> Loaded:
        """Take the computer named ``name`` out of ``seat`` of the lobby; anyone seated may.
        Refused (nothing changed) when it is gone already: a double click, an old menu."""
        async with self.lock(game_id):
            await self._computer_seat(game_id, user_id, seat, name, channel_id)
            if not await self.store.lobbies.remove_lobby_computer(game_id, seat, name):
                await self._lobby(game_id, channel_id)  # started or closed meanwhile: says so
                raise LobbyProblem(COMPUTER_GONE)
            return await self.load(game_id)

    async def set_computer_level(
        self,
        game_id: int,
        user_id: int,
        seat: int,
        name: str,
        level: Level,
        *,
        channel_id: int | None = None,
    ) -> Loaded:
        """The computer named ``name`` in ``seat`` of the lobby plays at ``level``; anyone
        seated may choose. Choosing the level it has already changes nothing."""
        async with self.lock(game_id):
            await self._computer_seat(game_id, user_id, seat, name, channel_id)
            if not await self.store.lobbies.set_lobby_computer_level(game_id, seat, name, level):
                await self._lobby(game_id, channel_id)
                raise LobbyProblem(COMPUTER_GONE)
            return await self.load(game_id)

    async def _computer_seat(
        self, game_id: int, user_id: int, seat: int, name: str, channel_id: int | None
    ) -> SeatRow:
        """The lobby's computer in ``seat`` named ``name``, for a seated ``user_id``; the
        caller holds the game's lock."""
        loaded = await self._lobby(game_id, channel_id)
        if loaded.seat_of(user_id) is None:
            raise NotSeated("Join the game first, then you can change the computer players.")
        found = next((s for s in loaded.seats if s.seat == seat), None)
        if found is None or not found.is_computer or found.name != name:
            raise LobbyProblem(COMPUTER_GONE)
        return found

    async def computers_allowed(self, guild_id: int) -> bool:
        """Whether the server's settings allow computer players (the lobby then offers them)."""
        return (await self.store.servers.guild_settings(guild_id)).computers

    async def start(self, game_id: int, user_id: int, *, channel_id: int | None = None) -> Report:
        async with self.lock(game_id):
            loaded = await self._lobby(game_id, channel_id)
            if user_id != loaded.row.host_id:
                raise NotAllowed(ONLY_HOST)
            return await self._start(loaded)

    async def _start(self, loaded: Loaded) -> Report:
        """Lobby -> active; the caller holds the game's lock."""
        game_id, game = loaded.row.id, loaded.game
        if any(not s.accepted for s in loaded.seats):
            raise LobbyProblem("Your opponent has not accepted yet.")
        if len(loaded.seats) < game.min_players:
            raise LobbyProblem.counted(
                "{game} needs at least {n} player (you have {seated}).",
                "{game} needs at least {n} players (you have {seated}).",
                game.min_players,
                game=Later(game.title),
                seated=len(loaded.seats),
            )
        state = game.new_game(len(loaded.seats), loaded.row.seed)
        deadlines = self._deadlines(loaded.seats, game.to_act(state), {}, set(), loaded.row)
        upcoming = upcoming_at(game, state, loaded.seats, 0)
        resume_after = None if upcoming.seat is None else self.resume_deadline()
        try:
            row = await self.store.play.start(game_id, game.to_json(state), deadlines, resume_after)
        except StaleVersion as exc:
            raise LobbyProblem(STARTED) from exc
        seats = [replace(s, deadline=deadlines.get(s.seat)) for s in loaded.seats]
        report = Report(
            before=loaded, after=Loaded(row, seats, state), started=state, upcoming=upcoming
        )
        if any(d is not None for d in deadlines.values()):
            report.deadlines_changed = True
            self._timers_set(deadlines.values())
        await self._run_computers(report)
        return report

    async def cancel(
        self, game_id: int, user_id: int, *, is_admin: bool, channel_id: int | None = None
    ) -> Loaded:
        async with self.lock(game_id):
            loaded = here(await self.load(game_id), channel_id)
            if not loaded.row.is_open:
                raise GameClosed("This game is already over.")
            if user_id != loaded.row.host_id and not is_admin:
                raise NotAllowed("Only the host or a member with Manage Server can cancel.")
            await self.store.play.end(game_id, GameStatus.CANCELLED)
            return await self.load(game_id)
