"""Lobbies: `/<game> start`, the Join / Leave / Start / Cancel buttons, the menu that adds
a computer player at a level and the one that removes a computer or changes its level."""

from __future__ import annotations

import logging
from typing import Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs import Playing, PlayingCog
from delivery.lobbies import CANCELLED_BY, CLOSED_BY
from discordkit import to_discord
from discordkit.clicks import LIVE, LOBBY
from discordkit.client import CardBot
from discordkit.ids import chosen_computer, chosen_level
from discordkit.locale import public_language
from discordkit.replies import IN_A_SERVER, answer, answering_errors, reply, within_budget
from discordkit.views import lobby_view
from engine import GAMES
from engine.base import Game
from i18n import Later, _, later
from presentation.base import computer_label
from presentation.lobby import lobby_panel
from presentation.titles import game_title
from service.errors import LobbyProblem
from service.lobbies import COMPUTER_GONE
from service.reports import Loaded, Report

log = logging.getLogger(__name__)


class TableCommands(Protocol):
    """What the lobby asks of the table cog (bot.py passes it in)."""

    async def channel_game_named(
        self, interaction: discord.Interaction[CardBot], game_name: str
    ) -> Loaded | None: ...

    async def hand_command(
        self, interaction: discord.Interaction[CardBot], game_name: str
    ) -> None: ...


async def launch(interaction: discord.Interaction[CardBot]) -> None:
    """Answer with Discord's launch-activity response: the live table opens in the channel."""
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as exc:
        log.warning("Discord refused to launch the live table: %s", exc)


def is_admin(interaction: discord.Interaction[CardBot]) -> bool:
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)


