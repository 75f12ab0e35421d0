"""The lobby's menu of seated computers (``lobby:<game>:computers``): shown once a computer is
seated, every option within Discord's limits, and each choice read back as the computer meant
(its seat and name) and what to do with it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.guard import ours
from db.store import Store
from discordkit.clicks import LOBBY, ControlButton
from discordkit.ids import ComputerChoice, chosen_computer
from discordkit.views import lobby_view
from engine.base import Level
from service.games import GameService

HOST = 100
TEMPLATE = ControlButton.__discord_ui_compiled_template__
PLACEHOLDER = "🤖 Remove a computer or change its level…"


def _computers_menu(view: discord.ui.View) -> discord.ui.Select[Any] | None:
    for item in view.children:
        control = item.item if isinstance(item, discord.ui.DynamicItem) else item
        if isinstance(control, discord.ui.Select) and control.placeholder == PLACEHOLDER:
            return control
    return None


async def test_the_menu_lists_each_computer_within_discords_limits(store: Store) -> None:
    service = GameService(store, turn_timeout=0)
    loaded = await service.open_lobby(
        game="gnome", guild_id=1, channel_id=10, host_id=HOST, host_name="Ann"
    )
    assert _computers_menu(lobby_view(loaded)) is None  # no computer seated yet
    for level in (Level.HARD, *[Level.NORMAL] * 5):  # the fullest lobby: 1 person, 6 computers
        loaded = await service.add_computer(loaded.row.id, HOST, level=level)
    view = lobby_view(loaded)
    menu = _computers_menu(view)
    assert menu is not None and not menu.disabled
    assert menu.custom_id == LOBBY.id(loaded.row.id, "computers")
    assert ours(menu.custom_id) and TEMPLATE.fullmatch(menu.custom_id)
    assert len(menu.custom_id) <= 100 and len(menu.options) == 18  # at most 25
    assert [o.label for o in menu.options[:3]] == [
        "Remove Robo Max",
        "Robo Max: play easy",
        "Robo Max: play normal",  # not hard: it is hard already
    ]
    for option in menu.options:
        assert len(option.label) <= 100 and len(option.value) <= 100
        choice = chosen_computer(SimpleNamespace(data={"values": [option.value]}))  # type: ignore[arg-type]
        assert choice is not None
        seat = loaded.seats[choice.seat]
        assert seat.is_computer and seat.name == choice.name and seat.level is not choice.level
    assert len(view.to_components()) == 3  # buttons, the add menu, this menu: rows to spare


@pytest.mark.parametrize(
    ("values", "choice"),
    [
        (["2:remove:Robo Max"], ComputerChoice(2, "Robo Max", None)),
        (["3:hard:Cindy-Bot"], ComputerChoice(3, "Cindy-Bot", Level.HARD)),
        (["3:brutal:Cindy-Bot"], None),  # forged: no such level
        (["x:remove:Robo Max"], None),
        (["2:remove:"], None),
        ([], None),
        (None, None),
    ],
)
def test_a_choice_is_read_from_the_click(values: Any, choice: ComputerChoice | None) -> None:
    data = {"custom_id": "lobby:1:computers", "values": values}
    assert chosen_computer(SimpleNamespace(data=data)) == choice  # type: ignore[arg-type]
