"""A lobby's message in its channel, when the lobby changed elsewhere than by its buttons (the
live table, web/): posted for a new lobby, redrawn after a join or a computer added, closed
with "the game is on" when it starts. Queued in the channel's lane like every other write."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

import i18n
from delivery.publisher import Publisher
from discordkit import to_discord
from discordkit.rest import edit_message
from discordkit.views import lobby_view
from i18n import _
from presentation.base import computer_label
from presentation.lobby import lobby_panel
from presentation.titles import game_title
from service.reports import Loaded

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]


class LobbyMessages:
    def __init__(self, publisher: Publisher) -> None:
        self.publisher = publisher

    def show(self, loaded: Loaded, *, computers: bool) -> None:
        """Post the lobby's message (a new lobby) or redraw it."""
        publisher, channel_id = self.publisher, loaded.row.channel_id

        async def job() -> None:
            with i18n.using(await publisher.speaking.public(loaded)):
                fresh = await publisher.service.load(loaded.row.id)  # the newest seats
                embed = to_discord.embed(lobby_panel(fresh.game, fresh.seats, fresh.row.host_id))
                view = lobby_view(fresh, computers=computers)
            await publisher.pacer.slot(("ch", channel_id))
            message_id = fresh.row.lobby_message_id
            if message_id is not None:
                await edit_message(publisher.bot, channel_id, message_id, embed=embed, view=view)
                return
            channel = publisher.bot.get_partial_messageable(channel_id)
            message = await channel.send(embed=embed, view=view)
            await publisher.service.showing.set_lobby_message(loaded.row.id, message.id)

        self._later(loaded, job)

    def started(self, loaded: Loaded) -> None:
        """The lobby's message says the game is on, without buttons."""
        publisher, channel_id = self.publisher, loaded.row.channel_id
        message_id = loaded.row.lobby_message_id
        if message_id is None:
            return

        async def job() -> None:
            with i18n.using(await publisher.speaking.public(loaded)):
                names = ", ".join(
                    computer_label(s.name, s.level) if s.is_computer else s.name
                    for s in loaded.seats
                )
                panel = lobby_panel(
                    loaded.game,
                    loaded.seats,
                    loaded.row.host_id,
                    _("The game is on: see the table below."),
                )
                content = _(
                    "▶️ {game} started: {names}.", game=game_title(loaded.row.game), names=names
                )
            await publisher.pacer.slot(("ch", channel_id))
            await edit_message(
                publisher.bot,
                channel_id,
                message_id,
                content=content,
                embed=to_discord.embed(panel),
                view=None,
            )

        self._later(loaded, job)

    def _later(self, loaded: Loaded, job: Job) -> None:
        async def guarded() -> None:
            try:
                await job()
            except discord.HTTPException:
                log.warning("could not show the lobby of game %s", loaded.row.id, exc_info=True)

        key = ("lobby", loaded.row.id)
        self.publisher.outbox.put(("ch", loaded.row.channel_id), key, guarded)
