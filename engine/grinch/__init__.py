"""Dr. Seuss: Grinch, Grow Your Heart! (2-6 players), per rules/grinch.md.

Parts: ``scoring`` (cards, actions, row scoring), ``state`` (state and JSON), ``game`` (the
round flow and ``GAME``), ``ai`` (the computer player).
"""

from engine.grinch.game import (
    CARD_INDEX,
    CARDS,
    GAME,
    ROUNDS,
    ROW_NAMES,
    ROWS,
    SUIT_NAMES,
    SUITS,
    Action,
    Bonus,
    ChooseRow,
    Discard,
    GrinchState,
    Take,
    base,
    bonus,
    bonus_of,
    bonus_text,
    canonical,
    card_name,
    rank_of,
    row_values,
    score,
    suit_of,
)

__all__ = [
    "CARDS",
    "CARD_INDEX",
    "GAME",
    "ROUNDS",
    "ROWS",
    "ROW_NAMES",
    "SUITS",
    "SUIT_NAMES",
    "Action",
    "Bonus",
    "ChooseRow",
    "Discard",
    "GrinchState",
    "Take",
    "base",
    "bonus",
    "bonus_of",
    "bonus_text",
    "canonical",
    "card_name",
    "rank_of",
    "row_values",
    "score",
    "suit_of",
]