class LobbyCog(PlayingCog, commands.Cog, name="Lobby"):
    def __init__(self, playing: Playing, table: TableCommands, *, live: bool = False) -> None:
        super().__init__(playing)
        self.live = live  # the live table (an Activity) is served: /<game> table launches it
        self.table = table
        self.groups = [self._group(name, game) for name, game in sorted(GAMES.items())]

    async def cog_load(self) -> None:
        self.bot.controls.on(LOBBY, self.on_lobby_button)
        if self.live:
            self.bot.controls.on(LIVE, self.on_live_button)
        for group in self.groups:
            self.bot.tree.add_command(group, override=True)

    async def cog_unload(self) -> None:
        for group in self.groups:
            self.bot.tree.remove_command(group.name)

    # -- commands ------------------------------------------------------------------------

    def _group(self, name: str, game: Game[Any, Any]) -> app_commands.Group:
        # Guild only: a game lives in a server channel. No default_member_permissions: Discord
        # applies them to a group as a whole (subcommands cannot differ), and `cancel` must stay
        # usable by a game's host who is not a moderator (the service checks host or Manage
        # Server, see is_admin). Commands for moderators only, like a future /settings, get
        # default_permissions=discord.Permissions(manage_guild=True).
        group = app_commands.Group(
            name=name,
            description=f"Play {game.title}"[:100],
            guild_only=True,
            default_permissions=None,
        )

        if game.max_players == 2:

            @group.command(name="start", description=f"Open a {game.title} game in this channel")
            @app_commands.describe(opponent="Challenge someone directly (optional)")
            async def start_vs(
                interaction: discord.Interaction[CardBot], opponent: discord.Member | None = None
            ) -> None:
                await self.start_lobby(interaction, name, opponent)

        else:

            @group.command(name="start", description=f"Open a {game.title} game in this channel")
            async def start(interaction: discord.Interaction[CardBot]) -> None:
                await self.start_lobby(interaction, name, None)

        @group.command(name="hand", description="Show your hand and your moves (only you see it)")
        async def hand(interaction: discord.Interaction[CardBot]) -> None:
            await self.table.hand_command(interaction, name)

        @group.command(name="cancel", description="End this channel's game (host or Manage Server)")
        async def cancel(interaction: discord.Interaction[CardBot]) -> None:
            await self.cancel_command(interaction, name)

        if self.live:

            @group.command(name="table", description="Open the live table of this channel's game")
            async def table(interaction: discord.Interaction[CardBot]) -> None:
                await launch(interaction)

        return group

    async def start_lobby(
        self,
        interaction: discord.Interaction[CardBot],
        game_name: str,
        opponent: discord.Member | None,
    ) -> None:
        if interaction.guild is None or interaction.channel_id is None:
            await reply(interaction, _(IN_A_SERVER))
            return
        if opponent is not None and (opponent.bot or opponent.id == interaction.user.id):
            await reply(interaction, _("Challenge another person (or add a computer player)."))
            return
        async with answering_errors(interaction) as refused:
            loaded = await within_budget(
                interaction,
                self.service.open_lobby(
                    game=game_name,
                    guild_id=interaction.guild.id,
                    channel_id=interaction.channel_id,
                    host_id=interaction.user.id,
                    host_name=interaction.user.display_name,
                    opponent=(opponent.id, opponent.display_name) if opponent else None,
                ),
                thinking=True,
            )
        if refused:
            return
        content = None
        if opponent is not None:  # the ping speaks to them: in their own language, as DMs do
            with i18n.using(await self._private_language(interaction, opponent.id)):
                content = _("{mention}, you are challenged!", mention=opponent.mention)
        i18n.set_language(await public_language(interaction))  # the lobby is public
        await answer(
            interaction,
            update=False,
            content=content,
            embed=to_discord.embed(lobby_panel(loaded.game, loaded.seats, loaded.row.host_id)),
            view=lobby_view(loaded, computers=await self._computers(loaded)),
            allowed_mentions=discord.AllowedMentions(users=True),
        )
        try:
            message = await interaction.original_response()
        except discord.HTTPException:
            log.warning("could not read back the lobby message of game %s", loaded.row.id)
            return
        await self.service.showing.set_lobby_message(loaded.row.id, message.id)

    async def _private_language(
        self, interaction: discord.Interaction[CardBot], user_id: int
    ) -> str:
        """A person's private language (their choice, else their Discord's, else the
        server's); the server's when the store cannot say."""
        try:
            return await self.bot.languages.private(user_id, interaction.guild_id)
        except Exception:  # a ping in the server's language beats no lobby
            log.warning("no stored language for user %s", user_id, exc_info=True)
            return await public_language(interaction)

    async def cancel_command(
        self, interaction: discord.Interaction[CardBot], game_name: str
    ) -> None:
        loaded = await self.table.channel_game_named(interaction, game_name)
        if loaded is None:
            return
        async with answering_errors(interaction) as refused:
            after = await within_budget(
                interaction,
                self.service.cancel(
                    loaded.row.id,
                    interaction.user.id,
                    is_admin=is_admin(interaction),
                    channel_id=interaction.channel_id,
                ),
                ephemeral=True,
                thinking=True,
            )
        if refused:
            return
        text = later(
            "🛑 {name} cancelled the {game} game.",
            name=interaction.user.display_name,
            game=Later(loaded.game.title),
        )
        if interaction.response.is_done():  # deferred privately: the news is public
            await answer(interaction, update=False, content=_("Cancelled."))
            self.publisher.announce(after, text)
        else:
            with i18n.using(await public_language(interaction)):
                content = str(text)
            await answer(interaction, update=False, content=content)
        self._after_close(after)

    async def _change_computer(
        self, interaction: discord.Interaction[CardBot], game_id: int, here: int
    ) -> Loaded:
        """The choice made in the computers menu, applied: a computer removed, or its level."""
        choice, user = chosen_computer(interaction), interaction.user
        if choice is None:  # not one of the menu's options
            raise LobbyProblem(COMPUTER_GONE)
        if choice.level is None:
            return await self.service.remove_computer(
                game_id, user.id, choice.seat, choice.name, channel_id=here
            )
        return await self.service.set_computer_level(
            game_id, user.id, choice.seat, choice.name, choice.level, channel_id=here
        )

    async def _computers(self, loaded: Loaded) -> bool:
        """Whether the lobby's server allows computer players (its settings)."""
        return await self.service.computers_allowed(loaded.row.guild_id)

    def _after_close(self, loaded: Loaded) -> None:
        if loaded.state is None:
            self.publisher.close_lobby_message(loaded, later("🛑 This lobby was closed."))
        else:
            self.publisher.cancelled(loaded)

    async def on_live_button(self, interaction: discord.Interaction[CardBot], _game: int) -> None:
        """ "Open the table" on a table message: the live table of its channel."""
        await launch(interaction)

    # -- lobby buttons -------------------------------------------------------------------

    async def on_lobby_button(
        self, interaction: discord.Interaction[CardBot], game_id: int, verb: str
    ) -> None:
        failure = f"lobby {verb} of game {game_id}"
        async with answering_errors(interaction, failure=failure) as refused:
            kwargs, report = await within_budget(
                interaction, self._lobby_verb(interaction, game_id, verb)
            )
        if refused:
            return
        await answer(interaction, update=True, **kwargs)
        if report is not None:
            self.publisher.publish(report)

    async def _lobby_verb(
        self, interaction: discord.Interaction[CardBot], game_id: int, verb: str
    ) -> tuple[dict[str, Any], Report | None]:
        """Apply one lobby button: the lobby message's new look, and a started game's report."""
        user, here = interaction.user, interaction.channel_id or 0
        public = await public_language(interaction)
        if verb in ("start", "accept"):
            if verb == "accept":
                report = await self.service.accept(game_id, user.id, channel_id=here)
            else:
                report = await self.service.start(game_id, user.id, channel_id=here)
            i18n.set_language(public)  # the lobby message is public (this task's own context)
            names = ", ".join(
                computer_label(s.name, s.level) if s.is_computer else s.name
                for s in report.after.seats
            )
            panel = lobby_panel(
                report.after.game,
                report.after.seats,
                report.after.row.host_id,
                _("The game is on: see the table below."),
            )
            content = _(
                "▶️ {game} started: {names}.", game=game_title(report.after.row.game), names=names
            )
            return {"content": content, "embed": to_discord.embed(panel), "view": None}, report
        closing: Later | None = None  # written below, in the server's language
        declined_by: int | None = None  # the challenged person, when they declined
        if verb == "join":
            loaded = await self.service.join(game_id, user.id, user.display_name, channel_id=here)
        elif verb == "bot":  # the computer menu: the chosen level (the old button: none)
            level = chosen_level(interaction)
            loaded = await self.service.add_computer(game_id, user.id, channel_id=here, level=level)
        elif verb == "computers":  # the computers menu: remove one, or change its level
            loaded = await self._change_computer(interaction, game_id, here)
        elif verb == "cancel":
            loaded = await self.service.cancel(
                game_id, user.id, is_admin=is_admin(interaction), channel_id=here
            )
            closing = later(CANCELLED_BY, name=user.display_name)
        else:  # leave, decline
            left = await self.service.leave(game_id, user.id, channel_id=here)
            if left is None:
                loaded = await self.service.load(game_id)
                closing = later(CLOSED_BY, name=user.display_name)
                seat = loaded.seat_of(user.id)
                if seat is not None and not seat.accepted:  # the challenged person said no
                    declined_by = user.id
                    closing = later("🛑 {name} declined the challenge.", name=user.display_name)
            else:
                loaded = left
        i18n.set_language(public)  # refusals above were private; the lobby message is public
        if closing is not None:
            panel = lobby_panel(
                loaded.game, loaded.seats, loaded.row.host_id, _("Closed."), declined_by
            )
            return {"content": str(closing), "embed": to_discord.embed(panel), "view": None}, None
        return {
            "embed": to_discord.embed(lobby_panel(loaded.game, loaded.seats, loaded.row.host_id)),
            "view": lobby_view(loaded, computers=await self._computers(loaded)),
        }, None
