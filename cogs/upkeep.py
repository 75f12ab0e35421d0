"""Keeping games moving without anyone clicking: start-up recovery, turn timers, repairs.

At start, every open game whose due seats are computers or players on autopilot moves on (a
crash can fall between a human's committed move and the computer's answer), and games whose
messages are older than their last move (the table, or any player's DM: finished games too)
are redrawn, behind live moves in the REST budget; on a restored database (see
db.generation) every open game is, as Discord shows a later state of them.
Turn timers sleep until the earliest deadline and wake when the service sets a new one. Every
few seconds, games whose automatic moves are overdue (the process playing them stopped, or
saving failed) move on here. A periodic check redraws any game whose messages fell behind (a
failed edit, an outage, another process that died before showing a move), and posts what a
move owed its channel and nobody posted (delivery.owed). A channel that
refused the bot's table hears here when Discord says the permission is back.
"""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import discord
from discord.ext import commands

from aio.tasks import cancel_and_wait
from cogs import Playing, PlayingCog
from db.models import GameStatus
from service.errors import NoGame

log = logging.getLogger(__name__)

# The timer loop looks at the database at least this often (seconds): other processes
# (PostgreSQL) set timers this one does not hear of, and any game's automatic moves may fall
# overdue (see GameService.resume_stalled).
LOOK_EVERY = 5.0
REPAIR_EVERY = 60.0
# With several processes on one database (PostgreSQL), a process that dies mid-move leaves
# its games' unsent edits to the others, and its players without a live button: they look
# this often and redraw a game found behind at the same version as at their last look (a
# live process shows a move within seconds, so nobody is drawing that one).
SHARED_REPAIR_EVERY = 10.0


