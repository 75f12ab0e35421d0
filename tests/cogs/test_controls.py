"""The table of custom ids: each reads back what it writes, the one dynamic item takes every
id of the table but moves, and a click reaches the handler its cog set for it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any
from unittest.mock import AsyncMock

import pytest

from discordkit import clicks
from discordkit.clicks import CLICKS, LOBBY, MENU, MOVE, REPLAY, SHOWN, ControlButton, dispatch
from discordkit.client import Controls
from discordkit.ids import CustomId

SAMPLES: dict[str, tuple[Any, ...]] = {
    "g": (12, 7, "buy.R3a.t2"),
    "gs": (12, 7, 3),
    "x": (10**14, 25),
    "lobby": (12, "decline"),
    "hand": (1,),
    "back": (10**14,),
    "lb": ("hearts", 9999, "p"),
    "rp": (12, 999999, "o"),
    "rx": (12,),
    "again": (12,),
    "quit": (12,),
    "watch": (12, "r"),
    "live": (12,),
}
TEMPLATE = ControlButton.__discord_ui_compiled_template__


def every_custom_id() -> list[CustomId[*tuple[Any, ...]]]:
    return [v for v in vars(clicks).values() if isinstance(v, CustomId)]


def test_each_id_reads_back_as_written() -> None:
    found = every_custom_id()
    assert sorted(c.name for c in found) == sorted(SAMPLES)  # one prefix each
    for custom_id in found:
        values = SAMPLES[custom_id.name]
        written = custom_id.id(*values)
        assert written.startswith(f"{custom_id.name}:")
        assert custom_id.parse(written) == values
        assert custom_id.parse(written + "0" * 81) is None  # every field is bounded
    assert REPLAY.parse("rp:12:1:z") is None and LOBBY.parse("lobby:12:joined") is None


def test_the_dynamic_item_takes_the_table_but_moves() -> None:
    assert set(CLICKS) == set(SAMPLES) - {MOVE.name, MENU.name, SHOWN.name}
    for name, values in SAMPLES.items():
        custom_id = next(c for c in every_custom_id() if c.name == name).id(*values)
        assert bool(TEMPLATE.fullmatch(custom_id)) == (name in CLICKS), custom_id
    assert not TEMPLATE.fullmatch("lobby:12:join:x")


async def test_a_click_reaches_its_handler_with_the_ids_values() -> None:
    table = Controls()
    seen: list[tuple[Any, ...]] = []

    async def on_lobby(interaction: Any, game_id: int, verb: str) -> None:
        seen.append((interaction, game_id, verb))

    table.on(LOBBY, on_lobby)
    interaction: Any = SimpleNamespace(client=SimpleNamespace(controls=table))
    await dispatch(interaction, "lobby:12:join")
    assert seen == [(interaction, 12, "join")]


@pytest.mark.parametrize("custom_id", ["rx:12", "watch:12:n"])
async def test_a_click_before_its_cog_loaded_is_told_to_wait(custom_id: str) -> None:
    interaction: Any = SimpleNamespace(client=SimpleNamespace(controls=Controls()))
    interaction.response = SimpleNamespace(send_message=AsyncMock())
    await dispatch(interaction, custom_id)
    interaction.response.send_message.assert_awaited_once()
    assert interaction.response.send_message.await_args.kwargs == {"ephemeral": True}
