"""One move of 2-Player Hearts in a few words, for ``/history`` ("led 2♣", "played Q♠ and took
the trick (+13 points)").

The only action is playing a card (``"p.QS"``), and every card played is public the moment it
lands on the table, so nothing here is secret: the line names the card, says whether it opened
the trick, and, when it closed a trick, who took it and for how many points (read from the
spectator's view after the move, never from the action alone). The dead cards are never named.
"""

from __future__ import annotations

from typing import Any

from engine.base import BadActionText
from engine.hearts2p import GAME
from engine.hearts2p.cards import HEARTS, card_label
from engine.hearts2p.cards import suit as suit_of
from engine.hearts2p.view import HeartsTrick, HeartsView
from i18n import ngettext, pgettext
from presentation.base import Names


def _card(card: str) -> str:
    return card_label(card)


def _is(entry: Any, seat: int, card: str) -> bool:
    return isinstance(entry, dict) and entry.get("seat") == seat and entry.get("card") == card


def _closed_trick(view: HeartsView) -> tuple[HeartsTrick | None, bool]:
    """The trick the last move completed (if any) and whether it also ended the hand."""
    if view.get("trick"):
        return None, False
    if view.get("tricks"):
        # Still in the same hand, or the game's final hand (kept on the table once over).
        return view.get("last_trick"), view.get("phase") == "over"
    last_hand = view.get("last_hand")
    if isinstance(last_hand, dict):
        # The 13th trick: the hand was scored and the next one dealt in the same move.
        return last_hand.get("last_trick"), True
    return None, False


def _lead(view: HeartsView, seat: int, card: str) -> str | None:
    trick = view.get("trick") or []
    if len(trick) != 1 or not _is(trick[0], seat, card):
        return None
    label = _card(card)
    if suit_of(card) == HEARTS:
        earlier = [p for p in (view.get("played") or [])[:-1] if isinstance(p, dict)]
        if not any(suit_of(str(p.get("card", ""))) == HEARTS for p in earlier):
            return pgettext("hearts", "led {card} and broke hearts", card=label)
    return pgettext("hearts", "led {card}", card=label)


def _follow(view: HeartsView, seat: int, card: str, names: Names) -> str | None:
    trick, hand_over = _closed_trick(view)
    if not isinstance(trick, dict):
        return None
    cards = trick.get("cards") or []
    if len(cards) != 2 or not _is(cards[1], seat, card):
        return None
    label, winner, points = _card(card), trick.get("winner"), int(trick.get("points") or 0)
    if winner == seat:
        if points:
            line = ngettext(
                "played {card} and took the trick (+{n} point)",
                "played {card} and took the trick (+{n} points)",
                points,
                card=label,
            )
        else:
            line = pgettext("hearts", "played {card} and took the trick", card=label)
    elif isinstance(winner, int) and 0 <= winner < len(names):
        if points:
            line = ngettext(
                "played {card}; {name} took the trick (+{n} point)",
                "played {card}; {name} took the trick (+{n} points)",
                points,
                card=label,
                name=names[winner],
            )
        else:
            line = pgettext(
                "hearts", "played {card}; {name} took the trick", card=label, name=names[winner]
            )
    else:
        return None
    if hand_over:
        line += " · " + pgettext("hearts", "end of hand")
    return line


def move_line(action: str, seat: int, view: HeartsView, names: Names) -> str:
    """What ``seat`` did with ``action`` (``"p.<card>"``), said for a spectator; see the module."""
    try:
        card = GAME.parse_action(action).card
    except BadActionText:
        return pgettext("hearts", "made a move")
    try:
        line = _lead(view, seat, card) or _follow(view, seat, card, names)
    except (AttributeError, KeyError, TypeError, ValueError, IndexError):
        line = None
    return line or pgettext("hearts", "played {card}", card=_card(card))
