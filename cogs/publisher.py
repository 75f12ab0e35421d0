"""Shows the games in Discord: the table message, each player's DM, summaries and notices.

Updates of one game are serialised, and every render reads the latest state from the store,
so a slow update can never overwrite a newer one. Bursts of table edits (computer players
moving one after another) collapse into one edit: while an edit is under way, further
requests only mark the table dirty, and it is redrawn once more at the end.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from cogs import render
from cogs.ui import UIS
from cogs.ui.base import GameUI, Names, Panel
from db.models import SeatRow
from service.games import GameService, Loaded, Report

log = logging.getLogger(__name__)

DM_CLOSED = 50007


def names_of(loaded: Loaded) -> Names:
    return Names(
        tuple(s.name for s in loaded.seats),
        frozenset(s.seat for s in loaded.seats if s.is_computer),
    )


def jump_url(guild_id: int, channel_id: int, message_id: int | None) -> str:
    tail = f"/{message_id}" if message_id else ""
    return f"https://discord.com/channels/{guild_id}/{channel_id}{tail}"


class Publisher:
    def __init__(self, bot: discord.Client, service: GameService) -> None:
        self.bot = bot
        self.service = service
        self._locks: dict[int, asyncio.Lock] = {}
        self._dirty: set[int] = set()
        self._table_tasks: dict[int, asyncio.Task[None]] = {}

    def ui(self, loaded: Loaded) -> GameUI:
        return UIS[loaded.row.game]

    # -- entry points --------------------------------------------------------------------

    async def publish(self, report: Report) -> None:
        """Show everything a report changed, in order: summaries, notices, table, hands."""
        game_id = report.after.row.id
        async with self._locks.setdefault(game_id, asyncio.Lock()):
            await self._post_summaries(report)
            for notice in report.notices:
                await self._say(report.after, notice)
            await self.refresh_table(game_id)
            await self._refresh_hands(report)

    async def resync(self, game_id: int) -> None:
        """Redraw a game's table and every hand from the store (after a restart).

        A restart can fall between a committed move and the messages that show it; this
        makes Discord match the database again, so nobody waits on a stale message.
        """
        async with self._locks.setdefault(game_id, asyncio.Lock()):
            await self.refresh_table(game_id)
            loaded = await self.service.load(game_id)
            for seat in loaded.seats:
                if seat.is_computer or seat.user_id is None:
                    continue
                if seat.dm_message_id is None or seat.dm_channel_id is None:
                    await self._send_dm(loaded, seat, notify=False)
                else:
                    await self._edit_dm(loaded, seat)

    async def refresh_table(self, game_id: int) -> None:
        """Redraw the table now, or once more after the redraw under way."""
        task = self._table_tasks.get(game_id)
        if task is not None and not task.done():
            self._dirty.add(game_id)
            await asyncio.shield(task)
            return
        task = asyncio.create_task(self._table_loop(game_id))
        self._table_tasks[game_id] = task
        await asyncio.shield(task)

    def hand_kwargs(self, loaded: Loaded, seat: SeatRow, *, header: str = "") -> dict[str, Any]:
        """The send/edit arguments of a seat's private hand message."""
        game = loaded.game
        view = game.view(loaded.state, seat.seat)
        legal = [str(a) for a in game.legal_actions(loaded.state, seat.seat)]
        screen = self.ui(loaded).hand(view, legal, names_of(loaded))
        if seat.deadline is not None and legal:
            header = f"{header}\n⏱ Your turn ends <t:{int(seat.deadline)}:R>.".strip()
        if seat.autopilot:
            header = f"{header}\n🤖 You are on autopilot. Press “I'm back” to play again."
        return render.hand_message(
            loaded.row.id, seat.step, screen, autopilot=seat.autopilot, header=header.strip()
        )

    async def close_lobby_message(self, loaded: Loaded, text: str) -> None:
        channel = self.bot.get_channel(loaded.row.channel_id)
        if channel is None or loaded.row.lobby_message_id is None:
            return
        try:
            message = channel.get_partial_message(loaded.row.lobby_message_id)  # type: ignore[union-attr]
            await message.edit(content=text, view=None)
        except discord.HTTPException:
            log.warning("could not close lobby message of game %s", loaded.row.id, exc_info=True)

    # -- table ---------------------------------------------------------------------------

    async def _table_loop(self, game_id: int) -> None:
        while True:
            self._dirty.discard(game_id)
            try:
                await self._draw_table(await self.service.load(game_id))
            except discord.HTTPException:
                log.exception("table update failed for game %s", game_id)
            if game_id not in self._dirty:
                return

    async def _draw_table(self, loaded: Loaded) -> None:
        if loaded.state is None:
            return
        channel = self.bot.get_channel(loaded.row.channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            log.warning("channel %s of game %s is gone", loaded.row.channel_id, loaded.row.id)
            return
        ui = self.ui(loaded)
        view = loaded.game.view(loaded.state, None)
        panel = ui.table(view, names_of(loaded))
        timers = [
            f"⏱ {s.name} <t:{int(s.deadline)}:R>" for s in loaded.seats if s.deadline is not None
        ]
        if loaded.row.status == "cancelled":
            panel = Panel(panel.title, "🛑 This game was cancelled.", colour=panel.colour)
        elif timers:
            panel = Panel(
                panel.title,
                panel.description + "\n" + " · ".join(timers),
                panel.fields,
                panel.colour,
                panel.footer,
            )
        key = ui.table_key(view)
        live = loaded.row.status == "active"
        table_view = render.table_view(loaded.row.id) if live else None
        kwargs: dict[str, Any] = {"embed": render.embed(panel), "view": table_view}
        if loaded.row.table_message_id is not None and loaded.row.table_key == key:
            message = channel.get_partial_message(loaded.row.table_message_id)
            try:
                await message.edit(**kwargs)
                return
            except discord.NotFound:
                log.info("table message of game %s was deleted; posting a new one", loaded.row.id)
        if not live and loaded.row.table_message_id is not None:
            return  # the final state is shown by the result message
        if loaded.row.table_message_id is not None:  # a new round: retire the old table
            old = channel.get_partial_message(loaded.row.table_message_id)
            try:
                await old.edit(content="⬇️ This part is over; the table continues below.", view=None)
            except discord.HTTPException:
                log.info("could not retire the old table of game %s", loaded.row.id)
        sent = await channel.send(**kwargs)
        await self.service.store.set_table_message(loaded.row.id, sent.id, key)

    # -- channel messages ----------------------------------------------------------------

    async def _say(self, loaded: Loaded, text: str, **kwargs: Any) -> None:
        channel = self.bot.get_channel(loaded.row.channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            return
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions(users=True), **kwargs)
        except discord.HTTPException:
            log.exception("could not post to channel %s", loaded.row.channel_id)

    async def _post_summaries(self, report: Report) -> None:
        ui = self.ui(report.after)
        game = report.after.game
        names = names_of(report.after)
        states = [report.before.state, *report.states]
        panels: list[Panel] = []
        previous = game.view(states[0], None) if states[0] is not None else None
        for state in states[1:]:
            current = game.view(state, None)
            if previous is not None:
                panels.extend(ui.summaries(previous, current, names))
            previous = current
        for panel in panels:
            await self._say(report.after, "", embed=render.embed(panel))

    # -- hands ---------------------------------------------------------------------------

    async def _refresh_hands(self, report: Report) -> None:
        loaded = await self.service.load(report.after.row.id)
        if loaded.state is None:
            return
        game = loaded.game
        before = report.before
        due_before = game.to_act(before.state) if before.state is not None else set()
        due_now = game.to_act(loaded.state) if loaded.row.status == "active" else set()
        for seat in loaded.seats:
            if seat.is_computer or seat.user_id is None:
                continue
            old_view = game.view(before.state, seat.seat) if before.state is not None else None
            new_view = game.view(loaded.state, seat.seat)
            newly_due = seat.seat in due_now and seat.seat not in due_before
            stepped = before.state is None or before.seats[seat.seat].step != seat.step
            changed = old_view != new_view or stepped
            if before.seats[seat.seat].autopilot != seat.autopilot:
                changed = True
            if newly_due or (changed and seat.dm_message_id is None):
                await self._send_dm(loaded, seat, notify=newly_due)
            elif changed:
                await self._edit_dm(loaded, seat)

    def _dm_header(self, loaded: Loaded) -> str:
        channel = self.bot.get_channel(loaded.row.channel_id)
        guild = getattr(channel, "guild", None)
        where = f"**{guild.name}** › <#{loaded.row.channel_id}>" if guild else "your server"
        url = jump_url(loaded.row.guild_id, loaded.row.channel_id, loaded.row.table_message_id)
        return f"**{loaded.game.title}** in {where} — [go to the table]({url})"

    async def _send_dm(self, loaded: Loaded, seat: SeatRow, *, notify: bool) -> None:
        assert seat.user_id is not None
        if seat.dm_closed:
            if notify:
                await self._say(
                    loaded, f"<@{seat.user_id}>, it's your move — press **My hand** on the table."
                )
            return
        kwargs = self.hand_kwargs(loaded, seat, header=self._dm_header(loaded))
        try:
            user = self.bot.get_user(seat.user_id) or await self.bot.fetch_user(seat.user_id)
            channel = user.dm_channel or await user.create_dm()
            sent = await channel.send(**kwargs)
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED:
                log.warning("DM to %s refused: %s", seat.user_id, exc)
            await self.service.store.set_dm_closed(loaded.row.id, seat.seat, True)
            await self._say(
                loaded,
                f"<@{seat.user_id}>, I can't send you direct messages, so your hand is behind "
                "the **My hand** button on the table. The game goes on.",
            )
            return
        except discord.HTTPException:
            log.exception("DM to %s failed", seat.user_id)
            return
        old = (seat.dm_channel_id, seat.dm_message_id)
        await self.service.store.set_dm(
            loaded.row.id, seat.seat, channel_id=sent.channel.id, message_id=sent.id
        )
        if old[0] is not None and old[1] is not None:
            await self._retire_dm(old[0], old[1])

    async def _retire_dm(self, channel_id: int, message_id: int) -> None:
        """The previous hand message loses its buttons: the new one below has them."""
        try:
            partial = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            await partial.get_partial_message(message_id).edit(view=None)
        except discord.HTTPException:
            log.info("could not retire old hand message %s", message_id, exc_info=True)

    async def _edit_dm(self, loaded: Loaded, seat: SeatRow) -> None:
        assert seat.dm_channel_id is not None and seat.dm_message_id is not None
        kwargs = self.hand_kwargs(loaded, seat, header=self._dm_header(loaded))
        partial = self.bot.get_partial_messageable(
            seat.dm_channel_id, type=discord.ChannelType.private
        )
        try:
            await partial.get_partial_message(seat.dm_message_id).edit(**kwargs)
        except discord.NotFound:
            await self._send_dm(loaded, seat, notify=False)
        except discord.HTTPException:
            log.exception("could not edit the hand message of seat %s", seat.seat)
