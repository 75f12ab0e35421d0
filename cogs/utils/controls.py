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

Each is one :class:`~cogs.utils.ids.CustomId` below: it writes ids (``LOBBY.id(game_id,
"join")``) and reads them back (``LOBBY.parse``) as the values its handler takes, and it is a
:class:`~cogs.utils.client.Route` of the bot's :class:`~cogs.utils.client.Controls` (the table
of handlers the cogs fill as they load), so ``bot.controls.on(LOBBY, self.on_lobby_button)`` is
checked by mypy against the id's values. The registry lives in cogs/utils/client.py because
the bot declares it and the dynamic item below reads it from the bot.

Clicks arrive two ways. Moves, the busiest, are parsed by :func:`move_of` and routed by
cogs/guard.py, which sees every click anyway: as discord.py dynamic items, each click would
have discord.py rebuild the clicked message's whole ``View``. Every other id is one of
:data:`CLICKS`, answered by one dynamic item class, :class:`ControlButton`, whose template is
the union of theirs: discord.py tries one pattern per click (not one per kind of button), and
the item finds its row by the id's prefix. The item wraps a button, or a select (the lobby's
computer menus), whatever the clicked component is; a select's choice is read from the
interaction's data by its handler (``chosen_level``, ``chosen_computer`` in cogs/utils/ids.py).
One class instead of a class per kind (or classes made by a factory) keeps one way in: the
clicker's language, then the route's handler.

The rare messages (lobby, leaderboard, replays, results) carry discord.py views of
:class:`ControlButton` items; hands and the table, drawn on every move, carry components
written as Discord's API dicts with cogs/utils/to_discord.py's :class:`Rows` (pinned to
discord.py's own by tests/cogs/test_raw_components.py). Those builders are here, not in
to_discord.py, so that every id is written in this module and to_discord.py imports none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import discord

from cogs.utils import to_discord
from cogs.utils.client import CardBot
from cogs.utils.ids import (
    ACTION,
    GAME_ID,
    GAME_NAME,
    NUMBER,
    REMOVE,
    STEP,
    CustomId,
    Field,
    choice,
    computer_value,
)
from cogs.utils.locale import Localized
from db.models import GameStatus
from engine.base import Level
from i18n import N_, _, pgettext, translate
from presentation.base import Button, Control, HandScreen, Select, level_word
from service.reports import Loaded

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
                label=_("Next"),
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
    "n": (N_("Next"), "▶️"),
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
