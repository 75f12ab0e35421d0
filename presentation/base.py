"""What a game's renderer produces: plain data, no Discord objects.

Each game has one module here exposing ``UI``, an object following :class:`GameUI`. It turns
engine *views* (never raw state) into :class:`Panel`s (become embeds) and :class:`Control`s
(become buttons and selects). ``discordkit/to_discord.py`` is the only place that turns these into
what discord.py sends, so renderers are pure functions that tests can call directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal, Protocol, TypeVar

from engine.base import Level, View
from i18n import pgettext

# The view type a game's renderer reads: its engine's own (a TypedDict), or View.
# Contravariant: a renderer of one game's views is not a renderer of any view.
V_contra = TypeVar("V_contra", bound=View, contravariant=True)
Style = Literal["primary", "secondary", "success", "danger"]

GREEN = 0x2E8B57
BLUE = 0x3B6FD6
GOLD = 0xD4A017
RED = 0xC0392B
GREY = 0x7F8C8D


@dataclass(frozen=True, slots=True)
class Panel:
    """One embed: title, text, fields (name, value, inline), colour and footer.

    A game's table may carry two lines that are true only of some copies of it:
    ``waiting`` (who the game waits for, and the turn timers: the channel's table and a
    spectator's live copy show it under the description, a replay does not) and
    ``for_players`` (where the seated players find their hand: only the channel's table shows
    it, under the footer). :func:`onlookers` and :func:`replayed` give the other copies.
    """

    title: str
    description: str = ""
    fields: tuple[tuple[str, str, bool], ...] = ()
    colour: int = BLUE
    footer: str | None = None
    waiting: str | None = None
    for_players: str | None = None

    def text(self) -> str:
        """The description as shown: the text, then the ``waiting`` line."""
        return "\n".join(x for x in (self.description, self.waiting) if x)

    def foot(self) -> str | None:
        """The footer as shown: the footer, then the ``for_players`` line."""
        return "\n".join(x for x in (self.footer, self.for_players) if x) or None


def with_timers(panel: Panel, timers: list[str]) -> Panel:
    """A live table with its turn timers, after the line of who it waits for."""
    return replace(panel, waiting="\n".join(x for x in (panel.waiting, " · ".join(timers)) if x))


def onlookers(panel: Panel) -> Panel:
    """A live table as a spectator sees it: without the seated players' line."""
    return replace(panel, for_players=None)


def replayed(panel: Panel) -> Panel:
    """A table as a replay shows it: nobody is waited for and nobody is seated."""
    return replace(panel, waiting=None, for_players=None)


@dataclass(frozen=True, slots=True)
class Button:
    """A button that applies the engine action ``action`` (None: shown but never clickable)."""

    label: str
    action: str | None
    style: Style = "secondary"
    row: int | None = None
    disabled: bool = False
    emoji: str | None = None


@dataclass(frozen=True, slots=True)
class Select:
    """A select menu whose options each apply one engine action."""

    placeholder: str
    options: tuple[tuple[str, str, str | None], ...]  # (label, action text, description)
    row: int | None = None


Control = Button | Select


@dataclass(frozen=True, slots=True)
class HandScreen:
    """What a seated player sees privately: panels plus the controls for their legal actions."""

    panels: tuple[Panel, ...]
    controls: tuple[Control, ...] = ()
    content: str = ""


def level_word(level: Level) -> str:
    """A computer player's level in one word of the current language ("hard")."""
    if level is Level.EASY:
        return pgettext("computer level", "easy")
    if level is Level.HARD:
        return pgettext("computer level", "hard")
    return pgettext("computer level", "normal")


def computer_label(name: str, level: Level | None = None) -> str:
    """A computer player's name as every screen shows it: a robot, then its level when known
    ("Robo Max 🤖 hard"): the lobby, the table, results, /history and replays."""
    return f"{name} 🤖 {level_word(level)}" if level is not None else f"{name} 🤖"


@dataclass(frozen=True, slots=True)
class Names:
    """Display names per seat, whether each seat is a computer, and each computer's level."""

    names: tuple[str, ...]
    computers: frozenset[int] = field(default_factory=frozenset)
    # Per seat, the name of the person who left it to the computer now playing it (or None).
    left: tuple[str | None, ...] = ()
    # Per seat, the level its computer plays at (None, or a shorter tuple: not known).
    levels: tuple[Level | None, ...] = ()

    def __getitem__(self, seat: int) -> str:
        return self.names[seat]

    def __len__(self) -> int:
        return len(self.names)

    def left_by(self, seat: int) -> str | None:
        """Who left ``seat`` to the computer playing it; None for a seat nobody left."""
        return self.left[seat] if seat < len(self.left) else None

    def level_of(self, seat: int) -> Level | None:
        """The level of the computer in ``seat``; None for a person or when not known."""
        return self.levels[seat] if seat < len(self.levels) else None

    def label(self, seat: int) -> str:
        """The name, with a robot and its level for computer players (:func:`computer_label`)."""
        if seat not in self.computers:
            return self.names[seat]
        return computer_label(self.names[seat], self.level_of(seat))


class GameUI(Protocol[V_contra]):
    """The renderer every game provides, reading that game's views (``GameUI[ItsView]``);
    code that serves every game holds a ``GameUI[Any]`` and hands it the engine's views."""

    name: str

    def table(self, view: V_contra, names: Names) -> Panel:
        """The public table (spectator view), edited in place as the game goes."""
        ...

    def table_key(self, view: V_contra) -> str:
        """When this changes (a new round or hand), a fresh table message is posted."""
        ...

    def hand(self, view: V_contra, legal: list[str], names: Names) -> HandScreen:
        """A seat's private screen; ``legal`` are the action texts it may take now.

        Once the game is over it is the seat's last DM: their place, then :meth:`result`.
        """
        ...

    def summaries(self, before: V_contra, after: V_contra, names: Names) -> list[Panel]:
        """Public messages for what just finished between two spectator views (round ends).

        When the game ends, the last of them is :meth:`result`: the one full showing of the
        result in the channel (the table then only says the game is over).
        """
        ...

    def result(self, view: V_contra, names: Names) -> Panel:
        """The full result of a finished game (a view with an ``outcome``)."""
        ...

    def scores(self, view: V_contra, names: Names) -> Panel:
        """The score sheet (``/scores``)."""
        ...

    def rules(self) -> Panel:
        """A short rules summary (``/rules``)."""
        ...

    def move_line(self, action: str, seat: int, view: V_contra, names: Names) -> str:
        """What ``seat`` did, in a few words for a spectator ("played 10♥"), without the name.

        ``action`` is the recorded action text; ``view`` the spectator's view after the move.
        Nothing that view does not show is revealed (a secret choice is said without its card).
        """
        ...


def seat_list(names: Names, marks: dict[int, str] | None = None) -> str:
    """One line per seat: an optional mark, then the name (for computers, with a robot and
    the level: :meth:`Names.label`)."""
    lines = []
    for seat in range(len(names)):
        mark = (marks or {}).get(seat, "")
        lines.append(f"{mark}{names.label(seat)}".strip())
    return "\n".join(lines)
