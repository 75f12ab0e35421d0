"""The cog every game feature builds on: the bot, its games' service and their publisher."""

from __future__ import annotations

from discord.ext import commands

from delivery.publisher import Publisher
from discordkit.client import CardBot
from service.games import GameService


class PlayingCog(commands.Cog):
    """A cog that acts on games: reads and changes them through ``service`` and shows what
    changed through ``publisher``."""

    def __init__(self, bot: CardBot, service: GameService, publisher: Publisher) -> None:
        self.bot = bot
        self.service = service
        self.publisher = publisher
