"""A lobby's message in its channel, when the lobby changed elsewhere than by its buttons (the
live table, web/): posted for a new lobby, redrawn after a join or a computer added, closed
with "the game is on" when it starts. Queued in the channel's lane like every other write.

Whether the bot may post in a channel at all (:meth:`LobbyMessages.can_post`) is read from what
the gateway told discord.py (the bot's roles and the channel's overwrites) and from a refusal
heard a moment ago; a process without the gateway's cache does not know, and learns it from
Discord's answer to the lobby's post (``refused``)."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable

import discord

import i18n
from delivery.publisher import Publisher
from discordkit import to_discord
from discordkit.rest import edit_message
from discordkit.views import lobby_view
from i18n import N_, _
from presentation.base import computer_label
from presentation.lobby import lobby_panel
from presentation.titles import game_title
from service.reports import Loaded

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]
Refusal = Callable[[Loaded], Awaitable[None]]

NO_ACCESS = (50001, 50013)  # Missing Access, Missing Permissions
# What a lobby needs in its channel: seeing it, posting, and the lobby's embed.
LOBBY_NEEDS = discord.Permissions(view_channel=True, send_messages=True, embed_links=True)
THREAD_NEEDS = discord.Permissions(
    view_channel=True, send_messages_in_threads=True, embed_links=True
)
REFUSED_SECONDS = 60.0  # how long a channel that refused a lobby is said to refuse without asking
KEPT_REFUSALS = 1000

CLOSED_BY = N_("🛑 {name} closed this lobby.")  # {name}: who left it empty
CANCELLED_BY = N_("🛑 {name} cancelled this lobby.")


class LobbyMessages:
    def __init__(
        self, publisher: Publisher, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.publisher = publisher
        self._clock = clock
        self._refused: dict[int, float] = {}  # channel -> when its refusal was heard

    def can_post(self, guild_id: int, channel_id: int) -> bool | None:
        """Whether the bot may post a lobby in the channel: False for a minute after Discord
        refused one there (its own word, fresher than any cache), else what the gateway's
        cache says (it follows every channel, role and member update), else None: this
        process cannot tell before it tries."""
        heard = self._refused.get(channel_id)
        if heard is not None:
            if self._clock() - heard < REFUSED_SECONDS:
                return False
            del self._refused[channel_id]
        guild = self.publisher.bot.get_guild(guild_id)
        channel = None if guild is None else guild.get_channel_or_thread(channel_id)
        if guild is None or guild.me is None or channel is None:
            return None
        permissions = channel.permissions_for(guild.me)
        if isinstance(channel, discord.Thread):  # a thread asks Send Messages in Threads
            return permissions >= THREAD_NEEDS
        return permissions >= LOBBY_NEEDS

    def show(self, loaded: Loaded, *, computers: bool, refused: Refusal | None = None) -> None:
        """Post the lobby's message (a new lobby) or redraw it. ``refused``: called when
        Discord refuses a new lobby's post for want of access or permission (the channel is
        then said to refuse for a while, see :meth:`can_post`)."""
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
            try:
                message = await channel.send(embed=embed, view=view)
            except discord.Forbidden as exc:
                if exc.code not in NO_ACCESS:
                    raise
                self._heard_refusal(channel_id)
                log.warning("no permission to post the lobby of game %s", loaded.row.id)
                if refused is not None:
                    await refused(fresh)
                return
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

    def _heard_refusal(self, channel_id: int) -> None:
        if len(self._refused) >= KEPT_REFUSALS:
            self._refused.clear()
        self._refused[channel_id] = self._clock()

    def _later(self, loaded: Loaded, job: Job) -> None:
        async def guarded() -> None:
            try:
                await job()
            except discord.HTTPException as exc:
                log.warning("could not show the lobby of game %s: %s", loaded.row.id, exc)

        key = ("lobby", loaded.row.id)
        self.publisher.outbox.put(("ch", loaded.row.channel_id), key, guarded)
