"""An interaction callback sent with a prebuilt body (a message with files: ``multipart.py``).

discord.py's webhook adapter (``AsyncWebhookAdapter.request``) takes a JSON payload or the
parts of a form, not a body; this sends one on the interaction's own session (and the
client's proxy) and answers Discord as the adapter does: 2xx returns, a 429 from Discord (with
``Via``) waits ``retry_after`` and retries, one without (Cloudflare's) raises, a 5xx or a
connection reset waits 1, 3, 5... seconds and retries, five attempts in all; 403, 404 and
other errors raise discord.py's exceptions. The adapter's per-webhook lock (and the wait it
adds after a bucket's last request) is left out: an interaction is answered by one callback.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiohttp
import discord
from discord.http import Route, json_or_text

log = logging.getLogger(__name__)

ATTEMPTS = 5
RESET_ERRNOS = (54, 10054)  # connection reset by peer (BSD/macOS, Windows), as discord.py


async def post_body(
    route: Route,
    session: aiohttp.ClientSession,
    body: aiohttp.Payload,
    *,
    proxy: str | None = None,
    proxy_auth: aiohttp.BasicAuth | None = None,
) -> Any:
    """Send ``body`` (its Content-Type is the payload's) to ``route`` and return Discord's
    answer (JSON or text); raises ``discord.HTTPException`` (``Forbidden``, ``NotFound``,
    ``DiscordServerError``) as the webhook adapter does."""
    response: aiohttp.ClientResponse | None = None
    data: dict[str, Any] | str | None = None
    for attempt in range(ATTEMPTS):
        try:
            async with session.request(
                route.method, route.url, data=body, proxy=proxy, proxy_auth=proxy_auth
            ) as response:
                data = await json_or_text(response)
                status = response.status
                log.debug("%s %s answered %s", route.method, route.path, status)
                if 200 <= status < 300:
                    return data
                if status == 429:
                    if not response.headers.get("Via") or not isinstance(data, dict):
                        raise discord.HTTPException(response, data)  # not Discord's limits
                    retry_after = float(data["retry_after"])
                    log.warning("%s is rate limited: again in %.2f s", route.path, retry_after)
                    await asyncio.sleep(retry_after)
                    continue
                if status >= 500:
                    await asyncio.sleep(1 + attempt * 2)
                    continue
                if status == 403:
                    raise discord.Forbidden(response, data)
                if status == 404:
                    raise discord.NotFound(response, data)
                raise discord.HTTPException(response, data)
        except OSError as error:
            if attempt < ATTEMPTS - 1 and error.errno in RESET_ERRNOS:
                await asyncio.sleep(1 + attempt * 2)
                continue
            raise
    assert response is not None  # every attempt either answered or raised
    if response.status >= 500:
        raise discord.DiscordServerError(response, data)
    raise discord.HTTPException(response, data)
