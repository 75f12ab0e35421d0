"""What discord.py sends, from renderer data: embeds, and message components as API dicts.

Panels become embeds. Message components are written directly as Discord's API dicts (action
rows of buttons and selects): :class:`Rows` lays them out as discord.py's ``View`` lays out its
items, and :class:`RawView` hands them to discord.py as they are, so drawing a hand builds no
discord.py item (every move draws one to three hands and tables). Which buttons a message
carries and their custom ids are discordkit/views.py's; ``tests/cogs/test_raw_components.py``
pins every dict to what discord.py makes of the same controls.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any, get_args

import discord

from presentation.base import Panel, Style
from service.reports import Loaded

Component = dict[str, Any]

STYLES = {name: discord.ButtonStyle[name].value for name in get_args(Style)}
BUTTON, SELECT, ROW = 2, 3, 1  # Discord's component types
MAX_FIELD = 1024
MAX_DESCRIPTION = 4096


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def embed(panel: Panel) -> discord.Embed:
    result = discord.Embed(
        title=clip(panel.title, 256),
        description=clip(panel.text(), MAX_DESCRIPTION) or None,
        colour=panel.colour,
    )
    for name, value, inline in panel.fields[:25]:
        result.add_field(name=clip(name, 256), value=clip(value or "—", MAX_FIELD), inline=inline)
    if footer := panel.foot():
        result.set_footer(text=clip(footer, 2048))
    return result


def embeds(panels: Iterable[Panel]) -> list[discord.Embed]:
    return [embed(p) for p in panels][:10]


# -- message components as Discord's API dicts -------------------------------------------


class RawView(discord.ui.View):
    """A view that is only its components, built beforehand as Discord's API dicts.

    It holds no items, so discord.py files nothing for dispatch: a click is routed by its
    custom id (moves by cogs/guard.py, the rest by controls.py's dynamic item). It skips
    ``View.__init__`` (which asks the operating system for a random id, a system call for
    every message drawn) and answers the few questions discord.py asks of a view it sends:
    its components, and that it is finished (nothing to track, no timeout task, not even for
    an ephemeral message).
    """

    def __init__(self, rows: list[Component]) -> None:  # no View.__init__: see above
        self.rows = rows
        self._children = []  # the base class's item helpers and repr read it

    def to_components(self) -> list[Component]:
        return self.rows

    def has_components_v2(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False

    @property
    def timeout(self) -> float | None:
        return None

    @timeout.setter
    def timeout(self, value: float | None) -> None:
        """discord.py gives an ephemeral message's view a timeout; a raw view has no task."""


class Rows:
    """Buttons and selects placed in action rows as discord.py's ``View`` places its items
    (``ui/view.py``'s ``_ViewWeights``): an item with a row goes there, one without fills the
    first row with room, in the order added; a row holds 5 buttons or one select, a message 25
    items. Whatever discord.py refuses (a full row, a row past 4, a 26th item) raises
    ``ValueError`` here too."""

    __slots__ = ("_count", "_rows", "_widths")

    def __init__(self) -> None:
        self._rows: list[list[Component]] = [[], [], [], [], []]
        self._widths = [0, 0, 0, 0, 0]
        self._count = 0

    def add(self, component: Component, row: int | None = None, *, width: int = 1) -> None:
        if self._count >= 25:
            raise ValueError("maximum number of children exceeded")
        if row is None:
            row = next((r for r in range(5) if self.fits(r, width)), None)
            if row is None:
                raise ValueError("could not find open space for item")
        elif not 0 <= row < 5:
            raise ValueError("row cannot be negative or greater than or equal to 5")
        elif not self.fits(row, width):
            raise ValueError(f"item would not fit at row {row}")
        self._widths[row] += width
        self._rows[row].append(component)
        self._count += 1

    def fits(self, row: int, width: int = 1) -> bool:
        """Whether an item of ``width`` has room in ``row``."""
        return self._widths[row] + width <= 5

    def components(self) -> list[Component]:
        """The action rows, top to bottom; empty rows are left out."""
        return [{"type": ROW, "components": row} for row in self._rows if row]

    def view(self) -> RawView:
        return RawView(self.components())


def emoji(text: str) -> dict[str, Any]:
    """An emoji's dict as ``PartialEmoji.from_str`` makes it (``<:name:id>`` a custom one, any
    other text a unicode emoji): worked out once per emoji, a fresh copy per message."""
    return dict(_emoji_items(text))


# A bounded memo of a pure function (the renderers use a few dozen emoji).
@functools.lru_cache(maxsize=256)
def _emoji_items(text: str) -> tuple[tuple[str, Any], ...]:
    return tuple(discord.PartialEmoji.from_str(text).to_dict().items())


def button(
    custom_id: str, label: str | None, style: int, emoji_text: str | None, disabled: bool = False
) -> Component:
    """A button's dict, keys in discord.py's order (``components.Button.to_dict``)."""
    payload: Component = {"type": BUTTON, "style": style, "disabled": disabled}
    if label:
        payload["label"] = label
    payload["custom_id"] = custom_id
    if emoji_text is not None:
        payload["emoji"] = emoji(emoji_text)
    return payload


def table_timers(loaded: Loaded) -> list[str]:
    """Each running turn timer of a game, as Discord's relative time markup."""
    return [f"⏱ {s.name} <t:{int(s.deadline)}:R>" for s in loaded.seats if s.deadline is not None]
