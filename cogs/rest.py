"""Message edits that skip what discord.py builds from Discord's answer.

``PartialMessage.edit`` turns the edited message Discord sends back into a ``discord.Message``
(with its embeds and components) and files the view for dispatch. The bot needs neither after
an edit: its buttons and menus are dynamic items, found by their ids on every click, before or
after a restart. Hand and table edits are most of the bot's REST calls, so they go through here.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.http import handle_message_parameters


async def edit_message(
    bot: discord.Client, channel_id: int, message_id: int, **fields: Any
) -> None:
    """Edit a message with ``PartialMessage.edit``'s arguments (content, embed(s), view,
    attachments); raises ``discord.HTTPException`` as it does."""
    if "content" in fields:  # as discord.py does: the bot's default mentions apply
        fields.setdefault("previous_allowed_mentions", bot.allowed_mentions)
    with handle_message_parameters(**fields) as params:
        await bot.http.edit_message(channel_id, message_id, params=params)
