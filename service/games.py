"""Game service: lobbies, moves, computer players and turn timers, over the engine and store.

No Discord here: the cogs call one method per user gesture and render what comes back.
Every accepted move is committed to the store before the method returns.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
import weakref
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from db.errors import (
    AlreadySeated,
    ChannelBusy,
    NotFound,
    StaleVersion,
    StorageFull,
    StoreUnavailable,
)
from db.models import SeatRow
from db.store import SeatUpdate, Store
from engine import GAMES, policy_for
from engine.base import IllegalAction
from service.errors import (
    CannotSave,
    GameClosed,
    LobbyProblem,
    NoGame,
    NotAllowed,
    NotSeated,
    RejectedMove,
    StaleMove,
)
from service.reports import Loaded, Move, Report, here, with_seat

log = logging.getLogger(__name__)

COMPUTER_NAMES = ("Robo Max", "Cindy-Bot", "Unit Lou", "Byte Who", "Gear Gnome", "Tin Ten")
CANNOT_SAVE = "The bot cannot save moves right now; please try again in a little while."
CLAIM_BATCH = 10  # expired timers taken from the database at a time
MAX_AUTOMATIC_MOVES = 2_000  # a bound on computer moves in a row, far above any real game


class GameService:
    """Owns the per-game locks; one instance per bot.

    A game's lock lives only while someone holds or awaits it (a weak mapping), so finished
    games leave nothing behind.
    """

    def __init__(
        self,
        store: Store,
        *,
        turn_timeout: float = 300.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.turn_timeout = turn_timeout
        self._clock = clock
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.timers_changed = asyncio.Event()  # set whenever a turn deadline is set or cleared
        # The soonest deadline set since the timer loop last looked (None: none set), so the
        # loop queries the database only when a timer may fall due before its planned wake-up.
        self.soonest_new_deadline: float | None = None

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    # -- reading -------------------------------------------------------------------------

    async def load(self, game_id: int) -> Loaded:
        try:
            row, seats = await self.store.game_and_seats(game_id)
        except NotFound as exc:
            raise NoGame("That game no longer exists.") from exc
        state = GAMES[row.game].from_json(row.snapshot) if row.snapshot else None
        return Loaded(row, seats, state)

    async def channel_game(self, channel_id: int, *, finished_too: bool = False) -> Loaded:
        """The channel's open game; with ``finished_too``, the game being played or, if there
        is none (only a lobby, or nothing open), the last one played there."""
        row = await self.store.open_game_in_channel(channel_id)
        if finished_too and (row is None or row.status == "lobby"):
            row = await self.store.latest_game_in_channel(channel_id) or row
        if row is None:
            raise NoGame("There is no game in this channel.")
        return await self.load(row.id)

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
            row = await self.store.create_lobby(
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
            await self.store.add_seat(
                row.id,
                user_id=opponent[0],
                name=opponent[1],
                max_seats=GAMES[game].max_players,
                accepted=False,
            )
        return await self.load(row.id)

    async def _lobby(self, game_id: int, channel_id: int | None) -> Loaded:
        loaded = here(await self.load(game_id), channel_id)
        if loaded.row.status != "lobby":
            raise LobbyProblem(
                "This game has already started."
                if loaded.row.status == "active"
                else "This lobby is closed."
            )
        return loaded

    async def join(
        self, game_id: int, user_id: int, name: str, *, channel_id: int | None = None
    ) -> Loaded:
        async with self.lock(game_id):
            loaded = await self._lobby(game_id, channel_id)
            seat = loaded.seat_of(user_id)
            if seat is not None:
                raise LobbyProblem("You are already in this game.")
            if any(not s.accepted for s in loaded.seats):
                raise LobbyProblem("This is a challenge between two players.")
            try:
                added = await self.store.add_seat(
                    game_id, user_id=user_id, name=name, max_seats=loaded.game.max_players
                )
            except AlreadySeated as exc:
                raise LobbyProblem("You are already in this game.") from exc
            if added is None:
                raise LobbyProblem("This game is full.")
            return await self.load(game_id)

    async def accept(self, game_id: int, user_id: int, *, channel_id: int | None = None) -> Report:
        """The challenged player accepts: the game starts at once."""
        async with self.lock(game_id):
            loaded = await self._lobby(game_id, channel_id)
            seat = loaded.seat_of(user_id)
            if seat is None or seat.accepted:
                raise NotSeated("This challenge is for someone else.")
            await self.store.accept_seat(game_id, seat.seat)
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
                await self.store.end(game_id, "cancelled")
                return None
            await self.store.remove_seat(game_id, seat.seat)
            return await self.load(game_id)

    async def add_computer(
        self, game_id: int, user_id: int, *, channel_id: int | None = None
    ) -> Loaded:
        async with self.lock(game_id):
            loaded = await self._lobby(game_id, channel_id)
            if loaded.seat_of(user_id) is None:
                raise NotSeated("Join the game first, then you can add computer players.")
            if any(not s.accepted for s in loaded.seats):
                raise LobbyProblem("This is a challenge between two players.")
            taken = {s.name for s in loaded.seats}
            name = next((n for n in COMPUTER_NAMES if n not in taken), "Computer")
            added = await self.store.add_seat(
                game_id,
                user_id=None,
                name=name,
                max_seats=loaded.game.max_players,
                is_computer=True,
            )
            if added is None:
                raise LobbyProblem("This game is full.")
            return await self.load(game_id)

    async def start(self, game_id: int, user_id: int, *, channel_id: int | None = None) -> Report:
        async with self.lock(game_id):
            loaded = await self._lobby(game_id, channel_id)
            if user_id != loaded.row.host_id:
                raise NotAllowed("Only the host can start the game.")
            return await self._start(loaded)

    async def _start(self, loaded: Loaded) -> Report:
        """Lobby -> active; the caller holds the game's lock."""
        game_id, game = loaded.row.id, loaded.game
        if any(not s.accepted for s in loaded.seats):
            raise LobbyProblem("Your opponent has not accepted yet.")
        if len(loaded.seats) < game.min_players:
            raise LobbyProblem(
                f"{game.title} needs at least {game.min_players} players "
                f"(you have {len(loaded.seats)})."
            )
        state = game.new_game(len(loaded.seats), loaded.row.seed)
        deadlines = self._deadlines(loaded.seats, game.to_act(state), {}, set())
        try:
            row = await self.store.start(game_id, game.to_json(state), deadlines)
        except StaleVersion as exc:
            raise LobbyProblem("This game has already started.") from exc
        seats = [replace(s, deadline=deadlines.get(s.seat)) for s in loaded.seats]
        report = Report(before=loaded, after=Loaded(row, seats, state))
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
            await self.store.end(game_id, "cancelled")
            return await self.load(game_id)

    # -- play ----------------------------------------------------------------------------

    async def act(self, game_id: int, user_id: int, step: int, action_text: str) -> Report:
        """Apply one player's move, then any computer moves that follow."""
        async with self.lock(game_id):
            loaded = await self.load(game_id)
            seat = loaded.seat_of(user_id)
            if seat is None:
                raise NotSeated("These buttons belong to a player of this game.")
            if loaded.row.status != "active":
                raise GameClosed("This game is over.")
            report = Report(before=loaded, after=loaded)
            if seat.autopilot:
                await self.store.set_seat_flags(game_id, seat.seat, autopilot=False, timeouts=0)
                report.notices.append(f"{seat.name} is back; autopilot is off.")
                seat = replace(seat, autopilot=False, timeouts=0)
                report.after = loaded = with_seat(loaded, seat)
            if step != seat.step:
                if report.notices:
                    return report
                raise StaleMove("That move is no longer available.")
            game = loaded.game
            try:
                action = game.parse_action(action_text)
                new_state = game.apply(loaded.state, seat.seat, action)
            except IllegalAction as exc:
                raise RejectedMove(str(exc)) from exc
            await self._record(report, seat.seat, str(action), "player", new_state)
            await self._run_computers(report)
            return report

    async def come_back(self, game_id: int, user_id: int) -> Report:
        """A player on autopilot takes their seat back."""
        async with self.lock(game_id):
            loaded = await self.load(game_id)
            seat = loaded.seat_of(user_id)
            if seat is None:
                raise NotSeated("You are not a player of this game.")
            after = loaded
            if seat.autopilot:
                await self.store.set_seat_flags(game_id, seat.seat, autopilot=False, timeouts=0)
                after = with_seat(loaded, replace(seat, autopilot=False, timeouts=0))
            return Report(before=loaded, after=after)

    async def resume(self, game_id: int) -> Report:
        """Let computer seats and players on autopilot move if they are due (after a restart:
        a crash can fall between a human's committed move and the computer's answer)."""
        async with self.lock(game_id):
            loaded = await self.load(game_id)
            report = Report(before=loaded, after=loaded)
            await self._run_computers(report)
            return report

    async def expire_due(self) -> list[Report]:
        """Play for every seat whose turn timer has run out; returns what happened.

        Each expired timer is claimed in the database first, so however many processes share
        it, one of them plays the timeout; a claim whose process died expires by itself.
        """
        reports: list[Report] = []
        now = self._clock()
        while batch := await self.store.claim_due_seats(now, limit=CLAIM_BATCH):
            for claimed in batch:
                try:
                    reports.append(await self._expire(claimed.game_id, claimed.seat, now))
                except StaleMove:  # another process moved first; its move reset the timer
                    continue
                except Exception:
                    await self.store.release_claim(claimed.game_id, claimed.seat)
                    raise
        return reports

    async def _expire(self, game_id: int, seat_no: int, now: float) -> Report:
        async with self.lock(game_id):
            loaded = await self.load(game_id)
            seat = loaded.seats[seat_no]
            report = Report(before=loaded, after=loaded)
            if (
                loaded.row.status == "active"
                and seat.deadline is not None
                and seat.deadline <= now
                and seat_no in loaded.game.to_act(loaded.state)
            ):
                autopilot = seat.timeouts + 1 >= 2
                report.notices.append(
                    f"⏰ {seat.name} ran out of time; the computer played for them."
                    + (
                        " They stay on autopilot until they press a button again."
                        if autopilot
                        else ""
                    )
                )
                await self._computer_move(report, seat_no, "timeout")
                await self._run_computers(report)
            else:  # a stale timer (the seat already acted): drop it
                await self.store.clear_deadline(game_id, seat_no)
            return report

    # -- internals -----------------------------------------------------------------------

    def _deadlines(
        self,
        seats: list[SeatRow],
        to_act: set[int],
        previous: dict[int, float | None],
        was_to_act: set[int],
    ) -> dict[int, float | None]:
        """A seat that is newly due gets a fresh timer; one still due keeps its timer."""
        now = self._clock()
        out: dict[int, float | None] = {}
        for seat in seats:
            human = not seat.is_computer and not seat.autopilot
            if self.turn_timeout <= 0 or not human or seat.seat not in to_act:
                out[seat.seat] = None
            elif seat.seat in was_to_act and previous.get(seat.seat) is not None:
                out[seat.seat] = previous[seat.seat]
            else:
                out[seat.seat] = now + self.turn_timeout
        return out

    async def _record(
        self, report: Report, seat_no: int, action: str, actor: str, new: Any
    ) -> None:
        loaded = report.after
        game = loaded.game
        before_to_act = game.to_act(loaded.state)
        after_to_act = game.to_act(new)
        timeouts = {s.seat: s.timeouts for s in loaded.seats}
        autopilot = {s.seat: s.autopilot for s in loaded.seats}
        if actor == "player":
            timeouts[seat_no], autopilot[seat_no] = 0, False
        elif actor == "timeout":
            timeouts[seat_no] += 1
            autopilot[seat_no] = timeouts[seat_no] >= 2
        seats = [replace(s, autopilot=autopilot[s.seat]) for s in loaded.seats]
        deadlines = self._deadlines(
            seats,
            after_to_act,
            {s.seat: s.deadline for s in loaded.seats},
            before_to_act - {seat_no},
        )
        updates = [
            SeatUpdate(s.seat, deadlines[s.seat], timeouts[s.seat], autopilot[s.seat])
            for s in loaded.seats
        ]
        outcome = game.outcome(new)
        results = None
        if outcome is not None:
            results = [
                (s.seat, s.user_id, outcome.totals[s.seat], s.seat in outcome.winners)
                for s in loaded.seats
            ]
        now = self._clock()
        snapshot = game.to_json(new)
        try:
            await self.store.record_move(
                loaded.row.id,
                expected_version=loaded.row.version,
                seat=seat_no,
                action=action,
                actor=actor,
                snapshot=snapshot,
                seat_updates=updates,
                results=results,
            )
        except StaleVersion as exc:  # another process recorded a move first (PostgreSQL)
            raise StaleMove("That move is no longer available.") from exc
        except (StorageFull, StoreUnavailable) as exc:
            log.warning("game %s: cannot save a move: %s", loaded.row.id, exc)
            raise CannotSave(CANNOT_SAVE) from exc
        report.moves.append(Move(seat_no, action, actor))
        report.states.append(new)
        moved = [
            u.deadline
            for u, s in zip(updates, loaded.seats, strict=True)
            if u.deadline != s.deadline
        ]
        if moved:
            report.deadlines_changed = True
            self._timers_set(moved)
        finished = outcome is not None
        row = replace(
            loaded.row,
            version=loaded.row.version + 1,
            snapshot=snapshot,
            status="finished" if finished else loaded.row.status,
            updated_at=now,
            ended_at=now if finished else loaded.row.ended_at,
        )
        seats = [
            replace(
                s,
                step=s.step + (s.seat == seat_no),
                deadline=None if finished else u.deadline,
                timeouts=u.timeouts,
                autopilot=u.autopilot,
            )
            for s, u in zip(loaded.seats, updates, strict=True)
        ]
        report.after = Loaded(row, seats, new)

    def _timers_set(self, deadlines: Iterable[float | None]) -> None:
        soonest = min((d for d in deadlines if d is not None), default=None)
        known = self.soonest_new_deadline
        if soonest is not None and (known is None or soonest < known):
            self.soonest_new_deadline = soonest
        self.timers_changed.set()

    async def _computer_move(self, report: Report, seat_no: int, actor: str) -> None:
        loaded = report.after
        game = loaded.game
        legal = game.legal_actions(loaded.state, seat_no)
        view = game.view(loaded.state, seat_no)
        rng = random.Random(f"{loaded.row.seed}:{loaded.row.version}:{seat_no}")
        try:
            policy = policy_for(loaded.row.game)
            action = await asyncio.to_thread(policy.choose, view, legal, rng)
            new_state = game.apply(loaded.state, seat_no, action)
        except Exception:  # a computer player's bug must never stall a game
            log.exception("computer player failed in game %s; playing at random", loaded.row.id)
            action = rng.choice(legal)
            new_state = game.apply(loaded.state, seat_no, action)
        await self._record(report, seat_no, str(action), actor, new_state)

    async def _run_computers(self, report: Report) -> None:
        """Computer seats (and players on autopilot) act until a human must decide."""
        for _ in range(MAX_AUTOMATIC_MOVES):
            loaded = report.after
            if loaded.row.status != "active":
                return
            to_act = loaded.game.to_act(loaded.state)
            auto = [s for s in loaded.seats if s.seat in to_act and (s.is_computer or s.autopilot)]
            if not auto:
                return
            seat = auto[0]
            await self._computer_move(
                report, seat.seat, "computer" if seat.is_computer else "autopilot"
            )
        log.error("game %s: computer players did not yield", report.after.row.id)
