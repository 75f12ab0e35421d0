"""A service error is answered at the edge: once, privately, in the language of the person who
clicked, whether or not the interaction was answered already."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

import i18n
from db.store import Store
from discordkit.locale import enter
from discordkit.replies import SORRY, answering_errors, within_budget
from service.errors import LobbyProblem
from service.games import GameService
from service.languages import Languages

HOST = 100


@dataclass
class _Sent:
    text: str
    ephemeral: bool
    how: str  # "response" or "followup"


@dataclass
class _Response:
    sent: list[_Sent]
    done: bool = False
    type: discord.InteractionResponseType | None = None

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, text: str, *, ephemeral: bool = False) -> None:
        assert not self.done, "an interaction is answered once"
        self.done, self.type = True, discord.InteractionResponseType.channel_message
        self.sent.append(_Sent(text, ephemeral, "response"))

    async def defer(self) -> None:  # a click acknowledged late (within_budget)
        self.done, self.type = True, discord.InteractionResponseType.deferred_message_update


@dataclass
class _Followup:
    sent: list[_Sent]

    async def send(self, text: str, *, ephemeral: bool = False) -> None:
        self.sent.append(_Sent(text, ephemeral, "followup"))


@dataclass
class _User:
    id: int = HOST


@dataclass
class FakeInteraction:
    """What reply() and enter() read of a discord.Interaction, and what they send."""

    locale: discord.Locale
    sent: list[_Sent] = field(default_factory=list)
    id: int = 1
    user: _User = field(default_factory=_User)
    guild_id: int | None = None
    guild_locale: discord.Locale | None = None
    client: object = None  # the bot, where enter() reads the stored languages

    def __post_init__(self) -> None:
        self.response = _Response(self.sent)
        self.followup = _Followup(self.sent)


def _interaction(
    locale: discord.Locale, store: Store | None = None
) -> tuple[FakeInteraction, discord.Interaction[Any]]:
    """A click in ``locale``; with ``store``, the bot's stored languages too (the clicker has
    chosen none, so Discord's locale decides)."""
    client = SimpleNamespace(languages=Languages(store)) if store is not None else None
    fake = FakeInteraction(locale, client=client)
    return fake, cast("discord.Interaction[Any]", fake)


async def _lobby(service: GameService) -> int:
    loaded = await service.open_lobby(
        game="grinch", guild_id=1, channel_id=10, host_id=HOST, host_name="Host"
    )
    return loaded.row.id


async def test_a_service_error_is_answered_in_the_clickers_language(store: Store) -> None:
    service = GameService(store)
    game_id = await _lobby(service)
    fake, interaction = _interaction(discord.Locale.romanian, store)

    async def click() -> bool:
        await enter(interaction)  # as every button's interaction_check does
        async with answering_errors(interaction) as refused:
            await within_budget(interaction, service.join(game_id, HOST, "Host"))
            pytest.fail("joining twice is refused")
        return bool(refused)

    with i18n.using("lt"):  # whatever the bot's own task was in, the click is in Romanian
        assert await asyncio.create_task(click())
    assert fake.sent == [_Sent("Ești deja în acest joc.", True, "response")]


async def test_a_counted_error_is_answered_with_the_languages_plural(store: Store) -> None:
    service = GameService(store)
    game_id = await _lobby(service)
    fake, interaction = _interaction(discord.Locale.lithuanian, store)

    async def click() -> None:
        await enter(interaction)
        async with answering_errors(interaction):
            await service.start(game_id, HOST)

    await asyncio.create_task(click())
    with pytest.raises(LobbyProblem) as raised:  # the same error, in English, for the log
        await service.start(game_id, HOST)
    assert str(raised.value) == "Grinch Grow Your Heart needs at least 2 players (you have 1)."
    with i18n.using("lt"):
        assert fake.sent == [_Sent(raised.value.translated(), True, "response")]
        assert fake.sent[0].text != str(raised.value)


async def test_after_a_defer_the_error_is_a_private_followup() -> None:
    fake, interaction = _interaction(discord.Locale.romanian)
    await interaction.response.defer()
    with i18n.using("ro"):
        async with answering_errors(interaction) as refused:
            raise LobbyProblem("This game is full.")
    assert refused
    assert fake.sent == [_Sent("Jocul e plin.", True, "followup")]


async def test_without_an_error_nothing_is_said() -> None:
    fake, interaction = _interaction(discord.Locale.romanian)
    async with answering_errors(interaction) as refused:
        pass
    assert not refused
    assert fake.sent == []


async def test_other_failures_pass_unless_the_handler_is_their_boundary(
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake, interaction = _interaction(discord.Locale.romanian)
    with pytest.raises(RuntimeError):
        async with answering_errors(interaction):
            raise RuntimeError("a bug")
    assert fake.sent == []
    with i18n.using("ro"), caplog.at_level(logging.ERROR):
        async with answering_errors(interaction, failure="lobby join of game 7") as refused:
            raise RuntimeError("a bug")
        sorry = i18n._(SORRY)
    assert refused
    assert fake.sent == [_Sent(sorry, True, "response")]
    assert sorry != SORRY  # said in Romanian
    assert "lobby join of game 7 failed" in caplog.text
    assert caplog.records[-1].exc_info is not None  # with the traceback
