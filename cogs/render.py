"""The one place where renderer data (panels, controls) becomes discord.py objects."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from cogs.components import MoveButton, MoveSelect, SeatButton
from cogs.player_components import WatchButton
from cogs.ui.base import Button, Control, HandScreen, Panel, Select

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
MAX_FIELD = 1024
MAX_DESCRIPTION = 4096


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def embed(panel: Panel) -> discord.Embed:
    result = discord.Embed(
        title=_clip(panel.title, 256),
        description=_clip(panel.description, MAX_DESCRIPTION) or None,
        colour=panel.colour,
    )
    for name, value, inline in panel.fields[:25]:
        result.add_field(name=_clip(name, 256), value=_clip(value or "—", MAX_FIELD), inline=inline)
    if panel.footer:
        result.set_footer(text=_clip(panel.footer, 2048))
    return result


def embeds(panels: Iterable[Panel]) -> list[discord.Embed]:
    return [embed(p) for p in panels][:10]


def controls_view(game_id: int, step: int, controls: Iterable[Control]) -> discord.ui.View:
    """A persistent view (timeout=None) holding the seat's move buttons and selects."""
    view = discord.ui.View(timeout=None)
    filler = 0
    for n, control in enumerate(controls):
        if isinstance(control, Button):
            options: dict[str, Any] = {
                "label": _clip(control.label, 80),
                "style": STYLES[control.style],
                "row": control.row,
                "emoji": control.emoji,
            }
            if control.action is None or control.disabled:
                filler += 1
                view.add_item(
                    discord.ui.Button(custom_id=f"x:{game_id}:{filler}", disabled=True, **options)
                )
            else:
                view.add_item(MoveButton(game_id, step, control.action, **options))
        elif isinstance(control, Select):
            choices = [
                discord.SelectOption(
                    label=_clip(label, 100),
                    value=action,
                    description=_clip(desc, 100) if desc else None,
                )
                for label, action, desc in control.options[:25]
            ]
            view.add_item(
                MoveSelect(
                    game_id,
                    step,
                    n,
                    placeholder=_clip(control.placeholder, 150),
                    options=choices,
                    row=control.row,
                )
            )
    return view


def hand_message(
    game_id: int, step: int, screen: HandScreen, *, autopilot: bool = False, header: str = ""
) -> dict[str, Any]:
    """Keyword arguments for send/edit of a player's private hand message."""
    view = controls_view(game_id, step, screen.controls)
    if autopilot:
        view.add_item(SeatButton("back", game_id))
    content = "\n".join(x for x in (header, screen.content) if x)
    return {"content": content or None, "embeds": embeds(screen.panels), "view": view}


def table_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(SeatButton("hand", game_id))
    view.add_item(WatchButton(game_id))  # the spectator's view, privately (cogs/watching.py)
    return view
