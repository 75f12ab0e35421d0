"""Every button and select of the bot: its custom id, its look, and where a click on it goes.

A custom id is a small address the bot can parse, so the controls work for messages sent before
a restart (all state lives in the database, none on view objects):

- ``g:<game>:<step>:<action>``  a move button (the clicker's seat step guards against doubles)
- ``gs:<game>:<step>:<n>``      a move select; each option's value is an action text
- ``x:<game>:<n>``              a move button shown but not clickable (disabled, or no action)
- ``lobby:<game>:<verb>``       lobby buttons (join, accept, leave, start, cancel, decline) and
                               the lobby's computer menus (``bot``: each option's value is a
                               level, ``engine.base.Level``; a click on the button lobbies
                               had before, with no value, adds one at the server's default;
                               ``computers``: ``<seat>:<remove or level>:<name>``)
- ``hand:<game>``               "My hand" on the table: the hand as an ephemeral message
- ``back:<game>``               a player on autopilot takes their seat back
- ``lb:<name>:<page>:<w>``       a leaderboard page (``p`` previous, ``n`` next); anyone may turn
- ``rp:<game>:<step>:<w>``      a replay: ``o`` opens it (a new private message) at ``step``;
                               ``f`` ``b`` ``n`` ``l`` (first, back, next, last) step the open one
- ``rx:<game>``                 the game as a JSON file (private)
- ``again:<game>``              **Play again** under a finished game's result: a new lobby
- ``quit:<game>``               confirms ``/<game> leave``: a computer takes the clicker's seat
- ``watch:<game>:<w>``          **Watch** on the table (``n``: a new private spectator's view)
                               and **Refresh** on that view (``r``: redrawn in place)
- ``live:<game>``               **Open the table**: the live table, an Activity (docs/activity.md)

Each is one :class:`~discordkit.ids.CustomId` below: it writes ids (``LOBBY.id(game_id,
"join")``) and reads them back (``LOBBY.parse``) as the values its handler takes, and it is a
:class:`~discordkit.client.Route` of the bot's :class:`~discordkit.client.Controls` (the table
of handlers the cogs fill as they load), so ``bot.controls.on(LOBBY, self.on_lobby_button)`` is
checked by mypy against the id's values. The registry lives in discordkit/client.py because
the bot declares it and the dynamic item below reads it from the bot.

Clicks arrive two ways. Moves, the busiest, are parsed by :func:`move_of` and routed by
cogs/guard.py, which sees every click anyway: as discord.py dynamic items, each click would
have discord.py rebuild the clicked message's whole ``View``. Every other id is one of
:data:`CLICKS`, answered by one dynamic item class, :class:`ControlButton`, whose template is
the union of theirs: discord.py tries one pattern per click (not one per kind of button), and
the item finds its row by the id's prefix. The item wraps a button, or a select (the lobby's
computer menus), whatever the clicked component is; a select's choice is read from the
interaction's data by its handler (``chosen_level``, ``chosen_computer`` in discordkit/ids.py).
One class instead of a class per kind (or classes made by a factory) keeps one way in: the
clicker's language, then the route's handler.

The messages that carry these controls are built in discordkit/views.py, which writes every
id through this table.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import discord

from discordkit.client import CardBot
from discordkit.ids import (
    ACTION,
    GAME_ID,
    GAME_NAME,
    NUMBER,
    STEP,
    CustomId,
    Field,
    choice,
)
from discordkit.locale import Localized

# Moves (cogs/guard.py routes them; a menu's clicks are moves) and a move button shown but
# not clickable, then every other button.
MOVE: CustomId[int, int, str] = CustomId("g:{}:{}:{}", GAME_ID, STEP, ACTION)
MENU: CustomId[int, int, int] = CustomId("gs:{}:{}:{}", GAME_ID, STEP, NUMBER)
SHOWN: CustomId[int, int] = CustomId("x:{}:{}", GAME_ID, NUMBER)
LOBBY: CustomId[int, str] = CustomId(
    "lobby:{}:{}",
    GAME_ID,
    choice("join", "accept", "leave", "bot", "computers", "start", "cancel", "decline"),
)
HAND: CustomId[int] = CustomId("hand:{}", GAME_ID)
BACK: CustomId[int] = CustomId("back:{}", GAME_ID)
BOARD_PAGE: CustomId[str, int, str] = CustomId(
    "lb:{}:{}:{}", GAME_NAME, Field("[0-9]{1,4}", int), choice("p", "n")
)
REPLAY: CustomId[int, int, str] = CustomId(
    "rp:{}:{}:{}", GAME_ID, Field("[0-9]{1,6}", int), choice("o", "f", "b", "n", "l")
)
EXPORT: CustomId[int] = CustomId("rx:{}", GAME_ID)
PLAY_AGAIN: CustomId[int] = CustomId("again:{}", GAME_ID)
LEAVE: CustomId[int] = CustomId("quit:{}", GAME_ID)
WATCH: CustomId[int, str] = CustomId("watch:{}:{}", GAME_ID, choice("n", "r"))
LIVE: CustomId[int] = CustomId("live:{}", GAME_ID)

# The ids answered through ControlButton, by prefix.
_ROUTED = (LOBBY, HAND, BACK, BOARD_PAGE, REPLAY, EXPORT, PLAY_AGAIN, LEAVE, WATCH, LIVE)
CLICKS: dict[str, CustomId[*tuple[Any, ...]]] = {c.name: c for c in _ROUTED}


def move_of(custom_id: str, data: Mapping[str, Any]) -> tuple[int, int, str] | None:
    """``(game, step, action)`` of a click on a move button or menu (``data`` is the
    interaction's data: a menu's choice is its first value); None for any other custom id.
    cogs/guard.py routes moves by this."""
    move = MOVE.parse(custom_id)
    if move is not None:
        return move
    menu = MENU.parse(custom_id)
    if menu is not None:
        values = data.get("values") or []
        return menu[0], menu[1], str(values[0]) if values else ""
    return None


def step_guarded(payload: Mapping[str, Any]) -> bool:
    """Whether an interaction's payload (Discord's, as POSTed) is a click on a move button or
    menu: its custom id carries the clicker's step, so the game refuses it a second time by
    itself (web/interactions.py asks no shared memory of it)."""
    if payload.get("type") != discord.InteractionType.component.value:
        return False
    data = payload.get("data")
    if not isinstance(data, Mapping):
        return False
    custom_id = data.get("custom_id")
    return isinstance(custom_id, str) and move_of(custom_id, data) is not None


class ControlButton(
    Localized,
    discord.ui.DynamicItem[discord.ui.Button[Any] | discord.ui.Select[Any]],
    template="|".join(f"(?:{c.regex(capture=False)})" for c in CLICKS.values()),
):
    """Any button (or select) of :data:`CLICKS` (registered once, in bot.py): the click runs
    in its user's language and goes to its route's handler."""

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ControlButton:
        if isinstance(item, discord.ui.Select):  # a lobby's computer menu: the choice is
            return cls(item)  # in the interaction's data, read by the handler
        return cls(discord.ui.Button(custom_id=match.string))  # the id says everything

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await dispatch(interaction, self.custom_id)  # the bot's: an Interaction[CardBot]


async def dispatch(interaction: discord.Interaction[CardBot], custom_id: str) -> None:
    """Hand a click on a :data:`CLICKS` id to its route's handler, with the id's values."""
    route = CLICKS[custom_id.partition(":")[0]]
    values = route.parse(custom_id)
    if values is not None:  # always: ControlButton's template matched
        await interaction.client.controls.answer(route, interaction, *values)
