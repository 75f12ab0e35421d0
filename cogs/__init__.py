"""The bot's cogs (one module each). What the game cogs share lives here: the bot builds one
:class:`Playing` and every cog that acts on games takes it (:class:`PlayingCog`)."""

from __future__ import annotations

from dataclasses import dataclass

from delivery.moves import MoveDesk
from delivery.publisher import Publisher
from discordkit.client import CardBot
from service.games import GameService


@dataclass(frozen=True)
class Playing:
    """The bot, its games' service, their publisher and the desk that plays moves."""

    bot: CardBot
    service: GameService
    publisher: Publisher
    desk: MoveDesk


class PlayingCog:
    """What a cog that acts on games holds (a cog lists it before ``commands.Cog``): it reads
    and changes them through ``service``, shows what changed through ``publisher`` and plays
    moves at ``desk``."""

    def __init__(self, playing: Playing) -> None:
        self.bot = playing.bot
        self.service = playing.service
        self.publisher = playing.publisher
        self.desk = playing.desk
