"""Gnoming A Round: actions and their text forms.

=================  ===============================================================  =========
text               meaning                                                          phase
=================  ===============================================================  =========
``op.a.b``         opening: turn up my cells a and b (a < b, 0-8)                    opening
``dr.deck``        take the top card of the draw pile                               draw
``dr.A``/``dr.B``  take the top card of discard pile A / B                          draw
``pl.p``           place the held card at cell p (0-8)                              play
``x.A``/``x.B``    discard the held card onto pile A / B                            play
``x``              discard the held hazard (it leaves play: no pile)                play
``bo.q``           bounce the revealed card to cell q                               bounce
``nb.A``/``nb.B``  do not bounce; discard the revealed card onto pile A / B         bounce
``pi.A``/``pi.B``  put the card that ends the turn onto pile A / B                  discard
``fl.p``           hazard flip: turn up my face-down cell p                         flips
``nf``             hazard flip: decline                                             flips
=================  ===============================================================  =========

The rules' ``discard`` + ``pile:X`` steps are merged into one action for the held card
(``x.A``) and for declining a bounce (``nb.A``); only the pile that the rules allow is offered
(the empty one when exactly one pile is empty, R12). The separate ``pi.*`` step remains for a
card revealed by a placement or bounce that cannot bounce, when both piles are possible.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.base import BadActionText, CodedAction
from engine.gnoming.cards import GRID_CELLS

Pile = Literal["A", "B"]
Source = Literal["deck", "A", "B"]
PILES: tuple[Pile, Pile] = ("A", "B")


@dataclass(frozen=True, slots=True)
class Open(CodedAction):
    code = "op"
    a: int
    b: int


@dataclass(frozen=True, slots=True)
class Draw(CodedAction):
    code = "dr"
    source: Source


@dataclass(frozen=True, slots=True)
class Place(CodedAction):
    code = "pl"
    cell: int


@dataclass(frozen=True, slots=True)
class Discard(CodedAction):
    code = "x"
    pile: Pile | None  # None only for a hazard, which goes to the removed pile


@dataclass(frozen=True, slots=True)
class Bounce(CodedAction):
    code = "bo"
    cell: int


@dataclass(frozen=True, slots=True)
class NoBounce(CodedAction):
    code = "nb"
    pile: Pile


@dataclass(frozen=True, slots=True)
class ChoosePile(CodedAction):
    code = "pi"
    pile: Pile


@dataclass(frozen=True, slots=True)
class Flip(CodedAction):
    code = "fl"
    cell: int


@dataclass(frozen=True, slots=True)
class NoFlip(CodedAction):
    code = "nf"


GnomeAction = Open | Draw | Place | Discard | Bounce | NoBounce | ChoosePile | Flip | NoFlip

_CELL_TEXT = {str(cell): cell for cell in range(GRID_CELLS)}
_PILE_TEXT: dict[str, Pile] = {"A": "A", "B": "B"}


def _cell(text: str) -> int:
    cell = _CELL_TEXT.get(text)
    if cell is None:
        raise BadActionText("That is not a grid position (0-8).")
    return cell


def _pile(text: str) -> Pile:
    pile = _PILE_TEXT.get(text)
    if pile is None:
        raise BadActionText("That is not a discard pile (A or B).")
    return pile


def parse_action(text: str) -> GnomeAction:
    """Inverse of ``str(action)``; raises BadActionText on anything else."""
    if not isinstance(text, str):
        raise BadActionText("Action text must be a string.")
    if text == "nf":
        return NoFlip()
    if text == "x":
        return Discard(None)
    parts = text.split(".")
    head = parts[0]
    if len(parts) == 2:
        arg = parts[1]
        if head == "dr":
            if arg == "deck":
                return Draw("deck")
            return Draw(_pile(arg))
        if head == "pl":
            return Place(_cell(arg))
        if head == "x":
            return Discard(_pile(arg))
        if head == "bo":
            return Bounce(_cell(arg))
        if head == "nb":
            return NoBounce(_pile(arg))
        if head == "pi":
            return ChoosePile(_pile(arg))
        if head == "fl":
            return Flip(_cell(arg))
    if len(parts) == 3 and head == "op":
        a, b = _cell(parts[1]), _cell(parts[2])
        if a >= b:
            raise BadActionText("Opening cells are written lowest first and must differ.")
        return Open(a, b)
    raise BadActionText("Unknown action {text}.", text=repr(text[:40]))
