"""Whether the bot may post a lobby in a channel (delivery/lobbies.py ``can_post``): the
gateway's cache when this process has it, a refusal Discord gave a moment ago above all, and
"not known" otherwise."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

import discord

from delivery.lobbies import LOBBY_NEEDS, REFUSED_SECONDS, THREAD_NEEDS, LobbyMessages
from delivery.publisher import Publisher
from tests.clock import Clock

GUILD, CHANNEL = 5, 50


class Thread(discord.Thread):
    """A thread as the cache holds it, with the bot's permissions in it."""

    allowed: discord.Permissions

    def permissions_for(self, obj: object, /) -> discord.Permissions:
        return self.allowed


def lobbies(
    permissions: discord.Permissions | None, clock: Clock, *, thread: bool = False
) -> LobbyMessages:
    """A process whose gateway cache holds the channel (or a thread) with the bot's
    ``permissions`` (None: no cache of the guild, as a process serving HTTP interactions
    only)."""
    channel: object = SimpleNamespace(permissions_for=lambda _me: permissions)
    if thread and permissions is not None:
        made = object.__new__(Thread)
        made.allowed = permissions
        channel = made
    guild = SimpleNamespace(me=object(), get_channel_or_thread=lambda _id: channel)
    bot = SimpleNamespace(get_guild=lambda _id: guild if permissions is not None else None)
    return LobbyMessages(cast(Publisher, SimpleNamespace(bot=bot)), clock=clock)


def test_the_cache_says_whether_a_lobby_can_be_posted() -> None:
    clock = Clock()
    assert lobbies(LOBBY_NEEDS, clock).can_post(GUILD, CHANNEL) is True
    for missing in ("view_channel", "send_messages", "embed_links"):
        allowed = discord.Permissions(LOBBY_NEEDS.value)
        setattr(allowed, missing, False)
        assert lobbies(allowed, clock).can_post(GUILD, CHANNEL) is False, missing


def test_a_thread_asks_send_messages_in_threads_not_send_messages() -> None:
    clock = Clock()
    assert lobbies(THREAD_NEEDS, clock, thread=True).can_post(GUILD, CHANNEL) is True
    assert lobbies(LOBBY_NEEDS, clock, thread=True).can_post(GUILD, CHANNEL) is False


def test_without_a_cache_a_refusal_is_remembered_for_a_minute() -> None:
    clock = Clock()
    found = lobbies(None, clock)
    assert found.can_post(GUILD, CHANNEL) is None
    found._heard_refusal(CHANNEL)
    assert found.can_post(GUILD, CHANNEL) is False
    assert found.can_post(GUILD, CHANNEL + 1) is None
    clock.now += REFUSED_SECONDS + 1
    assert found.can_post(GUILD, CHANNEL) is None


def test_a_refusal_outweighs_a_cache_that_says_yes() -> None:
    clock = Clock()
    found = lobbies(LOBBY_NEEDS, clock)
    found._heard_refusal(CHANNEL)
    assert found.can_post(GUILD, CHANNEL) is False
    clock.now += REFUSED_SECONDS + 1
    assert found.can_post(GUILD, CHANNEL) is True
