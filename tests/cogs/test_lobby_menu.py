"""The lobby's menu of computer levels: one row of the controls table (``lobby:<game>:bot``),
answered by the one dynamic item, offered only where a computer may be added, and read back
as a level."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.guard import ours
from db.store import Store
from discordkit.clicks import LOBBY, ControlButton
from discordkit.ids import chosen_level
from discordkit.views import lobby_view
from engine.base import Level
from service.games import GameService
from service.reports import Loaded

HOST, BOB = 100, 101
TEMPLATE = ControlButton.__discord_ui_compiled_template__


async def _lobby(
    store: Store, *, computers: int = 0, opponent: bool = False, channel: int = 10
) -> Loaded:
    service = GameService(store, turn_timeout=0)
    loaded = await service.open_lobby(
        game="grinch",
        guild_id=1,
        channel_id=channel,
        host_id=HOST,
        host_name="Ann",
        opponent=(BOB, "Bob") if opponent else None,
    )
    if opponent:
        return loaded
    loaded = await service.join(loaded.row.id, BOB, "Bob")
    for _ in range(computers):
        loaded = await service.add_computer(loaded.row.id, HOST)
    return loaded


def _menu(view: discord.ui.View) -> discord.ui.Select[Any] | None:
    for item in view.children:
        control = item.item if isinstance(item, discord.ui.DynamicItem) else item
        if isinstance(control, discord.ui.Select):
            return control
    return None


async def test_the_lobby_offers_each_level_in_one_menu(store: Store) -> None:
    loaded = await _lobby(store)
    view = lobby_view(loaded)
    menu = _menu(view)
    assert menu is not None and not menu.disabled
    assert menu.custom_id == LOBBY.id(loaded.row.id, "bot")  # the old button's row and id
    assert menu.placeholder == "🤖 Add a computer player…"
    assert [(o.label, o.value) for o in menu.options] == [
        ("Easy", "easy"),
        ("Normal", "normal"),
        ("Hard", "hard"),
    ]
    assert all(o.description for o in menu.options)  # a line saying what each is for
    assert (menu.min_values, menu.max_values) == (1, 1)
    rows = view.to_components()
    assert [c["type"] for c in rows[0]["components"]] == [2, 2, 2, 2]  # Join Leave Start Cancel
    assert [c["type"] for c in rows[1]["components"]] == [3]  # the menu, on a row of its own
    assert ours(menu.custom_id) and TEMPLATE.fullmatch(menu.custom_id)


async def test_no_menu_where_no_computer_may_be_added(store: Store) -> None:
    loaded = await _lobby(store)
    assert _menu(lobby_view(loaded, computers=False)) is None  # the server allows none
    full = await _lobby(store, computers=4, channel=11)  # six of six seats
    menu = _menu(lobby_view(full))
    assert menu is not None and menu.disabled
    challenge = await _lobby(store, opponent=True, channel=12)  # between two people
    assert _menu(lobby_view(challenge)) is None


async def test_the_dynamic_item_takes_the_menu_and_keeps_it() -> None:
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id="lobby:12:bot", options=[discord.SelectOption(label="Hard", value="hard")]
    )
    match = TEMPLATE.fullmatch(select.custom_id)
    assert match is not None
    interaction: Any = SimpleNamespace()
    item = await ControlButton.from_custom_id(interaction, select, match)
    assert item.item is select and item.custom_id == "lobby:12:bot"
    button = await ControlButton.from_custom_id(interaction, discord.ui.Button(), match)
    assert isinstance(button.item, discord.ui.Button)  # the button of lobbies before the menu


@pytest.mark.parametrize(
    ("data", "level"),
    [
        ({"custom_id": "lobby:1:bot", "values": ["hard"]}, Level.HARD),
        ({"custom_id": "lobby:1:bot", "values": ["easy"]}, Level.EASY),
        ({"custom_id": "lobby:1:bot", "values": ["normal"]}, Level.NORMAL),
        ({"custom_id": "lobby:1:bot"}, None),  # the old button: the server's default
        ({"custom_id": "lobby:1:bot", "values": []}, None),
        ({"custom_id": "lobby:1:bot", "values": ["brutal"]}, None),  # a forged value
        ({"custom_id": "lobby:1:bot", "values": "hard"}, None),
        (None, None),
    ],
)
def test_the_chosen_level_is_read_from_the_click(data: Any, level: Level | None) -> None:
    assert chosen_level(SimpleNamespace(data=data)) == level  # type: ignore[arg-type]
