"""The messages' controls: discord.py views and raw component rows built from the custom ids
of discordkit/clicks.py.

The rare messages (lobby, leaderboard, replays, results) carry discord.py views of
:class:`~discordkit.clicks.ControlButton` items; hands and the table, drawn on every move, carry
components written as Discord's API dicts with discordkit/to_discord.py's :class:`Rows` (pinned
to discord.py's own by tests/cogs/test_raw_components.py). Those builders are here, not in
to_discord.py, so that to_discord.py writes no id.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from db.models import GameStatus
from discordkit import to_discord
from discordkit.clicks import (
    BACK,
    BOARD_PAGE,
    EXPORT,
    HAND,
    LEAVE,
    LIVE,
    LOBBY,
    MENU,
    MOVE,
    PLAY_AGAIN,
    REPLAY,
    SHOWN,
    WATCH,
    ControlButton,
)
from discordkit.ids import (
    REMOVE,
    CustomId,
    computer_value,
)
from engine.base import Level
from i18n import N_, _, pgettext, translate
from presentation.base import Button, Control, HandScreen, Select, level_word
from service.reports import Loaded

# -- the rare messages: discord.py views of ControlButtons -----------------------------------

_PRIMARY, _SECONDARY = discord.ButtonStyle.primary, discord.ButtonStyle.secondary
_SUCCESS, _DANGER = discord.ButtonStyle.success, discord.ButtonStyle.danger


def clickable(custom_id: str, **look: Any) -> ControlButton:
    """A button of :data:`CLICKS`; ``look`` is ``discord.ui.Button``'s other arguments."""
    return ControlButton(discord.ui.Button(custom_id=custom_id, **look))


