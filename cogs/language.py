"""``/language``: each person chooses the language of the bot's private answers to them, and a
server's managers the language of its channels (the interaction's own language: discordkit.locale).
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from discordkit.client import CardBot
from discordkit.locale import enter
from discordkit.replies import reply, within_budget
from i18n import NATIVE_NAMES, _
from service.languages import Languages

log = logging.getLogger(__name__)

AUTO = "auto"


def language_choices() -> list[app_commands.Choice[str]]:
    choices = [app_commands.Choice(name=NATIVE_NAMES[code], value=code) for code in i18n.LANGUAGES]
    return [*choices, app_commands.Choice(name="Discord", value=AUTO)]


class LanguageCog(commands.Cog, name="Language"):
    def __init__(self, languages: Languages) -> None:
        self.languages = languages

    @app_commands.command(name="language", description="The language I write to you in")
    @app_commands.describe(
        language="Your language (Discord: follow your Discord setting)",
        server="Set this server's language for the table and results instead (Manage Server)",
    )
    @app_commands.choices(language=language_choices())
    async def language(
        self,
        interaction: discord.Interaction[CardBot],
        language: app_commands.Choice[str] | None = None,
        server: bool = False,
    ) -> None:
        chosen = None if language is None or language.value == AUTO else language.value
        if server:
            await self._server(interaction, language is not None, chosen)
            return
        user = interaction.user.id

        async def work() -> bool:
            """Store the choice (if any); whether the person has one."""
            if language is not None:
                await self.languages.choose_for("user", user, chosen)
            return await self.languages.choice("user", user) is not None

        has_choice = await within_budget(interaction, work(), ephemeral=True, thinking=True)
        if language is not None:
            await enter(interaction)  # the answer is in the language just chosen (cached)
        name = NATIVE_NAMES[i18n.current()]
        if has_choice:
            text = _("I write to you in {language}.", language=name)
        else:
            text = _(
                "I write to you in {language}, as your Discord is set. "
                "Choose another with `/language`.",
                language=name,
            )
        await reply(interaction, text)

    async def _server(
        self, interaction: discord.Interaction[CardBot], change: bool, chosen: str | None
    ) -> None:
        guild = interaction.guild_id
        if guild is None:
            await reply(interaction, _("A server's language is set in the server."))
            return
        perms = interaction.permissions
        if change and not (perms.manage_guild or perms.administrator):
            await reply(
                interaction, _("Only members with Manage Server can change the server's language.")
            )
            return

        async def work() -> tuple[str, bool]:
            """Store the choice (if any); the server's language now, and whether it is chosen."""
            if change:
                await self.languages.choose_for("server", guild, chosen)
            now = await self.languages.public(guild, interaction.guild_locale)
            return now, await self.languages.choice("server", guild) is not None

        now, is_chosen = await within_budget(interaction, work(), ephemeral=True, thinking=True)
        if is_chosen:
            text = _(
                "Tables, rounds and results in this server are in {language}.",
                language=NATIVE_NAMES[now],
            )
        else:
            text = _(
                "Tables, rounds and results in this server are in {language}, as Discord "
                "gives the server's language.",
                language=NATIVE_NAMES[now],
            )
        await reply(interaction, text)
