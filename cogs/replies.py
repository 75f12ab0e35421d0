"""Short ephemeral answers, shared by every cog."""

from __future__ import annotations

import logging
from typing import Any

import discord

log = logging.getLogger(__name__)

SORRY = "Sorry, something went wrong on my side. Your game is safe; please try again."


async def reply(interaction: discord.Interaction[Any], text: str) -> None:
    """A short ephemeral answer, whether or not the interaction was answered already."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)
