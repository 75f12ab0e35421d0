"""The lobby's controls: Accept / Decline, Join / Leave / Start / Cancel, the menu that adds a
computer player at a level, and the menu that removes a computer or changes its level.

Their ids are :data:`cogs.utils.controls.LOBBY` (``lobby:<game>:<verb>``), answered through the
one dispatch of cogs/utils/controls.py like every other control. A menu's choice is in the
interaction's data, read here (:func:`chosen_level`, :func:`chosen_computer`):

- ``bot``: each option's value is a level (``engine.base.Level``)
- ``computers``: each option's value is ``<seat>:<what>:<name>``, ``what`` being ``remove``
  or a level; the seat and the computer's name together say which computer was meant, so a
  double click or an old menu whose seats have moved on is refused, never applied to another
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import discord

from cogs.utils.controls import LOBBY, ControlButton, clickable
from engine.base import Level
from i18n import _, pgettext
from presentation.base import level_word
from service.reports import Loaded

_PRIMARY, _SECONDARY = discord.ButtonStyle.primary, discord.ButtonStyle.secondary
_SUCCESS, _DANGER = discord.ButtonStyle.success, discord.ButtonStyle.danger

LEVELS = frozenset(str(level) for level in Level)
REMOVE = "remove"  # the computers menu's choice that takes a computer out of the lobby
MAX_OPTIONS = 25  # Discord's limit of a select's options


def _chosen(interaction: discord.Interaction[Any]) -> str:
    """The first value chosen in a menu ("" for a button, or no value)."""
    data: Mapping[str, Any] = dict(interaction.data or {})
    values = data.get("values") or []
    return str(values[0]) if isinstance(values, list) and values else ""


def chosen_level(interaction: discord.Interaction[Any]) -> Level | None:
    """The level chosen in the lobby's computer menu; None for a click on the button lobbies
    had before the menu (or a value that is no level): the server's default level then."""
    text = _chosen(interaction)
    return Level(text) if text in LEVELS else None


@dataclass(frozen=True, slots=True)
class ComputerChoice:
    """A choice in the computers menu: the computer (its seat and name) and what to do with
    it (``level`` None: remove it)."""

    seat: int
    name: str
    level: Level | None


def computer_value(seat: int, what: str, name: str) -> str:
    """An option's value in the computers menu (at most 100 characters, as Discord allows)."""
    return f"{seat}:{what}:{name}"[:100]


def chosen_computer(interaction: discord.Interaction[Any]) -> ComputerChoice | None:
    """The choice made in the computers menu; None for a value that is none of its options."""
    seat, _sep, rest = _chosen(interaction).partition(":")
    what, _sep, name = rest.partition(":")
    if not seat.isdigit() or len(seat) > 2 or not name or (what != REMOVE and what not in LEVELS):
        return None
    return ComputerChoice(int(seat), name, None if what == REMOVE else Level(what))


def _view(items: Iterable[discord.ui.Item[Any]]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def _computer_menu(game_id: int, *, full: bool) -> ControlButton:
    """ "Add a computer player…": one option per level, each with a line saying what it is
    for; choosing one seats a computer at that level (two clicks, as a menu takes)."""
    options = [
        discord.SelectOption(
            label=pgettext("computer level", "Easy"),
            value=Level.EASY,
            description=_("Plays loosely: for learning the game"),
        ),
        discord.SelectOption(
            label=pgettext("computer level", "Normal"),
            value=Level.NORMAL,
            description=_("A fair opponent for most players"),
        ),
        discord.SelectOption(
            label=pgettext("computer level", "Hard"),
            value=Level.HARD,
            description=_("Plays to win: for experienced players"),
        ),
    ]
    menu: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=LOBBY.id(game_id, "bot"),
        placeholder=_("🤖 Add a computer player…"),
        options=options,
        disabled=full,
    )
    return ControlButton(menu)


def _computers_menu(loaded: Loaded) -> ControlButton | None:
    """ "Change a computer player…": per computer seated, remove it, or one of the two levels
    it does not have; None when no computer is seated."""
    options: list[discord.SelectOption] = []
    for seat in loaded.seats:
        if not seat.is_computer:
            continue
        options.append(
            discord.SelectOption(
                label=_("Remove {name}", name=seat.name)[:100],
                value=computer_value(seat.seat, REMOVE, seat.name),
                emoji="✖️",
            )
        )
        for level in Level:
            if level is not seat.level:
                options.append(
                    discord.SelectOption(
                        label=_("{name}: play {level}", name=seat.name, level=level_word(level))[
                            :100
                        ],
                        value=computer_value(seat.seat, str(level), seat.name),
                    )
                )
    if not options:
        return None
    menu: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=LOBBY.id(loaded.row.id, "computers"),
        placeholder=_("🤖 Remove a computer or change its level…"),
        options=options[:MAX_OPTIONS],
    )
    return ControlButton(menu)


def lobby_view(loaded: Loaded, *, computers: bool = True) -> discord.ui.View:
    """Accept / Decline while a challenge is open, then Join / Leave / Start / Cancel and,
    each on a row of its own, the menu that adds a computer player at a level and, once one
    is seated, the menu that removes one or changes its level; ``computers``: whether the
    server's settings allow computer players (without them no menu adds one)."""
    game_id, game, seats = loaded.row.id, loaded.game, loaded.seats
    full = len(seats) >= game.max_players
    looks: list[tuple[str, str, discord.ButtonStyle, str | None, bool]]
    challenge = any(not s.accepted for s in seats)
    if challenge:
        looks = [
            ("accept", pgettext("lobby", "Accept"), _SUCCESS, None, False),
            ("decline", pgettext("lobby", "Decline"), _DANGER, None, False),
        ]
    else:
        looks = [
            ("join", pgettext("lobby", "Join"), _SUCCESS, None, full),
            ("leave", pgettext("lobby", "Leave"), _SECONDARY, None, False),
            ("start", pgettext("lobby", "Start"), _PRIMARY, None, len(seats) < game.min_players),
            ("cancel", pgettext("lobby", "Cancel"), _DANGER, None, False),
        ]
    items: list[discord.ui.Item[Any]] = [
        clickable(LOBBY.id(game_id, verb), label=label, style=style, emoji=emoji, disabled=off)
        for verb, label, style, emoji, off in looks
    ]
    if computers and not challenge:  # a challenge is between two people
        items.append(_computer_menu(game_id, full=full))
    seated = _computers_menu(loaded) if not challenge else None
    if seated is not None:  # removing one stays possible if the settings changed meanwhile
        items.append(seated)
    return _view(items)
