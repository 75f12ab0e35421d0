"""Restart-proof buttons of the players' layer (kept apart from cogs/components.py).

- ``lb:<game>:<page>:<p|n>``  a leaderboard page (previous / next); anyone may turn pages

Registered with the others in bot.py's ``add_dynamic_items``; a click goes through the
client's :class:`PlayerRoutes`, which the players' cog fills when it loads.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from cogs.components import Interaction

GAME_NAME = r"(?P<game>[a-z]{1,12})"
PAGE = r"(?P<page>[0-9]{1,4})"
PageHandler = Callable[[Interaction, str, int], Awaitable[None]]


async def _not_ready(interaction: Interaction, *_: Any) -> None:
    await interaction.response.send_message(
        "The bot is still starting; please try again in a moment.", ephemeral=True
    )


@dataclass(slots=True)
class PlayerRoutes:
    board_page: PageHandler = _not_ready


def player_routes(interaction: Interaction) -> PlayerRoutes:
    found: PlayerRoutes = getattr(interaction.client, "player_routes")  # noqa: B009 - set by the bot
    return found


class BoardPageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"lb:{GAME_NAME}:{PAGE}:(?P<way>[pn])",
):
    """Previous (``p``) or next (``n``) page of a leaderboard; ``page`` is the target page."""

    def __init__(self, game: str, page: int, way: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=f"lb:{game}:{page}:{way}",
                label="Previous" if way == "p" else "Next",
                emoji="◀️" if way == "p" else "▶️",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
            )
        )
        self.game, self.page = game, page

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> BoardPageButton:
        return cls(match["game"], int(match["page"]), match["way"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await player_routes(interaction).board_page(interaction, self.game, self.page)


def board_view(game: str, page: int, pages: int) -> discord.ui.View | None:
    """Previous / next buttons under a leaderboard page; None when it has one page."""
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(BoardPageButton(game, max(page - 1, 0), "p", disabled=page == 0))
    view.add_item(BoardPageButton(game, min(page + 1, pages - 1), "n", disabled=page >= pages - 1))
    return view


PLAYER_ITEMS = (BoardPageButton,)
