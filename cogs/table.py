"""In-game flow shared by every game: moves, hands, scores, rules and turn timers."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs import render
from cogs.components import Routes
from cogs.publisher import Publisher, names_of
from cogs.replies import SORRY, reply
from cogs.ui import UIS
from engine import GAMES
from service.errors import NoGame, PlayError
from service.games import GameService, Loaded

log = logging.getLogger(__name__)

MAX_TIMER_SLEEP = 30.0
STALE_PREFIXES = ("g:", "gs:", "lobby:", "hand:", "back:")


def _custom_ids(components: list[Any]) -> set[str]:
    found: set[str] = set()
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if custom_id:
            found.add(custom_id)
        found |= _custom_ids(list(getattr(component, "children", []) or []))
    return found


class TableCog(commands.Cog, name="Table"):
    def __init__(
        self, bot: commands.Bot, service: GameService, publisher: Publisher, routes: Routes
    ) -> None:
        self.bot = bot
        self.service = service
        self.publisher = publisher
        self.routes = routes
        self._wake = asyncio.Event()
        self._timer_task: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self.routes.move, self.routes.hand, self.routes.back = (
            self.on_move,
            self.send_hand,
            self.on_back,
        )
        self._timer_task = asyncio.create_task(self._timer_loop(), name="turn-timers")
        self._timer_task.add_done_callback(self._timer_done)

    async def cog_unload(self) -> None:
        if self._timer_task is not None:
            self._timer_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._timer_task

    def _timer_done(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("turn timer loop stopped", exc_info=task.exception())

    def poke_timers(self) -> None:
        self._wake.set()

    # -- buttons -------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer a click on one of our buttons that the message no longer has.

        When a click races an edit of its message (a fast double click, a stale client),
        Discord sends the message as it is now; discord.py then drops the click silently and
        the player would see "interaction failed". Say what happened instead.
        """
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith(STALE_PREFIXES) or interaction.message is None:
            return
        if custom_id in _custom_ids(interaction.message.components):
            return
        await reply(interaction, "That move is no longer available.")

    async def on_move(
        self, interaction: discord.Interaction[Any], game_id: int, step: int, action: str
    ) -> None:
        await interaction.response.defer()
        try:
            report = await self.service.act(game_id, interaction.user.id, step, action)
        except PlayError as exc:
            await reply(interaction, str(exc))
            return
        except Exception:
            log.exception("move %r in game %s failed", action, game_id)
            await reply(interaction, SORRY)
            return
        self.poke_timers()
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await self._edit_ephemeral(interaction, report.after)
        await self.publisher.publish(report)

    async def _edit_ephemeral(self, interaction: discord.Interaction[Any], loaded: Loaded) -> None:
        seat = loaded.seat_of(interaction.user.id)
        if seat is None:
            return
        try:
            await interaction.edit_original_response(**self.publisher.hand_kwargs(loaded, seat))
        except discord.HTTPException:
            log.info("could not update an ephemeral hand", exc_info=True)

    async def on_back(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            report = await self.service.come_back(game_id, interaction.user.id)
        except PlayError as exc:
            await reply(interaction, str(exc))
            return
        await interaction.followup.send("Welcome back! Autopilot is off.", ephemeral=True)
        self.poke_timers()
        await self.publisher.publish(report)

    async def send_hand(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """The player's hand and buttons as an ephemeral message."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            loaded = await self.service.load(game_id)
        except LookupError:
            await reply(interaction, "That game no longer exists.")
            return
        seat = loaded.seat_of(interaction.user.id)
        if seat is None:
            await reply(interaction, "You are not playing in this game.")
            return
        if loaded.state is None:
            await reply(interaction, "The game has not started yet.")
            return
        await interaction.followup.send(ephemeral=True, **self.publisher.hand_kwargs(loaded, seat))

    # -- commands ------------------------------------------------------------------------

    async def channel_game_named(
        self, interaction: discord.Interaction[Any], game_name: str
    ) -> Loaded | None:
        """The channel's open game if it is ``game_name``; otherwise say why and return None."""
        try:
            loaded = await self.service.channel_game(interaction.channel_id or 0)
        except NoGame as exc:
            await reply(interaction, str(exc))
            return None
        if loaded.row.game != game_name:
            await reply(interaction, f"The game in this channel is {loaded.game.title}.")
            return None
        return loaded

    async def hand_command(self, interaction: discord.Interaction[Any], game_name: str) -> None:
        loaded = await self.channel_game_named(interaction, game_name)
        if loaded is not None:
            await self.send_hand(interaction, loaded.row.id)

    @app_commands.command(name="scores", description="Show the score sheet of this channel's game")
    async def scores(self, interaction: discord.Interaction[Any]) -> None:
        try:
            loaded = await self.service.channel_game(interaction.channel_id or 0, finished_too=True)
        except NoGame:
            await reply(interaction, "No game has been played in this channel yet.")
            return
        if loaded.state is None:
            await reply(interaction, "The game in this channel has not started yet.")
            return
        view = loaded.game.view(loaded.state, None)
        panel = UIS[loaded.row.game].scores(view, names_of(loaded))
        await interaction.response.send_message(embed=render.embed(panel))

    @app_commands.command(name="rules", description="A short summary of a game's rules")
    @app_commands.describe(game="Which game")
    @app_commands.choices(
        game=[app_commands.Choice(name=g.title, value=n) for n, g in sorted(GAMES.items())]
    )
    async def rules(self, interaction: discord.Interaction[Any], game: str) -> None:
        ui = UIS.get(game)
        if ui is None:
            await reply(interaction, "I don't know that game.")
            return
        await interaction.response.send_message(embed=render.embed(ui.rules()), ephemeral=True)

    # -- timers --------------------------------------------------------------------------

    async def _resync_all(self) -> None:
        """After a start, make every active game's messages match the database."""
        for row in await self.service.store.games_with_status("active"):
            try:
                await self.publisher.resync(row.id)
            except Exception:
                log.exception("could not resync game %s", row.id)

    async def _timer_loop(self) -> None:
        await self.bot.wait_until_ready()
        await self._resync_all()
        while True:
            try:
                for report in await self.service.expire_due():
                    if report.moves or report.notices:
                        await self.publisher.publish(report)
                due = await self.service.store.earliest_deadline()
            except Exception:
                log.exception("turn timers failed; retrying")
                due = None
            delay = MAX_TIMER_SLEEP if due is None else max(0.0, due[2] - time.time())
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), min(delay, MAX_TIMER_SLEEP) + 0.05)
