"""Every interaction gets an answer: move clicks, clicks nobody handles, and failed commands.

discord.py answers a component only when a registered item matches it *and* the message still
carries it; otherwise the player would see "This interaction failed". Here the leftovers are
answered: a button of ours that its message no longer has (a double click racing an edit),
and anything else (a button from an older version of the bot, a forged id). Move clicks are
routed here too, by their custom id (``discordkit.views.move_of``), once the message is known
to carry it: a dynamic item would have discord.py rebuild the message's whole view per click.
Command errors get a short, kind text; what the user caused is logged as a warning, only our
faults as errors.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from discordkit.clicks import MENU, MOVE, ControlButton, move_of
from discordkit.client import CardBot
from discordkit.locale import enter
from discordkit.replies import IN_A_SERVER, SORRY, reply
from i18n import N_, _
from service.errors import StaleMove

log = logging.getLogger(__name__)

UNKNOWN_BUTTON = N_("This button is no longer in use. Use the newest message of the game.")
UPDATED = N_("The bot was updated a moment ago; please try again in a minute.")
NOT_A_MEMBER = N_("That person is not a member of this server.")

_TEMPLATES = (MOVE.pattern, MENU.pattern, ControlButton.__discord_ui_compiled_template__)


def ours(custom_id: str) -> bool:
    """Whether the bot answers this custom_id (a move here, the rest through ControlButton)."""
    return any(t.fullmatch(custom_id) for t in _TEMPLATES)


def custom_ids(components: list[Any]) -> set[str]:
    found: set[str] = set()
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if custom_id:
            found.add(custom_id)
        found |= custom_ids(list(getattr(component, "children", []) or []))
    return found


def command_error_text(error: app_commands.AppCommandError) -> tuple[str, bool]:
    """(what to tell the user, whether it is our fault)."""
    if isinstance(error, app_commands.CommandSignatureMismatch | app_commands.CommandNotFound):
        return _(UPDATED), False
    if isinstance(error, app_commands.NoPrivateMessage):
        return _(IN_A_SERVER), False
    if isinstance(error, app_commands.TransformerError):
        if error.type in (
            discord.AppCommandOptionType.user,
            discord.AppCommandOptionType.mentionable,
        ):
            return _(NOT_A_MEMBER), False
        return _("I could not understand that option."), False
    if isinstance(error, app_commands.CheckFailure):
        return _("You can't use that command here."), False
    return _(SORRY), True


class GuardCog(commands.Cog, name="Guard"):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.tree.error(self.on_app_command_error)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[CardBot]) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if not ours(custom_id):
            await enter(interaction)
            log.warning("unknown component %r from user %s", custom_id[:100], interaction.user.id)
            await reply(interaction, _(UNKNOWN_BUTTON))
            return
        message = interaction.message
        if message is not None and custom_id not in custom_ids(message.components):
            await enter(interaction)
            await reply(interaction, _(StaleMove.NO_LONGER))
            return
        move = move_of(custom_id, data)
        if move is not None:
            await enter(interaction)  # the answer is in the clicker's language
            await self.bot.controls.answer(MOVE, interaction, *move)

    async def on_app_command_error(
        self, interaction: discord.Interaction[CardBot], error: app_commands.AppCommandError
    ) -> None:
        text, our_fault = command_error_text(error)
        if our_fault:
            log.error("command failed", exc_info=error)
        else:
            log.warning("command refused (%s): %s", type(error).__name__, error)
        await reply(interaction, text)
