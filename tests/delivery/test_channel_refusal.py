"""A player whose DMs are closed is told in the channel; a channel that refuses that line too
is logged as Discord's answer, one line without a traceback (a refusal is no bug)."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from db.store import Store
from delivery.assemble import assemble
from delivery.pacing import Pacer
from service.games import GameService
from tests.delivery.test_publisher_memory import HUMANS, _Bot

CHANNEL = 700


def _forbidden(code: int, message: str) -> discord.Forbidden:
    response = SimpleNamespace(status=403, reason="Forbidden")
    return discord.Forbidden(cast(Any, response), {"code": code, "message": message})


class _Refusing:
    """A channel that refuses every message, as Discord does for a closed DM or a channel
    where the bot lost its permissions."""

    def __init__(self, error: discord.Forbidden) -> None:
        self.error = error

    async def send(self, *args: Any, **kwargs: Any) -> None:
        raise self.error


class _ClosedBot(_Bot):
    """Every DM closed (50007), and the game's channel refuses the bot (50013)."""

    def get_partial_messageable(self, channel_id: int, **kwargs: Any) -> Any:
        if channel_id == CHANNEL:
            return _Refusing(_forbidden(50013, "Missing Permissions"))
        return _Refusing(_forbidden(50007, "Cannot send messages to this user"))


async def test_a_refused_channel_line_is_logged_without_a_traceback(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    service = GameService(store, turn_timeout=0)
    bot = cast(discord.Client, _ClosedBot())
    publisher = assemble(bot, service, pacer=Pacer(scale=0.0001)).publisher
    lobby = await service.open_lobby(
        game="ten", guild_id=1, channel_id=CHANNEL, host_id=HUMANS[0], host_name="A"
    )
    await service.join(lobby.row.id, HUMANS[1], "B")
    with caplog.at_level(logging.WARNING, logger="delivery"):
        publisher.publish(await service.start(lobby.row.id, HUMANS[0]))
        await publisher.outbox.idle()
    refused = [r for r in caplog.records if r.getMessage().startswith("could not post to")]
    assert refused, caplog.text  # the DM line was asked for, and the channel refused it
    assert all("Missing Permissions" in r.getMessage() for r in refused)
    assert all(r.exc_info is None for r in refused)
    assert "Traceback" not in caplog.text
