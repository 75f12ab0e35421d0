"""Grinch, Grow Your Heart: the actions and their text forms.

``d.<card>`` (discard, Who or Grinch), ``t.deck`` (the Grinch takes the deck's top card),
``t.p<seat>`` (the Grinch takes the top card of that seat's pile), ``r.<row>`` (choose a row
to score).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from engine.base import CodedAction
from engine.grinch.cards import CARD_INDEX, ROWS


@dataclass(frozen=True, slots=True)
class Discard(CodedAction):
    """A Who's secret discard, or the Grinch's discard onto his own pile."""

    code = "d"
    card: str


@dataclass(frozen=True, slots=True)
class Take:
    """A Grinch take: the deck's top card (``pile=None``) or the top of ``pile``'s pile."""

    pile: int | None

    def __str__(self) -> str:
        return "t.deck" if self.pile is None else f"t.p{self.pile}"


@dataclass(frozen=True, slots=True)
class ChooseRow(CodedAction):
    """A secret row choice in SCORING."""

    code = "r"
    row: str


Action = Discard | Take | ChooseRow
_TAKE_PILE: Final = re.compile(r"t\.p([0-9])")


def parse_action_text(text: str) -> Action | None:
    """The action written as ``text``, or None if it is not a Grinch action text."""
    if text.startswith("d.") and text[2:] in CARD_INDEX:
        return Discard(text[2:])
    if text == "t.deck":
        return Take(None)
    match = _TAKE_PILE.fullmatch(text)
    if match:
        return Take(int(match.group(1)))
    if text.startswith("r.") and text[2:] in ROWS:
        return ChooseRow(text[2:])
    return None
