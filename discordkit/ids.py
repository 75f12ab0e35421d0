"""Custom ids as small parseable addresses: a template with one typed field per value, which
writes an id and reads one back (discordkit/views.py declares every id of the bot with it);
and the values the lobby's computer menus carry in their options:

- ``bot``: each option's value is a level (``engine.base.Level``)
- ``computers``: each option's value is ``<seat>:<what>:<name>``, ``what`` being ``remove``
  or a level; the seat and the computer's name together say which computer was meant, so a
  double click or an old menu whose seats have moved on is refused, never applied to another
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, TypeVarTuple, cast, overload

import discord

from discordkit.client import Route
from engine.base import Level

T = TypeVar("T")
A = TypeVar("A")
B = TypeVar("B")
C = TypeVar("C")
Ts = TypeVarTuple("Ts")


@dataclass(frozen=True, slots=True)
class Field(Generic[T]):
    """One value in a custom id: the text it may be (a regular expression) and how it is read."""

    pattern: str
    read: Callable[[str], T]


def choice(*texts: str) -> Field[str]:
    return Field("|".join(texts), str)


# Ids have a bounded number of digits, so a forged id can never overflow the database.
GAME_ID = Field("[0-9]{1,15}", int)
GAME_NAME = Field("[a-z]{1,12}", str)
STEP = Field("[0-9]{1,9}", int)  # a seat's own step: a doubled or old move click is refused
ACTION = Field("[A-Za-z0-9._-]{1,80}", str)  # an engine action's text form
NUMBER = Field("[0-9]{1,2}", int)  # a menu's place among a hand's controls; a shown button's


class CustomId(Route[*Ts]):
    """A custom id template (``"lobby:{}:{}"``, one field per value) and the route its clicks
    take, named by its prefix."""

    __slots__ = ("fields", "id", "pattern", "template")

    @overload
    def __init__(self: CustomId[A], template: str, a: Field[A], /) -> None: ...
    @overload
    def __init__(self: CustomId[A, B], template: str, a: Field[A], b: Field[B], /) -> None: ...
    @overload
    def __init__(
        self: CustomId[A, B, C], template: str, a: Field[A], b: Field[B], c: Field[C], /
    ) -> None: ...
    def __init__(self, template: str, *fields: Field[Any]) -> None:
        super().__init__(template.partition(":")[0])
        self.template, self.fields = template, fields
        self.pattern = re.compile(self.regex(capture=True))
        # The id of these values: str.format itself, no call around it (a hand writes one id
        # per move button, every move).
        self.id: Callable[[*Ts], str] = template.format

    def regex(self, *, capture: bool) -> str:
        """The template as a regular expression; ``capture``: a group per value."""
        literal = "{}".join(re.escape(part) for part in self.template.split("{}"))
        group = "({})" if capture else "(?:{})"
        return literal.format(*(group.format(f.pattern) for f in self.fields))

    def parse(self, custom_id: str) -> tuple[*Ts] | None:
        """The values of an id of this template; None for any other id."""
        match = self.pattern.fullmatch(custom_id)
        if match is None:
            return None
        values = tuple(f.read(v) for f, v in zip(self.fields, match.groups(), strict=True))
        return cast("tuple[*Ts]", values)


# -- the values of the lobby's computer menus ---------------------------------------------

LEVELS = frozenset(str(level) for level in Level)
REMOVE = "remove"  # the computers menu's choice that takes a computer out of the lobby


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
