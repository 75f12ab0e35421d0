"""/settings (Manage Server) and the DM reminders of long turn timers.

Settings are stored per server and apply to games whose lobby opens afterwards: the turn
timer (off, minutes, hours or days), whether computer players may be added, and their
default level (also the level that plays for a player on autopilot or out of time, from the
next move on). The rules of
the four games leave no choice of rounds or target score (Grinch's rounds follow the number of
players, Gnoming A Round has three, Hearts and Ten fixed ends), so there is no such setting.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from delivery.publisher import Publisher
from discordkit import to_discord
from discordkit.client import CardBot
from discordkit.every import Every
from discordkit.replies import answering_errors, reply, within_budget
from engine.base import Level
from i18n import _
from presentation.base import BLUE, Panel, level_word
from presentation.titles import game_title
from service.languages import Languages
from service.servers import GuildSettings, ServerSettings, describe_timeout

log = logging.getLogger(__name__)

REMIND_EVERY = 60.0  # seconds between looks for turn timers running low


def settings_panel(
    timer: str,
    computers: bool,
    changed: bool,
    pictures: bool = True,
    language: str | None = None,
    level: Level = Level.NORMAL,
) -> Panel:
    """``language``: the name of the server's language for public messages, when known;
    ``level``: the server's default computer level."""
    shown_language = (
        "\n"
        + _("**Language:** {language} (change with `/language server:True`)", language=language)
        if language
        else ""
    )
    return Panel(
        title=_("⚙️ Server settings saved") if changed else _("⚙️ Server settings"),
        description=(
            _("**Turn timer:** {timer}", timer=timer)
            + "\n"
            + (
                _("**Computer players:** allowed")
                if computers
                else _("**Computer players:** not allowed")
            )
            + "\n"
            + _("**Computer level:** {level}", level=level_word(level))
            + "\n"
            + (_("**Card pictures:** on") if pictures else _("**Card pictures:** off (text only)"))
            + shown_language
            + "\n\n"
            + _(
                "A DM reminds a player when a quarter of a timer of an hour or more is left. "
                "New games follow these; games already open keep theirs. Change with "
                "`/settings turn_timer:2h computers:False` "
                "(`off`, or minutes `m`, hours `h`, days `d`)."
            )
            + " "
            + _(
                "The computer level is the level of a computer nobody chose one for (in a "
                "seat a player left) and of the computer that plays for a player on autopilot "
                "or out of time."
            )
        ),
        colour=BLUE,
    )


class SettingsCog(commands.Cog, name="Settings"):
    def __init__(
        self,
        bot: commands.Bot,
        servers: ServerSettings,
        publisher: Publisher,
        *,
        remind_every: float = REMIND_EVERY,
    ) -> None:
        self.bot = bot
        self.servers = servers
        self.publisher = publisher
        self._reminders = Every(remind_every, self.remind_due, name="turn reminders")

    async def cog_load(self) -> None:
        self._reminders.start()

    async def cog_unload(self) -> None:
        await self._reminders.stop()

    @app_commands.command(name="settings", description="This server's game settings")
    @app_commands.describe(
        turn_timer="Time to act before the computer plays: off, 10m, 2h, 3d …",
        computers="Whether computer players may be added to games",
        pictures="Card pictures on hands, rounds and results (off: text only)",
        computer_level="The computer players' default level, also used for autopilot",
    )
    @app_commands.choices(
        computer_level=[
            app_commands.Choice(name="easy", value="easy"),
            app_commands.Choice(name="normal", value="normal"),
            app_commands.Choice(name="hard", value="hard"),
        ]
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def settings(
        self,
        interaction: discord.Interaction[CardBot],
        turn_timer: str | None = None,
        computers: bool | None = None,
        pictures: bool | None = None,
        computer_level: app_commands.Choice[str] | None = None,
    ) -> None:
        guild = interaction.guild_id or 0
        perms = interaction.permissions
        if not (perms.manage_guild or perms.administrator):
            await reply(interaction, _("Only members with Manage Server can change the settings."))
            return
        level = None if computer_level is None else computer_level.value
        update = self.servers.update(
            guild,
            turn_timer=turn_timer,
            computers=computers,
            pictures=pictures,
            computer_level=level,
        )

        async def work() -> tuple[GuildSettings, str | None]:
            """The saved settings and the server's language: all reads before the answer."""
            return await update, await self._server_language(guild, interaction.guild_locale)

        async with answering_errors(interaction) as refused:
            saved, language = await within_budget(
                interaction, work(), ephemeral=True, thinking=True
            )
        if refused:
            return
        timer = describe_timeout(self.servers.timeout_of(saved))
        changed = any(x is not None for x in (turn_timer, computers, pictures, level))
        panel = settings_panel(
            timer, saved.computers, changed, saved.pictures, language, saved.computer_level
        )
        embed = to_discord.embed(panel)
        try:
            if interaction.response.is_done():
                await interaction.edit_original_response(embed=embed)
            else:
                await interaction.response.send_message(embed=embed, ephemeral=True)
        except discord.HTTPException as exc:
            log.warning("could not answer /settings %s: %s", interaction.id, exc)

    async def remind_due(self, now: float) -> int:
        """DM every player whose long turn timer is running low; how many were reminded."""
        sent = 0
        for due in await self.servers.due_reminders(now):
            i18n.set_language(await self._language_of(due.user_id))  # a private message
            title = game_title(due.game)
            text = _(
                "⏰ Your turn in **{game}** ({channel}) ends {when}; after that the computer "
                "plays for you.",
                game=title,
                channel=f"<#{due.channel_id}>",
                when=f"<t:{int(due.deadline)}:R>",
            )
            try:
                channel_id = await self.publisher.hands.dm_channel(due.user_id, due.dm_channel_id)
                await self.publisher.pacer.slot(("dm", due.user_id), urgent=False)
                await self.bot.get_partial_messageable(channel_id).send(text)
                sent += 1
            except discord.HTTPException as exc:  # DMs closed: the table shows the timer
                log.info("no reminder for user %s: %s", due.user_id, exc)
            await self.servers.reminded(due)
        return sent

    async def _server_language(self, guild_id: int, live_locale: object) -> str | None:
        """The name of the server's language (its row is cached by the interaction's lookup)."""
        languages = getattr(self.bot, "languages", None)
        if not isinstance(languages, Languages):
            return None
        return i18n.NATIVE_NAMES[await languages.public(guild_id, live_locale)]

    async def _language_of(self, user_id: int) -> str:
        languages = getattr(self.bot, "languages", None)
        if not isinstance(languages, Languages):
            return i18n.DEFAULT
        return await languages.private(user_id)
