"""Gnoming A Round: one short line per recorded move, for /history (said to a spectator).

``move_line`` reads the action text and the spectator's view right after the move, and names
a card only where that view shows it (rules §8):

- the opening picks and the hazard-flip answers are secret until everyone has answered: until
  then the line says only that the player chose (a decline reads the same as a flip);
- a card drawn from the deck is seen by the drawer alone: "drew from the deck";
- a placed, bounced, discarded or flipped card is public; it is read from the grid or the pile
  top of the view. When the move ended the round, the view is the next round's (or the final)
  table: a grid card is then read from the round's summary (the final reveal made it public),
  a discarded card is no longer on show and the line names the pile only.
"""

from __future__ import annotations

from engine.base import BadActionText
from engine.gnoming.actions import (
    Bounce,
    ChoosePile,
    Discard,
    Draw,
    Flip,
    GnomeAction,
    NoBounce,
    NoFlip,
    Open,
    Place,
    parse_action,
)
from engine.gnoming.view import GnomeView
from i18n import _
from presentation.base import Names
from presentation.gnoming.text import card_text, cell_name


def _parse(action: str) -> GnomeAction | None:
    try:
        return parse_action(action)
    except BadActionText:  # a bad record gives the generic line, never an error
        return None


def _round_ended(view: GnomeView) -> bool:
    """A move other than an opening pick that leaves the table in OPENING dealt a new round."""
    return view.get("phase") == "opening"


def _grid_card(view: GnomeView, seat: int, cell: int) -> str | None:
    """The card at ``cell`` of ``seat``'s grid if the spectator sees it after the move."""
    if _round_ended(view):
        last = view.get("last_round")
        seats = (last.get("seats") or []) if last else []
        card = seats[seat]["grid"][cell] if seat < len(seats) else None
        return card if isinstance(card, str) else None
    grids = view.get("grids") or []
    entry = grids[seat][cell] if seat < len(grids) else None
    return entry.get("card") if entry and entry.get("up") else None


def _pile_top(view: GnomeView, pile: str) -> str | None:
    """The top of discard pile ``pile``: the card just put there, unless a new round began."""
    if _round_ended(view):
        return None
    entry = (view.get("discard") or {}).get(pile)
    top = entry.get("top") if entry else None
    return top if isinstance(top, str) else None


def _discarded(card: str | None, pile: str) -> str:
    if card is None:
        return _("discarded a card on pile {pile}", pile=pile)
    return _("discarded {card} on pile {pile}", card=card_text(card), pile=pile)


def _opened(action: Open, seat: int, view: GnomeView) -> str:
    if view.get("phase") != "opening":
        first = _grid_card(view, seat, action.a)
        second = _grid_card(view, seat, action.b)
        if first is not None and second is not None:
            return _(
                "turned up {first} and {second}", first=card_text(first), second=card_text(second)
            )
    return _("picked two cards to turn up")


def _flip_answer(action: Flip | NoFlip, seat: int, view: GnomeView) -> str:
    if view.get("phase") == "hazard_flips":
        # Not everyone has answered: a flip and a decline are still secret, and read the same.
        return _("chose whether to turn up a card")
    if isinstance(action, NoFlip):
        return _("turned up no card")
    card = _grid_card(view, seat, action.cell)
    if card is None:
        return _("chose whether to turn up a card")
    return _("turned up {card} ({cell})", card=card_text(card), cell=cell_name(action.cell))


def _describe(action: GnomeAction, seat: int, view: GnomeView) -> str:
    if isinstance(action, Open):
        return _opened(action, seat, view)
    if isinstance(action, Draw):
        if action.source == "deck":
            return _("drew from the deck")
        in_hand = view.get("held")
        held = in_hand.get("card") if in_hand else None
        if isinstance(held, str):
            return _("took {card} from pile {pile}", card=card_text(held), pile=action.source)
        return _("took the top card of pile {pile}", pile=action.source)
    if isinstance(action, Place | Bounce):
        card = _grid_card(view, seat, action.cell)
        cell = cell_name(action.cell)
        if isinstance(action, Place):
            if card is None:
                return _("placed a card ({cell})", cell=cell)
            return _("placed {card} ({cell})", card=card_text(card), cell=cell)
        if card is None:
            return _("bounced a card ({cell})", cell=cell)
        return _("bounced {card} ({cell})", card=card_text(card), cell=cell)
    if isinstance(action, Discard):
        if action.pile is None:
            return _("discarded a ⚠️ hazard (out of play)")
        return _discarded(_pile_top(view, action.pile), action.pile)
    if isinstance(action, NoBounce):
        card = _pile_top(view, action.pile)
        if card is None:
            return _("no bounce: discarded on pile {pile}", pile=action.pile)
        return _(
            "no bounce: discarded {card} on pile {pile}", card=card_text(card), pile=action.pile
        )
    if isinstance(action, ChoosePile):
        return _discarded(_pile_top(view, action.pile), action.pile)
    return _flip_answer(action, seat, view)


def move_line(action: str, seat: int, view: GnomeView, names: Names) -> str:
    """What ``seat`` did, for a spectator, without the player's name ("placed 6 (top left)").

    ``view`` is the spectator's view right after the move; a text that does not parse, or a
    view that does not fit it, gives a generic line.
    """
    parsed = _parse(action)
    if parsed is not None:
        try:
            return _describe(parsed, seat, view)
        except (KeyError, IndexError, TypeError, AttributeError):
            pass
    return _("made a move")
