"""The language of each interaction, and ``/language`` to choose it.

Every interaction's handler runs in the language of the person behind it (private answers):
slash commands through :class:`LocalizedTree`, our buttons and selects through
:class:`Localized`, anything else through :func:`enter`. Where a handler goes on to write for the
whole channel (a lobby, the score sheet) it switches to :func:`public_language`, the server's.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.replies import reply, within_budget
from cogs.waiting import first_done
from i18n import NATIVE_NAMES, _
from service.languages import Languages

log = logging.getLogger(__name__)

AUTO = "auto"


def _languages(interaction: discord.Interaction[Any]) -> Languages | None:
    found = getattr(interaction.client, "languages", None)
    return found if isinstance(found, Languages) else None


LOOKUP_BUDGET = 0.2  # seconds a click waits for a stored language before Discord's is used


async def enter(interaction: discord.Interaction[Any]) -> str:
    """Make the interaction's person's language current for the rest of its handler.

    The stored choice is usually cached, and then used at once (no task, no wait); when it
    must be read, the read gets :data:`LOOKUP_BUDGET` (the acknowledgement must not wait on a
    busy database): past that, Discord's locale is used for this answer and the read goes on
    to fill the cache.
    """
    language = i18n.choose(i18n.from_discord(interaction.locale))
    languages = _languages(interaction)
    asked = (
        interaction.user.id,
        interaction.locale,
        interaction.guild_id,
        interaction.guild_locale if interaction.guild_id else None,
    )
    cached = languages.cached_for_interaction(*asked) if languages is not None else None
    if cached is not None:
        language = cached
    elif languages is not None:
        lookup = asyncio.ensure_future(languages.for_interaction(*asked))
        await first_done(lookup, timeout=LOOKUP_BUDGET)
        if lookup.done() and lookup.exception() is None:
            language = lookup.result()
        elif lookup.done():  # the store may be down: Discord's locale still says something
            log.warning(
                "no stored language for user %s", interaction.user.id, exc_info=lookup.exception()
            )
        else:
            lookup.add_done_callback(_quiet)
    i18n.set_language(language)
    return language


def _quiet(task: asyncio.Future[str]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("a language lookup failed", exc_info=task.exception())


async def public_language(interaction: discord.Interaction[Any]) -> str:
    """The language of the channel's messages: the server's."""
    languages = _languages(interaction)
    fallback = i18n.from_discord(interaction.guild_locale) if interaction.guild_id else None
    if languages is None or interaction.guild_id is None:
        return i18n.choose(fallback)
    try:
        chosen = await languages.public(interaction.guild_id, interaction.guild_locale)
    except Exception:
        log.warning("no stored language for server %s", interaction.guild_id, exc_info=True)
        return i18n.choose(fallback)
    return chosen


class LocalizedTree(app_commands.CommandTree[Any]):
    """Slash commands run in their user's language."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        await enter(interaction)
        return True


class Localized:
    """Mixed into our buttons and selects (DynamicItems): the click runs in its user's language."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        await enter(interaction)
        return True


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
        interaction: discord.Interaction[Any],
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
        self, interaction: discord.Interaction[Any], change: bool, chosen: str | None
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
