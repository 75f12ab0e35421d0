"""One Grinch move said for a spectator, for ``/history`` ("discarded 🌿3", "picked a row").

The line shows only what the spectator's view right after the move shows. A Who's discard is
secret until the last Who has chosen (then every discard lands face up on its pile); a row
choice is secret until everyone has chosen (then the round is scored and ``last_round`` tells
each seat's row and points); a card the Grinch takes from the deck is never shown. The
Grinch's own discard and a card taken from a pile are public.
"""

from __future__ import annotations

from engine.grinch.actions import ChooseRow, Discard, Take, parse_action_text
from engine.grinch.view import GrinchView
from i18n import _, ngettext
from presentation.base import Names
from presentation.grinch.text import card_short, row_name


def _pile_top(view: GrinchView, seat: int) -> str | None:
    piles = view.get("piles") or []
    if 0 <= seat < len(piles) and piles[seat]:
        return str(piles[seat][-1])
    return None


def _name(names: Names, seat: int) -> str | None:
    return names[seat] if 0 <= seat < len(names) else None


def _discard(card: str, seat: int, view: GrinchView) -> str:
    # The card is in the seat's hand up to this move, so it can top the seat's pile only once
    # the discard is face up: the Grinch's at once, the Whos' when the last one is in.
    if _pile_top(view, seat) == card:
        return _("discarded {card}", card=card_short(card))
    return _("discarded a card")


def _take(pile: int | None, seat: int, view: GrinchView, names: Names) -> str:
    if pile is None:
        return _("took a card from the deck")  # seen by the Grinch only, ever
    takes = view.get("takes") or []
    last = takes[-1] if takes else None
    card = last.get("card") if last is not None and last.get("owner") == pile else None
    if pile == seat:
        if card:
            return _("took {card} back from their own pile", card=card_short(str(card)))
        return _("took a card back from their own pile")
    owner = _name(names, pile)
    if owner is None:
        return _("took a card from a pile")
    if card:
        return _("took {card} from {name}'s pile", card=card_short(str(card)), name=owner)
    return _("took a card from {name}'s pile", name=owner)


def _row(row: str, seat: int, view: GrinchView) -> str:
    last = view.get("last_round")
    # A seat never picks the same row twice, so a matching row in ``last_round`` outside
    # SCORING is this very choice, revealed with the round's scoring.
    if view.get("phase") != "SCORING" and last:
        rows, points = last.get("rows") or [], last.get("points") or []
        if 0 <= seat < min(len(rows), len(points)) and rows[seat] == row:
            return ngettext(
                "picked {row}: {n} point",
                "picked {row}: {n} points",
                int(points[seat]),
                row=row_name(row),
            )
    return _("picked a row")


def _line(action: str, seat: int, view: GrinchView, names: Names) -> str | None:
    move = parse_action_text(action) if isinstance(action, str) else None
    if isinstance(move, Discard):
        return _discard(move.card, seat, view)
    if isinstance(move, Take):
        return _take(move.pile, seat, view, names)
    if isinstance(move, ChooseRow):
        return _row(move.row, seat, view)
    return None


def move_line(action: str, seat: int, view: GrinchView, names: Names) -> str:
    """What ``seat`` did, for a spectator, without the player's name; see the module doc."""
    try:
        line = _line(action, seat, view, names)
    except (LookupError, TypeError, ValueError, AttributeError):  # a view not from the engine
        line = None
    return line or _("made a move")
