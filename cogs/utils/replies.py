"""Short ephemeral answers, shared by every cog."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

from cogs.utils.rest import update_clicked
from i18n import N_
from waiting import first_done

log = logging.getLogger(__name__)

T = TypeVar("T")

# Translated where it is shown: reply(interaction, _(SORRY)).
SORRY = N_("Sorry, something went wrong on my side. Your game is safe; please try again.")


async def reply(interaction: discord.Interaction[Any], text: str) -> None:
    """A short ephemeral answer, whether or not the interaction was answered already."""
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True)
            return
        if interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
            # a public "thinking..." answer would stay: it gives way to the private one
            await interaction.delete_original_response()
        await interaction.followup.send(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)


ACK_BUDGET = 1.5  # seconds of work before a click or command is deferred (Discord allows 3)


async def within_budget(
    interaction: discord.Interaction[Any],
    work: Awaitable[T],
    *,
    ephemeral: bool = False,
    thinking: bool = False,
    budget: float = ACK_BUDGET,
) -> T:
    """Run ``work``; if it takes longer than ``budget``, acknowledge the interaction first.

    Usually the work (one database transaction) is done long before the budget, and the
    answer goes out as the interaction's own response: one call, no defer followed by an
    edit. Under load the acknowledgement never waits on the database queue: past the budget
    the interaction is deferred (``ephemeral``/``thinking`` as given) and the caller's answer
    becomes an edit of the deferred response (see :func:`answer`).
    """
    task = asyncio.ensure_future(work)
    await first_done(task, timeout=budget)
    if not task.done() and not interaction.response.is_done():
        try:
            await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
        except discord.HTTPException:
            log.warning("could not defer interaction %s", interaction.id, exc_info=True)
    return await task


async def answer(interaction: discord.Interaction[Any], *, update: bool, **kwargs: Any) -> bool:
    """The interaction's answer: its response, or an edit of the deferred response; False
    (logged) if Discord refused it.

    ``update`` edits the message the component is on (a click); otherwise a new message.
    """
    try:
        if interaction.response.is_done():
            await interaction.edit_original_response(**kwargs)
        elif update:
            await update_clicked(interaction, **kwargs)
        else:
            await interaction.response.send_message(**kwargs)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)
        return False
    return True
