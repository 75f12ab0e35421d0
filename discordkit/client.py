"""The bot as the cogs and their helpers see it: :class:`CardBot` and its :class:`Controls`.

Cogs and helpers may not import bot.py (it imports them all), so what they read from the bot
is declared here, and bot.py's bot subclasses :class:`CardBot`: ``discord.Interaction[CardBot]``
types ``interaction.client`` wherever an interaction is handled. This module imports no other
module of cogs/, so every helper can use it (discordkit/views.py and locale.py do).

:class:`Controls` lives here, not beside the custom ids in controls.py, for that reason: the bot
declares it, and controls.py's dynamic item reads it from the bot.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Generic, TypeAlias, TypeVarTuple

import discord
from discord.ext import commands

from i18n import _
from service.languages import Languages

Ts = TypeVarTuple("Ts")

# What answers a kind of click: the interaction, then the values its custom id carries.
Handler: TypeAlias = Callable[[discord.Interaction["CardBot"], *Ts], Awaitable[None]]


class Route(Generic[*Ts]):
    """A kind of click, typed by the values its handler is given besides the interaction
    (``Route[int, str]``: a game id and a verb); the key of :class:`Controls`. Each route is a
    custom id template of discordkit/views.py, which writes and reads those values."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


async def _not_ready(interaction: discord.Interaction[CardBot], *_values: object) -> None:
    await interaction.response.send_message(
        _("The bot is still starting; please try again in a moment."), ephemeral=True
    )


class Controls:
    """Which handler answers each route: one table per bot, which each cog fills with its own
    handlers as it loads (``bot.controls.on(LOBBY, self.on_lobby_button)``; mypy checks the
    handler's arguments against the route's). A click on a route nobody answers yet (the cogs
    are still loading) is told to try again."""

    __slots__ = ("_handlers",)

    def __init__(self) -> None:
        self._handlers: dict[Route[*tuple[Any, ...]], Callable[..., Awaitable[None]]] = {}

    def on(self, route: Route[*Ts], handler: Handler[*Ts]) -> None:
        self._handlers[route] = handler

    async def answer(
        self, route: Route[*Ts], interaction: discord.Interaction[CardBot], *values: *Ts
    ) -> None:
        await self._handlers.get(route, _not_ready)(interaction, *values)


class CardBot(commands.Bot):
    """What the cogs read from the bot. bot.py's bot is one; it sets ``languages``."""

    languages: Languages  # each person's and each server's language (discordkit/locale.py)

    def __init__(self, *args: Any, **options: Any) -> None:
        super().__init__(*args, **options)
        self.controls = Controls()  # where clicks go (discordkit/views.py)
