"""REST calls that skip what discord.py builds from Discord's answer.

``PartialMessage.edit`` turns the edited message Discord sends back into a ``discord.Message``
(with its embeds and components) and files the view for dispatch; ``InteractionResponse.
edit_message`` asks Discord to send the updated message back (``with_response``) and builds
one too. The bot needs neither: its buttons and menus are found by their ids on every click,
before or after a restart. Hand and table edits and the clicks' own answers are most of the
bot's REST calls, so they go through here.

A message with files (a hand's picture) is sent as one prebuilt multipart body
(``multipart.py``), built once however many times it is sent; discord.py builds a form for
every attempt and aiohttp writes it part by part (docs/performance.md has the cost).
"""

from __future__ import annotations

from typing import Any

import discord
from discord.http import Route, handle_message_parameters
from discord.webhook.async_ import async_context, interaction_message_response_params

from discordkit.callback import post_body
from discordkit.multipart import params_body

UPDATE = discord.InteractionResponseType.message_update


async def edit_message(
    bot: discord.Client, channel_id: int, message_id: int, **fields: Any
) -> None:
    """Edit a message with ``PartialMessage.edit``'s arguments (content, embed(s), view,
    attachments); raises ``discord.HTTPException`` as it does."""
    if "content" in fields:  # as discord.py does: the bot's default mentions apply
        fields.setdefault("previous_allowed_mentions", bot.allowed_mentions)
    with handle_message_parameters(**fields) as params:  # closes the files afterwards
        if not params.files:
            await bot.http.edit_message(channel_id, message_id, params=params)
            return
        # HTTPClient.request keeps its buckets and retries and hands ``data`` to aiohttp as it
        # is, on every attempt: the same body is sent again.
        route = Route(
            "PATCH",
            "/channels/{channel_id}/messages/{message_id}",
            channel_id=channel_id,
            message_id=message_id,
        )
        await bot.http.request(route, data=params_body(params))


async def update_clicked(interaction: discord.Interaction[Any], **fields: Any) -> None:
    """Answer a click by updating the message it was on, with ``InteractionResponse.
    edit_message``'s arguments (content, embed(s), view, attachments), as the interaction's
    own response; raises ``discord.InteractionResponded`` and ``discord.HTTPException`` as
    it does. Discord answers with no body (no ``with_response``)."""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    state = interaction._state  # the connection: its mentions default and HTTP settings
    params = interaction_message_response_params(
        type=UPDATE.value, previous_allowed_mentions=state.allowed_mentions, **fields
    )
    route = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    proxy, proxy_auth = state.http.proxy, state.http.proxy_auth
    try:
        if params.files:
            body = params_body(params)
            await post_body(route, interaction._session, body, proxy=proxy, proxy_auth=proxy_auth)
        else:
            await async_context.get().request(
                route,
                session=interaction._session,
                proxy=proxy,
                proxy_auth=proxy_auth,
                payload=params.payload,
            )
    finally:
        for file in params.files or ():
            file.close()
    response._response_type = UPDATE  # is_done(), later followups and edits as discord.py's
