"""The language each message of a game is written in: the server's for the channel, each
player's own for their DMs (stored choices first, then Discord's locales, else English)."""

from __future__ import annotations

import logging

import discord

import i18n
from service.languages import Languages
from service.reports import Loaded

log = logging.getLogger(__name__)


class Speaking:
    """The languages of one bot's messages (``languages`` None: Discord's locales alone)."""

    def __init__(self, bot: discord.Client, languages: Languages | None) -> None:
        self.bot = bot
        self.languages = languages

    async def public(self, loaded: Loaded) -> str:
        """The language of the game's channel: the server's."""
        guild = self.bot.get_guild(loaded.row.guild_id)  # the live locale, when cached
        live = guild.preferred_locale if guild is not None else None
        if self.languages is None:
            return i18n.choose(i18n.from_discord(live) if live else None)
        try:
            return await self.languages.public(loaded.row.guild_id, live)
        except Exception:  # a message in English beats no message
            log.warning("no language for server %s", loaded.row.guild_id, exc_info=True)
            return i18n.DEFAULT

    async def private(self, loaded: Loaded, user_id: int | None) -> str:
        """The language of one player's DMs."""
        if self.languages is None or user_id is None:
            return await self.public(loaded)
        try:
            return await self.languages.private(user_id, loaded.row.guild_id)
        except Exception:
            log.warning("no language for user %s", user_id, exc_info=True)
            return i18n.DEFAULT
