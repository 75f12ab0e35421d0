"""Restart-proof buttons of the players' layer (kept apart from cogs/utils/controls.py).

- ``lb:<game>:<page>:<p|n>``  a leaderboard page (previous / next); anyone may turn pages
- ``rp:<game id>:<step>:<w>`` a replay at a step: ``o`` opens it (a new private message), ``f``
                             ``b`` ``n`` ``l`` (first, back, next, last) step the open one
- ``rx:<game id>``           the game as a JSON file (private)
- ``again:<game id>``        **Play again** on a finished game's result: a new lobby
- ``quit:<game id>``         confirms ``/<game> leave``: a computer takes the clicker's seat
- ``watch:<game id>:<n|r>``  **Watch** on the table (``n``: a new private spectator's view)
                             and **Refresh** on that view (``r``: redrawn in place)

Registered with the others in bot.py's ``add_dynamic_items``; a click goes through the
client's :class:`PlayerRoutes`, which the players' cog fills when it loads.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from cogs.utils.controls import GAME_ID, Interaction
from cogs.utils.locale import Localized
from i18n import N_, _, translate
from service.reports import Loaded

GAME_NAME = r"(?P<game>[a-z]{1,12})"
PAGE = r"(?P<page>[0-9]{1,4})"
STEP = r"(?P<step>[0-9]{1,6})"
PageHandler = Callable[[Interaction, str, int], Awaitable[None]]
ReplayHandler = Callable[[Interaction, int, int, bool], Awaitable[None]]
GameHandler = Callable[[Interaction, int], Awaitable[None]]


async def _not_ready(interaction: Interaction, *_ignored: Any) -> None:
    await interaction.response.send_message(
        _("The bot is still starting; please try again in a moment."), ephemeral=True
    )


@dataclass(slots=True)
class PlayerRoutes:
    board_page: PageHandler = _not_ready
    replay: ReplayHandler = _not_ready  # (game id, step, open a new message?)
    export: GameHandler = _not_ready
    rematch: GameHandler = _not_ready
    leave: GameHandler = _not_ready
    watch: ReplayHandler = _not_ready  # (game id, unused, open a new message?)


def player_routes(interaction: Interaction) -> PlayerRoutes:
    found: PlayerRoutes = getattr(interaction.client, "player_routes")  # noqa: B009 - set by the bot
    return found


class BoardPageButton(
    Localized,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"lb:{GAME_NAME}:{PAGE}:(?P<way>[pn])",
):
    """Previous (``p``) or next (``n``) page of a leaderboard; ``page`` is the target page."""

    def __init__(self, game: str, page: int, way: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=f"lb:{game}:{page}:{way}",
                label=_("Previous") if way == "p" else _("Next"),
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


_REPLAY_LOOK = {
    "o": {"label": N_("Open"), "emoji": "▶️"},
    "f": {"label": N_("First"), "emoji": "⏮️"},
    "b": {"label": N_("Back"), "emoji": "◀️"},
    "n": {"label": N_("Next"), "emoji": "▶️"},
    "l": {"label": N_("Last"), "emoji": "⏭️"},
}


class ReplayButton(
    Localized,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"rp:{GAME_ID}:{STEP}:(?P<way>[ofbnl])",
):
    """Open a replay (``o``), or step the open one to ``step``."""

    def __init__(
        self, game_id: int, step: int, way: str, *, label: str | None = None, disabled: bool = False
    ) -> None:
        look = _REPLAY_LOOK[way]
        super().__init__(
            discord.ui.Button(
                custom_id=f"rp:{game_id}:{step}:{way}",
                label=label or translate(look["label"]),
                emoji=None if label else look["emoji"],
                style=discord.ButtonStyle.primary if way == "n" else discord.ButtonStyle.secondary,
                disabled=disabled,
            )
        )
        self.game_id, self.step, self.way = game_id, step, way

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> ReplayButton:
        return cls(int(match["game"]), int(match["step"]), match["way"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await player_routes(interaction).replay(
            interaction, self.game_id, self.step, self.way == "o"
        )


class ExportButton(
    Localized, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"rx:{GAME_ID}"
):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=f"rx:{game_id}",
                label=_("Export"),
                emoji="💾",
                row=1,
                style=discord.ButtonStyle.secondary,
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> ExportButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await player_routes(interaction).export(interaction, self.game_id)


def replay_view(game_id: int, step: int, steps: int) -> discord.ui.View:
    """First / back / next / last under a replay step, and Export."""
    view = discord.ui.View(timeout=None)
    at_start, at_end = step <= 0, step >= steps
    view.add_item(ReplayButton(game_id, 0, "f", disabled=at_start))
    view.add_item(ReplayButton(game_id, max(step - 1, 0), "b", disabled=at_start))
    view.add_item(ReplayButton(game_id, min(step + 1, steps), "n", disabled=at_end))
    view.add_item(ReplayButton(game_id, steps, "l", disabled=at_end))
    view.add_item(ExportButton(game_id))
    return view


def history_view(game_ids: list[int]) -> discord.ui.View | None:
    """One Open button per listed game, numbered like the list."""
    if not game_ids:
        return None
    view = discord.ui.View(timeout=None)
    for n, game_id in enumerate(game_ids[:5], start=1):
        view.add_item(ReplayButton(game_id, 0, "o", label=_("Open {n}", n=n)))
    return view


class PlayAgainButton(
    Localized, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"again:{GAME_ID}"
):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=f"again:{game_id}",
                label=_("Play again"),
                emoji="🔁",
                style=discord.ButtonStyle.success,
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> PlayAgainButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await player_routes(interaction).rematch(interaction, self.game_id)


def play_again_view(game_id: int) -> discord.ui.View:
    """What goes under a finished game's result message."""
    view = discord.ui.View(timeout=None)
    view.add_item(PlayAgainButton(game_id))
    return view


class LeaveGameButton(
    Localized, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"quit:{GAME_ID}"
):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=f"quit:{game_id}",
                label=_("Leave the game"),
                emoji="🚪",
                style=discord.ButtonStyle.danger,
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> LeaveGameButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await player_routes(interaction).leave(interaction, self.game_id)


def leave_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(LeaveGameButton(game_id))
    return view


def watch_button(game_id: int, way: str = "n") -> tuple[str, dict[str, Any]]:
    """A :class:`WatchButton`'s custom id and look (``discord.ui.Button``'s other arguments, the
    label in the current language): the class and to_discord.py's raw buttons share them."""
    look = {
        "label": _("Watch") if way == "n" else _("Refresh"),
        "emoji": "👀" if way == "n" else "🔄",
        "style": discord.ButtonStyle.secondary,
    }
    return f"watch:{game_id}:{way}", look


class WatchButton(
    Localized,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"watch:{GAME_ID}:(?P<way>[nr])",
):
    def __init__(self, game_id: int, way: str = "n") -> None:
        custom_id, look = watch_button(game_id, way)
        super().__init__(discord.ui.Button(custom_id=custom_id, **look))
        self.game_id, self.way = game_id, way

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> WatchButton:
        return cls(int(match["game"]), match["way"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await player_routes(interaction).watch(interaction, self.game_id, 0, self.way == "n")


PLAYER_ITEMS = (
    BoardPageButton,
    ReplayButton,
    ExportButton,
    PlayAgainButton,
    LeaveGameButton,
    WatchButton,
)


def result_view(loaded: Loaded) -> discord.ui.View | None:
    """The Play again button, for a finished game that had people in it."""
    if loaded.row.status != "finished" or all(s.user_id is None for s in loaded.seats):
        return None
    return play_again_view(loaded.row.id)
