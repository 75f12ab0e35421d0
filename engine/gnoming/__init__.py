"""Gnoming A Round (3-7 players), per rules/gnoming.md.

Parts: ``cards``, ``actions``, ``state``, ``rules`` (the turn structure), ``scoring``,
``view``, ``game`` (``GAME``), ``ai`` (the computer player).
"""

from engine.gnoming.game import (
    CARD_IDS,
    GAME,
    LINES,
    Bounce,
    ChoosePile,
    Discard,
    Draw,
    Flip,
    GnomeAction,
    GnomeGame,
    NoBounce,
    NoFlip,
    Open,
    Place,
    State,
    card_kind,
    card_label,
    card_short,
    card_value,
    is_card_id,
    score_grid,
)

__all__ = [
    "CARD_IDS",
    "GAME",
    "LINES",
    "Bounce",
    "ChoosePile",
    "Discard",
    "Draw",
    "Flip",
    "GnomeAction",
    "GnomeGame",
    "NoBounce",
    "NoFlip",
    "Open",
    "Place",
    "State",
    "card_kind",
    "card_label",
    "card_short",
    "card_value",
    "is_card_id",
    "score_grid",
]
