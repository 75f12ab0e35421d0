"""Game service: lobbies, moves, computer players and turn timers, over the engine and store.

No Discord here: the cogs call one method per user gesture and render what comes back.
Every accepted move is committed to the store before the method returns.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
import weakref
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace
from typing import Any

from db.errors import NotFound, StaleVersion, StorageFull, StoreUnavailable
from db.models import ActionRow, Actor, GameRow, GameStatus, SeatRow
from db.play import SeatUpdate
from db.shown import shown_from
from db.store import Store
from engine.base import IllegalAction, Level
from engine.sheet import final_sheet
from i18n import N_, Later, later
from service import owed as owing
from service.changes import Changes
from service.errors import CannotSave, GameClosed, NoGame, RejectedMove, StaleMove, not_seated
from service.lobbies import Lobbies
from service.reports import (
    Acting,
    Loaded,
    Move,
    Report,
    Upcoming,
    Waiting,
    seats_after,
    turn_deadlines,
    upcoming_at,
    with_seat,
)
from service.showing import Showing
from service.states import KnownStates
from service.thinking import Think, think_in_thread

__all__ = ["GameService", "Think", "think_in_thread"]

log = logging.getLogger(__name__)

CANNOT_SAVE = N_("The bot cannot save moves right now; please try again in a little while.")
CLAIM_BATCH = 10  # expired timers taken from the database at a time
STALLED_BATCH = 20  # stalled games resumed at a time
# Seconds automatic moves (computers, autopilot, forced) may take after the move that made them
# due before any process sharing the database plays them instead: they normally follow within
# milliseconds, in the same process; they wait only if that process stopped or failed.
RESUME_GRACE = 10.0
MAX_AUTOMATIC_MOVES = 2_000  # a bound on computer moves in a row, far above any real game


class GameService(Lobbies):
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
        think: Think | None = None,
    ) -> None:
        self.store = store
        self.showing = Showing(store)  # the delivery layer's port to the store
        self.changes = Changes(store)  # every write to a game, by any process (web/ listens)
        self.turn_timeout = turn_timeout
        self._clock = clock
        self._think = think or think_in_thread
        self._states = KnownStates()
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.timers_changed = asyncio.Event()  # set whenever a turn deadline is set or cleared
        # Called with a game's id once it finished (ratings); a failure is logged, never raised.
        self.on_finished: list[Callable[[int], Awaitable[object]]] = []
        # The soonest deadline set since the timer loop last looked (None: none set), so the
        # loop queries the database only when a timer may fall due before its planned wake-up.
        self.soonest_new_deadline: float | None = None
        # Whether a move ends a round shown in the channel (the publisher sets it): such a
        # move records the summary it owes (service.owed); None: none is recorded.
        self.round_ended: owing.RoundEnded | None = None
        self.owing = owing.Owing(store)  # what moves owe their channel, until it is posted
        self.on_waiting = Waiting()  # told as a move that leaves a game to people is saved

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    # -- reading -------------------------------------------------------------------------

    async def active_games(self) -> list[GameRow]:
        return await self.store.games.games_with_status(GameStatus.ACTIVE)

    async def stale_games(self) -> list[int]:
        """Active games whose messages show an older version than the latest move."""
        return await self.store.shown.stale_games()

    async def next_claimable_at(self) -> float | None:
        """When the soonest turn deadline (or an expired claim on one) may be taken."""
        return await self.store.timers.next_claimable_at()

    async def actions(self, game_id: int) -> list[ActionRow]:
        """The game's action log, in order."""
        return await self.store.games.actions(game_id)

    async def load(self, game_id: int) -> Loaded:
        try:
            row, seats = await self.store.games.game_and_seats(game_id)
        except NotFound as exc:
            raise NoGame(NoGame.GONE) from exc
        return Loaded(row, seats, self._states.of(row))

    async def channel_game(self, channel_id: int, *, finished_too: bool = False) -> Loaded:
        """The channel's open game; with ``finished_too``, the game being played or, if there
        is none (only a lobby, or nothing open), the last one played there."""
        row = await self.store.games.open_game_in_channel(channel_id)
        if finished_too and (row is None or row.status == GameStatus.LOBBY):
            row = await self.store.games.latest_game_in_channel(channel_id) or row
        if row is None:
            raise NoGame("There is no game in this channel.")
        return await self.load(row.id)

    # -- play ----------------------------------------------------------------------------

    def act(self, game_id: int, user_id: int, step: int, action_text: str) -> Acting:
        """Apply one player's move, then any computer moves that follow: the move's two
        stages (see :class:`~service.reports.Acting`), under way once this returns."""
        return Acting.start(lambda saved: self._play(game_id, user_id, step, action_text, saved))

    async def _play(
        self,
        game_id: int,
        user_id: int,
        step: int,
        action_text: str,
        saved: asyncio.Future[Report],
    ) -> Report:
        async with self.lock(game_id):
            loaded, seat = await self._seated(game_id, user_id)
            report = Report(before=loaded, after=loaded)
            if seat.autopilot:
                loaded, seat = await self._autopilot_off(loaded, seat)
                report.after = loaded
                report.notices.append(later("{name} is back; autopilot is off.", name=seat.name))
            if step != seat.step:
                if report.notices:
                    return report
                raise StaleMove(version=loaded.row.version)
            game = loaded.game
            try:
                action = game.parse_action(action_text)
                new_state = game.apply(loaded.state, seat.seat, action)
            except IllegalAction as exc:
                raise RejectedMove(exc.reason, **exc.values) from exc
            await self._record(report, seat.seat, str(action), Actor.PLAYER, new_state)
            saved.set_result(report.copy())
            await self._run_computers(report)
            return report

    async def come_back(self, game_id: int, user_id: int) -> Report:
        """A player on autopilot takes their seat back (the "I'm back" button), checked like
        a move: a player's own button, a game still running. A player already back gets the
        same answer: the button did what it says."""
        async with self.lock(game_id):
            loaded, seat = await self._seated(game_id, user_id)
            after = loaded
            if seat.autopilot:
                after, _ = await self._autopilot_off(loaded, seat)
            return Report(before=loaded, after=after)

    async def _seated(self, game_id: int, user_id: int) -> tuple[Loaded, SeatRow]:
        """The running game and the player's seat in it, for a move or a button of theirs;
        raises if they hold no seat there or the game is over."""
        loaded = await self.load(game_id)
        seat = loaded.seat_of(user_id)
        if seat is None:
            raise not_seated(loaded.left_by(user_id))
        if loaded.row.status != GameStatus.ACTIVE:
            raise GameClosed(GameClosed.OVER)
        return loaded, seat

    async def _autopilot_off(self, loaded: Loaded, seat: SeatRow) -> tuple[Loaded, SeatRow]:
        """Hand the seat back to its player (autopilot off, missed turns forgotten): the game
        and the seat as they are now."""
        await self.store.timers.set_seat_flags(
            loaded.row.id, seat.seat, autopilot=False, timeouts=0
        )
        seat = replace(seat, autopilot=False, timeouts=0)
        return with_seat(loaded, seat), seat

    async def resume(self, game_id: int) -> Report:
        """Let computer seats and players on autopilot move if they are due (after a restart:
        a crash can fall between a human's committed move and the computer's answer)."""
        async with self.lock(game_id):
            loaded = await self.load(game_id)
            report = Report(before=loaded, after=loaded)
            await self._run_computers(report)
            return report

    async def resume_stalled(self) -> list[Report]:
        """Play the automatic moves of every game that waits for them past their grace (the
        process playing them stopped, or saving them failed); returns what happened."""
        reports: list[Report] = []
        now = self._clock()
        for game_id in await self.store.timers.stalled_games(now, limit=STALLED_BATCH):
            if self.lock(game_id).locked():  # this process is moving it right now
                continue
            try:
                report = await self._resume_stalled(game_id, now)
            except CannotSave:  # logged where saving failed; the next look tries again
                continue
            except Exception:
                log.exception("game %s: could not resume its automatic moves", game_id)
                continue
            if report is not None:
                reports.append(report)
        return reports

    async def _resume_stalled(self, game_id: int, now: float) -> Report | None:
        async with self.lock(game_id):
            loaded = await self.load(game_id)
            due = loaded.row.resume_after
            if loaded.row.status != GameStatus.ACTIVE or due is None or due > now:
                return None  # it moved on meanwhile
            report = Report(before=loaded, after=loaded)
            await self._run_computers(report)
            if report.moves:
                log.warning(
                    "game %s: played %d automatic moves that waited %.0f s past their grace",
                    game_id,
                    len(report.moves),
                    now - due,
                )
            elif report.after.row.version == loaded.row.version:  # nothing was due after all
                await self.store.timers.stop_resuming(game_id, loaded.row.version)
            return report

    async def expire_due(self) -> list[Report]:
        """Play for every seat whose turn timer has run out; returns what happened.

        Each expired timer is claimed in the database first, so however many processes share
        it, one of them plays the timeout; a claim whose process died expires by itself.
        """
        reports: list[Report] = []
        now = self._clock()
        while batch := await self.store.timers.claim_due_seats(now, limit=CLAIM_BATCH):
            for claimed in batch:
                try:
                    reports.append(await self._expire(claimed.game_id, claimed.seat, now))
                except StaleMove:  # another process moved first; its move reset the timer
                    continue
                except Exception:
                    await self.store.timers.release_claim(claimed.game_id, claimed.seat)
                    raise
        return reports

    async def _expire(self, game_id: int, seat_no: int, now: float) -> Report:
        async with self.lock(game_id):
            loaded = await self.load(game_id)
            seat = loaded.seats[seat_no]
            report = Report(before=loaded, after=loaded)
            if (
                loaded.row.status == GameStatus.ACTIVE
                and seat.deadline is not None
                and seat.deadline <= now
                and seat_no in loaded.game.to_act(loaded.state)
            ):
                autopilot = seat.timeouts + 1 >= 2
                notice = (
                    later(
                        "⏰ {name} ran out of time; the computer played for them. They stay on "
                        "autopilot until they press a button again.",
                        name=seat.name,
                    )
                    if autopilot
                    else later(
                        "⏰ {name} ran out of time; the computer played for them.", name=seat.name
                    )
                )
                report.notices.append(notice)
                await self._computer_move(report, seat_no, Actor.TIMEOUT, lines=[notice])
                await self._run_computers(report)
            else:  # a stale timer (the seat already acted): drop it
                await self.store.timers.clear_deadline(game_id, seat_no)
            return report

    # -- internals -----------------------------------------------------------------------

    def _deadlines(
        self,
        seats: list[SeatRow],
        to_act: set[int],
        previous: dict[int, float | None],
        was_to_act: set[int],
        row: GameRow,
    ) -> dict[int, float | None]:
        """:func:`turn_deadlines` with the game's timer: its server's setting when it opened,
        else the bot's."""
        timeout = self.turn_timeout if row.turn_timeout is None else row.turn_timeout
        return turn_deadlines(seats, to_act, previous, was_to_act, timeout, self._clock())

    def resume_deadline(self) -> float:
        """By when automatic moves that fall due now should have been played."""
        return self._clock() + RESUME_GRACE

    async def _record(
        self,
        report: Report,
        seat_no: int,
        action: str,
        actor: Actor,
        new: Any,
        lines: Iterable[Later] = (),
    ) -> None:
        """Record one move (``lines``: the public lines it owes, e.g. a timeout's) and follow
        it in ``report``."""
        loaded = report.after
        game = loaded.game
        before_to_act = game.to_act(loaded.state)
        after_to_act = game.to_act(new)
        timeouts = {s.seat: s.timeouts for s in loaded.seats}
        autopilot = {s.seat: s.autopilot for s in loaded.seats}
        if actor == Actor.PLAYER:
            timeouts[seat_no], autopilot[seat_no] = 0, False
        elif actor == Actor.TIMEOUT:
            timeouts[seat_no] += 1
            autopilot[seat_no] = timeouts[seat_no] >= 2
        seats = [
            s if s.autopilot == autopilot[s.seat] else replace(s, autopilot=autopilot[s.seat])
            for s in loaded.seats
        ]
        deadlines = self._deadlines(
            seats,
            after_to_act,
            {s.seat: s.deadline for s in loaded.seats},
            before_to_act - {seat_no},
            loaded.row,
        )
        updates = [
            SeatUpdate(s.seat, deadlines[s.seat], timeouts[s.seat], autopilot[s.seat])
            for s in loaded.seats
        ]
        outcome = game.outcome(new)
        upcoming = Upcoming(loaded.row.version + 1, None)
        if outcome is None:
            upcoming = upcoming_at(game, new, seats, upcoming.version)
        resume_after = None if upcoming.seat is None else self.resume_deadline()
        results = None
        if outcome is not None:  # the score sheet every screen reads, /stats included
            sheet = final_sheet(outcome, lowest_wins=game.lowest_wins)
            results = [
                (s.seat, s.user_id, sheet.totals[s.seat], s.seat in sheet.winners)
                for s in loaded.seats
            ]
        said = owing.said_by(
            self.round_ended, loaded, new, finished=outcome is not None, lines=lines
        )
        now = self._clock()
        snapshot = game.to_json(new)
        finished = outcome is not None
        row = replace(
            loaded.row,
            version=loaded.row.version + 1,
            snapshot=snapshot,
            status=GameStatus.FINISHED if finished else loaded.row.status,
            updated_at=now,
            ended_at=now if finished else loaded.row.ended_at,
            resume_after=resume_after,
        )
        after = Loaded(row, seats_after(loaded.seats, updates, seat_no, finished), new)
        move = Move(seat_no, action, actor)
        waiting = row.status == GameStatus.ACTIVE and upcoming.seat is None
        if waiting:  # told while the commit runs: the turn's pictures are drawn meanwhile
            self.on_waiting.tell(report.followed_by(move, new, after))
        read: list[list[dict[str, Any]]] = []  # what Discord shows of it, read with the move
        try:
            await self.store.play.record_move(
                loaded.row.id,
                expected_version=loaded.row.version,
                seat=seat_no,
                action=action,
                actor=actor,
                snapshot=snapshot,
                seat_updates=updates,
                results=results,
                resume_after=resume_after,
                owed=[s.owed for s in said],
                on_shown=read.append,
            )
        except StaleVersion as exc:  # another process recorded a move first (PostgreSQL)
            raise StaleMove() from exc
        except (StorageFull, StoreUnavailable) as exc:
            log.warning("game %s: cannot save a move: %s", loaded.row.id, exc)
            raise CannotSave(CANNOT_SAVE) from exc
        report.moves.append(move)
        report.states.append(new)
        report.said += said
        if finished:
            await self._finished(loaded.row.id)
        moved = [
            u.deadline
            for u, s in zip(updates, loaded.seats, strict=True)
            if u.deadline != s.deadline
        ]
        if moved:
            report.deadlines_changed = True
            self._timers_set(moved)
        report.after = after
        report.upcoming = upcoming
        report.waiting_told = waiting
        report.shown = (
            shown_from(read[-1], version=row.version, status=row.status) if read else None
        )
        self._states.saw(row, new)

    async def _finished(self, game_id: int) -> None:
        for hook in self.on_finished:
            try:
                await hook(game_id)
            except Exception:  # the move is saved; a rating can be caught up later
                log.exception("game %s: after-finish hook %r failed", game_id, hook)

    def _timers_set(self, deadlines: Iterable[float | None]) -> None:
        soonest = min((d for d in deadlines if d is not None), default=None)
        known = self.soonest_new_deadline
        if soonest is not None and (known is None or soonest < known):
            self.soonest_new_deadline = soonest
        self.timers_changed.set()

    async def _level(self, loaded: Loaded, seat_no: int, actor: Actor) -> Level:
        """A computer seat plays at its own level; a person's seat played for them (autopilot,
        a timeout) at the server's default level of this moment."""
        if actor == Actor.COMPUTER:
            return loaded.seats[seat_no].level
        return (await self.store.servers.guild_settings(loaded.row.guild_id)).computer_level

    async def _computer_move(
        self, report: Report, seat_no: int, actor: Actor, *, lines: Iterable[Later] = ()
    ) -> None:
        loaded = report.after
        game = loaded.game
        legal = game.legal_actions(loaded.state, seat_no)
        view = game.view(loaded.state, seat_no)
        rng = random.Random(f"{loaded.row.seed}:{loaded.row.version}:{seat_no}")
        level = await self._level(loaded, seat_no, actor)
        log.debug("game %s seat %s: the computer plays at %s", loaded.row.id, seat_no, level)
        try:
            action = await self._think(loaded.row.game, view, legal, rng, level)
            new_state = game.apply(loaded.state, seat_no, action)
        except Exception:  # a computer player's bug must never stall a game
            log.exception("computer player failed in game %s; playing at random", loaded.row.id)
            action = rng.choice(legal)
            new_state = game.apply(loaded.state, seat_no, action)
        await self._record(report, seat_no, str(action), actor, new_state, lines)

    async def _run_computers(self, report: Report) -> None:
        """Computer seats (and players on autopilot) act, and a player's only possible move
        is played for them (``Game.forced``), until a human must decide."""
        for _attempt in range(MAX_AUTOMATIC_MOVES):
            loaded = report.after
            if loaded.row.status != GameStatus.ACTIVE:
                return
            upcoming = report.upcoming
            if upcoming is None or upcoming.version != loaded.row.version:
                upcoming = upcoming_at(loaded.game, loaded.state, loaded.seats, loaded.row.version)
            seat_no, actor = upcoming.seat, upcoming.actor
            if seat_no is None or actor is None:
                if not report.waiting_told:  # e.g. a game just started
                    self.on_waiting.tell(report)
                return
            try:
                if actor == Actor.FORCED:
                    new = loaded.game.apply(loaded.state, seat_no, upcoming.action)
                    await self._record(report, seat_no, str(upcoming.action), Actor.FORCED, new)
                else:
                    await self._computer_move(report, seat_no, actor)
            except StaleMove:  # another process sharing the database moved this game on
                log.info(
                    "game %s moved on elsewhere; its next moves are played there", loaded.row.id
                )
                return
        log.error("game %s: automatic moves did not yield", report.after.row.id)
