"""The language of each interaction.

Every interaction's handler runs in the language of the person behind it (private answers):
slash commands through :class:`LocalizedTree`, our dynamic items through :class:`Localized`,
anything else (moves: cogs/guard.py) through :func:`enter`. Where a handler goes on to write for the
whole channel (a lobby, the score sheet) it switches to :func:`public_language`, the server's.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands

import i18n
from discordkit.client import CardBot
from discordkit.waiting import first_done

log = logging.getLogger(__name__)

LOOKUP_BUDGET = 0.2  # seconds a click waits for a stored language before Discord's is used


async def enter(interaction: discord.Interaction[CardBot]) -> str:
    """Make the interaction's person's language current for the rest of its handler.

    The stored choice is usually cached, and then used at once (no task, no wait); when it
    must be read, the read gets :data:`LOOKUP_BUDGET` (the acknowledgement must not wait on a
    busy database): past that, Discord's locale is used for this answer and the read goes on
    to fill the cache.
    """
    language = i18n.choose(i18n.from_discord(interaction.locale))
    languages = interaction.client.languages
    asked = (
        interaction.user.id,
        interaction.locale,
        interaction.guild_id,
        interaction.guild_locale if interaction.guild_id else None,
    )
    cached = languages.cached_for_interaction(*asked)
    if cached is not None:
        language = cached
    else:
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


async def public_language(interaction: discord.Interaction[CardBot]) -> str:
    """The language of the channel's messages: the server's."""
    fallback = i18n.from_discord(interaction.guild_locale) if interaction.guild_id else None
    if interaction.guild_id is None:
        return i18n.choose(fallback)
    languages = interaction.client.languages
    try:
        chosen = await languages.public(interaction.guild_id, interaction.guild_locale)
    except Exception:
        log.warning("no stored language for server %s", interaction.guild_id, exc_info=True)
        return i18n.choose(fallback)
    return chosen


class LocalizedTree(app_commands.CommandTree[CardBot]):
    """Slash commands run in their user's language."""

    async def interaction_check(self, interaction: discord.Interaction[CardBot], /) -> bool:
        await enter(interaction)
        return True


class Localized:
    """Mixed into our dynamic items: the click runs in its user's language. (discord.py types
    an item's interaction as ``Interaction[Any]``: an override may not narrow it.)"""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        await enter(interaction)
        return True
