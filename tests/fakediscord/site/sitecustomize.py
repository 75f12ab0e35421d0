"""Point discord.py at the fake Discord of the tests (only when FAKE_DISCORD_URL is set).

This directory goes first on the bot process's PYTHONPATH, so Python imports this module at
start-up. The bot's own code stays unchanged; with FAKE_DISCORD_URL unset nothing happens.

- ``discord.http.Route.BASE``: every REST call (interaction callbacks and webhooks included).
- ``DiscordWebSocket.DEFAULT_GATEWAY``: where a plain ``commands.Bot`` connects.
- ``guild_ready_timeout``: discord.py waits this long after the last GUILD_CREATE before
  on_ready (2 s by default); FAKE_DISCORD_READY_TIMEOUT (default 0.1 s) replaces it.
"""

from __future__ import annotations

import os


def _patch(url: str) -> None:
    import functools
    from typing import Any

    import yarl
    from discord import gateway, http, state

    base = url.rstrip("/")
    http.Route.BASE = f"{base}/api/v10"
    ws_base = "ws" + base[len("http") :] if base.startswith("http") else base
    gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"{ws_base}/gateway/")

    ready_timeout = float(os.environ.get("FAKE_DISCORD_READY_TIMEOUT", "0.1"))
    original_init = state.ConnectionState.__init__

    @functools.wraps(original_init)
    def init(self: Any, *args: Any, **options: Any) -> None:
        options["guild_ready_timeout"] = ready_timeout
        original_init(self, *args, **options)

    state.ConnectionState.__init__ = init  # type: ignore[method-assign]  # the test bot only


_URL = os.environ.get("FAKE_DISCORD_URL")
if _URL:
    _patch(_URL)
