"""Composition root: settings from .env, logging, the database, the cogs, command sync."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import sys

import discord
from discord.ext import commands
from dotenv import load_dotenv

from cogs.components import DYNAMIC_ITEMS, Routes
from cogs.guard import GuardCog
from cogs.help import HelpCog
from cogs.lobby import LobbyCog
from cogs.publisher import Publisher
from cogs.table import TableCog
from cogs.upkeep import UpkeepCog
from db.store import Store
from service.games import GameService
from settings import Settings, SettingsError

log = logging.getLogger("bot")


def minimal_intents() -> discord.Intents:
    """Only guild events (channels and names for the table and DMs); no message content."""
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


class CardBot(commands.Bot):
    """The bot, with its store and settings injected; it owns every long-lived object."""

    def __init__(self, settings: Settings, store: Store) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=minimal_intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings
        self.store = store
        self.service = GameService(store, turn_timeout=settings.turn_timeout)
        self.publisher = Publisher(self, self.service)
        self.routes = Routes()  # where clicks go; filled by the cogs as they load

    async def setup_hook(self) -> None:
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.add_cog(GuardCog(self))
        table = TableCog(self, self.service, self.publisher, self.routes)
        await self.add_cog(table)
        await self.add_cog(LobbyCog(self, self.service, self.publisher, self.routes, table))
        await self.add_cog(UpkeepCog(self, self.service, self.publisher))
        await self.add_cog(HelpCog())
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), guild.id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands", len(synced))

    async def on_ready(self) -> None:
        log.info("ready as %s in %d servers", self.user, len(self.guilds))

    async def close(self) -> None:
        await self.publisher.close()
        await super().close()
        await self.store.close()


async def main() -> int:
    load_dotenv()
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        log.error("Cannot start: %s", exc)
        return 2
    logging.getLogger().setLevel(settings.log_level)
    try:
        store = await Store.open(settings.database_path)
    except (OSError, sqlite3.Error) as exc:
        log.error("Cannot open the database at %s: %s", settings.database_path, exc)
        return 2
    bot = CardBot(settings, store)
    try:
        await bot.start(settings.token)
    except discord.LoginFailure:
        log.error("Discord refused the token: check DISCORD_TOKEN in .env.")
        return 2
    finally:
        if not bot.is_closed():
            await bot.close()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except KeyboardInterrupt:
        sys.exit(0)