def _view(items: Iterable[discord.ui.Item[Any]]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


MAX_OPTIONS = 25  # Discord's limit of a select's options
_NEXT = N_("Next")


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


def board_view(game: str, page: int, pages: int) -> discord.ui.View | None:
    """Previous / next buttons under a leaderboard page (each names its target page); None
    when it has one page."""
    if pages <= 1:
        return None
    back, on = max(page - 1, 0), min(page + 1, pages - 1)
    return _view(
        [
            clickable(
                BOARD_PAGE.id(game, back, "p"),
                label=_("Previous"),
                emoji="◀️",
                style=_SECONDARY,
                disabled=page == 0,
            ),
            clickable(
                BOARD_PAGE.id(game, on, "n"),
                label=_(_NEXT),
                emoji="▶️",
                style=_SECONDARY,
                disabled=page >= pages - 1,
            ),
        ]
    )


_REPLAY_LOOK = {
    "o": (N_("Open"), "▶️"),
    "f": (N_("First"), "⏮️"),
    "b": (N_("Back"), "◀️"),
    "n": (_NEXT, "▶️"),
    "l": (N_("Last"), "⏭️"),
}


def _replay_button(
    game_id: int, step: int, way: str, *, label: str | None = None, disabled: bool = False
) -> ControlButton:
    text, emoji = _REPLAY_LOOK[way]
    return clickable(
        REPLAY.id(game_id, step, way),
        label=label or translate(text),
        emoji=None if label else emoji,
        style=_PRIMARY if way == "n" else _SECONDARY,
        disabled=disabled,
    )


def replay_view(game_id: int, step: int, steps: int) -> discord.ui.View:
    """First / back / next / last under a replay step, and Export."""
    at_start, at_end = step <= 0, step >= steps
    export = clickable(EXPORT.id(game_id), label=_("Export"), emoji="💾", row=1, style=_SECONDARY)
    return _view(
        [
            _replay_button(game_id, 0, "f", disabled=at_start),
            _replay_button(game_id, max(step - 1, 0), "b", disabled=at_start),
            _replay_button(game_id, min(step + 1, steps), "n", disabled=at_end),
            _replay_button(game_id, steps, "l", disabled=at_end),
            export,
        ]
    )


def history_view(game_ids: list[int]) -> discord.ui.View | None:
    """One Open button per listed game, numbered like the list."""
    if not game_ids:
        return None
    return _view(
        _replay_button(game_id, 0, "o", label=_("Open {n}", n=n))
        for n, game_id in enumerate(game_ids[:5], start=1)
    )


def result_view(loaded: Loaded) -> discord.ui.View | None:
    """Play again under a finished game's result, if the game had people in it."""
    if loaded.row.status != GameStatus.FINISHED or all(s.user_id is None for s in loaded.seats):
        return None
    again = PLAY_AGAIN.id(loaded.row.id)
    return _view([clickable(again, label=_("Play again"), emoji="🔁", style=_SUCCESS)])


def leave_view(game_id: int) -> discord.ui.View:
    """Confirms ``/<game> leave``."""
    quit_ = LEAVE.id(game_id)
    return _view([clickable(quit_, label=_("Leave the game"), emoji="🚪", style=_DANGER)])


# -- every move: components as Discord's API dicts ------------------------------------------

_SEAT_LOOKS: dict[str, dict[str, Any]] = {
    HAND.name: {"label": N_("My hand"), "style": _PRIMARY, "emoji": "🃏"},
    LIVE.name: {"label": N_("Open the table"), "style": _SECONDARY, "emoji": "🎴"},
    # "I'm back" goes on the last row, below any grid of cards (rows 0-2).
    BACK.name: {"label": N_("I'm back"), "style": _SUCCESS, "emoji": "👋", "row": 4},
}


def seat_button(route: CustomId[int], game_id: int) -> tuple[str, dict[str, Any]]:
    """ "My hand" (``HAND``), "I'm back" (``BACK``) or "Open the table" (``LIVE``): the id and look
    (``discord.ui.Button``'s other arguments, the label in the current language)."""
    look = _SEAT_LOOKS[route.name]
    return route.id(game_id), {**look, "label": translate(look["label"])}


def watch_button(game_id: int, way: str = "n") -> tuple[str, dict[str, Any]]:
    """ "Watch" (``n``) or "Refresh" (``r``): the custom id and look."""
    look = {
        "label": _("Watch") if way == "n" else _("Refresh"),
        "emoji": "👀" if way == "n" else "🔄",
        "style": _SECONDARY,
    }
    return WATCH.id(game_id, way), look


def _looked(custom_id: str, look: dict[str, Any]) -> tuple[to_discord.Component, int | None]:
    """A button's dict and its row from its look (:func:`seat_button`, :func:`watch_button`)."""
    payload = to_discord.button(custom_id, look["label"], look["style"].value, look.get("emoji"))
    return payload, look.get("row")


def move_rows(game_id: int, step: int, controls: Iterable[Control]) -> to_discord.Rows:
    """A seat's move buttons and selects (``MOVE``, ``MENU``; ``SHOWN`` for a button shown but
    not clickable). A button whose id the guard would not route is refused (ValueError)."""
    rows = to_discord.Rows()
    filler = 0
    clip, styles = to_discord.clip, to_discord.STYLES
    for n, control in enumerate(controls):
        if isinstance(control, Button):
            label = clip(control.label, 80)
            style = styles[control.style]
            if control.action is None or control.disabled:
                filler += 1
                shown = SHOWN.id(game_id, filler)
                payload = to_discord.button(shown, label, style, control.emoji, True)
            else:
                custom_id = MOVE.id(game_id, step, control.action)
                if MOVE.pattern.fullmatch(custom_id) is None:
                    raise ValueError(f"{custom_id!r} is not a move button's id")
                payload = to_discord.button(custom_id, label, style, control.emoji)
            rows.add(payload, control.row)
        elif isinstance(control, Select):
            custom_id = MENU.id(game_id, step, n)
            if MENU.pattern.fullmatch(custom_id) is None:
                raise ValueError(f"{custom_id!r} is not a move select's id")
            payload = {
                "type": to_discord.SELECT,
                "custom_id": custom_id,
                "min_values": 1,
                "max_values": 1,
                "disabled": False,
                "required": True,
            }
            placeholder = clip(control.placeholder, 150)
            if placeholder:
                payload["placeholder"] = placeholder
            options = [_option(*option) for option in control.options[:25]]
            if options:
                payload["options"] = options
            # Where discord.py put a move select when moves were its dynamic items, whatever
            # the row asked: the item read the row from the wrapped Select's ``_row``, which
            # Select (keeping ``row`` in a slot of its own) never set. So a select takes the
            # first empty row, and hands keep the layout their players know.
            rows.add(payload, None, width=5)
    return rows


def _option(label: str, action: str, description: str | None) -> to_discord.Component:
    option: to_discord.Component = {
        "label": to_discord.clip(label, 100),
        "value": action,
        "default": False,
    }
    if description:
        option["description"] = to_discord.clip(description, 100)
    return option


def hand_message(
    game_id: int, step: int, screen: HandScreen, *, autopilot: bool = False, header: str = ""
) -> dict[str, Any]:
    """Keyword arguments for send/edit of a player's private hand message."""
    rows = move_rows(game_id, step, screen.controls)
    if autopilot:  # "I'm back": on row 4, else where there is room (Gnoming's opening menus
        payload, row = _looked(*seat_button(BACK, game_id))  # take rows 3 and 4)
        rows.add(payload, row if row is None or rows.fits(row) else None)
    content = "\n".join(x for x in (header, screen.content) if x)
    return {
        "content": content or None,
        "embeds": to_discord.embeds(screen.panels),
        "view": rows.view(),
    }


def table_view(game_id: int, *, live: bool = False) -> to_discord.RawView:
    """The table's buttons: "My hand", "Watch" (cogs/watching.py) and, live, "Open the table"."""
    rows = to_discord.Rows()
    for button in (seat_button(HAND, game_id), watch_button(game_id), seat_button(LIVE, game_id)):
        if live or button[0] != LIVE.id(game_id):
            rows.add(*_looked(*button))
    return rows.view()


def watch_view(game_id: int, *, live: bool) -> to_discord.RawView:
    """Under a spectator's view: "Refresh" while the game goes on, nothing after."""
    rows = to_discord.Rows()
    if live:
        rows.add(*_looked(*watch_button(game_id, "r")))
    return rows.view()
