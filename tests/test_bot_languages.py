"""The Discord layer's own words in every language: help, lobby, settings, hands, errors."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

import i18n
from cogs.guard import command_error_text
from cogs.help import help_panel
from cogs.settings import settings_panel
from db.store import Store
from delivery.shown import hand_header
from discordkit.clicks import HAND
from discordkit.views import lobby_view, seat_button
from engine.base import Level
from presentation.lobby import lobby_panel
from service.games import GameService
from service.reports import Loaded
from tools.messages import missing

HOST, BOB = 100, 101


async def _lobby(store: Store, game: str = "grinch", channel_id: int = 10) -> Loaded:
    service = GameService(store, turn_timeout=0)
    loaded = await service.open_lobby(
        game=game, guild_id=1, channel_id=channel_id, host_id=HOST, host_name="Ann"
    )
    return await service.join(loaded.row.id, BOB, "Bob")


def _labels(view: discord.ui.View) -> list[str]:
    """Each button's label, and a menu's placeholder (a restart-proof control holds its
    discord.ui.Button or Select as ``item``)."""
    labels = []
    for item in view.children:
        control = item.item if isinstance(item, discord.ui.DynamicItem) else item
        if isinstance(control, discord.ui.Select):
            labels.append(str(control.placeholder))
            continue
        assert isinstance(control, discord.ui.Button), control
        labels.append(str(control.label))
    return labels


def _menu_options(view: discord.ui.View) -> list[tuple[str, str]]:
    """(label, value) of every option of the view's menu (the lobby's computer levels)."""
    for item in view.children:
        control = item.item if isinstance(item, discord.ui.DynamicItem) else item
        if isinstance(control, discord.ui.Select):
            return [(o.label, o.value) for o in control.options]
    return []


def test_every_message_of_the_bot_is_translated() -> None:
    assert missing(["bot"]) == []


def test_help_reads_in_romanian() -> None:
    with i18n.using("ro"):
        panel = help_panel()
    assert panel.title == "🃏 Jocuri de cărți pe acest server"
    assert panel.description.startswith("**Cum se joacă**\n1. Scrie `/<joc> începe`")
    assert "**Intră**" in panel.description and "**Mâna mea**" in panel.description
    values = {name: value for name, value, _ in panel.fields}
    assert values["Grinch Grow Your Heart"].startswith("2–6 jucători · ")  # a brand: kept
    assert values["Zece"].startswith("1–5 jucători (și solo)")  # the commands' own title
    assert "`/inimi începe` sau `/inimi începe adversar:@cineva`" in values["Inimi cu 2 jucători"]


async def test_the_lobby_and_its_buttons_read_in_estonian(store: Store) -> None:
    loaded = await _lobby(store)
    with i18n.using("et"):
        panel = lobby_panel(loaded.game, loaded.seats, loaded.row.host_id)
        labels = _labels(lobby_view(loaded))
        levels = _menu_options(lobby_view(loaded))
    assert panel.title == "Grinch Grow Your Heart — ooteruum"
    assert panel.description.startswith("2–6 mängijat · 2 laua taga\n\n")
    assert "Ann (korraldaja)" in panel.description
    assert panel.description.endswith("Vajuta **Liitu**, et koht võtta. Mängu alustab korraldaja.")
    assert labels == ["Liitu", "Lahku", "Alusta", "Tühista", "🤖 Lisa arvutimängija…"]
    assert levels == [("Kerge", "easy"), ("Keskmine", "normal"), ("Raske", "hard")]
    with i18n.using("lt"):
        assert seat_button(HAND, 1)[1]["label"] == "Mano kortos"
    assert _labels(lobby_view(loaded))[0] == "Join"  # English by default


async def test_the_lobby_names_the_game_as_its_commands_do(store: Store) -> None:
    loaded = await _lobby(store, "ten")
    with i18n.using("lt"):
        assert lobby_panel(loaded.game, loaded.seats, loaded.row.host_id).title == (
            "Dešimt — laukiamasis"
        )
    hearts = await _lobby(store, "hearts", channel_id=11)
    with i18n.using("ro"):
        assert lobby_panel(hearts.game, hearts.seats, hearts.row.host_id).title == (
            "Inimi cu 2 jucători — lobby"
        )


async def test_a_hand_header_reads_in_lithuanian(store: Store) -> None:
    loaded = await _lobby(store, "hearts")
    service = GameService(store, turn_timeout=0)
    started = (await service.start(loaded.row.id, HOST)).after
    seat = started.seats[0]
    with i18n.using("lt"):
        header = hand_header(started, seat, i18n._("your server"), None)
    assert header.startswith("**Čirvai dviem** · tavo serveris — [eiti prie stalo](")


def test_settings_and_command_errors_in_each_language() -> None:
    with i18n.using("ro"):
        panel = settings_panel(
            "2 ore", computers=False, changed=True, pictures=True, level=Level.HARD
        )
    assert panel.title == "⚙️ Setările serverului au fost salvate"
    assert panel.description.startswith(
        "**Timp pe tură:** 2 ore\n**Jucători calculator:** nepermiși\n"
        "**Nivelul calculatorului:** greu\n**Imagini cu cărți:** activate\n\n"
    )
    with i18n.using("ro"):
        panel = settings_panel("2 ore", False, False, True, language="Lietuvių")
    assert "**Limba:** Lietuvių (se schimbă cu `/limba server:True`)" in panel.description
    error: Any = app_commands.NoPrivateMessage()
    with i18n.using("lt"):
        assert command_error_text(error) == ("Žaidžiama serverio kanale.", False)
    with i18n.using("et"):
        text, ours = command_error_text(app_commands.AppCommandError())
    assert ours and text.startswith("Vabandust, minu poolel läks midagi valesti.")


async def test_a_challenge_says_to_press_the_buttons_it_shows(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    loaded = await service.open_lobby(
        game="hearts",
        guild_id=1,
        channel_id=10,
        host_id=HOST,
        host_name="Ann",
        opponent=(BOB, "Bob"),
    )
    for language, (accept, decline) in {
        "en": ("Accept", "Decline"),
        "ro": ("Acceptă", "Refuză"),
        "lt": ("Priimti", "Atsisakyti"),
        "et": ("Nõustu", "Keeldu"),
    }.items():
        with i18n.using(language):
            text = lobby_panel(loaded.game, loaded.seats, loaded.row.host_id).description
            assert _labels(lobby_view(loaded)) == [accept, decline]
        assert f"**{accept}**" in text and f"**{decline}**" in text, (language, text)
        assert "Join" not in text and "Intră" not in text


async def test_a_lobby_offers_no_computer_players_when_the_server_allows_none(
    store: Store,
) -> None:
    loaded = await _lobby(store)
    assert "🤖 Add a computer player…" in _labels(lobby_view(loaded))
    labels = _labels(lobby_view(loaded, computers=False))
    assert labels == ["Join", "Leave", "Start", "Cancel"]
