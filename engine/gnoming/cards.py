"""Gnoming A Round: the 110-card deck (rules §2) and display helpers.

Inside the engine a card is its ``idx`` (0-109, fixed by the rules table); outside it (views,
snapshots, action logs, the UI) a card is its text id such as ``"P6-03"``, ``"N2-01"``,
``"HZ-01"`` or ``"MU-02"``.
"""

from __future__ import annotations

from typing import Final, Literal

Kind = Literal["P", "N", "H", "M"]  # positive, negative, hazard, mulligan

DECK_SIZE: Final = 110
GRID_CELLS: Final = 9
HAZARD_COST: Final = 10

# The six lines of a grid: rows 0-2 then columns 0-2 (no diagonals).
LINES: Final[tuple[tuple[int, int, int], ...]] = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
)
# For each cell, the indexes (into LINES) of the two lines through it.
LINES_OF_CELL: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(i for i, line in enumerate(LINES) if cell in line) for cell in range(GRID_CELLS)
)


def _build_table() -> tuple[tuple[str, ...], tuple[Kind, ...], tuple[int, ...]]:
    ids: list[str] = []
    kinds: list[Kind] = []
    values: list[int] = []
    for value, count in ((3, 14), (4, 14), (5, 14), (6, 14), (7, 13), (8, 13)):
        for k in range(1, count + 1):
            ids.append(f"P{value}-{k:02d}")
            kinds.append("P")
            values.append(value)
    for magnitude, count in ((1, 6), (2, 8), (3, 5), (4, 3)):
        for k in range(1, count + 1):
            ids.append(f"N{magnitude}-{k:02d}")
            kinds.append("N")
            values.append(-magnitude)
    for k in range(1, 4):
        ids.append(f"HZ-{k:02d}")
        kinds.append("H")
        values.append(HAZARD_COST)
    for k in range(1, 4):
        ids.append(f"MU-{k:02d}")
        kinds.append("M")
        values.append(0)
    return tuple(ids), tuple(kinds), tuple(values)


CARD_IDS, CARD_KINDS, CARD_VALUES = _build_table()
IDX_OF_ID: Final[dict[str, int]] = {card_id: idx for idx, card_id in enumerate(CARD_IDS)}


def is_card_id(card_id: str) -> bool:
    """True for one of the 110 ids of the rules table."""
    return card_id in IDX_OF_ID


def card_kind(card_id: str) -> Kind:
    """ "P" positive, "N" negative, "H" hazard or "M" mulligan; KeyError for an unknown id."""
    return CARD_KINDS[IDX_OF_ID[card_id]]


def card_value(card_id: str) -> int:
    """Face value: 3..8 for positives, -1..-4 for negatives, 10 for a hazard, 0 for a mulligan."""
    return CARD_VALUES[IDX_OF_ID[card_id]]


def card_short(card_id: str) -> str:
    """Shortest label, as in the rules' test vectors: "6", "-2", "H", "M"."""
    return _named(card_id, "H", "M")


def card_label(card_id: str) -> str:
    """Label for buttons and tables: "6", "-2", "Hazard", "Mulligan"."""
    return _named(card_id, "Hazard", "Mulligan")


def _named(card_id: str, hazard: str, mulligan: str) -> str:
    """The card's value as text, or the name given for a hazard or a mulligan."""
    kind = card_kind(card_id)
    if kind == "H":
        return hazard
    if kind == "M":
        return mulligan
    return str(card_value(card_id))