class UpkeepCog(PlayingCog, commands.Cog, name="Upkeep"):
    def __init__(
        self, playing: Playing, generation: Path | None = None, *, shared: bool = False
    ) -> None:
        """``generation``: where the database's last generation token is kept (SQLite), to
        recognise a restored copy at start; None: not checked. ``shared``: other processes
        may serve the same games (PostgreSQL): repairs look every SHARED_REPAIR_EVERY s."""
        super().__init__(playing)
        self.generation = generation
        self.shared = shared
        self._tasks: list[asyncio.Task[None]] = []

    async def cog_load(self) -> None:
        for name, loop in (("turn-timers", self._timer_loop), ("repairs", self._repair_loop)):
            task = asyncio.create_task(loop(), name=name)
            task.add_done_callback(self._stopped)
            self._tasks.append(task)

    async def cog_unload(self) -> None:
        await cancel_and_wait(*self._tasks)

    def _stopped(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("%s stopped", task.get_name(), exc_info=task.exception())

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """Someone deleted a running game's table: post it again now (a player without DMs
        acts through its "My hand" button and may be the one the game waits for)."""
        try:
            loaded = await self.service.channel_game(payload.channel_id)
        except NoGame:
            return
        except Exception:
            log.exception("could not look up the game of channel %s", payload.channel_id)
            return
        row = loaded.row
        if row.status == GameStatus.ACTIVE and row.table_message_id == payload.message_id:
            log.info("the table of game %s was deleted; posting it again", loaded.row.id)
            self.publisher.redraw_table(loaded)

    # -- permissions ---------------------------------------------------------------------
    # A channel that refused the bot's table is tried again as soon as Discord says the bot
    # may post there: every interaction carries the bot's permissions in its channel, and a
    # moderator's fix comes as a channel, role or member (the bot's) update.

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[commands.Bot]) -> None:
        if interaction.guild_id is not None and interaction.channel_id is not None:
            self.publisher.permissions(interaction.channel_id, interaction.app_permissions)

    @commands.Cog.listener()
    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        self._permissions_changed(after.guild)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        self._permissions_changed(after.guild)

    @commands.Cog.listener()
    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        if self.bot.user is not None and after.id == self.bot.user.id:
            self._permissions_changed(after.guild)

    def _permissions_changed(self, guild: discord.Guild) -> None:
        """Tell the publisher the bot's permissions in each channel of ``guild`` that refused
        it (unknown without the bot's member: worth one try)."""
        for channel_id in self.publisher.refused_channels():
            channel = guild.get_channel(channel_id)
            if channel is None:
                continue
            me = guild.me
            self.publisher.permissions(
                channel_id, channel.permissions_for(me) if me is not None else None
            )

    # -- start-up ------------------------------------------------------------------------

    async def recover(self) -> None:
        """Computer and autopilot seats that are due move; stale games are redrawn (every
        open game on a restored database)."""
        restored = False
        if self.generation is not None:
            try:
                restored = await self.service.showing.restored(self.generation)
            except Exception:
                log.exception("could not check whether the database was restored")
        if restored:  # its open games are marked as not shown now: the repair redraws them
            log.info("start-up: the database is another copy than last time; redrawing")
        moved = 0
        for row in await self.service.active_games():
            try:
                report = await self.service.resume(row.id)
            except Exception:
                log.exception("could not resume game %s", row.id)
                continue
            if report.moves:
                moved += 1
                self.publisher.publish(report)
        await self.desk.recover_lost_clicks()
        stale = await self.repair(urgent=False)
        log.info("start-up: %d games moved on, %d redrawn", moved, stale)

    async def repair(self, *, urgent: bool, behind: dict[int, int] | None = None) -> int:
        """Redraw every game with a move newer than its table or a DM (none being drawn now),
        then post what moves owed their channels and nobody posted (a round's summary, the
        result, a timeout's line: recorded with the move).

        ``behind`` (another process may be drawing it): the versions of the games found
        behind at the last look, replaced by this look's; a game is redrawn only if it is
        still behind at the same version."""
        count = 0
        seen: dict[int, int] = {}
        for game_id in await self.service.stale_games():
            if self.publisher.busy(game_id):
                continue
            try:
                loaded = await self.service.load(game_id)
                if behind is not None:
                    seen[game_id] = loaded.row.version
                    if behind.get(game_id) != loaded.row.version:
                        continue  # new since the last look: its process may be drawing it
                self.publisher.repair(loaded, urgent=urgent)
            except Exception:
                log.exception("could not redraw game %s", game_id)
                continue
            count += 1
        if behind is not None:
            behind.clear()
            behind.update(seen)
        # Then what moves owed their channels and nobody posted (delivery.owed): a game
        # redrawn above is marked shown once these are posted too.
        try:
            owed = await self.publisher.owed.repair()
            if owed:
                log.info("posting %d messages owed to channels", owed)
        except Exception:
            log.exception("could not post the messages owed to channels")
        return count

    async def _repair_loop(self) -> None:
        await self.bot.wait_until_ready()
        await self.recover()
        behind: dict[int, int] | None = {} if self.shared else None
        every = SHARED_REPAIR_EVERY if self.shared else REPAIR_EVERY
        while True:
            await asyncio.sleep(every)
            try:
                repaired = await self.repair(urgent=False, behind=behind)
            except Exception:
                log.exception("repairs failed; trying again later")
                continue
            if repaired:
                log.info("redrew %d games whose messages fell behind", repaired)

    # -- timers --------------------------------------------------------------------------

    async def _timer_loop(self) -> None:
        await self.bot.wait_until_ready()
        service = self.service
        changed = service.timers_changed
        checked = 0.0
        while True:
            changed.clear()
            service.soonest_new_deadline = None
            try:
                reports = await service.expire_due()
                if time.monotonic() - checked >= LOOK_EVERY:
                    checked = time.monotonic()
                    reports += await service.resume_stalled()
                for report in reports:
                    if report.moves or report.notices:
                        self.publisher.publish(report)
                due = await service.next_claimable_at()
            except Exception:
                log.exception("turn timers failed; retrying")
                due = None
            delay = LOOK_EVERY if due is None else max(0.0, due - time.time())
            await self._sleep_until(time.time() + min(delay, LOOK_EVERY))

    async def _sleep_until(self, wake_at: float) -> None:
        """Sleep until ``wake_at``, or until a deadline is set that falls due before it (a
        move sets timers all the time, nearly always later ones: those need no query)."""
        changed = self.service.timers_changed
        while (remaining := wake_at - time.time()) > -0.05:
            try:
                await asyncio.wait_for(changed.wait(), remaining + 0.05)
            except TimeoutError:
                return
            soonest = self.service.soonest_new_deadline
            if soonest is not None and soonest < wake_at:
                return
            changed.clear()
