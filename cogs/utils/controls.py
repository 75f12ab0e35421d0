"""Restart-proof buttons and selects: every custom_id is a small address the bot can parse.

- ``g:<game>:<step>:<action>``  a move button (the clicker's seat step guards against doubles)
- ``gs:<game>:<step>:<n>``      a move select; each option's value is an action text
- ``lobby:<game>:<verb>``       lobby buttons (join, leave, bot, start, cancel, decline)
- ``hand:<game>``               "My hand" on the table: the hand as an ephemeral message
- ``back:<game>``               a player on autopilot takes their seat back

The others are registered once with ``bot.add_dynamic_items``; moves, the busiest, are parsed
by :func:`move_of` (cogs/guard.py). All work for messages sent before a restart; all state
lives in the database, none on the view objects. A click is routed through the client's
:class:`Routes`, which the cogs fill when they load: this module needs no cog.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import discord

from cogs.utils.locale import Localized
from i18n import N_, _, pgettext, translate
from service.reports import Loaded

ACTION_CHARS = r"[A-Za-z0-9._-]{1,80}"
# Ids have a bounded number of digits, so a forged id can never overflow the database.
GAME_ID = r"(?P<game>[0-9]{1,15})"
STEP = r"(?P<step>[0-9]{1,9})"

Interaction = discord.Interaction[Any]
MoveHandler = Callable[[Interaction, int, int, str], Awaitable[None]]
GameHandler = Callable[[Interaction, int], Awaitable[None]]
LobbyHandler = Callable[[Interaction, int, str], Awaitable[None]]


async def _not_ready(interaction: Interaction, *_ignored: Any) -> None:
    await interaction.response.send_message(
        _("The bot is still starting; please try again in a moment."), ephemeral=True
    )


@dataclass(slots=True)
class Routes:
    """Where each kind of click goes; the cogs set these in ``cog_load``."""

    move: MoveHandler = _not_ready
    lobby: LobbyHandler = _not_ready
    hand: GameHandler = _not_ready
    back: GameHandler = _not_ready


def routes(interaction: Interaction) -> Routes:
    """The routes of the client that received the interaction (``CardBot.routes``)."""
    found: Routes = getattr(interaction.client, "routes")  # noqa: B009 - set by the bot
    return found


# The custom ids of move buttons and menus (to_discord.py writes them, checked against these).
MOVE_TEMPLATE = rf"g:{GAME_ID}:{STEP}:(?P<action>{ACTION_CHARS})"
SELECT_TEMPLATE = rf"gs:{GAME_ID}:{STEP}:(?P<n>[0-9]{{1,2}})"
MOVE_ID = re.compile(MOVE_TEMPLATE)
SELECT_ID = re.compile(SELECT_TEMPLATE)


def move_of(custom_id: str, data: Mapping[str, Any]) -> tuple[int, int, str] | None:
    """``(game, step, action)`` of a click on a move button or menu (``data`` is the
    interaction's data: a menu's choice is its first value); None for any other custom id.

    Moves are not dynamic items: for those discord.py rebuilds the clicked message's whole
    ``View`` on every click to find the item, the busiest path of the bot. cogs/guard.py,
    which sees every click anyway, routes them by this."""
    match = MOVE_ID.fullmatch(custom_id)
    if match is not None:
        return int(match["game"]), int(match["step"]), match["action"]
    match = SELECT_ID.fullmatch(custom_id)
    if match is not None:
        values = data.get("values") or []
        return int(match["game"]), int(match["step"]), str(values[0]) if values else ""
    return None


class LobbyButton(
    Localized,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"lobby:{GAME_ID}:(?P<verb>join|accept|leave|bot|start|cancel|decline)",
):
    def __init__(self, game_id: int, verb: str, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"lobby:{game_id}:{verb}", **button))
        self.game_id, self.verb = game_id, verb

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> LobbyButton:
        return cls(int(match["game"]), match["verb"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await routes(interaction).lobby(interaction, self.game_id, self.verb)


_SEAT_BUTTONS: dict[str, dict[str, Any]] = {
    "hand": {"label": N_("My hand"), "style": discord.ButtonStyle.primary, "emoji": "🃏"},
    # "I'm back" goes on the last row, below any grid of cards (rows 0-2).
    "back": {
        "label": N_("I'm back"),
        "style": discord.ButtonStyle.success,
        "emoji": "👋",
        "row": 4,
    },
}


def seat_button(kind: str, game_id: int) -> tuple[str, dict[str, Any]]:
    """A :class:`SeatButton`'s custom id and look (``discord.ui.Button``'s other arguments, the
    label in the current language): the class and to_discord.py's raw buttons share them."""
    look = _SEAT_BUTTONS[kind]
    return f"{kind}:{game_id}", {**look, "label": translate(look["label"])}


class SeatButton(
    Localized,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"(?P<kind>hand|back):{GAME_ID}",
):
    """ "My hand" (the hand as an ephemeral message) and "I'm back" (leave autopilot)."""

    def __init__(self, kind: str, game_id: int) -> None:
        custom_id, look = seat_button(kind, game_id)
        super().__init__(discord.ui.Button(custom_id=custom_id, **look))
        self.kind, self.game_id = kind, game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> SeatButton:
        return cls(match["kind"], int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        route = routes(interaction)
        await (route.hand if self.kind == "hand" else route.back)(interaction, self.game_id)


DYNAMIC_ITEMS = (LobbyButton, SeatButton)


def lobby_view(loaded: Loaded) -> discord.ui.View:
    game_id, game = loaded.row.id, loaded.game
    view = discord.ui.View(timeout=None)
    if any(not s.accepted for s in loaded.seats):
        view.add_item(
            LobbyButton(
                game_id,
                "accept",
                label=pgettext("lobby", "Accept"),
                style=discord.ButtonStyle.success,
            )
        )
        view.add_item(
            LobbyButton(
                game_id,
                "decline",
                label=pgettext("lobby", "Decline"),
                style=discord.ButtonStyle.danger,
            )
        )
        return view
    full = len(loaded.seats) >= game.max_players
    view.add_item(
        LobbyButton(
            game_id,
            "join",
            label=pgettext("lobby", "Join"),
            style=discord.ButtonStyle.success,
            disabled=full,
        )
    )
    view.add_item(
        LobbyButton(
            game_id, "leave", label=pgettext("lobby", "Leave"), style=discord.ButtonStyle.secondary
        )
    )
    view.add_item(
        LobbyButton(
            game_id,
            "bot",
            label=pgettext("lobby", "Add computer player"),
            style=discord.ButtonStyle.secondary,
            emoji="🤖",
            disabled=full,
        )
    )
    view.add_item(
        LobbyButton(
            game_id,
            "start",
            label=pgettext("lobby", "Start"),
            style=discord.ButtonStyle.primary,
            disabled=len(loaded.seats) < game.min_players,
        )
    )
    view.add_item(
        LobbyButton(
            game_id, "cancel", label=pgettext("lobby", "Cancel"), style=discord.ButtonStyle.danger
        )
    )
    return view
